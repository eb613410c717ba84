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
  /// `prepare` runs before each pass (user replay) or once (kernel replay); `launch` launches and
  /// synchronises the kernel exactly once.
  Expected<Measurement> measure(CUcontext ctx, const std::string &rangeName, const Step &prepare,
                                const Step &launch, bool userReplay);

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
