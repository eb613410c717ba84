/// \file
/// Exact per-SASS-instruction counts with the CUPTI SASS Metrics API: the kernel is patched,
/// launched once, and the per-pc values are flushed. Counts are computed from the real
/// addresses, so they carry none of the arbitration noise of the hardware counters.
#pragma once

#include "cupti_probe/GpuSession.h"
#include "util/Expected.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warplens::probe {

/// pc offset in the function → metric name → value (summed over instances).
using PcMetrics = std::map<std::uint64_t, std::map<std::string, std::uint64_t>>;

class SassMetricsPass {
public:
  /// Resolves metric ids for the chip; unknown names are skipped with a line in `warnings`.
  static Expected<std::unique_ptr<SassMetricsPass>> create(const GpuSession &session,
                                                           const std::vector<std::string> &names,
                                                           std::vector<std::string> &warnings);
  using Step = std::function<Status()>;
  /// SetConfig (first call only), Enable (lazy patching), prepare + launch once,
  /// GetDataProperties, FlushData, Disable. Records of functions other than `mangled` are ignored (counted in
  /// `notes`).
  Expected<PcMetrics> measure(CUcontext ctx, const std::string &mangled, const Step &prepare,
                              const Step &launch, std::vector<std::string> &notes);
  const std::vector<std::string> &metrics() const { return names_; }
  ~SassMetricsPass(); ///< cuptiSassMetricsUnsetConfig when configured
  SassMetricsPass(const SassMetricsPass &) = delete;
  SassMetricsPass &operator=(const SassMetricsPass &) = delete;

  /// Every SASS metric of `chip`: "name  description".
  static Expected<std::vector<std::string>> list(const std::string &chip);

private:
  SassMetricsPass() = default;
  int device_ = 0;
  std::vector<std::string> names_;
  std::vector<std::uint64_t> ids_;
  /// SetConfig is done once per session: calling it again for every launch (even after
  /// UnsetConfig) fails with CUPTI_ERROR_OUT_OF_MEMORY after the first (seen on GH100, CUPTI 13.0).
  bool configured_ = false;
};

} // namespace warplens::probe
