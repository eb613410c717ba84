/// \file
/// Kernel durations from the CUPTI Activity API (CONCURRENT_KERNEL records: the GPU's start and
/// end timestamps of the kernel alone, as Nsight Compute's gpu__time_duration). The Range
/// Profiler's gpu__time_duration of a user range spans launch + synchronise (~40 us more).
#pragma once

#include "util/Expected.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace warplens::probe {

class KernelTimer {
public:
  /// Registers the activity buffer callbacks (once per process).
  static Expected<std::unique_ptr<KernelTimer>> create();
  using Step = std::function<Status()>;
  /// What the kernel records said besides the times (of the last matching record).
  struct Resources {
    unsigned registersPerThread = 0;
    unsigned staticSharedBytes = 0;
    unsigned dynamicSharedBytes = 0;
  };
  /// Runs `prepare` then `launch` (which launches and synchronises once) `repeats` times with
  /// kernel activity recording on; returns the duration in ns of each launch of a kernel whose
  /// name is `mangled` (other kernels, e.g. the L2 flush, are ignored), in launch order.
  Expected<std::vector<double>> measure(const std::string &mangled, const Step &prepare,
                                        const Step &launch, unsigned repeats,
                                        Resources *resources = nullptr);
  /// The median of `samples` (mean of the middle two for an even count); 0 for none.
  static double median(std::vector<double> samples);
};

} // namespace warplens::probe
