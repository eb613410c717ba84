/// \file
/// Teaching text and JSON of `warplens explain` for a pattern: the counts, the colliding lanes
/// and banks (or the sectors wasted), and each candidate fix with the cost it achieves.
#include "analysis/views/PatternExplainView.h"

#include "analysis/views/PatternViews.h"
#include "analysis/views/TimeViews.h"
#include "perf/DeviceSpec.h"

#include <iomanip>
#include <sstream>

namespace warplens::analysis {

namespace {

std::string lanesText(const std::vector<unsigned> &lanes) {
  std::string s;
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    if (i == 6 && lanes.size() > 8) {
      s += " … " + std::to_string(lanes.back());
      break;
    }
    s += (i ? "," : "") + std::to_string(lanes[i]);
  }
  return s;
}

void globalWhy(const PatternReport &r, std::ostream &os) {
  if (r.warps.empty()) return;
  const WarpRecord &w = r.warps.front();
  const LaneRecord *prev = nullptr;
  std::int64_t stride = 0;
  bool uniform = true;
  for (const LaneRecord &l : w.lanes) {
    if (!l.active) continue;
    if (prev) {
      std::int64_t d = std::int64_t(l.address) - std::int64_t(prev->address);
      if (prev == &w.lanes.front() || stride == 0) stride = d;
      else if (d != stride) uniform = false;
    }
    prev = &l;
  }
  os << "why: " << w.active << " lanes x " << r.options.elem << " bytes = "
     << w.active * r.options.elem << " bytes fit in " << w.sectorsIdeal << " sectors of "
     << r.sectorBytes << " bytes, but the lanes touch " << w.sectors << ".\n";
  if (uniform && stride != 0 && std::uint64_t(std::llabs(stride)) > r.options.elem)
    os << "  consecutive lanes are " << stride << " bytes apart, so each " << r.sectorBytes
       << "-byte sector carries only " << std::max<std::int64_t>(1, r.sectorBytes / std::llabs(stride))
       << " lane(s) of useful data.\n";
  else if (uniform && std::uint64_t(stride) == r.options.elem && w.sectors > w.sectorsIdeal)
    os << "  the lanes are contiguous but start at byte " << w.lanes.front().address % r.sectorBytes
       << " of a sector, so the run straddles one more sector than needed (misalignment).\n";
}

} // namespace

std::string renderExplainText(const ExplainReport &ex) {
  const PatternReport &r = ex.base;
  const bool shared = r.options.space == model::Space::Shared;
  std::ostringstream os;
  os << "explain: " << (shared ? "shared" : "global") << " "
     << (r.options.op == model::Op::Load ? "load" : "store") << ", " << r.options.elem
     << "-byte elements, index = " << r.options.index << ", block (" << r.options.block.x << ","
     << r.options.block.y << "," << r.options.block.z << ")\n";
  if (!ex.form.empty()) os << "recognised " << ex.form << "\n";
  const std::uint64_t cost = shared ? r.totals.wavefronts : r.totals.sectors;
  const std::uint64_t ideal = shared ? r.totals.wavefrontsIdeal : r.totals.sectorsIdeal;
  const std::string unit = shared ? "wavefronts" : "sectors";
  os << "\nwhat: " << (r.options.all ? "all " + std::to_string(r.totals.warps) + " warps: " : "warp " + std::to_string(r.options.warp) + ": ")
     << cost << " " << unit << ", ideal " << ideal;
  if (cost <= ideal) {
    os << " — already ideal, nothing to fix.\n";
    if (shared && !r.warps.empty()) os << "\n" << renderBankDiagram(r, r.warps.front());
    if (shared && !r.warps.empty() && r.warps.front().diagram.cost.wavefrontsHw)
      os << "rule: " << model::describeRule(r.warps.front().diagram, r.options.elem, r.options.op)
         << "\n"; // which rule produced the counts (both truths)
    return os.str();
  }
  if (shared)
    os << " (" << r.totals.conflictWaysMax << "-way bank conflict; " << cost - ideal
       << " extra wavefronts)\n";
  else
    os << " (efficiency " << std::fixed << std::setprecision(1) << 100.0 * ideal / cost << "%)\n";
  if (std::string t = shared ? conflictCostText(double(cost), double(ideal), perf::defaultDeviceFor(r.options.arch))
                             : sectorCostText(double(cost), double(ideal), perf::defaultDeviceFor(r.options.arch));
      !t.empty())
    os << t << "\n";
  if (shared) {
    os << "\nwhy: lanes that touch different " << r.bankWidthBytes
       << "-byte words in the same bank are served one word per pass:\n";
    for (const BankCollision &c : ex.collisions) {
      os << "  bank " << c.bank << " must serve " << c.words.size() << " words:";
      unsigned shown = 0;
      for (const auto &[word, lanes] : c.words) {
        if (shown++ == 6) {
          os << " …";
          break;
        }
        os << " word " << word << " (byte " << word * r.bankWidthBytes << ", lane "
           << lanesText(lanes) << ")";
      }
      os << "\n";
    }
    os << "  (bank = (byte address / " << r.bankWidthBytes << ") % " << r.banks
       << "; a word read by several lanes is broadcast and costs nothing extra)\n";
    if (!r.warps.empty() && r.warps.front().diagram.cost.wavefrontsHw) // which rule, both truths
      os << "  rule: " << model::describeRule(r.warps.front().diagram, r.options.elem, r.options.op)
         << "\n";
  } else {
    os << "\n";
    globalWhy(r, os);
  }
  os << "\nfixes (each evaluated on the same " << (r.options.all ? "grid" : "warp") << "):\n";
  std::size_t best = ex.candidates.size();
  for (std::size_t i = 0; i < ex.candidates.size(); ++i) {
    const ExplainCandidate &c = ex.candidates[i];
    if (c.ok && (best == ex.candidates.size() || c.cost < ex.candidates[best].cost)) best = i;
  }
  for (std::size_t i = 0; i < ex.candidates.size(); ++i) {
    const ExplainCandidate &c = ex.candidates[i];
    os << (i == best ? "  * " : "    ") << c.label << "\n        --index \"" << c.index << "\"";
    for (std::size_t k = 0; k < c.lets.size(); ++k)
      if (c.lets[k] != r.options.lets[k])
        os << " --let " << c.lets[k].first << "=" << c.lets[k].second;
    if (c.base != r.options.base) os << " --base " << c.base;
    if (c.ok)
      os << "\n        → " << c.cost << " " << (c.cost == 1 ? unit.substr(0, unit.size() - 1) : unit)
         << " (ideal " << c.ideal << ")"
         << (c.cost <= c.ideal ? (shared ? ": conflict-free" : ": ideal") : "") << "\n";
    else
      os << "\n        → not evaluated: " << c.error << "\n";
  }
  if (ex.candidates.empty()) os << "    none found for this expression\n";
  os << "\nA rewrite is only correct if every access to the array (writes and reads) uses it.\n";
  return os.str();
}

nlohmann::json explainToJson(const ExplainReport &ex) {
  nlohmann::json j = patternToJson(ex.base);
  j["form"] = ex.form;
  nlohmann::json cols = nlohmann::json::array();
  for (const BankCollision &c : ex.collisions) {
    nlohmann::json words = nlohmann::json::array();
    for (const auto &[word, lanes] : c.words) words.push_back({{"word", word}, {"lanes", lanes}});
    cols.push_back({{"bank", c.bank}, {"words", std::move(words)}});
  }
  j["collisions"] = std::move(cols);
  nlohmann::json cands = nlohmann::json::array();
  for (const ExplainCandidate &c : ex.candidates) {
    nlohmann::json lets = nlohmann::json::array();
    for (const auto &[name, text] : c.lets) lets.push_back({{"name", name}, {"expression", text}});
    nlohmann::json cj = {{"label", c.label}, {"index", c.index}, {"lets", std::move(lets)},
                         {"base", c.base},   {"ok", c.ok}};
    if (c.ok) {
      cj["cost"] = c.cost;
      cj["ideal"] = c.ideal;
    } else {
      cj["error"] = c.error;
    }
    cands.push_back(std::move(cj));
  }
  j["candidates"] = std::move(cands);
  return j;
}

} // namespace warplens::analysis
