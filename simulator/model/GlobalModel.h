/// \file
/// Coalescing model for global (and local) memory: one warp instruction → requests, 32-byte
/// sectors, ideal sectors, distinct 128-byte lines. Does not model L1/L2 hits, replays caused by
/// bank conflicts in L1, the TLB, or how atomics are split (they are counted like loads/stores).
#pragma once

#include "arch/ArchSpec.h"
#include "model/AccessEvent.h"

namespace warplens::model {

struct GlobalCost {
  std::uint32_t requests = 0;     ///< 1 per warp instruction with at least one active lane
  std::uint32_t sectors = 0;      ///< distinct sectors touched by active lanes
  /// min(sectors, ceil(bytes / sectorBytes)): bytes = every active lane's bytes (duplicates
  /// included) when the arch's idealCountsDuplicateBytes is set (sm_90, measured), else the
  /// distinct bytes; never more than the sectors actually touched.
  std::uint32_t sectorsIdeal = 0;
  std::uint32_t lines = 0;        ///< distinct lines (L1 tag requests)
  std::uint32_t bytes = 0;        ///< bytes requested by active lanes (lanes * width)
};

class GlobalModel {
public:
  explicit GlobalModel(const arch::ArchSpec &arch);
  GlobalCost cost(const AccessEvent &event) const;
  /// Testing: allow the AVX-512 path where the CPU has it (the default), or only the portable
  /// scalar paths. Both give identical results.
  void setVectorised(bool on);
  bool vectorised() const { return simd_; }

private:
  /// Every active lane aligned to a power-of-two width no larger than a sector, in any order.
  GlobalCost costAligned(const AccessEvent &event, unsigned width, GlobalCost partial) const;
  /// Ideal sectors for `bytes` (per the arch rule), capped at the sectors touched.
  std::uint32_t ideal(std::uint64_t bytes, std::uint32_t sectors) const;

  unsigned sectorShift_ = 5;
  unsigned lineShift_ = 7;
  unsigned sectorBytes_ = 32;
  bool idealCountsDuplicates_ = false;
  bool simd_ = false; ///< use GlobalModelSimd.cpp's sorted-key path (AVX-512 CPUs)
};

} // namespace warplens::model
