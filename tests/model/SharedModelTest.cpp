/// \file
/// Rule tests for the shared-memory bank model against every shared figure in notes/HARDWARE.md
/// and the H200 micro suite (validation/h200/measured_micro.json; sm_90: 32 banks x 4 bytes,
/// phases of 32/16/8 lanes, packed 64/128-bit loads), plus the seed tile patterns. Every
/// expected number is worked out by hand in the comments.
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

/// Lane i accesses element i*stride of `width` bytes.
SharedCost strided(const SharedModel &m, unsigned width, unsigned stride) {
  return m.cost(warp(width, [=](unsigned i) { return std::uint64_t(i) * stride * width; }));
}

TEST(SharedModel, Stride32BitWordsMatchesH200) {
  SharedModel m(sm90());
  // Lane i -> word i*S, bank (i*S) mod 32. Odd S: the 32 lanes hit 32 different banks -> 1.
  // S = 2^k (k <= 5): banks repeat every 32/2^k lanes, each used bank serves 2^k distinct words.
  const struct { unsigned stride, wavefronts; } cases[] = {
      {1, 1}, {3, 1}, {17, 1}, {2, 2}, {4, 4}, {8, 8}, {16, 16}, {32, 32}};
  for (auto [s, w] : cases) {
    SharedCost c = strided(m, 4, s);
    EXPECT_EQ(c.wavefronts, w) << "stride " << s;
    EXPECT_EQ(c.conflictWays, w) << "stride " << s;
    // 32 distinct words = 128 bytes -> 1 ideal wavefront.
    EXPECT_EQ(c.wavefrontsIdeal, 1u) << "stride " << s;
  }
}

TEST(SharedModel, Stride64BitMatchesH200) {
  SharedModel m(sm90());
  // Two phases of 16 lanes, each lane two words. Stride 1: phase 0 = words 0..31, one per bank
  // -> 1; phase 1 = words 32..63 -> 1; total 2. Ideal: 256 bytes / 128 = 2.
  SharedCost c1 = strided(m, 8, 1);
  EXPECT_EQ(c1.wavefronts, 2u);
  EXPECT_EQ(c1.wavefrontsIdeal, 2u);
  EXPECT_EQ(c1.conflictWays, 1u);
  // Stride 17 doubles = 34 words: lane i -> banks 2i mod 32 and 2i+1 mod 32; within a phase of 16
  // consecutive lanes 2i mod 32 takes 16 different even banks -> 1 per phase -> 2.
  SharedCost c17 = strided(m, 8, 17);
  EXPECT_EQ(c17.wavefronts, 2u);
  EXPECT_EQ(c17.conflictWays, 1u);
  // Stride 2 doubles = 4 words: in a phase lanes i and i+8 share banks 4i mod 32 (+1) with
  // different words -> 2 per phase -> 4.
  EXPECT_EQ(strided(m, 8, 2).wavefronts, 4u);
}

TEST(SharedModel, Stride128BitMatchesH200) {
  SharedModel m(sm90());
  // Four phases of 8 lanes, each lane 4 words (banks 4j..4j+3 for its start word 4j).
  // Stride 1: a phase covers 32 consecutive words -> 1 each -> 4. Ideal 512/128 = 4.
  SharedCost c1 = strided(m, 16, 1);
  EXPECT_EQ(c1.wavefronts, 4u);
  EXPECT_EQ(c1.wavefrontsIdeal, 4u);
  // Stride 9 float4 = 36 words: start bank 4i mod 32 for i = 0..7 -> 8 disjoint bank groups -> 4.
  EXPECT_EQ(strided(m, 16, 9).wavefronts, 4u);
  // Stride 2 = 8 words: start banks 0,8,16,24,0,8,16,24 -> each group twice -> 2 per phase -> 8.
  SharedCost c2 = strided(m, 16, 2);
  EXPECT_EQ(c2.wavefronts, 8u);
  EXPECT_EQ(c2.conflictWays, 2u);
  // Stride 8 = 32 words: all 8 lanes of a phase on banks 0..3 -> 8 per phase -> 32.
  SharedCost c8 = strided(m, 16, 8);
  EXPECT_EQ(c8.wavefronts, 32u);
  EXPECT_EQ(c8.conflictWays, 8u);
  EXPECT_EQ(c8.wavefrontsIdeal, 4u);
}

TEST(SharedModel, BroadcastIsOneWavefront) {
  SharedModel m(sm90());
  // Every lane reads word 5: one word, one bank -> 1 wavefront, no conflict; 4 bytes -> ideal 1.
  SharedCost c = m.cost(warp(4, [](unsigned) { return 20; }));
  EXPECT_EQ(c.wavefronts, 1u);
  EXPECT_EQ(c.conflictWays, 1u);
  EXPECT_EQ(c.wavefrontsIdeal, 1u);
  // Stores to one word by many lanes are one write.
  EXPECT_EQ(m.cost(warp(4, [](unsigned) { return 20; }, 0xffffffffu, Op::Store)).wavefronts, 1u);
  // Lanes 0..15 read word 0, lanes 16..31 read word 32 (same bank 0): 2 distinct words -> 2.
  EXPECT_EQ(m.cost(warp(4, [](unsigned i) { return (i / 16) * 128; })).wavefronts, 2u);
  // Two words per bank, each read by two lanes (lane i -> word 2*(i/2)... i.e. pairs): lanes
  // 2k, 2k+1 -> word 2k: 16 distinct words on even banks -> 1.
  EXPECT_EQ(m.cost(warp(4, [](unsigned i) { return (i / 2) * 8; })).wavefronts, 1u);
}

TEST(SharedModel, AtomicsWithPerLaneOperandsSerialiseLanesOnOneWord) {
  SharedModel m(sm90());
  // Session 22, H200 (validation/h200/measured_atoms_study.json): an ATOMS.ADD whose lanes share
  // words costs as many wavefronts as the most lanes any one bank serves; ATOMS.POPC.INC (one add
  // of the lane count per word) merges them as a load does.
  auto atom = [](std::function<std::uint64_t(unsigned)> f, bool serial, std::uint32_t mask = ~0u) {
    AccessEvent e = warp(4, std::move(f), mask, Op::Atomic);
    e.laneSerial = serial;
    return e;
  };
  // Lane i -> word i / 4: 8 words in banks 0..7, 4 lanes each -> 4 wavefronts (as_add_m4: 4 per
  // execution measured); merged: 8 distinct words in 8 banks -> 1.
  SharedCost quad = m.cost(atom([](unsigned i) { return std::uint64_t(i / 4) * 4; }, true));
  EXPECT_EQ(quad.wavefronts, 4u);
  EXPECT_EQ(quad.wavefrontsHw, 4u);
  EXPECT_EQ(quad.conflictWays, 4u);
  EXPECT_EQ(quad.wavefrontsIdeal, 1u); // 32 lanes x 4 bytes = 128 bytes (measured ideal: 1)
  EXPECT_EQ(quad.wavefrontsConflictFree, 1u);
  EXPECT_EQ(m.cost(atom([](unsigned i) { return std::uint64_t(i / 4) * 4; }, false)).wavefronts, 1u);
  // Every lane on word 5 -> 32 (as_add_m32); merged -> 1 (as_inc_m32).
  EXPECT_EQ(m.cost(atom([](unsigned) { return std::uint64_t(20); }, true)).wavefronts, 32u);
  EXPECT_EQ(m.cost(atom([](unsigned) { return std::uint64_t(20); }, false)).wavefronts, 1u);
  // Distinct words: both rules agree. Lane i -> word 2i: banks 0,2,..,30 twice -> 2 (as_add_bank2).
  EXPECT_EQ(m.cost(atom([](unsigned i) { return std::uint64_t(i) * 8; }, true)).wavefronts, 2u);
  // Mixed: lanes 0-9 on word 0 (bank 0), lanes 10-15 on word 32 (bank 0), lanes 16-31 on words
  // 1..16 (banks 1..16). Bank 0 serves 10 + 6 = 16 lanes -> 16; merged: bank 0 holds 2 distinct
  // words -> 2. Only lanes 0-3 active: bank 0 serves 4 lanes -> 4.
  auto mixed = [](unsigned i) -> std::uint64_t { return i < 10 ? 0 : i < 16 ? 128 : (i - 15) * 4; };
  EXPECT_EQ(m.cost(atom(mixed, true)).wavefronts, 16u);
  EXPECT_EQ(m.cost(atom(mixed, false)).wavefronts, 2u);
  EXPECT_EQ(m.cost(atom(mixed, true, 0xfu)).wavefronts, 4u);
  // The diagram shows the same count per bank.
  BankDiagram d = m.diagram(atom(mixed, true));
  EXPECT_EQ(d.distinctWordsPerBank[0], 16u);
  EXPECT_EQ(d.distinctWordsPerBank[1], 1u);
  EXPECT_EQ(d.cost.wavefronts, 16u);
}

TEST(SharedModel, WideStoresUsePhasesAndCountDuplicateBytes) {
  SharedModel m(sm90());
  // All lanes store one double: stores never pack, phases of 16 -> 1 pass each -> 2. Ideal counts
  // every lane's bytes: 32 x 8 = 256 -> 2 (measured sh_st_b8_bcast: 8 wavefronts, 8 ideal for
  // 4 warps = 2 and 2 per warp).
  SharedCost c = m.cost(warp(8, [](unsigned) { return 64; }, 0xffffffffu, Op::Store));
  EXPECT_EQ(c.wavefronts, 2u);
  EXPECT_EQ(c.wavefrontsIdeal, 2u);
  EXPECT_EQ(c.wavefrontsConflictFree, 2u);
  EXPECT_FALSE(c.packed);
  // float4 store, lanes 2k and 2k+1 on element k (sh_st_b16_pairsame: 16 and 16 for 4 warps):
  // phases of 8 lanes, each 4 elements = 64 bytes, no conflict -> 4; ideal 512/128 = 4.
  SharedCost p = m.cost(warp(16, [](unsigned i) { return 16 * (i / 2); }, 0xffffffffu, Op::Store));
  EXPECT_EQ(p.wavefronts, 4u);
  EXPECT_EQ(p.wavefrontsIdeal, 4u);
  // Only lanes 0..15 active: phase 1 is empty -> 1.
  EXPECT_EQ(m.cost(warp(8, [](unsigned i) { return 8 * i; }, 0x0000ffffu)).wavefronts, 1u);
}

/// One micro-suite pattern: element index of lane l = (l & (2^shift - 1)) * stride +
/// (l >> shift) * group (kernels/micro/shared_access.cu), and the measured per-warp figures.
struct Micro {
  const char *launch;
  unsigned width, stride, shift, group;
  std::uint32_t mask;
  unsigned wavefronts, ideal, conflictFree; ///< conflictFree: wavefronts - l1tex conflicts/warp
};

TEST(SharedModel, WideLoadsMatchTheH200MicroSuite) {
  SharedModel m(sm90());
  // Per warp = measured value / 4 warps. Derivations (P = packed: every active lane reads the
  // address of its lane^1 partner, so phases hold 32 lanes for 8 B, 16 lanes for 16 B):
  //  b8 bcast: P, one phase, one word pair -> 1; ideal min(1, 256/128) = 1.
  //  b8 halfsame/quartersame/eighthsame: lane^1 differ -> phases of 16, each <= 128 B of
  //    distinct words -> 1 + 1 = 2; ideal 2.
  //  b8 pairsame (element l/2): P, 16 elements = words 0..31 -> 1.
  //  b8 2addr_samebank (elements 0 and 16 = words 0,1 and 32,33): P, banks 0/1 hold 2 words -> 2;
  //    ideal min(2, 2) = 2, but one packed phase -> 1 conflict-free (l1tex conflicts 4 = 1/warp).
  //  b8 2addr/4addr_diffbank (elements 0..3): P, distinct banks -> 1.
  //  b8 4addr_samebank (elements 0,16,32,48): P, bank 0 holds 4 words -> 4; ideal 2; conflicts 3.
  //  b8 s1_even (elements 0,2,..,30, odd lanes off): P (partners inactive), words 4k,4k+1 for
  //    k < 16: bank 0 holds words 0 and 32 -> 2; ideal 16 x 8 / 128 = 1; conflict-free 1.
  //  b16 bcast/pairsame/2addr/4addr_diffbank: P, phases of 16 lanes; each half reads <= 128 B
  //    without conflict -> 2; ideal min(2, 4) = 2.
  //  b16 2addr_samebank (elements 0 and 8: half 0 reads bytes 0-15, half 1 bytes 128-143) -> 2.
  //  b16 4addr_samebank (quarters on elements 0,8,16,24): P, half 0 reads elements 0 and 8 =
  //    words 0-3 and 32-35 -> 2 per half -> 4; ideal min(4, 4) = 4; conflict-free 2.
  //  b16 halfsame/quartersame/eighthsame: lane^1 differ -> phases of 8 lanes, 1 each -> 4.
  //  b16 s1_even: P, half 0 = elements 0,2,..,14: bank 0 holds words 0 and 32 -> 2 per half -> 4;
  //    ideal 16 x 16 / 128 = 2; conflict-free 2.
  const Micro cases[] = {
      {"sh_ld_b8_bcast", 8, 0, 5, 0, ~0u, 1, 1, 1},
      {"sh_ld_b8_halfsame", 8, 1, 4, 0, ~0u, 2, 2, 2},
      {"sh_ld_b8_quartersame", 8, 1, 3, 0, ~0u, 2, 2, 2},
      {"sh_ld_b8_eighthsame", 8, 1, 2, 0, ~0u, 2, 2, 2},
      {"sh_ld_b8_pairsame", 8, 0, 1, 1, ~0u, 1, 1, 1},
      {"sh_ld_b8_halfshift", 8, 1, 4, 32, ~0u, 2, 2, 2},
      {"sh_ld_b8_2addr_samebank", 8, 0, 4, 16, ~0u, 2, 2, 1},
      {"sh_ld_b8_2addr_diffbank", 8, 0, 4, 1, ~0u, 1, 1, 1},
      {"sh_ld_b8_4addr_samebank", 8, 0, 3, 16, ~0u, 4, 2, 1},
      {"sh_ld_b8_4addr_diffbank", 8, 0, 3, 1, ~0u, 1, 1, 1},
      {"sh_ld_b8_s1_even", 8, 1, 5, 0, 0x55555555u, 2, 1, 1},
      {"sh_ld_b8_s1_first8", 8, 1, 5, 0, 0xffu, 1, 1, 1},
      {"sh_ld_b8_s1_first16", 8, 1, 5, 0, 0xffffu, 1, 1, 1},
      {"sh_ld_b16_bcast", 16, 0, 5, 0, ~0u, 2, 2, 2},
      {"sh_ld_b16_halfsame", 16, 1, 4, 0, ~0u, 4, 4, 4},
      {"sh_ld_b16_quartersame", 16, 1, 3, 0, ~0u, 4, 4, 4},
      {"sh_ld_b16_eighthsame", 16, 1, 2, 0, ~0u, 4, 4, 4},
      {"sh_ld_b16_pairsame", 16, 0, 1, 1, ~0u, 2, 2, 2},
      {"sh_ld_b16_halfshift", 16, 1, 4, 32, ~0u, 4, 4, 4},
      {"sh_ld_b16_2addr_samebank", 16, 0, 4, 8, ~0u, 2, 2, 2},
      {"sh_ld_b16_2addr_diffbank", 16, 0, 4, 1, ~0u, 2, 2, 2},
      {"sh_ld_b16_4addr_samebank", 16, 0, 3, 8, ~0u, 4, 4, 2},
      {"sh_ld_b16_4addr_diffbank", 16, 0, 3, 1, ~0u, 2, 2, 2},
      {"sh_ld_b16_s1_even", 16, 1, 5, 0, 0x55555555u, 4, 2, 2},
      {"sh_ld_b16_s1_first8", 16, 1, 5, 0, 0xffu, 1, 1, 1},
      {"sh_ld_b16_s1_first16", 16, 1, 5, 0, 0xffffu, 2, 2, 2},
  };
  for (const Micro &k : cases) {
    auto addrOf = [&](unsigned l) {
      return std::uint64_t((l & ((1u << k.shift) - 1)) * k.stride + (l >> k.shift) * k.group) *
             k.width;
    };
    SharedCost c = m.cost(warp(k.width, addrOf, k.mask));
    EXPECT_EQ(c.wavefronts, k.wavefronts) << k.launch;
    EXPECT_EQ(c.wavefrontsIdeal, k.ideal) << k.launch;
    EXPECT_EQ(c.wavefrontsConflictFree, k.conflictFree) << k.launch;
  }
}

TEST(SharedModel, PackingNeedsEveryActivePairToAgree) {
  SharedModel m(sm90());
  // Doubles, lanes 2k and 2k+1 on element k except lane 31 on element 40 (word 80, bank 16):
  // the pair test fails -> phases of 16. Phase 0: elements 0..7 -> 1; phase 1: elements 8..14
  // (words 16..29) and 40 (words 80, 81 in banks 16, 17, beside words 16, 17) -> 2. Total 3.
  SharedCost c = m.cost(warp(8, [](unsigned i) { return i == 31 ? 320u : 8u * (i / 2); }));
  EXPECT_FALSE(c.packed);
  EXPECT_EQ(c.wavefronts, 3u);
  EXPECT_EQ(c.wavefrontsIdeal, 2u);
  // Lanes n and n^2 agree (element (l & 1) + 2 * (l / 4)), lane^1 do not: packed by the XOR-2
  // rule (NVIDIA's statement for CC 7.x, unmeasured on sm_90): 16 elements = words 0..31 -> 1.
  SharedCost x2 = m.cost(warp(8, [](unsigned i) { return 8u * ((i & 1) + 2 * (i / 4)); }));
  EXPECT_TRUE(x2.packed);
  EXPECT_EQ(x2.wavefronts, 1u);
  // 4-byte loads have no packed layout: broadcast stays 1 phase of 32 lanes.
  EXPECT_FALSE(m.cost(warp(4, [](unsigned) { return 0; })).packed);
}

TEST(SharedModel, MergeAcrossPhasesComesFromTheData) {
  auto a = arch::loadArchText("merge.json", R"({"name": "merge", "inherits": "sm_90",
      "description": "test", "shared": {"rules": {"8": {"mergeAcrossPhases": true},
      "16": {"mergeAcrossPhases": true}}, "source": "test"}})");
  ASSERT_TRUE(a.ok()) << a.error().message;
  SharedModel m(a.value());
  // Broadcast double, whole warp at once: one word pair -> 1.
  EXPECT_EQ(m.cost(warp(8, [](unsigned) { return 64; })).wavefronts, 1u);
  // Stride 1 double over the whole warp: words 0..63, each bank 2 words -> 2 (same as phases).
  EXPECT_EQ(strided(m, 8, 1).wavefronts, 2u);
  // float4 stride 2 over the whole warp: lane i -> words 8i..8i+3, banks (8i mod 32)+0..3; each of
  // banks 0-3, 8-11, 16-19, 24-27 gets 8 distinct words -> 8 (phases give 8 too).
  EXPECT_EQ(strided(m, 16, 2).wavefronts, 8u);
}

TEST(SharedModel, Tile16x16ReadByColumn) {
  SharedModel m(sm90());
  // float tile[16][16], 16x16 block; warp 0 = (ty 0, tx 0..15) then (ty 1, tx 0..15).
  // tile[tx][ty] -> word 16*tx + ty. ty = 0: banks 0 (tx even) and 16 (tx odd), 8 words each;
  // ty = 1: banks 1 and 17, 8 words each -> 8 wavefronts (not the seed's "16-way").
  auto col = [](unsigned i) { return std::uint64_t(16 * (i % 16) + i / 16) * 4; };
  SharedCost c = m.cost(warp(4, col));
  EXPECT_EQ(c.wavefronts, 8u);
  EXPECT_EQ(c.conflictWays, 8u);
  EXPECT_EQ(c.wavefrontsIdeal, 1u);
  // Padded tile[16][17] -> word 17*tx + ty. ty = 0 gives banks {0,17,2,19,...,14,31}, ty = 1 gives
  // {1,18,3,...,15,0}: bank 0 holds word 0 (lane 0) and word 256 (lane 31) -> 2.
  auto padded = [](unsigned i) { return std::uint64_t(17 * (i % 16) + i / 16) * 4; };
  EXPECT_EQ(m.cost(warp(4, padded)).wavefronts, 2u);
  // Row read tile[ty][tx] -> word 16*ty + tx: 32 consecutive words -> 1.
  EXPECT_EQ(m.cost(warp(4, [](unsigned i) { return std::uint64_t(i) * 4; })).wavefronts, 1u);
}

TEST(SharedModel, Tile32x32ColumnReadAndFixes) {
  SharedModel m(sm90());
  const unsigned ty = 3; // any row of the 32x8 block
  // tile[32][32] read tile[tx][ty]: word 32*tx + ty -> all in bank ty, 32 words -> 32.
  EXPECT_EQ(m.cost(warp(4, [&](unsigned tx) { return std::uint64_t(32 * tx + ty) * 4; })).wavefronts,
            32u);
  // Padded tile[32][33]: word 33*tx + ty -> bank (tx + ty) mod 32, all different -> 1.
  EXPECT_EQ(m.cost(warp(4, [&](unsigned tx) { return std::uint64_t(33 * tx + ty) * 4; })).wavefronts,
            1u);
  // XOR swizzle tile[tx][ty ^ tx]: word 32*tx + (ty ^ tx) -> bank ty ^ tx, a permutation -> 1.
  EXPECT_EQ(
      m.cost(warp(4, [&](unsigned tx) { return std::uint64_t(32 * tx + (ty ^ tx)) * 4; })).wavefronts,
      1u);
}

TEST(SharedModel, NarrowAccessesShareWords) {
  SharedModel m(sm90());
  // 32 lanes x 2 bytes consecutive: words 0..15, one per bank -> 1; 64 bytes -> ideal 1.
  SharedCost c = m.cost(warp(2, [](unsigned i) { return 2 * i; }));
  EXPECT_EQ(c.wavefronts, 1u);
  EXPECT_EQ(c.conflictWays, 1u);
  // Bytes with stride 128: lane i -> word 32i, all bank 0 -> 32.
  EXPECT_EQ(m.cost(warp(1, [](unsigned i) { return 128 * i; })).wavefronts, 32u);
  // Bytes, lane i -> byte 4i + 1: words 0..31 -> 1.
  EXPECT_EQ(m.cost(warp(1, [](unsigned i) { return 4 * i + 1; })).wavefronts, 1u);
}

TEST(SharedModel, InactiveLanesAndEmptyWarp) {
  SharedModel m(sm90());
  // Stride 32 but only lanes 0 and 5 active: 2 words in bank 0 -> 2.
  EXPECT_EQ(m.cost(warp(4, [](unsigned i) { return 128 * i; }, 0x21u)).wavefronts, 2u);
  SharedCost none = m.cost(warp(4, [](unsigned i) { return 128 * i; }, 0u));
  EXPECT_EQ(none.wavefronts, 0u);
  EXPECT_EQ(none.wavefrontsIdeal, 0u);
  EXPECT_EQ(none.conflictWays, 0u);
}

TEST(SharedModel, SparseAddressesUseTheGeneralPathWithSameRules) {
  SharedModel m(sm90());
  // Rows more than 2048 apart (beyond the direct-mapped window): lane i -> word 32*1024*i... all
  // bank 0, 32 distinct words -> 32. And stride 33 words spread the same way -> 1.
  EXPECT_EQ(m.cost(warp(4, [](unsigned i) { return std::uint64_t(i) << 20; })).wavefronts, 32u);
  EXPECT_EQ(m.cost(warp(4, [](unsigned i) { return (std::uint64_t(i) << 20) + 4 * i; })).wavefronts,
            1u);
  // Misaligned 8-byte lanes (offset 4): lane i covers words 2i+1, 2i+2. Phase 0 (lanes 0..15)
  // touches words 1..32: word 32 shares bank 0 with nothing else in the phase -> 1 per phase -> 2.
  EXPECT_EQ(m.cost(warp(8, [](unsigned i) { return 8 * i + 4; })).wavefronts, 2u);
}

TEST(SharedModel, DiagramListsHitsPerLaneAndBank) {
  SharedModel m(sm90());
  BankDiagram d = m.diagram(warp(4, [](unsigned i) { return 8 * i; })); // stride 2 words
  ASSERT_EQ(d.hits.size(), 32u);
  EXPECT_EQ(d.hits[17].bank, 2u);  // word 34 -> bank 2
  EXPECT_EQ(d.hits[17].word, 34u);
  EXPECT_EQ(d.distinctWordsPerBank[0], 2u); // words 0 and 32
  EXPECT_EQ(d.distinctWordsPerBank[1], 0u); // odd banks unused
  EXPECT_EQ(d.cost.wavefronts, 2u);
  ASSERT_EQ(d.wavefrontsPerPhase.size(), 1u);
  BankDiagram d16 = m.diagram(warp(16, [](unsigned i) { return 32 * i; })); // float4 stride 2
  EXPECT_EQ(d16.hits.size(), 128u);
  EXPECT_EQ(d16.lanesPerPhase, 8u);
  ASSERT_EQ(d16.wavefrontsPerPhase.size(), 4u);
  EXPECT_EQ(d16.wavefrontsPerPhase[3], 2u);
}

} // namespace
} // namespace warplens::model
