/// \file
/// L1ReuseListener: per-block distinct sectors of global loads, distinct lines per request.
#include "analysis/L1Reuse.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>

namespace warplens::analysis {

namespace {
/// Open addressing with linear probing (SectorSet, UnitMap): the slot of `keys` (a power of two of
/// them, under half full) that holds `key`, or the empty slot (~0) where it goes.
inline std::size_t slotOf(const std::vector<std::uint64_t> &keys, std::uint64_t key) {
  const std::size_t mask = keys.size() - 1;
  std::size_t i = (key * 0x9e3779b97f4a7c15ull) >> 20 & mask;
  while (keys[i] != key && keys[i] != ~std::uint64_t(0)) i = (i + 1) & mask;
  return i;
}
} // namespace

void L1ReuseListener::SectorSet::insert(std::uint64_t key) {
  if (slots_.empty()) slots_.assign(64, kEmpty);
  if (2 * (size_ + 1) > slots_.size()) { // keep the load under one half
    std::vector<std::uint64_t> old(slots_.size() * 2, kEmpty);
    old.swap(slots_);
    size_ = 0;
    for (std::uint64_t k : old)
      if (k != kEmpty) insert(k);
  }
  const std::size_t i = slotOf(slots_, key);
  if (slots_[i] == kEmpty) slots_[i] = key, ++size_;
}

std::vector<std::uint64_t> L1ReuseListener::SectorSet::values() const {
  std::vector<std::uint64_t> v;
  v.reserve(size_);
  for (std::uint64_t k : slots_)
    if (k != kEmpty) v.push_back(k);
  return v;
}

std::uint64_t L1ReuseListener::UnitMap::findOrInsert(std::uint64_t key, std::uint64_t value) {
  if (keys_.empty()) keys_.assign(64, kEmpty), values_.assign(64, 0);
  if (2 * (size_ + 1) > keys_.size()) { // keep the load under one half
    std::vector<std::uint64_t> oldKeys(keys_.size() * 2, kEmpty), oldValues(keys_.size() * 2, 0);
    oldKeys.swap(keys_), oldValues.swap(values_);
    size_ = 0;
    for (std::size_t i = 0; i < oldKeys.size(); ++i)
      if (oldKeys[i] != kEmpty) findOrInsert(oldKeys[i], oldValues[i]);
  }
  const std::size_t i = slotOf(keys_, key);
  if (keys_[i] == kEmpty) keys_[i] = key, values_[i] = value, ++size_;
  return values_[i];
}

L1ReuseListener::BlockState &L1ReuseListener::blockSet(std::uint32_t block) {
  if (block == lastBlock_ && last_) return *last_;
  auto it = live_.find(block);
  if (it != live_.end()) {
    lastBlock_ = block, last_ = &it->second;
    return it->second;
  }
  if (live_.size() >= kLiveBlocks) {
    auto old = live_.find(order_.front());
    order_.pop_front();
    if (old != live_.end()) {
      closedMisses_ += old->second.set.size();
      live_.erase(old);
    }
  }
  order_.push_back(block);
  lastBlock_ = block, last_ = &live_[block]; // unordered_map keeps element addresses on rehash
  return *last_;
}

namespace {
/// Distinct values among v[0..n): a count of changes when non-decreasing (coalesced, broadcast),
/// else sorted first. Leaves the distinct values at the front of v.
std::size_t distinct(std::uint64_t *v, std::size_t n) {
  bool sorted = true;
  for (std::size_t i = 1; i < n && sorted; ++i) sorted = v[i - 1] <= v[i];
  if (!sorted) std::sort(v, v + n);
  return static_cast<std::size_t>(std::unique(v, v + n) - v);
}

/// Distinct 1 KiB regions of a request's lanes, every address moved by `shift` bytes.
std::uint64_t regionsOf(const model::AccessEvent &e, std::int64_t shift) {
  std::array<std::uint64_t, 32> r;
  std::size_t n = 0;
  for (std::uint32_t m = e.active.bits; m; m &= m - 1)
    r[n++] = (e.addr[std::countr_zero(m)].value + static_cast<std::uint64_t>(shift)) >> L1ReuseListener::kRegionShift;
  return distinct(r.data(), n);
}
} // namespace

void L1ReuseListener::countAtomic(const model::AccessEvent &e, std::int64_t shift, std::uint64_t times) {
  if (!e.active.bits) return;
  atomicOps_ += times * static_cast<std::uint64_t>(std::popcount(e.active.bits));
  // The request's words, sorted: per line (line requests) and per serialising unit (its lanes and
  // the most lanes on one word).
  std::array<std::uint64_t, 32> words;
  std::size_t n = 0;
  for (std::uint32_t m = e.active.bits; m; m &= m - 1)
    words[n++] = (e.addr[std::countr_zero(m)].value + static_cast<std::uint64_t>(shift)) >> 2;
  std::sort(words.begin(), words.begin() + n);
  for (std::size_t k = 0; k < n; ++k) atomicLineRequests_ += times * (k == 0 || (words[k] >> 5) != (words[k - 1] >> 5));
  auto unitOf = [](std::uint64_t word) { return ((word >> 8) << 1) | ((word >> 6) & 1); };
  std::sort(words.begin(), words.begin() + n, [&](std::uint64_t x, std::uint64_t y) {
    return unitOf(x) != unitOf(y) ? unitOf(x) < unitOf(y) : x < y;
  });
  for (std::size_t a = 0; a < n;) {
    const std::uint64_t line = unitOf(words[a]);
    std::uint64_t ops = 0, most = 0, lines = 0, sectorOps = 0, sectorMost = 0;
    std::size_t b = a;
    while (b < n && unitOf(words[b]) == line) {
      lines += b == a || (words[b] >> 5) != (words[b - 1] >> 5);
      if (b != a && (words[b] >> 3) != (words[b - 1] >> 3)) sectorOps += sectorMost, sectorMost = 0;
      std::size_t c = b;
      while (c < n && words[c] == words[b]) ++c;
      most = std::max<std::uint64_t>(most, c - b);
      sectorMost = std::max<std::uint64_t>(sectorMost, c - b);
      ops += c - b;
      b = c;
    }
    sectorOps += sectorMost;
    auto it = atomicAt_.find(line);
    if (it == atomicAt_.end() && atomicAt_.size() < kAtomicLines) it = atomicAt_.emplace(line, AtomicLine{}).first;
    // A request costs its unit the larger of a pass per sector and line (distinct sectors of the
    // unit in turn, words of one sector together) and the serial chain of its most-hit word
    // (each lane on a word waits for the previous one's result; successive requests on one word
    // too). Session 7, atomic_bins / atomic_multiline / atomic_red on the H100: about 0.55 ns per
    // sector pass, 0.45 per line, 1.72 per lane on one word. The request is counted on the side
    // that is larger by these nominal costs; the fit then sets each side's coefficients.
    const bool chain = 172 * most > 55 * sectorOps + 45 * lines;
    if (it != atomicAt_.end()) {
      it->second.ops += ops * times;
      if (chain)
        it->second.steps += most * times;
      else
        it->second.sectorOps += sectorOps * times, it->second.extraLines += (lines - 1) * times;
    }
    a = b;
  }
}

void L1ReuseListener::addLoadMisses(const std::vector<SiteMisses> &other, std::uint64_t times) {
  for (std::uint32_t site = 0; site < other.size(); ++site) {
    SiteMisses &mine = missesAt(site);
    mine.requests += other[site].requests * times;
    mine.missing += other[site].missing * times;
    mine.dram += other[site].dram * times;
  }
}

L1ReuseListener::AtomicLine L1ReuseListener::hottest() const {
  AtomicLine top;
  for (const auto &[line, a] : atomicAt_)
    if (a.rank() > top.rank() || (a.rank() == top.rank() && a.ops > top.ops)) top = a;
  return top;
}

void L1ReuseListener::onAccess(const model::AccessEvent &e) {
  if (e.skipped || e.companion || e.space != model::Space::Global) return;
  if (e.op == model::Op::Atomic || e.op == model::Op::Reduce) {
    countAtomic(e, 0, 1);
    return;
  }
  if (e.op != model::Op::Load && e.op != model::Op::Store) return;
  std::array<std::uint64_t, 64> sectors;
  std::size_t ns = 0;
  const unsigned width = std::max<unsigned>(1, e.widthBytes);
  for (std::uint32_t m = e.active.bits; m; m &= m - 1) {
    const std::uint64_t first = e.addr[std::countr_zero(m)].value, last = first + width - 1;
    for (std::uint64_t s = first >> 5; s <= (last >> 5) && ns < sectors.size(); ++s) sectors[ns++] = s;
  }
  if (ns == 0) return;
  // Distinct sectors, sorted; the distinct 128-byte lines are their distinct sector >> 2.
  const std::size_t nd = distinct(sectors.data(), ns);
  std::uint64_t distinctLines = 1;
  for (std::size_t i = 1; i < nd; ++i) distinctLines += (sectors[i] >> 2) != (sectors[i - 1] >> 2);
  if (e.op == model::Op::Store) {
    storeLines_ += distinctLines;
    return;
  }
  loadLines_ += distinctLines;
  // Data-bank conflict degree: distinct 4-byte words per bank (word mod 32), the most of any bank.
  std::array<std::uint64_t, 128> words;
  std::size_t nw = 0;
  for (std::uint32_t m = e.active.bits; m; m &= m - 1) {
    const std::uint64_t first = e.addr[std::countr_zero(m)].value, last = first + width - 1;
    for (std::uint64_t w = first >> 2; w <= (last >> 2) && nw < words.size(); ++w) words[nw++] = w;
  }
  const std::size_t ndw = distinct(words.data(), nw);
  std::array<std::uint8_t, 32> perBank{};
  std::uint64_t degree = 0;
  for (std::size_t i = 0; i < ndw; ++i) degree = std::max<std::uint64_t>(degree, ++perBank[words[i] & 31]);
  loadWavefronts_ += std::max(degree, (distinctLines + kLinesPerWavefront - 1) / kLinesPerWavefront);
  loadRegions_ += regionsOf(e, 0);
  BlockState &block = blockSet(e.block);
  SectorSet &set = block.set;
  const std::size_t before = set.size();
  std::uint64_t missLine = ~std::uint64_t(0);
  // A missed sector goes to DRAM unless an earlier request of this warp read its fetch unit (the
  // unit's entry is this request's own, `mine`, when it is new or this request read it first).
  const std::uint64_t mine = (std::uint64_t(e.warp) << 32) | (++requestStamp_ & 0xffffffffu);
  bool dram = false;
  for (std::size_t i = 0; i < nd; ++i) {
    const std::size_t had = set.size();
    set.insert(sectors[i]);
    if (set.size() == had) continue;
    if (seen_ && seen_->testAndSet(sectors[i])) ++readers_[sectors[i]];
    if ((sectors[i] >> 2) != missLine) missLine = sectors[i] >> 2, ++missLines_;
    const std::uint64_t first = block.units.findOrInsert(sectors[i] / fetchSectors_, mine);
    dram = dram || first == mine || (first >> 32) != e.warp;
  }
  SiteMisses &sm = missesAt(e.site);
  ++sm.requests;
  sm.missing += set.size() > before;
  sm.dram += dram;
}

void L1ReuseListener::onReplicas(const model::BlockReplicas &r) {
  if (r.blocks.empty()) return;
  L1ReuseListener one(fetchSectors_);
  // Per group: the representative's distinct sectors loaded (a set, and their span).
  struct Group {
    SectorSet set;
    std::uint64_t lo = ~std::uint64_t(0), hi = 0;
  };
  std::vector<Group> loads(r.coef.size());
  for (std::size_t k = 0; k < r.events->size(); ++k) {
    model::AccessEvent e = (*r.events)[k];
    e.block = 0;
    one.onAccess(e);
    if (e.skipped || e.companion || e.space != model::Space::Global || e.op != model::Op::Load) continue;
    const unsigned width = std::max<unsigned>(1, e.widthBytes);
    Group &g = loads[(*r.group)[k]];
    std::uint64_t prev = ~std::uint64_t(0);
    for (std::uint32_t m = e.active.bits; m; m &= m - 1) {
      const std::uint64_t first = e.addr[std::countr_zero(m)].value, last = first + width - 1;
      for (std::uint64_t s = first >> 5; s <= (last >> 5); ++s)
        if (s != prev) g.set.insert(s), g.lo = std::min(g.lo, s), g.hi = std::max(g.hi, s), prev = s;
    }
  }
  const std::uint64_t n = r.blocks.size();
  // Shared sectors: replicas whose move of a group is the same read the same sectors of it (a
  // group that does not move: all of them; one that moves with blockIdx.y only: a row of blocks).
  // Groups where every replica moves apart are skipped (no sharing between replicas), as are
  // groups whose distinct moves times sectors exceed a budget. A sector several groups read (two
  // loads of one array) counts the most replicas any group gives it.
  std::unordered_map<std::uint64_t, std::uint64_t> groupReaders;
  for (std::size_t g = 0; seen_ && g < loads.size(); ++g) {
    if (!loads[g].set.size()) continue;
    std::map<std::int64_t, std::uint64_t> byShift;
    for (std::size_t i = 0; i < r.blocks.size(); ++i) ++byShift[r.shift(g, i)];
    if (byShift.size() == n && !byShift.count(0)) continue;
    if (double(byShift.size()) * double(loads[g].set.size()) > 5e7) continue;
    const std::vector<std::uint64_t> v = loads[g].set.values();
    for (const auto &[shift, count] : byShift)
      for (std::uint64_t sec : v) {
        std::uint64_t &k = groupReaders[sec + static_cast<std::uint64_t>(shift / 32)];
        k = std::max(k, count);
      }
  }
  for (const auto &[sector, k] : groupReaders) { // the first reader of a sector is not counted
    const std::uint64_t after = seen_->testAndSet(sector) ? k : k - 1;
    if (after) readers_[sector] += after;
  }
  // Atomics: a word that does not move is hit by every replica; moved ones, replica by replica.
  for (std::size_t k = 0; k < r.events->size(); ++k) {
    const model::AccessEvent &e = (*r.events)[k];
    if (e.skipped || e.companion || e.space != model::Space::Global ||
        (e.op != model::Op::Atomic && e.op != model::Op::Reduce))
      continue;
    const auto &c = r.coef[(*r.group)[k]];
    if (c[0] == 0 && c[1] == 0 && c[2] == 0) countAtomic(e, 0, n);
    else
      for (std::size_t i = 0; i < r.blocks.size(); ++i) countAtomic(e, r.shift((*r.group)[k], i), 1);
  }
  // Per site, the representative's requests and misses stand for every replica (the same
  // accesses moved: exact where all groups move alike, else an estimate).
  addLoadMisses(one.loadMisses_, n);
  loadLines_ += one.loadLines_ * n;
  missLines_ += one.missLines_ * n;
  storeLines_ += one.storeLines_ * n;
  loadWavefronts_ += one.loadWavefronts_ * n;
  // Regions depend on the move modulo 1 KiB: per group, the replicas counted by that residue.
  {
    const std::int64_t region = std::int64_t(1) << kRegionShift;
    std::vector<std::map<std::int64_t, std::uint64_t>> residues(r.coef.size());
    std::vector<bool> loadsIn(r.coef.size(), false);
    for (std::size_t k = 0; k < r.events->size(); ++k) {
      const model::AccessEvent &e = (*r.events)[k];
      if (!e.skipped && !e.companion && e.space == model::Space::Global && e.op == model::Op::Load && e.active.bits)
        loadsIn[(*r.group)[k]] = true;
    }
    for (std::size_t g = 0; g < r.coef.size(); ++g)
      if (loadsIn[g])
        for (std::size_t i = 0; i < r.blocks.size(); ++i) ++residues[g][((r.shift(g, i) % region) + region) % region];
    for (std::size_t k = 0; k < r.events->size(); ++k) {
      const model::AccessEvent &e = (*r.events)[k];
      if (e.skipped || e.companion || e.space != model::Space::Global || e.op != model::Op::Load || !e.active.bits)
        continue;
      for (const auto &[res, count] : residues[(*r.group)[k]]) loadRegions_ += count * regionsOf(e, res);
    }
  }
  std::vector<std::size_t> used;
  for (std::size_t g = 0; g < loads.size(); ++g)
    if (loads[g].set.size()) used.push_back(g);
  bool alike = true;
  for (std::size_t g : used) alike = alike && r.coef[g] == r.coef[used[0]];
  if (alike) { // every replica's set is the representative's, moved
    closedMisses_ += one.missSectors() * n;
    return;
  }
  std::vector<std::vector<std::uint64_t>> lists; // built only if some replica's groups overlap
  for (std::size_t i = 0; i < r.blocks.size(); ++i) {
    // Groups whose moved sector spans do not overlap add up; otherwise count the union.
    bool disjoint = true;
    for (std::size_t a = 0; a < used.size() && disjoint; ++a)
      for (std::size_t b = a + 1; b < used.size() && disjoint; ++b) {
        const Group &ga = loads[used[a]], &gb = loads[used[b]];
        std::int64_t da = r.shift(used[a], i) / 32, db = r.shift(used[b], i) / 32;
        disjoint = ga.hi + da < gb.lo + db || gb.hi + db < ga.lo + da;
      }
    if (disjoint) {
      for (std::size_t g : used) closedMisses_ += loads[g].set.size();
      continue;
    }
    if (lists.empty()) {
      lists.resize(loads.size());
      for (std::size_t g : used) lists[g] = loads[g].set.values();
    }
    SectorSet set;
    for (std::size_t g : used) {
      const std::uint64_t d = static_cast<std::uint64_t>(r.shift(g, i) / 32);
      for (std::uint64_t s : lists[g]) set.insert(s + d);
    }
    closedMisses_ += set.size();
  }
}

void L1ReuseListener::merge(const L1ReuseListener &o) {
  closedMisses_ += o.missSectors();
  loadLines_ += o.loadLines_;
  missLines_ += o.missLines_;
  storeLines_ += o.storeLines_;
  loadWavefronts_ += o.loadWavefronts_;
  loadRegions_ += o.loadRegions_;
  addLoadMisses(o.loadMisses_, 1);
  atomicOps_ += o.atomicOps_;
  atomicLineRequests_ += o.atomicLineRequests_;
  for (const auto &[sector, k] : o.readers_) readers_[sector] += k;
  for (const auto &[line, k] : o.atomicAt_) {
    auto it = atomicAt_.find(line);
    if (it == atomicAt_.end() && atomicAt_.size() < kAtomicLines) it = atomicAt_.emplace(line, AtomicLine{}).first;
    if (it != atomicAt_.end()) it->second += k;
  }
}

std::uint64_t L1ReuseListener::missSectors() const {
  std::uint64_t n = closedMisses_;
  for (const auto &[block, state] : live_) n += state.set.size();
  return scaled(n);
}

L1ReuseListener::SeenSectors::SeenSectors(std::uint64_t bufferBytes) {
  const std::uint64_t want = std::max<std::uint64_t>(1, bufferBytes / 32) * 8;
  while (bits_ < 31 && (std::uint64_t(1) << bits_) < want) ++bits_;
  words_ = std::vector<std::atomic<std::uint64_t>>(std::size_t(1) << (bits_ - 6));
}

bool L1ReuseListener::SeenSectors::testAndSet(std::uint64_t sector) {
  const std::uint64_t h = (sector * 0x9e3779b97f4a7c15ull) >> (64 - bits_);
  const std::uint64_t bit = std::uint64_t(1) << (h & 63);
  return words_[h >> 6].fetch_or(bit, std::memory_order_relaxed) & bit;
}

std::vector<double> L1ReuseListener::sharedSectorReaders() const {
  std::vector<double> k;
  k.reserve(readers_.size());
  for (const auto &[sector, after] : readers_) k.push_back(double(after + 1) * scale_);
  std::sort(k.begin(), k.end()); // independent of the map's order
  return k;
}

} // namespace warplens::analysis
