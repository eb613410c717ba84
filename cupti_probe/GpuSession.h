/// \file
/// One device's primary CUDA context plus CUPTI profiler initialisation: device description,
/// chip name, counter availability image, and an L2 flush buffer (2x the L2 size).
#pragma once

#include "util/Expected.h"

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace warplens::probe {

class GpuSession {
public:
  /// cudaSetDevice + cudaFree(0) (primary context; cuCtxCreate changed in CUDA 13),
  /// cuptiProfilerInitialize, cuptiDeviceGetChipName, counter availability. With
  /// `profiling` false CUPTI is not touched (plain launches only, e.g. under Nsight Compute).
  static Expected<std::unique_ptr<GpuSession>> open(int device, bool profiling = true);
  ~GpuSession();
  GpuSession(const GpuSession &) = delete;
  GpuSession &operator=(const GpuSession &) = delete;

  int ordinal() const { return ordinal_; }
  CUcontext context() const { return ctx_; }
  const std::string &arch() const { return arch_; }          ///< "sm_90"
  const std::string &chip() const { return chip_; }          ///< "GH100"
  const std::string &description() const { return desc_; }   ///< "NVIDIA H200, driver ..., CUDA 13.0, date"
  const std::vector<std::uint8_t> &counterAvailability() const { return availability_; }
  std::uint64_t l2Bytes() const { return l2Bytes_; }
  /// Notes gathered at start-up (profiling support levels that are not "supported").
  const std::vector<std::string> &notes() const { return notes_; }

  /// Reads the flush buffer (2x L2) and synchronises, so the next kernel starts with an L2 that
  /// holds none of its data and no dirty lines (as Nsight Compute's --cache-control all).
  Status flushL2();
  /// cuCtxSynchronize with a message naming `what`.
  Status synchronize(const char *what);

private:
  GpuSession() = default;
  int ordinal_ = 0;
  CUdevice dev_ = 0;
  CUcontext ctx_ = nullptr;
  std::string arch_, chip_, desc_;
  std::vector<std::uint8_t> availability_;
  std::uint64_t l2Bytes_ = 0;
  CUdeviceptr flush_ = 0;
  CUmodule flushModule_ = nullptr;
  CUfunction flushFn_ = nullptr; ///< read kernel of the clean flush (null: memset flush)
  std::size_t flushBytes_ = 0;
  bool profilerInitialized_ = false;
  std::vector<std::string> notes_;
};

} // namespace warplens::probe
