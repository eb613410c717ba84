/// \file
/// test_golden: one parameterised test per folder under tests/golden/ (found at run time): runs
/// `warplens <cmd>` from the repo root and compares exit status, JSON (parsed) and text.
#include "GoldenCase.h"
#include "GoldenDiff.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cctype>

namespace warplens::golden {

/// gtest prints the case by its folder and command instead of a byte dump.
void PrintTo(const GoldenCase &c, std::ostream *os) { *os << c.name << ": warplens " << c.args; }

namespace {

namespace fs = std::filesystem;

fs::path goldenRoot() { return fs::path(WARPLENS_TEST_DATA).lexically_normal(); }

/// tests/golden/ → the repository root (paths in `cmd` are relative to it).
fs::path repoRoot() {
  fs::path p = goldenRoot();
  if (!p.has_filename()) p = p.parent_path(); // trailing slash
  return p.parent_path().parent_path();
}

std::string head(const std::string &s, std::size_t n = 600) {
  return s.size() > n ? s.substr(0, n) + "..." : s;
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, MatchesExpected) {
  const GoldenCase &c = GetParam();
  ASSERT_FALSE(c.args.empty()) << c.dir / "cmd" << " is empty";
  ASSERT_TRUE(c.expectedText || c.expectedJson)
      << c.dir << " has neither expected.txt nor expected.json";
  if (const std::string why = missingRequirement(c, repoRoot()); !why.empty())
    GTEST_SKIP() << c.name << " needs the CUDA toolchain named in `requires`: " << why;

  if (c.expectedText) {
    const CliOutput r = runCli(WARPLENS_BIN, c.args, repoRoot());
    EXPECT_EQ(r.status, c.expectedStatus)
        << "warplens " << c.args << "\nstderr: " << head(r.err);
    const std::string &got = c.expectedStatus == 0 ? r.out : r.err;
    const std::string diff = textDifference(*c.expectedText, got);
    EXPECT_TRUE(diff.empty()) << "warplens " << c.args << "\n"
                              << (c.expectedStatus == 0 ? "stdout" : "stderr") << " vs "
                              << (c.dir / "expected.txt").string() << ": " << diff;
  }

  if (c.expectedJson) {
    const std::string args = jsonArgs(c.args);
    const CliOutput r = runCli(WARPLENS_BIN, args, repoRoot());
    EXPECT_EQ(r.status, c.expectedStatus) << "warplens " << args << "\nstderr: " << head(r.err);
    nlohmann::json expected, actual;
    try {
      expected = nlohmann::json::parse(*c.expectedJson);
    } catch (const nlohmann::json::exception &e) {
      FAIL() << (c.dir / "expected.json").string() << " is not JSON: " << e.what();
    }
    try {
      actual = nlohmann::json::parse(r.out);
    } catch (const nlohmann::json::exception &e) {
      FAIL() << "warplens " << args << " did not print JSON (" << e.what()
             << "):\n" << head(r.out) << "\nstderr: " << head(r.err);
    }
    std::string report;
    for (const std::string &line : jsonDifferences(expected, actual)) report += "  " + line + "\n";
    EXPECT_TRUE(report.empty()) << "warplens " << args << "\nJSON vs "
                                << (c.dir / "expected.json").string() << ":\n" << report;
  }
}

std::string caseName(const ::testing::TestParamInfo<GoldenCase> &info) {
  std::string n = info.param.name;
  for (char &ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Cases, Golden, ::testing::ValuesIn(discoverCases(goldenRoot())),
                         caseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Golden);

/// Guards against a moved folder or a broken discovery silently running zero cases.
TEST(GoldenSuite, FindsTheCases) {
  const std::vector<GoldenCase> cases = discoverCases(goldenRoot());
  EXPECT_GE(cases.size(), 15u) << "golden cases under " << goldenRoot();
  for (const GoldenCase &c : cases)
    EXPECT_TRUE(c.expectedText || c.expectedJson) << c.name << " has no expected output";
}

} // namespace
} // namespace warplens::golden
