/// \file
/// Skipped events: a forward bra that all the warp's executing lanes take reports each memory
/// instruction it jumps over once (nested ones included), with no lanes, unless lanes of the
/// warp still wait before it; divergent branches, loops and regions holding a loop report nothing.
#include "EmuTestUtil.h"

#include <gtest/gtest.h>

using namespace warplens;
using namespace warplens::testing;

namespace {

// Sites in program order: A B B2 (region 1, nested branch inside), C W (divergent region with
// a branch inside that only lanes 16..31 reach), D (counted loop), E (loop inside region 3).
const char *kSkips = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry skips(.param .u64 .ptr .global .align 4 buf, .param .u32 flag)
{
  .reg .pred %p<8>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [buf];
  ld.param.u32 %r9, [flag];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  setp.ne.s32 %p1, %r9, 0;
  @%p1 bra $SKIP;
  ld.global.u32 %r3, [%rd3];
  setp.eq.u32 %p5, %r3, 7;
  @%p5 bra $INNER;
  st.global.u32 [%rd3+256], %r3;
$INNER:
  st.global.u32 [%rd3+512], %r3;
$SKIP:
  setp.lt.u32 %p2, %r1, 16;
  @%p2 bra $HALF;
  ld.global.u32 %r4, [%rd3+768];
  setp.ge.u32 %p6, %r1, 8;
  @%p6 bra $HALF;
  ld.global.u32 %r8, [%rd3+1024];
$HALF:
  mov.u32 %r5, 0;
$LOOP:
  ld.global.u32 %r6, [%rd3];
  add.u32 %r5, %r5, 1;
  setp.lt.u32 %p3, %r5, 2;
  @%p3 bra $LOOP;
  @%p1 bra $END;
  mov.u32 %r7, 0;
$L2:
  st.global.u32 [%rd3+1280], %r7;
  add.u32 %r7, %r7, 1;
  setp.lt.u32 %p4, %r7, 2;
  @%p4 bra $L2;
$END:
  ret;
}
)";

struct Seen {
  std::uint32_t site;
  bool skipped;
  std::uint32_t mask;
};

std::vector<Seen> run(const char *ptxText, const char *kernel, std::vector<launch::ArgSpec> args,
                      std::size_t sites) {
  auto m = ptx::parseText(ptxText, "skips.ptx");
  EXPECT_TRUE(m.ok()) << m.error().message;
  if (!m.ok()) return {};
  std::vector<float> init(32 * 12, 0.0f);
  std::vector<launch::HostBuffer> bufs = {buffer("buf", init)};
  for (std::uint32_t i = 0; i < 32 * 12; ++i) std::memcpy(&bufs[0].bytes[4 * i], &i, 4);
  auto spec = makeSpec(kernel, {1, 1, 1}, {32, 1, 1}, std::move(args));
  auto r = runModule(**m, spec, bufs);
  EXPECT_TRUE(r.run.ok()) << r.run.error().message;
  if (!r.run.ok()) return {};
  EXPECT_EQ(r.run->sites.size(), sites);
  std::vector<Seen> out;
  for (const auto &e : r.events) {
    // site index in program order (sites are listed in program order)
    std::uint32_t k = 0;
    while (k < r.run->sites.size() && r.run->sites[k].site != e.site) ++k;
    out.push_back({k, e.skipped, e.active.bits});
    EXPECT_EQ(e.block, 0u);
    EXPECT_EQ(e.warp, 0u);
    if (e.skipped) EXPECT_EQ(e.widthBytes, 4);
  }
  return out;
}

std::vector<Seen> run(int flag) { return run(kSkips, "skips", {bufArg("buf"), intArg(flag)}, 7); }

void expectEvents(const std::vector<Seen> &got, const std::vector<Seen> &want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].site, want[i].site) << i;
    EXPECT_EQ(got[i].skipped, want[i].skipped) << i;
    EXPECT_EQ(got[i].mask, want[i].mask) << i;
  }
}

// Three-way if / else if / else: lanes 16..31 run X, lanes 0..15 all take the branch to Z.
const char *kChain = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry chain(.param .u64 .ptr .global .align 4 buf)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [buf];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra $L1;
  ld.global.u32 %r2, [%rd3];
  bra.uni $END;
$L1:
  setp.lt.u32 %p2, %r1, 64;
  @%p2 bra $L2;
  ld.global.u32 %r3, [%rd3+128];
  bra.uni $END;
$L2:
  ld.global.u32 %r4, [%rd3+256];
$END:
  ret;
}
)";

enum : std::uint32_t { A, B, B2, C, W, D, E };

} // namespace

TEST(BranchSkip, UniformForwardBranchReportsSkippedSitesOnly) {
  // flag = 1: region 1 (A, nested B, B2) skipped once each; the lanes < 16 branch is divergent
  // (nothing skipped); lanes 16..31 all take the tid >= 8 branch: W skipped though lanes 0..7
  // would not take it (they are parked); the loop never skips; region 3 holds a loop: nothing.
  auto got = run(1);
  const std::vector<Seen> want = {{A, true, 0},         {B, true, 0},  {B2, true, 0},
                                  {C, false, 0xffff0000u}, {W, true, 0}, {D, false, ~0u},
                                  {D, false, ~0u}};
  expectEvents(got, want);
}

TEST(BranchSkip, DivergentInnerBranchAndNotTakenBranchReportNothing) {
  // flag = 0: region 1 runs; lane 7 loads 7 and alone takes the inner branch (divergent: B runs
  // for the other 31 lanes, nothing skipped). Region 3's loop runs twice.
  auto got = run(0);
  const std::vector<Seen> want = {
      {A, false, ~0u},         {B, false, ~(1u << 7)}, {B2, false, ~0u},  {C, false, 0xffff0000u},
      {W, true, 0},            {D, false, ~0u},        {D, false, ~0u},   {E, false, ~0u},
      {E, false, ~0u}};
  expectEvents(got, want);
}

TEST(BranchSkip, SkipIsLeftToLanesStillWaitingBeforeTheSite) {
  // Lanes 16..31 run X then jump to END over Y and Z, but lanes 0..15 wait at L1, before both:
  // no skip from them (if predicated, the warp runs Y and Z once in all). Lanes 0..15 then all
  // jump over Y to Z, with nobody waiting before Y: Y skipped once. Z runs for lanes 0..15.
  auto got = run(kChain, "chain", {bufArg("buf")}, 3);
  expectEvents(got, {{0, false, 0xffff0000u}, {1, true, 0}, {2, false, 0x0000ffffu}});
}
