/// \file
/// StatsCollector: per-site accumulation, all-inactive executions, spaces routed to the right
/// model, large site ids, and merging two collectors.
#include "arch/ArchSpec.h"
#include "model/InstructionStats.h"

#include <gtest/gtest.h>

namespace warplens::model {
namespace {

arch::ArchSpec sm90() { return arch::loadArch("sm_90").value(); }

AccessEvent event(std::uint32_t site, Space space, unsigned width, std::uint64_t stride,
                  std::uint32_t mask = 0xffffffffu) {
  AccessEvent e;
  e.site = site;
  e.space = space;
  e.widthBytes = std::uint8_t(width);
  e.active = LaneMask{mask};
  for (unsigned i = 0; i < 32; ++i) e.addr[i] = ByteAddress{4096 + i * stride};
  return e;
}

TEST(StatsCollector, AccumulatesPerSite) {
  StatsCollector s(sm90());
  s.onAccess(event(3, Space::Global, 4, 4));    // 1 request, 4 sectors
  s.onAccess(event(3, Space::Global, 4, 128));  // 1 request, 32 sectors
  s.onAccess(event(3, Space::Global, 4, 4, 0)); // executed, nothing requested
  s.onAccess(event(7, Space::Shared, 4, 8));    // stride 2 words -> 2 wavefronts
  s.onAccess(event(7, Space::Shared, 4, 128, 0x3u)); // 2 lanes, bank 0, 2 words -> 2
  s.onAccess(event(9, Space::Param, 4, 4));     // counted, no model
  ASSERT_EQ(s.sites().size(), 3u);
  const InstructionStats &g = s.sites().at(3);
  EXPECT_EQ(g.space, Space::Global);
  EXPECT_EQ(g.executed, 3u);
  EXPECT_EQ(g.threads, 64u);
  EXPECT_EQ(g.requests, 2u);
  EXPECT_EQ(g.sectors, 36u);
  EXPECT_EQ(g.sectorsIdeal, 8u); // 4 + 4 (128 distinct bytes each)
  EXPECT_EQ(g.lines, 33u);       // 1 + 32
  const InstructionStats &sh = s.sites().at(7);
  EXPECT_EQ(sh.executed, 2u);
  EXPECT_EQ(sh.threads, 34u);
  EXPECT_EQ(sh.wavefronts, 4u);
  EXPECT_EQ(sh.wavefrontsIdeal, 2u);
  EXPECT_EQ(sh.conflictWaysMax, 2u);
  EXPECT_EQ(sh.requests, 0u);
  EXPECT_EQ(s.sites().at(9).executed, 1u);
  EXPECT_EQ(s.sites().at(9).sectors, 0u);
}

TEST(StatsCollector, CountsExecutionsOfNoLane) {
  // Session 19: the L1 data path takes a wavefront for a shared-memory instruction a warp executes
  // with every lane predicated off; the collector counts those executions (idle) apart from the
  // wavefronts of the active ones.
  StatsCollector s(sm90());
  s.onAccess(event(4, Space::Shared, 4, 4));        // 32 lanes, 1 wavefront
  s.onAccess(event(4, Space::Shared, 4, 4, 0));     // no lane: executed, idle, no wavefront
  s.onAccess(event(4, Space::Shared, 4, 4, 0));
  s.onAccess(event(4, Space::Shared, 4, 4, 0x1u));  // one lane: 1 wavefront, not idle
  const InstructionStats &sh = s.sites().at(4);
  EXPECT_EQ(sh.executed, 4u);
  EXPECT_EQ(sh.idle, 2u);
  EXPECT_EQ(sh.wavefronts, 2u);
  const InstructionStats three = sh.times(3);
  EXPECT_EQ(three.idle, 6u);
  StatsCollector t(sm90());
  t.onAccess(event(4, Space::Shared, 4, 4, 0));
  s.merge(t);
  EXPECT_EQ(s.sites().at(4).idle, 3u);
}

TEST(StatsCollector, LargeSiteIdsAndMerge) {
  StatsCollector a(sm90()), b(sm90());
  const std::uint32_t big = 0x80000000u; // beyond the dense range
  a.onAccess(event(big, Space::Global, 8, 8)); // 8 sectors
  a.onAccess(event(1, Space::Local, 4, 4));    // local uses the global model: 4 sectors
  b.onAccess(event(big, Space::Global, 8, 8));
  b.onAccess(event(2, Space::Shared, 16, 16)); // float4 stride 1 -> 4 wavefronts
  EXPECT_EQ(a.sites().at(big).sectors, 8u);    // view built, then more events arrive
  a.merge(b);
  ASSERT_EQ(a.sites().size(), 3u);
  EXPECT_EQ(a.sites().at(big).executed, 2u);
  EXPECT_EQ(a.sites().at(big).sectors, 16u);
  EXPECT_EQ(a.sites().at(1).sectors, 4u);
  EXPECT_EQ(a.sites().at(2).wavefronts, 4u);
  EXPECT_EQ(a.sites().at(2).space, Space::Shared);
  EXPECT_EQ(a.sites().at(2).widthBytes, 16u);
}

TEST(InstructionStats, MergeSumsAndKeepsMaxWays) {
  InstructionStats x, y;
  x.executed = 2, x.sectors = 10, x.conflictWaysMax = 4, x.widthBytes = 4;
  y.executed = 3, y.sectors = 5, y.conflictWaysMax = 8, y.widthBytes = 4;
  x.merge(y);
  EXPECT_EQ(x.executed, 5u);
  EXPECT_EQ(x.sectors, 15u);
  EXPECT_EQ(x.conflictWaysMax, 8u);
}

TEST(AccessEvent, NamesRoundTrip) {
  EXPECT_EQ(toString(Space::Shared), "shared");
  EXPECT_EQ(toString(Op::Atomic), "atom");
  EXPECT_EQ(parseSpace("local"), Space::Local);
  EXPECT_EQ(parseOp("st"), Op::Store);
  EXPECT_FALSE(parseSpace("texture").has_value());
}

} // namespace
} // namespace warplens::model
