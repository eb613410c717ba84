/// \file
/// Uneven work per block: the block scheduler hands a block to an SM when one of its slots frees,
/// in launch order; the SM's issue rate depends on how many blocks it holds (few warps hide less
/// latency: the issue simulation's cycles per instruction at that many warps), shared equally
/// among them. With blocks of very different lengths (Mandelbrot rows, triangular loops) the last
/// long blocks run nearly alone at the end: heldout5's f64 Mandelbrot ran 95K cycles on the H100
/// while its SMs were active 64K cycles on average (ncu sm__cycles_elapsed.max vs
/// smsp__cycles_active.avg, 2026-11-23).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace warplens::analysis {

/// One block: its warp instructions and the most any one of its warps executed (the block holds
/// its slot until that warp is done).
struct BlockWork {
  double work = 0, longest = 0;
};

/// Cycles until every block is done: blocks in dispatch order, `sms` SMs with `slots` resident
/// blocks each, an SM holding k blocks retiring `rate(k)` units of work per cycle, shared equally
/// among them, except that a block progresses at most at work / (longest x loneCycles) (its longest
/// warp at `loneCycles` cycles per instruction; what it cannot use goes to the others). The first
/// sms x slots blocks start at once, block i on SM i mod sms.
double blockMakespan(const std::vector<BlockWork> &blocks, unsigned sms, unsigned slots,
                     const std::function<double(unsigned)> &rate, double loneCycles);

/// makespan(blocks) / makespan(every block at the mean work, its warps alike: what the time
/// model's per-SM share assumes): 1 for even blocks of even warps, > 1 where uneven blocks leave
/// SMs idle or alone at the end, or a block's longest warp holds it (divergent trip counts: a
/// Collatz kernel of 16 blocks ran 175K cycles on the H200 while its SMs were active 17K on
/// average, ncu 2026-11-23). 1 when `work` is empty, has over 2^20 blocks, or its sizes differ
/// from `longest`'s.
double blockImbalance(const std::vector<std::uint32_t> &work, const std::vector<std::uint32_t> &longest,
                      unsigned warpsPerBlock, unsigned sms, unsigned slots, const std::function<double(unsigned)> &rate,
                      double loneCycles);

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
