/// \file
/// The two shared-memory truths in compare() and the kernel totals (arch/CALIBRATION.md "Two
/// truths"): smsp__sass_* sum the records' source-view wavefronts, l1tex__data_* the hardware
/// rule's (wavefronts_hw); the hardware counters are exact unless global traffic can run beside
/// the shared accesses. Numbers: shr_ld_b8_075 of validation/h100/measured_shared_random.json.
#include "analysis/Metrics.h"
#include "analysis/compare/Compare.h"
#include "launch/Result.h"

#include <gtest/gtest.h>

using namespace warplens;

namespace {

/// One warp: an LDG of the pattern table (executed once) and one LDS.64 with source view 6 / 2
/// and hardware 3 wavefronts, 1 conflict-free phase (2 bank conflicts).
launch::LaunchResult oneWarp(unsigned blockX = 32, std::uint64_t ldgExecuted = 1) {
  launch::LaunchResult r;
  r.name = "shr_ld_b8_075";
  r.block = {blockX, 1, 1};
  launch::InstructionRecord g;
  g.sassPc = 0x130;
  g.space = "global";
  g.op = "ld";
  g.executed = ldgExecuted;
  g.requests = ldgExecuted;
  g.sectors = 5;
  g.sectorsIdeal = 4;
  launch::InstructionRecord s;
  s.sassPc = 0x170;
  s.space = "shared";
  s.op = "ld";
  s.widthBytes = 8;
  s.executed = 1;
  s.wavefronts = 6;
  s.wavefrontsIdeal = 2;
  s.wavefrontsHw = 3;
  s.wavefrontsConflictFree = 1;
  r.instructions = {g, s};
  return r;
}

TEST(SharedTruths, TotalsCarryBothMetricFamilies) {
  const auto m = analysis::totalsFromInstructions(oneWarp().instructions);
  EXPECT_EQ(m.at("smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"), 6);
  EXPECT_EQ(m.at("smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum"), 2);
  EXPECT_EQ(m.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 3);
  EXPECT_EQ(m.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 2); // 3 - 1
}

TEST(SharedTruths, RecordJsonRoundTripsHardwareFields) {
  const auto s = oneWarp().instructions[1];
  const auto j = launch::toJson(s);
  EXPECT_EQ(j.at("wavefronts_hw"), 3);
  EXPECT_EQ(j.at("bank_conflicts_hw"), 2);
  auto back = launch::launchResultFromJson(launch::toJson(oneWarp()), "test");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->instructions[1].wavefrontsHw, 3u);
  // Where the truths agree nothing extra is written.
  auto same = s;
  same.wavefrontsHw = same.wavefronts;
  EXPECT_FALSE(launch::toJson(same).contains("wavefronts_hw"));
}

TEST(SharedTruths, HardwareCountersExactWithoutConcurrentGlobalTraffic) {
  auto predicted = oneWarp();
  predicted.metrics = analysis::totalsFromInstructions(predicted.instructions);
  auto measured = predicted;
  EXPECT_TRUE(analysis::compare({predicted}, {measured}, {}).ok());
  // One wavefront more on the counter: within +15% before, a mismatch now (one warp, its only
  // global load executed once before the shared load that depends on it).
  measured.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 4;
  EXPECT_FALSE(analysis::compare({predicted}, {measured}, {}).ok());
  // Two warps: global traffic may arbitrate: +1 of 3 is 33% > 15%, still a mismatch; +0.4 ok.
  auto twoWarps = oneWarp(64);
  twoWarps.metrics = analysis::totalsFromInstructions(twoWarps.instructions);
  auto m2 = twoWarps;
  m2.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 3.4;
  EXPECT_TRUE(analysis::compare({twoWarps}, {m2}, {}).ok());
  // A user tolerance naming the counter wins.
  analysis::CompareOptions loose;
  loose.overrides["l1tex__data_*"] = 0.5;
  EXPECT_TRUE(analysis::compare({predicted}, {measured}, loose).ok());
}

TEST(SharedTruths, SourceViewIsThePerInstructionField) {
  auto predicted = oneWarp();
  auto measured = oneWarp();
  measured.instructions[1].wavefrontsHw = 0; // a probe record knows only the SASS metric
  EXPECT_TRUE(analysis::compare({predicted}, {measured}, {}).ok());
  measured.instructions[1].wavefronts = 3; // the hardware count is not the source view
  EXPECT_FALSE(analysis::compare({predicted}, {measured}, {}).ok());
}

} // namespace
