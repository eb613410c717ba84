/// \file
/// `warplens analyze --trace` then `warplens replay`: the replayed per-instruction counts equal
/// the analyze run's, on the committed transpose fixture (PTX + SASS listing, no toolchain).
#include "tests/explain/CliRun.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>

namespace warplens::test {
namespace {

using nlohmann::json;

TEST(TraceRoundTrip, ReplayReproducesAnalyzePerInstruction) {
  const std::string trace = tempPath("transpose16.wlt");
  CliRun a = warplens("analyze " + fixtureArgs() + " --format json --trace " + trace, true);
  ASSERT_EQ(a.status, 0) << a.out;
  const json analyzed = json::parse(a.out)["launches"][0];
  CliRun r = warplens("replay " + trace + " --format json", true);
  ASSERT_EQ(r.status, 0) << r.out;
  const json replayed = json::parse(r.out);
  std::remove(trace.c_str());

  EXPECT_EQ(replayed["kernel"], "transposeShared16_f32");
  EXPECT_EQ(replayed["arch"], "sm_90");
  // 4 SASS instructions x 32 warp executions (4 blocks of 8 warps), after grouping.
  EXPECT_EQ(replayed["events"], 128);
  const json &ins = analyzed["instructions"];
  ASSERT_EQ(replayed["sites"].size(), ins.size());
  for (const json &s : replayed["sites"]) {
    const std::size_t id = s["site"];
    ASSERT_LT(id, ins.size());
    const json &i = ins[id];
    SCOPED_TRACE(i["sass"].get<std::string>());
    // The label starts with the SASS pc of the instruction the site id stands for.
    char pc[32];
    std::snprintf(pc, sizeof pc, "0x%04llx ", (unsigned long long)i["sass_pc"].get<std::uint64_t>());
    EXPECT_EQ(s["label"].get<std::string>().rfind(pc, 0), 0u) << s["label"];
    for (const char *k : {"space", "op", "width_bytes", "executed", "threads", "requests", "sectors",
                          "sectors_ideal", "wavefronts", "wavefronts_ideal", "conflict_ways_max"})
      EXPECT_EQ(s[k], i[k]) << k;
  }
  // Hand numbers (HARDWARE.md): the 16x16 tile's column read is 8 wavefronts per warp; the
  // global load and store are 2 rows of 64 bytes: 4 sectors per warp.
  const json &lds = replayed["sites"][2];
  EXPECT_EQ(lds["wavefronts"], 32 * 8);
  EXPECT_EQ(lds["wavefronts_ideal"], 32);
  EXPECT_EQ(replayed["sites"][0]["sectors"], 32 * 4);
  EXPECT_EQ(replayed["sites"][3]["sectors"], 32 * 4);
  EXPECT_EQ(replayed["totals"]["wavefronts"], 32 * 8 + 32);
}

TEST(TraceRoundTrip, TracingDoesNotChangeTheResult) {
  const std::string trace = tempPath("same.wlt");
  CliRun traced = warplens("analyze " + fixtureArgs() + " --format json --trace " + trace, true);
  CliRun plain = warplens("analyze " + fixtureArgs() + " --format json --threads 2", true);
  std::remove(trace.c_str());
  ASSERT_EQ(traced.status, 0) << traced.out;
  ASSERT_EQ(plain.status, 0) << plain.out;
  EXPECT_EQ(json::parse(traced.out), json::parse(plain.out));
}

TEST(TraceRoundTrip, BadTraceRequestsExitTwo) {
  CliRun r = warplens(std::string("analyze --spec ") + WARPLENS_TEST_DATA +
                          "/two_launches.json --sass none --trace " + tempPath("x.wlt"),
                      true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--trace"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pick one with --name"), std::string::npos) << r.out;
  r = warplens("analyze " + fixtureArgs() + " --trace /nonexistent-dir/t.wlt", true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("/nonexistent-dir/t.wlt"), std::string::npos) << r.out;
}

} // namespace
} // namespace warplens::test
