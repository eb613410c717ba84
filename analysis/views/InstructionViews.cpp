/// \file
/// Text and JSON of `warplens explain` for kernel instructions (InstructionViews.h). The bank
/// diagram and the per-warp JSON are the pattern views' (PatternViews.h).
#include "analysis/views/InstructionViews.h"

#include "analysis/views/PatternViews.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <map>
#include <sstream>

namespace warplens::analysis {

namespace {

std::string hex(std::uint64_t v, int width = 4) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%0*llx", width, static_cast<unsigned long long>(v));
  return b;
}

std::string dim(unsigned x, unsigned y, unsigned z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

std::string laneList(const std::vector<unsigned> &lanes) {
  std::string s;
  for (std::size_t i = 0; i < lanes.size(); ++i) s += (i ? "," : "") + std::to_string(lanes[i]);
  return s;
}

bool isShared(const InstructionExplanation &ex) { return ex.worst.event.space == model::Space::Shared; }

void laneLines(const PatternReport &r, const WarpRecord &w, std::ostream &os) {
  const bool shared = r.options.space == model::Space::Shared;
  const unsigned elem = r.options.elem;
  if (shared)
    os << "\nper lane: shared byte address → word = byte/" << r.bankWidthBytes << " → bank = word % "
       << r.banks << "\n";
  else
    os << "\nper lane: global byte address → sector = byte/" << r.sectorBytes << "\n";
  for (const LaneRecord &l : w.lanes) {
    os << "  lane " << std::setw(2) << l.lane << " (tx=" << l.tx << ",ty=" << l.ty;
    if (r.options.block.z > 1) os << ",tz=" << l.tz;
    os << "): ";
    if (!l.active) {
      os << "inactive\n";
      continue;
    }
    if (shared) {
      os << "byte " << l.address << " → word " << l.word << " → bank " << l.word << " % "
         << r.banks << " = " << l.bank;
      if (elem > r.bankWidthBytes)
        os << " .. " << (l.bank + (elem + r.bankWidthBytes - 1) / r.bankWidthBytes - 1) % r.banks;
    } else {
      os << hex(l.address, 1) << " → sector " << hex(l.sector, 1);
      if (l.sectorLast != l.sector) os << " .. " << hex(l.sectorLast, 1);
    }
    os << "\n";
  }
}

void sectorMap(const PatternReport &r, const WarpRecord &w, std::ostream &os) {
  std::map<std::uint64_t, std::vector<unsigned>> sectors;
  for (const LaneRecord &l : w.lanes)
    if (l.active)
      for (std::uint64_t s = l.sector; s <= l.sectorLast; ++s) sectors[s].push_back(l.lane);
  os << "\nsector map (" << sectors.size() << " distinct " << r.sectorBytes << "-byte sectors):\n";
  for (const auto &[s, lanes] : sectors)
    os << "  sector " << hex(s, 1) << " (bytes " << hex(s * r.sectorBytes, 1) << ".."
       << hex((s + 1) * r.sectorBytes - 1, 1) << "): lanes " << laneList(lanes) << "\n";
}

void totalsLine(const InstructionExplanation &ex, std::ostream &os) {
  const launch::InstructionRecord &t = ex.record;
  os << "   totals: executed " << t.executed << " times (warps), " << t.threads << " threads";
  if (t.space == "shared") {
    os << ", wavefronts " << t.wavefronts << " (ideal " << t.wavefrontsIdeal << ")";
    if (t.wavefronts > t.wavefrontsIdeal)
      os << ": " << t.wavefronts - t.wavefrontsIdeal << " extra, worst " << t.conflictWaysMax
         << "-way conflict";
  } else if (t.space == "global" || t.space == "local") {
    os << ", requests " << t.requests << ", sectors " << t.sectors << " (ideal " << t.sectorsIdeal
       << ", efficiency " << std::fixed << std::setprecision(1)
       << (t.sectors ? 100.0 * t.sectorsIdeal / t.sectors : 100.0) << "%)";
  }
  os << "\n";
}

void explainOne(const InstructionExplainReport &rep, const InstructionExplanation &ex,
                std::ostream &os) {
  const launch::InstructionRecord &t = ex.record;
  os << "\n== " << (t.sassPc ? hex(*t.sassPc) + "  " + t.sass
                             : "PTX line " + std::to_string(t.ptxLine) + "  " + t.ptx + "  (no SASS)")
     << "\n";
  os << "   source " << (t.sourceFile.empty() ? std::string("?") : t.sourceFile) << ":"
     << t.sourceLine << "   PTX line " << t.ptxLine << ": " << t.ptx << "\n";
  os << "   " << t.space << " " << t.op << ", " << t.widthBytes << " bytes per lane\n";
  totalsLine(ex, os);
  if (!ex.executed) {
    os << "   " << (ex.worst.executions ? "no memory model applies to this space"
                                         : "never executed in this launch")
       << ": nothing more to show\n";
    return;
  }
  const model::WorstEvent &w = ex.worst;
  const bool shared = isShared(ex);
  const char *unit = shared ? "wavefronts" : "sectors";
  os << "   " << unit << " per execution:";
  for (std::uint32_t c = 0; c < w.histogram.size(); ++c)
    if (w.histogram[c]) os << " " << c << " x" << w.histogram[c];
  os << "\n";
  const WarpRecord &wr = ex.warp.warps.front();
  os << "   costliest warp: warp " << wr.warp << " of block " << dim(wr.blockX, wr.blockY, wr.blockZ)
     << ", " << wr.active << " lanes active: ";
  if (shared)
    os << wr.wavefronts << " wavefronts (ideal " << wr.wavefrontsIdeal << "), "
       << (wr.conflictWays > 1 ? std::to_string(wr.conflictWays) + "-way conflict" : "no conflict");
  else
    os << wr.sectors << " sectors (ideal " << wr.sectorsIdeal << "), " << wr.lines << " line" << (wr.lines == 1 ? "" : "s");
  os << "\n   " << w.asBad << " of " << w.executions << " executions (" << std::fixed
     << std::setprecision(1) << (w.executions ? 100.0 * w.asBad / w.executions : 0.0)
     << "%) were as bad as this one\n";
  laneLines(ex.warp, wr, os);
  os << "\n";
  if (shared) os << renderBankDiagram(ex.warp, wr);
  else sectorMap(ex.warp, wr, os);
  if (!ex.collisions.empty()) {
    os << "\nconflicts:\n";
    for (const BankCollision &c : ex.collisions) {
      os << "  bank " << c.bank << " serves " << c.words.size() << " different words:";
      for (const auto &[word, lanes] : c.words) os << " " << word << " (lane " << laneList(lanes) << ")";
      os << "\n";
    }
  }
  os << "\n";
  for (const std::string &s : ex.ideal) os << s << "\n";
  if (!ex.fixes.empty()) {
    os << "\ncandidate layouts (this warp's wavefronts with the rewrite; every access of the array "
          "must use it; rows counted from the warp's lowest address rounded down to a row):\n";
    for (const LayoutFix &f : ex.fixes)
      os << "  " << std::setw(3) << f.wavefronts << "  " << f.label
         << (f.wavefronts <= wr.wavefrontsIdeal ? "  ← ideal" : "") << "\n";
  }
  (void)rep;
}

} // namespace

std::string renderInstructionExplainText(const InstructionExplainReport &rep) {
  std::ostringstream os;
  os << "explain " << rep.selector << ": launch " << rep.launch << ", kernel " << rep.kernel
     << ", grid " << dim(rep.grid[0], rep.grid[1], rep.grid[2]) << ", block "
     << dim(rep.block[0], rep.block[1], rep.block[2]) << ", arch " << rep.arch << "\n"
     << "sass: " << rep.sassSource << "; " << rep.instructions.size() << " instruction"
     << (rep.instructions.size() == 1 ? "" : "s") << "\n";
  for (const std::string &n : rep.notes) os << "note: " << n << "\n";
  for (const InstructionExplanation &ex : rep.instructions) explainOne(rep, ex, os);
  return os.str();
}

nlohmann::json instructionExplainToJson(const InstructionExplainReport &rep) {
  nlohmann::json j = {{"launch", rep.launch},     {"kernel", rep.kernel},
                      {"arch", rep.arch},         {"grid", rep.grid},
                      {"block", rep.block},       {"sass_source", rep.sassSource},
                      {"selector", rep.selector}, {"notes", rep.notes}};
  nlohmann::json list = nlohmann::json::array();
  for (const InstructionExplanation &ex : rep.instructions) {
    nlohmann::json i = {{"instruction", launch::toJson(ex.record)}, {"executed", ex.executed}};
    if (ex.executed) {
      const model::WorstEvent &w = ex.worst;
      nlohmann::json hist = nlohmann::json::array();
      for (std::uint32_t c = 0; c < w.histogram.size(); ++c)
        if (w.histogram[c]) hist.push_back({{"cost", c}, {"executions", w.histogram[c]}});
      i["histogram_of"] = isShared(ex) ? "wavefronts" : "sectors";
      i["histogram"] = std::move(hist);
      i["executions"] = w.executions;
      i["worst_cost"] = w.cost;
      i["as_bad_as_worst"] = w.asBad;
      i["costliest_warp"] = patternToJson(ex.warp)["warps"][0];
      nlohmann::json coll = nlohmann::json::array();
      for (const BankCollision &c : ex.collisions) {
        nlohmann::json words = nlohmann::json::array();
        for (const auto &[word, lanes] : c.words) words.push_back({{"word", word}, {"lanes", lanes}});
        coll.push_back({{"bank", c.bank}, {"words", std::move(words)}});
      }
      i["collisions"] = std::move(coll);
      i["ideal"] = ex.ideal;
      nlohmann::json fixes = nlohmann::json::array();
      for (const LayoutFix &f : ex.fixes) fixes.push_back({{"label", f.label}, {"wavefronts", f.wavefronts}});
      i["layout_candidates"] = std::move(fixes);
    }
    list.push_back(std::move(i));
  }
  j["instructions"] = std::move(list);
  return j;
}

} // namespace warplens::analysis
