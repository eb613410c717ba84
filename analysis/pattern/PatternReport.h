/// \file
/// Plain report structs of `warplens pattern`: the options it ran with, per-warp records (with
/// per-lane index, address, bank and sector) and totals. Views render these; nothing here computes.
#pragma once

#include "model/AccessEvent.h"
#include "model/SharedModel.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace warplens::analysis {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t(x) * y * z; }
};

/// What `warplens pattern` / `explain` were asked for (already parsed from the command line).
struct PatternOptions {
  model::Space space = model::Space::Shared;
  model::Op op = model::Op::Load;
  std::string index;                                     ///< --index
  std::string mask;                                      ///< --mask, empty = all lanes active
  unsigned elem = 4;                                     ///< --elem bytes: 1, 2, 4, 8, 16
  Dim3 block{32, 1, 1};
  Dim3 grid{1, 1, 1};
  std::vector<std::pair<std::string, std::string>> lets; ///< --let NAME=EXPR, in order
  std::uint64_t base = 0;                                ///< --base byte address
  std::string arch = "sm_90";
  unsigned warp = 0;                                     ///< --warp N (of block 0,0,0)
  bool all = false;                                      ///< --all: every warp of the grid
};

struct LaneRecord {
  unsigned lane = 0;
  bool active = false;
  unsigned tx = 0, ty = 0, tz = 0;
  std::int64_t index = 0;
  std::uint64_t address = 0;
  unsigned bank = 0;           ///< bank of the first byte
  std::uint64_t word = 0;      ///< address / bank width
  std::uint64_t sector = 0;    ///< sector of the first byte
  std::uint64_t sectorLast = 0; ///< sector of the last byte (differs when an access straddles)
};

struct WarpRecord {
  unsigned warp = 0;                   ///< warp index inside its block
  unsigned blockX = 0, blockY = 0, blockZ = 0;
  std::uint32_t blockLinear = 0;
  unsigned active = 0;                 ///< active lanes
  std::uint32_t requests = 0;
  std::uint32_t sectors = 0, sectorsIdeal = 0, lines = 0;
  std::uint32_t wavefronts = 0, wavefrontsIdeal = 0, conflictWays = 0;
  std::vector<LaneRecord> lanes;       ///< 32 entries (inactive lanes included)
  model::BankDiagram diagram;          ///< shared space only
};

struct PatternTotals {
  std::uint64_t warps = 0, threads = 0, requests = 0;
  std::uint64_t sectors = 0, sectorsIdeal = 0, lines = 0;
  std::uint64_t wavefronts = 0, wavefrontsIdeal = 0;
  std::uint32_t conflictWaysMax = 0;
  /// per-warp cost → number of warps (wavefronts for shared, sectors for global)
  std::map<std::uint32_t, std::uint64_t> histogram;
};

struct PatternReport {
  PatternOptions options;
  std::string archName;
  unsigned banks = 32, bankWidthBytes = 4, sectorBytes = 32, warpSize = 32;
  unsigned warpsPerBlock = 0;
  std::vector<WarpRecord> warps; ///< the chosen warp (--warp), or the costliest one (--all)
  PatternTotals totals;
};

/// Cost that the histogram and "worst warp" use: wavefronts (shared) or sectors (global).
inline std::uint32_t warpCost(const PatternReport &r, const WarpRecord &w) {
  return r.options.space == model::Space::Shared ? w.wavefronts : w.sectors;
}

} // namespace warplens::analysis
