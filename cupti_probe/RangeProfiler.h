/// \file
/// Per-kernel hardware counters with the CUPTI Range Profiler + Profiler Host APIs (CUDA 13):
/// one range per launch, user replay (we restore inputs and flush L2 before each pass) or
/// kernel replay (CUPTI saves/restores device memory between its passes).
#pragma once

#include "cupti_probe/GpuSession.h"
#include "util/Expected.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct CUpti_Profiler_Host_Object;

namespace warplens::probe {

class RangeProfiler {
public:
  /// Builds the config image for `metrics` on the session's chip. Metrics that
  /// cuptiProfilerHostConfigAddMetrics rejects are dropped; each drop adds a line to `warnings`.
  static Expected<std::unique_ptr<RangeProfiler>> create(const GpuSession &session,
                                                         const std::vector<std::string> &metrics,
                                                         std::vector<std::string> &warnings);
  ~RangeProfiler();
  RangeProfiler(const RangeProfiler &) = delete;
  RangeProfiler &operator=(const RangeProfiler &) = delete;

  struct Measurement {
    std::map<std::string, double> values;
    std::size_t passes = 0;
    std::vector<std::string> notes;
  };
  using Step = std::function<Status()>;
  /// How ranges are cut and passes replayed.
  enum class Mode {
    /// Auto range (one range per kernel launch) and kernel replay: CUPTI replays the kernel
    /// itself, saving and restoring device memory between its passes.
    KernelReplay,
    /// A user range (push/pop around launch + synchronise) and user replay: `prepare` before
    /// every pass. The range's gpu__time_duration includes the launch and the synchronisation.
    UserRange,
    /// Auto range (the kernel alone, as Nsight Compute) and user replay: `prepare` before every
    /// pass, nothing done by CUPTI between `prepare` and the kernel.
    AutoRangeUserReplay,
  };
  /// `prepare` runs before each pass (user replay) or once (kernel replay); `launch` launches and
  /// synchronises the kernel exactly once. `inside` (optional, auto range only) runs after the
  /// profiler has started and before `launch` in every pass, as Nsight Compute flushes caches
  /// after its own set-up: a kernel it launches is a range of its own, and the values reported
  /// are those of the last range (the kernel's).
  Expected<Measurement> measure(CUcontext ctx, const std::string &rangeName, const Step &prepare,
                                const Step &launch, Mode mode, const Step &inside = {});

  const std::vector<std::string> &metrics() const { return metrics_; }
  std::size_t passesNeeded() const { return passes_; }

private:
  RangeProfiler() = default;
  CUpti_Profiler_Host_Object *host_ = nullptr;
  std::vector<std::string> metrics_;
  std::vector<const char *> metricPtrs_;
  std::vector<std::uint8_t> config_;
  std::size_t passes_ = 0;
};

} // namespace warplens::probe
