/// \file
/// The HTML report: reportToJson (the page's data) and renderReportHtml, which embeds that JSON
/// into the static page of ReportPage.cpp (inline CSS and JS, nothing from the network).
#include "analysis/views/Report.h"
#include "analysis/views/ReportPage.h"

namespace warplens::analysis {

namespace {

/// JSON inside <script>: "</" would end the element, so it becomes "<\/" (a JSON escape of
/// '/'); "<!" becomes "\u003c!" so "<!--" cannot open a comment.
std::string scriptSafe(const std::string &json) {
  std::string out;
  out.reserve(json.size() + json.size() / 64);
  for (std::size_t i = 0; i < json.size(); ++i) {
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/') {
      out += "<\\";
      continue;
    }
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '!') {
      out += "\\u003c";
      continue;
    }
    out += json[i];
  }
  return out;
}

nlohmann::json optionalNumber(const std::optional<double> &v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json diagramJson(const ReportDiagram &d) {
  nlohmann::json j = {{"svg", d.svg},           {"unit", d.unit},   {"cost", d.cost},
                      {"ideal", d.ideal},       {"warp", d.warp},   {"executions", d.executions},
                      {"as_bad", d.asBad},      {"why", d.why}};
  nlohmann::json fixes = nlohmann::json::array();
  for (const ReportFix &f : d.fixes) fixes.push_back({{"label", f.label}, {"count", f.count}});
  j["fixes"] = fixes;
  return j;
}

nlohmann::json instructionJson(const ReportInstruction &i) {
  nlohmann::json j = launch::toJson(i.predicted);
  j["waste_sectors"] = wastedSectors(i.predicted);
  j["waste_wavefronts"] = wastedWavefronts(i.predicted);
  j["severity"] = i.diagnosis.severity;
  j["headline"] = i.diagnosis.headline;
  if (!i.diagnosis.fix.empty()) j["fix"] = i.diagnosis.fix;
  if (i.diagram) j["diagram"] = diagramJson(*i.diagram);
  if (i.measured) j["measured"] = launch::toJson(*i.measured);
  if (!i.verdict.empty()) {
    j["verdict"] = i.verdict;
    j["ok"] = i.ok;
  }
  if (i.measuredOnly) j["measured_only"] = true;
  if (!i.mismatches.empty()) j["mismatches"] = i.mismatches;
  return j;
}

nlohmann::json launchJson(const ReportLaunch &L) {
  nlohmann::json j = launch::toJson(L.result); // name, kernel, grid, block, metrics, check, notes
  nlohmann::json ins = nlohmann::json::array();
  for (const ReportInstruction &i : L.instructions) ins.push_back(instructionJson(i));
  j["instructions"] = ins;
  if (!L.sourceKey.empty()) {
    j["source"] = L.sourceKey;
    j["first_line"] = L.firstLine;
    j["last_line"] = L.lastLine;
  }
  if (L.measured) {
    nlohmann::json m = {{"device", L.device},   {"ok", L.measuredOk},     {"exact", L.exact},
                        {"group", L.byGroup},   {"line", L.byLine},       {"mismatched", L.mismatched}};
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto &[k, v] : L.measuredMetrics) metrics[k] = v;
    m["metrics"] = metrics;
    nlohmann::json rows = nlohmann::json::array();
    for (const ReportMetric &r : L.metricRows)
      rows.push_back({{"metric", r.name},
                      {"predicted", optionalNumber(r.predicted)},
                      {"measured", optionalNumber(r.measured)},
                      {"tolerance", r.tolerance},
                      {"compared", r.compared},
                      {"ok", r.ok}});
    m["rows"] = rows;
    j["measured"] = m;
  }
  return j;
}

} // namespace

nlohmann::json reportToJson(const Report &report) {
  nlohmann::json j = {{"title", report.title},
                      {"command", report.command},
                      {"diagrams", report.diagrams},
                      {"notes", report.notes},
                      {"only_predicted", report.onlyPredicted},
                      {"only_measured", report.onlyMeasured}};
  if (!report.measuredFile.empty()) {
    j["measured_file"] = report.measuredFile;
    j["measured_format"] = report.measuredFormat;
  }
  nlohmann::json sources = nlohmann::json::object();
  for (const auto &[k, lines] : report.sources) sources[k] = lines;
  j["sources"] = sources;
  nlohmann::json launches = nlohmann::json::array();
  for (const ReportLaunch &L : report.launches) launches.push_back(launchJson(L));
  j["launches"] = launches;
  return j;
}

std::string renderReportHtml(const Report &report) {
  // Replacement characters rather than an exception for invalid UTF-8 in sources or notes.
  const std::string json =
      reportToJson(report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return reportPageHead(report.title) + scriptSafe(json) + reportPageTail();
}

} // namespace warplens::analysis
