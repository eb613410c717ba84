/// \file
/// The HTML report's plain structs: per launch the predicted result, a one-line diagnosis and
/// (for costly instructions) the costliest warp's diagram per instruction, the source lines, and
/// measured values with verdicts when a measurement was given. Built by ReportBuilder, rendered
/// by renderReportHtml (a static page with this data embedded as JSON).
#pragma once

#include "launch/Result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplens::analysis {

/// What an instruction costs beyond ideal and what to do about it, in one line.
struct Diagnosis {
  int severity = 0;     ///< 0 ideal (or no cost), 1 some waste (< 2x ideal), 2 at least 2x ideal
  std::string headline; ///< "store: 32 sectors per request, 12.5% efficient"
  std::string fix;      ///< "transpose through shared memory ..."; empty when ideal
};

/// A rewrite evaluated with the same model on the costliest warp.
struct ReportFix {
  std::string label;
  std::uint64_t count = 0; ///< wavefronts (shared) or sectors (global) of that warp after the fix
};

/// The costliest warp of one instruction, drawn as `warplens explain` draws it.
struct ReportDiagram {
  std::string svg;                ///< renderPatternSvg of the warp (no xmlns: inline in HTML)
  std::string unit;               ///< "wavefronts" or "sectors"
  std::uint32_t cost = 0;         ///< that warp's wavefronts or sectors
  std::uint32_t ideal = 0;        ///< that warp's ideal
  std::uint64_t executions = 0;   ///< warp executions of the instruction
  std::uint64_t asBad = 0;        ///< executions as costly as this one
  std::string warp;               ///< "warp 0 of block (0,0,0)"
  /// Byte distance between consecutive active lanes when it is the same for all of them.
  std::optional<std::int64_t> laneStride;
  unsigned offsetInSector = 0;    ///< the lowest active address modulo the sector size
  std::vector<std::string> why;   ///< explain's "what ideal takes" lines
  std::vector<ReportFix> fixes;   ///< best first
};

struct ReportInstruction {
  launch::InstructionRecord predicted; ///< or the measured record when measuredOnly
  Diagnosis diagnosis;
  std::optional<ReportDiagram> diagram;
  std::optional<launch::InstructionRecord> measured;
  std::string verdict;       ///< compare's verdict ("ok", "group ok", "MISMATCH", ...); empty = none
  bool ok = true;
  bool measuredOnly = false; ///< measured, with no predicted counterpart
  std::vector<std::string> mismatches; ///< "sectors 512 vs 520" for fields that differ
};

struct ReportMetric {
  std::string name;
  std::optional<double> predicted, measured;
  std::string tolerance; ///< "exact", "+15%" ...
  bool compared = false, ok = true;
};

struct ReportLaunch {
  launch::LaunchResult result; ///< the prediction; its instructions live in `instructions`
  std::vector<ReportInstruction> instructions;
  std::string sourceKey;       ///< key into Report::sources ("" when the source is unknown)
  int firstLine = 0, lastLine = 0; ///< the source lines to show (1-based, inclusive)
  // measured (when Report::measured)
  bool measured = false;
  std::string device;
  std::map<std::string, double> measuredMetrics;
  std::vector<ReportMetric> metricRows;
  bool measuredOk = true;
  std::size_t exact = 0, byGroup = 0, byLine = 0, mismatched = 0;
};

struct Report {
  std::string title = "warplens report";
  std::string command;           ///< how it was made ("warplens suite kernels/seeds_small.json")
  std::string measuredFile;      ///< empty = no measurement
  std::string measuredFormat;    ///< "warplens-json", "ncu-source-csv" ...
  bool diagrams = true;          ///< false when no analysis ran here (compare --html)
  std::vector<std::string> notes;
  std::vector<std::string> onlyPredicted, onlyMeasured; ///< launch names
  std::map<std::string, std::vector<std::string>> sources; ///< key → lines (without '\n')
  std::vector<ReportLaunch> launches;
};

/// sectors − ideal and wavefronts − ideal (0 when not above ideal).
std::uint64_t wastedSectors(const launch::InstructionRecord &r);
std::uint64_t wastedWavefronts(const launch::InstructionRecord &r);

/// The diagnosis of an instruction from its totals, refined by the costliest warp (its lanes'
/// stride, its best fix) when `diagram` is given.
Diagnosis diagnose(const launch::InstructionRecord &r, const ReportDiagram *diagram);

/// The page's data: everything above as JSON (instruction fields as in the result schema).
nlohmann::json reportToJson(const Report &report);
/// One self-contained HTML page (inline CSS and JS, reportToJson embedded; no network).
std::string renderReportHtml(const Report &report);

} // namespace warplens::analysis
