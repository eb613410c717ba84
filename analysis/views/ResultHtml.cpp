/// \file
/// HTML view of launch results alone (`--format html` through renderResults): the report page
/// of Report.h with diagnoses, but without diagrams, source text or measurements (the CLI verbs
/// add those through ReportBuilder when they have them).
#include "analysis/views/ReportBuilder.h"
#include "analysis/views/ResultViews.h"

namespace warplens::analysis {

std::string renderResultsHtml(const std::vector<launch::LaunchResult> &results) {
  Report report;
  report.diagrams = false;
  for (const auto &r : results) report.launches.push_back(reportLaunch(r, nullptr, nullptr, nullptr));
  return renderReportHtml(report);
}

} // namespace warplens::analysis
