/// \file
/// WorstEventListener: per site, the costliest warp execution (most wavefronts for shared, most
/// sectors for global/local), how many executions were that bad, and a histogram of per-execution
/// cost. Mergeable across workers. Keeps one event per site; does not keep the other executions.
/// Skipped events (AccessEvent::skipped: the warp jumped over the instruction) are not counted.
#pragma once

#include "arch/ArchSpec.h"
#include "model/AccessEvent.h"
#include "model/GlobalModel.h"
#include "model/SharedModel.h"

#include <cstdint>
#include <map>
#include <vector>

namespace warplens::model {

struct WorstEvent {
  /// The costliest execution. Ties go to the lowest (block, warp), then to the first executed, so
  /// the choice does not depend on how blocks were spread over workers.
  AccessEvent event;
  std::uint32_t cost = 0;          ///< wavefronts (shared) or sectors (global/local); else 0
  SharedCost shared;               ///< the shared model's numbers for `event` (shared only)
  GlobalCost global;               ///< the global model's numbers for `event` (global/local only)
  std::uint64_t executions = 0;    ///< warp executions of the site
  std::uint64_t asBad = 0;         ///< executions whose cost equals `cost`
  std::vector<std::uint64_t> histogram; ///< [cost] → executions with that cost
};

/// Cost that "worst" means for an event's space: shared wavefronts, global/local sectors.
bool hasCost(Space space);

class WorstEventListener : public AccessListener {
public:
  explicit WorstEventListener(const arch::ArchSpec &arch);
  void onAccess(const AccessEvent &event) override;
  /// The representative's records with their counts times the number of replicas: every replica
  /// repeats its costs, and the tie rule keeps the lowest block (the representative's is lower).
  void onReplicas(const BlockReplicas &r) override;
  /// Combines another worker's sites into these (same tie rule as onAccess).
  void merge(const WorstEventListener &other);
  const std::map<std::uint32_t, WorstEvent> &sites() const { return sites_; }
  /// The site's record, or nullptr if it never executed.
  const WorstEvent *find(std::uint32_t site) const;

private:
  const arch::ArchSpec *arch_;
  GlobalModel global_;
  SharedModel shared_;
  std::map<std::uint32_t, WorstEvent> sites_;
};

} // namespace warplens::model
