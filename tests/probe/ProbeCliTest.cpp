/// \file
/// `warplens probe` bad input (exit 2, message names the token) — checked before any GPU work,
/// so it runs on machines without a GPU; without CUPTI the verb says so and exits 2.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace {

struct CliRun {
  int status = -1;
  std::string output;
};

CliRun runCli(const std::string &args) {
  CliRun r;
  std::string cmd = std::string(WARPLENS_BIN) + " " + args + " 2>&1";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) r.output += buf.data();
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

const std::string kMicro = std::string(WARPLENS_TEST_DATA) + "/../../kernels/micro/micro.json";

#ifdef WARPLENS_HAVE_CUPTI
TEST(ProbeCli, UnknownReplayModeIsBadInput) {
  CliRun r = runCli("probe " + kMicro + " --replay sideways");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("'sideways'"), std::string::npos) << r.output;
}

TEST(ProbeCli, UnknownOnlyNameIsBadInput) {
  CliRun r = runCli("probe " + kMicro + " --only no_such_launch");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("'no_such_launch'"), std::string::npos) << r.output;
}

TEST(ProbeCli, MissingSuiteFileIsBadInput) {
  CliRun r = runCli("probe /nonexistent/suite.json");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("/nonexistent/suite.json"), std::string::npos) << r.output;
}
#else
TEST(ProbeCli, SaysItWasBuiltWithoutCupti) {
  CliRun r = runCli("probe " + kMicro);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("built without CUDA/CUPTI"), std::string::npos) << r.output;
}
#endif

} // namespace
