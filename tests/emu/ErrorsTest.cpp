/// \file
/// Failures are values with useful messages: out-of-bounds accesses (sanitizer-like: kind,
/// size, address, nearest buffer, thread, block, PTX and source line), misaligned accesses,
/// exhausted instruction budgets, unknown kernels and argument mismatches.
#include "EmuTestUtil.h"

#include <gtest/gtest.h>

using namespace warplens;
using namespace warplens::testing;

namespace {
bool has(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }
} // namespace

TEST(Errors, OutOfBoundsGlobalReadNamesEverything) {
  auto m = ptx::parseFile(fixture("transpose.ptx"));
  ASSERT_TRUE(m.ok());
  // in has 100 floats; n = 128 makes thread 100 read 0 bytes past its end
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<float>(128)), buffer("in", std::vector<float>(100))};
  auto spec = makeSpec("copyKernel", {2, 1, 1}, {64, 1, 1}, {bufArg("out"), bufArg("in"), intArg(128)});
  auto r = runModule(**m, spec, bufs);
  ASSERT_FALSE(r.run.ok());
  const std::string &msg = r.run.error().message;
  // 'out' (512 bytes) + a 512-byte gap, then the next 4 KiB boundary.
  const std::uint64_t inBase = 0x7f0000000000ull + 4096;
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(inBase + 400));
  EXPECT_TRUE(has(msg, std::string("Invalid __global__ read of size 4 bytes at ") + addr)) << msg;
  EXPECT_TRUE(has(msg, "0 bytes after the end of the nearest buffer 'in'")) << msg;
  EXPECT_TRUE(has(msg, "400 bytes")) << msg;
  EXPECT_TRUE(has(msg, "thread (36,0,0) block (1,0,0)")) << msg;
  EXPECT_TRUE(has(msg, "transpose.ptx:46")) << msg;
  EXPECT_TRUE(has(msg, "transpose.cu:7")) << msg;
  EXPECT_EQ(r.run.error().status, 2);
}

TEST(Errors, MisalignedPointerOffset) {
  auto m = ptx::parseFile(fixture("misc.ptx"));
  ASSERT_TRUE(m.ok());
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<float>(256)), buffer("in", std::vector<float>(256))};
  auto spec = makeSpec("vec4Copy", {1, 1, 1}, {32, 1, 1}, {bufArg("out"), bufArg("in", 4), floatArg(1.0)});
  auto r = runModule(**m, spec, bufs);
  ASSERT_FALSE(r.run.ok());
  EXPECT_TRUE(has(r.run.error().message, "Misaligned __global__ read of size 16 bytes")) << r.run.error().message;
}

TEST(Errors, BudgetStopsEndlessLoop) {
  const char *src = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry spin()
{
  .reg .b32 %r<3>;
  mov.u32 %r1, 0;
$LOOP:
  add.s32 %r1, %r1, 1;
  bra.uni $LOOP;
}
)";
  auto m = ptx::parseText(src, "spin.ptx");
  ASSERT_TRUE(m.ok()) << m.error().message;
  std::vector<launch::HostBuffer> bufs;
  auto spec = makeSpec("spin", {1, 1, 1}, {32, 1, 1}, {});
  auto r = runModule(**m, spec, bufs, 1, 1'000'000);
  ASSERT_FALSE(r.run.ok());
  EXPECT_TRUE(has(r.run.error().message, "instruction budget exhausted")) << r.run.error().message;
  EXPECT_TRUE(has(r.run.error().message, "1000000")) << r.run.error().message;
  EXPECT_TRUE(has(r.run.error().message, "spin.ptx:")) << r.run.error().message;
}

TEST(Errors, UnknownKernelListsEntries) {
  auto m = ptx::parseFile(fixture("transpose.ptx"));
  ASSERT_TRUE(m.ok());
  std::vector<launch::HostBuffer> bufs;
  auto spec = makeSpec("transposeNope", {1, 1, 1}, {32, 1, 1}, {});
  auto r = runModule(**m, spec, bufs);
  ASSERT_FALSE(r.run.ok());
  EXPECT_TRUE(has(r.run.error().message, "kernel 'transposeNope' not found")) << r.run.error().message;
  EXPECT_TRUE(has(r.run.error().message, "copyKernel, transposeNaive, transposeShared")) << r.run.error().message;
}

TEST(Errors, KernelByPrefixAndArgumentCountMismatch) {
  auto m = ptx::parseFile(fixture("transpose.ptx"));
  ASSERT_TRUE(m.ok());
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<float>(4))};
  auto spec = makeSpec("copyK", {1, 1, 1}, {32, 1, 1}, {bufArg("out")});
  auto r = runModule(**m, spec, bufs);
  ASSERT_FALSE(r.run.ok());
  EXPECT_TRUE(has(r.run.error().message, "kernel 'copyKernel' takes 3 parameters but the launch gives 1 args")) << r.run.error().message;
}
