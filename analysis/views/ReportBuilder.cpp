/// \file
/// Builds the HTML report's structs (see ReportBuilder.h): diagrams and evaluated fixes from the
/// costliest warps, verdicts from compare(), source lines from the files the line info names.
#include "analysis/views/ReportBuilder.h"

#include "analysis/compare/Compare.h"
#include "analysis/compare/CompareViews.h"
#include "analysis/views/InstructionExplain.h"
#include "analysis/views/PatternViews.h"
#include "model/GlobalModel.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

namespace warplens::analysis {

namespace fs = std::filesystem;

namespace {

std::uint64_t waste(const launch::InstructionRecord &r) {
  return wastedSectors(r) + wastedWavefronts(r);
}

/// Global rewrites of the costliest warp, counted with the global model: the same lanes on
/// consecutive elements from a sector boundary, and the same addresses moved to a boundary.
std::vector<ReportFix> globalFixes(const model::AccessEvent &e, const arch::ArchSpec &arch,
                                   std::uint64_t lowest) {
  std::vector<ReportFix> fixes;
  const model::GlobalModel global(arch);
  const unsigned elem = std::max<unsigned>(1, e.widthBytes);
  const std::uint64_t base = lowest / arch.sectorBytes * arch.sectorBytes;
  model::AccessEvent c = e;
  unsigned k = 0;
  for (unsigned lane = 0; lane < 32; ++lane)
    if (c.active.test(lane)) c.addr[lane] = ByteAddress{base + std::uint64_t(k++) * elem};
  fixes.push_back({"consecutive lanes on consecutive elements from a 32-byte boundary "
                   "(threadIdx.x on the contiguous index, or a tile staged through shared memory)",
                   global.cost(c).sectors});
  if (lowest != base) {
    model::AccessEvent a = e;
    for (unsigned lane = 0; lane < 32; ++lane)
      if (a.active.test(lane)) a.addr[lane] = ByteAddress{a.addr[lane].value - (lowest - base)};
    fixes.push_back({"the same pattern moved down " + std::to_string(lowest - base) +
                         " bytes to a 32-byte boundary (aligned pointer or offset)",
                     global.cost(a).sectors});
  }
  std::stable_sort(fixes.begin(), fixes.end(),
                   [](const ReportFix &a, const ReportFix &b) { return a.count < b.count; });
  return fixes;
}

ReportDiagram diagramOf(const InstructionExplanation &ex, const arch::ArchSpec &arch) {
  ReportDiagram d;
  const bool shared = ex.worst.event.space == model::Space::Shared;
  d.svg = renderPatternSvg(ex.warp);
  const std::string ns = " xmlns='http://www.w3.org/2000/svg'"; // inline in HTML: not needed
  if (auto p = d.svg.find(ns); p != std::string::npos) d.svg.erase(p, ns.size());
  d.unit = shared ? "wavefronts" : "sectors";
  d.cost = ex.worst.cost;
  const WarpRecord &w = ex.warp.warps.front();
  d.ideal = shared ? w.wavefrontsIdeal : w.sectorsIdeal;
  d.executions = ex.worst.executions;
  d.asBad = ex.worst.asBad;
  d.warp = "warp " + std::to_string(w.warp) + " of block (" + std::to_string(w.blockX) + "," +
           std::to_string(w.blockY) + "," + std::to_string(w.blockZ) + ")";
  d.why = ex.ideal;
  std::uint64_t lowest = UINT64_MAX;
  const LaneRecord *prev = nullptr;
  bool uniform = true;
  for (const LaneRecord &l : w.lanes) {
    if (!l.active) continue;
    lowest = std::min(lowest, l.address);
    if (prev) {
      const std::int64_t delta = std::int64_t(l.address) - std::int64_t(prev->address);
      if (!d.laneStride) d.laneStride = delta;
      else if (*d.laneStride != delta) uniform = false;
    }
    prev = &l;
  }
  if (!uniform) d.laneStride.reset();
  if (lowest != UINT64_MAX) d.offsetInSector = unsigned(lowest % arch.sectorBytes);
  if (shared) {
    for (const LayoutFix &f : ex.fixes) d.fixes.push_back({f.label, f.wavefronts});
  } else if (lowest != UINT64_MAX) {
    d.fixes = globalFixes(ex.worst.event, arch, lowest);
  }
  return d;
}

bool sameSite(const launch::InstructionRecord &a, const launch::InstructionRecord &b) {
  if (a.sassPc && b.sassPc) return *a.sassPc == *b.sassPc;
  return a.ptxLine == b.ptxLine && a.sourceLine == b.sourceLine && a.space == b.space &&
         a.op == b.op && a.executed == b.executed && a.sectors == b.sectors &&
         a.wavefronts == b.wavefronts;
}

std::vector<std::string> readLines(const fs::path &p) {
  std::ifstream f(p, std::ios::binary);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(f, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

} // namespace

ReportLaunch reportLaunch(const launch::LaunchResult &result, const RunDetail *detail,
                          const launch::LaunchSpec *spec, const arch::ArchSpec *arch) {
  ReportLaunch L;
  L.result = result;
  L.result.instructions.clear();
  std::map<std::size_t, ReportDiagram> diagrams;
  if (detail && detail->worst && spec && arch) {
    std::vector<std::size_t> costly;
    for (std::size_t i = 0; i < result.instructions.size(); ++i)
      if (waste(result.instructions[i]) && i < detail->sites.size()) costly.push_back(i);
    std::stable_sort(costly.begin(), costly.end(), [&](std::size_t a, std::size_t b) {
      return waste(result.instructions[a]) > waste(result.instructions[b]);
    });
    if (costly.size() > kMaxDiagramsPerLaunch) costly.resize(kMaxDiagramsPerLaunch);
    const InstructionExplainReport ex = explainInstructions(result, *detail, costly, *spec, *arch);
    for (std::size_t k = 0; k < costly.size() && k < ex.instructions.size(); ++k)
      if (ex.instructions[k].executed) diagrams[costly[k]] = diagramOf(ex.instructions[k], *arch);
  }
  for (std::size_t i = 0; i < result.instructions.size(); ++i) {
    ReportInstruction ri;
    ri.predicted = result.instructions[i];
    if (auto it = diagrams.find(i); it != diagrams.end()) ri.diagram = std::move(it->second);
    ri.diagnosis = diagnose(ri.predicted, ri.diagram ? &*ri.diagram : nullptr);
    L.instructions.push_back(std::move(ri));
  }
  return L;
}

void addMeasurements(Report &report, const MeasuredInput &measured, const std::string &file) {
  std::vector<launch::LaunchResult> predicted;
  for (const ReportLaunch &L : report.launches) {
    launch::LaunchResult r = L.result;
    for (const ReportInstruction &i : L.instructions)
      if (!i.measuredOnly) r.instructions.push_back(i.predicted);
    predicted.push_back(std::move(r));
  }
  CompareOptions opt;
  opt.instructionFields = measured.instructionFields;
  const CompareReport cmp = compare(predicted, measured.launches, opt);
  report.measuredFile = file;
  report.measuredFormat = measured.format;
  report.onlyPredicted = cmp.onlyPredicted;
  report.onlyMeasured = cmp.onlyMeasured;
  for (const LaunchComparison &c : cmp.launches) {
    auto L = std::find_if(report.launches.begin(), report.launches.end(),
                          [&](const ReportLaunch &l) { return l.result.name == c.name; });
    if (L == report.launches.end()) continue;
    L->measured = true;
    L->device = c.device;
    L->measuredOk = c.ok;
    L->exact = c.instructionsExact;
    L->byGroup = c.instructionsByGroup;
    L->byLine = c.instructionsByLine;
    L->mismatched = c.instructionsMismatched;
    for (const MetricRow &m : c.metrics)
      L->metricRows.push_back({m.metric, m.predicted, m.measured, formatTolerance(m.tolerance),
                               m.compared, m.ok});
    // The measured launch itself, for metrics compare() leaves out (gpu__time_duration.sum).
    const launch::LaunchResult *ml = nullptr;
    for (const auto &m : measured.launches)
      if (m.name == c.name) ml = &m;
    for (const auto &m : measured.launches)
      if (!ml && m.kernel == c.kernel) ml = &m;
    if (ml) L->measuredMetrics = ml->metrics;
    for (const MetricRow &m : c.metrics)
      if (m.measured) L->measuredMetrics[m.metric] = *m.measured;
    if (!c.instructionsCompared) continue;
    std::vector<bool> taken(L->instructions.size(), false);
    for (const InstructionRow &row : c.instructions) {
      std::vector<std::string> bad;
      for (const FieldCheck &f : row.fields)
        if (!f.ok)
          bad.push_back(f.field + " " + std::to_string(f.predicted) + " predicted, " +
                        std::to_string(f.measured) + " measured");
      if (!row.predicted) {
        if (!row.measured) continue;
        ReportInstruction ri;
        ri.predicted = *row.measured;
        ri.measured = row.measured;
        ri.measuredOnly = true;
        ri.verdict = toString(row.verdict);
        ri.ok = row.ok;
        ri.mismatches = {"measured only: no predicted instruction at this pc"};
        ri.diagnosis = diagnose(*row.measured, nullptr);
        L->instructions.push_back(std::move(ri));
        taken.push_back(true);
        continue;
      }
      for (std::size_t j = 0; j < L->instructions.size(); ++j) {
        ReportInstruction &ri = L->instructions[j];
        if (taken[j] || ri.measuredOnly || !sameSite(ri.predicted, *row.predicted)) continue;
        taken[j] = true;
        ri.measured = row.measured;
        ri.verdict = toString(row.verdict);
        ri.ok = row.ok;
        ri.mismatches = bad;
        break;
      }
    }
  }
}

void addSources(Report &report, const std::vector<std::string> &dirs) {
  std::map<std::string, std::string> keyOf; // path as named → key in report.sources ("" = none)
  for (ReportLaunch &L : report.launches) {
    std::map<std::string, std::size_t> files;
    for (const ReportInstruction &i : L.instructions)
      if (!i.predicted.sourceFile.empty() && i.predicted.sourceLine > 0)
        ++files[i.predicted.sourceFile];
    if (files.empty()) continue;
    const std::string named =
        std::max_element(files.begin(), files.end(), [](const auto &a, const auto &b) {
          return a.second < b.second;
        })->first;
    if (!keyOf.count(named)) {
      std::error_code ec;
      fs::path found;
      if (fs::is_regular_file(named, ec)) found = named;
      for (const std::string &d : dirs)
        if (found.empty() && fs::is_regular_file(fs::path(d) / fs::path(named).filename(), ec))
          found = fs::path(d) / fs::path(named).filename();
      std::string key;
      if (!found.empty()) {
        const fs::path rel = fs::proximate(found, ec);
        key = (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0 ? rel : found).generic_string();
        if (!report.sources.count(key)) report.sources[key] = readLines(found);
      }
      keyOf[named] = key;
    }
    L.sourceKey = keyOf[named];
    if (L.sourceKey.empty()) continue;
    const std::vector<std::string> &lines = report.sources[L.sourceKey];
    int lo = 0, hi = 0;
    for (const ReportInstruction &i : L.instructions)
      if (i.predicted.sourceFile == named && i.predicted.sourceLine > 0 &&
          i.predicted.sourceLine <= int(lines.size())) {
        lo = lo ? std::min(lo, i.predicted.sourceLine) : i.predicted.sourceLine;
        hi = std::max(hi, i.predicted.sourceLine);
      }
    if (!lo) {
      L.sourceKey.clear();
      continue;
    }
    // Up to the enclosing function's first line: the nearest line above that starts in column
    // 0 with code (not a brace, comment or directive), then its doc comment and template lines.
    int first = lo, last = hi;
    for (int l = lo; l >= 1 && l > lo - 150; --l) {
      const std::string &t = lines[l - 1];
      if (!t.empty() && std::string(" \t}/#").find(t[0]) == std::string::npos) {
        first = l;
        break;
      }
    }
    while (first > 1 && (lines[first - 2].rfind("///", 0) == 0 ||
                         lines[first - 2].rfind("template", 0) == 0))
      --first;
    for (int l = hi; l <= int(lines.size()) && l < hi + 200; ++l)
      if (!lines[l - 1].empty() && lines[l - 1][0] == '}') {
        last = l;
        break;
      }
    L.firstLine = first;
    L.lastLine = last;
  }
}

Expected<std::string> renderReportPage(Report report, const std::string &measuredPath,
                                       const std::vector<std::string> &sourceDirs) {
  if (!measuredPath.empty()) {
    auto m = loadMeasured(measuredPath);
    if (!m) return Error{"--measured: " + m.error().message, 2};
    addMeasurements(report, *m, measuredPath);
  }
  addSources(report, sourceDirs);
  return renderReportHtml(report);
}

} // namespace warplens::analysis
