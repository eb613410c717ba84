/// \file
/// CLI tests of `warplens pattern`/`explain`: runs WARPLENS_BIN with --format json and checks
/// hand-derived counts (HARDWARE.md figures and the seed kernels' tiles), and bad-input exits.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

struct CliRun {
  int status = -1;
  std::string out, err;
};

std::string quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string slurp(const std::string &path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

CliRun warplens(const std::vector<std::string> &args) {
  static int counter = 0;
  const std::string stem = "/tmp/warplens_pattern_test_" + std::to_string(::getpid()) + "_" +
                           std::to_string(counter++);
  std::string cmd = quote(WARPLENS_BIN);
  for (const auto &a : args) cmd += " " + quote(a);
  cmd += " >" + stem + ".out 2>" + stem + ".err";
  CliRun r;
  int raw = std::system(cmd.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(stem + ".out");
  r.err = slurp(stem + ".err");
  std::remove((stem + ".out").c_str());
  std::remove((stem + ".err").c_str());
  return r;
}

/// `warplens pattern ... --format json`, parsed.
nlohmann::json pattern(std::vector<std::string> args) {
  args.insert(args.begin(), "pattern");
  args.push_back("--format");
  args.push_back("json");
  CliRun r = warplens(args);
  EXPECT_EQ(r.status, 0) << r.err;
  if (r.status != 0) return nlohmann::json::object();
  return nlohmann::json::parse(r.out);
}

/// Wavefronts of warp 0 for a shared load.
unsigned wavefronts(const std::string &index, unsigned elem, const std::string &block = "32,1,1",
                    const std::string &warp = "0") {
  auto j = pattern({"--space", "shared", "--index", index, "--elem", std::to_string(elem),
                    "--block", block, "--warp", warp});
  if (!j.contains("warps") || j["warps"].empty()) return 0;
  return j["warps"][0]["wavefronts"].get<unsigned>();
}

/// Sectors of warp 0 for a global load.
unsigned sectors(const std::string &index, unsigned elem, const std::string &block = "32,1,1") {
  auto j = pattern({"--space", "global", "--index", index, "--elem", std::to_string(elem),
                    "--block", block});
  if (!j.contains("warps") || j["warps"].empty()) return 0;
  return j["warps"][0]["sectors"].get<unsigned>();
}

} // namespace

// HARDWARE.md, 32-bit strides: lane i reads word S*i, bank (S*i)%32. The number of lanes per
// bank is 32/(32/gcd(S,32)) = gcd(S,32): S=1,3,17 → 1; 2 → 2; 4 → 4; 8 → 8; 16 → 16; 32 → 32.
TEST(PatternShared, Stride32Bit) {
  const std::pair<int, unsigned> cases[] = {{1, 1}, {2, 2}, {3, 1},   {4, 4},
                                            {8, 8}, {16, 16}, {17, 1}, {32, 32}};
  for (auto [s, w] : cases) EXPECT_EQ(wavefronts("tx*" + std::to_string(s), 4), w) << "S=" << s;
}

// HARDWARE.md: 64-bit accesses are served 128 bytes per wavefront: 32 lanes x 8 bytes = 256
// bytes → 2 at best. Stride 17 doubles = 34 words: lane i starts in bank (34 i)%32 = 2i%32, so
// each half-warp covers 32 distinct banks → still 2.
TEST(PatternShared, Stride64Bit) {
  EXPECT_EQ(wavefronts("tx", 8), 2u);
  EXPECT_EQ(wavefronts("tx*17", 8), 2u);
}

// HARDWARE.md: 128-bit: 8 lanes (128 bytes) per wavefront → stride 1 or 9 float4 → 4;
// stride 2 → lanes 8 float4 apart in banks collide pairwise → 8; stride 8 (128 bytes) → every
// lane on banks 0-3 → 32.
TEST(PatternShared, Stride128Bit) {
  EXPECT_EQ(wavefronts("tx", 16), 4u);
  EXPECT_EQ(wavefronts("tx*9", 16), 4u);
  EXPECT_EQ(wavefronts("tx*2", 16), 8u);
  EXPECT_EQ(wavefronts("tx*8", 16), 32u);
}

// Transpose through a 32x32 float tile, block 32x8: reading tile[tx][ty] (index tx*32+ty) puts
// lane i at word 32 i → bank 0 for all 32 lanes: 32-way, 32 wavefronts. Padding to 33 columns:
// word 33 i + ty → bank (i + ty)%32, all distinct → 1. Same for every warp (ty = warp).
TEST(PatternShared, TransposeTile32) {
  auto j = pattern({"--space", "shared", "--index", "tx*32 + ty", "--elem", "4", "--block",
                    "32,8,1", "--warp", "3"});
  ASSERT_EQ(j["warps"].size(), 1u);
  const auto &w = j["warps"][0];
  EXPECT_EQ(w["wavefronts"], 32);
  EXPECT_EQ(w["wavefronts_ideal"], 1);
  EXPECT_EQ(w["conflict_ways"], 32);
  EXPECT_EQ(w["active"], 32);
  // lane 1 of warp 3: tx=1, ty=3 → index 35 → byte 140 → bank 3
  EXPECT_EQ(w["lanes"][1]["index"], 35);
  EXPECT_EQ(w["lanes"][1]["address"], 140);
  EXPECT_EQ(w["lanes"][1]["bank"], 3);
  EXPECT_EQ(wavefronts("tx*33 + ty", 4, "32,8,1", "3"), 1u);
  EXPECT_EQ(wavefronts("ty*32 + tx", 4, "32,8,1", "5"), 1u); // the row write
  // --all over the block: 8 warps x 32 wavefronts.
  auto all = pattern({"--space", "shared", "--index", "tx*32 + ty", "--elem", "4", "--block",
                      "32,8,1", "--all"});
  EXPECT_EQ(all["totals"]["warps"], 8);
  EXPECT_EQ(all["totals"]["wavefronts"], 256);
  EXPECT_EQ(all["totals"]["wavefronts_ideal"], 8);
  EXPECT_EQ(all["totals"]["conflict_ways_max"], 32);
}

// 16x16 tile, block 16x16: a warp is two rows of 16 threads (ty = 2w, 2w+1). Column read
// tile[tx][ty] = tx*16 + ty: word 16 tx + ty → bank 0 (even tx, ty even), 16 (odd tx), and 1/17
// for the odd row: each of banks 0, 16, 1, 17 holds 8 distinct words → 8-way, 8 wavefronts
// (the seed's "16-way" claim is for one 16-thread row; a warp spreads over two banks).
TEST(PatternShared, TransposeTile16) {
  auto j = pattern({"--space", "shared", "--index", "tx*16 + ty", "--elem", "4", "--block",
                    "16,16,1", "--warp", "0"});
  const auto &w = j["warps"][0];
  EXPECT_EQ(w["wavefronts"], 8);
  EXPECT_EQ(w["conflict_ways"], 8);
  EXPECT_EQ(w["lanes"][16]["ty"], 1); // lane 16 starts the second row
  EXPECT_EQ(w["lanes"][16]["tx"], 0);
  // Row access tile[ty][tx] = ty*16 + tx: words 0..31 → 1 wavefront.
  EXPECT_EQ(wavefronts("ty*16 + tx", 4, "16,16,1"), 1u);
}

// 16x17 padded tile: word 17 tx + ty. Row ty=0 uses banks {0,2,..,14} ∪ {17,19,..,31}; row ty=1
// uses {1,3,..,15} ∪ {18,..,30} ∪ {0} (tx=15: 17*15+1 = 256 → bank 0). Bank 0 serves words 0
// and 256 → 2 wavefronts: padding by one does not make a 16-wide tile conflict-free.
TEST(PatternShared, TransposeTile16Padded) {
  auto j = pattern({"--space", "shared", "--index", "tx*17 + ty", "--elem", "4", "--block",
                    "16,16,1"});
  EXPECT_EQ(j["warps"][0]["wavefronts"], 2);
  EXPECT_EQ(j["warps"][0]["conflict_ways"], 2);
}

// XOR swizzle of a 32x32 tile: element (row, col) stored at row*32 + (col ^ row). Column read by
// warp w (ty = w): row = tx, col = ty → bank (ty ^ tx) % 32, distinct over tx → 1 wavefront.
TEST(PatternShared, XorSwizzle) {
  EXPECT_EQ(wavefronts("tx*32 + (ty ^ tx)", 4, "32,8,1", "5"), 1u);
  auto j = pattern({"--space", "shared", "--let", "row=tx", "--let", "col=ty", "--index",
                    "row*32 + (col ^ row)", "--elem", "4", "--block", "32,8,1", "--warp", "2"});
  EXPECT_EQ(j["warps"][0]["wavefronts"], 1);
  EXPECT_EQ(j["lets"][0]["name"], "row");
}

// float4 tile 32 wide: row read (tx + ty*32) = stride 1 float4 → 4; column read stride 32 float4
// (512 bytes) → all lanes on banks 0-3 → 32; padded to 33 float4: lane i starts at bank 4i%32,
// 8 lanes per 128 bytes disjoint → 4 (like stride 9).
TEST(PatternShared, Float4Tile) {
  EXPECT_EQ(wavefronts("ty*32 + tx", 16, "32,8,1"), 4u);
  EXPECT_EQ(wavefronts("tx*32 + ty", 16, "32,8,1"), 32u);
  EXPECT_EQ(wavefronts("tx*33 + ty", 16, "32,8,1"), 4u);
}

// double tiles: 32x32 f64 row read = stride 1 → 2; column read stride 32 doubles (256 bytes):
// every lane on banks 0-1 → 32; 32x33 f64: lane i starts at bank 66i%32 = 2i%32, a half-warp
// covers all 32 banks once → 2 (like stride 17).
TEST(PatternShared, DoubleTiles) {
  EXPECT_EQ(wavefronts("ty*32 + tx", 8, "32,8,1"), 2u);
  EXPECT_EQ(wavefronts("tx*32 + ty", 8, "32,8,1"), 32u);
  EXPECT_EQ(wavefronts("tx*33 + ty", 8, "32,8,1"), 2u);
}

// Broadcast: every lane reads the same word → 1 wavefront.
TEST(PatternShared, Broadcast) { EXPECT_EQ(wavefronts("7", 4), 1u); }

// HARDWARE.md global figures: 32 lanes x 4 bytes contiguous and 128-aligned = 4 sectors; one
// element off (byte 4 .. 131) = 5; float4 512 bytes = 16; double 256 bytes = 8; lanes 128 bytes
// apart = 32 distinct sectors.
TEST(PatternGlobal, Coalescing) {
  EXPECT_EQ(sectors("gx", 4), 4u);
  EXPECT_EQ(sectors("gx + 1", 4), 5u);
  EXPECT_EQ(sectors("gx", 16), 16u);
  EXPECT_EQ(sectors("gx", 8), 8u);
  EXPECT_EQ(sectors("tx*32", 4), 32u);
  auto j = pattern({"--space", "global", "--index", "gx + 1", "--elem", "4", "--block", "32"});
  EXPECT_EQ(j["warps"][0]["sectors_ideal"], 4);
  EXPECT_EQ(j["warps"][0]["requests"], 1);
  EXPECT_EQ(j["warps"][0]["lanes"][31]["sector"], 4); // byte 128 → sector 4
}

// Offset vector add over a grid: 4 blocks of 256 threads = 32 warps, each 5 sectors for 4 ideal.
TEST(PatternGlobal, OffsetVectorAddAll) {
  auto j = pattern({"--space", "global", "--index", "gx + 1", "--elem", "4", "--block", "256",
                    "--grid", "4", "--all"});
  EXPECT_EQ(j["totals"]["warps"], 32);
  EXPECT_EQ(j["totals"]["requests"], 32);
  EXPECT_EQ(j["totals"]["sectors"], 160);
  EXPECT_EQ(j["totals"]["sectors_ideal"], 128);
  EXPECT_DOUBLE_EQ(j["totals"]["efficiency"].get<double>(), 0.8);
}

// Naive transpose of a 2048x2048 float matrix, 32x8 blocks, grid 64x256 (HARDWARE.md, measured):
// load in[gy*2048 + gx] = 4 sectors/request; store out[gx*2048 + gy] = 32 sectors/request:
// 131,072 requests, 4,194,304 sectors. Also checks --all stays fast over 4M threads.
TEST(PatternGlobal, NaiveTransposeWholeGrid) {
  auto st = pattern({"--space", "global", "--op", "st", "--index", "gx*2048 + gy", "--elem", "4",
                     "--block", "32,8", "--grid", "64,256", "--all"});
  EXPECT_EQ(st["totals"]["requests"], 131072);
  EXPECT_EQ(st["totals"]["sectors"], 4194304);
  auto ld = pattern({"--space", "global", "--index", "gy*2048 + gx", "--elem", "4", "--block",
                     "32,8", "--grid", "64,256", "--all"});
  EXPECT_EQ(ld["totals"]["sectors"], 131072 * 4);
  ASSERT_EQ(ld["histogram"].size(), 1u);
  EXPECT_EQ(ld["histogram"][0]["cost"], 4);
  EXPECT_EQ(ld["histogram"][0]["warps"], 131072);
}

// Partial warp: block 48 → warp 1 holds threads 32..47 (16 lanes) = bytes 128..191 = 2 sectors.
// --mask: only tx < 8 active → 32 bytes = 1 sector.
TEST(PatternGlobal, PartialWarpAndMask) {
  auto j = pattern({"--space", "global", "--index", "tx", "--elem", "4", "--block", "48",
                    "--warp", "1"});
  EXPECT_EQ(j["warps"][0]["active"], 16);
  EXPECT_EQ(j["warps"][0]["sectors"], 2);
  EXPECT_EQ(j["warps"][0]["lanes"][20]["active"], false);
  auto m = pattern({"--space", "global", "--index", "tx", "--elem", "4", "--block", "32",
                    "--mask", "tx < 8 && !(tx == 100)"});
  EXPECT_EQ(m["warps"][0]["active"], 8);
  EXPECT_EQ(m["warps"][0]["sectors"], 1);
}

// Explain: the 32-way tile read; padding to 33 and the XOR swizzle reach 1 wavefront.
TEST(PatternExplain, TileCandidates) {
  CliRun r = warplens({"explain", "--space", "shared", "--index", "tx*32 + ty", "--elem", "4",
                    "--block", "32,8,1", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["totals"]["wavefronts"], 32);
  EXPECT_EQ(j["form"], "row*W + col with row = tx, W = 32, col = ty");
  ASSERT_EQ(j["collisions"].size(), 1u);
  EXPECT_EQ(j["collisions"][0]["bank"], 0);
  EXPECT_EQ(j["collisions"][0]["words"].size(), 32u);
  std::map<std::string, unsigned> cost;
  for (const auto &c : j["candidates"]) cost[c["label"]] = c.value("cost", 999u);
  EXPECT_EQ(cost["pad rows to 33 elements"], 1u);  // stride 33 → 1
  EXPECT_EQ(cost["pad rows to 34 elements"], 2u);  // stride 34 words: gcd(34,32) = 2 → 2
  EXPECT_EQ(cost["pad rows to 36 elements"], 4u);  // gcd(36,32) = 4
  EXPECT_EQ(cost["XOR swizzle: col ^ (row % W), no extra memory"], 1u);
  CliRun text = warplens({"explain", "--space", "shared", "--index", "tx*32 + ty", "--elem", "4",
                       "--block", "32,8,1"});
  EXPECT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("bank 0 must serve 32 words"), std::string::npos) << text.out;
}

// Explain for global: the naive transpose store; swapping tx and ty gives 4 sectors.
TEST(PatternExplain, GlobalSwap) {
  CliRun r = warplens({"explain", "--space", "global", "--index", "tx*2048 + ty", "--elem", "4",
                    "--block", "32,8", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["candidates"].empty());
  EXPECT_EQ(j["candidates"][0]["index"], "(ty)*2048 + (tx)");
  EXPECT_EQ(j["candidates"][0]["cost"], 4);
  // The kernel form needs an instruction to explain: --pc or --line (tests/explain covers it).
  CliRun k = warplens({"explain", "kernel.cu", "--kernel", "k"});
  EXPECT_EQ(k.status, 2);
  EXPECT_NE(k.err.find("--pc"), std::string::npos) << k.err;
}

TEST(PatternViews, TextAndSvg) {
  CliRun t = warplens({"pattern", "--space", "shared", "--index", "tx*32 + ty", "--elem", "4",
                    "--block", "32,8,1"});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_NE(t.out.find("lane  1 (tx=1,ty=0): index = tx*32 + ty = 32 → byte 32*4 = 128 → "
                       "bank (128/4)%32 = 0"),
            std::string::npos)
      << t.out;
  EXPECT_NE(t.out.find("32-way bank conflict"), std::string::npos);
  CliRun s = warplens({"pattern", "--space", "shared", "--index", "tx", "--elem", "4", "--block",
                    "32", "--format", "svg"});
  ASSERT_EQ(s.status, 0);
  EXPECT_EQ(s.out.rfind("<svg", 0), 0u);
  EXPECT_NE(s.out.find("</svg>"), std::string::npos);
  CliRun h = warplens({"pattern", "--help"});
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("row*32 + (col ^ row)"), std::string::npos);
}

// Bad input: exit 2 and the message names the token / option / lane.
TEST(PatternErrors, ExitTwoNamingTheToken) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--index", "tx*foo"}, "unknown variable 'foo' at column 4"},
      {{"--index", "tx*/2"}, "unexpected token '/'"},
      {{"--index", "(tx+1"}, "missing ')'"},
      {{"--index", "tx @ 1"}, "unexpected character '@'"},
      {{"--index", "100 + 32/(tx-3)"}, "division by zero at column 9 for lane 3"},
      {{"--index", "tx", "--let", "tx=3"}, "'tx' redefines a built-in"},
      {{"--index", "tx", "--let", "row"}, "--let: 'row' is not NAME=EXPR"},
      {{"--index", "tx", "--let", "r=ty+"}, "--let r: unexpected end of expression"},
      {{"--index", "tx", "--mask", "tx <"}, "--mask: unexpected end of expression"},
      {{"--index", "tx", "--elem", "3"}, "--elem: '3'"},
      {{"--index", "tx", "--block", "32,x"}, "bad part 'x'"},
      {{"--index", "tx", "--warp", "1"}, "--warp: 1 is out of range"},
      {{"--index", "tx", "--format", "xml"}, "--format: 'xml'"},
      {{"--index", "tx", "--bogus"}, "--bogus"},
      {{"--index", "tx", "--arch", "sm_1"}, "sm_1"},
      {{"--index", "tx - 5"}, "negative byte address"},
  };
  for (const auto &[extra, expected] : cases) {
    std::vector<std::string> args = {"pattern", "--space", "shared", "--elem", "4", "--block",
                                     "32"};
    // later --elem/--block on the command line must not clash with the defaults above
    for (std::size_t i = 0; i + 1 < extra.size(); ++i)
      if (extra[i] == "--elem" || extra[i] == "--block")
        for (std::size_t k = 1; k + 1 < args.size(); ++k)
          if (args[k] == extra[i]) args.erase(args.begin() + k, args.begin() + k + 2);
    args.insert(args.end(), extra.begin(), extra.end());
    CliRun r = warplens(args);
    EXPECT_EQ(r.status, 2) << expected;
    EXPECT_NE(r.err.find(expected), std::string::npos) << "expected '" << expected << "' in: " << r.err;
  }
  CliRun space = warplens({"pattern", "--space", "local", "--index", "tx", "--elem", "4", "--block", "32"});
  EXPECT_EQ(space.status, 2);
  EXPECT_NE(space.err.find("'local'"), std::string::npos);
  CliRun missing = warplens({"pattern", "--space", "shared", "--elem", "4", "--block", "32"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("missing --index"), std::string::npos);
}
