/// \file
/// Run-time resolution of the driver API through cudaGetDriverEntryPointByVersion (see Driver.h).
#include "cupti_probe/Driver.h"

#include <cuda_runtime_api.h>

#include <string>

namespace warplens::probe {

namespace {

DriverApi g_api;
bool g_loaded = false;

/// `symbol` is the base name ("cuMemAlloc"); the version picks the ABI cuda.h declares.
Status resolve(const char *symbol, void **fn, bool required) {
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  cudaError_t r = cudaGetDriverEntryPointByVersion(symbol, fn, kDriverAbiVersion, cudaEnableDefault,
                                                   &status);
  if (r == cudaSuccess && status == cudaDriverEntryPointSuccess && *fn) return {};
  *fn = nullptr;
  if (!required) return {};
  std::string why = r != cudaSuccess ? std::string(cudaGetErrorName(r)) + " (" +
                                           cudaGetErrorString(r) + ")"
                    : status == cudaDriverEntryPointVersionNotSufficent
                        ? std::string("the driver is older than CUDA 12.4")
                        : std::string("symbol not found in the driver");
  return Error{std::string("cudaGetDriverEntryPointByVersion(\"") + symbol + "\") failed: " + why,
               1};
}

} // namespace

Status loadDriverApi() {
  if (g_loaded) return {};
  DriverApi api;
#define WL_RESOLVE(name, required)                                                               \
  WL_CHECK(resolve(#name, reinterpret_cast<void **>(&api.name), required));
  WL_RESOLVE(cuGetErrorName, true)
  WL_RESOLVE(cuGetErrorString, true)
  WL_RESOLVE(cuDriverGetVersion, true)
  WL_RESOLVE(cuDeviceGet, true)
  WL_RESOLVE(cuCtxGetCurrent, true)
  WL_RESOLVE(cuCtxSynchronize, true)
  WL_RESOLVE(cuMemAlloc, true)
  WL_RESOLVE(cuMemFree, true)
  WL_RESOLVE(cuMemsetD32, true)
  WL_RESOLVE(cuMemcpyHtoD, true)
  WL_RESOLVE(cuMemcpyDtoH, true)
  WL_RESOLVE(cuModuleLoad, true)
  WL_RESOLVE(cuModuleLoadData, true)
  WL_RESOLVE(cuModuleUnload, true)
  WL_RESOLVE(cuModuleGetFunction, true)
  WL_RESOLVE(cuModuleGetFunctionCount, true)
  WL_RESOLVE(cuModuleEnumerateFunctions, true)
  WL_RESOLVE(cuFuncGetName, true)
  WL_RESOLVE(cuFuncGetParamInfo, false)
  WL_RESOLVE(cuFuncSetAttribute, true)
  WL_RESOLVE(cuLaunchKernel, true)
  WL_RESOLVE(cuTensorMapEncodeTiled, false)
  WL_RESOLVE(cuLaunchKernelEx, false)
#undef WL_RESOLVE
  g_api = api;
  g_loaded = true;
  return {};
}

const DriverApi &cu() { return g_api; }
bool driverApiLoaded() { return g_loaded; }

} // namespace warplens::probe
