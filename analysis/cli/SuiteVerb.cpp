/// \file
/// `warplens suite`: every launch of a suite JSON through the offline pipeline, in suite order;
/// per-launch wall time and check outcome on stderr, results (text, JSON or HTML) on stdout or -o.
#include "analysis/Pipeline.h"
#include "analysis/cli/Verbs.h"
#include "analysis/views/ReportBuilder.h"
#include "arch/ArchSpec.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

namespace warplens::cli {

namespace po = boost::program_options;

int suiteMain(const Args &args, std::ostream &out, std::ostream &err) {
  po::options_description desc("options");
  std::string suite, sass = "auto", engine = "auto", mode = "auto", arch = "sm_90", format = "text", output, jsonOut, htmlOut,
      measuredPath;
  std::vector<std::string> only;
  unsigned threads = 0;
  std::uint64_t sampleBlocks = 0; // --sample-blocks
  std::string deviceName; // --device (time model)
  desc.add_options()("help,h", "this help")
      ("only", po::value(&only), "analyze only this launch (repeat, or NAME,NAME)")
      ("sass", po::value(&sass), "auto | none")
      ("engine", po::value(&engine),
       "auto | sass | ptx: sass executes the cubin's own SASS (exact per instruction, the default "
       "when nvcc and nvdisasm are available); ptx emulates the PTX and maps accesses to SASS")
      ("mode", po::value(&mode),
       "auto | full | address (SASS engine): address skips every instruction no address, guard or "
       "branch depends on (an SGEMM's FFMAs): identical counts, no values, no functional check; "
       "auto picks it for launches without a check")
      ("sample-blocks", po::value(&sampleBlocks),
       "run only N blocks (one per equal stratum of the grid) and extrapolate every count, with "
       "a 95% confidence interval per instruction in the JSON \"sampling\"; for launches too "
       "large to run whole. Only without a functional check; 0 (default) = exact, every block")
      ("arch", po::value(&arch), "architecture (warplens --list-arches)")
      ("device", po::value(&deviceName),
       "GPU of the time model: h100_sxm (default for sm_90), h200, or FILE.json")
      ("format", po::value(&format), "text | json | html")
      ("output,o", po::value(&output), "write here instead of stdout (e.g. predicted.json)")
      ("threads", po::value(&threads), "emulator worker threads (0 = all cores)")
      ("json", po::value(&jsonOut), "also write the JSON results to this file")
      ("html", po::value(&htmlOut), "also write the HTML report to this file")
      ("measured", po::value(&measuredPath),
       "HTML report: add measured columns and verdicts from this probe JSON or ncu CSV")
      ("suite", po::value(&suite), "the suite JSON");
  po::positional_options_description pos;
  pos.add("suite", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error &e) {
    err << "warplens suite: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    out << "usage: warplens suite SUITE.json [--only NAME]... [--sass auto|none] [--arch sm_90]\n"
           "                      [--format text|json|html] [-o predicted.json] [--threads N]\n"
           "                      [--json FILE] [--html FILE] [--measured FILE]\n\n"
           "Analyzes every launch of SUITE.json ({\"launches\": [...]}) offline. JSON output is\n"
           "{\"launches\": [...]} in suite order, ready for `warplens compare`. Per-launch wall time\n"
           "goes to stderr. The HTML report (--html FILE or --format html) ranks launches and\n"
           "instructions by waste, shows the source with per-line heat, the costliest warp of\n"
           "each costly instruction and, with --measured FILE (warplens probe JSON or an ncu\n"
           "CSV), measured columns and verdicts.\n"
           "A launch that cannot be analyzed is reported with its error (JSON \"error\") and the\n"
           "others keep their results.\n"
           "Exit status: 0 ok, 1 a functional check failed, 2 bad input or a launch not analyzed.\n\n"
        << desc;
    return 0;
  }
  auto fail = [&](const Error &e) {
    err << "warplens suite: " << e.message << "\n";
    return e.status ? e.status : 2;
  };
  if (suite.empty()) return fail(Error{"missing SUITE.json; see --help"});
  if (format != "text" && format != "json" && format != "html")
    return fail(Error{"--format: unknown format '" + format + "' (expected text, json or html)"});
  if (sass != "auto" && sass != "none")
    return fail(Error{"--sass: '" + sass + "' (a suite takes auto or none)"});
  const bool html = format == "html" || !htmlOut.empty();
  if (!measuredPath.empty() && !html)
    return fail(Error{"--measured '" + measuredPath +
                      "': only the HTML report uses it; add --html FILE or --format html "
                      "(or use warplens compare)"});
  auto loaded = launch::loadSpecFile(suite);
  if (!loaded) return fail(loaded.error());

  std::set<std::string> wanted;
  for (const auto &o : only) {
    std::stringstream ss(o);
    std::string n;
    while (std::getline(ss, n, ','))
      if (!n.empty()) wanted.insert(n);
  }
  std::vector<const launch::LaunchSpec *> specs;
  for (const auto &s : *loaded)
    if (wanted.empty() || wanted.count(s.name)) specs.push_back(&s);
  for (const auto &w : wanted) {
    bool found = false;
    for (const auto &s : *loaded) found = found || s.name == w;
    if (!found) {
      std::string names;
      for (const auto &s : *loaded) names += " " + s.name;
      return fail(Error{suite + ": --only '" + w + "': no such launch (have:" + names + ")"});
    }
  }

  analysis::AnalyzeOptions opt;
  opt.arch = arch;
  opt.device = deviceName;
  opt.sass = sass;
  opt.engine = engine;
  opt.mode = mode;
  if (sampleBlocks > 65536) { // one per-block collector each: keep memory bounded
    err << "warplens suite: --sample-blocks " << sampleBlocks << ": at most 65536 blocks can be sampled\n";
    return 2;
  }
  opt.sampleBlocks = sampleBlocks;
  opt.threads = threads;
  analysis::Pipeline pipeline(opt);
  std::vector<launch::LaunchResult> results;
  analysis::Report report;
  report.title = "warplens report: " + std::filesystem::path(suite).filename().string();
  report.command = "warplens suite " + suite;
  std::vector<std::string> sourceDirs;
  std::optional<arch::ArchSpec> archSpec;
  if (html) {
    auto a = arch::loadArch(arch);
    if (!a) return fail(Error{"--arch: " + a.error().message});
    archSpec = std::move(*a);
  }
  int failedChecks = 0, failedLaunches = 0;
  auto total0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    auto t0 = std::chrono::steady_clock::now();
    analysis::RunDetail detail;
    detail.wantWorst = html; // the report draws the costliest warp of costly instructions
    auto r = pipeline.analyze(*specs[i], &detail);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r) {
      // Suite isolation: a launch that cannot be analyzed is reported with its error (file, line,
      // token); the other launches keep their results and the exit status says one failed.
      err << "[" << i + 1 << "/" << specs.size() << "] " << specs[i]->name
          << ": NOT ANALYZED: " << r.error().message << "\n";
      ++failedLaunches;
      launch::LaunchResult bad;
      bad.name = specs[i]->name;
      bad.kernel = specs[i]->kernel;
      bad.grid = specs[i]->grid;
      bad.block = specs[i]->block;
      bad.arch = arch;
      bad.error = r.error().message;
      r = std::move(bad);
    }
    err << "[" << i + 1 << "/" << specs.size() << "] " << specs[i]->name << ": " << std::fixed
        << std::setprecision(2) << secs << " s";
    if (r->checkPassed) err << (*r->checkPassed ? ", check passed" : ", CHECK FAILED: " + r->checkDetail);
    if (detail.stats.threadInstructions) { // scripts/bench reads these
      const auto &st = detail.stats;
      err << ", " << std::setprecision(3) << st.threadInstructions / 1e9 << " G thread-instructions";
      if (st.addressOnly)
        err << " (address-only, " << std::setprecision(1) << 100.0 * st.skippedThreadInstructions / st.threadInstructions
            << "% skipped)";
      err << " in " << std::setprecision(2) << st.seconds << " s of engine time";
      if (st.replicatedBlocks) // block symmetry (sassemu/Symmetry.h): blocks proven alike, not run
        err << ", " << st.replicatedBlocks << " of "
            << std::uint64_t(specs[i]->grid[0]) * specs[i]->grid[1] * specs[i]->grid[2] << " blocks replicated";
    }
    err << "\n";
    if (r->checkPassed && !*r->checkPassed) ++failedChecks;
    if (html) {
      report.launches.push_back(analysis::reportLaunch(*r, &detail, specs[i], &*archSpec));
      const std::string dir = std::filesystem::path(specs[i]->source).parent_path().string();
      if (std::find(sourceDirs.begin(), sourceDirs.end(), dir) == sourceDirs.end())
        sourceDirs.push_back(dir);
    }
    results.push_back(std::move(*r));
  }
  err << "suite: " << results.size() << " launches in " << std::fixed << std::setprecision(2)
      << std::chrono::duration<double>(std::chrono::steady_clock::now() - total0).count() << " s";
  if (failedChecks) err << ", " << failedChecks << " functional check(s) failed";
  if (failedLaunches) err << ", " << failedLaunches << " launch(es) could not be analyzed";
  err << "\n";
  std::string page;
  if (html) {
    auto p = analysis::renderReportPage(std::move(report), measuredPath, sourceDirs);
    if (!p) return fail(p.error());
    page = std::move(*p);
  }
  if (!jsonOut.empty()) {
    auto extra = analysis::renderResults(results, "json");
    if (!extra) return fail(extra.error());
    if (auto w = analysis::writeOutput(*extra, jsonOut, out); !w) return fail(w.error());
  }
  if (!htmlOut.empty())
    if (auto w = analysis::writeOutput(page, htmlOut, out); !w) return fail(w.error());
  auto text = format == "html" ? Expected<std::string>(page) : analysis::renderResults(results, format);
  if (!text) return fail(text.error());
  if (auto w = analysis::writeOutput(*text, output, out); !w) return fail(w.error());
  return failedLaunches ? 2 : failedChecks ? 1 : 0;
}

} // namespace warplens::cli
