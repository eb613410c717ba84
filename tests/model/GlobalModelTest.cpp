/// \file
/// Rule tests for the global coalescing model against every global-memory figure in
/// notes/HARDWARE.md (sm_90: 32-byte sectors, 128-byte lines). Expected numbers are derived by hand.
#include "arch/ArchSpec.h"
#include "model/GlobalModel.h"
#include "model/InstructionStats.h"

#include <gtest/gtest.h>

#include <functional>

namespace warplens::model {
namespace {

arch::ArchSpec sm90() {
  auto a = arch::loadArch("sm_90");
  EXPECT_TRUE(a.ok());
  return a.value();
}

constexpr std::uint64_t kBase = 0x7f0000000000ull; // 512-byte aligned, like cudaMalloc

/// A warp event whose lane i reads `addrOf(i)`, all 32 lanes active unless `mask` says otherwise.
AccessEvent warp(unsigned width, const std::function<std::uint64_t(unsigned)> &addrOf,
                 std::uint32_t mask = 0xffffffffu, Op op = Op::Load) {
  AccessEvent e;
  e.space = Space::Global;
  e.op = op;
  e.widthBytes = std::uint8_t(width);
  e.active = LaneMask{mask};
  for (unsigned i = 0; i < 32; ++i) e.addr[i] = ByteAddress{addrOf(i)};
  return e;
}

TEST(GlobalModel, BestCaseSectorsPerRequestByWidth) {
  GlobalModel m(sm90());
  // 32 lanes x 4 bytes = 128 contiguous bytes from an aligned base: sectors 0..3 -> 4, 1 line.
  GlobalCost c4 = m.cost(warp(4, [](unsigned i) { return kBase + 4 * i; }));
  EXPECT_EQ(c4.requests, 1u);
  EXPECT_EQ(c4.sectors, 4u);
  EXPECT_EQ(c4.sectorsIdeal, 4u);
  EXPECT_EQ(c4.lines, 1u);
  EXPECT_EQ(c4.bytes, 128u);
  // 32 x 8 = 256 bytes: 8 sectors in 2 lines.
  GlobalCost c8 = m.cost(warp(8, [](unsigned i) { return kBase + 8 * i; }));
  EXPECT_EQ(c8.sectors, 8u);
  EXPECT_EQ(c8.sectorsIdeal, 8u);
  EXPECT_EQ(c8.lines, 2u);
  // 32 x 16 = 512 bytes: 16 sectors in 4 lines (the float4 figure: 16 sectors/request).
  GlobalCost c16 = m.cost(warp(16, [](unsigned i) { return kBase + 16 * i; }));
  EXPECT_EQ(c16.sectors, 16u);
  EXPECT_EQ(c16.sectorsIdeal, 16u);
  EXPECT_EQ(c16.lines, 4u);
  EXPECT_EQ(c16.bytes, 512u);
}

TEST(GlobalModel, MisalignedByOneElementTouchesFiveSectors) {
  GlobalModel m(sm90());
  // Bytes [4, 132): sectors 0,1,2,3 (bytes 0..127) and 4 (128..131) -> 5; lines 0 and 1 -> 2;
  // the 128 distinct bytes fit in ceil(128/32) = 4 sectors -> 80% efficiency.
  GlobalCost c = m.cost(warp(4, [](unsigned i) { return kBase + 4 + 4 * i; }));
  EXPECT_EQ(c.sectors, 5u);
  EXPECT_EQ(c.sectorsIdeal, 4u);
  EXPECT_EQ(c.lines, 2u);
}

TEST(GlobalModel, FullyScatteredTouches32Sectors) {
  GlobalModel m(sm90());
  // Stride 128 bytes: every lane in its own sector and line -> 32, 32; ideal still 4.
  GlobalCost c = m.cost(warp(4, [](unsigned i) { return kBase + 128 * i; }));
  EXPECT_EQ(c.sectors, 32u);
  EXPECT_EQ(c.lines, 32u);
  EXPECT_EQ(c.sectorsIdeal, 4u);
  // The same sectors visited in a scrambled lane order give the same counts.
  GlobalCost r = m.cost(warp(4, [](unsigned i) { return kBase + 128 * ((i * 7) % 32); }));
  EXPECT_EQ(r.sectors, 32u);
  EXPECT_EQ(r.lines, 32u);
  EXPECT_EQ(r.sectorsIdeal, 4u);
}

TEST(GlobalModel, ReverseOrderEqualsForwardOrder) {
  GlobalModel m(sm90());
  // Lanes reading 128 contiguous bytes backwards: still 4 sectors, 1 line.
  GlobalCost c = m.cost(warp(4, [](unsigned i) { return kBase + 4 * (31 - i); }));
  EXPECT_EQ(c.sectors, 4u);
  EXPECT_EQ(c.lines, 1u);
  EXPECT_EQ(c.sectorsIdeal, 4u);
}

/// Naive transpose, 2048x2048, 32x8 blocks, grid 64x256: out[x*n + y] = in[y*n + x] with
/// x = bx*32 + tx, y = by*8 + ty. A warp is one ty row (tx = lane).
void naiveTranspose(unsigned elem, InstructionStats &load, InstructionStats &store) {
  const std::uint64_t n = 2048, in = kBase, out = kBase + n * n * elem;
  StatsCollector stats(sm90());
  for (unsigned by = 0; by < 256; ++by)
    for (unsigned bx = 0; bx < 64; ++bx)
      for (unsigned ty = 0; ty < 8; ++ty) {
        std::uint64_t y = by * 8 + ty;
        AccessEvent ld = warp(elem, [&](unsigned tx) { return in + (y * n + bx * 32 + tx) * elem; });
        ld.site = 0;
        stats.onAccess(ld);
        AccessEvent st =
            warp(elem, [&](unsigned tx) { return out + ((bx * 32 + tx) * n + y) * elem; }, 0xffffffffu,
                 Op::Store);
        st.site = 1;
        stats.onAccess(st);
      }
  load = stats.sites().at(0);
  store = stats.sites().at(1);
}

TEST(GlobalModel, NaiveTransposeFloatMatchesH200) {
  InstructionStats ld, st;
  naiveTranspose(4, ld, st);
  // 64*256 blocks * 8 warps = 131,072 warp instructions each.
  EXPECT_EQ(st.requests, 131072u);
  // Store: lane stride n*4 = 8192 bytes -> 32 sectors/request -> 4,194,304 (HARDWARE.md).
  EXPECT_EQ(st.sectors, 4194304u);
  // Load: 128 contiguous aligned bytes (bx*32 floats = 128-byte multiple) -> 4 sectors/request.
  EXPECT_EQ(ld.requests, 131072u);
  EXPECT_EQ(ld.sectors, 4u * 131072u);
  EXPECT_EQ(st.sectorsIdeal, 4u * 131072u);
}

TEST(GlobalModel, NaiveTransposeDoubleMatchesH200) {
  InstructionStats ld, st;
  naiveTranspose(8, ld, st);
  // Store: stride 16384 bytes -> 32 sectors/request; load: 256 contiguous bytes -> 8.
  EXPECT_EQ(st.sectors, 32u * 131072u);
  EXPECT_EQ(ld.sectors, 8u * 131072u);
  EXPECT_EQ(ld.sectorsIdeal, 8u * 131072u);
}

TEST(GlobalModel, PartialMasksCountOnlyActiveLanes) {
  GlobalModel m(sm90());
  auto coalesced = [](unsigned i) { return kBase + 4 * i; };
  // Lanes 0..15: bytes [0, 64) -> sectors 0,1 -> 2; ideal 64/32 = 2; 1 line; 64 bytes.
  GlobalCost half = m.cost(warp(4, coalesced, 0x0000ffffu));
  EXPECT_EQ(half.sectors, 2u);
  EXPECT_EQ(half.sectorsIdeal, 2u);
  EXPECT_EQ(half.lines, 1u);
  EXPECT_EQ(half.bytes, 64u);
  // Even lanes: 16 x 4 bytes spread over all of [0, 128) -> 4 sectors, but 64 distinct bytes
  // -> ideal 2.
  GlobalCost even = m.cost(warp(4, coalesced, 0x55555555u));
  EXPECT_EQ(even.sectors, 4u);
  EXPECT_EQ(even.sectorsIdeal, 2u);
  // One lane: 1 request, 1 sector.
  GlobalCost one = m.cost(warp(4, coalesced, 1u << 20));
  EXPECT_EQ(one.requests, 1u);
  EXPECT_EQ(one.sectors, 1u);
  // All lanes off: nothing requested.
  GlobalCost none = m.cost(warp(4, coalesced, 0u));
  EXPECT_EQ(none.requests, 0u);
  EXPECT_EQ(none.sectors, 0u);
  EXPECT_EQ(none.sectorsIdeal, 0u);
  EXPECT_EQ(none.lines, 0u);
}

TEST(GlobalModel, LanesSharingASectorShareIt) {
  GlobalModel m(sm90());
  // All lanes store to one word: 1 sector, 1 line; ideal min(1 sector, 128 / 32) = 1
  // (gl_st_b4_bcast measured 1).
  GlobalCost c = m.cost(warp(4, [](unsigned) { return kBase + 64; }, 0xffffffffu, Op::Store));
  EXPECT_EQ(c.sectors, 1u);
  EXPECT_EQ(c.sectorsIdeal, 1u);
  EXPECT_EQ(c.bytes, 128u);
  // Pairs of lanes on one word (i/2): 64 bytes in sectors 0,1 -> 2 sectors; ideal min(2, 4) = 2.
  GlobalCost p = m.cost(warp(4, [](unsigned i) { return kBase + 4 * (i / 2); }));
  EXPECT_EQ(p.sectors, 2u);
  EXPECT_EQ(p.sectorsIdeal, 2u);
}

TEST(GlobalModel, IdealCountsDuplicateBytesCappedAtSectorsOnSm90) {
  GlobalModel m(sm90());
  // sgemm_naive_1024 (measured_seeds.json) A[row*K + k]: lanes 0-15 read one float, lanes 16-31
  // another 4096 bytes further -> 2 sectors; ideal min(2, 32 x 4 / 32 = 4) = 2 (measured 2 per
  // request: smsp__sass_sectors_mem_global_ideal 134348800 for the launch; distinct bytes = 8
  // would give 1).
  GlobalCost a = m.cost(warp(4, [](unsigned i) { return kBase + (i / 16) * 4096; }));
  EXPECT_EQ(a.sectors, 2u);
  EXPECT_EQ(a.sectorsIdeal, 2u);
  // gl_ld_b16_bcast: one float4 for every lane -> 1 sector; ideal min(1, 512 / 32) = 1.
  EXPECT_EQ(m.cost(warp(16, [](unsigned) { return kBase; })).sectorsIdeal, 1u);
  // gl_ld_b4_s8: lane i at 32*i -> 32 sectors; ideal min(32, 128 / 32) = 4.
  GlobalCost s8 = m.cost(warp(4, [](unsigned i) { return kBase + 32 * i; }));
  EXPECT_EQ(s8.sectors, 32u);
  EXPECT_EQ(s8.sectorsIdeal, 4u);
  // gl_ld_b4_s1_off4: 128 bytes from 4 bytes past an aligned base -> 5 sectors; ideal 4.
  GlobalCost off = m.cost(warp(4, [](unsigned i) { return kBase + 4 + 4 * i; }));
  EXPECT_EQ(off.sectors, 5u);
  EXPECT_EQ(off.sectorsIdeal, 4u);
}

TEST(GlobalModel, IdealCanCountDistinctBytesWhenArchSaysSo) {
  auto a = arch::loadArchText("distinct.json", R"({"name": "distinct", "inherits": "sm_90",
      "description": "test", "global": {"idealCountsDuplicateBytes": false, "source": "test"}})");
  ASSERT_TRUE(a.ok()) << a.error().message;
  GlobalModel m(a.value());
  // The sgemm A pattern: 8 distinct bytes -> ideal 1 (sectors still 2).
  GlobalCost c = m.cost(warp(4, [](unsigned i) { return kBase + (i / 16) * 4096; }));
  EXPECT_EQ(c.sectors, 2u);
  EXPECT_EQ(c.sectorsIdeal, 1u);
}

TEST(GlobalModel, TileRowPiecesInTwoLinesAreTwoTagRequests) {
  GlobalModel m(sm90());
  // 16x16 block, float, row pitch 2048 floats: lanes 0-15 read 64 bytes of row 0, lanes 16-31
  // 64 bytes of row 1 (8192 bytes further) -> 2 lines, 2 sectors each -> 4 sectors; 128
  // distinct bytes -> ideal 4.
  GlobalCost c = m.cost(warp(4, [](unsigned i) { return kBase + (i / 16) * 8192 + 4 * (i % 16); }));
  EXPECT_EQ(c.lines, 2u);
  EXPECT_EQ(c.sectors, 4u);
  EXPECT_EQ(c.sectorsIdeal, 4u);
}

TEST(GlobalModel, WideMisalignedLaneCrossesSectors) {
  GlobalModel m(sm90());
  // One active 16-byte lane at offset 24: bytes [24, 40) -> sectors 0 and 1; 1 line; ideal 1.
  GlobalCost c = m.cost(warp(16, [](unsigned) { return kBase + 24; }, 1u));
  EXPECT_EQ(c.sectors, 2u);
  EXPECT_EQ(c.sectorsIdeal, 1u);
  EXPECT_EQ(c.lines, 1u);
  // At offset 120: bytes [120, 136) -> sectors 3 and 4, lines 0 and 1.
  GlobalCost d = m.cost(warp(16, [](unsigned) { return kBase + 120; }, 1u));
  EXPECT_EQ(d.sectors, 2u);
  EXPECT_EQ(d.lines, 2u);
}

} // namespace
} // namespace warplens::model
