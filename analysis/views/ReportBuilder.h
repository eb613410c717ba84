/// \file
/// Assembles the HTML report's structs (Report.h) from analysis results: diagnoses and the
/// costliest warps' diagrams per instruction, measured values and verdicts (compare()), and
/// the kernels' source lines read from disk. Views stay pure; the file reading happens here.
#pragma once

#include "analysis/Pipeline.h"
#include "analysis/compare/NcuCsv.h"
#include "analysis/views/Report.h"
#include "arch/ArchSpec.h"
#include "launch/LaunchSpec.h"
#include "util/Expected.h"

#include <string>
#include <vector>

namespace warplens::analysis {

/// At most this many diagrams per launch (its costliest instructions), to keep pages small.
inline constexpr std::size_t kMaxDiagramsPerLaunch = 8;

/// One launch: a diagnosis for every instruction and, when `detail` holds the costliest warps
/// (Pipeline::analyze with wantWorst) and `spec`/`arch` are given, the diagram and evaluated
/// fixes of every instruction that costs more than ideal.
ReportLaunch reportLaunch(const launch::LaunchResult &result, const RunDetail *detail,
                          const launch::LaunchSpec *spec, const arch::ArchSpec *arch);

/// Adds measured values and verdicts: compare() of the report's predictions against `measured`
/// (launches by name, instructions by pc); `file` is shown on the page.
void addMeasurements(Report &report, const MeasuredInput &measured, const std::string &file);

/// Reads each launch's source file (the path the instructions name; if missing there, its file
/// name in each of `dirs`), and picks the lines of the function holding the instructions: from
/// the nearest line above them that starts in column 0 (with its `///` and `template` lines) to
/// the next closing brace in column 0 below them. Files that cannot be read
/// leave the launch without source text (the page then lists instructions by line number).
void addSources(Report &report, const std::vector<std::string> &dirs);

/// For the CLI: builds the page from finished results (no diagrams unless `launches` holds
/// them), adds `measuredPath` (probe JSON or ncu CSV) when not empty and the sources; error
/// (status 2) names the measured file.
Expected<std::string> renderReportPage(Report report, const std::string &measuredPath,
                                       const std::vector<std::string> &sourceDirs);

} // namespace warplens::analysis
