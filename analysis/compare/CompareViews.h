/// \file
/// Views of a CompareReport: aligned text, JSON, and markdown (the tables of VALIDATION.md),
/// plus the "seed claims vs measured" table built from kernels/claims.json.
#pragma once

#include "analysis/compare/Compare.h"

#include <nlohmann/json.hpp>

#include <string>

namespace warplens::analysis {

/// Per launch: metric, predicted, measured, diff, tolerance, ok/MISMATCH; then one row per
/// instruction; then a summary line.
std::string renderCompareText(const CompareReport &report);
nlohmann::json compareToJson(const CompareReport &report);
/// Summary, per-kernel tables, per-instruction tables and a "Mismatches to explain" section.
std::string renderCompareMarkdown(const CompareReport &report);

/// claims: {"launch name": "claim text", ...}. A claim "N-way ..." is checked against the
/// largest measured shared wavefronts/ideal ratio, "N% ..." against the lowest measured global
/// coalescing efficiency, "N sectors ..." against the largest sectors per request; any other
/// claim is shown with the measured numbers and no verdict.
std::string renderClaimsMarkdown(const CompareReport &report, const nlohmann::json &claims);

/// "exact", "+5%", "±10%", "-2%/+5%".
std::string formatTolerance(const Tolerance &t);

} // namespace warplens::analysis
