/// \file
/// RangeProfiler: host config (metric validation, config image, pass count) and per-launch
/// measurement (enable, counter data image, set config, passes, decode, evaluate, disable).
#include "cupti_probe/RangeProfiler.h"

#include "cupti_probe/CudaCheck.h"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>

namespace warplens::probe {

namespace {

Expected<CUpti_Profiler_Host_Object *> hostFor(const GpuSession &session,
                                              const std::vector<const char *> &names) {
  CUpti_Profiler_Host_Initialize_Params init{};
  init.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = session.chip().c_str();
  init.pCounterAvailabilityImage = session.counterAvailability().data();
  PROBE_CUPTI(cuptiProfilerHostInitialize(&init));
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{};
  add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
  add.pHostObject = init.pHostObject;
  add.ppMetricNames = const_cast<const char **>(names.data());
  add.numMetrics = names.size();
  CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add);
  if (r != CUPTI_SUCCESS) {
    CUpti_Profiler_Host_Deinitialize_Params d{};
    d.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
    d.pHostObject = init.pHostObject;
    cuptiProfilerHostDeinitialize(&d);
    return Error{cuptiMessage("cuptiProfilerHostConfigAddMetrics", r), 1};
  }
  return init.pHostObject;
}

/// Disables the range profiler object when it goes out of scope (every exit path).
struct EnabledObject {
  CUpti_RangeProfiler_Object *object = nullptr;
  bool started = false;
  ~EnabledObject() {
    if (started) {
      CUpti_RangeProfiler_Stop_Params s{};
      s.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
      s.pRangeProfilerObject = object;
      cuptiRangeProfilerStop(&s);
    }
    if (object) {
      CUpti_RangeProfiler_Disable_Params d{};
      d.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
      d.pRangeProfilerObject = object;
      cuptiRangeProfilerDisable(&d);
    }
  }
};

} // namespace

Expected<std::unique_ptr<RangeProfiler>> RangeProfiler::create(
    const GpuSession &session, const std::vector<std::string> &metrics,
    std::vector<std::string> &warnings) {
  if (session.chip().empty()) return Error{"range profiler: unknown chip name", 1};
  std::unique_ptr<RangeProfiler> p(new RangeProfiler());
  std::vector<const char *> all;
  for (const auto &m : metrics) all.push_back(m.c_str());
  auto host = hostFor(session, all);
  if (host) {
    p->metrics_ = metrics;
  } else {
    // Find the metric(s) at fault one by one, keep the rest.
    for (const auto &m : metrics) {
      auto one = hostFor(session, {m.c_str()});
      if (one) {
        p->metrics_.push_back(m);
        CUpti_Profiler_Host_Deinitialize_Params d{};
        d.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
        d.pHostObject = one.value();
        cuptiProfilerHostDeinitialize(&d);
      } else {
        warnings.push_back("range profiler: metric " + m + " dropped: " + one.error().message);
      }
    }
    if (p->metrics_.empty()) return Error{"range profiler: no metric accepted (" + host.error().message + ")", 1};
    std::vector<const char *> kept;
    for (const auto &m : p->metrics_) kept.push_back(m.c_str());
    host = hostFor(session, kept);
    if (!host) return host.error();
  }
  p->host_ = host.value();
  for (const auto &m : p->metrics_) p->metricPtrs_.push_back(m.c_str());

  CUpti_Profiler_Host_GetConfigImageSize_Params size{};
  size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
  size.pHostObject = p->host_;
  PROBE_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
  p->config_.assign(size.configImageSize, 0);
  CUpti_Profiler_Host_GetConfigImage_Params image{};
  image.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
  image.pHostObject = p->host_;
  image.configImageSize = p->config_.size();
  image.pConfigImage = p->config_.data();
  PROBE_CUPTI(cuptiProfilerHostGetConfigImage(&image));
  CUpti_Profiler_Host_GetNumOfPasses_Params passes{};
  passes.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
  passes.configImageSize = p->config_.size();
  passes.pConfigImage = p->config_.data();
  PROBE_CUPTI(cuptiProfilerHostGetNumOfPasses(&passes));
  p->passes_ = passes.numOfPasses;
  return p;
}

RangeProfiler::~RangeProfiler() {
  if (host_) {
    CUpti_Profiler_Host_Deinitialize_Params d{};
    d.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
    d.pHostObject = host_;
    cuptiProfilerHostDeinitialize(&d);
  }
}

Expected<RangeProfiler::Measurement> RangeProfiler::measure(CUcontext ctx,
                                                            const std::string &rangeName,
                                                            const Step &prepare, const Step &launch,
                                                            Mode mode, const Step &inside) {
  const bool userReplay = mode != Mode::KernelReplay;
  const bool userRange = mode == Mode::UserRange;
  if (inside && userRange) return Error{"range profiler: a step inside the range needs auto range", 1};
  const std::size_t rangesPerPass = inside ? 2 : 1;
  Measurement out;
  EnabledObject obj;
  CUpti_RangeProfiler_Enable_Params en{};
  en.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
  en.ctx = ctx;
  PROBE_CUPTI(cuptiRangeProfilerEnable(&en));
  obj.object = en.pRangeProfilerObject;

  CUpti_RangeProfiler_GetCounterDataSize_Params ds{};
  ds.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
  ds.pRangeProfilerObject = obj.object;
  ds.pMetricNames = metricPtrs_.data();
  ds.numMetrics = metricPtrs_.size();
  ds.maxNumOfRanges = rangesPerPass;
  ds.maxNumRangeTreeNodes = rangesPerPass;
  PROBE_CUPTI(cuptiRangeProfilerGetCounterDataSize(&ds));
  std::vector<std::uint8_t> counterData(ds.counterDataSize, 0);
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci{};
  ci.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
  ci.pRangeProfilerObject = obj.object;
  ci.counterDataSize = counterData.size();
  ci.pCounterData = counterData.data();
  PROBE_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&ci));

  CUpti_RangeProfiler_SetConfig_Params sc{};
  sc.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
  sc.pRangeProfilerObject = obj.object;
  sc.configSize = config_.size();
  sc.pConfig = config_.data();
  sc.counterDataImageSize = counterData.size();
  sc.pCounterDataImage = counterData.data();
  sc.range = userRange ? CUPTI_UserRange : CUPTI_AutoRange;
  sc.replayMode = userReplay ? CUPTI_UserReplay : CUPTI_KernelReplay;
  sc.maxRangesPerPass = rangesPerPass;
  sc.numNestingLevels = 1;
  sc.minNestingLevel = 1;
  sc.passIndex = 0;
  sc.targetNestingLevel = 1;
  PROBE_CUPTI(cuptiRangeProfilerSetConfig(&sc));

  const std::size_t maxPasses = std::max<std::size_t>(passes_, 1) + 4;
  bool allSubmitted = false;
  while (!allSubmitted) {
    if (out.passes >= maxPasses)
      return Error{"range profiler: not all passes submitted after " + std::to_string(out.passes) +
                       " passes (config says " + std::to_string(passes_) + ")",
                   1};
    if (userReplay || out.passes == 0) WL_CHECK(prepare());
    CUpti_RangeProfiler_Start_Params st{};
    st.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
    st.pRangeProfilerObject = obj.object;
    PROBE_CUPTI(cuptiRangeProfilerStart(&st));
    obj.started = true;
    if (userRange) {
      CUpti_RangeProfiler_PushRange_Params push{};
      push.structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE;
      push.pRangeProfilerObject = obj.object;
      push.pRangeName = rangeName.c_str();
      PROBE_CUPTI(cuptiRangeProfilerPushRange(&push));
    }
    if (inside) WL_CHECK(inside());
    WL_CHECK(launch());
    if (userRange) {
      CUpti_RangeProfiler_PopRange_Params pop{};
      pop.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE;
      pop.pRangeProfilerObject = obj.object;
      PROBE_CUPTI(cuptiRangeProfilerPopRange(&pop));
    }
    CUpti_RangeProfiler_Stop_Params sp{};
    sp.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
    sp.pRangeProfilerObject = obj.object;
    obj.started = false;
    PROBE_CUPTI(cuptiRangeProfilerStop(&sp));
    ++out.passes;
    allSubmitted = sp.isAllPassSubmitted != 0;
    if (!userReplay && !allSubmitted) {
      // Kernel replay submits every pass inside the one launch; anything else is unexpected.
      return Error{"range profiler (kernel replay): cuptiRangeProfilerStop reports passes "
                   "outstanding after the launch",
                   1};
    }
  }

  CUpti_RangeProfiler_DecodeData_Params dd{};
  dd.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
  dd.pRangeProfilerObject = obj.object;
  PROBE_CUPTI(cuptiRangeProfilerDecodeData(&dd));
  if (dd.numOfRangeDropped > 0)
    return Error{"range profiler: " + std::to_string(dd.numOfRangeDropped) +
                     " range(s) dropped (counter data image too small or kernel not captured)",
                 1};

  CUpti_RangeProfiler_GetCounterDataInfo_Params info{};
  info.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
  info.pCounterDataImage = counterData.data();
  info.counterDataImageSize = counterData.size();
  PROBE_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
  if (info.numTotalRanges == 0) return Error{"range profiler: no range recorded for the launch", 1};
  if (info.numTotalRanges > rangesPerPass)
    out.notes.push_back("range profiler: " + std::to_string(info.numTotalRanges) +
                        " ranges recorded, range " + std::to_string(rangesPerPass - 1) + " is reported");
  if (info.numTotalRanges < rangesPerPass)
    return Error{"range profiler: " + std::to_string(info.numTotalRanges) + " range(s) recorded, " +
                     std::to_string(rangesPerPass) + " expected (step inside the range + kernel)",
                 1};

  std::vector<double> values(metricPtrs_.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{};
  ev.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
  ev.pHostObject = host_;
  ev.pCounterDataImage = counterData.data();
  ev.counterDataImageSize = counterData.size();
  ev.rangeIndex = rangesPerPass - 1;
  ev.ppMetricNames = metricPtrs_.data();
  ev.numMetrics = metricPtrs_.size();
  ev.pMetricValues = values.data();
  PROBE_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&ev));
  for (std::size_t i = 0; i < metrics_.size(); ++i) out.values[metrics_[i]] = values[i];
  return out;
}

} // namespace warplens::probe
