/// \file
/// GroupingListener on synthetic events: components of one SASS instruction merge into one wide
/// event per warp execution; inconsistent or incomplete ones are emitted separately; copies of
/// an unrolled loop receive a warp's executions in passes on the main body, the rest on the tails.
#include "sass/Grouping.h"

#include <gtest/gtest.h>

using namespace warplens;
using namespace warplens::sass;

namespace {

struct Recorder : model::AccessListener {
  std::vector<model::AccessEvent> events;
  int ends = 0;
  void onAccess(const model::AccessEvent &e) override { events.push_back(e); }
  void onEnd() override { ++ends; }
};

/// PTX sites 10..13: ld.shared.f32 [r+0/4/8/12] → SASS site 0 (LDS.128);
/// PTX site 14: atom.global → SASS site 1 (REDG, op Reduce);
/// PTX site 15: ld.global → SASS sites 2, 3, 4 (copies of an unrolled loop).
Grouping makeGrouping() {
  Grouping g;
  g.sassSites.resize(5);
  for (std::uint32_t i = 0; i < 5; ++i) {
    g.sassSites[i].site = i;
    g.sassSites[i].sassPc = 0x100 + 0x10 * i;
  }
  g.sassSites[0].space = model::Space::Shared;
  g.sassSites[0].widthBytes = 16;
  g.sassSites[1].op = model::Op::Reduce;
  for (unsigned k = 0; k < 4; ++k) g.byPtxSite[10 + k] = Grouping::Member{0, 4 * k, 4, {}};
  g.byPtxSite[14] = Grouping::Member{1, 0, 1, {}};
  g.byPtxSite[15] = Grouping::Member{2, 0, 1, {2, 3, 4}};
  return g;
}

model::AccessEvent component(std::uint32_t site, std::uint64_t base, std::uint32_t warp = 0,
                             std::uint32_t block = 0) {
  model::AccessEvent e;
  e.site = site;
  e.space = model::Space::Shared;
  e.widthBytes = 4;
  e.active = LaneMask::all();
  e.block = block;
  e.warp = warp;
  for (unsigned lane = 0; lane < 32; ++lane) e.addr[lane] = ByteAddress{base + 16 * lane};
  return e;
}

} // namespace

TEST(GroupingListener, FourScalarEventsMergeIntoOne16ByteEvent) {
  Grouping g = makeGrouping();
  Recorder rec;
  GroupingListener l(g, rec);
  const std::uint64_t a = 0x400;
  for (unsigned k = 0; k < 4; ++k) l.onAccess(component(10 + k, a + 4 * k));
  ASSERT_EQ(rec.events.size(), 1u);
  const auto &e = rec.events[0];
  EXPECT_EQ(e.site, 0u);
  EXPECT_EQ(e.widthBytes, 16);
  EXPECT_EQ(e.addr[0].value, 0x400u);
  EXPECT_EQ(e.addr[31].value, 0x400u + 16 * 31);
  EXPECT_EQ(l.mergedExecutions(), 1u);
  EXPECT_EQ(l.splitComponents(), 0u);
  l.onEnd();
  EXPECT_EQ(rec.ends, 1);
}

TEST(GroupingListener, WarpsInterleaveAndComponentsArriveOutOfOrder) {
  Grouping g = makeGrouping();
  Recorder rec;
  GroupingListener l(g, rec);
  const unsigned order[] = {2, 0, 3, 1};
  for (unsigned k : order) {
    l.onAccess(component(10 + k, 0x000 + 4 * k, /*warp=*/0));
    l.onAccess(component(10 + k, 0x800 + 4 * k, /*warp=*/1));
  }
  ASSERT_EQ(rec.events.size(), 2u);
  EXPECT_EQ(rec.events[0].warp, 0u);
  EXPECT_EQ(rec.events[0].addr[0].value, 0x000u);
  EXPECT_EQ(rec.events[1].warp, 1u);
  EXPECT_EQ(rec.events[1].addr[0].value, 0x800u);
  EXPECT_EQ(rec.events[1].widthBytes, 16);
}

TEST(GroupingListener, InconsistentAddressesOrMasksAreEmittedSeparately) {
  Grouping g = makeGrouping();
  Recorder rec;
  GroupingListener l(g, rec);
  for (unsigned k = 0; k < 4; ++k) {
    auto e = component(10 + k, 0x400 + 4 * k);
    if (k == 2) e.addr[7] = ByteAddress{0x9999}; // lane 7's third float is elsewhere
    l.onAccess(e);
  }
  ASSERT_EQ(rec.events.size(), 4u);
  for (const auto &e : rec.events) {
    EXPECT_EQ(e.site, 0u);
    EXPECT_EQ(e.widthBytes, 4);
  }
  EXPECT_EQ(l.splitComponents(), 4u);
  // differing active masks: also split; an inactive lane's address does not matter
  rec.events.clear();
  for (unsigned k = 0; k < 4; ++k) {
    auto e = component(10 + k, 0x400 + 4 * k, 0, /*block=*/1);
    e.active = LaneMask{0x0000ffffu};
    e.addr[20] = ByteAddress{0x12345}; // inactive lane: ignored
    l.onAccess(e);
  }
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].active.bits, 0x0000ffffu);
  rec.events.clear();
  for (unsigned k = 0; k < 4; ++k) {
    auto e = component(10 + k, 0x400 + 4 * k, 0, 2);
    if (k == 3) e.active = LaneMask{0x1u};
    l.onAccess(e);
  }
  EXPECT_EQ(rec.events.size(), 4u);
  EXPECT_EQ(l.splitComponents(), 8u);
}

TEST(GroupingListener, IncompleteInstructionsFlushSeparately) {
  Grouping g = makeGrouping();
  Recorder rec;
  GroupingListener l(g, rec);
  l.onAccess(component(10, 0x400));
  l.onAccess(component(11, 0x404));
  l.onAccess(component(10, 0x500)); // component 0 again: the first execution never completed
  EXPECT_EQ(rec.events.size(), 2u);
  l.onEnd();
  EXPECT_EQ(rec.events.size(), 3u);
  EXPECT_EQ(l.splitComponents(), 3u);
  EXPECT_EQ(rec.ends, 1);
}

TEST(GroupingListener, SingleComponentsCopiesAndUnknownSites) {
  Grouping g = makeGrouping();
  Recorder rec;
  GroupingListener l(g, rec);
  auto atom = component(14, 0x1000);
  atom.space = model::Space::Global;
  atom.op = model::Op::Atomic;
  l.onAccess(atom);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].site, 1u);
  EXPECT_EQ(rec.events[0].op, model::Op::Reduce); // ptxas made it a RED
  rec.events.clear();
  // 3 copies = a 2-copy main body + a 1-copy tail: warp 3's 7 executions are 3 passes of 2
  // (sites 2, 3) and a remainder of 1 (site 4), which leaves only when the warp's loop ends.
  for (int k = 0; k < 7; ++k) l.onAccess(component(15, 0x2000 + k, /*warp=*/3));
  l.onAccess(component(15, 0x3000, /*warp=*/4)); // another warp: its own pass, still open
  const std::uint32_t passes[] = {2, 3, 2, 3, 2, 3};
  ASSERT_EQ(rec.events.size(), 6u);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(rec.events[k].site, passes[k]) << k;
  EXPECT_EQ(rec.events[5].addr[0].value, 0x2005u);
  rec.events.clear();
  auto after = atom;
  after.warp = 3;
  l.onAccess(after); // warp 3 leaves the loop: its 7th execution goes to the tail
  ASSERT_EQ(rec.events.size(), 2u);
  EXPECT_EQ(rec.events[0].site, 4u);
  EXPECT_EQ(rec.events[0].addr[0].value, 0x2006u);
  EXPECT_EQ(rec.events[1].site, 1u);
  rec.events.clear();
  l.onAccess(component(77, 0));
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].site, 77u);
  EXPECT_EQ(l.unknownSites(), 1u);
  rec.events.clear();
  l.onEnd(); // warp 4's single execution: remainder 1 → the tail
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].site, 4u);
  EXPECT_EQ(l.remainders(), 2u);
}

TEST(GroupingListener, UnrolledLoopMainBodyThenTails) {
  // ptxas' 4x unrolled loop: main body copies = SASS sites 0-3, tails of 2 (4, 5) and 1 (6).
  // 13 iterations: 3 passes of 4 on the main body, remainder 1 → the 1-copy tail; measured
  // executions per copy would be 3,3,3,3,0,0,1. 11 iterations: 2 passes, remainder 3 = 2 + 1.
  Grouping g;
  g.sassSites.resize(8);
  for (std::uint32_t i = 0; i < 8; ++i) g.sassSites[i].site = i;
  g.byPtxSite[0] = Grouping::Member{0, 0, 1, {0, 1, 2, 3, 4, 5, 6}};
  g.byPtxSite[1] = Grouping::Member{7, 0, 1, {}};
  Recorder rec;
  GroupingListener l(g, rec);
  auto count = [&](int iterations, std::uint32_t block) {
    rec.events.clear();
    for (int k = 0; k < iterations; ++k) l.onAccess(component(0, 0x1000 * k, 0, block));
    l.onAccess(component(1, 0, 0, block)); // the store after the loop ends it
    std::vector<int> per(8, 0);
    for (const auto &e : rec.events) ++per.at(e.site);
    return per;
  };
  EXPECT_EQ(count(13, 0), (std::vector<int>{3, 3, 3, 3, 0, 0, 1, 1}));
  EXPECT_EQ(count(11, 1), (std::vector<int>{2, 2, 2, 2, 1, 1, 1, 1}));
  EXPECT_EQ(count(2, 2), (std::vector<int>{0, 0, 0, 0, 1, 1, 0, 1}));
  // Pass order: iteration k of a pass runs on main copy k.
  rec.events.clear();
  for (int k = 0; k < 4; ++k) l.onAccess(component(0, 0x1000 * k, 1, 3));
  ASSERT_EQ(rec.events.size(), 4u);
  for (std::uint32_t k = 0; k < 4; ++k) EXPECT_EQ(rec.events[k].site, k);
  // A new block ends the loops of the previous one: remainder 1 of block 3 warp 2 → site 6.
  rec.events.clear();
  l.onAccess(component(0, 0, 2, 3));
  l.onAccess(component(1, 0, 0, 4));
  ASSERT_EQ(rec.events.size(), 2u);
  EXPECT_EQ(rec.events[0].site, 6u);
  EXPECT_EQ(rec.events[1].site, 7u);
}

TEST(GroupingListener, OtherCopyCountsGoRoundRobin) {
  // 2 copies (no main body + tails layout): a warp's k-th execution on copy k mod 2.
  Grouping g;
  g.sassSites.resize(2);
  for (std::uint32_t i = 0; i < 2; ++i) g.sassSites[i].site = i;
  g.byPtxSite[0] = Grouping::Member{0, 0, 1, {0, 1}};
  Recorder rec;
  GroupingListener l(g, rec);
  for (int k = 0; k < 5; ++k) l.onAccess(component(0, 0x100 * k));
  const std::uint32_t expect[] = {0, 1, 0, 1, 0};
  ASSERT_EQ(rec.events.size(), 5u);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(rec.events[k].site, expect[k]) << k;
  EXPECT_EQ(unrolledLoopBody(2), 0u);
  EXPECT_EQ(unrolledLoopBody(3), 2u);
  EXPECT_EQ(unrolledLoopBody(7), 4u);
  EXPECT_EQ(unrolledLoopBody(15), 8u);
  EXPECT_EQ(unrolledLoopBody(6), 0u);
}

TEST(GroupingListener, IdentityGroupingPassesEventsThrough) {
  std::vector<model::SiteInfo> sites(2);
  sites[0].site = 5;
  sites[1].site = 9;
  Grouping g = identityGrouping(sites);
  Recorder rec;
  GroupingListener l(g, rec);
  l.onAccess(component(9, 0x40));
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].site, 9u);
  EXPECT_EQ(rec.events[0].widthBytes, 4);
}

TEST(GroupingListener, OwnsItsDownstreamAndKeepsRoundRobinPerBlock) {
  Grouping g = makeGrouping();
  auto owned = std::make_unique<Recorder>();
  GroupingListener l(g, std::move(owned));
  auto &rec = static_cast<Recorder &>(l.downstream());
  // 600 blocks (more than the listener remembers), each warp 0 executing site 15 twice
  for (std::uint32_t b = 0; b < 600; ++b)
    for (int k = 0; k < 2; ++k) l.onAccess(component(15, 0x100 * b, 0, b));
  ASSERT_EQ(rec.events.size(), 1200u);
  for (std::size_t i = 0; i < rec.events.size(); ++i)
    EXPECT_EQ(rec.events[i].site, i % 2 == 0 ? 2u : 3u) << i;
  l.onEnd();
  EXPECT_EQ(rec.ends, 1);
}
