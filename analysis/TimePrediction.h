/// \file
/// Adds the time model's prediction (perf/TimeModel.h) to an analyzed launch: registers and
/// static shared memory from the cubin, the instruction mix estimated from the emulator's warp
/// instruction count and the SASS listing's FMA-pipe share, DRAM bytes from the DRAM model.
/// Writes metrics gpu__time_duration.sum and dram__bytes.sum.per_second and the "time" section.
#pragma once

#include "analysis/IssueSim.h"
#include "analysis/Pipeline.h"
#include "emu/Emulator.h"
#include "launch/LaunchSpec.h"
#include "launch/Result.h"
#include "perf/TimeModel.h"

#include <array>
#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

namespace warplens::model {
class DramSectorModel;
}

namespace warplens::sass {
struct SassFunction;
struct SassInstruction;
}

namespace warplens::analysis {

class L1ReuseListener;

/// Never fails the analysis: what cannot be predicted becomes a note on the result.
/// `engine`: the SASS engine's run (its executed warp instructions per pc / 16, per block and warp
/// group, block 0's trace; BlockSchedule.h, TraceSim.h); null: the PTX engine's.
void addTimePrediction(const launch::LaunchSpec &spec, const AnalyzeOptions &options,
                       std::uint64_t emulatedWarpInstructions, const model::DramSectorModel &dram,
                       const L1ReuseListener &reuse, launch::LaunchResult &result,
                       const emu::RunStats *engine = nullptr,
                       const std::map<std::uint64_t, double> &missShareByPc = {},
                       const std::map<std::uint64_t, double> &dramShareByPc = {});

/// Session 11: a branch holds its warp beyond its stall count while its target is resolved (ncu's
/// branch_resolving stall cycles per executed BRA, lone-warp kernels, H200 2026-11-24): loop-back
/// branches 2.6 (chain_fma1) and 3.2 (collatz_max_steps) cycles; kernels of forward if/else
/// branches 7.4 (cholesky64_warp), 7.5 (kepler_orbits), 9.2 (sturm_bisect), 9.9 (heat_plate).
inline constexpr int kBackwardBranchCycles = 3;
inline constexpr int kForwardBranchCycles = 8;
/// The cycles `ins` adds to its stall count as a branch: by its target label's direction in `fn`
/// (at or before it: a loop's back edge); 0 for other instructions and unknown targets.
int branchResolveCycles(const sass::SassFunction &fn, const sass::SassInstruction &ins);

/// The issue simulation's view of one SASS instruction of `fn` (IssueSim.h): pipe, issue cycles
/// (operand reads), stall count from `stalls` (pc / 16) plus a branch's resolve cycles, registers and
/// predicates read and written, and the L1 data-path cycles of its wavefronts (`lsuWavefronts` per
/// execution by pc x `mioCyclesPerWavefront`).
SimInstruction simInstructionOf(const sass::SassFunction &fn, const sass::SassInstruction &ins,
                                const std::vector<std::uint8_t> &stalls,
                                const std::map<std::uint64_t, double> &lsuWavefronts, double mioCyclesPerWavefront);

/// The instruction mix from the SASS engine's per-instruction counts (index pc / 16), scaled so
/// their sum is `warpInstructions` (sampled launches). dependentCycles: per executed instruction,
/// the cycles a warp running alone waits before issuing it (1, or until its register inputs are
/// ready: issueLatency of their producers), from the steady state of its basic block (two passes,
/// ready times carried: a loop body's chain into its next iteration); instructions outside the
/// listing (callees) a cycle each. Predicates, uniform registers and global load latency are left
/// out (the load-round columns hold the latter).
struct PerPcMix {
  double fma = 0, shuffles = 0, dependentCycles = 0;
  double operandStalls = 0; ///< FMA-pipe executions reading three registers, none with .reuse
  double alu = 0;           ///< integer/logic ALU-pipe executions (aluPipe)
  double fp64 = 0, xu = 0;  ///< FP64-pipe (DFMA, DADD, DMUL, DSETP, DMNMX) and MUFU executions
  double barriers = 0;      ///< block barriers (BAR, not BAR.ARV) executed, warp instructions
  /// Session 8: per resident warps per sub-partition (index w - 1), the issue simulation's
  /// sub-partition cycles for all executed instructions (IssueSim.h; blocks as executed, callees
  /// a cycle per instruction), to be divided over the sub-partitions that run them.
  std::array<IssueStats, kMaxSimWarps> sim{};
  bool lsuInSim = false; ///< some instruction's L1 wavefronts went into `sim`
  bool known = false;
};
/// `stalls` (optional, per pc / 16): the cubin's stall counts, which the issue simulation obeys.
/// `lsuWavefronts` (optional, by pc): L1 data-path wavefronts per execution of the instruction
/// (shared memory; global loads and stores), which hold the simulated sub-partition's share of the
/// SM's L1 data path (IssueSim.h), `mioCyclesPerWavefront` of its cycles each: the sub-partitions
/// sharing the SM's path (min(4, resident warps per SM)).
PerPcMix mixFromCounts(const sass::SassFunction &fn, const std::vector<std::uint64_t> &perPc, double warpInstructions,
                       const std::vector<std::uint8_t> &stalls = {},
                       const std::map<std::uint64_t, double> &lsuWavefronts = {},
                       double mioCyclesPerWavefront = kMioCyclesPerWavefront);
/// Cycles until an instruction's result can feed a dependent one (sm_90, by opcode prefix).
int issueLatency(std::string_view opcode);

/// Dependent rounds of global loads, summed over warps: the listing's global loads are grouped
/// in program order, a group closing at the first instruction that reads a register one of its
/// loads writes, at a branch target (label), a branch, barrier or exit; a group's rounds are the
/// most requests of its loads (records by SASS pc). Loads without a pc in the listing count one
/// round per request. 0 when no record has global load requests.
/// `barrierRounds` (optional): the rounds among them closed before a barrier (BAR, not BAR.ARV)
/// with no backward branch (loop back-edge) between them and it: the block waits at the barrier
/// for all of its warps' loads of those rounds (tile transposes, shared-memory tiles), so their
/// latency, transfer and the block's work after the barrier add rather than overlap (TimeModel.h,
/// barrier columns).
/// `missShareByPc`, `missRounds` (optional, session 7): per group its rounds times the largest
/// L1-miss share of its loads (the loads of one round touch data of one phase: all new or all
/// read before); loads without a share count as missing.
double loadRoundsOf(const sass::SassFunction &fn, const std::vector<launch::InstructionRecord> &records,
                    double *barrierRounds = nullptr, const std::map<std::uint64_t, double> *missShareByPc = nullptr,
                    double *missRounds = nullptr);

/// FMA-pipe warp instructions executed (smsp__inst_executed_pipe_fma.sum), estimated from the
/// listing's basic blocks (split at labels and after branches/exits): a block holding a memory
/// instruction with a record executes as often as that instruction (the most executions among
/// its records); the rest of `warpInstructions` (the engine's exact total) is spread over the
/// blocks without records in their static mix (loops without memory instructions: a polynomial's
/// FMAs). Blocks that are a branch to themselves (the listing's trailing trap) are left out.
/// Returns -1 when no block has a record (then the caller uses the static share).
double fmaPipeInstructionsOf(const sass::SassFunction &fn, const std::vector<launch::InstructionRecord> &records,
                             double warpInstructions);

/// The time model's inputs from a result's metrics (predicted or measured: the same ncu names)
/// and the shape; l2 read sectors fall back to global load sectors where not measured.
perf::MemoryCounts memoryCountsFromMetrics(const std::map<std::string, double> &metrics);

/// Session 22: L1 → L2 read sectors with L1 hits across the blocks of one SM: `reuse`'s per-block
/// misses less, per sector k > `sms` blocks read, k - sms, times min(1, the L1 bytes the resident
/// blocks' shared memory leaves of `l1BytesPerSm` (the arch's) / the bytes of those sectors).
double crossBlockL1Misses(const L1ReuseListener &reuse, std::uint64_t l1BytesPerSm, const perf::LaunchShape &shape,
                          const perf::Occupancy &occ, unsigned sms);

} // namespace warplens::analysis
