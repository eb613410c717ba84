/// \file
/// Emulator tests on fixtures/misc.ptx (nvcc output): a dynamic-shared reduction across warps
/// with barriers, a loop with lane-dependent trip count and early return, warp shuffles, votes,
/// atomics, float4 loads and calls of a non-inlined device function.
#include "EmuTestUtil.h"

#include <gtest/gtest.h>

using namespace warplens;
using namespace warplens::testing;

namespace {
std::shared_ptr<const ptx::Module> misc() {
  static auto m = ptx::parseFile(fixture("misc.ptx"));
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : nullptr;
}
} // namespace

TEST(MiscKernels, SharedReductionAcrossWarps) {
  auto m = misc();
  ASSERT_TRUE(m);
  const int n = 1000, block = 256, grid = 4;
  std::vector<float> in(1024);
  for (int i = 0; i < 1024; ++i) in[i] = float(i % 17);
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<float>(grid)), buffer("in", in)};
  auto spec = makeSpec("reduceSum", {grid, 1, 1}, {block, 1, 1}, {bufArg("out"), bufArg("in"), intArg(n)}, block * 4);
  auto r = runModule(*m, spec, bufs, 2);
  ASSERT_TRUE(r.run.ok()) << r.run.error().message;
  auto out = contents<float>(bufs[0]);
  for (int b = 0; b < grid; ++b) {
    float s = 0;
    for (int i = b * block; i < (b + 1) * block && i < n; ++i) s += in[i];
    EXPECT_EQ(out[b], s) << b;
  }
}

TEST(MiscKernels, DynamicSharedBeyondLaunchSizeIsReported) {
  auto m = misc();
  ASSERT_TRUE(m);
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<float>(1)), buffer("in", std::vector<float>(64))};
  // 64 threads but only 128 bytes of dynamic shared memory: thread 32 stores at offset 128.
  auto spec = makeSpec("reduceSum", {1, 1, 1}, {64, 1, 1}, {bufArg("out"), bufArg("in"), intArg(64)}, 128);
  auto r = runModule(*m, spec, bufs);
  ASSERT_FALSE(r.run.ok());
  const std::string &msg = r.run.error().message;
  EXPECT_NE(msg.find("Invalid __shared__ write of size 4 bytes at 0x80"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (32,0,0) block (0,0,0)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("misc.cu:6"), std::string::npos) << msg;
}

TEST(MiscKernels, LoopWithDivergentExitAndEarlyReturn) {
  auto m = misc();
  ASSERT_TRUE(m);
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<float>(32, -7.0f))};
  auto spec = makeSpec("loopDivergent", {1, 1, 1}, {32, 1, 1}, {bufArg("out")});
  auto r = runModule(*m, spec, bufs);
  ASSERT_TRUE(r.run.ok()) << r.run.error().message;
  auto out = contents<std::int32_t>(bufs[0]);
  float sentinel = -7.0f;
  std::int32_t sentinelBits;
  std::memcpy(&sentinelBits, &sentinel, 4);
  for (int lane = 0; lane < 32; ++lane) {
    int acc = 0;
    for (int k = 0; k < lane; ++k) { acc += 3 * k; if (acc > 200) break; }
    EXPECT_EQ(out[lane], lane == 5 ? sentinelBits : acc) << lane;
  }
  // The store runs once for the warp, after the loop reconverged, with lane 5 off.
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].active.bits, 0xffffffffu & ~(1u << 5));
}

TEST(MiscKernels, ShuffleVoteAndAtomics) {
  auto m = misc();
  ASSERT_TRUE(m);
  const int blocks = 6;
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<float>(64 * 4)), buffer("counter", std::vector<float>(1, 0.0f))};
  auto spec = makeSpec("warpOps", {blocks, 1, 1}, {64, 1, 1}, {bufArg("out"), bufArg("counter")});
  auto r = runModule(*m, spec, bufs, 3);
  ASSERT_TRUE(r.run.ok()) << r.run.error().message;
  auto out = contents<std::int32_t>(bufs[0]);
  for (int t = 0; t < 64; ++t) {
    int lane = t & 31;
    int down = lane + 3 <= 31 ? (lane + 3) * 10 : lane * 10;
    EXPECT_EQ(out[t * 4 + 0], down) << t;
    EXPECT_EQ(out[t * 4 + 1], (lane ^ 1) * 10) << t;
    EXPECT_EQ(std::uint32_t(out[t * 4 + 2]), 0xaaaaaaaau) << t;
    EXPECT_EQ(out[t * 4 + 3], 1) << t;
  }
  auto counter = contents<std::uint32_t>(bufs[1]);
  EXPECT_EQ(counter[0], 496u * 2 * blocks); // sum of lanes 0..31, two warps per block
  // the atomic is one event per warp, all lanes at the same address
  int atoms = 0;
  for (const auto &e : r.events)
    if (e.op == model::Op::Atomic) {
      ++atoms;
      EXPECT_EQ(e.addr[0].value, e.addr[31].value);
    }
  EXPECT_EQ(atoms, 2 * blocks);
}

TEST(MiscKernels, Float4LoadsAndDeviceFunctionCalls) {
  auto m = misc();
  ASSERT_TRUE(m);
  std::vector<float> in(256);
  for (int i = 0; i < 256; ++i) in[i] = float(i);
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<float>(256)), buffer("in", in)};
  auto spec = makeSpec("vec4Copy", {2, 1, 1}, {32, 1, 1}, {bufArg("out"), bufArg("in"), floatArg(2.0)});
  auto r = runModule(*m, spec, bufs);
  ASSERT_TRUE(r.run.ok()) << r.run.error().message;
  auto out = contents<float>(bufs[0]);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(out[i], in[i] * 2.0f + 1.0f) << i;
  ASSERT_EQ(r.run->sites.size(), 2u);
  EXPECT_EQ(r.run->sites[0].widthBytes, 16u);
  ASSERT_EQ(r.events.size(), 4u);
  EXPECT_EQ(r.events[0].widthBytes, 16);
  for (unsigned l = 1; l < 32; ++l) EXPECT_EQ(r.events[0].addr[l].value - r.events[0].addr[l - 1].value, 16u);
}
