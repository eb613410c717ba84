/// \file
/// Grouping on the seed kernels' listings kept in fixtures/seeds (scripts/update-sass-fixtures):
/// every PTX access and every SASS memory instruction is matched; sgemmShared16's As[ty][k..k+3]
/// loads are merged into LDS.128 (ptxas: 4 per k-tile, in each of its 7 copies of the tile loop).
#include "PtxSites.h"
#include "sass/Grouping.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

using namespace warplens;
using namespace warplens::sass;

namespace {
std::string seeds() { return std::string(WARPLENS_TEST_DATA) + "/fixtures/seeds/"; }
} // namespace

TEST(SeedGrouping, EveryAccessOfEverySeedIsMatched) {
  int kernels = 0;
  for (const char *name : {"transpose", "vecadd", "matvec", "sgemm"}) {
    std::string base = seeds() + name;
    if (!std::filesystem::exists(base + ".sass")) continue;
    auto listing = readListing(base + ".sass");
    ASSERT_TRUE(listing.ok()) << listing.error().message;
    for (const auto &[kernel, sites] : fixtures::ptxSites(base + ".ptx")) {
      const SassFunction *f = findFunction(*listing, kernel);
      ASSERT_NE(f, nullptr) << kernel;
      auto g = groupAccesses(sites, *f);
      ASSERT_TRUE(g.ok()) << kernel;
      for (const auto &n : g->notes) {
        EXPECT_EQ(n.find("not matched"), std::string::npos) << kernel << ": " << n;
        EXPECT_EQ(n.find("has no PTX access"), std::string::npos) << kernel << ": " << n;
      }
      std::size_t memory = 0;
      for (const auto &i : f->instructions) memory += i.isMemory;
      EXPECT_EQ(g->sassSites.size(), memory) << kernel;
      ++kernels;
    }
  }
  if (kernels == 0) GTEST_SKIP() << "no seed listings in " << seeds();
  EXPECT_GE(kernels, 20);
}

TEST(SeedGrouping, SgemmShared16RowLoadsBecomeLds128) {
  std::string base = seeds() + "sgemm";
  if (!std::filesystem::exists(base + ".sass")) GTEST_SKIP() << "no sgemm listing";
  auto sites = fixtures::ptxSites(base + ".ptx")["sgemmShared16"];
  auto listing = readListing(base + ".sass");
  ASSERT_TRUE(listing.ok());
  auto g = groupAccesses(sites, *findFunction(*listing, "sgemmShared16"));
  ASSERT_TRUE(g.ok());
  // 2 LDG + 2 STS + 16 LDS (Bs column) + 4 LDS.128 (As row) per copy, 7 copies, + 1 STG
  EXPECT_EQ(g->sassSites.size(), 7u * 24u + 1u);
  int merged = 0, lds128 = 0;
  for (const auto &s : sites) {
    const auto &m = g->byPtxSite.at(s.site);
    if (m.components == 4) {
      ++merged;
      EXPECT_EQ(s.space, model::Space::Shared);
      EXPECT_EQ(g->sassSites.at(m.sassSite).widthBytes, 16u);
      EXPECT_EQ(m.copies.size(), 7u);
      // the PTX offset within the row tile is the component offset: [%r7+4j] → (4j) mod 16
      auto a = parsePtxAddress(s.ptxText);
      ASSERT_TRUE(a);
      EXPECT_EQ(m.offsetBytes, static_cast<unsigned>(a->offset % 16));
      auto b = parseSassAddress(g->sassSites.at(m.sassSite).sassText);
      ASSERT_TRUE(b);
      EXPECT_EQ(b->offset, a->offset - a->offset % 16); // LDS.128 [R18+0x10] holds +16..+28
    }
  }
  for (const auto &s : g->sassSites) lds128 += s.sassText.rfind("LDS.128", 0) == 0;
  EXPECT_EQ(merged, 16);
  EXPECT_EQ(lds128, 28);
}

namespace {
/// Grouping of one seed kernel from the fixtures, or nullopt when the listing is absent.
std::optional<std::pair<std::vector<model::SiteInfo>, Grouping>> seedGrouping(
    const std::string &file, const std::string &kernel) {
  std::string base = seeds() + file;
  if (!std::filesystem::exists(base + ".sass")) return std::nullopt;
  auto sites = fixtures::ptxSites(base + ".ptx")[kernel];
  auto listing = readListing(base + ".sass");
  if (!listing.ok() || !findFunction(*listing, kernel)) return std::nullopt;
  auto g = groupAccesses(sites, *findFunction(*listing, kernel));
  if (!g.ok()) return std::nullopt;
  return std::pair{sites, *g};
}
} // namespace

// sgemmNaive's k loop: nvcc's PTX unrolls it by 4 (A[row*K+k..k+3] on %rd21+0/4/8/12, four B
// loads) plus a 1-load remainder loop; ptxas unrolls the 4-body again: a 16-iteration main loop,
// a tail of 8 and a looping tail of 4 (listing: .L_x_14, then 0x0720-0x0890, .L_x_12), so each
// 4-body access has 4+2+1 = 7 copies and the remainder loop's two accesses one each (.L_x_16).
TEST(SeedGrouping, SgemmNaiveUnrolledCopiesFollowTheirAccess) {
  auto got = seedGrouping("sgemm", "sgemmNaive");
  if (!got) GTEST_SKIP() << "no sgemm listing";
  const auto &[sites, g] = *got;
  int seven = 0, single = 0;
  for (const auto &s : sites) {
    if (s.op != model::Op::Load) continue;
    const auto &m = g.byPtxSite.at(s.site);
    if (m.copies.empty()) {
      ++single;
      const std::uint64_t pc = g.sassSites.at(m.sassSite).sassPc.value_or(0);
      EXPECT_TRUE(pc == 0xbb0 || pc == 0xbc0) << s.ptxText << " at " << pc;
      continue;
    }
    ++seven;
    ASSERT_EQ(m.copies.size(), 7u) << s.ptxText;
    auto a = parsePtxAddress(s.ptxText);
    ASSERT_TRUE(a);
    if (a->base != "%rd21") continue; // B: one register per iteration, checked by count only
    // A: [R12.64+off], the main body's copies at off, off+16, off+32, off+48, the tails' at
    // off, off+16 and off (SASS offsets from the listing).
    const std::int64_t want[7] = {0, 16, 32, 48, 0, 16, 0};
    for (std::size_t k = 0; k < 7; ++k) {
      auto b = parseSassAddress(g.sassSites.at(m.copies[k]).sassText);
      ASSERT_TRUE(b);
      EXPECT_EQ(b->base, "R12.64");
      EXPECT_EQ(b->offset, a->offset + want[k]) << s.ptxText << " copy " << k;
    }
  }
  EXPECT_EQ(seven, 8);
  EXPECT_EQ(single, 2);
}

// matvecThreadPerRow: x[j..j+3] (%rd23) and A[row*cols+j..] (%rd24) are both one base plus
// offsets; the H200 measures 1 sector per request on the R2 loads (x, a broadcast) and 32 on R4
// (A), so every copy of an x access must be an R2 load and every copy of an A access an R4 one.
TEST(SeedGrouping, MatvecThreadPerRowKeepsTheTwoLoadsOfALineApart) {
  auto got = seedGrouping("matvec", "matvecThreadPerRow");
  if (!got) GTEST_SKIP() << "no matvec listing";
  const auto &[sites, g] = *got;
  int checked = 0;
  for (const auto &s : sites) {
    auto a = parsePtxAddress(s.ptxText);
    if (!a || (a->base != "%rd23" && a->base != "%rd24")) continue;
    const auto &m = g.byPtxSite.at(s.site);
    ASSERT_EQ(m.copies.size(), 7u) << s.ptxText;
    for (std::uint32_t c : m.copies) {
      auto b = parseSassAddress(g.sassSites.at(c).sassText);
      ASSERT_TRUE(b);
      EXPECT_EQ(b->base, a->base == "%rd23" ? "R2.64" : "R4.64") << s.ptxText;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 8);
}
