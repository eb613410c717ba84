/// \file
/// The offline analysis of one launch: compile (cached) → parse PTX → buffers → emulate with the
/// models listening (grouped into SASS instructions when a listing is available) → per-instruction
/// records, kernel totals, the cold-L2 DRAM estimate and the functional check.
#pragma once

#include "emu/Emulator.h"
#include "launch/LaunchSpec.h"
#include "launch/Result.h"
#include "model/Site.h"
#include "model/WorstEventListener.h"
#include "util/Expected.h"

#include <map>
#include <memory>
#include <iosfwd>
#include <string>
#include <vector>

namespace warplens::ptx {
struct Module;
}

namespace warplens::analysis {

struct AnalyzeOptions {
  std::string arch = "sm_90";
  std::string sass = "auto"; ///< auto (listing from the toolchain) | none (PTX-level) | a listing file
  /// auto: execute the cubin's SASS when the toolchain gave a cubin and a listing, else emulate the
  /// PTX (with SASS grouping); sass: the SASS engine or an error; ptx: the PTX emulator.
  std::string engine = "auto";
  /// SASS engine only. full: execute every instruction. address: skip what no address, guard or
  /// branch depends on (sassemu/Slice.h; counts identical, buffers not computed, checks not
  /// run). auto: address-only when the launch asks for no functional check and no trace is
  /// written, full otherwise.
  std::string mode = "auto";
  /// SASS engine, launches without a functional check: when the grid has more blocks, run this
  /// many (stratified) and extrapolate every count, with a 95% confidence interval per
  /// instruction (LaunchResult::sampling). 0 = exact (every block).
  std::uint64_t sampleBlocks = 0;
  unsigned threads = 0;      ///< emulator worker threads; 0 = hardware concurrency
  std::string cacheDir;      ///< toolchain cache; empty = $WARPLENS_CACHE or ~/.cache/warplens
  /// When set: every access event the models see (after SASS grouping, with SASS site ids) is
  /// written to this versioned trace (trace/TraceWriter.h); the emulator then runs on one worker
  /// so the events are in one file, in execution order. Several launches overwrite it.
  std::string tracePath;
  /// GPU whose time model predicts gpu__time_duration.sum (perf/DeviceSpec.h): a built-in name
  /// or FILE.json; empty = the default device of `arch`.
  std::string device;
};

/// What Pipeline::analyze() can hand back besides the result.
struct RunDetail {
  bool wantWorst = false; ///< in: keep the costliest warp execution of every instruction
  /// out: the site of result.instructions[i], same order (SASS-level ids when grouped)
  std::vector<model::SiteInfo> sites;
  std::unique_ptr<model::WorstEventListener> worst; ///< out, when wantWorst
  std::uint64_t traceRecords = 0; ///< out: events written to AnalyzeOptions::tracePath
  emu::RunStats stats;            ///< out: instructions executed (and skipped), engine seconds
};

/// Note added whenever predictions are per PTX instruction.
inline constexpr const char *kNoSassNote =
    "SASS unavailable: per-PTX-instruction predictions; ptxas may merge accesses";

/// Runs launches, keeping compiled/parsed modules between them (a suite compiles each source once).
class Pipeline {
public:
  explicit Pipeline(AnalyzeOptions options);
  ~Pipeline();
  /// `detail` (optional) asks for and receives more than the result (see RunDetail).
  Expected<launch::LaunchResult> analyze(const launch::LaunchSpec &spec, RunDetail *detail = nullptr);

private:
  struct Compiled;
  Expected<const Compiled *> compiled(const launch::LaunchSpec &spec);

  AnalyzeOptions options_;
  std::map<std::string, std::unique_ptr<Compiled>> cache_; ///< source + flags → module, listing
};

/// Results rendered as `format` (text | json | html); JSON is {"launches": [...]}.
Expected<std::string> renderResults(const std::vector<launch::LaunchResult> &results,
                                    const std::string &format);
/// Writes `text` to `path`, or to `out` when path is empty or "-".
Status writeOutput(const std::string &text, const std::string &path, std::ostream &out);

/// One launch, no cache kept.
Expected<launch::LaunchResult> analyzeLaunch(const launch::LaunchSpec &spec,
                                             const AnalyzeOptions &options);

} // namespace warplens::analysis
