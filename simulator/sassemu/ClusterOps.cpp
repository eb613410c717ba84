/// \file
/// Thread block cluster family of the SASS engine (sm_90): the cluster barrier UCGABAR_ARV
/// (barrier.cluster.arrive) and UCGABAR_WAIT (barrier.cluster.wait), with cluster.sync() =
/// arrive + wait. Distributed shared memory needs no opcode of its own: ptxas addresses a block's
/// shared memory as (rank in the cluster << 24) | offset (SR_CgaCtaId << 24 for its own, mapa /
/// cluster.map_shared_rank for another block's, also through the generic window), and
/// Exec::resolve sends such an address to that block's shared memory (ClusterState::shared).
///
/// Model: the engine runs a cluster's blocks together in one worker (Engine.cpp, runClusters),
/// one sweep over each block's warps in turn. Each warp counts its arrivals
/// (Warp::cgaArrivals); phase k of the cluster barrier is complete once every warp of the cluster
/// that has not exited has arrived k times (exited warps count as arrived, as exited threads do
/// on the GPU). A wait that is not satisfied keeps the warp on the instruction and yields, like an
/// mbarrier try_wait (AsyncOps.cpp); it counts one execution.
#include "sassemu/Exec.h"

#include <algorithm>
#include <bit>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;
constexpr std::uint64_t kSpinLimit = 2000000; ///< failed waits in a row before a deadlock is reported

bool finished(const Warp &w) { return w.done || (w.exited & w.launched) == w.launched; }

/// The number of cluster-barrier phases every live warp of the cluster has arrived for.
std::uint64_t phasesComplete(const Exec &x) {
  const ClusterState &c = *x.cluster;
  std::uint64_t low = ~0ull;
  for (std::uint32_t r = 0; r < c.size; ++r)
    for (std::uint32_t i = 0; i < c.nWarps; ++i) {
      const Warp &w = c.warps[r][i];
      if (!finished(w)) low = std::min<std::uint64_t>(low, w.cgaArrivals);
    }
  return low;
}

/// UCGABAR_ARV: the warp arrives at the cluster barrier (one arrival for its active lanes).
void hArrive(Exec &x, const Instr &, U32 m) {
  if (m) ++x.w->cgaArrivals;
}

/// UCGABAR_WAIT (a control instruction): waits for the phase of the warp's latest arrival.
void hWait(Exec &x, const Instr &in, U32 m) {
  U32 lanes = m & (in.guard.kind == OpKind::None ? ~0u : x.predMask(in.guard));
  if (lanes && x.cluster && phasesComplete(x) < x.w->cgaArrivals) {
    x.yield = true;
    if (++x.cluster->spins > kSpinLimit)
      x.fail("cluster barrier wait never completes (deadlock: a warp of the cluster neither arrives nor exits) by "
             "thread " + x.threadOf(unsigned(std::countr_zero(lanes))) + " block " + x.blockStr() + ", " +
             x.prog->where(in));
    return; // the pc stays: the warp retries when it runs again
  }
  if (x.cluster) x.cluster->spins = 0;
  ++x.g->pc;
}

} // namespace

std::string selectCluster(Instr &in) {
  if (in.base == "UCGABAR_ARV") { in.fn = hArrive; return {}; }
  if (in.base == "UCGABAR_WAIT") { in.control = true; in.fn = hWait; return {}; }
  return "not a cluster opcode";
}

} // namespace warplens::sassemu
