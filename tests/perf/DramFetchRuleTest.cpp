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
