/// \file
/// The two shared-memory truths on sm_90 (arch/CALIBRATION.md "Two truths"): the source-view
/// SASS metric (SharedCost::wavefronts, wavefrontsIdeal) and the L1 hardware counters
/// (wavefrontsHw, wavefrontsHw − wavefrontsConflictFree). Patterns and numbers are H100
/// measurements of kernels/micro/shared_random.json (validation/h100/measured_shared_random.json),
/// each worked out by hand in the comments.
#include "arch/ArchSpec.h"
#include "model/SharedModel.h"

#include <gtest/gtest.h>

#include <functional>

namespace warplens::model {
namespace {

arch::ArchSpec sm90() {
  auto a = arch::loadArch("sm_90");
  EXPECT_TRUE(a.ok());
  return a.value();
}

AccessEvent warp(unsigned width, const std::function<std::uint64_t(unsigned)> &addrOf,
                 std::uint32_t mask = 0xffffffffu, Op op = Op::Load) {
  AccessEvent e;
  e.space = Space::Shared;
  e.op = op;
  e.widthBytes = std::uint8_t(width);
  e.active = LaneMask{mask};
  for (unsigned i = 0; i < 32; ++i) e.addr[i] = ByteAddress{addrOf(i)};
  return e;
}

std::uint32_t hwConflicts(const SharedCost &c) { return c.wavefrontsHw - c.wavefrontsConflictFree; }

class TwoTruths : public ::testing::TestWithParam<bool> {}; // scalar and AVX-512 paths

TEST_P(TwoTruths, PackedLds64WithConflictCountsHalfWarpsInSourceView) {
  SharedModel m(sm90());
  m.setVectorised(GetParam());
  // The example: even lanes byte 0, odd lanes byte 128 (words 0,1 and 32,33: banks 0,1).
  // Lane n and n^2 agree -> the hardware packs the warp into one phase: banks 0 and 1 each serve
  // 2 words -> 2 wavefronts, 1 phase -> 1 conflict. The packed warp has a conflict, so the
  // source view counts the half-warps: each holds both addresses -> 2 + 2 = 4; ideal
  // 32 x 8 / 128 = 2.
  SharedCost c = m.cost(warp(8, [](unsigned i) { return (i & 1) ? 128u : 0u; }));
  EXPECT_EQ(c.wavefronts, 4u);
  EXPECT_EQ(c.wavefrontsIdeal, 2u);
  EXPECT_EQ(c.wavefrontsHw, 2u);
  EXPECT_EQ(hwConflicts(c), 1u);
  EXPECT_EQ(c.svRule, SourceViewRule::PackedConflict);
}

TEST_P(TwoTruths, ConflictFreePackedLds64AgreesWithHardware) {
  SharedModel m(sm90());
  m.setVectorised(GetParam());
  // shr_ld_b8_100 shape: lane n and n^2 share 8-byte element (n & ~2) compacted: 16 distinct
  // contiguous elements = 128 bytes, one word per bank -> packed warp, 1 wavefront both ways.
  SharedCost c = m.cost(warp(8, [](unsigned i) { return 8u * ((i & 1) | ((i >> 2) << 1)); }));
  EXPECT_EQ(c.wavefronts, 1u);
  EXPECT_EQ(c.wavefrontsHw, 1u);
  EXPECT_EQ(hwConflicts(c), 0u);
  EXPECT_EQ(c.svRule, SourceViewRule::SameAsHardware);
}

TEST_P(TwoTruths, Lds128QuartersZeroAndTwoOnOneAddressShareAWavefront) {
  SharedModel m(sm90());
  m.setVectorised(GetParam());
  // shr_ld_b16_189: mask 0x00ff00ff (quarters 0 and 2), every lane byte 0. Hardware: packed
  // (lane^1 pairs agree), half-warps 0 and 1 each have lanes -> 2 wavefronts, 0 conflicts.
  // Source view: 16 active lanes, one word set, lanes n and n^16 agree -> 1 wavefront, ideal 1.
  SharedCost c = m.cost(warp(16, [](unsigned) { return 0u; }, 0x00ff00ffu));
  EXPECT_EQ(c.wavefronts, 1u);
  EXPECT_EQ(c.wavefrontsIdeal, 1u);
  EXPECT_EQ(c.wavefrontsHw, 2u);
  EXPECT_EQ(hwConflicts(c), 0u);
  EXPECT_EQ(c.svRule, SourceViewRule::WarpMerged);
  // A full-warp broadcast keeps 2 (32 lanes > 16): measured 2 / 2 both ways (sh_ld_b16_bcast).
  SharedCost full = m.cost(warp(16, [](unsigned) { return 0u; }));
  EXPECT_EQ(full.wavefronts, 2u);
  EXPECT_EQ(full.wavefrontsHw, 2u);
}

TEST_P(TwoTruths, Lds128HalfWarpPackedOnItsOwn) {
  SharedModel m(sm90());
  m.setVectorised(GetParam());
  // Lane 0 byte 432; lane i >= 1 byte 16 x (3 + i/2): lanes 1 (48), 2-3 (64), ..., 14-15 (160),
  // 16-17 (176), ..., 30-31 (288). Lanes 0 and 1 differ (and 0 and 2), so the warp-wide pair
  // condition fails and the hardware uses quarter-warps. Half 1: pairs on 176..303 (128 bytes).
  // Hardware: Q0 = {432, 48, 64, 80} - 432 (words 108..111) and 48 (words 12..15) share banks
  // 12..15 -> 2; Q1, Q2, Q3 -> 1 each: 5 wavefronts, 4 phases -> 1 conflict.
  // Source view: half 1 meets the pair condition on its own lanes and is conflict-free -> 1;
  // half 0 does not -> its quarters 2 + 1: 4 in all (shr_ld_b16_044 measured 4 / 4, hw 5 / 1).
  auto addr = [](unsigned i) -> std::uint64_t {
    return i == 0 ? 432u : 16u * (3 + (i >> 1));
  };
  SharedCost c = m.cost(warp(16, addr));
  EXPECT_EQ(c.wavefrontsHw, 5u);
  EXPECT_EQ(hwConflicts(c), 1u);
  EXPECT_EQ(c.wavefronts, 4u);
  EXPECT_EQ(c.wavefrontsIdeal, 4u);
  EXPECT_EQ(c.svRule, SourceViewRule::PhasePacked);
}

TEST_P(TwoTruths, StoresAndNarrowAccessesAgree) {
  SharedModel m(sm90());
  m.setVectorised(GetParam());
  // STS.64 with the conflict pattern above: stores never pack; halves 2 + 2 both ways.
  SharedCost st = m.cost(warp(8, [](unsigned i) { return (i & 1) ? 128u : 0u; }, 0xffffffffu,
                              Op::Store));
  EXPECT_EQ(st.wavefronts, 4u);
  EXPECT_EQ(st.wavefrontsHw, 4u);
  // LDS.32 stride 2: 2 wavefronts both ways.
  SharedCost ld4 = m.cost(warp(4, [](unsigned i) { return 8u * i; }));
  EXPECT_EQ(ld4.wavefronts, 2u);
  EXPECT_EQ(ld4.wavefrontsHw, 2u);
}

INSTANTIATE_TEST_SUITE_P(Paths, TwoTruths, ::testing::Values(false, true));

TEST(SharedTwoTruths, DescribeRuleNamesBothCounts) {
  SharedModel m(sm90());
  BankDiagram d = m.diagram(warp(8, [](unsigned i) { return (i & 1) ? 128u : 0u; }));
  const std::string s = describeRule(d, 8, Op::Load);
  EXPECT_NE(s.find("8-byte load: the whole warp per phase (packed"), std::string::npos) << s;
  EXPECT_NE(s.find("hardware counter: 2 wavefronts, 1 bank conflict"), std::string::npos) << s;
  EXPECT_NE(s.find("source view (SASS metric): 4 wavefronts, ideal 2"), std::string::npos) << s;
}

} // namespace
} // namespace warplens::model
