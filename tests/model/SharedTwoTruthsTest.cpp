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
  // Source view: every active lane reads one address -> ceil(16 / 16) = 1 wavefront, ideal 1.
  SharedCost c = m.cost(warp(16, [](unsigned) { return 0u; }, 0x00ff00ffu));
  EXPECT_EQ(c.wavefronts, 1u);
  EXPECT_EQ(c.wavefrontsIdeal, 1u);
  EXPECT_EQ(c.wavefrontsHw, 2u);
  EXPECT_EQ(hwConflicts(c), 0u);
  EXPECT_EQ(c.svRule, SourceViewRule::Broadcast);
  // A full-warp broadcast keeps 2 (32 lanes > 16): measured 2 / 2 both ways (sh_ld_b16_bcast).
  SharedCost full = m.cost(warp(16, [](unsigned) { return 0u; }));
  EXPECT_EQ(full.wavefronts, 2u);
  EXPECT_EQ(full.wavefrontsHw, 2u);
  // shr_ld_b16_292 of shared_random_probe16 (mask 0xdafa5265, 18 lanes on one address):
  // ceil(18 / 16) = 2 both ways; shr_ld_b16_293 (0x33fc0ab4, 16 lanes in both halves): 1 / 2.
  EXPECT_EQ(m.cost(warp(16, [](unsigned) { return 1024u; }, 0xdafa5265u)).wavefronts, 2u);
  SharedCost b16 = m.cost(warp(16, [](unsigned) { return 1024u; }, 0x33fc0ab4u));
  EXPECT_EQ(b16.wavefronts, 1u);
  EXPECT_EQ(b16.wavefrontsHw, 2u);
  // Two addresses, one per half (shr_ld_b16_005: quarters 1 and 2, bytes 1024 and 1072, 16
  // lanes, no conflict): not one address, so no warp-wide merge: 2 both ways.
  SharedCost two = m.cost(warp(16, [](unsigned i) { return i < 16 ? 1024u : 1072u; }, 0x00ffff00u));
  EXPECT_EQ(two.wavefronts, 2u);
  EXPECT_EQ(two.wavefrontsHw, 2u);
}

TEST_P(TwoTruths, Lds128HalfWarpZeroNeedsActivePartnersWhileLane31IsActive) {
  SharedModel m(sm90());
  m.setVectorised(GetParam());
  // shr_ld_b16_065 of shared_random_probe16: half-warp 0 on byte 1024 (bank quad 0), half-warp 1
  // on byte 1072 (quad 3), lanes 11 and 12 off (mask 0xffffe7ff). Hardware: lane^1 pairs agree
  // where both are active -> packed half-warps, one address each -> 1 + 1 = 2, 0 conflicts.
  // Source view: lane 31 is active, so half-warp 0 needs every active lane's lane^1 (or lane^2)
  // partner active: lane^1 fails at lane 10 (lane 11 off), lane^2 at lane 9 (lane 11 off) ->
  // quarters 0 and 1: 1 + 1; half-warp 1 packs (no lane off) -> 1: 3 in all.
  // Ideal min(3, ceil(30 x 16 / 128) = 4) = 3. Measured 3 / 3, hardware 2 / 0.
  SharedCost c =
      m.cost(warp(16, [](unsigned i) { return i < 16 ? 1024u : 1072u; }, 0xffffe7ffu));
  EXPECT_EQ(c.wavefrontsHw, 2u);
  EXPECT_EQ(hwConflicts(c), 0u);
  EXPECT_EQ(c.wavefronts, 3u);
  EXPECT_EQ(c.wavefrontsIdeal, 3u);
  EXPECT_EQ(c.svRule, SourceViewRule::StrictPairs);
  // The same with lane 28 off instead (shr_ld_b16_066, 0xefffffff): half-warp 1 keeps the
  // lenient condition -> 2 / 2 both ways.
  SharedCost c1 =
      m.cost(warp(16, [](unsigned i) { return i < 16 ? 1024u : 1072u; }, 0xefffffffu));
  EXPECT_EQ(c1.wavefronts, 2u);
  EXPECT_EQ(c1.svRule, SourceViewRule::SameAsHardware);
  // Odd lanes, the same 4 addresses in every quarter (shr_ld_b16_518: lane n -> byte
  // 1024 + 16 (n & 7), mask 0xaaaaaaaa): hardware packed, 1 + 1. Source view: lane 31 on, every
  // odd lane of half-warp 0 lacks its lane^1 partner and lane n^2 reads another address ->
  // quarters 1 + 1; half-warp 1 -> 1: 3, ideal 2 (measured 3 / 2).
  SharedCost odd = m.cost(warp(16, [](unsigned i) { return 1024u + 16u * (i & 7); }, 0xaaaaaaaau));
  EXPECT_EQ(odd.wavefrontsHw, 2u);
  EXPECT_EQ(odd.wavefronts, 3u);
  EXPECT_EQ(odd.wavefrontsIdeal, 2u);
  // Even lanes (shr_ld_b16_513, 0x55555555): lane 31 is off -> half-warp 0 merges: 2 / 2.
  EXPECT_EQ(m.cost(warp(16, [](unsigned i) { return 1024u + 16u * (i & 7); }, 0x55555555u))
                .wavefronts,
            2u);
}

TEST_P(TwoTruths, Lds128HalfWarpZeroMergesWithoutPairsWhileLane31IsOff) {
  SharedModel m(sm90());
  m.setVectorised(GetParam());
  // Lane n -> byte 1024 + 16 (n & 7): the same 8 addresses (one per bank quad) in every quarter.
  auto addr = [](unsigned i) -> std::uint64_t { return 1024u + 16u * (i & 7); };
  // Quarters 0-2 (shr_ld_b16_501, 0x00ffffff): lanes n and n^1 (n^2) differ, so the hardware
  // uses quarter-warps: 1 + 1 + 1 = 3, 0 conflicts. Source view: lane 31 is off, so half-warp 0
  // (8 addresses, 8 quads: conflict-free) is one wavefront; quarter 2 -> 1: 2. Ideal
  // min(2, 24 x 16 / 128 = 3) = 2. Measured 2 / 2, hardware 3 / 0.
  SharedCost c = m.cost(warp(16, addr, 0x00ffffffu));
  EXPECT_EQ(c.wavefrontsHw, 3u);
  EXPECT_EQ(hwConflicts(c), 0u);
  EXPECT_EQ(c.wavefronts, 2u);
  EXPECT_EQ(c.wavefrontsIdeal, 2u);
  EXPECT_EQ(c.svRule, SourceViewRule::PairFree);
  // Quarters 0, 1 and 3 (shr_ld_b16_505, 0xff00ffff): lane 31 on -> no merge: 3 / 3.
  SharedCost on = m.cost(warp(16, addr, 0xff00ffffu));
  EXPECT_EQ(on.wavefronts, 3u);
  EXPECT_EQ(on.wavefrontsHw, 3u);
  // Half-warp 0 alone (shr_ld_b16_497, 0x0000ffff) -> 1 (hardware 2); half-warp 1 alone
  // (shr_ld_b16_506, 0xffff0000) -> 2 both ways: only half-warp 0 merges without pairs.
  EXPECT_EQ(m.cost(warp(16, addr, 0x0000ffffu)).wavefronts, 1u);
  EXPECT_EQ(m.cost(warp(16, addr, 0xffff0000u)).wavefronts, 2u);
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
  // The 16-byte partial-mask rule in words (shr_ld_b16_065 of shared_random_probe16).
  BankDiagram d16 =
      m.diagram(warp(16, [](unsigned i) { return i < 16 ? 1024u : 1072u; }, 0xffffe7ffu));
  const std::string s16 = describeRule(d16, 16, Op::Load);
  EXPECT_NE(s16.find("hardware counter: 2 wavefronts, 0 bank conflicts"), std::string::npos) << s16;
  EXPECT_NE(s16.find("source view (SASS metric): 3 wavefronts, ideal 3: lane 31 is active and a "
                     "lane of half-warp 0 has its lane^1 and lane^2 partners switched off"),
            std::string::npos)
      << s16;
}

} // namespace
} // namespace warplens::model
