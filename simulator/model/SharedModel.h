/// \file
/// Bank model for shared memory: one warp instruction → wavefronts, ideal wavefronts, conflict
/// ways, and per-bank occupancy for diagrams. Does not model arbitration with other L1 traffic
/// (the extra wavefronts hardware counters show when global accesses run at the same time).
#pragma once

#include "arch/ArchSpec.h"
#include "model/AccessEvent.h"

#include <vector>

namespace warplens::model {

struct SharedCost {
  std::uint32_t wavefronts = 0;
  std::uint32_t wavefrontsIdeal = 0;
  std::uint32_t conflictWays = 0; ///< max distinct words any one bank must serve (1 = no conflict)
};

/// For diagrams: which lanes hit which bank, and which word of the bank each touched.
struct BankDiagram {
  struct Hit {
    unsigned lane;
    unsigned bank;
    std::uint64_t word; ///< byte address / bank width
    unsigned phase;
  };
  std::vector<Hit> hits;
  std::vector<unsigned> distinctWordsPerBank; ///< size = banks
};

class SharedModel {
public:
  explicit SharedModel(const arch::ArchSpec &arch);
  SharedCost cost(const AccessEvent &event) const;
  BankDiagram diagram(const AccessEvent &event) const;

private:
  const arch::ArchSpec *arch_;
};

} // namespace warplens::model
