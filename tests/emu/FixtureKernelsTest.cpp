/// \file
/// End-to-end emulator tests on nvcc-generated PTX fixtures (fixtures/*.cu → *.ptx): results
/// equal a CPU reference and the address events match what the index arithmetic implies.
#include "EmuTestUtil.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace warplens;
using namespace warplens::testing;

namespace {

std::shared_ptr<const ptx::Module> load(const std::string &name) {
  auto m = ptx::parseFile(fixture(name));
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return m.ok() ? *m : nullptr;
}

std::vector<float> iota(size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

} // namespace

TEST(FixtureKernels, CopyResultsAndCoalescedEvents) {
  auto m = load("transpose.ptx");
  ASSERT_TRUE(m);
  const int n = 960;
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<float>(1024, -1.0f)), buffer("in", iota(1024))};
  auto spec = makeSpec("copyKernel", {8, 1, 1}, {128, 1, 1}, {bufArg("out"), bufArg("in"), intArg(n)});
  auto r = runModule(*m, spec, bufs);
  ASSERT_TRUE(r.run.ok()) << r.run.error().message;
  auto out = contents<float>(bufs[0]);
  for (int i = 0; i < 1024; ++i) ASSERT_EQ(out[i], i < n ? float(i) : -1.0f) << i;
  // 960 threads = 30 full warps reach the ld and the st; warps 30, 31 (block 7's warps 2, 3)
  // branch around them.
  ASSERT_EQ(r.run->sites.size(), 2u);
  EXPECT_EQ(r.run->sites[0].op, model::Op::Load);
  EXPECT_EQ(r.run->sites[0].space, model::Space::Global);
  EXPECT_EQ(r.run->sites[0].widthBytes, 4u);
  EXPECT_EQ(r.run->sites[0].sourceLine, 7);
  EXPECT_NE(r.run->sites[0].sourceFile.find("transpose.cu"), std::string::npos);
  EXPECT_EQ(r.run->sites[0].ptxText, "ld.global.f32 %f1, [%rd5];");
  // The two warps that branch around report both sites as skipped (no lanes).
  ASSERT_EQ(r.events.size(), 60u + 2 * 2);
  std::size_t skipped = 0;
  for (const auto &e : r.events)
    if (e.skipped) {
      ++skipped;
      EXPECT_TRUE(e.active.empty());
      EXPECT_EQ(e.block, 7u); // threads 960..1023: warps 2 and 3 of the last 128-thread block
      EXPECT_TRUE(e.warp == 2 || e.warp == 3) << e.warp;
    }
  EXPECT_EQ(skipped, 4u);
  const auto &ld = r.events[0];
  EXPECT_EQ(ld.site, r.run->sites[0].site);
  EXPECT_EQ(ld.active, LaneMask::all());
  // in[tid]: 32 consecutive floats starting at the 'in' buffer base (second buffer: 'out' 4096
  // bytes plus a 512-byte gap, rounded up to the next 4 KiB boundary).
  const std::uint64_t inBase = 0x7f0000000000ull + 8192;
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(ld.addr[l].value, inBase + 4 * l);
  EXPECT_EQ(r.run->stats.warpInstructions > 0, true);
}

TEST(FixtureKernels, NaiveTransposeStoresStrideOfOneRow) {
  auto m = load("transpose.ptx");
  ASSERT_TRUE(m);
  const int w = 64, h = 64;
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<float>(w * h, 0.0f)), buffer("in", iota(w * h))};
  auto spec = makeSpec("transposeNaive", {2, 2, 1}, {32, 8, 1}, {bufArg("out"), bufArg("in"), intArg(w), intArg(h)});
  auto r = runModule(*m, spec, bufs);
  ASSERT_TRUE(r.run.ok()) << r.run.error().message;
  auto out = contents<float>(bufs[0]);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) ASSERT_EQ(out[x * h + y], float(y * w + x));
  // 8 memory instructions × 8 warps × 4 blocks
  EXPECT_EQ(r.events.size(), 8u * 8 * 4);
  const model::AccessEvent *st = nullptr;
  for (const auto &e : r.events)
    if (e.op == model::Op::Store) { st = &e; break; }
  ASSERT_NE(st, nullptr);
  for (unsigned l = 1; l < 32; ++l) EXPECT_EQ(st->addr[l].value - st->addr[l - 1].value, 4u * h);
}

TEST(FixtureKernels, SharedTransposeWithBarrier) {
  auto m = load("transpose.ptx");
  ASSERT_TRUE(m);
  const int w = 96, h = 64;
  std::vector<launch::HostBuffer> bufs = {buffer("out", std::vector<float>(w * h, 0.0f)), buffer("in", iota(w * h))};
  auto spec = makeSpec("transposeShared", {3, 2, 1}, {32, 8, 1}, {bufArg("out"), bufArg("in"), intArg(w), intArg(h)});
  auto r = runModule(*m, spec, bufs, 2);
  ASSERT_TRUE(r.run.ok()) << r.run.error().message;
  auto out = contents<float>(bufs[0]);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) ASSERT_EQ(out[x * h + y], float(y * w + x)) << x << "," << y;
  // shared store of tile[ty+j][tx]: 32 consecutive words; shared load tile[tx][ty+j]: stride 33 words
  bool sawSt = false, sawLd = false;
  for (const auto &e : r.events) {
    if (e.space != model::Space::Shared) continue;
    if (e.op == model::Op::Store && !sawSt) {
      sawSt = true;
      for (unsigned l = 1; l < 32; ++l) EXPECT_EQ(e.addr[l].value - e.addr[l - 1].value, 4u);
    }
    if (e.op == model::Op::Load && !sawLd) {
      sawLd = true;
      for (unsigned l = 1; l < 32; ++l) EXPECT_EQ(e.addr[l].value - e.addr[l - 1].value, 132u);
    }
  }
  EXPECT_TRUE(sawSt && sawLd);
}

TEST(FixtureKernels, TiledSgemmMatchesCpu) {
  auto m = load("sgemm.ptx");
  ASSERT_TRUE(m);
  const int n = 48;
  std::vector<float> a(n * n), b(n * n);
  for (int i = 0; i < n * n; ++i) { a[i] = float((i * 7) % 13) - 6; b[i] = float((i * 5) % 11) - 5; }
  std::vector<launch::HostBuffer> bufs = {buffer("C", std::vector<float>(n * n)), buffer("A", a), buffer("B", b)};
  auto spec = makeSpec("sgemmTiled", {3, 3, 1}, {16, 16, 1}, {bufArg("C"), bufArg("A"), bufArg("B"), intArg(n)});
  auto r = runModule(*m, spec, bufs, 2);
  ASSERT_TRUE(r.run.ok()) << r.run.error().message;
  auto c = contents<float>(bufs[0]);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int k = 0; k < n; ++k) acc += a[i * n + k] * b[k * n + j];
      ASSERT_EQ(c[i * n + j], acc) << i << "," << j; // small integers: exact in f32
    }
}
