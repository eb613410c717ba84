/// \file
/// `warplens analyze` and `warplens suite` from the command line: exit status 0/1/2 and
/// messages naming the offending token, on a bundled PTX (no nvcc needed).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>

namespace {

const std::string kData = WARPLENS_TEST_DATA;
const std::string kBin = WARPLENS_BIN;

struct CliRun {
  int status = -1;
  std::string output; // stdout and stderr
};

CliRun run(const std::string &args, bool withStderr = true) {
  CliRun r;
  std::string cmd = "cd '" + kData + "' && '" + kBin + "' " + args + (withStderr ? " 2>&1" : " 2>/dev/null");
  FILE *p = popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// vecAddMisaligned on 64 elements, every pointer 4 bytes in (65 elements allocated).
const std::string kVecAdd =
    "analyze vecadd.ptx --sass none --threads 1 --kernel vecAddMisaligned --grid 1 --block 64 "
    "--arg buf:c:f32:65:poison@4 --arg buf:a:f32:65:iota@4 --arg buf:b:f32:65:random:3@4 --arg i32:64 ";

std::string tempFile(const std::string &name, const std::string &text) {
  auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p.string();
}

} // namespace

TEST(Cli, AnalyzePtxJson) {
  // 2 warps x 5 sectors (128 bytes from byte 4), ideal 4 each.
  CliRun r = run(kVecAdd + "--check '{\"c\": {\"add_of\": [\"a\", \"b\"], \"count\": 64}}' --format json", false);
  ASSERT_EQ(r.status, 0) << r.output;
  auto j = nlohmann::json::parse(r.output);
  ASSERT_EQ(j["launches"].size(), 1u);
  const auto &l = j["launches"][0];
  EXPECT_EQ(l["check"]["passed"], true) << l.dump();
  // DRAM (sm_90 rule, measured: 64 bytes per aligned 64-byte chunk read, one 32-byte fill per
  // partly written sector): a and b each bytes 4..259 = chunks 0..4 → 2 * 5 * 64 = 640; c writes
  // bytes 4..259, so sectors 0 and 8 are partly written → 2 * 32 = 64. 704 in all.
  EXPECT_EQ(l["metrics"]["dram__bytes_read.sum"], 704);
  int loads = 0;
  for (const auto &i : l["instructions"]) {
    EXPECT_EQ(i["requests"], 2);
    EXPECT_EQ(i["sectors"], 10);
    EXPECT_EQ(i["sectors_ideal"], 8);
    loads += i["op"] == "ld";
  }
  EXPECT_EQ(loads, 2);
}

TEST(Cli, FailedCheckExitsOne) {
  CliRun r = run(kVecAdd + "--check '{\"c\": {\"copy_of\": \"a\", \"count\": 64}}'");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("functional check FAILED"), std::string::npos) << r.output;
}

TEST(Cli, SampleBlocksOverTheCapExitsTwoAndNamesTheOption) {
  CliRun r = run("analyze vecadd.ptx --sass none --kernel vecAddMisaligned --grid 1 --block 32 --sample-blocks 65537");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--sample-blocks 65537: at most 65536"), std::string::npos) << r.output;
}

TEST(Cli, UnknownKernelExitsTwoAndNamesIt) {
  CliRun r = run("analyze vecadd.ptx --sass none --kernel noSuchKernel --grid 1 --block 32");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("noSuchKernel"), std::string::npos) << r.output;
}

TEST(Cli, BadArgTokenExitsTwoAndNamesIt) {
  CliRun r = run("analyze vecadd.ptx --sass none --kernel vecAddMisaligned --grid 1 --block 32 "
              "--arg buf:c:f33:64 --arg i32:64");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("unknown type 'f33'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--arg 'buf:c:f33:64'"), std::string::npos) << r.output;
  r = run("analyze vecadd.ptx --sass none --kernel vecAddMisaligned --grid 1,x --block 32");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--grid '1,x'"), std::string::npos) << r.output;
  r = run("analyze vecadd.ptx --bogus-option");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("bogus-option"), std::string::npos) << r.output;
}

TEST(Cli, BadSpecKeyExitsTwoAndNamesIt) {
  std::string spec = tempFile("warplens_h4_bad.json",
      "{\"launches\": [{\"source\": \"" + kData + "/vecadd.ptx\", \"kernel\": \"vecAddMisaligned\", "
      "\"gird\": [1,1,1], \"block\": [32,1,1]}]}");
  CliRun r = run("suite " + spec + " --sass none");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("launches[0].gird: unknown key"), std::string::npos) << r.output;
  r = run("analyze --spec " + spec);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("launches[0].gird"), std::string::npos) << r.output;
}

TEST(Cli, SuiteOnlyUnknownNameExitsTwo) {
  std::string spec = tempFile("warplens_h4_ok.json",
      "{\"launches\": [{\"name\": \"v\", \"source\": \"" + kData + "/vecadd.ptx\", "
      "\"kernel\": \"vecAddMisaligned\", \"grid\": [1], \"block\": [32], \"args\": ["
      "{\"buffer\": \"c\", \"type\": \"f32\", \"count\": 32}, {\"buffer\": \"a\", \"type\": \"f32\", \"count\": 32},"
      "{\"buffer\": \"b\", \"type\": \"f32\", \"count\": 32}, {\"value\": 32, \"type\": \"i32\"}]}]}");
  CliRun r = run("suite " + spec + " --sass none --only nope");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--only 'nope': no such launch (have: v)"), std::string::npos) << r.output;
  r = run("suite " + spec + " --sass none --threads 1 --format json", false);
  ASSERT_EQ(r.status, 0) << r.output;
  auto j = nlohmann::json::parse(r.output);
  ASSERT_EQ(j["launches"].size(), 1u);
  EXPECT_EQ(j["launches"][0]["name"], "v");
}
