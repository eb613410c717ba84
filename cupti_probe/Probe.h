/// \file
/// Runs launch specs on an NVIDIA GPU and measures them: CUPTI Range Profiler (per-kernel hardware
/// counters), CUPTI SASS Metrics (exact per-SASS-instruction counts) and a checked plain launch.
#pragma once

#include "launch/LaunchSpec.h"
#include "launch/Result.h"
#include "util/Expected.h"

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace warplens::probe {

struct ProbeOptions {
  int device = 0;               ///< CUDA device ordinal
  bool rangeProfiler = true;    ///< (a) hardware counters per launch
  bool sassMetrics = true;      ///< (b) per-instruction SASS metrics
  bool check = true;            ///< (c) plain launch + launch::runCheck
  /// (d) timed launches (CUPTI Activity API, L2 flushed before each): gpu__time_duration.sum is
  /// their median; 0 = no timing.
  unsigned timingRepeats = 5;
  /// User replay (default): the probe re-uploads the inputs and flushes L2 before every pass.
  /// Kernel replay: CUPTI replays the kernel itself, saving/restoring device memory between
  /// passes (L2 is then only flushed before the first pass). The probe falls back to kernel
  /// replay when user replay fails to set up.
  bool userReplay = true;
  std::vector<std::string> rangeMetrics; ///< empty: defaultRangeMetrics()
  std::vector<std::string> sassMetricNames; ///< empty: defaultSassMetrics()
  std::string cacheDir;         ///< compile cache (empty: toolchain default)
  /// When set: after the plain launch, every buffer's bytes are written raw (little-endian) to
  /// DIR/<launch>.<buffer>.bin (the GPU's outputs, for re-checking offline; kernels/diff).
  std::string saveOutputsDir;
  std::ostream *log = nullptr;  ///< progress and warnings, one line each; null = silent
  /// Called after every launch with all results so far (lets the CLI rewrite its output file,
  /// so a run cut short by a time limit keeps what it measured).
  std::function<void(const std::vector<launch::LaunchResult> &)> onProgress;
};

/// The Nsight Compute metric names collected by the Range Profiler pass.
const std::vector<std::string> &defaultRangeMetrics();
/// The SASS Metrics API metrics collected per instruction (missing ones are skipped with a note).
const std::vector<std::string> &defaultSassMetrics();

/// Runs every launch. A failure inside one launch becomes a note on that launch's result (the
/// others still run); the whole call fails only when no GPU/CUPTI session can start (no device,
/// unsupported chip, driver too old). A kernel fault that kills the context marks the remaining
/// launches "not run".
Expected<std::vector<launch::LaunchResult>> runSuite(const std::vector<launch::LaunchSpec> &specs,
                                                     const ProbeOptions &options);

/// "name  description" for every SASS metric the device's chip offers (warplens probe
/// --list-sass-metrics), and the chip name first.
Expected<std::vector<std::string>> listSassMetrics(int device);

} // namespace warplens::probe
