/// \file
/// Views of launch results (predicted or measured): pure functions from the report structs to
/// text tables and a self-contained HTML report (JSON via launch::toJson).
#pragma once

#include "launch/Result.h"

#include <string>
#include <vector>

namespace warplens::analysis {

/// One table per launch: kernel totals, then one row per memory instruction.
std::string renderResultsText(const std::vector<launch::LaunchResult> &results);
/// A single HTML file with the results' JSON embedded; no network access needed to view it.
std::string renderResultsHtml(const std::vector<launch::LaunchResult> &results);

} // namespace warplens::analysis
