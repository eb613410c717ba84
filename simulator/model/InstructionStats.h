/// \file
/// Per-site accumulation of model costs: the listener that turns a stream of access events into
/// per-instruction counts (executions, sectors, wavefronts, ...). Mergeable across threads.
#pragma once

#include "model/AccessEvent.h"
#include "model/GlobalModel.h"
#include "model/SharedModel.h"

#include <map>

namespace warplens::model {

struct InstructionStats {
  Space space = Space::Global;
  Op op = Op::Load;
  unsigned widthBytes = 0;
  std::uint64_t executed = 0;   ///< warp-level executions (events), including all-inactive ones
  std::uint64_t threads = 0;    ///< active lanes summed over executions
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;
  std::uint64_t sectorsIdeal = 0;
  std::uint64_t lines = 0;
  std::uint64_t bytes = 0;
  std::uint64_t wavefronts = 0;
  std::uint64_t wavefrontsIdeal = 0;
  std::uint32_t conflictWaysMax = 0;

  void merge(const InstructionStats &other);
};

/// Listener: runs the global model on Global/Local events and the shared model on Shared events,
/// accumulating per site.
class StatsCollector : public AccessListener {
public:
  explicit StatsCollector(const arch::ArchSpec &arch);
  void onAccess(const AccessEvent &event) override;
  const std::map<std::uint32_t, InstructionStats> &sites() const { return sites_; }
  void merge(const StatsCollector &other);

private:
  GlobalModel global_;
  SharedModel shared_;
  std::map<std::uint32_t, InstructionStats> sites_;
};

} // namespace warplens::model
