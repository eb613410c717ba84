// The SM trace simulation (analysis/TraceSim.h) on hand-made traces, cycle by cycle.
#include "analysis/OpcodeTiming.h"
#include "analysis/TraceSim.h"

#include <gtest/gtest.h>

using namespace warplens::analysis;

namespace {

TraceInstruction ins(const char *opcode, std::vector<int> reads, std::vector<int> writes) {
  return traceInstruction(opcode, std::move(reads), std::move(writes));
}

} // namespace

// A pointer chase: LDG r1 <- [r2] (result after 100 cycles), IADD3 r2 <- r1 (ALU, 4 cycles), three
// times. Issues at 0, 100, 104, 204, 208, 308: the SM is done the cycle after, 309.
TEST(TraceSim, DependentLoadsChainTheirLatencies) {
  ASSERT_EQ(opcodeTiming("IADD3").latency, 4);
  std::vector<TraceInstruction> code = {ins("LDG.E", {2}, {1}), ins("IADD3", {1}, {2})};
  code[0].loadLatency = 100;
  const std::vector<std::vector<std::uint32_t>> warps = {{0, 1, 0, 1, 0, 1}};
  TraceSimResult r = simulateTrace(code, warps, 1, 1, 4, kBarrierCycles);
  ASSERT_TRUE(r.ran);
  EXPECT_DOUBLE_EQ(r.cycles, 309);
  EXPECT_DOUBLE_EQ(r.instructions, 6);
  // Without the chain (the LDG reads r4, the IADD3 r3), nothing waits: six issues, 6 cycles.
  code[0].sim.reads = {4};
  code[1].sim.reads = {3};
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 1, 1, 4, kBarrierCycles).cycles, 6);
}

// A barrier: warp 0 (sub-partition 0) issues ten independent instructions (NOP: no pipe), then BAR, then one
// more; warp 1 (sub-partition 1) goes straight to BAR. Warp 0 arrives at cycle 10, both warps
// issue their last instruction 24 cycles later (34), done at 35. Unmarked, the BAR does not wait:
// warp 0's twelve instructions, 12 cycles.
TEST(TraceSim, BarrierWaitsForTheBlocksLastWarp) {
  std::vector<TraceInstruction> code = {ins("NOP", {}, {}), ins("BAR.SYNC.DEFER_BLOCKING", {}, {}), ins("FADD", {}, {})};
  ASSERT_EQ(code[0].sim.timing.pipe, Pipe::None);
  code[1].barrier = true;
  std::vector<std::uint32_t> w0(10, 0);
  w0.push_back(1), w0.push_back(2);
  const std::vector<std::vector<std::uint32_t>> warps = {w0, {1, 2}};
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 1, 1, 4, 24).cycles, 35);
  code[1].barrier = false;
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 1, 1, 4, 24).cycles, 12);
}

// Blocks one after another: a one-warp block of ten independent NOPs, three blocks. One
// resident: the next starts the cycle after the last issue, 10 + 10 + 10 = 30. Three resident over
// four sub-partitions (warp slots 0, 1, 2): side by side, 10. Over one sub-partition: its issue
// slot, 30 again.
TEST(TraceSim, BlocksStreamThroughTheResidentSlots) {
  std::vector<TraceInstruction> code = {ins("NOP", {}, {})};
  const std::vector<std::vector<std::uint32_t>> warps = {std::vector<std::uint32_t>(10, 0)};
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 1, 3, 4, kBarrierCycles).cycles, 30);
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 3, 3, 4, kBarrierCycles).cycles, 10);
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 3, 3, 1, kBarrierCycles).cycles, 30);
  // Ten blocks with a budget of 25 warp instructions: one block (10) and two (20) simulated, the
  // other eight at the second's 10 cycles each: 20 + 8 x 10 = 100.
  TraceSimResult r = simulateSmBlocks(code, warps, 1, 10, 4, kBarrierCycles, 25);
  ASSERT_TRUE(r.ran);
  EXPECT_DOUBLE_EQ(r.cycles, 100);
  // Over the budget even for one round of resident blocks: not run.
  EXPECT_FALSE(simulateSmBlocks(code, warps, 1, 10, 4, kBarrierCycles, 5).ran);
  // IADD3 takes the ALU pipe two cycles (16 lanes): ten of them one warp issues at 0, 2, .., 18.
  code[0] = ins("IADD3", {}, {});
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 1, 1, 4, kBarrierCycles).cycles, 19);
}

// Session 15: warp i of the n-th block an SM starts issues on sub-partition (i + n) mod 4
// (smsp_study). Blocks of four warps where only warp 0 has work (ten NOPs, one a cycle): the four
// resident blocks' warp 0s sit on sub-partitions 0, 1, 2, 3 and finish together at cycle 10 (under
// session 12's warp slot mod 4 they all shared sub-partition 0: 40). Eight blocks: the next four
// start at 10 (the cycle after their slot's last issue), again one per sub-partition: done at 20.
TEST(TraceSim, EachBlockStartedMovesItsWarpsOneSubPartitionOn) {
  const std::vector<TraceInstruction> code = {ins("NOP", {}, {})};
  const std::vector<std::vector<std::uint32_t>> warps = {std::vector<std::uint32_t>(10, 0), {}, {}, {}};
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 4, 4, 4, kBarrierCycles).cycles, 10);
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 4, 8, 4, kBarrierCycles).cycles, 20);
  // Two resident slots, four blocks: blocks 0 and 1 on sub-partitions 0 and 1 (0-9), blocks 2 and
  // 3 on 2 and 3 (10-19).
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 2, 4, 4, kBarrierCycles).cycles, 20);
}

// The SM's L1 data path, one wavefront per cycle for all sub-partitions: two warps (sub-partitions
// 0 and 1) each issue an 8-wavefront LDS at cycle 0 and an FFMA on its result. Warp 0's wavefronts
// take cycles 0-7, its result comes 30 cycles after the last: FFMA at 37; warp 1's queue behind
// them (8-15): FFMA at 45, done at 46.
TEST(TraceSim, WavefrontsQueueOnTheSmsDataPath) {
  ASSERT_EQ(opcodeTiming("LDS").latency, 30);
  std::vector<TraceInstruction> code = {ins("LDS", {1}, {2}), ins("FFMA", {2}, {3})};
  code[0].wavefronts = 8;
  const std::vector<std::vector<std::uint32_t>> warps = {{0, 1}, {0, 1}};
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 1, 1, 4, kBarrierCycles).cycles, 46);
  // One wavefront each: results at 30 and 31, done at 32.
  code[0].wavefronts = 1;
  EXPECT_DOUBLE_EQ(simulateTrace(code, warps, 1, 1, 4, kBarrierCycles).cycles, 32);
}
