/// \file
/// Replays every committed input of tests/fuzz/<target>/ (seeds and regression inputs of past
/// findings) through its fuzz target in the normal build, each within a time limit, so a fixed
/// crash or hang cannot come back unnoticed. (The limits' messages: LimitsTest.cpp.)
#include "src/FuzzTargets.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace warplens;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class CorpusReplay : public ::testing::TestWithParam<fuzz::NamedTarget> {};

TEST_P(CorpusReplay, EveryInputEndsQuickly) {
  const fuzz::NamedTarget t = GetParam();
  const fs::path dir = fs::path(WARPLENS_TEST_DATA) / std::string(t.name);
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::size_t n = 0;
  for (const auto &entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string bytes = readFile(entry.path());
    const auto start = std::chrono::steady_clock::now();
    t.fn(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Generous for a sanitizer build on a loaded 2-core machine; the hang this guards against
    // (issue 14: %r<-18>) ran for minutes.
    EXPECT_LT(s, 10.0) << entry.path();
    ++n;
  }
  EXPECT_GE(n, 3u) << "corpus " << dir << " should hold seeds";
}

INSTANTIATE_TEST_SUITE_P(Fuzz, CorpusReplay, ::testing::ValuesIn(fuzz::kTargets),
                         [](const auto &info) { return std::string(info.param.name); });

} // namespace
