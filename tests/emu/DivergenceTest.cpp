/// \file
/// SIMT control flow: if/else inside a warp reconverges before the next memory instruction,
/// a fully predicated-off warp still emits its event with an empty mask, and partial warps
/// (blocks that are not a multiple of 32) start with only their real lanes active.
#include "EmuTestUtil.h"

#include <gtest/gtest.h>

using namespace warplens;
using namespace warplens::testing;

namespace {

const char *kIfElse = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry ifElse(.param .u64 .ptr .global .align 4 buf)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [buf];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  and.b32 %r2, %r1, 1;
  setp.eq.s32 %p1, %r2, 0;
  @!%p1 bra $ODD;
  ld.global.u32 %r3, [%rd3];
  add.s32 %r4, %r3, 100;
  bra.uni $JOIN;
$ODD:
  ld.global.u32 %r3, [%rd3+128];
  add.s32 %r4, %r3, 200;
$JOIN:
  st.global.u32 [%rd3], %r4;
  setp.gt.u32 %p2, %r1, 1000;
  @%p2 st.global.u32 [%rd3], %r1;
  ret;
}
)";

} // namespace

TEST(Divergence, IfElseReconvergesAndPredicatedOffWarpEmitsEmptyMask) {
  auto m = ptx::parseText(kIfElse, "ifelse.ptx");
  ASSERT_TRUE(m.ok()) << m.error().message;
  std::vector<float> init(64 + 32);
  for (int i = 0; i < 64 + 32; ++i) init[i] = 0;
  std::vector<launch::HostBuffer> bufs = {buffer("buf", init)};
  for (int i = 0; i < 96; ++i) { std::uint32_t v = i; std::memcpy(&bufs[0].bytes[4 * i], &v, 4); }
  auto spec = makeSpec("ifElse", {1, 1, 1}, {40, 1, 1}, {bufArg("buf")});
  auto r = runModule(**m, spec, bufs);
  ASSERT_TRUE(r.run.ok()) << r.run.error().message;
  auto out = contents<std::uint32_t>(bufs[0]);
  for (unsigned t = 0; t < 40; ++t) EXPECT_EQ(out[t], t % 2 == 0 ? t + 100 : t + 32 + 200) << t;
  ASSERT_EQ(r.run->sites.size(), 4u);
  // warp 0: even load, odd load, one reconverged store, one predicated-off store; then warp 1
  // (8 lanes: threads 32..39) the same.
  ASSERT_EQ(r.events.size(), 8u);
  EXPECT_EQ(r.events[0].active.bits, 0x55555555u);
  EXPECT_EQ(r.events[1].active.bits, 0xaaaaaaaau);
  EXPECT_EQ(r.events[2].active.bits, 0xffffffffu);
  EXPECT_EQ(r.events[2].op, model::Op::Store);
  EXPECT_EQ(r.events[3].active.bits, 0u);
  EXPECT_EQ(r.events[3].site, r.run->sites[3].site);
  EXPECT_EQ(r.events[4].warp, 1u);
  EXPECT_EQ(r.events[4].active.bits, 0x55u);
  EXPECT_EQ(r.events[5].active.bits, 0xaau);
  EXPECT_EQ(r.events[6].active.bits, 0xffu);
  EXPECT_EQ(r.events[7].active.bits, 0u);
  // odd lanes read 128 bytes further
  EXPECT_EQ(r.events[1].addr[1].value - r.events[0].addr[0].value, 4u + 128u);
}

TEST(Divergence, MultipleWorkersGiveSameResultsAndEventCounts) {
  auto m = ptx::parseFile(fixture("transpose.ptx"));
  ASSERT_TRUE(m.ok()) << m.error().message;
  const int w = 128, h = 64;
  std::vector<float> in(w * h);
  for (int i = 0; i < w * h; ++i) in[i] = float(i);
  auto spec = makeSpec("transposeShared", {4, 2, 1}, {32, 8, 1}, {bufArg("out"), bufArg("in"), intArg(w), intArg(h)});
  std::vector<launch::HostBuffer> a = {buffer("out", std::vector<float>(w * h)), buffer("in", in)};
  std::vector<launch::HostBuffer> b = a;
  auto r1 = runModule(**m, spec, a, 1);
  auto r4 = runModule(**m, spec, b, 4);
  ASSERT_TRUE(r1.run.ok() && r4.run.ok());
  EXPECT_EQ(a[0].bytes, b[0].bytes);
  EXPECT_EQ(r1.events.size(), r4.events.size());
  EXPECT_EQ(r1.run->stats.threadInstructions, r4.run->stats.threadInstructions);
  EXPECT_EQ(r4.run->listeners.size(), 4u);
}
