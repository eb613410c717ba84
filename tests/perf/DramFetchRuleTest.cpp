/// \file
/// DramSectorModel under the sm_90 fetch rule measured on the H100 (arch "dram" group): reads in
/// aligned 64-byte units, one 32-byte fill per partly written sector. Expected values by hand.
#include "arch/ArchSpec.h"
#include "model/AccessEvent.h"
#include "model/DramSectorModel.h"

#include <gtest/gtest.h>

namespace warplens::model {
namespace {

AccessEvent warp(Op op, std::uint64_t base, std::uint64_t strideBytes, unsigned width) {
  AccessEvent e;
  e.space = Space::Global;
  e.op = op;
  e.widthBytes = static_cast<std::uint8_t>(width);
  for (unsigned l = 0; l < 32; ++l) {
    e.active.set(l);
    e.addr[l] = ByteAddress{base + l * strideBytes};
  }
  return e;
}

DramSectorModel run(Op op, std::uint64_t strideBytes, unsigned width, unsigned warps) {
  auto arch = arch::loadArch("sm_90");
  EXPECT_TRUE(arch.ok());
  DramSectorModel m(arch.value());
  for (unsigned w = 0; w < warps; ++w) m.onAccess(warp(op, 0x10000000ull + w * 32 * strideBytes, strideBytes, width));
  return m;
}

TEST(DramFetchRule, Sm90DataSaysSixtyFourByteReadsAndSectorFills) {
  auto arch = arch::loadArch("sm_90");
  ASSERT_TRUE(arch.ok());
  EXPECT_EQ(arch->dramReadFetchBytes, 64u);
  EXPECT_TRUE(arch->dramFillPartialWrites);
  auto older = arch::loadArch("sm_80");
  ASSERT_TRUE(older.ok());
  EXPECT_EQ(older->dramReadFetchBytes, 32u); // unmeasured there: one sector per sector
}

TEST(DramFetchRule, Reads) {
  // Contiguous 4-byte reads: 4 warps x 128 B = 16 sectors = 8 chunks of 64 B → 512 B.
  EXPECT_EQ(run(Op::Load, 4, 4, 4).bytesRead(), 512u);
  // One 4-byte element every 32 B: every sector of every chunk → 32 B per sector.
  EXPECT_EQ(run(Op::Load, 32, 4, 2).bytesRead(), 64u * 32);
  // Every 64 B, 128 B, 132 B: each sector alone in its 64-byte chunk → 64 B per sector (2x).
  for (std::uint64_t s : {64u, 128u, 132u, 4096u}) {
    DramSectorModel m = run(Op::Load, s, 4, 2);
    EXPECT_EQ(m.sectorsRead(), 64u) << s;
    EXPECT_EQ(m.bytesRead(), 64u * 64) << s;
  }
  // A column of 8-byte elements (rows 16 KiB apart): 2x as well.
  EXPECT_EQ(run(Op::Load, 16384, 8, 1).bytesRead(), 32u * 64);
}

TEST(DramFetchRule, PartlyWrittenSectorsAreFilled) {
  // 4-byte stores 64 B apart: 64 sectors written in part → 64 fills of 32 B; nothing read.
  DramSectorModel m = run(Op::Store, 64, 4, 2);
  EXPECT_EQ(m.sectorsWritten(), 64u);
  EXPECT_EQ(m.sectorsPartlyWritten(), 64u);
  EXPECT_EQ(m.bytesRead(), 64u * 32);
  EXPECT_EQ(m.bytesWritten(), 64u * 32);
  // Contiguous 16-byte stores fill whole sectors: no fill.
  DramSectorModel full = run(Op::Store, 16, 16, 4);
  EXPECT_EQ(full.sectorsWritten(), 64u);
  EXPECT_EQ(full.bytesRead(), 0u);
}

TEST(DramFetchRule, SectorsCompletedByOtherWarpsNeedNoFill) {
  auto arch = arch::loadArch("sm_90");
  ASSERT_TRUE(arch.ok());
  DramSectorModel a(arch.value()), b(arch.value());
  // Two workers each write half of every sector (bytes 0..15 and 16..31): merged, all full.
  for (unsigned w = 0; w < 2; ++w) {
    a.onAccess(warp(Op::Store, 0x20000000ull + w * 1024, 32, 16));
    b.onAccess(warp(Op::Store, 0x20000000ull + w * 1024 + 16, 32, 16));
  }
  EXPECT_EQ(a.bytesRead(), 64u * 32); // alone: every sector half written
  a.merge(b);
  EXPECT_EQ(a.sectorsPartlyWritten(), 0u);
  EXPECT_EQ(a.bytesRead(), 0u);
}

} // namespace
} // namespace warplens::model

namespace warplens::model {
namespace {

// Written sectors evicted between writes (session 11), with the same 8 KiB "L2": a sector written
// again after more than 64 line reads and writes since its previous write is written back once
// more, and filled again where that earlier stay left it partly written.
TEST(DramCapacity, SectorsWrittenAgainAfterEvictionAreWrittenBackAndFilled) {
  auto arch = arch::loadArch("sm_90");
  ASSERT_TRUE(arch.ok());
  arch::ArchSpec small = arch.value();
  small.l2Bytes = 8192;
  ReuseClock clock(1);
  DramSectorModel m(small);
  m.setReuseClock(&clock);
  const std::uint64_t a = 0x10000000ull;
  for (std::uint64_t k = 0; k < 300; ++k) m.onAccess(warp(Op::Load, a + 0x800000 + 32 * k, 0, 4)); // 150 units
  auto word = [&](std::uint64_t addr) { m.onAccess(warp(Op::Store, addr, 0, 4)); }; // 32 lanes, one word
  word(a);                                                        // bytes 0..3 of sector a
  word(a + 4);                                                    // 1 line later: the same stay
  for (std::uint64_t k = 1; k <= 70; ++k) word(a + 128 * k);      // 70 other lines, a word each
  EXPECT_EQ(m.rewrites(), 0u);
  word(a + 8);                                                    // 71 lines since: evicted, partial
  EXPECT_EQ(m.rewrites(), 1u);
  EXPECT_EQ(m.refills(), 1u);
  EXPECT_EQ(m.sectorsWritten(), 71u);
  EXPECT_EQ(m.bytesWritten(), (71u + 1) * 32);
  // Reads: 150 units; fills: 71 sectors partly written at the end (a: bytes 8..11 only), 1 refill.
  EXPECT_EQ(m.bytesRead(), 150u * 64 + 71 * 32 + 32);
  EXPECT_EQ(m.refetchBytes(), 32u);
  // A whole line of full sectors written again after eviction: four write-backs, no fill.
  const std::uint64_t b = a + 0x400000;
  m.onAccess(warp(Op::Store, b, 4, 4));
  for (std::uint64_t k = 1; k <= 70; ++k) word(b + 128 * k);
  m.onAccess(warp(Op::Store, b, 4, 4));
  EXPECT_EQ(m.rewrites(), 5u);
  EXPECT_EQ(m.refills(), 1u);
  // Without a clock the rule is off.
  DramSectorModel off(small);
  for (int pass = 0; pass < 2; ++pass)
    for (std::uint64_t k = 0; k <= 100; ++k) off.onAccess(warp(Op::Store, a + 128 * k, 0, 4));
  EXPECT_EQ(off.rewrites(), 0u);
}

// L2 capacity (session 8), with an 8 KiB "L2" (64 lines of 128 B): a 64-byte unit read again after
// more than 64 line reads since its last read is fetched again. Each read here is one line. The
// rule applies only when the launch's data does not fit in the L2: each model first reads 300
// other sectors (9600 B, 150 units), far away.
TEST(DramCapacity, ReReadsBeyondTheL2AreFetchedAgain) {
  auto arch = arch::loadArch("sm_90");
  ASSERT_TRUE(arch.ok());
  arch::ArchSpec small = arch.value();
  small.l2Bytes = 8192;
  ReuseClock clock;
  DramSectorModel m(small);
  m.setReuseClock(&clock);
  auto one = [&](std::uint64_t addr) {
    AccessEvent e = warp(Op::Load, addr, 0, 4); // all 32 lanes on one word: one sector read
    m.onAccess(e);
  };
  const std::uint64_t a = 0x10000000ull;
  auto spread = [&](DramSectorModel &d, std::uint64_t where = 0x800000) {
    for (std::uint64_t k = 0; k < 300; ++k) d.onAccess(warp(Op::Load, a + where + 32 * k, 0, 4));
  };
  spread(m);
  one(a);
  one(a); // distance 1 read: a hit
  for (std::uint64_t k = 1; k <= 70; ++k) one(a + 64 * k); // 70 other sectors, 64 B apart
  one(a); // 71 lines since > 64: fetched again
  EXPECT_EQ(m.refetches(), 1u);
  EXPECT_EQ(m.bytesRead(), (150u + 71) * 64 + 64); // 150 + 71 distinct units + the re-fetch
  one(a + 64 * 70); // read 2 reads ago: a hit
  EXPECT_EQ(m.refetches(), 1u);
  // The other sector of a unit read long ago: the unit is fetched again (it is not in the L2).
  for (std::uint64_t k = 1; k <= 70; ++k) one(a + 0x100000 + 64 * k);
  one(a + 64 * 5 + 32);
  EXPECT_EQ(m.refetches(), 2u);
  // Two workers on one clock (ticks taken one at a time here): the reads of both count; each
  // counts its own re-fetches.
  ReuseClock shared(1);
  DramSectorModel w1(small), w2(small);
  w1.setReuseClock(&shared), w2.setReuseClock(&shared);
  spread(w1);
  spread(w2, 0x900000); // other sectors than w1's
  w1.onAccess(warp(Op::Load, a, 0, 4));
  for (std::uint64_t k = 1; k <= 40; ++k) w2.onAccess(warp(Op::Load, a + 64 * k, 0, 4));
  w2.onAccess(warp(Op::Load, a, 0, 4)); // 41 lines since: a hit
  for (std::uint64_t k = 1; k <= 70; ++k) w1.onAccess(warp(Op::Load, a + 64 * k, 0, 4)); // all hits (41 since)
  w1.onAccess(warp(Op::Load, a, 0, 4)); // 71 reads since w2's: re-fetched
  EXPECT_EQ(w1.refetches(), 1u);
  EXPECT_EQ(w2.refetches(), 0u);
  // A sampled run: distances times the sampling factor.
  ReuseClock sc;
  DramSectorModel sampled(small);
  sampled.setReuseClock(&sc, 4);
  spread(sampled);
  sampled.onAccess(warp(Op::Load, a, 0, 4));
  for (std::uint64_t k = 1; k <= 16; ++k) sampled.onAccess(warp(Op::Load, a + 64 * k, 0, 4));
  sampled.onAccess(warp(Op::Load, a, 0, 4)); // 17 lines x 4 > 64
  EXPECT_EQ(sampled.refetches(), 1u);
  // Workers take ticks in batches: a unit stamped by a later batch than the reader's is a read of
  // about the same moment, not one 2^32 ticks ago.
  ReuseClock batched(256);
  ReuseClock::Cursor ca, cb;
  EXPECT_EQ(batched.touch(1, true, ca), 0u);   // ca: ticks 1..256, now 1
  EXPECT_EQ(batched.touch(7, true, cb), 0u);   // cb: ticks 257..512, stamps unit 7 with 257
  EXPECT_EQ(batched.touch(7, true, ca), 0u);   // ca at tick 2: not 2^32 - 255 ticks
  EXPECT_EQ(batched.touch(7, true, cb), 256u); // cb at 258 after ca's 2
  // Data that fits in the L2: no re-fetch, however far apart the reads.
  ReuseClock fc;
  DramSectorModel fits(small);
  fits.setReuseClock(&fc);
  fits.onAccess(warp(Op::Load, a, 0, 4));
  for (int pass = 0; pass < 3; ++pass)
    for (std::uint64_t k = 1; k <= 100; ++k) fits.onAccess(warp(Op::Load, a + 64 * (k % 20), 0, 4));
  fits.onAccess(warp(Op::Load, a, 0, 4)); // 301 line reads since, 21 units (1344 B) in all
  EXPECT_EQ(fits.refetches(), 0u);
  // Without a clock the rule is off.
  DramSectorModel off(small);
  off.onAccess(warp(Op::Load, a, 0, 4));
  for (std::uint64_t k = 1; k <= 100; ++k) off.onAccess(warp(Op::Load, a + 64 * k, 0, 4));
  off.onAccess(warp(Op::Load, a, 0, 4));
  EXPECT_EQ(off.refetches(), 0u);
}

} // namespace
} // namespace warplens::model
