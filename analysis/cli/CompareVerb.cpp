/// \file
/// `warplens compare PREDICTED MEASURED`: predicted vs measured per kernel and per SASS
/// instruction; exit 0 within tolerance, 1 on any mismatch, 2 on bad input.
#include "analysis/cli/Verbs.h"

#include "analysis/Metrics.h"
#include "analysis/compare/Compare.h"
#include "analysis/compare/CompareViews.h"
#include "analysis/compare/NcuCsv.h"
#include "analysis/views/ReportBuilder.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <ostream>
#include <sstream>

namespace warplens::cli {

namespace po = boost::program_options;

namespace {

const char *kHelp = R"(usage: warplens compare PREDICTED MEASURED [options]

Checks predictions against a GPU, launch by launch and SASS instruction by instruction.

  PREDICTED   warplens JSON from `warplens suite ... --format json -o predicted.json`
  MEASURED    warplens JSON from `warplens probe SUITE -o measured.json`, or an Nsight Compute
              CSV: `ncu --csv --page raw ...` (kernel totals) or
              `ncu --csv --page source --print-source sass ...` (per SASS instruction).
              The format is recognised from the content.

Matching: launches by name (then by kernel name, in order, for ncu CSVs); instructions by
SASS pc, falling back to source line + space + op + order when a side has no pcs.

What must agree:
  per instruction   executed, sectors, sectors_ideal, wavefronts, wavefronts_ideal: exactly
                    (these are the CUPTI SASS metrics, computed from real addresses)
  smsp__sass_*      exactly
  l1tex__t_*        exactly (global requests and sectors match a sector model exactly)
  l1tex__data_*     measured may exceed predicted by 5% of the predicted wavefronts
                    (shared wavefronts and bank conflicts carry L1 arbitration noise)
  dram__*, lts__*   within 10% either way
A metric only the prediction has is listed, never a mismatch; measured metrics the model
cannot produce (launch__*, .avg/.max rollups, ...) are left out. An instruction only one side
has (with non-zero counts) is a mismatch.

options:
)";

const char *kExamples = R"(
examples:
  warplens compare predicted.json validation/h200/measured_seeds.json
  warplens compare predicted.json ncu_source.csv --only transpose_naive_f32_2048
  warplens compare p.json m.json --tolerance 'l1tex__data_*=0.10' --format markdown -o table.md
  warplens compare predicted.json measured.json --html report.html

exit status: 0 everything within tolerance, 1 any mismatch, 2 bad input (file and key named)
)";

/// "METRIC=0.05" or "METRIC=5%".
bool parseTolerance(const std::string &spec, analysis::CompareOptions &opt, std::string &error) {
  const auto eq = spec.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
    error = "--tolerance '" + spec + "': expected METRIC=REL (e.g. l1tex__data_*=0.05 or =5%)";
    return false;
  }
  std::string v = spec.substr(eq + 1);
  const bool percent = v.back() == '%';
  if (percent) v.pop_back();
  try {
    std::size_t used = 0;
    double rel = std::stod(v, &used);
    if (used != v.size() || rel < 0) throw 0;
    opt.overrides[spec.substr(0, eq)] = percent ? rel / 100.0 : rel;
  } catch (...) {
    error = "--tolerance '" + spec + "': '" + spec.substr(eq + 1) +
            "' is not a non-negative number (a fraction like 0.05, or 5%)";
    return false;
  }
  return true;
}

} // namespace

int compareMain(const Args &args, std::ostream &out, std::ostream &err) {
  po::options_description desc;
  desc.add_options()
      ("help,h", "this help")
      ("tolerance", po::value<std::vector<std::string>>()->composing(),
       "METRIC=REL: relative tolerance (fraction or N%) for a metric, an instruction field "
       "(executed, sectors, ...) or a prefix ending in '*'; repeatable; longest match wins")
      ("format", po::value<std::string>()->default_value("text"), "text | json | markdown")
      ("only", po::value<std::string>(), "compare only the launch with this name")
      ("time-share", po::value<double>(),
       "fail unless at least this share (0..1) of the launches' gpu__time_duration.sum is within "
       "15% (durations are otherwise informational per launch)")
      ("claims", po::value<std::string>(),
       "with --format markdown: add a 'seed claims vs measured' table from this JSON "
       "({\"launch name\": \"claim\"})")
      ("output,o", po::value<std::string>(), "write the report to FILE instead of stdout")
      ("expect-mismatches", po::value<std::string>(),
       "FILE lists the launches known to mismatch (one name per line, '#' comments): exit 0 "
       "only when exactly those launches mismatch")
      ("html", po::value<std::string>(),
       "also write the HTML report (predicted vs measured per instruction, the kernels' source "
       "with per-line heat) to FILE");
  po::options_description hidden;
  hidden.add_options()("files", po::value<std::vector<std::string>>());
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("files", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error &e) {
    err << "warplens compare: " << e.what() << "\n(see warplens compare --help)\n";
    return 2;
  }
  if (vm.count("help")) {
    out << kHelp << desc << kExamples;
    return 0;
  }
  const auto files = vm.count("files") ? vm["files"].as<std::vector<std::string>>()
                                       : std::vector<std::string>{};
  if (files.size() != 2) {
    err << "warplens compare: expected PREDICTED and MEASURED, got " << files.size()
        << " file(s)\n(see warplens compare --help)\n";
    return 2;
  }
  const std::string format = vm["format"].as<std::string>();
  if (format != "text" && format != "json" && format != "markdown") {
    err << "warplens compare: --format '" << format << "': expected text, json or markdown\n";
    return 2;
  }
  analysis::CompareOptions opt;
  if (vm.count("tolerance"))
    for (const auto &t : vm["tolerance"].as<std::vector<std::string>>()) {
      std::string e;
      if (!parseTolerance(t, opt, e)) {
        err << "warplens compare: " << e << "\n";
        return 2;
      }
    }
  if (vm.count("only")) opt.only = vm["only"].as<std::string>();
  if (vm.count("time-share")) opt.timeShare = vm["time-share"].as<double>();

  auto predicted = launch::loadResults(files[0]);
  if (!predicted) {
    err << "warplens compare: " << predicted.error().message << "\n";
    return 2;
  }
  auto measured = analysis::loadMeasured(files[1]);
  if (!measured) {
    err << "warplens compare: " << measured.error().message << "\n";
    return 2;
  }
  if (!opt.only.empty()) {
    bool found = false;
    for (const auto &p : *predicted) found = found || p.name == opt.only;
    if (!found) {
      err << "warplens compare: --only '" << opt.only << "': no such launch in " << files[0]
          << "\n";
      return 2;
    }
  }
  nlohmann::json claims;
  if (vm.count("claims")) {
    const std::string path = vm["claims"].as<std::string>();
    std::ifstream f(path);
    if (!f) {
      err << "warplens compare: " << path << ": cannot open\n";
      return 2;
    }
    try {
      claims = nlohmann::json::parse(f);
    } catch (const nlohmann::json::parse_error &e) {
      err << "warplens compare: " << path << ": not valid JSON (" << e.what() << ")\n";
      return 2;
    }
    if (!claims.is_object()) {
      err << "warplens compare: " << path << ": expected {\"launch name\": \"claim\", ...}\n";
      return 2;
    }
  }
  opt.instructionFields = measured->instructionFields;

  const auto report = analysis::compare(*predicted, measured->launches, opt);
  if (report.launches.empty()) {
    err << "warplens compare: no launch of " << files[0] << " matches one in " << files[1]
        << " (by name or kernel)\n";
    return 2;
  }
  if (vm.count("html")) {
    const std::string path = vm["html"].as<std::string>();
    analysis::Report page;
    page.title = "warplens report: " + std::filesystem::path(files[0]).filename().string() +
                 " vs " + std::filesystem::path(files[1]).filename().string();
    page.command = "warplens compare " + files[0] + " " + files[1];
    page.diagrams = false;
    page.notes.push_back("no diagrams: the costliest warps need the analysis itself "
                         "(warplens suite SUITE --html FILE --measured MEASURED draws them)");
    for (const auto &p : *predicted)
      if (opt.only.empty() || p.name == opt.only)
        page.launches.push_back(analysis::reportLaunch(p, nullptr, nullptr, nullptr));
    analysis::addMeasurements(page, *measured, files[1]);
    analysis::addSources(page, {std::filesystem::path(files[0]).parent_path().string()});
    const std::string html = analysis::renderReportHtml(page);
    std::ofstream f(path, std::ios::binary);
    if (!f || !(f << html)) {
      err << "warplens compare: --html " << path << ": cannot write\n";
      return 2;
    }
  }
  std::string text;
  if (format == "json") text = analysis::compareToJson(report).dump(2) + "\n";
  else if (format == "markdown") {
    text = analysis::renderCompareMarkdown(report);
    if (vm.count("claims")) text += "\n" + analysis::renderClaimsMarkdown(report, claims);
  } else text = analysis::renderCompareText(report);

  if (vm.count("output")) {
    const std::string path = vm["output"].as<std::string>();
    std::ofstream f(path);
    if (!f || !(f << text)) {
      err << "warplens compare: " << path << ": cannot write\n";
      return 2;
    }
  } else {
    out << text;
  }
  if (vm.count("expect-mismatches")) {
    // Known, documented exceptions: the run passes only when exactly these launches mismatch,
    // so a regression and an unexpected fix both show.
    const std::string path = vm["expect-mismatches"].as<std::string>();
    std::ifstream f(path);
    if (!f) {
      err << "warplens compare: --expect-mismatches " << path << ": cannot open\n";
      return 2;
    }
    std::set<std::string> expected, actual;
    for (std::string line; std::getline(f, line);) {
      line = line.substr(0, line.find('#'));
      const auto b = line.find_first_not_of(" \t\r"), e = line.find_last_not_of(" \t\r");
      if (b != std::string::npos) expected.insert(line.substr(b, e - b + 1));
    }
    for (const auto &l : report.launches)
      if (!l.ok) actual.insert(l.name);
    bool same = true;
    for (const auto &n : actual)
      if (!expected.count(n)) same = false, err << "warplens compare: unexpected mismatch: " << n << "\n";
    for (const auto &n : expected)
      if (!actual.count(n)) same = false, err << "warplens compare: expected mismatch now matches: " << n << "\n";
    err << "warplens compare: " << actual.size() << " launches mismatch, " << expected.size()
        << " expected (" << path << ")" << (same ? ": as expected" : "") << "\n";
    return same ? 0 : 1;
  }
  return report.ok() ? 0 : 1;
}

} // namespace warplens::cli
