/// \file
/// Uneven work per block: the block scheduler hands a block to an SM when one of its slots frees,
/// in launch order; each sub-partition's issue rate depends on how many warps it holds (few warps
/// hide less latency: the issue simulation's cycles per instruction at that many warps), shared
/// among them. With blocks of very different lengths (Mandelbrot rows, triangular loops) the last
/// long blocks run nearly alone at the end: heldout5's f64 Mandelbrot ran 95K cycles on the H100
/// while its SMs were active 64K cycles on average (ncu sm__cycles_elapsed.max vs
/// smsp__cycles_active.avg, 2026-11-23). A warp stays on its sub-partition: uneven warps leave
/// some sub-partitions busy while the others idle (session 12).
#pragma once

#include "emu/Emulator.h"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace warplens::analysis {

/// Warp groups of a block: warps i with i mod kWarpGroups = g, as the SASS engine counts them.
inline constexpr unsigned kWarpGroups = emu::kWarpGroups;

/// The sub-partition warp (or warp group) `warp` of the `started`-th block an SM starts runs on:
/// (warp + started) mod subPartitions. Session 14, measured (%warpid of every warp,
/// kernels/timing/smsp_study.cu): each block an SM starts, at launch too, moves its warp 0 one
/// sub-partition on. The block schedule and the SM trace simulation (TraceSim.h) both place warps
/// by it.
inline unsigned subPartitionOf(std::size_t warp, std::size_t started, unsigned subPartitions) {
  return static_cast<unsigned>((warp + started) % subPartitions);
}

/// One block, per warp group g (its warps i with i mod kWarpGroups = g): their warp instructions,
/// the most any one of them executed (the group holds its sub-partition's share until that warp is
/// done) and how many warps it has.
struct BlockWork {
  std::array<double, kWarpGroups> work{}, longest{};
  std::array<unsigned, kWarpGroups> warps{};
  /// A block of one group: `work` instructions, its longest warp `longest`, `warps` warps.
  static BlockWork single(double work, double longest, unsigned warps = 1);
};

/// Cycles until every block is done. Blocks go in dispatch order to `sms` SMs of `slots` resident
/// blocks each; the first sms x slots start at once, block i on SM i mod sms in slot i / sms, the
/// next one into the first slot that frees (its SM's). Session 14 (smsp_study, measured %warpid):
/// warp group g of the n-th block an SM starts runs on its sub-partition (g + n) mod subPartitions
/// (session 12 had (g + slot x warpsPerBlock), which ncu contradicted). A sub-partition
/// retires `rate(n)` warp instructions per cycle while n warps of unfinished groups are on it,
/// shared among its groups in proportion to their warps, except that a group progresses at most at
/// work / (longest x loneCycles) (its longest warp at `loneCycles` cycles per instruction; what it
/// cannot use goes to the others). A block holds its slot until all its groups are done.
/// Session 13: SMs that free a slot at the same time (to 1e-6 cycles) take the next blocks in SM
/// order when `tieSeed` is 0, else in a pseudo-random order drawn from it.
double blockMakespan(const std::vector<BlockWork> &blocks, unsigned sms, unsigned slots, unsigned subPartitions,
                     unsigned warpsPerBlock, const std::function<double(unsigned)> &rate, double loneCycles,
                     std::uint64_t tieSeed = 0);

/// Session 13: how many tie orders blockImbalance averages the uneven makespan over: 8 up to 2^14 blocks, fewer above (2^17 / blocks), at least 1. Why: with many
/// identical blocks (mirrored image rows) SMs free slots at the same time, and which of them takes
/// the next block is not known; one fixed order moved single launches' stretch by up to 8%
/// (heldout11's sphere tracing: 1.146 to 1.271 over eight orders).
unsigned tieOrders(std::size_t blocks);

/// makespan(blocks) (the mean over tieOrders(blocks) tie orders) / makespan(every block at the mean
/// work, its warps alike: what the time model's per-SM share assumes): 1 for even blocks of even
/// warps, > 1 where uneven blocks leave SMs idle or alone at the end, a block's longest warp holds
/// it (divergent trip counts: a Collatz kernel of 16 blocks ran 175K cycles on the H200 while its
/// SMs were active 17K on average, ncu 2026-11-23), or uneven warps load one sub-partition more
/// than the others (heldout10's Miller-Rabin: warps of 3.8K to 25K instructions, 64 per SM;
/// measured SMs active 436K of 545K cycles on average, ncu H200 2026-11-24; per-sub-partition sums
/// of the engine's warps give 0.82).
/// `groupWork`, `groupLongest`: kWarpGroups per block (block b's group g at b x kWarpGroups + g).
/// 1 when they are empty, differ in size or cover over 2^20 blocks.
double blockImbalance(const std::vector<std::uint32_t> &groupWork, const std::vector<std::uint32_t> &groupLongest,
                      unsigned warpsPerBlock, unsigned sms, unsigned slots, unsigned subPartitions,
                      const std::function<double(unsigned)> &rate, double loneCycles);

/// Session 9: the latency limiter's stretch from uneven blocks. A block whose warps wait on memory
/// (dependent load rounds) lasts as long as its longest warp, whatever else runs on its SM; blocks go
/// to SMs in launch order as slots free. Returns makespan(block i lasting longest[i]) /
/// makespan(every block lasting the mean of `longest`): 1 for even blocks; heldout6's triangular
/// matrix-vector product (block i sums i + 1 elements, 2048 blocks all resident at once) waits for
/// its last row's 16 rounds, twice the mean (ncu: 43.9 long-scoreboard stall cycles per issued
/// instruction, SMs active 14.0K of 19.8K cycles on average, H100 2026-11-24). Only differences
/// between blocks count (a block's own longest warp against its mean is left to the compute side).
/// 1 when `longest` is empty or has over 2^20 blocks.
double latencyImbalance(const std::vector<std::uint32_t> &longest, unsigned sms, unsigned slots);

} // namespace warplens::analysis
