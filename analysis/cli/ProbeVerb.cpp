/// \file
/// `warplens probe SUITE.json -o measured.json`: runs a suite's launches on the GPU under CUPTI
/// (hardware counters, per-instruction SASS metrics, a checked plain launch). Needs CUDA + CUPTI.
#include "analysis/cli/Verbs.h"

#include "launch/LaunchSpec.h"
#include "launch/Result.h"

#ifdef WARPLENS_HAVE_CUPTI
#include "cupti_probe/Probe.h"
#endif

#include <boost/program_options.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <set>

namespace warplens::cli {

namespace po = boost::program_options;

namespace {

const char *kHelp = R"(usage: warplens probe SUITE.json [-o measured.json] [options]

Runs every launch of a suite on the GPU and writes the measured result JSON (same schema as
`warplens suite`): per launch the CUPTI Range Profiler hardware counters under Nsight Compute
metric names, the CUPTI SASS Metrics per memory instruction (executed, sectors, sectors_ideal,
wavefronts, wavefronts_ideal) mapped to the SASS listing, and the functional check of a plain
launch. One failing launch does not stop the others (its notes say why).
Needs an NVIDIA GPU, CUDA + CUPTI at build time, and profiling permission (root, or the nvidia
module option NVreg_RestrictProfilingToAdminUsers=0).

options:
)";

const char *kExamples = R"(
examples:
  warplens probe kernels/micro/micro.json -o measured_micro.json
  warplens probe kernels/seeds.json --only transpose_naive_f32_2048 -o m.json
  warplens probe --list-sass-metrics

exit status: 0 all measured, 1 a launch failed or its check mismatched, 2 bad input
)";

bool failedNote(const std::string &n) {
  for (const char *p : {"probe error", "plain launch failed", "range profiler failed",
                        "SASS metrics failed", "timing failed", "not run"})
    if (n.rfind(p, 0) == 0) return true;
  return false;
}

} // namespace

int probeMain(const Args &args, std::ostream &out, std::ostream &err) {
  po::options_description desc("options");
  std::string suite, output;
  std::vector<std::string> only;
  int device = 0;
  std::string replay = "user";
  std::string rangeMetrics;
  desc.add_options()("help,h", "this help")(
      "output,o", po::value(&output), "write the measured JSON here (default: stdout)")(
      "only", po::value(&only), "run only the launch with this name (repeatable)")(
      "no-range", "skip the Range Profiler (hardware counters)")(
      "no-sass-metrics", "skip the SASS Metrics pass (per-instruction counts)")(
      "no-check", "skip the plain launch and functional check")(
      "timing-repeats", po::value<unsigned>()->default_value(5),
      "timed launches per launch spec (CUPTI activity records, L2 flushed before each); "
      "gpu__time_duration.sum is their median")(
      "no-timing", "skip the timed launches")(
      "replay", po::value(&replay), "range profiler replay: user (default) or kernel")(
      "range-metrics", po::value(&rangeMetrics),
      "comma-separated Range Profiler metrics instead of the default set (fewer passes)")(
      "device", po::value(&device), "CUDA device ordinal (default 0)")(
      "cache-dir", po::value<std::string>(), "compile cache folder")(
      "save-outputs", po::value<std::string>(),
      "write every buffer after the plain launch to DIR/<launch>.<buffer>.bin (raw bytes)")(
      "list-sass-metrics", "print the SASS metrics the GPU offers and exit")(
      "quiet,q", "no progress lines on stderr");
  po::options_description hidden;
  hidden.add_options()("suite", po::value(&suite));
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("suite", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const std::exception &e) {
    err << "warplens probe: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    out << kHelp << desc << kExamples;
    return 0;
  }
#ifndef WARPLENS_HAVE_CUPTI
  (void)device;
  err << "warplens probe: built without CUDA/CUPTI (configure with the CUDA toolkit installed "
         "so that CMake finds CUDA::cupti, then rebuild); `warplens suite` predicts offline\n";
  return 2;
#else
  if (vm.count("list-sass-metrics")) {
    auto list = probe::listSassMetrics(device);
    if (!list) {
      err << "warplens probe: " << list.error().message << "\n";
      return list.error().status;
    }
    for (const auto &l : list.value()) out << l << "\n";
    return 0;
  }
  if (suite.empty()) {
    err << "warplens probe: missing SUITE.json (see warplens probe --help)\n";
    return 2;
  }
  if (replay != "user" && replay != "kernel") {
    err << "warplens probe: --replay '" << replay << "': expected user or kernel\n";
    return 2;
  }
  auto specs = launch::loadSpecFile(suite);
  if (!specs) {
    err << "warplens probe: " << specs.error().message << "\n";
    return 2;
  }
  std::vector<launch::LaunchSpec> chosen;
  if (only.empty()) {
    chosen = specs.value();
  } else {
    std::set<std::string> wanted(only.begin(), only.end());
    for (const auto &s : specs.value())
      if (wanted.erase(s.name)) chosen.push_back(s);
    if (!wanted.empty()) {
      err << "warplens probe: --only '" << *wanted.begin() << "': no launch of that name in "
          << suite << "\n";
      return 2;
    }
  }
  probe::ProbeOptions opt;
  opt.device = device;
  opt.rangeProfiler = !vm.count("no-range");
  opt.sassMetrics = !vm.count("no-sass-metrics");
  opt.check = !vm.count("no-check");
  opt.timingRepeats = vm.count("no-timing") ? 0u : vm["timing-repeats"].as<unsigned>();
  opt.userReplay = replay == "user";
  for (std::size_t b = 0; b < rangeMetrics.size();) {
    std::size_t e = rangeMetrics.find(',', b);
    if (e == std::string::npos) e = rangeMetrics.size();
    if (e > b) opt.rangeMetrics.push_back(rangeMetrics.substr(b, e - b));
    b = e + 1;
  }
  if (vm.count("cache-dir")) opt.cacheDir = vm["cache-dir"].as<std::string>();
  if (vm.count("save-outputs")) opt.saveOutputsDir = vm["save-outputs"].as<std::string>();
  opt.log = vm.count("quiet") ? nullptr : &err;

  if (!output.empty() && output != "-") {
    // Rewrite the output after every launch: a run stopped by a time limit keeps its results.
    // At most every 2 s: rewriting a suite of a thousand launches after each costs seconds.
    opt.onProgress = [&output, last = std::chrono::steady_clock::time_point{}](
                         const std::vector<launch::LaunchResult> &soFar) mutable {
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::seconds(2)) return;
      last = now;
      std::ofstream f(output + ".partial");
      f << launch::toJson(soFar).dump(2) << "\n";
    };
  }
  auto results = probe::runSuite(chosen, opt);
  if (!results) {
    err << "warplens probe: " << results.error().message << "\n";
    return results.error().status;
  }
  const std::string text = launch::toJson(results.value()).dump(2) + "\n";
  if (output.empty() || output == "-") {
    out << text;
  } else {
    std::ofstream f(output);
    if (!f || !(f << text)) {
      err << "warplens probe: cannot write " << output << "\n";
      return 2;
    }
    std::remove((output + ".partial").c_str());
  }
  int failed = 0, mismatched = 0;
  for (const auto &r : results.value()) {
    bool bad = false;
    for (const auto &n : r.notes) bad = bad || failedNote(n);
    failed += bad;
    mismatched += r.checkPassed.has_value() && !*r.checkPassed;
  }
  err << "warplens probe: " << results->size() << " launches, " << failed << " with failures, "
      << mismatched << " check mismatches" << (output.empty() ? "" : " -> " + output) << "\n";
  return failed || mismatched ? 1 : 0;
#endif
}

} // namespace warplens::cli
