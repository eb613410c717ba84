/// \file
/// Messages for CUDA runtime, driver and CUPTI errors (see CudaCheck.h).
#include "cupti_probe/CudaCheck.h"

#include "cupti_probe/Driver.h"

#include <cupti.h>

namespace warplens::probe {

std::string cudaMessage(const char *call, cudaError_t r) {
  std::string msg = std::string(call) + " failed: " + cudaGetErrorName(r) + " (" +
                    cudaGetErrorString(r) + ")";
  if (r == cudaErrorNoDevice) msg += "; no CUDA device is visible (check nvidia-smi)";
  if (r == cudaErrorInsufficientDriver)
    msg += "; no usable NVIDIA driver (none installed, or one older than this CUDA runtime)";
  return msg;
}

std::string driverMessage(const char *call, CUresult r) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (driverApiLoaded()) {
    cu().cuGetErrorName(r, &name);
    cu().cuGetErrorString(r, &text);
  }
  std::string msg = std::string(call) + " failed: " + (name ? name : "CUresult") + " " +
                    std::to_string(static_cast<int>(r));
  if (text) msg += std::string(" (") + text + ")";
  if (r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_IMAGE)
    msg += "; the cubin was built for another architecture";
  return msg;
}

std::string cuptiMessage(const char *call, CUptiResult r) {
  const char *text = nullptr;
  cuptiGetResultString(r, &text);
  std::string msg = std::string(call) + " failed: " + (text ? text : "CUptiResult") + " (" +
                    std::to_string(static_cast<int>(r)) + ")";
  switch (r) {
  case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    msg += "; GPU performance counters need root, or the nvidia kernel module option "
           "NVreg_RestrictProfilingToAdminUsers=0";
    break;
  case CUPTI_ERROR_NOT_SUPPORTED:
  case CUPTI_ERROR_NOT_COMPATIBLE:
    msg += "; this GPU/driver/configuration does not support this CUPTI API (vGPU, MIG, "
           "confidential compute or an unsupported chip)";
    break;
  case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
    msg += "; the legacy event/metric API is gone in CUDA 13";
    break;
  case CUPTI_ERROR_INVALID_METRIC_NAME:
    msg += "; the metric name is not known for this chip";
    break;
  default:
    break;
  }
  return msg;
}

bool isStickyDriverError(CUresult r) {
  switch (r) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
    return true;
  default:
    return false;
  }
}

} // namespace warplens::probe
