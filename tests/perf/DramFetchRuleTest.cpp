/// \file
/// DramSectorModel under the sm_90 fetch rule measured on the H100 (arch "dram" group): reads in
/// aligned 64-byte units, one 32-byte fill per partly written sector. Expected values by hand.
#include "arch/ArchSpec.h"
#include "model/AccessEvent.h"
#include "model/DramSectorModel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

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

// L2 capacity (sessions 8 and 21), with an 8 KiB "L2" (64 lines of 128 B): a unit read again is
// fetched again when its reuse time's footprint (the distinct lines in that many line accesses, on
// average over the launch: model/Footprint.h) exceeds 64 lines. Each read here is one request of
// 32 lanes on one word: one sector, one line access.
TEST(DramCapacity, ReReadsBeyondTheL2AreFetchedAgain) {
  auto arch = arch::loadArch("sm_90");
  ASSERT_TRUE(arch.ok());
  arch::ArchSpec small = arch.value();
  small.l2Bytes = 8192;
  const std::uint64_t a = 0x10000000ull;
  auto one = [&](DramSectorModel &m, std::uint64_t addr) { m.onAccess(warp(Op::Load, addr, 0, 4)); };
  // A cyclic scan of 100 lines, the second pass on each unit's other sector: n = 200 accesses,
  // m = 100 lines, every reuse 100 apart. fp(100) = 100 - [sum (f - 100)+ + sum (l - 100)+] / 101
  // = 100 (first accesses f = 1..100, reverse last ones l = 100..1): over 64, all 100 miss.
  ReuseClock c1(1);
  DramSectorModel scan(small);
  scan.setReuseClock(&c1);
  for (std::uint64_t k = 0; k < 100; ++k) one(scan, a + 128 * k);
  for (std::uint64_t k = 0; k < 100; ++k) one(scan, a + 128 * k + 32);
  EXPECT_EQ(scan.refetches(), 100u);
  EXPECT_EQ(scan.sectorsRead(), 200u);
  EXPECT_EQ(scan.bytesRead(), 100u * 64 + 100 * 64);
  // At another capacity (a device's measured reuse capacity): 128 lines hold all 100.
  EXPECT_EQ(scan.refetchesAt(16384), 0u);
  EXPECT_EQ(scan.refetchBytesAt(8192), 100u * 64);
  scan.setReuseCapacity(16384);
  EXPECT_EQ(scan.refetches(), 0u);
  EXPECT_EQ(scan.bytesRead(), 100u * 64);
  // Two lines read over and over: 70 lines streamed once, then A, 300 reads of B, A again. A's
  // reuse time is 301 accesses (the rule before session 21 re-fetched it: 301 lines > 64), but
  // the 72 windows of 301 accesses in this trace of 372 hold (70 + 69 + ... + 1 + 2 x 72) / 72 =
  // 36.5 distinct lines on average (fp(301) = 72 - 2555 / 72): A stays in the L2.
  ReuseClock c2(1);
  DramSectorModel hot(small);
  hot.setReuseClock(&c2);
  for (std::uint64_t k = 0; k < 70; ++k) one(hot, a + 0x100000 + 128 * k);
  one(hot, a);
  for (int k = 0; k < 300; ++k) one(hot, a + 128);
  one(hot, a);
  EXPECT_EQ(hot.refetches(), 0u);
  const Footprint fp = hot.footprint();
  EXPECT_EQ(fp.lines, 72.0);
  EXPECT_EQ(fp.accesses, 372.0);
  EXPECT_NEAR(fp.at(301), 72.0 - 2555.0 / 72, 1e-9);
  // Two workers on one clock (ticks one at a time): w1 reads lines 0..49, w2 lines 50..99, w1
  // lines 0..49 again: reuse times of 100 in a trace of 150 accesses to 100 lines; fp(100) = 100
  // (no first access and no reverse last one above 100). Counted once merged: 50 re-fetches.
  ReuseClock shared(1);
  DramSectorModel w1(small), w2(small), merged(small);
  w1.setReuseClock(&shared), w2.setReuseClock(&shared);
  for (std::uint64_t k = 0; k < 50; ++k) one(w1, a + 128 * k);
  for (std::uint64_t k = 50; k < 100; ++k) one(w2, a + 128 * k);
  for (std::uint64_t k = 0; k < 50; ++k) one(w1, a + 128 * k);
  merged.merge(w1), merged.merge(w2);
  EXPECT_EQ(merged.refetches(), 50u);
  // A sampled run (1 block in 4): the footprint times 4. A scan of 20 lines, twice: fp(20) = 20,
  // x 4 = 80 > 64: 20 re-fetches; unsampled, 20 lines fit.
  for (double scale : {4.0, 1.0}) {
    ReuseClock sc(1);
    DramSectorModel sampled(small);
    sampled.setReuseClock(&sc, scale);
    for (int pass = 0; pass < 2; ++pass)
      for (std::uint64_t k = 0; k < 20; ++k) one(sampled, a + 128 * k);
    EXPECT_EQ(sampled.refetches(), scale == 4 ? 20u : 0u);
  }
  // Workers take ticks in batches: a unit stamped by a later batch than the reader's is a read of
  // about the same moment, not one 2^32 ticks ago.
  ReuseClock batched(256);
  ReuseClock::Cursor ca, cb;
  EXPECT_EQ(batched.touch(1, true, ca), 0u);   // ca: ticks 1..256, now 1
  EXPECT_EQ(batched.touch(7, true, cb), 0u);   // cb: ticks 257..512, stamps unit 7 with 257
  EXPECT_EQ(batched.touch(7, true, ca), 0u);   // ca at tick 2: not 2^32 - 255 ticks
  EXPECT_EQ(batched.touch(7, true, cb), 256u); // cb at 258 after ca's 2
  // A scan of 60 lines, three times: they fit in the L2 (m = 60 <= 64), no re-fetch.
  ReuseClock fc(1);
  DramSectorModel fits(small);
  fits.setReuseClock(&fc);
  for (int pass = 0; pass < 3; ++pass)
    for (std::uint64_t k = 0; k < 60; ++k) one(fits, a + 128 * k);
  EXPECT_EQ(fits.refetches(), 0u);
  // Without a clock the rule is off.
  DramSectorModel off(small);
  for (int pass = 0; pass < 2; ++pass)
    for (std::uint64_t k = 0; k < 100; ++k) one(off, a + 128 * k);
  EXPECT_EQ(off.refetches(), 0u);
}

// Footprint theory's formula against the definition: the distinct lines of every window of w
// accesses, averaged, on a pseudo-random trace (reuse times all under 256: exact bins).
TEST(DramCapacity, FootprintEqualsTheAverageOverAllWindows) {
  std::vector<std::uint32_t> trace;
  std::uint32_t x = 12345;
  for (int i = 0; i < 240; ++i) {
    x = x * 1103515245u + 12345u;
    const std::uint32_t r = (x >> 16) % 100;
    trace.push_back(r < 60 ? r % 7 : r); // seven hot lines and a tail of colder ones
  }
  const std::size_t n = trace.size();
  Footprint fp;
  fp.accesses = double(n);
  std::map<std::uint32_t, std::size_t> last;
  for (std::size_t i = 0; i < n; ++i) {
    auto it = last.find(trace[i]);
    if (it == last.end()) fp.first.add(i + 1), fp.lines += 1;
    else fp.reuse.add(i - it->second);
    last[trace[i]] = i;
  }
  for (const auto &[line, pos] : last) fp.reverse.add(n - pos); // n + 1 - (pos + 1)
  for (std::size_t w : {1u, 2u, 5u, 17u, 60u, 128u, 239u, 240u}) {
    double total = 0;
    for (std::size_t s = 0; s + w <= n; ++s) total += double(std::set<std::uint32_t>(trace.begin() + long(s), trace.begin() + long(s + w)).size());
    EXPECT_NEAR(fp.at(double(w)), total / double(n - w + 1), 1e-9) << "w = " << w;
  }
  // The least window whose footprint exceeds 10 lines, by the definition.
  double want = 0;
  for (std::size_t w = 1; w <= n && !want; ++w) {
    double total = 0;
    for (std::size_t s = 0; s + w <= n; ++s) total += double(std::set<std::uint32_t>(trace.begin() + long(s), trace.begin() + long(s + w)).size());
    if (total / double(n - w + 1) > 10) want = double(w);
  }
  EXPECT_EQ(fp.missThreshold(10), want);
  EXPECT_TRUE(std::isinf(fp.missThreshold(fp.lines)));
}

} // namespace
} // namespace warplens::model
