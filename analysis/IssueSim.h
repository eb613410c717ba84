/// \file
/// Issue simulation of one SM sub-partition: `warps` warps each run a basic block's SASS
/// instructions over and over (a loop body, or straight-line code that the next resident warps
/// repeat), in order per warp, one warp instruction issued per cycle, each pipe taking a new
/// instruction only when its previous one has left it (OpcodeTiming.h: FFMA on either FMA half,
/// IMAD on fmaheavy, ALU, FP64, MUFU), an instruction waiting for its register and predicate inputs
/// (latency of their producers) and its previous instruction's stall count, and loose
/// round-robin among the ready warps.
/// Why: kernels that mix pipes ran close to the sum of their pipe times on the H100 (pi_midpoint
/// f64: FP64 pipe and issue each ~48K cycles per sub-partition, measured 67.7K active cycles;
/// black_scholes 1.22x its issue time), while one-pipe kernels run at the pipe's rate (fma_chains
/// at 98.7% issue): no fixed combination of per-pipe totals fits both, the interleaving does.
/// Session 9: shared-memory instructions hold the sub-partition's share of the SM's shared data path
/// (kMioCyclesPerWavefront per wavefront) and their results wait for it: shared work and the
/// instructions waiting on it no longer overlap for free (matmul_tiled16, blelloch_scan,
/// oddeven_sort and edit_distance ran at 0.8-0.9 of the sum of their shared and issue times).
/// Left out: global memory latency (the time model's load rounds), barriers, divergence within a
/// block, register-bank conflicts other than the FMA and FP64 operand reads.
#pragma once

#include "analysis/OpcodeTiming.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace warplens::analysis {

/// Register indices of SimInstruction::reads / writes: R0..R255, then P0..P7 (256 + n), then the
/// uniform registers UR0..UR63 (kUniformRegBase + n).
inline constexpr int kUniformRegBase = 256 + 8, kUniformRegs = 64, kSimRegs = kUniformRegBase + kUniformRegs;

struct SimInstruction {
  OpcodeTiming timing;
  int issueCycles = 1;    ///< 2: an FMA-pipe instruction reading three registers, none reused
  /// Cycles before the warp's next instruction may issue: the stall count the compiler wrote in
  /// the control bits (1 when unknown). A lone warp of heldout6's Collatz loop: 45 cycles per
  /// 16-instruction iteration by its stall counts (13 after the predicate compare a branch reads),
  /// measured 3.3 cycles per instruction (ncu issue stall reasons, H200 2026-11-23).
  int stall = 1;
  /// Session 9: shared-memory instructions (LDS, STS, ATOMS, LDSM): the sub-partition's share of
  /// the SM's shared-memory data path they hold, kMioCyclesPerWavefront per wavefront (0: none).
  /// Their results come `latency` cycles after they enter it, later when earlier ones queue.
  int mioCycles = 0;
  std::vector<int> reads;  ///< registers R<n> as n, predicates P<n> as 256 + n, UR<n> as kUniformRegBase + n
  std::vector<int> writes;
};

/// The execution pipes of one sub-partition: the cycle each takes a new instruction again.
struct SubPartitionPipes {
  std::int64_t heavy = 0, lite = 0, alu = 0, fp64 = 0, xu = 0;
  std::int64_t freeAt(Pipe p) const;
  /// `p` takes an instruction at cycle `t` for `busy` cycles (Fma: the lite half when free, else
  /// the heavy one). Returns the pipe that took it (Pipe::Fma for the lite half).
  Pipe take(Pipe p, std::int64_t t, std::int64_t busy);
};

/// Per warp execution of the block, in the steady state (after every warp ran it once): the
/// sub-partition's cycles, and the cycles each resource was busy over them.
struct IssueStats {
  double cycles = 0;
  double issue = 0;              ///< issue-slot cycles
  double fmaHeavy = 0, fmaLite = 0, alu = 0, fp64 = 0, xu = 0; ///< pipe-busy cycles
  double mio = 0; ///< shared-memory data path busy (the sub-partition's share)
  IssueStats &operator+=(const IssueStats &o);
  IssueStats scaled(double k) const;
  /// The resource the cycles go to: "issue", "fma", "alu", "fp64", "xu", "l1/shared" (the shared
  /// data path) when one is busy at least 60% of them, else "dependency" (warps waiting on their
  /// inputs).
  std::string bound() const;
};

IssueStats simulateIssue(const std::vector<SimInstruction> &body, unsigned warps);

/// Sub-partition warps simulated: 1 .. kMaxSimWarps (sm_90: 64 warps per SM, 4 sub-partitions).
inline constexpr unsigned kMaxSimWarps = 16;
/// The SM's shared-memory data path takes one wavefront per cycle (128 bytes; the fitted
/// lsuCyclesPerWavefront of sessions 5-8 is 1.02 on both GPUs), shared by its four sub-partitions
/// running alike: a sub-partition's wavefront holds it 4 of its cycles.
inline constexpr int kMioCyclesPerWavefront = 4;

} // namespace warplens::analysis
