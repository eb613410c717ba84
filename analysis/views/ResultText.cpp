/// \file
/// Text view of launch results: per launch a header, one aligned row per memory instruction,
/// then the kernel totals under Nsight Compute names. Deterministic, so it can be diffed.
#include "analysis/views/ResultTable.h"
#include "analysis/views/ResultViews.h"
#include "analysis/views/TimeViews.h"

#include <sstream>

namespace warplens::analysis {

namespace {

std::string dims(const std::array<std::uint32_t, 3> &d) {
  return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
}

std::string instructionText(const launch::InstructionRecord &r) {
  std::string t;
  if (!r.sass.empty()) t = r.sass;
  else if (!r.ptx.empty()) t = r.ptx;
  if (t.size() > 44) t = t.substr(0, 41) + "...";
  return t;
}

std::string location(const launch::InstructionRecord &r) {
  if (r.sassPc) return formatPc(*r.sassPc);
  if (r.ptxLine >= 0) return "ptx:" + std::to_string(r.ptxLine);
  return "-";
}

std::string sourceText(const launch::InstructionRecord &r) {
  if (r.sourceLine < 0) return "-";
  std::string file = r.sourceFile;
  if (auto slash = file.find_last_of('/'); slash != std::string::npos) file = file.substr(slash + 1);
  return (file.empty() ? std::string("line") : file) + ":" + std::to_string(r.sourceLine);
}

std::string num(std::uint64_t v) { return std::to_string(v); }

void renderLaunch(const launch::LaunchResult &r, std::ostringstream &os) {
  os << "== " << r.name;
  if (!r.kernel.empty()) os << "  kernel " << r.kernel;
  os << "  grid " << dims(r.grid) << "  block " << dims(r.block);
  if (!r.arch.empty()) os << "  arch " << r.arch;
  os << "\n";
  if (!r.device.empty()) os << "   device: " << r.device << "\n";
  if (!r.sassSource.empty()) os << "   sass:   " << r.sassSource << "\n";
  if (!r.engine.empty())
    os << "   engine: " << r.engine
       << (r.engine != "sass" ? " (PTX emulated)"
           : r.mode == "address-only" ? " (the cubin's SASS executed, address-only: values not computed)"
                                      : " (the cubin's SASS executed)")
       << "\n";
  if (r.checkPassed)
    os << "   check:  " << (*r.checkPassed ? "passed" : "FAILED")
       << (r.checkDetail.empty() ? "" : " (" + r.checkDetail + ")") << "\n";
  else
    os << "   check:  not run\n";
  os << renderTimeText(r);
  for (const auto &n : r.notes) os << "   note:   " << n << "\n";
  if (!r.error.empty()) os << "   ERROR:  not analyzed: " << r.error << "\n";
  os << "\n";

  if (r.instructions.empty()) {
    os << "  (no memory instructions)\n";
  } else {
    // A "copy" column (c1, c2, ...) only where ptxas made copies of an access (unrolling).
    bool copies = false;
    for (const auto &i : r.instructions) copies = copies || i.copyGroup.has_value();
    std::vector<std::string> header{"pc", "instruction", "source", "space", "op", "width",
                                    "executed", "requests", "sectors", "ideal", "eff%",
                                    "wavefronts", "ideal", "ways"};
    std::vector<bool> right{false, false, false, false, false, true, true,
                            true,  true,  true,  true,  true,  true, true};
    if (copies) {
      header.insert(header.begin() + 2, "copy");
      right.insert(right.begin() + 2, false);
    }
    TextTable t(header, right);
    for (const auto &i : r.instructions) {
      const bool shared = i.space == "shared";
      std::vector<std::string> row{
          location(i), instructionText(i), sourceText(i), i.space, i.op,
          num(i.widthBytes), num(i.executed),
          shared ? "-" : num(i.requests), shared ? "-" : num(i.sectors),
          shared ? "-" : num(i.sectorsIdeal),
          shared ? "-" : formatPercent(double(i.sectorsIdeal), double(i.sectors)),
          shared ? num(i.wavefronts) : "-", shared ? num(i.wavefrontsIdeal) : "-",
          shared ? num(i.conflictWaysMax) : "-"};
      if (copies)
        row.insert(row.begin() + 2, i.copyGroup ? "c" + std::to_string(*i.copyGroup) : "-");
      t.addRow(std::move(row));
    }
    os << t.render();
    if (copies)
      os << "  copy cN: one of several SASS copies ptxas made of the same PTX access (unrolled "
            "loop); the sum over cN is exact, per-copy counts depend on the notes above\n";
  }

  if (!r.metrics.empty()) {
    os << "\n  totals (Nsight Compute metric names)\n";
    TextTable t({"metric", "value"}, {false, true});
    for (const auto &[k, v] : r.metrics) t.addRow({k, formatNumber(v)});
    os << t.render("    ");
  }
}

} // namespace

std::string renderResultsText(const std::vector<launch::LaunchResult> &results) {
  std::ostringstream os;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (i) os << "\n";
    renderLaunch(results[i], os);
  }
  return os.str();
}

} // namespace warplens::analysis
