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
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace warplens::cli {

namespace po = boost::program_options;

namespace {

const char *kHelp = R"(usage: warplens fit MEASURED.json... --device NAME|FILE.json [options]
       warplens fit --device NAME|FILE.json --own PREDICTED.json:MEASURED.json... [--own-share S]

Fits the time model's coefficients (launch overhead, per-block cost, DRAM bytes and DRAM bytes
re-fetched after L2 eviction, L2 bytes and L1-miss lines, L1/shared wavefronts and shuffles, the
issue simulation's sub-partition cycles, exposed latency per request, same-unit atomics) to
measured launches by non-negative least squares on relative error, and prints the residuals. Only
launches whose duration came from the probe's kernel timer (a "time.measured_ns" section) are
used; launches named by --hold-out are predicted with the fitted coefficients but not fitted. The
measured counters lack structural inputs of the model (distinct lines per request, dependent
rounds of loads, the issue simulation's cycles per instruction, uneven blocks, shuffles, atomics
per L2 unit, L1-miss lines and the DRAM re-fetch share): --structure
PREDICTED.json (warplens suite output of the same launches) supplies them, as ratios to the
measured requests and instructions; without it lines default to max(requests, sectors/4), one
round per request, and the rest to none. warplens embeds the device files at build time: rebuild
it after writing one with -o to predict with the new coefficients by name.
--own PREDICTED.json:MEASURED.json predicts the launches of PREDICTED from
warplens' own counts (its "time.inputs") with the fitted (or, without MEASURED files, --device's)
coefficients and tabulates them against MEASURED's durations, with GB/s.

options:
)";

/// Per launch name, the structural ratios from a prediction's time.inputs.
struct Structure {
  double roundsPerLoadRequest = 0, linesPerLoadRequest = 0, linesPerStoreRequest = 0;
  double barrierRoundsPerLoadRequest = 0;
  double missRoundsPerLoadRequest = -1; ///< rounds missing L1 (< 0: not in the prediction)
  double wavefrontsPerLoadRequest = 0; ///< L1 data-stage wavefronts (0: not in the prediction)
  double regionsPerLoadRequest = 0;    ///< distinct 1 KiB regions (0: not in the prediction)
  /// Per warp instruction (the probe measures the instructions, not these): shuffles and a lone
  /// warp's dependent issue cycles; atomics as predicted (exact counts; no counter read).
  double shufflesPerInst = 0, dependentCyclesPerInst = 0, operandStallsPerInst = 0;
  double atomicLineRequests = 0, hottestLineSteps = 0, hottestLineOps = 0, hottestLineExtra = 0;
  double hottestLineSectorOps = 0;
  double fp64PerInst = 0, xuPerInst = 0; ///< FP64-pipe and MUFU instructions per warp instruction
  double barriersPerInst = 0, atomicFloatShare = 1;
  double aluPerInst = -1; ///< ALU-pipe instructions per warp instruction (< 0: not in the prediction)
  /// Session 8: the issue simulation's cycles per warp instruction and its bound, per resident warps
  /// per sub-partition (empty: not in the prediction).
  std::vector<double> simCyclesPerInst;
  std::vector<std::string> simBound;
  double blockImbalance = 1, latencyImbalance = 1, smBlockImbalance = 1;
  bool simCoversLsu = false;
  /// Session 8: L1-miss lines per global load request; DRAM re-fetch share of the DRAM bytes read.
  double missLinesPerLoadRequest = 0, refetchShare = 0;
  /// Session 21: the prediction's DRAM counts, to put the re-fetch share at the device's L2 reuse
  /// capacity (perf::atL2Reuse).
  perf::MemoryCounts dram;
  /// Session 18: rounds waiting for DRAM per global load request (< 0: not in the prediction).
  double dramRoundsPerLoadRequest = -1;
};
using StructureMap = std::map<std::string, Structure>;

double ratio(const nlohmann::json &in, const char *num, const char *den) {
  double d = in.value(den, 0.0);
  return d > 0 ? in.value(num, 0.0) / d : 0.0;
}

/// Time inputs of a prediction (warplens' own counts), or an error.
Expected<perf::TimeInputs> ownInputs(const launch::LaunchResult &r) {
  if (r.time.is_null() || !r.time.contains("inputs") || !r.time["inputs"].contains("global_load_requests"))
    return Error{r.name + ": no time.inputs with memory counts (predict with this warplens)"};
  const nlohmann::json &i = r.time["inputs"];
  perf::TimeInputs in;
  in.shape.grid = r.grid;
  in.shape.block = r.block;
  in.shape.registersPerThread = i.value("registers_per_thread", 0u);
  in.shape.staticSharedBytes = i.value("static_shared_bytes", 0u);
  in.shape.dynamicSharedBytes = i.value("dynamic_shared_bytes", 0u);
  in.mix.warpInstructions = i.value("warp_instructions", 0.0);
  in.mix.fmaPipeInstructions = i.value("fma_pipe_instructions", 0.0);
  in.mix.shuffleInstructions = i.value("shuffle_instructions", 0.0);
  in.mix.dependentCycles = i.value("dependent_cycles", 0.0);
  in.mix.operandStalls = i.value("operand_stalls", 0.0);
  in.mix.aluPipeInstructions = i.value("alu_pipe_instructions", -1.0);
  in.mix.fp64PipeInstructions = i.value("fp64_pipe_instructions", 0.0);
  in.mix.xuPipeInstructions = i.value("xu_pipe_instructions", 0.0);
  in.mix.barriers = i.value("barriers", 0.0);
  in.mix.simCycles = i.value("issue_sim_cycles", std::vector<double>{});
  in.mix.simBound = i.value("issue_sim_bound", std::vector<std::string>{});
  in.mix.blockImbalance = i.value("block_imbalance", 1.0);
  in.mix.smBlockImbalance = i.value("sm_block_imbalance", in.mix.blockImbalance);
  in.mix.latencyImbalance = i.value("latency_imbalance", 1.0);
  in.mix.simCoversLsu = i.value("issue_sim_lsu", false);
  // Session 10: the SM trace simulation's time, as the prediction used it (the fit of measured
  // counts leaves it out: see TimeModel.h applyTraceFloor).
  in.mix.traceNs = i.value("trace_sim_ns", -1.0);
  in.mem.atomicFloatShare = i.value("atomic_float_share", 1.0);
  in.mem.atomicLineRequests = i.value("atomic_line_requests", 0.0);
  in.mem.hottestLineSteps = i.value("hottest_line_steps", 0.0);
  in.mem.hottestLineOps = i.value("hottest_line_ops", 0.0);
  in.mem.hottestLineExtra = i.value("hottest_line_extra", 0.0);
  in.mem.hottestLineSectorOps = i.value("hottest_line_sector_ops", 0.0);
  in.mix.source = "warplens";
  in.mem.globalLoadRequests = i.value("global_load_requests", 0.0);
  in.mem.globalLoadSectors = i.value("global_load_sectors", 0.0);
  in.mem.globalStoreRequests = i.value("global_store_requests", 0.0);
  in.mem.globalStoreSectors = i.value("global_store_sectors", 0.0);
  in.mem.sharedWavefronts = i.value("shared_wavefronts", 0.0);
  // Named idle_wavefronts in predictions of session 19.
  in.mem.dataPathExtraWavefronts = i.value("data_path_extra_wavefronts", i.value("idle_wavefronts", 0.0));
  in.mem.l2ReadSectors = i.value("l1_miss_sectors", 0.0);
  in.mem.globalLoadLines = i.value("load_lines", 0.0);
  in.mem.globalStoreLines = i.value("store_lines", 0.0);
  in.mem.globalLoadWavefronts = i.value("load_wavefronts", 0.0);
  in.mem.globalLoadRegions = i.value("load_regions", 0.0);
  in.mem.loadRounds = i.value("load_rounds", 0.0);
  in.mem.barrierLoadRounds = i.value("barrier_load_rounds", 0.0);
  in.mem.loadMissRounds = i.value("load_miss_rounds", -1.0);
  in.mem.loadDramRounds = i.value("load_dram_rounds", -1.0);
  in.mem.dramReadBytes = i.value("dram_read_bytes", 0.0);
  in.mem.dramRefetchBytes = i.value("dram_refetch_bytes", 0.0);
  in.mem.l2ReuseBytes = i.value("dram_l2_reuse_bytes", 0.0);
  in.mem.refetchCurve = i.value("dram_refetch_curve", std::vector<std::pair<double, double>>{});
  in.mem.l2ReadLines = i.value("l1_miss_lines", 0.0);
  in.mem.dramWriteBytes = i.value("dram_write_bytes", 0.0);
  return in;
}

/// Features of a measured launch, or an error saying what it lacks.
/// `fitted`: the DRAM utilisation of the loaded-latency term comes from the measured duration
/// (a fitted launch); otherwise the prediction solves it (a held-out launch).
Expected<perf::FitSample> sampleOf(const launch::LaunchResult &r, const perf::DeviceSpec &d,
                                   const StructureMap &structure, bool fitted) {
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
  if (auto it = structure.find(r.name); it != structure.end()) {
    in.mem.loadRounds = it->second.roundsPerLoadRequest * in.mem.globalLoadRequests;
    in.mem.globalLoadLines = it->second.linesPerLoadRequest * in.mem.globalLoadRequests;
    in.mem.globalStoreLines = it->second.linesPerStoreRequest * in.mem.globalStoreRequests;
    in.mem.globalLoadWavefronts = it->second.wavefrontsPerLoadRequest * in.mem.globalLoadRequests;
    in.mem.globalLoadRegions = it->second.regionsPerLoadRequest * in.mem.globalLoadRequests;
    in.mem.barrierLoadRounds = it->second.barrierRoundsPerLoadRequest * in.mem.globalLoadRequests;
    if (it->second.missRoundsPerLoadRequest >= 0)
      in.mem.loadMissRounds = it->second.missRoundsPerLoadRequest * in.mem.globalLoadRequests;
    if (it->second.dramRoundsPerLoadRequest >= 0)
      in.mem.loadDramRounds = it->second.dramRoundsPerLoadRequest * in.mem.globalLoadRequests;
    in.mix.shuffleInstructions = it->second.shufflesPerInst * in.mix.warpInstructions;
    in.mix.dependentCycles = it->second.dependentCyclesPerInst * in.mix.warpInstructions;
    in.mix.operandStalls = it->second.operandStallsPerInst * in.mix.warpInstructions;
    if (it->second.aluPerInst >= 0) in.mix.aluPipeInstructions = it->second.aluPerInst * in.mix.warpInstructions;
    in.mem.atomicLineRequests = it->second.atomicLineRequests;
    in.mem.hottestLineSteps = it->second.hottestLineSteps;
    in.mem.hottestLineOps = it->second.hottestLineOps;
    in.mem.hottestLineExtra = it->second.hottestLineExtra;
    in.mem.hottestLineSectorOps = it->second.hottestLineSectorOps;
    in.mix.fp64PipeInstructions = it->second.fp64PerInst * in.mix.warpInstructions;
    in.mix.xuPipeInstructions = it->second.xuPerInst * in.mix.warpInstructions;
    in.mix.barriers = it->second.barriersPerInst * in.mix.warpInstructions;
    for (double c : it->second.simCyclesPerInst) in.mix.simCycles.push_back(c * in.mix.warpInstructions);
    in.mix.simBound = it->second.simBound;
    in.mix.blockImbalance = it->second.blockImbalance;
    in.mix.smBlockImbalance = it->second.smBlockImbalance;
    in.mix.latencyImbalance = it->second.latencyImbalance;
    in.mix.simCoversLsu = it->second.simCoversLsu;
    in.mem.l2ReadLines = it->second.missLinesPerLoadRequest * in.mem.globalLoadRequests;
    double share = it->second.refetchShare;
    if (d.l2ReuseBytes > 0 && !it->second.dram.refetchCurve.empty()) {
      const perf::MemoryCounts at = perf::atL2Reuse(it->second.dram, d.l2ReuseBytes);
      share = at.dramReadBytes > 0 ? at.dramRefetchBytes / at.dramReadBytes : 0.0;
    }
    in.mem.dramRefetchBytes = share * in.mem.dramReadBytes;
    in.mem.atomicFloatShare = it->second.atomicFloatShare;
  }
  perf::Features f = perf::features(in, d);
  if (fitted) perf::setDramUtilization(f, perf::dramUtilizationOf(f, t->second, d));
  return perf::FitSample{r.name, f, t->second};
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

struct OwnRow {
  std::string name, limiter;
  double predictedNs = 0, measuredNs = 0, bytes = 0;
};

std::string ownReport(const std::vector<OwnRow> &rows, const std::string &title, std::size_t &withinOut) {
  std::ostringstream o;
  std::vector<double> errs;
  for (const auto &r : rows) errs.push_back(std::fabs(r.predictedNs / r.measuredNs - 1));
  std::sort(errs.begin(), errs.end());
  withinOut = static_cast<std::size_t>(std::count_if(errs.begin(), errs.end(), [](double e) { return e <= 0.15; }));
  o << "### " << title << "\n\n";
  if (!errs.empty())
    o << rows.size() << " launches; |error| median " << fmt("%.1f%%", 100 * errs[errs.size() / 2])
      << ", 90th percentile " << fmt("%.1f%%", 100 * errs[std::min(errs.size() - 1, errs.size() * 9 / 10)])
      << ", max " << fmt("%.1f%%", 100 * errs.back()) << "; within 15%: " << withinOut << "/"
      << rows.size() << "\n\n";
  o << "| launch | predicted us | measured us | error | predicted GB/s | measured GB/s | limiter |\n"
       "|---|---:|---:|---:|---:|---:|---|\n";
  for (const auto &r : rows)
    o << "| " << r.name << " | " << fmt("%.2f", r.predictedNs / 1e3) << " | " << fmt("%.2f", r.measuredNs / 1e3)
      << " | " << fmt("%+.1f%%", 100 * (r.predictedNs / r.measuredNs - 1)) << " | "
      << fmt("%.0f", r.bytes / r.predictedNs) << " | " << fmt("%.0f", r.bytes / r.measuredNs) << " | "
      << r.limiter << " |\n";
  return o.str() + "\n";
}

} // namespace

int fitMain(const Args &args, std::ostream &out, std::ostream &err) {
  po::options_description desc("options");
  std::vector<std::string> files, holdOut, structureFiles, own;
  double ownShare = 0, ownShareAll = 0;
  std::string device, output, reportPath;
  desc.add_options()("help,h", "this help")(
      "device", po::value(&device), "device to start from: name (h100_sxm, h200) or FILE.json")(
      "output,o", po::value(&output), "write the fitted device JSON here")(
      "report", po::value(&reportPath), "write the residual tables (Markdown) here")(
      "hold-out", po::value(&holdOut), "a measured JSON whose launches are predicted, not fitted (repeatable)")(
      "structure", po::value(&structureFiles),
      "a prediction (warplens suite JSON) of the measured launches: lines per request and load "
      "rounds per request (repeatable)")(
      "own", po::value(&own), "PREDICTED.json:MEASURED.json: predict from warplens' own counts (repeatable)")(
      "own-share", po::value(&ownShare), "exit 1 unless every --own pair has this share within 15%")(
      "own-share-all", po::value(&ownShareAll),
      "exit 1 unless the launches of all --own pairs together have this share within 15% (the "
      "held-out bar: 0.9)")(
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
  if ((files.empty() && own.empty()) || device.empty()) {
    err << "warplens fit: needs MEASURED.json (or --own) and --device (see --help)\n";
    return 2;
  }
  auto dev = perf::loadDevice(device);
  if (!dev) {
    err << "warplens fit: " << dev.error().message << "\n";
    return 2;
  }
  StructureMap structure;
  for (const auto &p : structureFiles) {
    auto results = launch::loadResults(p);
    if (!results) {
      err << "warplens fit: " << results.error().message << "\n";
      return 2;
    }
    for (const auto &r : results.value()) {
      if (r.time.is_null() || !r.time.contains("inputs")) continue;
      const nlohmann::json &i = r.time["inputs"];
      if (!i.contains("load_rounds")) continue;
      structure[r.name] = {ratio(i, "load_rounds", "global_load_requests"),
                           ratio(i, "load_lines", "global_load_requests"),
                           ratio(i, "store_lines", "global_store_requests"),
                           ratio(i, "barrier_load_rounds", "global_load_requests"),
                           i.value("load_miss_rounds", -1.0) >= 0 ? ratio(i, "load_miss_rounds", "global_load_requests") : -1.0,
                           ratio(i, "load_wavefronts", "global_load_requests"),
                           ratio(i, "load_regions", "global_load_requests"),
                           ratio(i, "shuffle_instructions", "warp_instructions"),
                           ratio(i, "dependent_cycles", "warp_instructions"),
                           ratio(i, "operand_stalls", "warp_instructions"),
                           i.value("atomic_line_requests", 0.0),
                           i.value("hottest_line_steps", 0.0),
                           i.value("hottest_line_ops", 0.0),
                           i.value("hottest_line_extra", 0.0),
                           i.value("hottest_line_sector_ops", 0.0),
                           ratio(i, "fp64_pipe_instructions", "warp_instructions"),
                           ratio(i, "xu_pipe_instructions", "warp_instructions"),
                           ratio(i, "barriers", "warp_instructions"),
                           i.value("atomic_float_share", 1.0),
                           i.contains("alu_pipe_instructions") ? ratio(i, "alu_pipe_instructions", "warp_instructions") : -1.0,
                           {}, {}, 1.0, 1.0, 1.0, false, 0.0, 0.0};
      Structure &st = structure[r.name];
      const double inst = i.value("warp_instructions", 0.0);
      if (inst > 0)
        for (double c : i.value("issue_sim_cycles", std::vector<double>{})) st.simCyclesPerInst.push_back(c / inst);
      st.simBound = i.value("issue_sim_bound", std::vector<std::string>{});
      if (i.value("load_dram_rounds", -1.0) >= 0) st.dramRoundsPerLoadRequest = ratio(i, "load_dram_rounds", "global_load_requests");
      st.blockImbalance = i.value("block_imbalance", 1.0);
      st.smBlockImbalance = i.value("sm_block_imbalance", st.blockImbalance);
      st.latencyImbalance = i.value("latency_imbalance", 1.0);
      st.simCoversLsu = i.value("issue_sim_lsu", false);
      st.missLinesPerLoadRequest = ratio(i, "l1_miss_lines", "global_load_requests");
      st.refetchShare = ratio(i, "dram_refetch_bytes", "dram_read_bytes");
      st.dram.dramReadBytes = i.value("dram_read_bytes", 0.0);
      st.dram.dramRefetchBytes = i.value("dram_refetch_bytes", 0.0);
      st.dram.l2ReuseBytes = i.value("dram_l2_reuse_bytes", 0.0);
      st.dram.refetchCurve = i.value("dram_refetch_curve", std::vector<std::pair<double, double>>{});
    }
  }
  auto evaluateOwn = [&](const perf::DeviceSpec &d, std::string &text) -> int {
    int rc = 0;
    std::size_t allWithin = 0, allRows = 0;
    for (const auto &pair : own) {
      auto colon = pair.find(':');
      if (colon == std::string::npos) {
        err << "warplens fit: --own " << pair << ": expected PREDICTED.json:MEASURED.json\n";
        return 2;
      }
      auto pred = launch::loadResults(pair.substr(0, colon));
      auto meas = launch::loadResults(pair.substr(colon + 1));
      if (!pred || !meas) {
        err << "warplens fit: " << (!pred ? pred.error().message : meas.error().message) << "\n";
        return 2;
      }
      std::map<std::string, double> measured;
      for (const auto &r : meas.value()) {
        auto t = r.metrics.find("gpu__time_duration.sum");
        if (t != r.metrics.end() && !r.time.is_null() && r.time.contains("measured_ns")) measured[r.name] = t->second;
      }
      std::vector<OwnRow> rows;
      for (const auto &r : pred.value()) {
        auto m = measured.find(r.name);
        if (m == measured.end()) continue;
        auto in = ownInputs(r);
        if (!in) {
          err << "warplens fit: " << pair.substr(0, colon) << ": skipped " << in.error().message << "\n";
          continue;
        }
        perf::TimePrediction p = perf::predict(in.value(), d);
        if (const char *dump = std::getenv("WARPLENS_FIT_TERMS")) {
          // A debugging aid: each --own launch's limiter terms (ns), one JSON line per launch.
          if (std::FILE *out = std::fopen(dump, "a")) {
            nlohmann::json j = perf::toJson(p, d);
            j["name"] = r.name;
            j["measured_ns"] = m->second;
            std::fprintf(out, "%s\n", j.dump().c_str());
            std::fclose(out);
          }
        }
        double written = r.time["inputs"].value("bytes_written", in->mem.dramWriteBytes);
        rows.push_back({r.name, p.limiter, p.durationNs, m->second, in->mem.dramReadBytes + written});
      }
      std::size_t within = 0;
      text += ownReport(rows, "Predicted from warplens' own counts on " + d.name + ": " + pair, within);
      allWithin += within, allRows += rows.size();
      if (rows.empty() || double(within) < ownShare * double(rows.size())) {
        err << "warplens fit: --own " << pair << ": " << within << " of " << rows.size()
            << " launches within 15% (required share " << ownShare << ")\n";
        rc = 1;
      }
    }
    if (own.size() > 1 || ownShareAll > 0) {
      char line[160];
      std::snprintf(line, sizeof line, "\nAll --own pairs on %s: %zu of %zu launches within 15%% (%.1f%%)\n",
                    d.name.c_str(), allWithin, allRows, allRows ? 100.0 * double(allWithin) / double(allRows) : 0.0);
      text += line;
    }
    if (ownShareAll > 0 && (allRows == 0 || double(allWithin) < ownShareAll * double(allRows))) {
      err << "warplens fit: all --own pairs: " << allWithin << " of " << allRows
          << " launches within 15% (required share " << ownShareAll << ")\n";
      rc = 1;
    }
    return rc;
  };
  if (files.empty()) {
    std::string text;
    int rc = evaluateOwn(dev.value(), text);
    out << text;
    if (!reportPath.empty()) std::ofstream(reportPath) << text;
    return rc;
  }
  auto collect = [&](const std::vector<std::string> &paths, std::vector<perf::FitSample> &samples,
                     std::vector<double> &clocks, bool fitted) -> bool {
    for (const auto &p : paths) {
      auto results = launch::loadResults(p);
      if (!results) {
        err << "warplens fit: " << results.error().message << "\n";
        return false;
      }
      for (const auto &r : results.value()) {
        auto s = sampleOf(r, dev.value(), structure, fitted);
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
  if (!collect(files, samples, clocks, true) || !collect(holdOut, held, heldClocks, false)) return 2;
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
  const int ownRc = evaluateOwn(fitted, text);
  if (ownRc == 2) return 2;
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
  return ownRc;
}

} // namespace warplens::cli
