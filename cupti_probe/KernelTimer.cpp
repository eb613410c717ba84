/// \file
/// KernelTimer: CUPTI activity buffers, kernel records filtered by function name.
#include "cupti_probe/KernelTimer.h"

#include "cupti_probe/CudaCheck.h"

#include <cupti_activity.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace warplens::probe {

namespace {

struct KernelSpan {
  std::string name;
  std::uint64_t start = 0, end = 0;
  KernelTimer::Resources res;
};

std::mutex gMutex;
std::vector<KernelSpan> gSpans;
constexpr std::size_t kBufferBytes = 1 << 20;

void CUPTIAPI bufferRequested(std::uint8_t **buffer, std::size_t *size, std::size_t *maxRecords) {
  *buffer = static_cast<std::uint8_t *>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *maxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, std::uint32_t, std::uint8_t *buffer, std::size_t,
                              std::size_t validSize) {
  CUpti_Activity *record = nullptr;
  std::lock_guard<std::mutex> lock(gMutex);
  while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
        record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
      continue;
    // start/end/name sit at the same offsets in every kernel record version.
    const auto *k = reinterpret_cast<const CUpti_ActivityKernel10 *>(record);
    gSpans.push_back({k->name ? k->name : "", k->start, k->end,
                      {k->registersPerThread, static_cast<unsigned>(k->staticSharedMemory),
                       static_cast<unsigned>(k->dynamicSharedMemory)}});
  }
  std::free(buffer);
}

} // namespace

Expected<std::unique_ptr<KernelTimer>> KernelTimer::create() {
  static bool registered = false;
  if (!registered) {
    PROBE_CUPTI(cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted));
    registered = true;
  }
  return std::unique_ptr<KernelTimer>(new KernelTimer());
}

Expected<std::vector<double>> KernelTimer::measure(const std::string &mangled, const Step &prepare,
                                                   const Step &launch, unsigned repeats,
                                                   Resources *resources) {
  {
    std::lock_guard<std::mutex> lock(gMutex);
    gSpans.clear();
  }
  PROBE_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  Status st;
  for (unsigned i = 0; i < repeats && st; ++i) {
    st = prepare();
    if (st) st = launch();
  }
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (!st) return st.error();
  std::vector<double> out;
  std::lock_guard<std::mutex> lock(gMutex);
  for (const auto &s : gSpans)
    if (s.name == mangled && s.end > s.start) {
      out.push_back(static_cast<double>(s.end - s.start));
      if (resources) *resources = s.res;
    }
  gSpans.clear();
  if (out.empty())
    return Error{"kernel timer: no activity record of " + mangled + " after " +
                     std::to_string(repeats) + " launch(es)",
                 1};
  return out;
}

double KernelTimer::median(std::vector<double> s) {
  if (s.empty()) return 0;
  std::sort(s.begin(), s.end());
  std::size_t n = s.size();
  return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

} // namespace warplens::probe
