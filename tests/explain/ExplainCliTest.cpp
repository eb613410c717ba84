/// \file
/// `warplens explain` of kernel instructions on the committed transpose fixture (16x16 tile,
/// block 16x16, 32x32 floats): numbers derived by hand from HARDWARE.md, and bad --pc/--line.
#include "tests/explain/CliRun.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>

namespace warplens::test {
namespace {

using nlohmann::json;

// tile[16][16] floats (the emulator places it at a 128-byte aligned shared offset T), written
// tile[ty][tx], read tile[tx][ty] (LDS at pc 0x01c0). Warp 0 holds rows ty = 0 and 1 (lanes 0-15:
// tx = lane, ty = 0; lanes 16-31: ty = 1): lane reads byte T + 64*tx + 4*ty → word T/4 + 16*tx + ty
// → bank (16*tx + ty) % 32 = 16*(tx%2) + ty.
// Banks 0 and 16 (ty=0), 1 and 17 (ty=1), each 8 distinct words → 8 wavefronts, ideal
// 32*4/128 = 1. Every warp has the same shape: 4 blocks x 8 warps = 32 executions, 256 wavefronts.
TEST(ExplainCli, ColumnReadOfTile16JsonShowsEightWayConflict) {
  CliRun r = warplens("explain " + fixtureArgs() + " --pc 0x1c0 --format json", true);
  ASSERT_EQ(r.status, 0) << r.out;
  json j = json::parse(r.out);
  ASSERT_EQ(j["instructions"].size(), 1u);
  const json &i = j["instructions"][0];
  const json &t = i["instruction"];
  EXPECT_EQ(t["sass_pc"], 0x1c0);
  EXPECT_EQ(t["space"], "shared");
  EXPECT_EQ(t["op"], "ld");
  EXPECT_EQ(t["executed"], 32);
  EXPECT_EQ(t["wavefronts"], 256);
  EXPECT_EQ(t["wavefronts_ideal"], 32);
  EXPECT_EQ(t["conflict_ways_max"], 8);
  EXPECT_EQ(i["histogram_of"], "wavefronts");
  EXPECT_EQ(i["histogram"], json::parse(R"([{"cost": 8, "executions": 32}])"));
  EXPECT_EQ(i["as_bad_as_worst"], 32);

  const json &w = i["costliest_warp"]; // ties go to the lowest block, then warp
  EXPECT_EQ(w["block_linear"], 0);
  EXPECT_EQ(w["warp"], 0);
  EXPECT_EQ(w["wavefronts"], 8);
  EXPECT_EQ(w["wavefronts_ideal"], 1);
  EXPECT_EQ(w["conflict_ways"], 8);
  const std::uint64_t tile = w["lanes"][0]["address"];
  EXPECT_EQ(tile % 128, 0u);
  for (const json &l : w["lanes"]) {
    unsigned lane = l["lane"], tx = lane % 16, ty = lane / 16;
    EXPECT_EQ(l["tx"], tx);
    EXPECT_EQ(l["ty"], ty);
    EXPECT_EQ(l["address"], tile + 64 * tx + 4 * ty) << "lane " << lane;
    EXPECT_EQ(l["bank"], 16 * (tx % 2) + ty) << "lane " << lane;
  }

  std::map<unsigned, std::set<std::uint64_t>> wordsOf;
  std::map<unsigned, std::set<unsigned>> lanesOf;
  for (const json &c : i["collisions"])
    for (const json &word : c["words"]) {
      wordsOf[c["bank"]].insert(word["word"].get<std::uint64_t>());
      for (unsigned lane : word["lanes"]) lanesOf[c["bank"]].insert(lane);
    }
  ASSERT_EQ(wordsOf.size(), 4u);
  for (unsigned bank : {0u, 16u, 1u, 17u}) {
    const unsigned ty = bank % 16, odd = bank / 16;
    std::set<std::uint64_t> words;
    std::set<unsigned> lanes;
    for (unsigned tx = odd; tx < 16; tx += 2) {
      words.insert(tile / 4 + 16 * tx + ty);
      lanes.insert(16 * ty + tx);
    }
    EXPECT_EQ(wordsOf[bank], words) << "bank " << bank;
    EXPECT_EQ(lanesOf[bank], lanes) << "bank " << bank;
  }

  // Rewrites of the 64-byte rows: pitch 17 words → bank (17tx+ty)%32: tx=15,ty=1 (word 256) meets
  // tx=0,ty=0 in bank 0 → 2; pitch 18 → 18tx%32 = 16 distinct even banks, +ty odd → 1;
  // XOR col^row: bank 16(tx%2) + (ty^tx)%16 distinct over the warp → 1.
  std::map<std::string, unsigned> fix;
  for (const json &f : i["layout_candidates"]) fix[f["label"]] = f["wavefronts"];
  EXPECT_EQ(fix["pad each 64-byte row by 4 bytes (row pitch 68 bytes = 17 elements)"], 2u);
  EXPECT_EQ(fix["pad each 64-byte row by 8 bytes (row pitch 72 bytes = 18 elements)"], 1u);
  EXPECT_EQ(fix["XOR-swizzle: element column ^= row % 16 (16-element rows, no extra memory)"], 1u);
  ASSERT_FALSE(i["layout_candidates"].empty());
  EXPECT_EQ(i["layout_candidates"][0]["wavefronts"], 1); // best first
}

TEST(ExplainCli, TextShowsArithmeticDiagramAndCounts) {
  CliRun r = warplens("explain " + fixtureArgs() + " --pc 0x01c0", true);
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char *want :
       {"LDS R9, [R6]", "wavefronts 256 (ideal 32): 224 extra, worst 8-way conflict",
        "8 wavefronts (ideal 1), 8-way conflict", "32 of 32 executions (100.0%) were as bad",
        "lane  1 (tx=1,ty=0): byte ", "bank diagram", "bank 0 serves 8 different words:",
        "bank 17 serves 8 different words:", "(8-way conflict)", "← ideal"})
    EXPECT_NE(r.out.find(want), std::string::npos) << "missing: " << want << "\n" << r.out;
  auto laneLine = [&](const std::string &head) {
    auto p = r.out.find(head);
    return p == std::string::npos ? std::string() : r.out.substr(p, r.out.find('\n', p) - p);
  };
  // lane 1: tx=1 → bank 16; lane 16: tx=0, ty=1 → bank 1 (16*(tx%2) + ty)
  EXPECT_TRUE(laneLine("lane  1 (tx=1,ty=0)").ends_with("% 32 = 16")) << laneLine("lane  1 (");
  EXPECT_TRUE(laneLine("lane 16 (tx=0,ty=1)").ends_with("% 32 = 1")) << laneLine("lane 16 (");
}

// The coalesced global load (pc 0x00c0): a warp reads two 64-byte row pieces: 4 sectors = ideal.
TEST(ExplainCli, GlobalLoadIsIdeal) {
  CliRun r = warplens("explain " + fixtureArgs() + " --pc 0xc0 --format json", true);
  ASSERT_EQ(r.status, 0) << r.out;
  const json i = json::parse(r.out)["instructions"][0];
  EXPECT_EQ(i["instruction"]["sectors"], 128);
  EXPECT_EQ(i["histogram_of"], "sectors");
  EXPECT_EQ(i["costliest_warp"]["sectors"], 4);
  EXPECT_EQ(i["costliest_warp"]["sectors_ideal"], 4);
  EXPECT_EQ(i["costliest_warp"]["lines"], 2);
  EXPECT_TRUE(i["layout_candidates"].empty());
}

// Every memory access of sharedTileBody is attributed to the kernel's line 143 (inlined body).
TEST(ExplainCli, LineExplainsEveryInstructionOnIt) {
  CliRun r = warplens("explain " + fixtureArgs() + " --line 143 --format json", true);
  ASSERT_EQ(r.status, 0) << r.out;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["instructions"].size(), 4u);
  std::vector<std::string> spaces;
  for (const json &i : j["instructions"]) spaces.push_back(i["instruction"]["space"]);
  EXPECT_EQ(spaces, (std::vector<std::string>{"global", "shared", "shared", "global"}));
}

TEST(ExplainCli, UnknownPcExitsTwoNamingIt) {
  CliRun r = warplens("explain " + fixtureArgs() + " --pc 0x1234", true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--pc 0x1234: no memory instruction at this pc"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0x01c0"), std::string::npos) << r.out; // lists the pcs that exist
}

TEST(ExplainCli, LineWithoutMemoryInstructionExitsTwoNamingIt) {
  CliRun r = warplens("explain " + fixtureArgs() + " --line 7", true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--line 7: no memory instruction on source line 7"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("lines 143"), std::string::npos) << r.out;
}

TEST(ExplainCli, MalformedSelectorsExitTwo) {
  CliRun r = warplens("explain " + fixtureArgs() + " --pc zz", true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--pc 'zz'"), std::string::npos) << r.out;
  r = warplens("explain " + fixtureArgs(), true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("exactly one of --pc"), std::string::npos) << r.out;
  r = warplens(std::string("explain --spec ") + WARPLENS_TEST_DATA + "/two_launches.json --pc 0x1c0",
               true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("pick one with --name"), std::string::npos) << r.out;
}

} // namespace
} // namespace warplens::test
