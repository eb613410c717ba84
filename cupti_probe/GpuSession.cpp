/// \file
/// GpuSession: primary context, device description, CUPTI profiler initialisation, L2 flush.
#include "cupti_probe/GpuSession.h"

#include "cupti_probe/CudaCheck.h"
#include "cupti_probe/Driver.h"

#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

namespace warplens::probe {

namespace {

/// "580.65.06" from /proc/driver/nvidia/version, or "" when not readable.
std::string driverRelease() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line)) return "";
  std::istringstream words(line);
  std::string w, found;
  while (words >> w) {
    bool dotted = w.find('.') != std::string::npos && !w.empty() && std::isdigit(w[0]);
    if (dotted) {
      found = w;
      break;
    }
  }
  return found;
}

std::string versionString(int v) { // 13000 → "13.0"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

std::string today() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

/// Reads n16 16-byte words grid-stride and stores nothing (the xor of equal words is 0): evicts
/// every line of the L2 without leaving dirty ones.
const char *kFlushPtx = R"(.version 7.0
.target sm_70
.address_size 64
.visible .entry wl_l2_flush_read(.param .u64 buf, .param .u64 n16, .param .u64 sink)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [buf];
  ld.param.u64 %rd2, [n16];
  ld.param.u64 %rd3, [sink];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  mul.wide.u32 %rd6, %r4, %r2;
  mov.u32 %r5, 0;
LOOP:
  setp.ge.u64 %p1, %rd4, %rd2;
  @%p1 bra DONE;
  shl.b64 %rd7, %rd4, 4;
  add.u64 %rd7, %rd1, %rd7;
  ld.global.v4.u32 {%r6, %r7, %r8, %r9}, [%rd7];
  xor.b32 %r5, %r5, %r6;
  xor.b32 %r5, %r5, %r7;
  xor.b32 %r5, %r5, %r8;
  xor.b32 %r5, %r5, %r9;
  add.u64 %rd4, %rd4, %rd6;
  bra LOOP;
DONE:
  setp.ne.u32 %p1, %r5, 2147483647;
  @%p1 ret;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

const char *levelName(CUpti_Profiler_Support_Level l) {
  switch (l) {
  case CUPTI_PROFILER_CONFIGURATION_SUPPORTED: return "supported";
  case CUPTI_PROFILER_CONFIGURATION_DISABLED: return "disabled";
  case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED: return "unsupported";
  default: return "unknown";
  }
}

/// Empty when `api` is supported, else which part of the configuration is not.
std::string supportProblem(CUdevice dev, CUpti_Profiler_API api) {
  CUpti_Profiler_DeviceSupported_Params p{};
  p.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
  p.cuDevice = dev;
  p.api = api;
  CUptiResult r = cuptiProfilerDeviceSupported(&p);
  if (r != CUPTI_SUCCESS) return cuptiMessage("cuptiProfilerDeviceSupported", r);
  if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return "";
  std::string why = std::string("profiling is ") + levelName(p.isSupported) + ":";
  auto add = [&](const char *what, CUpti_Profiler_Support_Level l) {
    if (l != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) why += std::string(" ") + what + "=" + levelName(l);
  };
  add("architecture", p.architecture);
  add("sli", p.sli);
  add("vGpu", p.vGpu);
  add("confidentialCompute", p.confidentialCompute);
  add("cmp", p.cmp);
  add("wsl", p.wsl);
  return why;
}

} // namespace

Expected<std::unique_ptr<GpuSession>> GpuSession::open(int device, bool profiling) {
  std::unique_ptr<GpuSession> s(new GpuSession());
  s->ordinal_ = device;
  int count = 0;
  cudaError_t cr = cudaGetDeviceCount(&count);
  if (cr != cudaSuccess) return Error{cudaMessage("cudaGetDeviceCount", cr), 1};
  if (count == 0) return Error{"warplens probe: no CUDA device found", 1};
  if (device < 0 || device >= count)
    return Error{"warplens probe: device " + std::to_string(device) + " out of range (" +
                     std::to_string(count) + " devices)",
                 2};
  PROBE_CUDA(cudaSetDevice(device));
  PROBE_CUDA(cudaFree(nullptr)); // creates the primary context
  WL_CHECK(loadDriverApi());
  PROBE_CU(cu().cuCtxGetCurrent(&s->ctx_));
  if (!s->ctx_) return Error{"cuCtxGetCurrent returned no context after cudaFree(0)", 1};
  PROBE_CU(cu().cuDeviceGet(&s->dev_, device));

  cudaDeviceProp prop{};
  PROBE_CUDA(cudaGetDeviceProperties(&prop, device));
  s->arch_ = "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
  s->l2Bytes_ = static_cast<std::uint64_t>(prop.l2CacheSize);
  int runtime = 0, driverApi = 0;
  PROBE_CUDA(cudaRuntimeGetVersion(&runtime));
  PROBE_CU(cu().cuDriverGetVersion(&driverApi));
  std::string release = driverRelease();
  s->desc_ = std::string(prop.name) + ", driver " +
             (release.empty() ? "(CUDA " + versionString(driverApi) + ")" : release) + ", CUDA " +
             versionString(runtime) + ", " + today();

  // Flush buffer: twice the L2 (at least 8 MiB).
  std::size_t factor = 2;
  if (const char *e = std::getenv("WARPLENS_PROBE_FLUSH_FACTOR")) // experiment (issue 12, item 0)
    factor = std::max<std::size_t>(1, std::strtoul(e, nullptr, 10));
  s->flushBytes_ = std::max<std::size_t>(factor * s->l2Bytes_, 8u << 20);
  if (factor != 2) s->notes_.push_back("L2 flush buffer " + std::to_string(factor) + "x the L2 (WARPLENS_PROBE_FLUSH_FACTOR)");
  PROBE_CU(cu().cuMemAlloc(&s->flush_, s->flushBytes_));
  PROBE_CU(cu().cuMemsetD32(s->flush_, 0x5a5a5a5au, s->flushBytes_ / 4));
  // The flush reads the buffer (a write flush would leave the L2 full of dirty lines whose
  // write-back then costs the measured kernel DRAM time, unlike Nsight Compute's clean flush).
  if (cu().cuModuleLoadData(&s->flushModule_, kFlushPtx) != CUDA_SUCCESS ||
      cu().cuModuleGetFunction(&s->flushFn_, s->flushModule_, "wl_l2_flush_read") != CUDA_SUCCESS) {
    s->flushFn_ = nullptr;
    s->notes_.push_back("L2 flush: the read kernel did not load; flushing by memset (leaves dirty "
                        "lines in L2: DRAM write-backs during the next kernel)");
  }
  PROBE_CU(cu().cuCtxSynchronize());

  if (!profiling) return s;
  CUpti_Profiler_Initialize_Params init{};
  init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
  PROBE_CUPTI(cuptiProfilerInitialize(&init));
  s->profilerInitialized_ = true;

  std::string problem = supportProblem(s->dev_, CUPTI_PROFILER_RANGE_PROFILING);
  if (!problem.empty()) s->notes_.push_back("range profiler: " + problem);
  problem = supportProblem(s->dev_, CUPTI_PROFILER_SASS_METRICS);
  if (!problem.empty()) s->notes_.push_back("SASS metrics: " + problem);

  CUpti_Device_GetChipName_Params chip{};
  chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  chip.deviceIndex = static_cast<size_t>(device);
  PROBE_CUPTI(cuptiDeviceGetChipName(&chip));
  s->chip_ = chip.pChipName ? chip.pChipName : "";

  CUpti_Profiler_GetCounterAvailability_Params avail{};
  avail.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
  avail.ctx = s->ctx_;
  PROBE_CUPTI(cuptiProfilerGetCounterAvailability(&avail));
  s->availability_.assign(avail.counterAvailabilityImageSize, 0);
  avail.pCounterAvailabilityImage = s->availability_.data();
  PROBE_CUPTI(cuptiProfilerGetCounterAvailability(&avail));
  return s;
}

GpuSession::~GpuSession() {
  if (flush_) cu().cuMemFree(flush_);
  if (flushModule_) cu().cuModuleUnload(flushModule_);
  if (profilerInitialized_) {
    CUpti_Profiler_DeInitialize_Params p{};
    p.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE;
    cuptiProfilerDeInitialize(&p);
  }
}

Status GpuSession::flushL2() {
  // Alternate the fill value so each flush really writes every line.
  static unsigned counter = 0;
  ++counter;
  if (!flushFn_) {
    PROBE_CU(cu().cuMemsetD32(flush_, 0x5a5a0000u + counter, flushBytes_ / 4));
    return synchronize("L2 flush");
  }
  CUdeviceptr buf = flush_;
  unsigned long long n16 = flushBytes_ / 16;
  CUdeviceptr sink = flush_;
  void *params[] = {&buf, &n16, &sink};
  PROBE_CU(cu().cuLaunchKernel(flushFn_, 1024, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  return synchronize("L2 flush");
}

Status GpuSession::synchronize(const char *what) {
  CUresult r = cu().cuCtxSynchronize();
  if (r != CUDA_SUCCESS)
    return Error{driverMessage((std::string("cuCtxSynchronize after ") + what).c_str(), r), 1};
  return {};
}

} // namespace warplens::probe
