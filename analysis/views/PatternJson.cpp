/// \file
/// JSON view of a pattern report: options, arch, per-warp records (requests, sectors,
/// wavefronts, conflict ways, per-lane index/address/bank/sector) and totals.
#include "analysis/views/PatternViews.h"

namespace warplens::analysis {

namespace {

nlohmann::json warpJson(const PatternReport &r, const WarpRecord &w) {
  nlohmann::json lanes = nlohmann::json::array();
  for (const LaneRecord &l : w.lanes) {
    nlohmann::json j = {{"lane", l.lane}, {"active", l.active}, {"tx", l.tx}, {"ty", l.ty},
                        {"tz", l.tz}};
    if (l.active) {
      j["index"] = l.index;
      j["address"] = l.address;
      j["bank"] = l.bank;
      j["word"] = l.word;
      j["sector"] = l.sector;
      j["sector_last"] = l.sectorLast;
    }
    lanes.push_back(std::move(j));
  }
  return {{"warp", w.warp},
          {"block", {w.blockX, w.blockY, w.blockZ}},
          {"block_linear", w.blockLinear},
          {"active", w.active},
          {"requests", w.requests},
          {"sectors", w.sectors},
          {"sectors_ideal", w.sectorsIdeal},
          {"lines", w.lines},
          {"wavefronts", w.wavefronts},
          {"wavefronts_ideal", w.wavefrontsIdeal},
          {"conflict_ways", w.conflictWays},
          {"lanes", std::move(lanes)}};
}

} // namespace

nlohmann::json patternToJson(const PatternReport &r) {
  const PatternOptions &o = r.options;
  const PatternTotals &t = r.totals;
  nlohmann::json lets = nlohmann::json::array();
  for (const auto &[name, text] : o.lets) lets.push_back({{"name", name}, {"expression", text}});
  nlohmann::json hist = nlohmann::json::array();
  for (const auto &[cost, warps] : t.histogram) hist.push_back({{"cost", cost}, {"warps", warps}});
  nlohmann::json j = {
      {"space", o.space == model::Space::Shared ? "shared" : "global"},
      {"op", o.op == model::Op::Load ? "ld" : "st"},
      {"expression", o.index},
      {"mask", o.mask},
      {"lets", std::move(lets)},
      {"elem", o.elem},
      {"base", o.base},
      {"block", {o.block.x, o.block.y, o.block.z}},
      {"grid", {o.grid.x, o.grid.y, o.grid.z}},
      {"arch", r.archName},
      {"banks", r.banks},
      {"bank_width_bytes", r.bankWidthBytes},
      {"sector_bytes", r.sectorBytes},
      {"warps_per_block", r.warpsPerBlock},
      {"all", o.all},
      {"totals",
       {{"warps", t.warps},
        {"threads", t.threads},
        {"requests", t.requests},
        {"sectors", t.sectors},
        {"sectors_ideal", t.sectorsIdeal},
        {"lines", t.lines},
        {"wavefronts", t.wavefronts},
        {"wavefronts_ideal", t.wavefrontsIdeal},
        {"conflict_ways_max", t.conflictWaysMax},
        {"efficiency", t.sectors ? double(t.sectorsIdeal) / double(t.sectors) : 1.0}}},
      {"histogram", std::move(hist)},
      {"histogram_of", o.space == model::Space::Shared ? "wavefronts" : "sectors"}};
  nlohmann::json warps = nlohmann::json::array();
  if (!o.all)
    for (const WarpRecord &w : r.warps) warps.push_back(warpJson(r, w));
  else if (!r.warps.empty())
    j["costliest_warp"] = warpJson(r, r.warps.front());
  j["warps"] = std::move(warps);
  return j;
}

} // namespace warplens::analysis
