// The opcode table, the sub-partition issue simulation and the block scheduler, by hand.
#include "analysis/BlockSchedule.h"
#include "analysis/IssueSim.h"
#include "analysis/OpcodeTiming.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

using namespace warplens::analysis;

namespace {

SimInstruction op(const char *opcode, std::vector<int> reads, std::vector<int> writes, int issueCycles = 1) {
  SimInstruction s;
  s.timing = opcodeTiming(opcode);
  s.reads = std::move(reads);
  s.writes = std::move(writes);
  s.issueCycles = issueCycles;
  return s;
}

} // namespace

TEST(OpcodeTiming, PipesCyclesAndPrefixOrder) {
  EXPECT_EQ(opcodeTiming("FFMA").pipe, Pipe::Fma);
  EXPECT_EQ(opcodeTiming("IMAD.WIDE.U32").pipe, Pipe::FmaHeavy);
  EXPECT_EQ(opcodeTiming("IMAD.WIDE.U32").pipeCycles, 4);
  EXPECT_EQ(opcodeTiming("IMAD.MOV.U32").pipeCycles, 2);
  EXPECT_EQ(opcodeTiming("VIADD").pipe, Pipe::FmaHeavy);
  EXPECT_EQ(opcodeTiming("LOP3.LUT").pipe, Pipe::Alu);
  EXPECT_EQ(opcodeTiming("SHF.R.U32.HI").pipe, Pipe::Alu);
  // Longer opcodes before their prefixes: SHFL is not SHF, I2FP not I2F, F2FP not F2F.
  EXPECT_EQ(opcodeTiming("SHFL.BFLY").pipe, Pipe::None);
  EXPECT_EQ(opcodeTiming("SHFL.BFLY").latency, 26);
  EXPECT_EQ(opcodeTiming("I2FP.F32.S32").pipe, Pipe::None);
  EXPECT_EQ(opcodeTiming("I2F.F64").pipe, Pipe::Xu);
  EXPECT_EQ(opcodeTiming("F2FP.BF16.F32.PACK_AB").pipe, Pipe::None);
  EXPECT_EQ(opcodeTiming("DSETP.GT.AND").pipe, Pipe::Fp64);
  EXPECT_EQ(opcodeTiming("DFMA").latency, 8);
  EXPECT_EQ(opcodeTiming("MUFU.EX2").pipeCycles, 8);
  EXPECT_EQ(opcodeTiming("LDG.E").latency, 0);
  EXPECT_EQ(opcodeTiming("MOV").pipe, Pipe::None);
  EXPECT_TRUE(isFmaPipe("IMAD") && isFmaPipe("FADD") && !isFmaPipe("DADD"));
}

// Eight independent FFMAs: one warp issues one per cycle (the two FMA halves alternate); eight
// independent IMADs only have fmaheavy: one per 2 cycles; IMAD.WIDE one per 4.
TEST(IssueSim, PipeRates) {
  std::vector<SimInstruction> ffma, imad, wide, mufu;
  for (int r = 0; r < 8; ++r) {
    ffma.push_back(op("FFMA", {100}, {r}));
    imad.push_back(op("IMAD", {100}, {r}));
    wide.push_back(op("IMAD.WIDE.U32", {100}, {2 * r, 2 * r + 1}));
    mufu.push_back(op("MUFU.EX2", {100}, {r}));
  }
  EXPECT_DOUBLE_EQ(simulateIssue(ffma, 1).cycles, 8);
  EXPECT_DOUBLE_EQ(simulateIssue(imad, 1).cycles, 16);
  EXPECT_DOUBLE_EQ(simulateIssue(wide, 4).cycles, 32);
  EXPECT_DOUBLE_EQ(simulateIssue(mufu, 16).cycles, 64);
  EXPECT_EQ(simulateIssue(ffma, 16).bound(), "issue");
  EXPECT_EQ(simulateIssue(imad, 16).bound(), "fma");
  EXPECT_EQ(simulateIssue(mufu, 16).bound(), "xu");
  const IssueStats s = simulateIssue(imad, 2);
  EXPECT_DOUBLE_EQ(s.fmaHeavy, 16);
  EXPECT_DOUBLE_EQ(s.issue, 8);
}

// A chain of 8 dependent FFMAs (latency 4): a lone warp waits 4 cycles per instruction (32 per
// pass); four warps fill the gaps (8 cycles per warp pass: issue-bound). A three-register FFMA
// without reuse takes two issue cycles.
TEST(IssueSim, DependentChainsAndOperandReads) {
  std::vector<SimInstruction> chain;
  for (int k = 0; k < 8; ++k) chain.push_back(op("FFMA", {1}, {1}));
  EXPECT_DOUBLE_EQ(simulateIssue(chain, 1).cycles, 32);
  EXPECT_DOUBLE_EQ(simulateIssue(chain, 2).cycles, 16);
  EXPECT_DOUBLE_EQ(simulateIssue(chain, 4).cycles, 8);
  EXPECT_DOUBLE_EQ(simulateIssue(chain, 8).cycles, 8);
  EXPECT_EQ(simulateIssue(chain, 1).bound(), "dependency");
  std::vector<SimInstruction> wideReads;
  for (int r = 0; r < 8; ++r) wideReads.push_back(op("FFMA", {100, 101, 102}, {r}, 2));
  EXPECT_DOUBLE_EQ(simulateIssue(wideReads, 16).cycles, 16);
  // Mixed: 4 DFMA + 4 FFMA, independent: the FP64 pipe (2 cycles each) and issue interleave
  // perfectly with enough warps: 8 cycles per pass, both fully busy.
  std::vector<SimInstruction> mix;
  for (int r = 0; r < 4; ++r) mix.push_back(op("DFMA", {100}, {2 * r})), mix.push_back(op("FFMA", {100}, {20 + r}));
  const IssueStats m = simulateIssue(mix, 8);
  EXPECT_DOUBLE_EQ(m.cycles, 8);
  EXPECT_DOUBLE_EQ(m.fp64, 8);
}

// Stall counts: four independent FFMAs with a stall of 3 each keep a lone warp 12 cycles per pass;
// three warps fill the gaps (4 cycles per warp pass, issue-bound); a 13-cycle stall before a
// branch adds 12 cycles to a lone warp's pass.
// Session 9: the L1 data path. Each warp: LDS (its wavefronts hold the sub-partition's share of
// the path mioCycles cycles), then an FFMA on its result (LDS latency 30 after it enters the path).
TEST(IssueSim, SharedDataPath) {
  std::vector<SimInstruction> body = {op("LDS", {1}, {2}), op("FFMA", {2}, {3})};
  // One warp: the LDS enters the free path at once, its FFMA waits the 30-cycle latency, the next
  // LDS issues a cycle after the FFMA: 31 cycles per execution.
  body[0].mioCycles = 8;
  EXPECT_DOUBLE_EQ(simulateIssue(body, 1).cycles, 31);
  // 16 warps, 16 wavefronts per LDS (64 cycles): the path is the limit, 64 cycles per warp's
  // execution, everything else behind it (within the steady-state window's ramp, 5%).
  body[0].mioCycles = 64;
  IssueStats s = simulateIssue(body, 16);
  EXPECT_NEAR(s.cycles, 64, 0.05 * 64);
  EXPECT_NEAR(s.mio, 64, 0.05 * 64);
  EXPECT_EQ(s.bound(), "l1/shared");
  // The same LDS without its path cost and an FFMA that does not wait for it: 2 issue cycles.
  body[0].mioCycles = 0;
  body[1].reads = {1};
  EXPECT_NEAR(simulateIssue(body, 16).cycles, 2, 0.05 * 2);
}

TEST(IssueSim, StallCounts) {
  std::vector<SimInstruction> body;
  for (int r = 0; r < 4; ++r) body.push_back(op("FFMA", {100}, {r})), body.back().stall = 3;
  EXPECT_DOUBLE_EQ(simulateIssue(body, 1).cycles, 12);
  EXPECT_DOUBLE_EQ(simulateIssue(body, 3).cycles, 4);
  for (auto &b : body) b.stall = 1;
  body.back().stall = 13;
  EXPECT_DOUBLE_EQ(simulateIssue(body, 1).cycles, 16);
}

// Latency-bound blocks by hand: a block lasts its longest warp, SMs never the limit.
TEST(BlockSchedule, LatencyImbalanceByHand) {
  // 2 SMs of one slot: [1,1,1,4]: blocks 2 and 3 start at 1, block 3 ends at 5; even blocks of
  // 1.75, two per SM: 3.5.
  EXPECT_NEAR(latencyImbalance({1, 1, 1, 4}, 2, 1), 5 / 3.5, 1e-12);
  // [4,1,1,1,1]: 4 (SM1 runs the four short ones meanwhile); even blocks of 1.6, three on SM0:
  // 4.8, longer: never below 1.
  EXPECT_DOUBLE_EQ(latencyImbalance({4, 1, 1, 1, 1}, 2, 1), 1.0);
  // Triangular, all resident (2 SMs of two slots): the last block's 4 against the mean 2.5.
  EXPECT_NEAR(latencyImbalance({1, 2, 3, 4}, 2, 2), 4 / 2.5, 1e-12);
  EXPECT_DOUBLE_EQ(latencyImbalance({3, 3, 3, 3}, 2, 2), 1.0);
  EXPECT_DOUBLE_EQ(latencyImbalance({}, 2, 2), 1.0);
}

// Block scheduler by hand: 2 SMs of one slot, rate 1, every block one warp group on one
// sub-partition.
TEST(BlockSchedule, MakespanByHand) {
  auto one = [](unsigned) { return 1.0; };
  auto four = [](unsigned) { return 4.0; };
  auto blocks = [](std::vector<std::pair<double, double>> wl) {
    std::vector<BlockWork> b;
    for (auto [w, l] : wl) b.push_back(BlockWork::single(w, l));
    return b;
  };
  // One-warp blocks as groups (block b's group 0 = its work, longest = its warp).
  auto groups = [](std::vector<std::uint32_t> work, std::vector<std::uint32_t> longest) {
    std::vector<std::uint32_t> w, l;
    for (std::size_t i = 0; i < work.size(); ++i)
      for (unsigned g = 0; g < kWarpGroups; ++g) w.push_back(g ? 0 : work[i]), l.push_back(g ? 0 : longest[i]);
    return std::pair{w, l};
  };
  // [4,1,1,1,1]: SM0 runs block 0 (4); SM1 runs blocks 1..4 one after another: 4.
  EXPECT_DOUBLE_EQ(blockMakespan(blocks({{4, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}}), 2, 1, 1, 1, one, 0), 4);
  // [1,1,1,4]: blocks 2 and 3 start at 1; block 3 ends at 5.
  EXPECT_DOUBLE_EQ(blockMakespan(blocks({{1, 0}, {1, 0}, {1, 0}, {4, 0}}), 2, 1, 1, 1, one, 0), 5);
  // Even blocks of 1.75: two per SM, 3.5; the imbalance 5 / 3.5.
  auto [w1, l1] = groups({1, 1, 1, 4}, {1, 1, 1, 4});
  EXPECT_NEAR(blockImbalance(w1, l1, 1, 2, 1, 1, one, 0), 5 / 3.5, 1e-12);
  // One SM, two slots, rate 4 shared: block A (work 8, longest warp 8 at 1 cycle per instruction:
  // at most 1 per cycle), block B (work 8, longest 1: at most 8 per cycle). A takes 1, B the other
  // 3 until it ends at 8/3; then A alone at its cap 1: ends at 8.
  EXPECT_NEAR(blockMakespan(blocks({{8, 8}, {8, 1}}), 1, 2, 1, 1, four, 1), 8, 1e-9);
  // Without the caps they share equally: 2 each, both end at 4.
  EXPECT_NEAR(blockMakespan(blocks({{8, 0}, {8, 0}}), 1, 2, 1, 1, four, 0), 4, 1e-9);
}

// Session 12, by hand: a warp stays on its sub-partition. Session 14: warp group g of the SM's
// n-th block runs on sub-partition (g + n) mod 4.
TEST(BlockSchedule, WarpsStayOnTheirSubPartition) {
  auto one = [](unsigned) { return 1.0; };
  // One SM of one slot, four sub-partitions at 1 per cycle each. A block of 8 warps: group g is
  // warps g and g + 4. Group work 4, 4, 4, 12 (warp 3 and 7 long): sub-partition 3 needs 12
  // cycles while the others are done at 4; pooled over the SM it would be 24 / 4 = 6.
  BlockWork b;
  b.work = {4, 4, 4, 12}, b.longest = {2, 2, 2, 6}, b.warps = {2, 2, 2, 2};
  EXPECT_NEAR(blockMakespan({b}, 1, 1, 4, 8, one, 0), 12, 1e-9);
  // As one group on one sub-partition (the pooled schedule) at rate 4: 6.
  auto four = [](unsigned) { return 4.0; };
  EXPECT_NEAR(blockMakespan({BlockWork::single(24, 6, 8)}, 1, 1, 1, 8, four, 0), 6, 1e-9);
  // Two-warp blocks, one SM of two slots. Blocks [warps 5, 1], [5, 1], [1, 1]: block 0 runs on
  // sub-partitions 0 (5) and 1 (1), block 1 on 1 (5) and 2 (1). Sub-partition 1 shares 1 per
  // cycle between block 0's 1 and block 1's 5: the 1 ends at 2, the 5 at 2 + 4 = 6. Block 0 ends
  // at 5; block 2 (on 2 and 3) takes its slot and ends at 6.
  auto two = [](double a, double c) {
    BlockWork x;
    x.work = {a, c, 0, 0}, x.longest = {a, c, 0, 0}, x.warps = {1, 1, 0, 0};
    return x;
  };
  EXPECT_NEAR(blockMakespan({two(5, 1), two(5, 1), two(1, 1)}, 1, 2, 4, 2, one, 0), 6, 1e-9);
  // Four-warp blocks whose warp 0 does 4 and warps 1-3 do 1 each (smsp_study's hot0), one SM of
  // four slots, four blocks at once: their warp 0s run on sub-partitions 0, 1, 2, 3, so every
  // sub-partition holds 4 + 1 + 1 + 1: the 1s end at 4 (a quarter each per cycle), the 4 at
  // 4 + 3 = 7, as even blocks (every warp 7/4): no stretch. (Session 12's rule put the four 4s
  // on sub-partition 0: 16.)
  const std::vector<std::uint32_t> hot0 = {4, 1, 1, 1, 4, 1, 1, 1, 4, 1, 1, 1, 4, 1, 1, 1};
  EXPECT_NEAR(blockImbalance(hot0, hot0, 4, 1, 4, 4, one, 0), 1.0, 1e-9);
  // The heavy warp at block b's warp b mod 4 (smsp_study's rot): block b's sits on (2b) mod 4,
  // so sub-partitions 0 and 2 each hold 4, 4, 1, 1: the 1s end at 4, the 4s at 4 + 2 x 3 = 10,
  // while 1 and 3 hold four 1s; 10 against 7.
  const std::vector<std::uint32_t> rot = {4, 1, 1, 1, 1, 4, 1, 1, 1, 1, 4, 1, 1, 1, 1, 4};
  EXPECT_NEAR(blockImbalance(rot, rot, 4, 1, 4, 4, one, 0), 10.0 / 7.0, 1e-9);
  // Four warps of a block share a sub-partition's rate in proportion to their warps: groups of
  // 1 and 3 warps on one sub-partition (a one-sub-partition SM) at rate 4, no caps: the 3-warp
  // group gets 3 per cycle.
  BlockWork c;
  c.work = {3, 9, 0, 0}, c.longest = {0, 0, 0, 0}, c.warps = {1, 3, 0, 0};
  EXPECT_NEAR(blockMakespan({c}, 1, 1, 1, 4, four, 0), 3, 1e-9);
  // A block's longest warp holds it: blocks of three warps where warp 0 does all 3 instructions
  // at 1 cycle each (2 SMs of one slot, 4 blocks): 3 cycles a block, 6 in all; even warps (1
  // each) take 1 cycle a block, 2 in all: 3 times longer. Even blocks of even warps: 1.
  const std::vector<std::uint32_t> lone = {3, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0};
  EXPECT_NEAR(blockImbalance(lone, lone, 3, 2, 1, 4, one, 1), 3.0, 1e-9);
  const std::vector<std::uint32_t> alike = {1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0};
  EXPECT_DOUBLE_EQ(blockImbalance(alike, alike, 3, 2, 1, 4, one, 1), 1.0);
}

// Session 13, by hand: a step shorter than the clock's last digit still ends its part. One SM of
// one slot, four sub-partitions at 1 per cycle: block 0 (one group of 1e13 cycles), then block 1
// of two one-warp groups of 1 and 1 + 1e-4. At t = 1e13 a double's step is about 0.002, so the
// second group's last 1e-4 cycles move no clock; the schedule used to repeat that step forever
// (a grid of 2^20 uneven blocks of 8 warps never returned). Makespan 1e13 + 1 (+ 1e-4, below the
// clock's resolution).
TEST(BlockSchedule, StepBelowTheClocksResolutionEnds) {
  auto one = [](unsigned) { return 1.0; };
  BlockWork b;
  b.work = {1, 1 + 1e-4, 0, 0}, b.longest = {1, 1 + 1e-4, 0, 0}, b.warps = {1, 1, 0, 0};
  EXPECT_NEAR(blockMakespan({BlockWork::single(1e13, 1e13), b}, 1, 1, 4, 2, one, 0), 1e13 + 1, 0.01);
}

// Session 13, by hand: the order in which SMs that free slots at the same time take the next
// blocks. Two SMs of two slots, one sub-partition at 1 per cycle shared by its blocks, blocks of
// work 1, 1, 1, 2, 2, 3. Slot-major start: SM0 runs blocks 0 and 2, SM1 blocks 1 and 3, each at
// 1/2: blocks 0, 1 and 2 end at t = 2 (block 3 has 1 left). SM order: SM0 takes blocks 4 and 5,
// which share it: block 4 ends at 6, block 5 (1 left) at 7; SM1 ends block 3 at 3. Makespan 7.
// SM1 first: SM1 takes block 4 beside block 3 (both at 1/2: block 3 ends at 4, block 4 at 5); SM0
// takes block 5 alone, ending at 5. Makespan 5. Every tie order gives one of the two.
TEST(BlockSchedule, TiesBetweenSmsGoInTheDrawnOrder) {
  auto one = [](unsigned) { return 1.0; };
  std::vector<BlockWork> v;
  for (double w : {1, 1, 1, 2, 2, 3}) v.push_back(BlockWork::single(w, w));
  EXPECT_DOUBLE_EQ(blockMakespan(v, 2, 2, 1, 1, one, 0), 7);
  std::set<double> seen;
  for (std::uint64_t s = 1; s <= 8; ++s) {
    const double m = blockMakespan(v, 2, 2, 1, 1, one, 0, s);
    EXPECT_TRUE(std::abs(m - 5) < 1e-9 || std::abs(m - 7) < 1e-9) << "seed " << s << ": " << m;
    seen.insert(std::round(m));
  }
  EXPECT_EQ(seen.size(), 2u); // both orders drawn among eight seeds
  EXPECT_EQ(tieOrders(1), 8u);
  EXPECT_EQ(tieOrders(std::size_t(1) << 16), 2u);
  EXPECT_EQ(tieOrders(std::size_t(1) << 20), 1u);
}

// Session 14, by hand: a sub-partition serves its parts least cap per warp first, also a part
// that comes after the others. One SM of two slots, one sub-partition at 2 per cycle, caps at 1
// cycle per instruction. Blocks 0, 2 and 3: one warp of 1 instruction (cap 1, 1 per warp); block
// 1: four warps, one of which runs all 4 (cap 1, 1/4 per warp). Block 1 first: its fair share
// 2 x 4/5 is over its cap, it takes 1; the one-warp block beside it the other 1: blocks 0, 2 and
// 3 end at 1, 2 and 3, block 1 at 4. (In the order they came block 0 would take 2 x 1/5 and end
// at 2.5, block 3 at 4.5.)
TEST(BlockSchedule, LeastCapPerWarpIsServedFirst) {
  auto two = [](unsigned) { return 2.0; };
  const BlockWork p = BlockWork::single(1, 1, 1);
  EXPECT_NEAR(blockMakespan({p, BlockWork::single(4, 4, 4), p, p}, 1, 2, 1, 4, two, 1), 4, 1e-9);
  // Groups of 2 and 3 warps (not all powers of two: each share sorts anew): block 1 of three
  // warps, one running all 3 (cap 1, 1/3 per warp), before blocks 0 and 2 of two warps, one
  // running both instructions (cap 1, 1/2 per warp). 2 x 3/5 is over block 1's cap: 1 each; block
  // 0 ends at 2, block 1 at 3, block 2 at 4. (In the order they came block 0 would take 2 x 2/5
  // and end at 2.5, block 2 at 4.5.)
  const BlockWork q = BlockWork::single(2, 2, 2);
  EXPECT_NEAR(blockMakespan({q, BlockWork::single(3, 3, 3), q}, 1, 2, 1, 4, two, 1), 4, 1e-9);
}
