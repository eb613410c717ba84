/// \file
/// Skipped events (a warp jumped over the PTX instruction) through GroupingListener: a guarded
/// SASS instruction (ptxas if-converted the branch) counts one execution with no lanes, no
/// sectors and no wavefronts; an unguarded one, or an unknown site, drops them.
#include "arch/ArchSpec.h"
#include "model/InstructionStats.h"
#include "sass/Grouping.h"

#include <gtest/gtest.h>

using namespace warplens;
using namespace warplens::sass;

namespace {

arch::ArchSpec sm90() {
  auto a = arch::loadArch("sm_90");
  EXPECT_TRUE(a.ok());
  return a.value();
}

/// SASS 0 "@!P1 LDG.E.128" ← PTX 20; SASS 1 "STS" (unguarded) ← PTX 21;
/// SASS 2 "@P0 LDS.128" ← PTX 22..25 (four ld.shared.f32); SASS 3 "@PT LDG.E" ← PTX 26;
/// SASS 4 "LDG.E" and 5 "@!P2 LDG.E" ← PTX 27 (two copies of an unrolled loop body).
Grouping makeGrouping() {
  Grouping g;
  const char *texts[] = {"@!P1 LDG.E.128 R16, desc[UR12][R44.64] ;", "STS [R9], R16 ;",
                         "@P0 LDS.128 R4, [R2] ;", "@PT LDG.E R2, desc[UR4][R4.64] ;",
                         "LDG.E R3, desc[UR4][R6.64] ;", "@!P2 LDG.E R3, desc[UR4][R6.64+0x80] ;"};
  g.sassSites.resize(6);
  for (std::uint32_t i = 0; i < 6; ++i) {
    g.sassSites[i].site = i;
    g.sassSites[i].sassPc = 0x100 + 0x10 * i;
    g.sassSites[i].sassText = texts[i];
  }
  g.sassSites[0].widthBytes = 16;
  g.sassSites[1].space = model::Space::Shared;
  g.sassSites[1].op = model::Op::Store;
  g.sassSites[2].space = model::Space::Shared;
  g.sassSites[2].widthBytes = 16;
  g.byPtxSite[20] = Grouping::Member{0, 0, 1, {}};
  g.byPtxSite[21] = Grouping::Member{1, 0, 1, {}};
  for (unsigned k = 0; k < 4; ++k) g.byPtxSite[22 + k] = Grouping::Member{2, 4 * k, 4, {}};
  g.byPtxSite[26] = Grouping::Member{3, 0, 1, {}};
  g.byPtxSite[27] = Grouping::Member{4, 0, 1, {4, 5}};
  return g;
}

model::AccessEvent skipped(std::uint32_t site, model::Space space, std::uint8_t width) {
  model::AccessEvent e;
  e.site = site;
  e.space = space;
  e.widthBytes = width;
  e.skipped = true;
  return e;
}

} // namespace

TEST(SkippedGrouping, GuardPredicateIsRecognised) {
  EXPECT_TRUE(hasGuardPredicate("@!P1 LDG.E.128 R16, desc[UR12][R44.64] ;"));
  EXPECT_TRUE(hasGuardPredicate("  @P0 LDS R4, [R2] ;"));
  EXPECT_TRUE(hasGuardPredicate("@UP2 LDG.E R2, desc[UR4][R4.64] ;"));
  EXPECT_FALSE(hasGuardPredicate("@PT LDG.E R2, desc[UR4][R4.64] ;"));
  EXPECT_FALSE(hasGuardPredicate("@!PT LDS R4, [R2] ;"));
  EXPECT_FALSE(hasGuardPredicate("LDG.E R2, desc[UR4][R4.64] ;"));
  EXPECT_FALSE(hasGuardPredicate(""));
}

TEST(SkippedGrouping, StatsCollectorIgnoresSkippedEvents) {
  model::StatsCollector stats(sm90());
  stats.onAccess(skipped(20, model::Space::Global, 16));
  EXPECT_TRUE(stats.sites().empty());
}

TEST(SkippedGrouping, GuardedSassCountsAnEmptyExecutionUnguardedDrops) {
  Grouping g = makeGrouping();
  GroupingListener l(g, std::make_unique<model::StatsCollector>(sm90()));
  l.onAccess(skipped(20, model::Space::Global, 16));
  l.onAccess(skipped(21, model::Space::Shared, 4));
  for (unsigned k = 0; k < 4; ++k) l.onAccess(skipped(22 + k, model::Space::Shared, 4));
  l.onAccess(skipped(26, model::Space::Global, 4));
  l.onAccess(skipped(99, model::Space::Global, 4)); // not in the grouping: dropped, not passed on
  // then one real execution of PTX 20: 32 lanes × 16 contiguous bytes = 512 B = 16 sectors
  model::AccessEvent real;
  real.site = 20;
  real.widthBytes = 16;
  real.active = LaneMask::all();
  for (unsigned lane = 0; lane < 32; ++lane) real.addr[lane] = ByteAddress{0x10000 + 16 * lane};
  l.onAccess(real);
  l.onEnd();

  const auto &sites = static_cast<model::StatsCollector &>(l.downstream()).sites();
  ASSERT_TRUE(sites.count(0));
  EXPECT_EQ(sites.at(0).executed, 2u); // the skipped one and the real one
  EXPECT_EQ(sites.at(0).threads, 32u);
  EXPECT_EQ(sites.at(0).requests, 1u);
  EXPECT_EQ(sites.at(0).sectors, 16u);
  EXPECT_FALSE(sites.count(1)) << "unguarded STS: ptxas kept the branch";
  ASSERT_TRUE(sites.count(2));
  EXPECT_EQ(sites.at(2).executed, 1u); // four components, one LDS.128 execution
  EXPECT_EQ(sites.at(2).threads, 0u);
  EXPECT_EQ(sites.at(2).wavefronts, 0u);
  EXPECT_EQ(sites.at(2).wavefrontsIdeal, 0u);
  EXPECT_FALSE(sites.count(3)) << "@PT is no guard";
  EXPECT_FALSE(sites.count(99));
  EXPECT_EQ(l.skippedExecuted(), 5u); // PTX events: 20 and 22..25
  EXPECT_EQ(l.skippedDropped(), 3u);  // 21, 26, 99
  EXPECT_EQ(l.unknownSites(), 0u);
}

TEST(SkippedGrouping, CopiesCountOnlyOnTheirGuardedCopy) {
  // PTX 27 has copies SASS 4 (unguarded) and 5 (guarded), taken round-robin per iteration:
  // iterations 0 and 2 reach SASS 4 (dropped when skipped), 1 and 3 reach SASS 5 (counted).
  Grouping g = makeGrouping();
  GroupingListener l(g, std::make_unique<model::StatsCollector>(sm90()));
  for (int it = 0; it < 4; ++it) l.onAccess(skipped(27, model::Space::Global, 4));
  l.onEnd();
  const auto &sites = static_cast<model::StatsCollector &>(l.downstream()).sites();
  EXPECT_FALSE(sites.count(4));
  ASSERT_TRUE(sites.count(5));
  EXPECT_EQ(sites.at(5).executed, 2u);
  EXPECT_EQ(sites.at(5).sectors, 0u);
  EXPECT_EQ(l.skippedExecuted(), 2u);
  EXPECT_EQ(l.skippedDropped(), 2u);
}
