/// \file
/// Turns CUDA runtime, driver and CUPTI return codes into warplens::Error values whose message
/// names the failing call and, for the common causes (no GPU, no profiling permission), the fix.
#pragma once

#include "util/Expected.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_result.h>

#include <string>

namespace warplens::probe {

std::string cudaMessage(const char *call, cudaError_t r);
std::string driverMessage(const char *call, CUresult r);
std::string cuptiMessage(const char *call, CUptiResult r);

/// True for errors after which the CUDA context is unusable (kernel faults).
bool isStickyDriverError(CUresult r);

} // namespace warplens::probe

/// Return an Error from the enclosing function (returning Expected/Status) if the call fails.
#define PROBE_CUDA(call)                                                                         \
  do {                                                                                           \
    cudaError_t probe_r_ = (call);                                                               \
    if (probe_r_ != cudaSuccess)                                                                 \
      return ::warplens::Error{::warplens::probe::cudaMessage(#call, probe_r_), 1};             \
  } while (0)
#define PROBE_CU(call)                                                                           \
  do {                                                                                           \
    CUresult probe_r_ = (call);                                                                  \
    if (probe_r_ != CUDA_SUCCESS)                                                                \
      return ::warplens::Error{::warplens::probe::driverMessage(#call, probe_r_), 1};           \
  } while (0)
#define PROBE_CUPTI(call)                                                                        \
  do {                                                                                           \
    CUptiResult probe_r_ = (call);                                                               \
    if (probe_r_ != CUPTI_SUCCESS)                                                               \
      return ::warplens::Error{::warplens::probe::cuptiMessage(#call, probe_r_), 1};            \
  } while (0)
