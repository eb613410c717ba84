/// \file
/// `warplens compare` as a process: exit 0 within tolerance, 1 on a mismatch, 2 on bad input
/// with the offending file and key in the message.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace {

struct Run {
  int status;
  std::string output;
};

Run run(const std::string &args) {
  const std::string cmd = std::string(WARPLENS_BIN) + " compare " + args + " 2>&1";
  Run r{-1, ""};
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) r.output.append(buf.data(), n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string data(const char *f) { return std::string(WARPLENS_TEST_DATA) + "/data/" + f; }

} // namespace

TEST(CompareCli, WithinToleranceExitsZero) {
  auto r = run(data("predicted.json") + " " + data("measured_ok.json"));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("2 launches compared, 2 within tolerance, 0 mismatched; instructions "
                          "exactly matched: 4 of 4 (100.0%)"),
            std::string::npos) << r.output;
  // the shared-counter excess is shown: 1,070,000 − 1,048,576 = 21,424 (+2.0%)
  EXPECT_NE(r.output.find("+21424 (+2.0%)"), std::string::npos) << r.output;
}

TEST(CompareCli, MismatchExitsOne) {
  auto r = run(data("predicted.json") + " " + data("measured_bad.json"));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("1048576 vs 2097152"), std::string::npos) << r.output;
  auto only = run(data("predicted.json") + " " + data("measured_bad.json") +
                  " --only transpose_naive_f32_2048");
  EXPECT_EQ(only.status, 0) << only.output;
  auto md = run(data("predicted.json") + " " + data("measured_bad.json") + " --format markdown");
  EXPECT_EQ(md.status, 1);
  EXPECT_NE(md.output.find("## Mismatches to explain"), std::string::npos);
}

TEST(CompareCli, NcuCsvMeasurements) {
  auto src = run(data("predicted.json") + " " + data("ncu_source.csv"));
  EXPECT_EQ(src.status, 0) << src.output;
  EXPECT_NE(src.output.find("not measured: transpose_shared_16x16_f32"), std::string::npos)
      << src.output;
  auto raw = run(data("predicted.json") + " " + data("ncu_raw_units.csv") + " --format json");
  EXPECT_EQ(raw.status, 0) << raw.output;
  EXPECT_NE(raw.output.find("\"instructions_compared\": false"), std::string::npos) << raw.output;
}

TEST(CompareCli, BadInputExitsTwoNamingFileAndKey) {
  auto r = run(data("predicted.json") + " " + data("measured_badkey.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("measured_badkey.json: launches[0].instructions[1].sectors: expected a "
                          "non-negative integer"),
            std::string::npos) << r.output;
  auto tol = run(data("predicted.json") + " " + data("measured_ok.json") + " --tolerance dram__x=lots");
  EXPECT_EQ(tol.status, 2);
  EXPECT_NE(tol.output.find("--tolerance 'dram__x=lots'"), std::string::npos) << tol.output;
  auto one = run(data("predicted.json"));
  EXPECT_EQ(one.status, 2);
  auto fmt = run(data("predicted.json") + " " + data("measured_ok.json") + " --format xml");
  EXPECT_EQ(fmt.status, 2);
  EXPECT_NE(fmt.output.find("--format 'xml'"), std::string::npos);
  auto only = run(data("predicted.json") + " " + data("measured_ok.json") + " --only nope");
  EXPECT_EQ(only.status, 2);
  EXPECT_NE(only.output.find("--only 'nope'"), std::string::npos);
  auto help = run("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.output.find("exit status: 0 everything within tolerance"), std::string::npos);
}
