/// \file
/// WorstEventListener (see WorstEventListener.h): cost of each event from the global or shared
/// model, the costliest kept per site with a deterministic tie rule, histograms merged by adding.
#include "model/WorstEventListener.h"

#include <algorithm>
#include <tuple>

namespace warplens::model {

namespace {

/// True when `a` should replace the kept worst `b`: higher cost, or equal cost and earlier warp.
bool worse(std::uint32_t costA, const AccessEvent &a, std::uint32_t costB, const AccessEvent &b) {
  if (costA != costB) return costA > costB;
  return std::tie(a.block, a.warp) < std::tie(b.block, b.warp);
}

void count(std::vector<std::uint64_t> &histogram, std::uint32_t cost, std::uint64_t n) {
  if (histogram.size() <= cost) histogram.resize(cost + 1, 0);
  histogram[cost] += n;
}

} // namespace

bool hasCost(Space space) {
  return space == Space::Shared || space == Space::Global || space == Space::Local;
}

WorstEventListener::WorstEventListener(const arch::ArchSpec &arch) : arch_(&arch), global_(arch), shared_(arch) {}

void WorstEventListener::onReplicas(const BlockReplicas &r) {
  if (r.blocks.empty()) return;
  WorstEventListener one(*arch_);
  for (const AccessEvent &e : *r.events) one.onAccess(e);
  const std::uint64_t n = r.blocks.size();
  for (auto &[site, w] : one.sites_) {
    w.executions *= n;
    w.asBad *= n;
    for (std::uint64_t &h : w.histogram) h *= n;
  }
  merge(one);
}

void WorstEventListener::onAccess(const AccessEvent &e) {
  if (e.skipped) return; // jumped over: not an execution
  SharedCost sc;
  GlobalCost gc;
  std::uint32_t cost = 0;
  if (e.space == Space::Shared) {
    sc = shared_.cost(e);
    cost = sc.wavefronts;
  } else if (e.space == Space::Global || e.space == Space::Local) {
    gc = global_.cost(e);
    cost = gc.sectors;
  }
  auto [it, inserted] = sites_.try_emplace(e.site);
  WorstEvent &w = it->second;
  ++w.executions;
  count(w.histogram, cost, 1);
  if (inserted || worse(cost, e, w.cost, w.event)) {
    if (inserted || cost != w.cost) w.asBad = 0;
    w.event = e;
    w.cost = cost;
    w.shared = sc;
    w.global = gc;
  }
  if (cost == w.cost) ++w.asBad;
}

void WorstEventListener::merge(const WorstEventListener &other) {
  for (const auto &[site, o] : other.sites_) {
    auto [it, inserted] = sites_.try_emplace(site, o);
    if (inserted) continue;
    WorstEvent &w = it->second;
    w.executions += o.executions;
    for (std::uint32_t c = 0; c < o.histogram.size(); ++c)
      if (o.histogram[c]) count(w.histogram, c, o.histogram[c]);
    if (o.cost == w.cost) {
      w.asBad += o.asBad;
      if (worse(o.cost, o.event, w.cost, w.event)) {
        w.event = o.event;
        w.shared = o.shared;
        w.global = o.global;
      }
    } else if (o.cost > w.cost) {
      w.event = o.event;
      w.cost = o.cost;
      w.shared = o.shared;
      w.global = o.global;
      w.asBad = o.asBad;
    }
  }
}

const WorstEvent *WorstEventListener::find(std::uint32_t site) const {
  auto it = sites_.find(site);
  return it == sites_.end() ? nullptr : &it->second;
}

} // namespace warplens::model
