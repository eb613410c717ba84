/// \file
/// Per-site accumulation of the global and shared model costs (StatsCollector) and merging.
#include "model/InstructionStats.h"

#include <algorithm>

namespace warplens::model {

void InstructionStats::merge(const InstructionStats &o) {
  if (executed == 0 && widthBytes == 0) {
    space = o.space;
    op = o.op;
    widthBytes = o.widthBytes;
  }
  executed += o.executed;
  threads += o.threads;
  idle += o.idle;
  requests += o.requests;
  sectors += o.sectors;
  sectorsIdeal += o.sectorsIdeal;
  lines += o.lines;
  bytes += o.bytes;
  wavefronts += o.wavefronts;
  wavefrontsIdeal += o.wavefrontsIdeal;
  wavefrontsConflictFree += o.wavefrontsConflictFree;
  wavefrontsHw += o.wavefrontsHw;
  conflictWaysMax = std::max(conflictWaysMax, o.conflictWaysMax);
}

InstructionStats InstructionStats::times(std::uint64_t n) const {
  InstructionStats s = *this;
  for (std::uint64_t *v : {&s.executed, &s.threads, &s.idle, &s.requests, &s.sectors, &s.sectorsIdeal, &s.lines, &s.bytes,
                           &s.wavefronts, &s.wavefrontsIdeal, &s.wavefrontsConflictFree, &s.wavefrontsHw})
    *v *= n;
  return s;
}

StatsCollector::StatsCollector(const arch::ArchSpec &arch) : arch_(&arch), global_(arch), shared_(arch) {}

void StatsCollector::onReplicas(const BlockReplicas &r) {
  if (r.blocks.empty()) return;
  StatsCollector one(*arch_);
  for (const AccessEvent &e : *r.events) one.onAccess(e);
  for (const auto &[site, st] : one.sites()) add(site, st.times(r.blocks.size()));
}

InstructionStats &StatsCollector::slot(const AccessEvent &e) {
  dirty_ = true;
  InstructionStats *s;
  if (e.site < kDenseSites) {
    if (e.site >= dense_.size()) {
      std::size_t n = std::max<std::size_t>(e.site + 1, dense_.size() * 2);
      n = std::min<std::size_t>(n, kDenseSites);
      dense_.resize(n);
      denseUsed_.resize(n, 0);
    }
    s = &dense_[e.site];
    if (denseUsed_[e.site]) return *s;
    denseUsed_[e.site] = 1;
  } else {
    auto [it, inserted] = sparse_.try_emplace(e.site);
    s = &it->second;
    if (!inserted) return *s;
  }
  s->space = e.space;
  s->op = e.op;
  s->widthBytes = e.widthBytes;
  return *s;
}

void StatsCollector::onAccess(const AccessEvent &e) {
  if (e.skipped) return; // jumped over: no execution at this (PTX) level
  InstructionStats &s = slot(e);
  if (!e.companion) { // a companion adds costs to an execution counted already (AccessEvent.h)
    ++s.executed;
    s.threads += unsigned(e.active.count());
    if (e.active.empty()) ++s.idle;
  }
  switch (e.space) {
  case Space::Global:
  case Space::Local: {
    GlobalCost c = global_.cost(e);
    s.requests += c.requests;
    s.sectors += c.sectors;
    s.sectorsIdeal += c.sectorsIdeal;
    s.lines += c.lines;
    s.bytes += c.bytes;
    break;
  }
  case Space::Shared: {
    if (e.tileWavefronts >= 0) { // HGMMA operand tiles (AccessEvent::tileWavefronts)
      s.wavefronts += std::uint64_t(e.tileWavefronts);
      s.wavefrontsIdeal += std::uint64_t(e.tileWavefronts);
      break;
    }
    SharedCost c = shared_.cost(e);
    if (c.wavefronts < e.minWavefronts) c.wavefronts = e.minWavefronts; // AccessEvent::minWavefronts
    s.wavefronts += c.wavefronts;
    s.wavefrontsIdeal += c.wavefrontsIdeal;
    s.wavefrontsConflictFree += c.wavefrontsConflictFree;
    s.wavefrontsHw += c.wavefrontsHw;
    s.conflictWaysMax = std::max(s.conflictWaysMax, c.conflictWays);
    s.bytes += std::uint64_t(e.active.count()) * e.widthBytes;
    break;
  }
  default:
    break;
  }
}

const std::map<std::uint32_t, InstructionStats> &StatsCollector::sites() const {
  if (dirty_) {
    sites_ = sparse_;
    for (std::size_t i = 0; i < dense_.size(); ++i)
      if (denseUsed_[i]) sites_[std::uint32_t(i)] = dense_[i];
    dirty_ = false;
  }
  return sites_;
}

void StatsCollector::add(std::uint32_t site, const InstructionStats &stats) {
  AccessEvent key;
  key.site = site;
  key.space = stats.space;
  key.op = stats.op;
  key.widthBytes = std::uint8_t(stats.widthBytes);
  slot(key).merge(stats);
}

void StatsCollector::replaceSites(const std::map<std::uint32_t, InstructionStats> &sites) {
  dense_.clear();
  denseUsed_.clear();
  sparse_.clear();
  for (const auto &[site, st] : sites) add(site, st);
  dirty_ = true;
}

void StatsCollector::merge(const StatsCollector &other) {
  for (const auto &[site, stats] : other.sites()) add(site, stats);
}

} // namespace warplens::model
