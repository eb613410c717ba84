/// \file
/// Coalescing model for global (and local) memory: one warp instruction → requests, 32-byte
/// sectors, ideal sectors, distinct 128-byte lines. Does not model L1/L2 hits, replays caused by
/// bank conflicts in L1, or the TLB.
#pragma once

#include "arch/ArchSpec.h"
#include "model/AccessEvent.h"

namespace warplens::model {

struct GlobalCost {
  std::uint32_t requests = 0;     ///< 1 per warp instruction with at least one active lane
  std::uint32_t sectors = 0;      ///< distinct sectors touched by active lanes
  std::uint32_t sectorsIdeal = 0; ///< minimum sectors that could hold the active lanes' bytes
  std::uint32_t lines = 0;        ///< distinct lines (L1 tag requests)
  std::uint32_t bytes = 0;        ///< bytes requested by active lanes (lanes * width)
};

class GlobalModel {
public:
  explicit GlobalModel(const arch::ArchSpec &arch);
  GlobalCost cost(const AccessEvent &event) const;

private:
  unsigned sectorShift_ = 5;
  unsigned lineShift_ = 7;
  unsigned sectorBytes_ = 32;
};

} // namespace warplens::model
