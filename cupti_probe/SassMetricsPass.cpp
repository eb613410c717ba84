/// \file
/// SassMetricsPass: CUPTI SASS Metrics set-up, one patched launch, flush into per-pc values.
#include "cupti_probe/SassMetricsPass.h"

#include "cupti_probe/CudaCheck.h"

#include <cupti_sass_metrics.h>

namespace warplens::probe {

namespace {

/// Disables collection on every exit path.
struct SassGuard {
  CUcontext ctx = nullptr;
  bool enabled = false;
  std::size_t dropped = 0;
  void disable() {
    if (!enabled) return;
    CUpti_SassMetricsDisable_Params d{};
    d.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE;
    d.ctx = ctx;
    cuptiSassMetricsDisable(&d);
    dropped = d.numOfDroppedRecords;
    enabled = false;
  }
  ~SassGuard() { disable(); }
};

} // namespace

Expected<std::unique_ptr<SassMetricsPass>> SassMetricsPass::create(
    const GpuSession &session, const std::vector<std::string> &names,
    std::vector<std::string> &warnings) {
  std::unique_ptr<SassMetricsPass> p(new SassMetricsPass());
  p->device_ = session.ordinal();
  for (const auto &n : names) {
    CUpti_SassMetrics_GetProperties_Params gp{};
    gp.structSize = CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE;
    gp.pChipName = session.chip().c_str();
    gp.pMetricName = n.c_str();
    CUptiResult r = cuptiSassMetricsGetProperties(&gp);
    if (r != CUPTI_SUCCESS) {
      warnings.push_back("SASS metrics: " + n + " skipped: " +
                         cuptiMessage("cuptiSassMetricsGetProperties", r));
      continue;
    }
    p->names_.push_back(n);
    p->ids_.push_back(gp.metric.metricId);
  }
  if (p->names_.empty()) return Error{"SASS metrics: none of the requested metrics exist on " + session.chip(), 1};
  return p;
}

Expected<PcMetrics> SassMetricsPass::measure(CUcontext ctx, const std::string &mangled,
                                             const Step &prepare, const Step &launch,
                                             std::vector<std::string> &notes) {
  SassGuard guard;
  guard.ctx = ctx;

  if (!configured_) {
    std::vector<CUpti_SassMetrics_Config> configs(ids_.size());
    for (std::size_t i = 0; i < ids_.size(); ++i) {
      configs[i].metricId = ids_[i];
      configs[i].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
    }
    CUpti_SassMetricsSetConfig_Params sc{};
    sc.structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE;
    sc.numOfMetricConfig = configs.size();
    sc.pConfigs = configs.data();
    sc.deviceIndex = static_cast<std::uint32_t>(device_);
    PROBE_CUPTI(cuptiSassMetricsSetConfig(&sc));
    configured_ = true;
  }

  WL_CHECK(prepare());
  CUpti_SassMetricsEnable_Params en{};
  en.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE;
  en.ctx = ctx;
  en.enableLazyPatching = 1;
  PROBE_CUPTI(cuptiSassMetricsEnable(&en));
  guard.enabled = true;

  WL_CHECK(launch());

  CUpti_SassMetricsGetDataProperties_Params dp{};
  dp.structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE;
  dp.ctx = ctx;
  PROBE_CUPTI(cuptiSassMetricsGetDataProperties(&dp));
  PcMetrics out;
  if (dp.numOfPatchedInstructionRecords == 0 || dp.numOfInstances == 0) {
    notes.push_back("SASS metrics: no records (was the kernel patched?)");
    return out;
  }
  std::vector<CUpti_SassMetrics_Data> data(dp.numOfPatchedInstructionRecords);
  std::vector<CUpti_SassMetrics_InstanceValue> values(dp.numOfPatchedInstructionRecords *
                                                      dp.numOfInstances);
  // cupti_sass_metrics.h documents each record's structSize as
  // CUpti_SassMetricsFlushData_Params_STRUCT_SIZE (NVIDIA's sample does the same); should this
  // CUPTI reject that, retry once with sizeof(CUpti_SassMetrics_Data).
  auto prepareRecords = [&](std::size_t recordSize) {
    for (std::size_t i = 0; i < data.size(); ++i) {
      data[i] = CUpti_SassMetrics_Data{};
      data[i].structSize = recordSize;
      data[i].pInstanceValues = &values[i * dp.numOfInstances];
    }
  };
  prepareRecords(CUpti_SassMetricsFlushData_Params_STRUCT_SIZE);
  CUpti_SassMetricsFlushData_Params fd{};
  fd.structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;
  fd.ctx = ctx;
  fd.numOfPatchedInstructionRecords = data.size();
  fd.numOfInstances = dp.numOfInstances;
  fd.pMetricsData = data.data();
  CUptiResult fr = cuptiSassMetricsFlushData(&fd);
  if (fr == CUPTI_ERROR_INVALID_PARAMETER) {
    prepareRecords(sizeof(CUpti_SassMetrics_Data));
    fr = cuptiSassMetricsFlushData(&fd);
  }
  if (fr != CUPTI_SUCCESS) return Error{cuptiMessage("cuptiSassMetricsFlushData", fr), 1};
  guard.disable();
  if (guard.dropped > 0)
    notes.push_back("SASS metrics: " + std::to_string(guard.dropped) + " records dropped");

  std::map<std::uint64_t, std::string> nameOf;
  for (std::size_t i = 0; i < ids_.size(); ++i) nameOf[ids_[i]] = names_[i];
  std::size_t foreign = 0;
  for (const auto &rec : data) {
    if (rec.functionName && mangled != rec.functionName) {
      ++foreign;
      continue;
    }
    auto &slot = out[rec.pcOffset];
    for (std::size_t j = 0; j < dp.numOfInstances; ++j) {
      const auto &iv = rec.pInstanceValues[j];
      auto it = nameOf.find(iv.metricId);
      if (it == nameOf.end()) continue;
      slot[it->second] += iv.value;
    }
  }
  if (foreign > 0)
    notes.push_back("SASS metrics: " + std::to_string(foreign) +
                    " records of other functions ignored");
  return out;
}

SassMetricsPass::~SassMetricsPass() {
  if (!configured_) return;
  CUpti_SassMetricsUnsetConfig_Params u{};
  u.structSize = CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE;
  u.deviceIndex = static_cast<std::uint32_t>(device_);
  cuptiSassMetricsUnsetConfig(&u);
}

Expected<std::vector<std::string>> SassMetricsPass::list(const std::string &chip) {
  CUpti_SassMetrics_GetNumOfMetrics_Params np{};
  np.structSize = CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE;
  np.pChipName = chip.c_str();
  PROBE_CUPTI(cuptiSassMetricsGetNumOfMetrics(&np));
  std::vector<CUpti_SassMetrics_MetricDetails> details(np.numOfMetrics);
  CUpti_SassMetrics_GetMetrics_Params mp{};
  mp.structSize = CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE;
  mp.pChipName = chip.c_str();
  mp.numOfMetrics = details.size();
  mp.pMetricsList = details.data();
  PROBE_CUPTI(cuptiSassMetricsGetMetrics(&mp));
  std::vector<std::string> out;
  for (const auto &d : details)
    out.push_back(std::string(d.pMetricName ? d.pMetricName : "?") + "  " +
                  (d.pMetricDescription ? d.pMetricDescription : ""));
  return out;
}

} // namespace warplens::probe
