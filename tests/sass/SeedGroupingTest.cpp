/// \file
/// Grouping on the seed kernels' listings kept in fixtures/seeds (scripts/update-sass-fixtures):
/// every PTX access and every SASS memory instruction is matched; sgemmShared16's As[ty][k..k+3]
/// loads are merged into LDS.128 (ptxas: 4 per k-tile, in each of its 7 copies of the tile loop).
#include "PtxSites.h"
#include "sass/Grouping.h"

#include <gtest/gtest.h>

#include <filesystem>

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
