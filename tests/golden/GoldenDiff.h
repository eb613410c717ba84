/// \file
/// Readable differences between expected and actual golden outputs: JSON compared after parsing
/// (key order ignored, numbers compared exactly, integer vs float counts as a change) and text
/// compared line by line.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace warplens::golden {

/// Every difference between two parsed JSON values, as "PATH: expected X, got Y" lines
/// (PATH like `$.totals.sectors` or `$.warps[0].lanes[3].bank`); at most `limit` lines plus a
/// "... N more" line. Empty when equal.
std::vector<std::string> jsonDifferences(const nlohmann::json &expected,
                                         const nlohmann::json &actual, std::size_t limit = 20);

/// The first differing lines of two texts, "" when equal: the line number, then up to
/// `context` lines from there as `- expected` / `+ actual`, and both line counts.
std::string textDifference(const std::string &expected, const std::string &actual,
                           std::size_t context = 6);

} // namespace warplens::golden
