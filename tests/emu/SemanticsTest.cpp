/// \file
/// Instruction semantics on hand-written PTX snippets: each body leaves a 64-bit result in %rd9
/// per thread; expected values are worked out by hand from the PTX ISA rules.
#include "EmuTestUtil.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>

using namespace warplens;
using namespace warplens::testing;

namespace {

std::string wrap(const std::string &body) {
  return R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b16 %rs<8>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .reg .f32 %f<8>;
  .reg .f64 %fd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  mov.u64 %rd9, 0;
)" + body + R"(
  st.global.u64 [%rd3], %rd9;
  ret;
}
)";
}

std::vector<std::uint64_t> run(const std::string &body, unsigned threads = 1) {
  auto m = ptx::parseText(wrap(body), "snippet.ptx");
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  if (!m.ok()) return {};
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<double>(threads, 0.0))};
  auto spec = makeSpec("k", {1, 1, 1}, {threads, 1, 1}, {bufArg("out")});
  auto r = runModule(**m, spec, bufs);
  EXPECT_TRUE(r.run.ok()) << (r.run.ok() ? "" : r.run.error().message);
  return contents<std::uint64_t>(bufs[0]);
}

std::uint64_t one(const std::string &body) {
  auto v = run(body);
  return v.empty() ? 0xdeadull : v[0];
}

std::uint64_t fbits(float f) { return std::bit_cast<std::uint32_t>(f); }
std::uint64_t dbits(double d) { return std::bit_cast<std::uint64_t>(d); }

} // namespace

TEST(Semantics, IntegerWrapAround) {
  EXPECT_EQ(one("add.s32 %r2, 2147483647, 1;\n cvt.u64.u32 %rd9, %r2;"), 0x80000000ull);
  EXPECT_EQ(one("sub.u32 %r2, 0, 1;\n cvt.u64.u32 %rd9, %r2;"), 0xffffffffull);
  EXPECT_EQ(one("mov.u32 %r2, -1;\n cvt.s64.s32 %rd9, %r2;"), ~0ull);
  EXPECT_EQ(one("add.sat.s32 %r2, 2147483647, 5;\n cvt.u64.u32 %rd9, %r2;"), 0x7fffffffull);
}

TEST(Semantics, MulHiAndWide) {
  // -3 * 2^30 = -3221225472 = 0xFFFFFFFF_40000000
  EXPECT_EQ(one("mov.s32 %r2, -3;\n mul.hi.s32 %r3, %r2, 1073741824;\n cvt.u64.u32 %rd9, %r3;"), 0xffffffffull);
  EXPECT_EQ(one("mov.s32 %r2, -3;\n mul.lo.s32 %r3, %r2, 1073741824;\n cvt.u64.u32 %rd9, %r3;"), 0x40000000ull);
  EXPECT_EQ(one("mov.s32 %r2, -5;\n mul.wide.s32 %rd9, %r2, 7;"), std::uint64_t(-35));
  EXPECT_EQ(one("mov.u32 %r2, -5;\n mul.wide.u32 %rd9, %r2, 7;"), 0xFFFFFFFBull * 7);
  EXPECT_EQ(one("mov.u64 %rd4, -1;\n mul.hi.u64 %rd9, %rd4, %rd4;"), 0xFFFFFFFFFFFFFFFEull);
  EXPECT_EQ(one("mov.u32 %r2, 3;\n mad.wide.u32 %rd9, %r2, -1, 10;"), 3ull * 0xffffffffull + 10);
  EXPECT_EQ(one("mad.lo.s32 %r2, %r1, 5, 9;\n cvt.u64.u32 %rd9, %r2;"), 9u);
}

TEST(Semantics, ShiftsClampAndSignFill) {
  EXPECT_EQ(one("mov.u32 %r2, 1;\n shl.b32 %r3, %r2, 33;\n cvt.u64.u32 %rd9, %r3;"), 0u);
  EXPECT_EQ(one("mov.s32 %r2, -8;\n shr.s32 %r3, %r2, 40;\n cvt.u64.u32 %rd9, %r3;"), 0xffffffffull);
  EXPECT_EQ(one("mov.s32 %r2, -8;\n shr.u32 %r3, %r2, 28;\n cvt.u64.u32 %rd9, %r3;"), 0xfull);
  EXPECT_EQ(one("mov.u64 %rd4, 1;\n shl.b64 %rd9, %rd4, 63;"), 0x8000000000000000ull);
}

TEST(Semantics, BitFields) {
  EXPECT_EQ(one("mov.u32 %r2, 0xABCD1234;\n bfe.u32 %r3, %r2, 8, 8;\n cvt.u64.u32 %rd9, %r3;"), 0x12u);
  EXPECT_EQ(one("mov.u32 %r2, 0x0000F000;\n bfe.s32 %r3, %r2, 12, 4;\n cvt.u64.u32 %rd9, %r3;"), 0xffffffffull);
  EXPECT_EQ(one("mov.u32 %r2, 0xFFFF0000;\n bfi.b32 %r3, 5, %r2, 4, 4;\n cvt.u64.u32 %rd9, %r3;"), 0xFFFF0050ull);
  EXPECT_EQ(one("mov.u32 %r2, 0x000000F0;\n popc.b32 %r3, %r2;\n cvt.u64.u32 %rd9, %r3;"), 4u);
  EXPECT_EQ(one("mov.u32 %r2, 0x000000F0;\n clz.b32 %r3, %r2;\n cvt.u64.u32 %rd9, %r3;"), 24u);
  EXPECT_EQ(one("mov.u32 %r2, 1;\n brev.b32 %r3, %r2;\n cvt.u64.u32 %rd9, %r3;"), 0x80000000ull);
  // prmt: bytes of {b,a} = 0x88776655_44332211, selector 0x0257 → bytes 7,5,2,0
  EXPECT_EQ(one("mov.u32 %r2, 0x44332211;\n mov.u32 %r4, 0x88776655;\n prmt.b32 %r3, %r2, %r4, 0x0257;\n cvt.u64.u32 %rd9, %r3;"), 0x11336688ull);
}

TEST(Semantics, SetpOrderedAndUnordered) {
  auto cmp = [](const std::string &op) {
    return one("mov.f32 %f1, 0f7FC00000;\n setp." + op + ".f32 %p1, %f1, 0f3F800000;\n selp.u64 %rd9, 1, 0, %p1;");
  };
  EXPECT_EQ(cmp("eq"), 0u);
  EXPECT_EQ(cmp("ne"), 0u);
  EXPECT_EQ(cmp("lt"), 0u);
  EXPECT_EQ(cmp("equ"), 1u);
  EXPECT_EQ(cmp("neu"), 1u);
  EXPECT_EQ(cmp("gtu"), 1u);
  EXPECT_EQ(cmp("nan"), 1u);
  EXPECT_EQ(cmp("num"), 0u);
  // unsigned vs signed, combination with and/or and the complement destination
  EXPECT_EQ(one("mov.s32 %r2, -1;\n setp.lo.u32 %p1, %r2, 1;\n selp.u64 %rd9, 1, 0, %p1;"), 0u);
  EXPECT_EQ(one("mov.s32 %r2, -1;\n setp.lt.s32 %p1, %r2, 1;\n selp.u64 %rd9, 1, 0, %p1;"), 1u);
  EXPECT_EQ(one("setp.eq.s32 %p2, 1, 1;\n setp.lt.and.s32 %p1|%p3, 5, 3, %p2;\n selp.u64 %rd4, 1, 0, %p1;\n selp.u64 %rd5, 2, 0, %p3;\n add.s64 %rd9, %rd4, %rd5;"), 2u);
  EXPECT_EQ(one("setp.eq.s32 %p2, 1, 0;\n setp.lt.or.s32 %p1, 5, 3, !%p2;\n selp.u64 %rd9, 1, 0, %p1;"), 1u);
}

TEST(Semantics, CvtRounding) {
  auto f2i = [](const std::string &mode, const char *f) {
    return std::int32_t(one("mov.f32 %f1, " + std::string(f) + ";\n cvt." + mode + ".s32.f32 %r2, %f1;\n cvt.u64.u32 %rd9, %r2;"));
  };
  EXPECT_EQ(f2i("rni", "0f40200000"), 2);   // 2.5 → 2 (ties to even)
  EXPECT_EQ(f2i("rni", "0f40600000"), 4);   // 3.5 → 4
  EXPECT_EQ(f2i("rzi", "0fC02CCCCD"), -2);  // -2.7 → -2
  EXPECT_EQ(f2i("rmi", "0fC02CCCCD"), -3);
  EXPECT_EQ(f2i("rpi", "0f40066666"), 3);   // 2.1 → 3
  EXPECT_EQ(f2i("rzi", "0f501502F9"), 2147483647); // 1e10 saturates
  EXPECT_EQ(one("mov.f32 %f1, 0fC0A00000;\n cvt.rzi.u32.f32 %r2, %f1;\n cvt.u64.u32 %rd9, %r2;"), 0u); // -5 → 0
  // 16777217 is not representable in f32: rn → 16777216, rp → 16777218
  EXPECT_EQ(one("cvt.rn.f32.s32 %f1, 16777217;\n mov.b32 %r2, %f1;\n cvt.u64.u32 %rd9, %r2;"), fbits(16777216.0f));
  EXPECT_EQ(one("cvt.rp.f32.s32 %f1, 16777217;\n mov.b32 %r2, %f1;\n cvt.u64.u32 %rd9, %r2;"), fbits(16777218.0f));
  // f64 → f32: 1 + 2^-30 rounds to 1 (rn, rz) and to 1 + 2^-23 (rp)
  EXPECT_EQ(one("mov.f64 %fd1, 0d3FF0000004000000;\n cvt.rn.f32.f64 %f1, %fd1;\n mov.b32 %r2, %f1;\n cvt.u64.u32 %rd9, %r2;"), fbits(1.0f));
  EXPECT_EQ(one("mov.f64 %fd1, 0d3FF0000004000000;\n cvt.rp.f32.f64 %f1, %fd1;\n mov.b32 %r2, %f1;\n cvt.u64.u32 %rd9, %r2;"), fbits(1.0f + 0x1p-23f));
  EXPECT_EQ(one("mov.s32 %r2, 300;\n cvt.sat.u8.s32 %rs1, %r2;\n cvt.u64.u16 %rd9, %rs1;"), 255u);
  EXPECT_EQ(one("mov.f32 %f1, 0f3FC00000;\n cvt.rn.f16.f32 %rs1, %f1;\n cvt.u64.u16 %rd9, %rs1;"), 0x3E00u); // 1.5 in half
  EXPECT_EQ(one("mov.b16 %rs1, 0x3E00;\n cvt.f32.f16 %f1, %rs1;\n cvt.f64.f32 %fd1, %f1;\n mov.b64 %rd9, %fd1;"), dbits(1.5));
}

TEST(Semantics, FloatArithmetic) {
  EXPECT_EQ(one("fma.rn.f32 %f1, 0f40000000, 0f40400000, 0f3F800000;\n mov.b32 %r2, %f1;\n cvt.u64.u32 %rd9, %r2;"), fbits(7.0f));
  EXPECT_EQ(one("div.rn.f64 %fd1, 0d3FF0000000000000, 0d4008000000000000;\n mov.b64 %rd9, %fd1;"), dbits(1.0 / 3.0));
  EXPECT_EQ(one("sqrt.rn.f32 %f1, 0f40800000;\n mov.b32 %r2, %f1;\n cvt.u64.u32 %rd9, %r2;"), fbits(2.0f));
  EXPECT_EQ(one("mov.f32 %f2, 0f7FC00000;\n min.f32 %f1, %f2, 0f40800000;\n mov.b32 %r2, %f1;\n cvt.u64.u32 %rd9, %r2;"), fbits(4.0f));
  EXPECT_EQ(one("neg.f64 %fd1, 0d4000000000000000;\n abs.f64 %fd2, %fd1;\n add.f64 %fd3, %fd1, %fd2;\n sub.f64 %fd3, %fd3, %fd1;\n mov.b64 %rd9, %fd3;"), dbits(2.0));
  EXPECT_EQ(one("add.sat.f32 %f1, 0f3F800000, 0f3F800000;\n mov.b32 %r2, %f1;\n cvt.u64.u32 %rd9, %r2;"), fbits(1.0f));
  EXPECT_EQ(one("ex2.approx.f32 %f1, 0f40400000;\n mov.b32 %r2, %f1;\n cvt.u64.u32 %rd9, %r2;"), fbits(8.0f));
  EXPECT_EQ(one("mov.b64 %rd4, {%r1, %r1};\n mov.u32 %r5, 7;\n mov.b64 %rd5, {%r5, %r1};\n mov.b64 {%r6, %r7}, %rd5;\n cvt.u64.u32 %rd9, %r6;"), 7u);
}

TEST(Semantics, WarpShuffleVariantsAndBallot) {
  auto v = run(R"(
  mul.lo.s32 %r2, %r1, 10;
  shfl.sync.up.b32 %r3|%p1, %r2, 2, 0, -1;
  shfl.sync.idx.b32 %r4, %r2, 5, 31, -1;
  setp.lt.u32 %p2, %r1, 4;
  vote.sync.ballot.b32 %r5, %p2, -1;
  vote.sync.all.pred %p3, %p2, -1;
  selp.u32 %r6, 1, 0, %p3;
  activemask.b32 %r7;
  selp.u32 %r8, 1, 0, %p1;
  cvt.u64.u32 %rd4, %r3;
  cvt.u64.u32 %rd5, %r4;
  shl.b64 %rd5, %rd5, 16;
  cvt.u64.u32 %rd6, %r5;
  shl.b64 %rd6, %rd6, 32;
  add.s64 %rd9, %rd4, %rd5;
  add.s64 %rd9, %rd9, %rd6;
  cvt.u64.u32 %rd7, %r6;
  shl.b64 %rd7, %rd7, 60;
  add.s64 %rd9, %rd9, %rd7;
  cvt.u64.u32 %rd7, %r8;
  shl.b64 %rd7, %rd7, 61;
  add.s64 %rd9, %rd9, %rd7;)", 32);
  ASSERT_EQ(v.size(), 32u);
  for (unsigned l = 0; l < 32; ++l) {
    std::uint64_t up = l >= 2 ? (l - 2) * 10 : l * 10;
    std::uint64_t expect = up | (50ull << 16) | (0xfull << 32) | ((l >= 2 ? 1ull : 0ull) << 61);
    EXPECT_EQ(v[l], expect) << l;
  }
}
