/// \file
/// model::WorstEventListener on hand-built events: the costliest execution per site (shared
/// wavefronts, global sectors), how many were as bad, the histogram, ties and merging.
#include "model/WorstEventListener.h"

#include <gtest/gtest.h>

namespace warplens::model {
namespace {

/// 32 lanes, 4-byte accesses, lane l at byte base + stride*l.
AccessEvent strided(Space space, std::uint32_t site, std::uint64_t base, std::uint64_t stride,
                    std::uint32_t block, std::uint32_t warp) {
  AccessEvent e;
  e.site = site;
  e.space = space;
  e.widthBytes = 4;
  e.active = LaneMask::all();
  e.block = block;
  e.warp = warp;
  for (unsigned l = 0; l < 32; ++l) e.addr[l] = ByteAddress{base + stride * l};
  return e;
}

class WorstEventTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto a = arch::loadArch("sm_90");
    ASSERT_TRUE(a.ok());
    arch_ = *a;
  }
  arch::ArchSpec arch_;
};

// Shared stride S words: S = 1 → 1 wavefront, 2 → 2, 32 → 32 (HARDWARE.md, measured).
TEST_F(WorstEventTest, KeepsMostWavefrontsAndCountsTies) {
  WorstEventListener w(arch_);
  w.onAccess(strided(Space::Shared, 7, 0, 4, 0, 0));      // 1
  w.onAccess(strided(Space::Shared, 7, 0, 128, 3, 1));    // 32
  w.onAccess(strided(Space::Shared, 7, 0, 8, 0, 2));      // 2
  w.onAccess(strided(Space::Shared, 7, 4, 128, 1, 5));    // 32, earlier block: becomes the worst
  w.onAccess(strided(Space::Shared, 7, 8, 128, 1, 5));    // 32, same warp later: not kept
  const WorstEvent *s = w.find(7);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->cost, 32u);
  EXPECT_EQ(s->shared.wavefronts, 32u);
  EXPECT_EQ(s->shared.conflictWays, 32u);
  EXPECT_EQ(s->executions, 5u);
  EXPECT_EQ(s->asBad, 3u);
  EXPECT_EQ(s->event.block, 1u);
  EXPECT_EQ(s->event.warp, 5u);
  EXPECT_EQ(s->event.addr[1].value, 4u + 128u);
  ASSERT_EQ(s->histogram.size(), 33u);
  EXPECT_EQ(s->histogram[1], 1u);
  EXPECT_EQ(s->histogram[2], 1u);
  EXPECT_EQ(s->histogram[32], 3u);
  EXPECT_EQ(w.find(8), nullptr);
}

// Global: 4-byte stride → 4 sectors; 8 KB stride → 32 sectors; +4-byte offset → 5 sectors.
TEST_F(WorstEventTest, GlobalUsesSectorsAndMergesAcrossWorkers) {
  WorstEventListener a(arch_), b(arch_);
  a.onAccess(strided(Space::Global, 1, 0x10000, 4, 2, 0));    // 4
  a.onAccess(strided(Space::Global, 1, 0x10004, 4, 2, 1));    // 5
  b.onAccess(strided(Space::Global, 1, 0x10004, 4, 0, 3));    // 5, lower block
  b.onAccess(strided(Space::Global, 2, 0x10000, 8192, 9, 0)); // 32 on another site
  a.merge(b);
  const WorstEvent *s = a.find(1);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->cost, 5u);
  EXPECT_EQ(s->global.sectors, 5u);
  EXPECT_EQ(s->global.sectorsIdeal, 4u);
  EXPECT_EQ(s->asBad, 2u);
  EXPECT_EQ(s->executions, 3u);
  EXPECT_EQ(s->event.block, 0u);
  EXPECT_EQ(s->event.warp, 3u);
  EXPECT_EQ(s->histogram[4], 1u);
  EXPECT_EQ(s->histogram[5], 2u);
  ASSERT_NE(a.find(2), nullptr);
  EXPECT_EQ(a.find(2)->cost, 32u);

  // Merging a worse execution replaces the worst and its count.
  WorstEventListener c(arch_);
  c.onAccess(strided(Space::Global, 1, 0x20000, 8192, 5, 0)); // 32
  a.merge(c);
  EXPECT_EQ(a.find(1)->cost, 32u);
  EXPECT_EQ(a.find(1)->asBad, 1u);
  EXPECT_EQ(a.find(1)->executions, 4u);
}

} // namespace
} // namespace warplens::model
