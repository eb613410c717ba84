/// \file
/// One launch spec on the device: host buffers from launch::makeBuffers copied into 512-byte
/// aligned device allocations, kernel parameters packed and checked against the kernel's
/// parameter layout (cuFuncGetParamInfo), launches, and copies back.
#pragma once

#include "cupti_probe/ModuleCache.h"
#include "launch/LaunchSpec.h"
#include "util/Expected.h"

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace warplens::probe {

class LaunchRunner {
public:
  /// Makes the host buffers, allocates device memory and packs the arguments.
  static Expected<std::unique_ptr<LaunchRunner>> create(const launch::LaunchSpec &spec,
                                                        const FoundKernel &kernel);
  ~LaunchRunner();
  LaunchRunner(const LaunchRunner &) = delete;
  LaunchRunner &operator=(const LaunchRunner &) = delete;

  /// Copies the initial contents of every buffer to the device (fresh inputs for each pass).
  Status upload();
  /// cuLaunchKernel on the default stream, then cuCtxSynchronize (errors name which failed).
  Status launch();
  /// Copies every buffer back (same order and shape as inputs()).
  Expected<std::vector<launch::HostBuffer>> download();

  const std::vector<launch::HostBuffer> &inputs() const { return inputs_; }
  const FoundKernel &kernel() const { return kernel_; }
  /// Last driver error seen by launch/synchronise (for detecting a lost context).
  CUresult lastDriverError() const { return lastError_; }

private:
  LaunchRunner() = default;
  Status packArgs();
  const launch::LaunchSpec *spec_ = nullptr;
  FoundKernel kernel_;
  std::vector<launch::HostBuffer> inputs_;
  std::vector<CUdeviceptr> rawAlloc_;  ///< what cuMemAlloc returned
  std::vector<CUdeviceptr> base_;      ///< 512-byte aligned start of each buffer
  std::vector<std::uint64_t> argStorage_; ///< one 8-byte slot per argument
  std::vector<void *> params_;
  std::vector<CUtensorMap> tensorMaps_;   ///< "tensor_map" arguments (64-byte aligned, 128 bytes)
  CUresult lastError_ = CUDA_SUCCESS;
};

} // namespace warplens::probe
