/// \file
/// Result JSON: a round trip keeps every field, unknown optional fields are omitted, and each
/// wrongly typed key is reported with the file and its key path.
#include "launch/Result.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace warplens::launch;
using nlohmann::json;

namespace {

LaunchResult sample() {
  LaunchResult r;
  r.name = "vecadd_offset1";
  r.kernel = "vecAdd";
  r.grid = {4096, 1, 1};
  r.block = {256, 1, 1};
  r.arch = "sm_90";
  r.device = "NVIDIA H200";
  r.sassSource = "cuobjdump 13.0";
  r.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 163840;
  r.metrics["dram__bytes_read.sum"] = 1.5;
  InstructionRecord i;
  i.sassPc = 0x90;
  i.sass = "LDG.E R2, desc[UR4][R2.64]";
  i.ptxLine = 31;
  i.ptx = "ld.global.f32 %f1, [%rd4];";
  i.sourceFile = "vecadd.cu";
  i.sourceLine = 7;
  i.space = "global";
  i.op = "ld";
  i.widthBytes = 4;
  i.executed = 32768;
  i.threads = 1048576;
  i.requests = 32768;
  i.sectors = 163840;
  i.sectorsIdeal = 131072;
  r.instructions.push_back(i);
  r.checkPassed = true;
  r.checkDetail = "out == a + b";
  r.notes = {"SASS from cuobjdump"};
  return r;
}

std::string errorFor(json launch) {
  auto r = resultsFromJson(json{{"launches", json::array({launch})}}, "measured.json");
  EXPECT_FALSE(r.ok());
  return r.ok() ? std::string() : r.error().message;
}

} // namespace

TEST(ResultJson, RoundTripKeepsEveryField) {
  const LaunchResult a = sample();
  const json j = toJson(std::vector<LaunchResult>{a});
  auto back = resultsFromJson(j, "x.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->size(), 1u);
  const LaunchResult &b = back->front();
  EXPECT_EQ(b.name, a.name);
  EXPECT_EQ(b.kernel, a.kernel);
  EXPECT_EQ(b.grid, a.grid);
  EXPECT_EQ(b.block, a.block);
  EXPECT_EQ(b.device, a.device);
  EXPECT_EQ(b.sassSource, a.sassSource);
  EXPECT_EQ(b.metrics, a.metrics);
  EXPECT_EQ(b.checkPassed, a.checkPassed);
  EXPECT_EQ(b.checkDetail, a.checkDetail);
  EXPECT_EQ(b.notes, a.notes);
  ASSERT_EQ(b.instructions.size(), 1u);
  const auto &x = b.instructions[0];
  EXPECT_EQ(x.sassPc, std::optional<std::uint64_t>(0x90));
  EXPECT_EQ(x.sass, "LDG.E R2, desc[UR4][R2.64]");
  EXPECT_EQ(x.ptxLine, 31);
  EXPECT_EQ(x.sourceFile, "vecadd.cu");
  EXPECT_EQ(x.sourceLine, 7);
  EXPECT_EQ(x.widthBytes, 4u);
  EXPECT_EQ(x.sectors, 163840u);
  EXPECT_EQ(x.sectorsIdeal, 131072u);
  EXPECT_EQ(x.threads, 1048576u);
  // Integral metrics are written as integers, others as numbers.
  EXPECT_TRUE(j["launches"][0]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"].is_number_integer());
  EXPECT_EQ(j["launches"][0]["instructions"][0]["sectors_ideal"], 131072);
}

TEST(ResultJson, UnknownOptionalFieldsAreOmitted) {
  LaunchResult r;
  r.name = "k";
  InstructionRecord i;
  i.space = "shared";
  i.op = "st";
  r.instructions.push_back(i);
  const json j = toJson(r);
  for (const char *key : {"device", "sass_source", "check", "notes", "kernel", "arch"})
    EXPECT_FALSE(j.contains(key)) << key;
  const json &ins = j["instructions"][0];
  for (const char *key : {"sass_pc", "sass", "ptx_line", "ptx", "source"})
    EXPECT_FALSE(ins.contains(key)) << key;
  EXPECT_EQ(ins["space"], "shared");
  EXPECT_EQ(ins["wavefronts"], 0);
}

TEST(ResultJson, AcceptsHexPcAndSingleLaunchObject) {
  auto r = resultsFromJson(json{{"name", "k"}, {"instructions", {{{"sass_pc", "0x00a0"}}}}}, "one.json");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->front().instructions[0].sassPc, std::optional<std::uint64_t>(160));
}

TEST(ResultJson, EveryBadKeyIsNamedWithItsPath) {
  json ok = toJson(sample());
  struct Case {
    std::string pointer;
    json value;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"/instructions/0/sectors", -5, "measured.json: launches[0].instructions[0].sectors: expected a non-negative integer"},
      {"/instructions/0/executed", "many", "launches[0].instructions[0].executed: expected a non-negative integer"},
      {"/instructions/0/sectors_ideal", 1.5, "instructions[0].sectors_ideal: expected a non-negative integer"},
      {"/instructions/0/wavefronts", json::array(), "instructions[0].wavefronts: expected"},
      {"/instructions/0/wavefronts_ideal", true, "instructions[0].wavefronts_ideal: expected"},
      {"/instructions/0/conflict_ways_max", -1, "instructions[0].conflict_ways_max: expected"},
      {"/instructions/0/threads", "x", "instructions[0].threads: expected"},
      {"/instructions/0/requests", "x", "instructions[0].requests: expected"},
      {"/instructions/0/width_bytes", "4", "instructions[0].width_bytes: expected"},
      {"/instructions/0/sass_pc", "zz", "instructions[0].sass_pc: expected"},
      {"/instructions/0/sass", 3, "instructions[0].sass: expected a string"},
      {"/instructions/0/ptx_line", "x", "instructions[0].ptx_line: expected an integer"},
      {"/instructions/0/ptx", 3, "instructions[0].ptx: expected a string"},
      {"/instructions/0/space", 1, "instructions[0].space: expected a string"},
      {"/instructions/0/op", 1, "instructions[0].op: expected a string"},
      {"/instructions/0/source", "vecadd.cu", "instructions[0].source: expected an object"},
      {"/instructions/0/source/line", "7", "instructions[0].source.line: expected an integer"},
      {"/instructions/0/source/file", 7, "instructions[0].source.file: expected a string"},
      {"/instructions/0", 5, "launches[0].instructions[0]: expected an object"},
      {"/instructions", json::object(), "launches[0].instructions: expected an array"},
      {"/metrics/dram__bytes_read.sum", "1 MB", "launches[0].metrics.dram__bytes_read.sum: expected a number"},
      {"/metrics", json::array(), "launches[0].metrics: expected an object"},
      {"/grid", json::array({64, 0, 1}), "launches[0].grid[1]: expected a positive integer"},
      {"/block", "32x8", "launches[0].block: expected an array"},
      {"/name", 3, "launches[0].name: expected a string"},
      {"/kernel", 3, "launches[0].kernel: expected a string"},
      {"/arch", 90, "launches[0].arch: expected a string"},
      {"/device", 0, "launches[0].device: expected a string"},
      {"/sass_source", 0, "launches[0].sass_source: expected a string"},
      {"/check/passed", "yes", "launches[0].check.passed: expected true or false"},
      {"/check/detail", 1, "launches[0].check.detail: expected a string"},
      {"/check", true, "launches[0].check: expected an object"},
      {"/notes/0", 1, "launches[0].notes[0]: expected a string"},
      {"/notes", "n", "launches[0].notes: expected an array"},
  };
  for (const auto &c : cases) {
    json bad = ok;
    bad[json::json_pointer(c.pointer)] = c.value;
    const std::string msg = errorFor(bad);
    EXPECT_NE(msg.find(c.expected), std::string::npos) << c.pointer << " gave: " << msg;
  }
  json noName = ok;
  noName.erase("name");
  EXPECT_NE(errorFor(noName).find("launches[0].name: missing"), std::string::npos);
  auto notArray = resultsFromJson(json{{"launches", 3}}, "m.json");
  ASSERT_FALSE(notArray.ok());
  EXPECT_NE(notArray.error().message.find("m.json: launches: expected an array"), std::string::npos);
}

TEST(ResultJson, LoadResultsNamesTheFile) {
  auto missing = loadResults("/nonexistent/measured.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/measured.json: cannot open"), std::string::npos);
  auto badKey = loadResults(std::string(WARPLENS_TEST_DATA) + "/data/measured_badkey.json");
  ASSERT_FALSE(badKey.ok());
  EXPECT_NE(badKey.error().message.find(
                "measured_badkey.json: launches[0].instructions[1].sectors: expected a non-negative integer"),
            std::string::npos)
      << badKey.error().message;
  auto good = loadResults(std::string(WARPLENS_TEST_DATA) + "/data/predicted.json");
  ASSERT_TRUE(good.ok()) << good.error().message;
  EXPECT_EQ(good->size(), 2u);
}
