/// \file
/// Views of `warplens explain` for a pattern: the teaching text (what conflicts, why, which fix)
/// and its JSON. Pure functions of ExplainReport.
#pragma once

#include "analysis/pattern/PatternExplainer.h"

#include <nlohmann/json.hpp>
#include <string>

namespace warplens::analysis {

std::string renderExplainText(const ExplainReport &report);
nlohmann::json explainToJson(const ExplainReport &report);

} // namespace warplens::analysis
