/// \file
/// Unit tests of the golden comparison itself: a golden runner that cannot see a changed number,
/// a renamed key or a changed line would make every golden test pass vacuously.
#include "GoldenCase.h"
#include "GoldenDiff.h"

#include <gtest/gtest.h>

namespace warplens::golden {
namespace {

using nlohmann::json;

TEST(GoldenDiff, KeyOrderIsIgnored) {
  const json e = json::parse(R"({"a": 1, "b": {"x": [1, 2], "y": "s"}})");
  const json a = json::parse(R"({"b": {"y": "s", "x": [1, 2]}, "a": 1})");
  EXPECT_TRUE(jsonDifferences(e, a).empty());
}

TEST(GoldenDiff, ChangedNumberIsReportedWithItsPath) {
  const json e = json::parse(R"({"totals": {"sectors": 160}, "warps": [{"bank": 0}, {"bank": 3}]})");
  const json a = json::parse(R"({"totals": {"sectors": 161}, "warps": [{"bank": 0}, {"bank": 4}]})");
  const auto d = jsonDifferences(e, a);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0], "$.totals.sectors: expected 160 (integer), got 161 (integer)");
  EXPECT_EQ(d[1], "$.warps[1].bank: expected 3 (integer), got 4 (integer)");
}

TEST(GoldenDiff, NumbersAreExact) {
  EXPECT_EQ(jsonDifferences(json::parse("0.8"), json::parse("0.8000000000000002")).size(), 1u);
  EXPECT_EQ(jsonDifferences(json::parse("1.0"), json::parse("1")).size(), 1u); // float vs int
  EXPECT_TRUE(jsonDifferences(json::parse("18446744073709551615"),
                              json::parse("18446744073709551615")).empty());
  EXPECT_EQ(jsonDifferences(json::parse("-1"), json::parse("18446744073709551615")).size(), 1u);
}

TEST(GoldenDiff, MissingExtraKeysAndArraySizes) {
  const auto d = jsonDifferences(json::parse(R"({"a": 1, "l": [1, 2, 3]})"),
                                 json::parse(R"({"b": 1, "l": [1, 2]})"));
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0], "$.a: missing (expected 1)");
  EXPECT_EQ(d[1], "$.b: unexpected key (got 1)");
  EXPECT_EQ(d[2], "$.l: expected 3 elements, got 2");
}

TEST(GoldenDiff, ManyDifferencesAreCapped) {
  json e = json::array(), a = json::array();
  for (int i = 0; i < 50; ++i) {
    e.push_back(i);
    a.push_back(i + 1);
  }
  const auto d = jsonDifferences(e, a, 5);
  ASSERT_EQ(d.size(), 6u);
  EXPECT_EQ(d.back(), "... 45 more differences");
}

TEST(GoldenDiff, TextShowsFirstDifferingLine) {
  EXPECT_EQ(textDifference("a\nb\n", "a\nb\n"), "");
  const std::string d = textDifference("a\nb\nc\n", "a\nB\nc\n", 2);
  EXPECT_EQ(d, "first difference at line 2 (expected 3 lines, got 3):\n  - b\n  + B\n  - c\n  + c\n");
  EXPECT_NE(textDifference("a\n", "a\nextra\n").find("  - <end of expected>\n  + extra"),
            std::string::npos);
  EXPECT_NE(textDifference("a\n", "a").find("final newline"), std::string::npos);
}

TEST(GoldenCase, FormatOptionDecidesTheJsonRun) {
  EXPECT_EQ(jsonArgs("pattern --index tx"), "pattern --index tx --format json");
  EXPECT_EQ(jsonArgs("pattern --format json --index tx"), "pattern --format json --index tx");
  EXPECT_EQ(jsonArgs("pattern --format=svg"), "pattern --format=svg");
  EXPECT_FALSE(hasFormatOption("pattern --index \"formatted\""));
}

} // namespace
} // namespace warplens::golden
