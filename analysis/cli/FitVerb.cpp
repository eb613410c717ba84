/// \file
/// `warplens fit`: fits a device's time-model coefficients to measured launches (probe JSON with
/// durations from the kernel timer) and writes the device file and a residual report.
#include "analysis/TimePrediction.h"
#include "analysis/cli/Verbs.h"
#include "launch/Result.h"
#include "perf/DeviceSpec.h"
#include "perf/TimeFit.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace warplens::cli {

namespace po = boost::program_options;

namespace {

const char *kHelp = R"(usage: warplens fit MEASURED.json... --device NAME|FILE.json [options]

Fits the time model's coefficients (launch overhead, per-block cost, DRAM and L2 bytes, L1/shared
wavefronts, issue and FMA-pipe cycles, exposed latency per request) to measured launches by
non-negative least squares on relative error, and prints the residuals. Only launches whose
duration came from the probe's kernel timer (a "time.measured_ns" section) are used; launches
named by --hold-out are predicted with the fitted coefficients but not fitted.

options:
)";

/// Features of a measured launch, or an error saying what it lacks.
Expected<perf::FitSample> sampleOf(const launch::LaunchResult &r, const perf::DeviceSpec &d) {
  if (r.time.is_null() || !r.time.contains("measured_ns"))
    return Error{r.name + ": no timed duration (time.measured_ns); re-probe with the kernel timer"};
  auto t = r.metrics.find("gpu__time_duration.sum");
  if (t == r.metrics.end()) return Error{r.name + ": no gpu__time_duration.sum"};
  perf::TimeInputs in;
  in.shape.grid = r.grid;
  in.shape.block = r.block;
  in.shape.registersPerThread = r.time.value("registers_per_thread", 0u);
  in.shape.staticSharedBytes = r.time.value("static_shared_bytes", 0u);
  in.shape.dynamicSharedBytes = r.time.value("dynamic_shared_bytes", 0u);
  in.mem = analysis::memoryCountsFromMetrics(r.metrics);
  auto inst = r.metrics.find("smsp__inst_executed.sum");
  auto fma = r.metrics.find("smsp__inst_executed_pipe_fma.sum");
  if (inst == r.metrics.end() || fma == r.metrics.end())
    return Error{r.name + ": no smsp__inst_executed.sum / smsp__inst_executed_pipe_fma.sum"};
  in.mix.warpInstructions = inst->second;
  in.mix.fmaPipeInstructions = fma->second;
  in.mix.source = "measured";
  return perf::FitSample{r.name, perf::features(in, d), t->second};
}

std::string fmt(const char *f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

/// Markdown table of rows + the error distribution line.
std::string report(const std::vector<perf::FitRow> &rows, const std::string &title) {
  std::ostringstream o;
  std::vector<double> errs;
  for (const auto &r : rows) errs.push_back(std::fabs(r.relError()));
  std::sort(errs.begin(), errs.end());
  std::size_t within = static_cast<std::size_t>(
      std::count_if(errs.begin(), errs.end(), [](double e) { return e <= 0.15; }));
  o << "### " << title << "\n\n";
  if (!errs.empty())
    o << rows.size() << " launches; |error| median " << fmt("%.1f%%", 100 * errs[errs.size() / 2])
      << ", 90th percentile " << fmt("%.1f%%", 100 * errs[std::min(errs.size() - 1, errs.size() * 9 / 10)])
      << ", max " << fmt("%.1f%%", 100 * errs.back()) << "; within 15%: " << within << "/"
      << rows.size() << "\n\n";
  o << "| launch | measured us | predicted us | error | limiter |\n|---|---:|---:|---:|---|\n";
  for (const auto &r : rows)
    o << "| " << r.name << " | " << fmt("%.2f", r.measuredNs / 1e3) << " | "
      << fmt("%.2f", r.predictedNs / 1e3) << " | " << fmt("%+.1f%%", 100 * r.relError()) << " | "
      << r.limiter << " |\n";
  return o.str() + "\n";
}

} // namespace

int fitMain(const Args &args, std::ostream &out, std::ostream &err) {
  po::options_description desc("options");
  std::vector<std::string> files, holdOut;
  std::string device, output, reportPath;
  desc.add_options()("help,h", "this help")(
      "device", po::value(&device), "device to start from: name (h100_sxm, h200) or FILE.json")(
      "output,o", po::value(&output), "write the fitted device JSON here")(
      "report", po::value(&reportPath), "write the residual tables (Markdown) here")(
      "hold-out", po::value(&holdOut), "a measured JSON whose launches are predicted, not fitted (repeatable)")(
      "check", "exit 1 unless the fitted coefficients equal --device's (relative 1e-6): the "
               "committed coefficients are reproducible from the recorded measurements");
  po::options_description hidden;
  hidden.add_options()("files", po::value(&files));
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("files", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const std::exception &e) {
    err << "warplens fit: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    out << kHelp << desc;
    return 0;
  }
  if (files.empty() || device.empty()) {
    err << "warplens fit: needs MEASURED.json and --device (see --help)\n";
    return 2;
  }
  auto dev = perf::loadDevice(device);
  if (!dev) {
    err << "warplens fit: " << dev.error().message << "\n";
    return 2;
  }
  auto collect = [&](const std::vector<std::string> &paths, std::vector<perf::FitSample> &samples,
                     std::vector<double> &clocks) -> bool {
    for (const auto &p : paths) {
      auto results = launch::loadResults(p);
      if (!results) {
        err << "warplens fit: " << results.error().message << "\n";
        return false;
      }
      for (const auto &r : results.value()) {
        auto s = sampleOf(r, dev.value());
        if (!s) {
          err << "warplens fit: " << p << ": skipped " << s.error().message << "\n";
          continue;
        }
        samples.push_back(s.value());
        if (auto c = r.metrics.find("sm__cycles_elapsed.avg.per_second"); c != r.metrics.end())
          clocks.push_back(c->second);
      }
    }
    return true;
  };
  std::vector<perf::FitSample> samples, held;
  std::vector<double> clocks, heldClocks;
  if (!collect(files, samples, clocks) || !collect(holdOut, held, heldClocks)) return 2;
  if (samples.size() < 8) {
    err << "warplens fit: only " << samples.size() << " timed launches; need at least 8\n";
    return 2;
  }
  // The SM clock is the device file's (ncu --clock-control none measured 1.96-1.98 GHz on the
  // H100 during these kernels; the probe's user-range sm__cycles_elapsed rate is not usable).
  perf::DeviceSpec start = dev.value();
  perf::FitOutcome fit = perf::fitCoefficients(samples, start);
  perf::DeviceSpec fitted = start;
  fitted.coef = fit.coef;
  std::vector<perf::FitRow> heldRows = perf::evaluate(held, fitted);
  std::string joined;
  for (const auto &f : files) joined += (joined.empty() ? "" : " ") + f;
  fitted.fitted = "warplens fit " + joined + " (" + std::to_string(samples.size()) +
                  " launches, " + std::to_string(fit.iterations) + " iterations" +
                  (fit.converged ? "" : ", limiter choice not converged") + ")";
  nlohmann::json rows = nlohmann::json::array();
  for (const auto &r : fit.rows)
    rows.push_back({{"name", r.name}, {"measured_ns", r.measuredNs}, {"predicted_ns", r.predictedNs},
                    {"limiter", r.limiter}});
  fitted.fit = {{"launches", rows}};
  std::string text = report(fit.rows, "Fit: " + joined);
  if (!held.empty()) text += report(heldRows, "Held out (not fitted)");
  out << text;
  out << "coefficients: " << perf::toJson(fitted)["coefficients"].dump() << "\n";
  if (!output.empty()) {
    std::ofstream f(output);
    if (!(f << perf::toJson(fitted).dump(2) << "\n")) {
      err << "warplens fit: cannot write " << output << "\n";
      return 2;
    }
  }
  if (vm.count("check")) {
    nlohmann::json want = perf::toJson(dev.value())["coefficients"];
    nlohmann::json got = perf::toJson(fitted)["coefficients"];
    bool same = true;
    for (auto it = want.begin(); it != want.end(); ++it) {
      double a = it.value().get<double>(), b = got[it.key()].get<double>();
      if (std::fabs(a - b) > 1e-6 * std::max({1e-12, std::fabs(a), std::fabs(b)})) {
        err << "warplens fit: --check: " << it.key() << " fitted " << b << ", " << device
            << " has " << a << "\n";
        same = false;
      }
    }
    if (!same) return 1;
    err << "warplens fit: --check: the coefficients of " << device << " are reproduced\n";
  }
  if (!reportPath.empty()) {
    std::ofstream f(reportPath);
    if (!(f << text)) {
      err << "warplens fit: cannot write " << reportPath << "\n";
      return 2;
    }
  }
  return 0;
}

} // namespace warplens::cli
