/// \file
/// Cold-L2 DRAM model: distinct sectors read over the launch, stores ignored, merge = union.
#include "arch/ArchSpec.h"
#include "model/DramSectorModel.h"

#include <gtest/gtest.h>

using namespace warplens;
using namespace warplens::model;

namespace {

AccessEvent event(Op op, std::uint64_t base, std::uint64_t strideBytes, unsigned width, std::uint32_t mask = ~0u) {
  AccessEvent e;
  e.space = Space::Global;
  e.op = op;
  e.widthBytes = static_cast<std::uint8_t>(width);
  e.active = LaneMask{mask};
  for (unsigned l = 0; l < 32; ++l) e.addr[l] = ByteAddress{base + l * strideBytes};
  return e;
}

arch::ArchSpec sm90() {
  auto a = arch::loadArch("sm_90");
  EXPECT_TRUE(a.ok());
  return a.ok() ? *a : arch::ArchSpec{};
}

} // namespace

TEST(DramSectorModel, CountsDistinctSectorsReadOnce) {
  DramSectorModel m(sm90());
  m.onAccess(event(Op::Load, 0x10000, 4, 4));     // 128 bytes: 4 sectors
  m.onAccess(event(Op::Load, 0x10000, 4, 4));     // same again: nothing new
  m.onAccess(event(Op::Load, 0x10004, 4, 4));     // shifted by 4: one more sector (5th)
  m.onAccess(event(Op::Store, 0x90000, 4, 4));    // stores are not fetched
  AccessEvent shared = event(Op::Load, 0x20000, 4, 4);
  shared.space = Space::Shared;                   // not DRAM
  m.onAccess(shared);
  EXPECT_EQ(m.sectorsRead(), 5u);
  // sm_90 DRAM rule (measured on the H100, sm_90.json "dram"): reads cost 64 bytes per aligned
  // 64-byte chunk touched. Bytes 0x10000..0x10083 touch chunks 0x10000, 0x10040, 0x10080: 3 × 64.
  // The 32 lanes' 4-byte stores cover whole sectors, so no partial-sector fill is read.
  EXPECT_EQ(m.bytesRead(), 192u);
}

TEST(DramSectorModel, InactiveLanesAndWideAccesses) {
  DramSectorModel m(sm90());
  m.onAccess(event(Op::Load, 0, 256, 4, 0x0000000fu)); // 4 lanes, one sector each
  m.onAccess(event(Op::Load, 1 << 20, 16, 16));         // 512 bytes of float4: 16 sectors
  m.onAccess(event(Op::Atomic, 1 << 24, 0, 4));         // all lanes one word: 1 sector
  EXPECT_EQ(m.sectorsRead(), 4u + 16u + 1u);
}

TEST(DramSectorModel, MergeIsUnionAcrossWorkersAndPages) {
  DramSectorModel a(sm90()), b(sm90());
  a.onAccess(event(Op::Load, 0, 4, 4));                  // sectors 0..3
  b.onAccess(event(Op::Load, 64, 4, 4));                 // sectors 2..5
  b.onAccess(event(Op::Load, 5ull << 32, 4, 4));         // far page: 4 more
  a.merge(b);
  EXPECT_EQ(a.sectorsRead(), 6u + 4u);
}
