/// \file
/// Runs one pattern: evaluates the index/mask expressions for every lane of the chosen warp(s),
/// builds model::AccessEvents and feeds them to the shared or global model.
#pragma once

#include "analysis/pattern/PatternReport.h"
#include "util/Expected.h"

namespace warplens::analysis {

/// Evaluates and models `options`. Errors (bad expression, division by zero with the lane,
/// negative or misaligned address, bad shape) name the token or lane; their status is 2.
Expected<PatternReport> runPattern(const PatternOptions &options);

} // namespace warplens::analysis
