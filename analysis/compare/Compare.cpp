/// \file
/// compare(): pairs launches and instructions and checks every shared metric and field.
/// Does not explain a difference; the views show it and VALIDATION.md carries the reasons.
#include "analysis/compare/Compare.h"

#include "analysis/Metrics.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <tuple>

namespace warplens::analysis {

namespace {

bool startsWith(const std::string &s, const std::string &p) { return s.rfind(p, 0) == 0; }

/// A comparable kernel name: "_Z14transposeNaivePfPKfi", "void transposeNaive(float*, ...)"
/// and "ns::transposeNaive<32>" all become "transposeNaive".
std::string kernelKey(std::string s) {
  if (startsWith(s, "_Z")) {
    std::size_t i = 2;
    if (i < s.size() && s[i] == 'N') ++i; // nested name: take the last component below
    std::string last;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      std::size_t len = 0;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
        len = len * 10 + (s[i++] - '0');
      last = s.substr(i, len);
      i += len;
      if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) break;
    }
    return last;
  }
  if (startsWith(s, "void ")) s = s.substr(5);
  s = s.substr(0, s.find('('));
  s = s.substr(0, s.find('<'));
  if (auto c = s.rfind("::"); c != std::string::npos) s = s.substr(c + 2);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  return s;
}

bool within(double p, double m, const Tolerance &t, double base) {
  const double eps = 1e-9 * std::max({1.0, std::fabs(p), std::fabs(m)});
  return m >= p - t.below * base - t.absolute - eps && m <= p + t.above * base + t.absolute + eps;
}

std::uint64_t field(const launch::InstructionRecord &r, const std::string &f) {
  if (f == "executed") return r.executed;
  if (f == "threads") return r.threads;
  if (f == "requests") return r.requests;
  if (f == "sectors") return r.sectors;
  if (f == "sectors_ideal") return r.sectorsIdeal;
  if (f == "wavefronts") return r.wavefronts;
  if (f == "wavefronts_ideal") return r.wavefrontsIdeal;
  if (f == "conflict_ways_max") return r.conflictWaysMax;
  return 0;
}

bool allZero(const launch::InstructionRecord &r) {
  return r.executed == 0 && r.sectors == 0 && r.wavefronts == 0 && r.requests == 0;
}

bool inCatalog(const std::string &metric) {
  for (const auto &[name, _] : metricCatalog())
    if (name == metric) return true;
  return false;
}

bool isSharedHardwareCounter(const std::string &metric) {
  return startsWith(metric, "l1tex__data_pipe_lsu_wavefronts_mem_shared") ||
         startsWith(metric, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared");
}

/// A user tolerance names this metric (exactly or by a prefix with '*').
bool overridden(const CompareOptions &opt, const std::string &metric) {
  for (const auto &[key, _] : opt.overrides)
    if (key == metric || (!key.empty() && key.back() == '*' &&
                          startsWith(metric, key.substr(0, key.size() - 1))))
      return true;
  return false;
}

/// Global or local memory instructions that can run beside the shared accesses (a launch of
/// more than one warp, or one executed more than once): L1 traffic then arbitrates with the
/// shared accesses and adds wavefronts to the hardware counters (notes/HARDWARE.md), so those
/// keep their +15% tolerance. Without it (shared-only kernels; one warp issuing each global
/// access once, e.g. kernels/micro/shared_random.cu) they are exact.
bool concurrentGlobalTraffic(const launch::LaunchResult &p) {
  if (p.instructions.empty()) return true; // unknown: keep the tolerance
  const std::uint64_t threads = std::uint64_t(p.grid[0]) * p.grid[1] * p.grid[2] * p.block[0] *
                                p.block[1] * p.block[2];
  for (const auto &r : p.instructions)
    if ((r.space == "global" || r.space == "local") && r.executed > 0 &&
        (threads > 32 || r.executed > 1))
      return true;
  // A result whose records leave the global accesses out may still total them.
  for (const auto &[name, v] : p.metrics)
    if (threads > 32 && v > 0 && (startsWith(name, "l1tex__t_requests_pipe_lsu_mem_global") ||
                                  startsWith(name, "l1tex__t_requests_pipe_lsu_mem_local")))
      return true;
  return false;
}

std::vector<MetricRow> compareMetrics(const launch::LaunchResult &p, const launch::LaunchResult &m,
                                      const CompareOptions &opt, std::size_t *ignored) {
  const bool concurrentGlobal = concurrentGlobalTraffic(p);
  // Predicted totals the file leaves out are derived from its instructions (as the model would).
  std::map<std::string, double> derived;
  if (!p.instructions.empty()) derived = totalsFromInstructions(p.instructions);
  std::set<std::string> names;
  for (const auto &[k, _] : p.metrics) names.insert(k);
  for (const auto &[k, _] : m.metrics) names.insert(k);
  std::vector<MetricRow> rows;
  for (const auto &name : names) {
    MetricRow row;
    row.metric = name;
    if (auto it = p.metrics.find(name); it != p.metrics.end()) row.predicted = it->second;
    if (auto it = m.metrics.find(name); it != m.metrics.end()) row.measured = it->second;
    // Durations measured before the kernel timer (the Range Profiler's user range: launch and
    // synchronisation included) are not kernel durations: not compared.
    if (isTimeMetric(name) && row.measured && !(m.time.is_object() && m.time.contains("measured_ns")))
      row.measured.reset();
    // The model emits catalog metrics for rare ops (atom, red, local) only when they occur.
    if (!row.predicted && row.measured && inCatalog(name)) {
      if (auto it = derived.find(name); it != derived.end()) row.predicted = it->second;
      else if (!p.instructions.empty()) row.predicted = 0.0;
    }
    // Measured extras the model has no counterpart for (launch__*, .avg/.max rollups, device
    // attributes in an ncu raw CSV) are counted, not listed.
    if (!row.predicted && !inCatalog(name)) {
      ++*ignored;
      continue;
    }
    row.tolerance = opt.toleranceFor(name);
    if (!concurrentGlobal && isSharedHardwareCounter(name) && !overridden(opt, name))
      row.tolerance = {}; // no other L1 traffic to arbitrate with: the counter is exact
    if (row.predicted && row.measured) {
      row.compared = true;
      row.excess = *row.measured - *row.predicted;
      double base = std::fabs(*row.predicted);
      if (isTimeMetric(name)) base = std::fabs(*row.measured); // "within 15% of the measured one"
      // Bank conflicts: the hardware's extra wavefronts are a share of all wavefronts.
      const std::string conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared";
      if (startsWith(name, conflicts)) {
        std::string wf = "l1tex__data_pipe_lsu_wavefronts_mem_shared" + name.substr(conflicts.size());
        if (auto it = p.metrics.find(wf); it != p.metrics.end())
          base = std::max(base, std::fabs(it->second));
      }
      row.ok = within(*row.predicted, *row.measured, row.tolerance, base);
    }
    rows.push_back(row);
  }
  return rows;
}

InstructionRow makeRow(const launch::InstructionRecord *p, const launch::InstructionRecord *m,
                       const std::string &how, const CompareOptions &opt) {
  InstructionRow row;
  if (p) row.predicted = *p;
  if (m) row.measured = *m;
  row.matchedBy = how;
  if (p && m) {
    for (const auto &f : opt.instructionFields) {
      FieldCheck c{f, field(*p, f), field(*m, f), true};
      const Tolerance t = opt.toleranceFor(f);
      c.ok = within(double(c.predicted), double(c.measured), t, double(c.predicted));
      row.ok = row.ok && c.ok;
      row.fields.push_back(c);
    }
  } else {
    row.ok = allZero(p ? *p : *m);
  }
  row.exact = row.ok;
  row.verdict = row.ok ? RowVerdict::Exact : RowVerdict::Mismatch;
  if (p) row.copyGroup = p->copyGroup;
  return row;
}

/// Sums of each compared field over `rows` (indices into P), predicted vs their measured
/// partners (a member without a partner adds 0 measured).
std::vector<FieldCheck> sumFields(const std::vector<std::size_t> &rows,
                                  const std::vector<launch::InstructionRecord> &P,
                                  const std::vector<launch::InstructionRecord> &M,
                                  const std::vector<int> &partner, const CompareOptions &opt,
                                  bool *ok) {
  std::vector<FieldCheck> out;
  *ok = true;
  for (const auto &f : opt.instructionFields) {
    FieldCheck c{f, 0, 0, true};
    for (std::size_t i : rows) {
      c.predicted += field(P[i], f);
      if (partner[i] >= 0) c.measured += field(M[std::size_t(partner[i])], f);
    }
    c.ok = within(double(c.predicted), double(c.measured), opt.toleranceFor(f),
                  double(c.predicted));
    *ok = *ok && c.ok;
    out.push_back(c);
  }
  return out;
}

/// Judges the rows of copy-group members that are not exact: by the group's sums, then by the
/// sums over all copy-group records of the same source line + space + op + width.
void judgeCopyGroups(LaunchComparison &lc, const std::vector<launch::InstructionRecord> &P,
                     const std::vector<launch::InstructionRecord> &M,
                     const std::vector<int> &partner, const CompareOptions &opt) {
  using LineKey = std::tuple<int, std::string, std::string, std::string, unsigned>;
  std::map<std::uint32_t, std::vector<std::size_t>> groups;
  std::map<LineKey, std::vector<std::size_t>> lines;
  auto lineKey = [&](const launch::InstructionRecord &r) {
    return LineKey{r.sourceLine, r.sourceLine >= 0 ? r.sourceFile : std::string(), r.space, r.op,
                   r.widthBytes};
  };
  for (std::size_t i = 0; i < P.size(); ++i)
    if (P[i].copyGroup) {
      groups[*P[i].copyGroup].push_back(i);
      lines[lineKey(P[i])].push_back(i);
    }
  for (const auto &[id, rows] : groups) {
    bool groupOk = false;
    const std::vector<FieldCheck> groupSums = sumFields(rows, P, M, partner, opt, &groupOk);
    for (std::size_t i : rows) {
      InstructionRow &row = lc.instructions[i];
      if (row.exact) continue;
      row.groupFields = groupSums;
      row.groupSize = rows.size();
      if (groupOk) {
        row.verdict = RowVerdict::GroupOk;
      } else {
        const auto &lineRows = lines[lineKey(P[i])];
        bool lineOk = false;
        std::vector<FieldCheck> lineSums = sumFields(lineRows, P, M, partner, opt, &lineOk);
        // Line sums that merely repeat the group's (one group on the line) prove nothing new.
        if (lineOk && lineRows.size() > rows.size()) {
          row.verdict = RowVerdict::LineOk;
          row.groupFields = std::move(lineSums);
          row.groupSize = lineRows.size();
        } else {
          row.verdict = RowVerdict::GroupMismatch;
        }
      }
      row.ok = row.verdict == RowVerdict::GroupOk || row.verdict == RowVerdict::LineOk;
    }
  }
}

LaunchComparison compareLaunch(const launch::LaunchResult &p, const launch::LaunchResult &m,
                               const CompareOptions &opt) {
  LaunchComparison lc;
  lc.name = p.name;
  lc.kernel = p.kernel.empty() ? m.kernel : p.kernel;
  lc.device = m.device;
  lc.metrics = compareMetrics(p, m, opt, &lc.measuredOnlyIgnored);
  lc.predictedTime = p.time;

  const auto &P = p.instructions;
  const auto &M = m.instructions;
  if (opt.instructionFields.empty() || (M.empty() && !P.empty())) {
    lc.instructionsCompared = false;
    lc.ok = true;
    for (const auto &r : lc.metrics) lc.ok = lc.ok && (r.ok || isTimeMetric(r.metric));
    return lc;
  }
  std::vector<int> partner(P.size(), -1);
  std::vector<std::string> how(P.size());
  std::vector<bool> usedM(M.size(), false);
  // 1. by SASS pc
  std::multimap<std::uint64_t, std::size_t> byPc;
  for (std::size_t j = 0; j < M.size(); ++j)
    if (M[j].sassPc) byPc.emplace(*M[j].sassPc, j);
  for (std::size_t i = 0; i < P.size(); ++i) {
    if (!P[i].sassPc) continue;
    auto [lo, hi] = byPc.equal_range(*P[i].sassPc);
    for (auto it = lo; it != hi; ++it)
      if (!usedM[it->second]) {
        partner[i] = int(it->second);
        how[i] = "pc";
        usedM[it->second] = true;
        break;
      }
  }
  // 2. by (source line, space, op) and order among the remaining
  for (std::size_t i = 0; i < P.size(); ++i) {
    if (partner[i] >= 0 || P[i].sourceLine < 0) continue;
    for (std::size_t j = 0; j < M.size(); ++j) {
      if (usedM[j] || M[j].sourceLine != P[i].sourceLine || M[j].space != P[i].space ||
          M[j].op != P[i].op)
        continue;
      partner[i] = int(j);
      how[i] = "source";
      usedM[j] = true;
      break;
    }
  }
  for (std::size_t i = 0; i < P.size(); ++i) {
    const launch::InstructionRecord *mp = partner[i] >= 0 ? &M[std::size_t(partner[i])] : nullptr;
    lc.instructions.push_back(makeRow(&P[i], mp, how[i], opt));
  }
  judgeCopyGroups(lc, P, M, partner, opt); // rows 0..P.size()-1 are P's, in order
  for (std::size_t j = 0; j < M.size(); ++j) {
    if (usedM[j]) continue;
    lc.instructions.push_back(makeRow(nullptr, &M[j], "", opt));
  }
  for (const InstructionRow &r : lc.instructions) {
    const bool matched = r.predicted && r.measured;
    lc.instructionsMatched += matched ? 1 : 0;
    if (!matched && !r.ok) ++(r.predicted ? lc.unmatchedPredicted : lc.unmatchedMeasured);
    if (r.verdict == RowVerdict::Exact) lc.instructionsExact += matched ? 1 : 0;
    else if (r.verdict == RowVerdict::GroupOk) ++lc.instructionsByGroup;
    else if (r.verdict == RowVerdict::LineOk) ++lc.instructionsByLine;
    else ++lc.instructionsMismatched;
  }
  lc.ok = true;
  for (const auto &r : lc.metrics) lc.ok = lc.ok && (r.ok || isTimeMetric(r.metric));
  for (const auto &r : lc.instructions) lc.ok = lc.ok && r.ok;
  return lc;
}

} // namespace

Tolerance CompareOptions::toleranceFor(const std::string &metric) const {
  if (isTimeMetric(metric)) { // only an override naming the metric itself changes it
    auto it = overrides.find(metric);
    double rel = it == overrides.end() ? 0.15 : it->second;
    return {rel, rel};
  }
  std::size_t best = 0;
  std::optional<double> chosen;
  for (const auto &[key, rel] : overrides) {
    bool match = false;
    std::size_t len = key.size();
    if (!key.empty() && key.back() == '*') {
      match = startsWith(metric, key.substr(0, key.size() - 1));
      len = key.size() - 1;
    } else {
      match = metric == key;
      len = key.size() + 1; // an exact name beats any prefix
    }
    if (match && len >= best) {
      best = len;
      chosen = rel;
    }
  }
  if (chosen) return {*chosen, *chosen};
  if (startsWith(metric, "l1tex__data_pipe_lsu_wavefronts_mem_shared") ||
      startsWith(metric, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared"))
    return {0.0, 0.15};
  if (startsWith(metric, "dram__") || startsWith(metric, "lts__")) return {0.10, 0.15, 65536.0};
  return {0.0, 0.0};
}

bool isTimeMetric(const std::string &metric) {
  return metric == "gpu__time_duration.sum" || metric == "dram__bytes.sum.per_second";
}

CompareReport::TimeSummary CompareReport::timeSummary() const {
  TimeSummary s;
  for (const auto &l : launches)
    for (const auto &r : l.metrics)
      if (r.metric == "gpu__time_duration.sum" && r.compared) {
        ++s.compared;
        s.within += r.ok;
      }
  return s;
}

bool CompareReport::ok() const {
  for (const auto &l : launches)
    if (!l.ok) return false;
  if (timeShareRequired > 0) {
    TimeSummary t = timeSummary();
    if (t.compared == 0 || double(t.within) < timeShareRequired * double(t.compared)) return false;
  }
  return true;
}

std::size_t CompareReport::instructionsExact() const {
  std::size_t n = 0;
  for (const auto &l : launches) n += l.instructionsExact;
  return n;
}

std::size_t CompareReport::instructionsByGroup() const {
  std::size_t n = 0;
  for (const auto &l : launches) n += l.instructionsByGroup;
  return n;
}

std::size_t CompareReport::instructionsByLine() const {
  std::size_t n = 0;
  for (const auto &l : launches) n += l.instructionsByLine;
  return n;
}

std::size_t CompareReport::instructionsMismatched() const {
  std::size_t n = 0;
  for (const auto &l : launches) n += l.instructionsMismatched;
  return n;
}

/// Matched rows plus rows not exact: exact + by group + by line + mismatched.
std::size_t CompareReport::instructionsTotal() const {
  std::size_t n = 0;
  for (const auto &l : launches)
    for (const auto &r : l.instructions)
      if (r.matchedBy.size() || !r.exact) ++n;
  return n;
}

std::string toString(RowVerdict v) {
  switch (v) {
  case RowVerdict::Exact: return "ok";
  case RowVerdict::GroupOk: return "group ok";
  case RowVerdict::LineOk: return "line ok";
  case RowVerdict::GroupMismatch: return "group MISMATCH";
  case RowVerdict::Mismatch: break;
  }
  return "MISMATCH";
}

CompareReport compare(const std::vector<launch::LaunchResult> &predicted,
                      const std::vector<launch::LaunchResult> &measured,
                      const CompareOptions &options) {
  CompareReport rep;
  rep.instructionFields = options.instructionFields;
  rep.timeShareRequired = options.timeShare;
  std::vector<const launch::LaunchResult *> preds;
  for (const auto &p : predicted)
    if (options.only.empty() || p.name == options.only) preds.push_back(&p);
  std::vector<int> partner(preds.size(), -1);
  std::vector<bool> used(measured.size(), false);
  // Pass 1: launch names.
  for (std::size_t i = 0; i < preds.size(); ++i)
    for (std::size_t j = 0; j < measured.size(); ++j)
      if (!used[j] && !measured[j].name.empty() && measured[j].name == preds[i]->name) {
        partner[i] = int(j);
        used[j] = true;
        break;
      }
  // Pass 2: kernel names (an ncu CSV knows kernels, not launch names), in order.
  for (std::size_t i = 0; i < preds.size(); ++i) {
    if (partner[i] >= 0) continue;
    const std::string key = kernelKey(preds[i]->kernel.empty() ? preds[i]->name : preds[i]->kernel);
    for (std::size_t j = 0; j < measured.size(); ++j) {
      if (used[j]) continue;
      const auto &m = measured[j];
      const bool anonymous = m.name.empty() && m.kernel.empty();
      if (anonymous || (!key.empty() && kernelKey(m.kernel.empty() ? m.name : m.kernel) == key)) {
        partner[i] = int(j);
        used[j] = true;
        break;
      }
    }
  }
  for (std::size_t i = 0; i < preds.size(); ++i) {
    if (partner[i] < 0) {
      rep.onlyPredicted.push_back(preds[i]->name);
      continue;
    }
    rep.launches.push_back(compareLaunch(*preds[i], measured[std::size_t(partner[i])], options));
  }
  for (std::size_t j = 0; j < measured.size(); ++j)
    if (!used[j] && (options.only.empty() || measured[j].name == options.only))
      rep.onlyMeasured.push_back(measured[j].name.empty() ? measured[j].kernel : measured[j].name);
  return rep;
}

} // namespace warplens::analysis
