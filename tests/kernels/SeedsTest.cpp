/// \file
/// The seed suite (kernels/seeds_small.json) through the whole offline pipeline: every functional
/// check passes, and per-instruction counts equal numbers derived by hand from HARDWARE.md.
#include "analysis/Pipeline.h"
#include "sass/Toolchain.h"

#include <gtest/gtest.h>

#include <map>

using namespace warplens;
using launch::InstructionRecord;
using launch::LaunchResult;

namespace {

const std::string kKernels = std::string(WARPLENS_SOURCE_DIR) + "/kernels";

/// Runs the small suite once (SASS-grouped when the toolchain has a disassembler).
const std::map<std::string, LaunchResult> &smallSuite() {
  static std::map<std::string, LaunchResult> results = [] {
    std::map<std::string, LaunchResult> out;
    auto specs = launch::loadSpecFile(kKernels + "/seeds_small.json");
    EXPECT_TRUE(specs.ok()) << specs.error().message;
    if (!specs.ok()) return out;
    analysis::AnalyzeOptions opt;
    opt.threads = 2;
    analysis::Pipeline p(opt);
    for (const auto &s : *specs) {
      auto r = p.analyze(s);
      EXPECT_TRUE(r.ok()) << s.name << ": " << r.error().message;
      if (r.ok()) out[s.name] = std::move(*r);
    }
    return out;
  }();
  return results;
}

bool haveNvcc() { return !sass::findTool("nvcc").empty(); }

/// The records of `launch` with this space and op, in listing order.
std::vector<InstructionRecord> find(const LaunchResult &r, const std::string &space, const std::string &op) {
  std::vector<InstructionRecord> v;
  for (const auto &i : r.instructions)
    if (i.space == space && i.op == op) v.push_back(i);
  return v;
}

const LaunchResult &get(const std::string &name) {
  static LaunchResult empty;
  auto it = smallSuite().find(name);
  EXPECT_NE(it, smallSuite().end()) << name;
  return it == smallSuite().end() ? empty : it->second;
}

#define NEED_NVCC()                                                                                \
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found: .cu seeds cannot be compiled"

} // namespace

TEST(Seeds, EveryFunctionalCheckPasses) {
  NEED_NVCC();
  ASSERT_EQ(smallSuite().size(), 28u);
  for (const auto &[name, r] : smallSuite()) {
    ASSERT_TRUE(r.checkPassed.has_value()) << name;
    EXPECT_TRUE(*r.checkPassed) << name << ": " << r.checkDetail;
  }
}

// 64x64 float, block 32x8: 4096 threads = 128 warps, one load and one store each.
// Load: a warp reads 32 consecutive floats = 128 bytes = 4 sectors → 512 sectors.
// Store: lane stride 64 floats = 256 bytes, every lane its own sector → 32 x 128 = 4096 sectors,
// ideal 4 per request = 512. DRAM: `in` once, 64*64*4 bytes = 16384.
TEST(Seeds, NaiveTransposeF32) {
  NEED_NVCC();
  const auto &r = get("transpose_naive_f32_64");
  auto ld = find(r, "global", "ld"), st = find(r, "global", "st");
  ASSERT_EQ(ld.size(), 1u);
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(ld[0].requests, 128u);
  EXPECT_EQ(ld[0].sectors, 512u);
  EXPECT_EQ(st[0].requests, 128u);
  EXPECT_EQ(st[0].sectors, 4096u);
  EXPECT_EQ(st[0].sectorsIdeal, 512u);
  EXPECT_EQ(r.metrics.at("dram__bytes_read.sum"), 16384.0);
}

// f64 naive: 8-byte lanes, load 256 bytes = 8 sectors per request; store still 32 per request.
TEST(Seeds, NaiveTransposeF64) {
  NEED_NVCC();
  const auto &r = get("transpose_naive_f64_64");
  auto ld = find(r, "global", "ld"), st = find(r, "global", "st");
  ASSERT_EQ(ld.size(), 1u);
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(ld[0].sectors, 1024u);
  EXPECT_EQ(st[0].sectors, 4096u);
  EXPECT_EQ(r.metrics.at("dram__bytes_read.sum"), 32768.0);
}

// 16x16 float tile, column read tile[tx][ty]: word = tx*16 + ty, bank = (16*tx + ty) mod 32.
// A warp is tx 0..15 at two rows ty0, ty0+1: lanes with even tx hit bank ty, odd tx bank 16+ty,
// 8 distinct words each → 8 wavefronts (the seed claims 16-way). 128 warp reads → 1024.
TEST(Seeds, Shared16TileIsEightWayNotSixteen) {
  NEED_NVCC();
  const auto &r = get("transpose_shared16_f32_64");
  auto lds = find(r, "shared", "ld");
  ASSERT_EQ(lds.size(), 1u);
  EXPECT_EQ(lds[0].executed, 128u);
  EXPECT_EQ(lds[0].wavefronts, 1024u);
  EXPECT_EQ(lds[0].wavefrontsIdeal, 128u);
  EXPECT_EQ(lds[0].conflictWaysMax, 8u);
}

// 32x32 unpadded: the column read puts all 32 lanes in one bank → 32 wavefronts; padded: 1.
TEST(Seeds, Shared32TileConflictsAndPaddingRemovesThem) {
  NEED_NVCC();
  auto lds = find(get("transpose_shared32_f32_64"), "shared", "ld");
  ASSERT_EQ(lds.size(), 1u);
  EXPECT_EQ(lds[0].wavefronts, 128u * 32);
  EXPECT_EQ(lds[0].conflictWaysMax, 32u);
  auto padded = find(get("transpose_padded_f32_64"), "shared", "ld");
  ASSERT_EQ(padded.size(), 1u);
  EXPECT_EQ(padded[0].wavefronts, 128u);
  EXPECT_EQ(padded[0].conflictWaysMax, 1u);
}

// Vector add, n = 1000, pointers 4 bytes past a 512-byte boundary. Warps 0..30 read bytes
// 4+128w .. 131+128w: 5 sectors (ideal 4). Warp 31 has 8 lanes: bytes 3972..4003, 2 sectors
// (ideal 1). Per instruction 31*5 + 2 = 157 sectors, ideal 125, 32 requests.
// DRAM (sm_90 rule: 64 bytes per aligned 64-byte chunk read, a 32-byte fill per partly written
// sector): a and b each bytes 4..4003 = chunks 0..62 → 2 * 63 * 64 = 8064; c writes bytes
// 4..4003, partly filling sectors 0 and 124 → 2 * 32 = 64. 8128 bytes.
TEST(Seeds, MisalignedVectorAddFiveSectorsForFour) {
  NEED_NVCC();
  const auto &r = get("vecadd_misaligned_1000");
  auto ld = find(r, "global", "ld"), st = find(r, "global", "st");
  ASSERT_EQ(ld.size(), 2u);
  ASSERT_EQ(st.size(), 1u);
  for (const auto &i : {ld[0], ld[1], st[0]}) {
    EXPECT_EQ(i.requests, 32u);
    EXPECT_EQ(i.threads, 1000u);
    EXPECT_EQ(i.sectors, 157u);
    EXPECT_EQ(i.sectorsIdeal, 125u);
  }
  EXPECT_EQ(r.metrics.at("dram__bytes_read.sum"), 8128.0);
}

// AoS of 12-byte points, n = 1000: each field read spans 32 * 12 = 384 bytes = 12 sectors per
// full warp; the last warp (8 lanes, bytes 11904..11999) 3 → 31*12 + 3 = 375. SoA: 125 each.
// DRAM: bytes 0..11999 = 64-byte chunks 0..187 → 188 * 64 = 12032 (the 4000-byte output is
// written in whole sectors: no fill).
TEST(Seeds, ArrayOfStructsVsStructOfArrays) {
  NEED_NVCC();
  auto aos = find(get("aos_read_1000"), "global", "ld");
  ASSERT_EQ(aos.size(), 3u);
  for (const auto &i : aos) EXPECT_EQ(i.sectors, 375u);
  auto soa = find(get("soa_read_1000"), "global", "ld");
  ASSERT_EQ(soa.size(), 3u);
  for (const auto &i : soa) EXPECT_EQ(i.sectors, 125u);
  EXPECT_EQ(get("aos_read_1000").metrics.at("dram__bytes_read.sum"), 12032.0);
}

// float4 transpose: 8x32 block, a warp loads 4 rows x 128 bytes with 16-byte lanes: 16 sectors
// per request, 4096 floats / 4 per lane / 32 lanes = 32 requests.
TEST(Seeds, Float4TransposeSixteenSectorsPerRequest) {
  NEED_NVCC();
  const auto &r = get("transpose_vec4_f32_64");
  auto ld = find(r, "global", "ld");
  ASSERT_EQ(ld.size(), 1u);
  EXPECT_EQ(ld[0].widthBytes, 16u);
  EXPECT_EQ(ld[0].requests, 32u);
  EXPECT_EQ(ld[0].sectors, 512u);
}

// Without SASS, predictions are per PTX instruction and say so.
TEST(Seeds, PtxLevelWhenSassIsOff) {
  NEED_NVCC();
  auto specs = launch::loadSpecFile(kKernels + "/seeds_small.json");
  ASSERT_TRUE(specs.ok());
  analysis::AnalyzeOptions opt;
  opt.sass = "none";
  opt.threads = 1;
  for (const auto &s : *specs) {
    if (s.name != "transpose_naive_f32_64") continue;
    auto r = analysis::analyzeLaunch(s, opt);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->sassSource, "none (PTX-level)");
    bool noted = false;
    for (const auto &n : r->notes) noted = noted || n == analysis::kNoSassNote;
    EXPECT_TRUE(noted);
    auto st = find(*r, "global", "st");
    ASSERT_EQ(st.size(), 1u);
    EXPECT_FALSE(st[0].sassPc.has_value());
    EXPECT_EQ(st[0].sectors, 4096u);
    EXPECT_TRUE(r->checkPassed.value_or(false));
  }
}
