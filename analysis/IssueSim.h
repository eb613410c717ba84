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
/// Left out: memory latency (the time model's load rounds), barriers, divergence within a block,
/// register-bank conflicts other than the three-register FMA reads.
#pragma once

#include "analysis/OpcodeTiming.h"

#include <array>
#include <string>
#include <vector>

namespace warplens::analysis {

struct SimInstruction {
  OpcodeTiming timing;
  int issueCycles = 1;    ///< 2: an FMA-pipe instruction reading three registers, none reused
  /// Cycles before the warp's next instruction may issue: the stall count the compiler wrote in
  /// the control bits (1 when unknown). A lone warp of heldout6's Collatz loop: 45 cycles per
  /// 16-instruction iteration by its stall counts (13 after the predicate compare a branch reads),
  /// measured 3.3 cycles per instruction (ncu issue stall reasons, H200 2026-11-23).
  int stall = 1;
  std::vector<int> reads;  ///< registers R<n> as n, predicates P<n> as 256 + n
  std::vector<int> writes;
};

/// Per warp execution of the block, in the steady state (after every warp ran it once): the
/// sub-partition's cycles, and the cycles each resource was busy over them.
struct IssueStats {
  double cycles = 0;
  double issue = 0;              ///< issue-slot cycles
  double fmaHeavy = 0, fmaLite = 0, alu = 0, fp64 = 0, xu = 0; ///< pipe-busy cycles
  IssueStats &operator+=(const IssueStats &o);
  IssueStats scaled(double k) const;
  /// The resource the cycles go to: "issue", "fma", "alu", "fp64", "xu" when one is busy at least
  /// 60% of them, else "dependency" (warps waiting on their inputs).
  std::string bound() const;
};

IssueStats simulateIssue(const std::vector<SimInstruction> &body, unsigned warps);

/// Sub-partition warps simulated: 1 .. kMaxSimWarps (sm_90: 64 warps per SM, 4 sub-partitions).
inline constexpr unsigned kMaxSimWarps = 16;

} // namespace warplens::analysis
