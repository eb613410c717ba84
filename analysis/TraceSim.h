/// \file
/// Session 10: the SM trace simulation. One SM runs copies of block 0 as the SASS engine executed
/// it (each warp's own sequence of instructions: its divergent paths, trip counts and barriers),
/// `resident` blocks at a time and the next block as soon as one has finished, over the four
/// sub-partitions (session 15: warp i of the n-th block the SM starts on (i + n) mod 4, as
/// BlockSchedule.h), each issuing one instruction per cycle with the pipes and operand rules of
/// the issue simulation (IssueSim.h). Unlike that steady-state simulation of one
/// basic block, it has what serialises a kernel's phases:
///   - block barriers: a warp at BAR waits until every live warp of its block has arrived;
///   - global-load latency: a load's result is ready after the expected latency of its level (L1,
///     L2, DRAM: the device's fitted round latencies, weighted by that instruction's L1 miss share
///     and the launch's DRAM share of L1 misses), so dependent traversals chain their loads;
///   - the SM's one L1 data path (one wavefront per cycle) for shared and global wavefronts.
/// Why: kernels whose warps wait for each other ran near the sum of their phases, which no
/// combination of per-launch totals gives (heldout8 prefix_sum_one_block: load, warp scans,
/// barriers, one block: measured 269 µs, the totals' model 157 µs; heldout9 forest_infer:
/// dependent tree loads, measured 156 µs, predicted 80 µs).
/// Left out: DRAM and L2 bandwidth (the time model's other columns), register-bank conflicts other
/// than the operand rules, instruction-cache misses, block launch cost.
#pragma once

#include "analysis/IssueSim.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace warplens::analysis {

/// Cycles from a block barrier's last arrival to its warps' next issue. Calibrated on the fit set's
/// barrier microbenchmarks (bar_levels_32768x512_l8 and bar_levels_8192x512_l32: 8 and 32
/// barriers per block between shared-memory levels): 24 cycles left them 12-14% short, 60 gives
/// +1% and -2% (H100), +1% and -3% (H200), 120 +29% and +32%.
inline constexpr int kBarrierCycles = 60;
/// An L1-hitting global load's latency, cycles: the fitted latencyL1Ns (28 ns) is a round's time
/// in the latency column, address arithmetic included; the simulation issues that arithmetic
/// itself. Calibrated on the L1 pointer chases of the fit set (latency_chase_l1_*, both GPUs).
inline constexpr int kL1HitCycles = 36;
/// Warp instructions the simulation runs per launch at most (about a second on this machine).
inline constexpr double kTraceBudget = 4e6;

struct TraceInstruction {
  SimInstruction sim;     ///< pipe, issue cycles, stall, registers (its mioCycles unused here)
  double wavefronts = 0;  ///< L1 data-path wavefronts per execution: the SM's path takes one per cycle
  int loadLatency = -1;   ///< global load: cycles until its result (else the opcode's latency)
  bool barrier = false;   ///< BAR.SYNC / BAR.RED: waits for the block's live warps
};

/// An instruction of `opcode` (OpcodeTiming.h) reading and writing registers (R<n> as n,
/// predicates as 256 + n): hand-made traces in tests and benchmarks.
TraceInstruction traceInstruction(std::string_view opcode, std::vector<int> reads, std::vector<int> writes);

struct TraceSimResult {
  double cycles = 0;       ///< the SM's cycles for `blocks` blocks
  double instructions = 0; ///< warp instructions simulated
  bool ran = false;
};

/// Simulates one SM running `blocks` copies of the traced block (`warps`: per warp, indices into
/// `code`; an index past `code` is a plain one-cycle instruction), at most `resident` at a time,
/// over `subPartitions`. A barrier releases its warps `barrierCycles` after the last arrives.
TraceSimResult simulateTrace(const std::vector<TraceInstruction> &code, const std::vector<std::vector<std::uint32_t>> &warps,
                             unsigned resident, unsigned blocks, unsigned subPartitions, int barrierCycles);

/// The busiest SM's cycles for `perSm` blocks of the traced block, `resident` at a time: simulated
/// whole when that is at most `budget` warp instructions, else from one and two rounds of
/// resident blocks extrapolated linearly (ran = false when even that is over the budget).
TraceSimResult simulateSmBlocks(const std::vector<TraceInstruction> &code,
                                const std::vector<std::vector<std::uint32_t>> &warps, unsigned resident, double perSm,
                                unsigned subPartitions, int barrierCycles, double budget);

} // namespace warplens::analysis
