/// \file
/// Per-site accumulation of model costs: the listener that turns a stream of access events into
/// per-instruction counts (executions, sectors, wavefronts, ...). Mergeable across threads.
#pragma once

#include "model/AccessEvent.h"
#include "model/GlobalModel.h"
#include "model/SharedModel.h"

#include <map>
#include <vector>

namespace warplens::model {

struct InstructionStats {
  Space space = Space::Global;
  Op op = Op::Load;
  unsigned widthBytes = 0;
  std::uint64_t executed = 0;   ///< warp-level executions (events), including all-inactive ones
  std::uint64_t threads = 0;    ///< active lanes summed over executions
  /// Executions with no active lane (every lane predicated off). Session 19: the L1 data path
  /// still takes one wavefront for each (l1tex__data_pipe_lsu_wavefronts_mem_shared counts them,
  /// its _op_ld / _op_st parts and the SASS metric do not; H100, blelloch_scan and reduce_shared).
  std::uint64_t idle = 0;
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;
  std::uint64_t sectorsIdeal = 0;
  std::uint64_t lines = 0;
  std::uint64_t bytes = 0;
  std::uint64_t wavefronts = 0;
  std::uint64_t wavefrontsIdeal = 0;
  std::uint64_t wavefrontsConflictFree = 0; ///< sum of SharedCost::wavefrontsConflictFree
  std::uint64_t wavefrontsHw = 0; ///< sum of SharedCost::wavefrontsHw (hardware counter)
  std::uint32_t conflictWaysMax = 0;

  void merge(const InstructionStats &other);
  /// Every sum multiplied by `n` (n copies of these executions); maxima unchanged.
  InstructionStats times(std::uint64_t n) const;
};

/// Listener: runs the global model on Global/Local events and the shared model on Shared events,
/// accumulating per site. Other spaces (const, param, unresolved generic) count executions and
/// threads only. Skipped events (AccessEvent::skipped) are ignored. Sites below kDenseSites live
/// in a vector (no lookup cost); larger ids in a map.
class StatsCollector : public AccessListener {
public:
  static constexpr std::uint32_t kDenseSites = 1u << 16;

  explicit StatsCollector(const arch::ArchSpec &arch);
  void onAccess(const AccessEvent &event) override;
  /// The representative's per-site sums once, times the number of replicas (the moves are
  /// multiples of 128 bytes, so no event's cost changes).
  void onReplicas(const BlockReplicas &r) override;
  /// Every site seen, by id. The view is rebuilt after new events (not thread-safe with onAccess).
  const std::map<std::uint32_t, InstructionStats> &sites() const;
  void merge(const StatsCollector &other);
  /// Adds one site's totals (e.g. from another collector or a saved result).
  void add(std::uint32_t site, const InstructionStats &stats);
  /// Drops every site and keeps these instead (sampling: the extrapolated totals).
  void replaceSites(const std::map<std::uint32_t, InstructionStats> &sites);

private:
  InstructionStats &slot(const AccessEvent &event);

  const arch::ArchSpec *arch_;

  GlobalModel global_;
  SharedModel shared_;
  mutable std::map<std::uint32_t, InstructionStats> sites_; ///< combined view for sites()
  mutable bool dirty_ = false;
  std::vector<InstructionStats> dense_;   ///< indexed by site < kDenseSites
  std::vector<std::uint8_t> denseUsed_;
  std::map<std::uint32_t, InstructionStats> sparse_; ///< sites >= kDenseSites
};

} // namespace warplens::model
