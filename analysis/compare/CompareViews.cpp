/// \file
/// Text, JSON and markdown views of a CompareReport (pure functions of the struct).
#include "analysis/compare/CompareViews.h"

#include "analysis/views/ResultTable.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace warplens::analysis {

namespace {

std::string pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g%%", std::round(v * 1000.0) / 10.0);
  return b;
}

std::string opt(const std::optional<double> &v) { return v ? formatNumber(*v) : "-"; }

std::string diffText(const MetricRow &r) {
  if (!r.compared) return "-";
  std::string d = (r.excess > 0 ? "+" : "") + formatNumber(r.excess);
  if (r.excess != 0 && *r.predicted != 0) {
    char b[32];
    const double rel = 100.0 * r.excess / *r.predicted;
    std::snprintf(b, sizeof b, std::fabs(rel) >= 0.1 ? " (%+.1f%%)" : " (%+.2g%%)", rel);
    d += b;
  }
  return d;
}

std::string metricStatus(const MetricRow &r) {
  if (!r.compared) return r.predicted ? "predicted only" : "measured only";
  return r.ok ? "ok" : "MISMATCH";
}

const launch::InstructionRecord &either(const InstructionRow &r) {
  return r.predicted ? *r.predicted : *r.measured;
}

std::string insnLocation(const InstructionRow &r) {
  const auto &i = either(r);
  if (i.sassPc) return formatPc(*i.sassPc);
  if (r.measured && r.measured->sassPc) return formatPc(*r.measured->sassPc);
  if (i.ptxLine >= 0) return "ptx:" + std::to_string(i.ptxLine);
  return "-";
}

std::string insnText(const InstructionRow &r) {
  const auto &i = either(r);
  std::string t = !i.sass.empty() ? i.sass
                  : (r.measured && !r.measured->sass.empty()) ? r.measured->sass
                                                              : i.ptx;
  if (t.size() > 40) t = t.substr(0, 37) + "...";
  return t.empty() ? "-" : t;
}

std::string insnSource(const InstructionRow &r) {
  const auto &i = either(r);
  if (i.sourceLine < 0) return "-";
  std::string f = i.sourceFile;
  if (auto s = f.find_last_of('/'); s != std::string::npos) f = f.substr(s + 1);
  return (f.empty() ? "line" : f) + ":" + std::to_string(i.sourceLine);
}

std::string fieldValue(const launch::InstructionRecord &r, const std::string &f) {
  if (f == "executed") return std::to_string(r.executed);
  if (f == "sectors") return std::to_string(r.sectors);
  if (f == "sectors_ideal") return std::to_string(r.sectorsIdeal);
  if (f == "wavefronts") return std::to_string(r.wavefronts);
  if (f == "wavefronts_ideal") return std::to_string(r.wavefrontsIdeal);
  return "-";
}

/// "c3 Σ7 executed 14680064" (+ "; sectors_ideal 1 vs 2" per differing sum), "c3", or "-".
std::string groupCell(const InstructionRow &r) {
  if (!r.copyGroup) return "-";
  std::string c = "c" + std::to_string(*r.copyGroup);
  if (r.groupFields.empty()) return c;
  c += (r.verdict == RowVerdict::LineOk ? " line Σ" : " Σ") + std::to_string(r.groupSize);
  for (const auto &f : r.groupFields)
    if (f.field == "executed")
      c += " executed " + (f.ok ? std::to_string(f.predicted)
                                : std::to_string(f.predicted) + " vs " + std::to_string(f.measured));
  for (const auto &f : r.groupFields)
    if (f.field != "executed" && !f.ok)
      c += "; " + f.field + " " + std::to_string(f.predicted) + " vs " + std::to_string(f.measured);
  return c;
}

bool anyCopyGroup(const CompareReport &rep) {
  for (const auto &l : rep.launches)
    for (const auto &r : l.instructions)
      if (r.copyGroup) return true;
  return false;
}

std::vector<std::string> insnCells(const InstructionRow &r, const std::set<std::string> &fields,
                                   bool copies) {
  const auto &i = either(r);
  std::vector<std::string> cells{insnLocation(r), insnText(r), insnSource(r), i.space + " " + i.op};
  for (const auto &f : fields) {
    if (!r.predicted || !r.measured) {
      cells.push_back(fieldValue(either(r), f));
      continue;
    }
    std::string c = fieldValue(*r.predicted, f);
    for (const auto &fc : r.fields)
      if (fc.field == f && fc.predicted != fc.measured)
        c = std::to_string(fc.predicted) + " vs " + std::to_string(fc.measured);
    cells.push_back(c);
  }
  cells.push_back(r.predicted && r.measured ? r.matchedBy
                  : r.predicted            ? "predicted only"
                                           : "measured only");
  cells.push_back(toString(r.verdict));
  if (copies) cells.push_back(groupCell(r));
  return cells;
}

std::vector<std::string> fieldHeaders(const std::set<std::string> &fields, bool copies) {
  std::vector<std::string> h{"pc", "instruction", "source", "access"};
  for (const auto &f : fields) h.push_back(f);
  h.push_back("match");
  h.push_back("status");
  if (copies) h.push_back("copy group (sums)");
  return h;
}

std::string summaryLine(const CompareReport &rep) {
  std::size_t ok = 0;
  for (const auto &l : rep.launches) ok += l.ok ? 1 : 0;
  std::ostringstream os;
  os << rep.launches.size() << " launches compared, " << ok << " within tolerance, "
     << rep.launches.size() - ok << " mismatched; instructions exactly matched: "
     << rep.instructionsExact() << " of " << rep.instructionsTotal();
  if (rep.instructionsTotal())
    os << " (" << formatPercent(double(rep.instructionsExact()), double(rep.instructionsTotal()))
       << "%)";
  if (auto t = rep.timeSummary(); t.compared)
    os << "; durations within 15%: " << t.within << " of " << t.compared
       << (rep.timeShareRequired > 0 ? " (required share " + formatPercent(rep.timeShareRequired, 1.0) + "%)" : "");
  if (rep.instructionsByGroup() || rep.instructionsByLine() || anyCopyGroup(rep))
    os << "; matched by copy-group sums: " << rep.instructionsByGroup()
       << ", by source-line sums: " << rep.instructionsByLine()
       << "; mismatched: " << rep.instructionsMismatched();
  return os.str();
}

} // namespace

std::string formatTolerance(const Tolerance &t) {
  if (t.absolute > 0) {
    Tolerance rel = t;
    rel.absolute = 0;
    std::ostringstream os;
    os << formatTolerance(rel) << " +/-" << static_cast<long long>(t.absolute);
    return os.str();
  }
  if (t.below == 0 && t.above == 0) return "exact";
  if (t.below == 0) return "+" + pct(t.above);
  if (t.above == 0) return "-" + pct(t.below);
  if (t.below == t.above) return "±" + pct(t.above);
  return "-" + pct(t.below) + "/+" + pct(t.above);
}

std::string renderCompareText(const CompareReport &rep) {
  std::ostringstream os;
  for (const auto &l : rep.launches) {
    os << "== " << l.name;
    if (!l.kernel.empty()) os << "  kernel " << l.kernel;
    if (!l.device.empty()) os << "  measured on " << l.device;
    os << ": " << (l.ok ? "OK" : "MISMATCH") << "\n";
    TextTable t({"metric", "predicted", "measured", "diff", "tolerance", "status"},
                {false, true, true, true, false, false});
    for (const auto &m : l.metrics)
      t.addRow({m.metric, opt(m.predicted), opt(m.measured), diffText(m),
                formatTolerance(m.tolerance), metricStatus(m)});
    if (!t.empty()) os << t.render();
    if (!l.instructionsCompared) {
      os << "  instructions: not compared (the measurement has no per-instruction data)\n\n";
      continue;
    }
    os << "  instructions: " << l.instructionsMatched << " matched, " << l.instructionsExact
       << " exact";
    if (l.instructionsByGroup || l.instructionsByLine)
      os << ", " << l.instructionsByGroup << " by copy group, " << l.instructionsByLine
         << " by source line";
    os << ", " << l.instructionsMismatched << " mismatched; unmatched: " << l.unmatchedPredicted
       << " predicted, " << l.unmatchedMeasured << " measured\n";
    bool copies = false;
    for (const auto &r : l.instructions) copies = copies || r.copyGroup.has_value();
    std::vector<bool> right(4, false);
    right.resize(4 + rep.instructionFields.size(), true);
    TextTable it(fieldHeaders(rep.instructionFields, copies), right);
    for (const auto &r : l.instructions) it.addRow(insnCells(r, rep.instructionFields, copies));
    if (!it.empty()) os << it.render();
    os << "\n";
  }
  for (const auto &n : rep.onlyPredicted) os << "not measured: " << n << "\n";
  for (const auto &n : rep.onlyMeasured) os << "not predicted: " << n << "\n";
  os << summaryLine(rep) << "\n";
  return os.str();
}

nlohmann::json compareToJson(const CompareReport &rep) {
  using nlohmann::json;
  json launches = json::array();
  for (const auto &l : rep.launches) {
    json metrics = json::array();
    for (const auto &m : l.metrics) {
      json j{{"metric", m.metric}, {"compared", m.compared}, {"ok", m.ok},
             {"tolerance", {{"below", m.tolerance.below}, {"above", m.tolerance.above},
                            {"absolute", m.tolerance.absolute}}}};
      if (m.predicted) j["predicted"] = *m.predicted;
      if (m.measured) j["measured"] = *m.measured;
      if (m.compared) j["excess"] = m.excess;
      metrics.push_back(j);
    }
    json insns = json::array();
    for (const auto &r : l.instructions) {
      json j{{"ok", r.ok}, {"exact", r.exact}, {"status", toString(r.verdict)},
             {"matched_by", r.matchedBy}};
      if (r.copyGroup) j["copy_group"] = *r.copyGroup;
      if (!r.groupFields.empty()) {
        json sums = json::object();
        for (const auto &f : r.groupFields)
          sums[f.field] = {{"predicted", f.predicted}, {"measured", f.measured}, {"ok", f.ok}};
        j[r.verdict == RowVerdict::LineOk ? "line_sums" : "group_sums"] = sums;
        j["summed_records"] = r.groupSize;
      }
      if (r.predicted) j["predicted"] = launch::toJson(*r.predicted);
      if (r.measured) j["measured"] = launch::toJson(*r.measured);
      json fields = json::object();
      for (const auto &f : r.fields)
        fields[f.field] = {{"predicted", f.predicted}, {"measured", f.measured}, {"ok", f.ok}};
      if (!r.fields.empty()) j["fields"] = fields;
      insns.push_back(j);
    }
    launches.push_back({{"name", l.name}, {"kernel", l.kernel}, {"device", l.device},
                        {"ok", l.ok}, {"metrics", metrics},
                        {"instructions_compared", l.instructionsCompared},
                        {"instructions", insns},
                        {"instructions_matched", l.instructionsMatched},
                        {"instructions_exact", l.instructionsExact},
                        {"instructions_by_group", l.instructionsByGroup},
                        {"instructions_by_line", l.instructionsByLine},
                        {"instructions_mismatched", l.instructionsMismatched},
                        {"unmatched_predicted", l.unmatchedPredicted},
                        {"unmatched_measured", l.unmatchedMeasured}});
  }
  return {{"ok", rep.ok()},
          {"launches", launches},
          {"not_measured", rep.onlyPredicted},
          {"not_predicted", rep.onlyMeasured},
          {"instructions_exact", rep.instructionsExact()},
          {"instructions_by_group", rep.instructionsByGroup()},
          {"instructions_by_line", rep.instructionsByLine()},
          {"instructions_mismatched", rep.instructionsMismatched()},
          {"instructions_total", rep.instructionsTotal()}};
}

std::string renderCompareMarkdown(const CompareReport &rep) {
  std::ostringstream os;
  os << "## Summary\n\n" << summaryLine(rep) << ".\n\n";
  os << "| launch | kernel | status | instructions exact |\n|---|---|---|---|\n";
  for (const auto &l : rep.launches) {
    std::string insns = "not measured";
    if (l.instructionsCompared) {
      insns = std::to_string(l.instructionsExact) + " / " +
              std::to_string(l.instructionsMatched + l.unmatchedPredicted + l.unmatchedMeasured);
      if (l.instructionsByGroup || l.instructionsByLine)
        insns += " (+" + std::to_string(l.instructionsByGroup) + " by copy group, +" +
                 std::to_string(l.instructionsByLine) + " by source line)";
    }
    os << "| " << l.name << " | `" << l.kernel << "` | " << (l.ok ? "ok" : "**MISMATCH**") << " | "
       << insns << " |\n";
  }
  for (const auto &n : rep.onlyPredicted) os << "| " << n << " | | not measured | |\n";
  for (const auto &n : rep.onlyMeasured) os << "| " << n << " | | not predicted | |\n";

  os << "\n## Per kernel\n";
  for (const auto &l : rep.launches) {
    os << "\n### " << l.name << "\n\n";
    os << "| metric | predicted | measured | diff | tolerance | status |\n|---|--:|--:|--:|---|---|\n";
    for (const auto &m : l.metrics)
      os << "| `" << m.metric << "` | " << opt(m.predicted) << " | " << opt(m.measured) << " | "
         << diffText(m) << " | " << formatTolerance(m.tolerance) << " | "
         << (m.compared && !m.ok ? "**MISMATCH**" : metricStatus(m)) << " |\n";
    if (!l.instructionsCompared || l.instructions.empty()) continue;
    os << "\n";
    bool copies = false;
    for (const auto &r : l.instructions) copies = copies || r.copyGroup.has_value();
    const auto headers = fieldHeaders(rep.instructionFields, copies);
    os << "|";
    for (const auto &h : headers) os << " " << h << " |";
    os << "\n|";
    const std::size_t numeric = 4 + rep.instructionFields.size();
    for (std::size_t i = 0; i < headers.size(); ++i) os << (i >= 4 && i < numeric ? "--:|" : "---|");
    os << "\n";
    for (const auto &r : l.instructions) {
      auto cells = insnCells(r, rep.instructionFields, copies);
      cells[1] = "`" + cells[1] + "`";
      if (!r.ok) cells[numeric + 1] = "**" + cells[numeric + 1] + "**";
      os << "|";
      for (const auto &c : cells) os << " " << c << " |";
      os << "\n";
    }
  }

  os << "\n## Mismatches to explain\n\n";
  bool any = false;
  for (const auto &l : rep.launches) {
    for (const auto &m : l.metrics)
      if (m.compared && !m.ok) {
        os << "- **" << l.name << "** `" << m.metric << "`: predicted " << opt(m.predicted)
           << ", measured " << opt(m.measured) << " (" << diffText(m) << ", tolerance "
           << formatTolerance(m.tolerance) << "). Explanation: _to be written_\n";
        any = true;
      }
    for (const auto &r : l.instructions)
      if (!r.ok) {
        os << "- **" << l.name << "** " << insnLocation(r) << " `" << insnText(r) << "`: ";
        if (!r.predicted || !r.measured) {
          os << (r.predicted ? "predicted only" : "measured only");
        } else if (r.verdict == RowVerdict::GroupMismatch) {
          os << "copy group " << groupCell(r);
        } else {
          bool first = true;
          for (const auto &f : r.fields)
            if (!f.ok) {
              os << (first ? "" : ", ") << f.field << " " << f.predicted << " vs " << f.measured;
              first = false;
            }
        }
        os << ". Explanation: _to be written_\n";
        any = true;
      }
  }
  if (!any) os << "None: every compared metric and instruction is within tolerance.\n";
  return os.str();
}

} // namespace warplens::analysis
