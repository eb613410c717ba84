/// \file
/// The CUDA driver API functions the probe uses, resolved at run time through the CUDA runtime
/// (cudaGetDriverEntryPointByVersion), so warplens never links libcuda.so.1 and still starts on
/// machines with the CUDA toolkit but no NVIDIA driver.
#pragma once

#include "util/Expected.h"

#include <cuda.h>
#include <cudaTypedefs.h>

namespace warplens::probe {

/// The CUDA version the entry points are requested for (see DriverApi).
constexpr unsigned kDriverAbiVersion = 12040;

/// One member per driver function (cuda.h's macros turn e.g. cuMemAlloc into cuMemAlloc_v2 in
/// member names and calls alike, so `cu().cuMemAlloc(...)` reads as usual).
struct DriverApi {
  // PFN_<name>_v<N> (cudaTypedefs.h) is the ABI of the symbol as of CUDA N; every entry point is
  // requested as of CUDA 12.4 (kDriverAbiVersion), which yields exactly these ABIs. Asking for
  // 13.0 would return e.g. cuCtxSynchronize_v2(CUcontext) instead of cuCtxSynchronize(void).
#define WL_DRIVER_FN(name, pfn) pfn name = nullptr;
  WL_DRIVER_FN(cuGetErrorName, PFN_cuGetErrorName_v6000)
  WL_DRIVER_FN(cuGetErrorString, PFN_cuGetErrorString_v6000)
  WL_DRIVER_FN(cuDriverGetVersion, PFN_cuDriverGetVersion_v2020)
  WL_DRIVER_FN(cuDeviceGet, PFN_cuDeviceGet_v2000)
  WL_DRIVER_FN(cuCtxGetCurrent, PFN_cuCtxGetCurrent_v4000)
  WL_DRIVER_FN(cuCtxSynchronize, PFN_cuCtxSynchronize_v2000)
  WL_DRIVER_FN(cuMemAlloc, PFN_cuMemAlloc_v3020)
  WL_DRIVER_FN(cuMemFree, PFN_cuMemFree_v3020)
  WL_DRIVER_FN(cuMemsetD32, PFN_cuMemsetD32_v3020)
  WL_DRIVER_FN(cuMemcpyHtoD, PFN_cuMemcpyHtoD_v3020)
  WL_DRIVER_FN(cuMemcpyDtoH, PFN_cuMemcpyDtoH_v3020)
  WL_DRIVER_FN(cuModuleLoad, PFN_cuModuleLoad_v2000)
  WL_DRIVER_FN(cuModuleLoadData, PFN_cuModuleLoadData_v2000)
  WL_DRIVER_FN(cuModuleUnload, PFN_cuModuleUnload_v2000)
  WL_DRIVER_FN(cuModuleGetFunction, PFN_cuModuleGetFunction_v2000)
  WL_DRIVER_FN(cuModuleGetFunctionCount, PFN_cuModuleGetFunctionCount_v12040)
  WL_DRIVER_FN(cuModuleEnumerateFunctions, PFN_cuModuleEnumerateFunctions_v12040)
  WL_DRIVER_FN(cuFuncGetName, PFN_cuFuncGetName_v12030)
  WL_DRIVER_FN(cuFuncGetParamInfo, PFN_cuFuncGetParamInfo_v12040)
  WL_DRIVER_FN(cuFuncSetAttribute, PFN_cuFuncSetAttribute_v9000)
  WL_DRIVER_FN(cuLaunchKernel, PFN_cuLaunchKernel_v4000)
  WL_DRIVER_FN(cuTensorMapEncodeTiled, PFN_cuTensorMapEncodeTiled_v12000)
  WL_DRIVER_FN(cuLaunchKernelEx, PFN_cuLaunchKernelEx_v11060)
#undef WL_DRIVER_FN
};

/// Resolves every entry point (once; call after the runtime has initialised, e.g. cudaFree(0)).
Status loadDriverApi();
/// The resolved functions; only valid after loadDriverApi() succeeded.
const DriverApi &cu();
/// True once loadDriverApi() succeeded.
bool driverApiLoaded();

} // namespace warplens::probe
