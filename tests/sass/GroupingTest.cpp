/// \file
/// Grouping of PTX sites into SASS instructions on the nvcc 13.0 / sm_90 fixtures; expectations
/// read by hand from fixtures/*.ptx and fixtures/*.sass (pcs, widths, which lines merge).
#include "PtxSites.h"
#include "sass/Grouping.h"

#include <gtest/gtest.h>

using namespace warplens;
using namespace warplens::sass;

namespace {

std::string fixture(const std::string &name) { return std::string(WARPLENS_TEST_DATA) + "/fixtures/" + name; }

struct Fixture {
  std::vector<model::SiteInfo> sites;
  Grouping grouping;
};

Fixture group(const std::string &base, const std::string &kernel) {
  auto sites = fixtures::ptxSites(fixture(base + ".ptx"))[kernel];
  auto listing = readListing(fixture(base + ".sass"));
  EXPECT_TRUE(listing.ok());
  const SassFunction *f = findFunction(*listing, kernel);
  EXPECT_NE(f, nullptr);
  auto g = groupAccesses(sites, *f);
  EXPECT_TRUE(g.ok());
  return {sites, *g};
}

/// The SASS pc PTX site `ptx` was grouped into (0xdead when PTX-level).
std::uint64_t pcOf(const Fixture &fx, std::uint32_t ptx) {
  const auto &m = fx.grouping.byPtxSite.at(ptx);
  return fx.grouping.sassSites.at(m.sassSite).sassPc.value_or(0xdead);
}

std::string notes(const Grouping &g) {
  std::string all;
  for (const auto &n : g.notes) all += n + "\n";
  return all;
}

} // namespace

TEST(Grouping, FourSharedFloatLoadsBecomeOneLds128) {
  // PTX sites: 0-3 st.shared.f32 [%r4+0/1024/2048/3072] (lines 5-8), 4-7 ld.shared.f32
  // [%r6+0/4/8/12] (line 10), 8 st.global.f32 (line 11).
  Fixture fx = group("merges", "_Z11sharedF32x4Pf");
  ASSERT_EQ(fx.sites.size(), 9u);
  EXPECT_EQ(fx.grouping.notes.size(), 0u) << notes(fx.grouping);
  ASSERT_EQ(fx.grouping.sassSites.size(), 6u); // 4 STS + LDS.128 + STG
  for (std::uint32_t k = 0; k < 4; ++k) {
    EXPECT_EQ(pcOf(fx, k), 0xb0u + 0x10u * k); // stores 1 KiB apart stay separate STS
    EXPECT_EQ(fx.grouping.byPtxSite.at(k).components, 1u);
  }
  for (std::uint32_t k = 4; k < 8; ++k) {
    const auto &m = fx.grouping.byPtxSite.at(k);
    EXPECT_EQ(pcOf(fx, k), 0x100u);
    EXPECT_EQ(m.components, 4u);
    EXPECT_EQ(m.offsetBytes, 4u * (k - 4));
  }
  const auto &lds = fx.grouping.sassSites.at(fx.grouping.byPtxSite.at(4).sassSite);
  EXPECT_EQ(lds.widthBytes, 16u);
  EXPECT_EQ(lds.sassText, "LDS.128 R8, [R4] ;");
  EXPECT_EQ(lds.sourceLine, 10);
  EXPECT_EQ(lds.space, model::Space::Shared);
  EXPECT_EQ(pcOf(fx, 8), 0x140u);
  // ids are 0..n-1 in pc order
  for (std::size_t i = 0; i < fx.grouping.sassSites.size(); ++i)
    EXPECT_EQ(fx.grouping.sassSites[i].site, i);
}

TEST(Grouping, DoublePairsOnTwoLinesBecomeSts128AndLds128) {
  // st.shared.f64 [%r5] (line 17) and [%r5+8] (line 18) → STS.128 at 0xc0, which the listing
  // attributes to line 18 only; the two ld.shared.f64 (line 20) → LDS.128 at 0xe0.
  Fixture fx = group("merges", "_Z14sharedF64PairsPd");
  ASSERT_EQ(fx.sites.size(), 5u);
  EXPECT_EQ(fx.grouping.notes.size(), 0u) << notes(fx.grouping);
  EXPECT_EQ(pcOf(fx, 0), 0xc0u);
  EXPECT_EQ(pcOf(fx, 1), 0xc0u);
  EXPECT_EQ(fx.grouping.byPtxSite.at(1).offsetBytes, 8u);
  EXPECT_EQ(fx.grouping.byPtxSite.at(1).components, 2u);
  EXPECT_EQ(pcOf(fx, 2), 0xe0u);
  EXPECT_EQ(pcOf(fx, 3), 0xe0u);
  EXPECT_EQ(pcOf(fx, 4), 0x100u); // st.global.f64 → STG.E.64
  EXPECT_EQ(fx.grouping.sassSites.size(), 3u);
}

TEST(Grouping, SharedStoresOnFourLinesMergeIntoSts128) {
  Fixture fx = group("merges", "_Z16sharedStoreMergePf");
  ASSERT_EQ(fx.sites.size(), 6u);
  for (std::uint32_t k = 0; k < 4; ++k) {
    EXPECT_EQ(pcOf(fx, k), 0xb0u);
    EXPECT_EQ(fx.grouping.byPtxSite.at(k).offsetBytes, 4u * k);
  }
  EXPECT_EQ(pcOf(fx, 4), 0x100u);
  EXPECT_EQ(pcOf(fx, 5), 0x120u);
}

TEST(Grouping, GlobalScalarsWithoutProvenAlignmentStaySeparate) {
  // in[4t+0..3] through a plain float*: ptxas cannot prove 16-byte alignment → four LDG.E.
  Fixture fx = group("merges", "_Z13globalScalarsPKfPf");
  ASSERT_EQ(fx.sites.size(), 5u);
  for (std::uint32_t k = 0; k < 4; ++k) {
    EXPECT_EQ(pcOf(fx, k), 0xa0u + 0x10u * k);
    EXPECT_EQ(fx.grouping.byPtxSite.at(k).components, 1u);
  }
  EXPECT_EQ(pcOf(fx, 4), 0x120u);
  Fixture v = group("merges", "_Z10float4CopyPK6float4PS_");
  EXPECT_EQ(pcOf(v, 0), 0x90u);
  EXPECT_EQ(pcOf(v, 1), 0xb0u);
  EXPECT_EQ(v.grouping.sassSites[0].widthBytes, 16u);
  Fixture q = group("merges", "_Z19globalAlignedStructPK4QuadPf");
  EXPECT_EQ(pcOf(q, 0), 0x90u);
  for (std::uint32_t k = 1; k < 5; ++k) EXPECT_EQ(pcOf(q, k), 0xb0u + 0x10u * k);
}

TEST(Grouping, PtxasUnrolledLoopGivesCopies) {
  // loop_unrolled.ptx: one ld.global.f32 (line 8); ptxas made a 4x body, a 2x and a 1x tail.
  Fixture fx = group("loop_unrolled", "_Z10stridedSumPKfPfi");
  ASSERT_EQ(fx.sites.size(), 2u);
  const auto &m = fx.grouping.byPtxSite.at(0);
  ASSERT_EQ(m.copies.size(), 7u);
  const std::uint64_t pcs[] = {0x170, 0x180, 0x190, 0x1a0, 0x290, 0x2a0, 0x350};
  for (std::size_t k = 0; k < 7; ++k)
    EXPECT_EQ(fx.grouping.sassSites.at(m.copies[k]).sassPc.value(), pcs[k]);
  EXPECT_EQ(pcOf(fx, 1), 0x390u);
  ASSERT_EQ(fx.grouping.notes.size(), 1u);
  EXPECT_NE(fx.grouping.notes[0].find("loop.cu:8: ptxas made 7 copies"), std::string::npos)
      << notes(fx.grouping);
  Fixture rolled = group("loop", "_Z10stridedSumPKfPfi");
  EXPECT_TRUE(rolled.grouping.byPtxSite.at(0).copies.empty());
  EXPECT_EQ(pcOf(rolled, 0), 0x120u);
}

TEST(Grouping, AtomicsMatchRedAndWarpAggregatedCopies) {
  // PTX: 0 atom.global.add.u32 [%rd1],1 (result unused → REDG), 1 atom.global.add.u32 (ptxas
  // emits two ATOMGs, 0x150 and 0x280), 2 ld.global, 3 atom.global.add.f32 (→ REDG.F32),
  // 4 st.shared, 5 atom.shared (→ ATOMS), 6 ld.shared, 7 st.global.
  Fixture fx = group("loop", "_Z7atomicsPiPfPKf");
  ASSERT_EQ(fx.sites.size(), 8u);
  EXPECT_EQ(pcOf(fx, 0), 0x130u);
  EXPECT_EQ(fx.grouping.sassSites.at(fx.grouping.byPtxSite.at(0).sassSite).op, model::Op::Reduce);
  ASSERT_EQ(fx.grouping.byPtxSite.at(1).copies.size(), 2u);
  EXPECT_EQ(pcOf(fx, 1), 0x150u);
  EXPECT_EQ(pcOf(fx, 2), 0x2c0u);
  EXPECT_EQ(pcOf(fx, 3), 0x360u);
  EXPECT_EQ(pcOf(fx, 4), 0x340u);
  EXPECT_EQ(pcOf(fx, 5), 0x380u);
  EXPECT_EQ(pcOf(fx, 6), 0x3b0u);
  EXPECT_EQ(pcOf(fx, 7), 0x3e0u);
}

TEST(Grouping, InlinedAtomicsMatchWithCallerLinesToo) {
  // The same kernel, with each inlined atomic's site carrying the caller's line (loop.cu:14,
  // 15, 16, 20) instead of the header's: nvdisasm -gi lists both, so the grouping is the same.
  auto sites = fixtures::ptxSites(fixture("loop.ptx"))["_Z7atomicsPiPfPKf"];
  ASSERT_EQ(sites.size(), 8u);
  const int caller[] = {14, 15, -1, 16, -1, 20};
  for (int k : {0, 1, 3, 5}) {
    sites[k].sourceFile = "tests/sass/fixtures/loop.cu";
    sites[k].sourceLine = caller[k];
  }
  auto listing = readListing(fixture("loop.sass"));
  auto g = groupAccesses(sites, *findFunction(*listing, "_Z7atomicsPiPfPKf"));
  ASSERT_TRUE(g.ok());
  auto pc = [&](std::uint32_t k) { return *g->sassSites.at(g->byPtxSite.at(k).sassSite).sassPc; };
  EXPECT_EQ(pc(0), 0x130u);
  EXPECT_EQ(pc(1), 0x150u);
  EXPECT_EQ(pc(3), 0x360u);
  EXPECT_EQ(pc(5), 0x380u);
  EXPECT_EQ(g->byPtxSite.at(1).copies.size(), 2u);
}

TEST(Grouping, UnmatchedSitesStayPtxLevelWithANote) {
  auto sites = fixtures::ptxSites(fixture("merges.ptx"))["_Z11sharedF32x4Pf"];
  model::SiteInfo extra = sites.back();
  extra.site = 99;
  extra.ptxLine = 1000;
  extra.sourceLine = 77;
  extra.ptxText = "st.global.f32 [%rd9], %f1;";
  sites.push_back(extra);
  auto listing = readListing(fixture("merges.sass"));
  auto g = groupAccesses(sites, *findFunction(*listing, "_Z11sharedF32x4Pf"));
  ASSERT_TRUE(g.ok());
  const auto &m = g->byPtxSite.at(99);
  EXPECT_FALSE(g->sassSites.at(m.sassSite).sassPc.has_value());
  EXPECT_EQ(g->sassSites.at(m.sassSite).sourceLine, 77);
  ASSERT_EQ(g->notes.size(), 1u);
  EXPECT_NE(g->notes[0].find("merges.cu:77"), std::string::npos) << g->notes[0];
  // duplicate ids are an error
  sites.push_back(extra);
  EXPECT_FALSE(groupAccesses(sites, *findFunction(*listing, "_Z11sharedF32x4Pf")).ok());
}

TEST(Grouping, WithoutLineInfoMatchesInOrder) {
  // A cuobjdump-style function (no lines): two ld.shared.f64 at +0/+8 then a st.global.
  SassFunction f{"k", {}};
  for (auto [pc, op] : {std::pair{0x10, "LDS.128"}, std::pair{0x20, "STG.E.64"}}) {
    SassInstruction i;
    i.pc = pc;
    i.opcode = op;
    i.text = std::string(op) + " ...;";
    decodeMemoryOpcode(op, i);
    f.instructions.push_back(i);
  }
  std::vector<model::SiteInfo> sites(3);
  const char *texts[] = {"ld.shared.f64 %fd1, [%r2];", "ld.shared.f64 %fd2, [%r2+8];",
                         "st.global.f64 [%rd4], %fd3;"};
  for (std::uint32_t k = 0; k < 3; ++k) {
    sites[k].site = k;
    sites[k].ptxLine = 10 + k;
    sites[k].ptxText = texts[k];
    sites[k].widthBytes = 8;
    sites[k].space = k < 2 ? model::Space::Shared : model::Space::Global;
    sites[k].op = k < 2 ? model::Op::Load : model::Op::Store;
  }
  auto g = groupAccesses(sites, f);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->sassSites.size(), 2u);
  EXPECT_EQ(g->byPtxSite.at(1).sassSite, 0u);
  EXPECT_EQ(g->byPtxSite.at(1).offsetBytes, 8u);
  EXPECT_EQ(g->byPtxSite.at(2).sassSite, 1u);
  ASSERT_EQ(g->notes.size(), 1u);
  EXPECT_NE(g->notes[0].find("by order"), std::string::npos);
}

TEST(Grouping, PtxAddressParsing) {
  auto a = parsePtxAddress("ld.shared.f32 %f3, [%r6+4];");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->base, "%r6");
  EXPECT_EQ(a->offset, 4);
  a = parsePtxAddress("st.shared.v2.f32 [_ZZ1kE1s+-8], {%f1, %f2};");
  EXPECT_EQ(a->base, "_ZZ1kE1s");
  EXPECT_EQ(a->offset, -8);
  a = parsePtxAddress("ld.global.nc.f32 %f1, [%rd6 + 0x10];");
  EXPECT_EQ(a->offset, 16);
  a = parsePtxAddress("atom.global.add.u32 %r7, [%rd1], 1;");
  EXPECT_EQ(a->base, "%rd1");
  EXPECT_EQ(a->offset, 0);
  EXPECT_FALSE(parsePtxAddress("bar.sync 0;"));
}
