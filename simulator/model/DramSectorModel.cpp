/// \file
/// Cold-L2 DRAM model: sparse bitmaps of the global sectors read and byte masks of the sectors
/// written (see DramSectorModel.h).
#include "model/DramSectorModel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

namespace warplens::model {

DramSectorModel::DramSectorModel(const arch::ArchSpec &arch)
    : sectorShift_(static_cast<unsigned>(std::countr_zero(arch.sectorBytes ? arch.sectorBytes : 32u))),
      sectorBytes_(arch.sectorBytes ? arch.sectorBytes : 32u),
      fetchSectors_(arch.dramReadFetchBytes > sectorBytes_ ? arch.dramReadFetchBytes / sectorBytes_ : 1u),
      fillPartialWrites_(arch.dramFillPartialWrites), capacity_(arch.l2Bytes), reuseCapacity_(double(arch.l2Bytes)) {}

void DramSectorModel::mark(std::uint64_t sector, bool newLine) {
  std::uint64_t page = sector >> kPageShift;
  if (page != lastPage_ || !last_) {
    auto &bits = pages_[page];
    if (bits.empty()) bits.assign(kWords, 0);
    last_ = &bits;
    lastPage_ = page;
  }
  std::uint64_t bit = sector & (kSectors - 1);
  (*last_)[bit >> 6] |= std::uint64_t(1) << (bit & 63);
  if (clock_ && capacity_ > 0) { // per fetch unit: either sector brings it
    const std::uint32_t now = clock_->tick(newLine, cursor_.ticks);
    if (newLine) touchLine(sector, now);
    // The unit's longest line gap since its last read (slot: gap + 1; 0: never read).
    const std::uint32_t before = clock_->slot(kGapKey | (sector / fetchSectors_), gapPage_).exchange(1, std::memory_order_relaxed);
    if (before > 1) unitGap_.add(before - 1);
    refetchCache_ = -1;
  }
}

void DramSectorModel::touchLine(std::uint64_t sector, std::uint32_t now) {
  const std::uint64_t line = (sector << sectorShift_) / kLineBytes;
  const std::uint64_t d = clock_->stamp(kLineKey | (line & (kLineKey - 1)), now, linePage_);
  if (d == ReuseClock::kFirst) {
    lineFirst_.add(now);
    return;
  }
  lineReuse_.add(d ? d : 1); // same moment: the next access
  // The line's units read before remember the longest gap since their last read: a gap the L2
  // does not bridge evicts the whole line, whichever unit the access was for.
  const std::uint64_t unitBytes = std::uint64_t(fetchSectors_) * sectorBytes_;
  const std::uint64_t first = line * kLineBytes / unitBytes, units = std::max<std::uint64_t>(1, kLineBytes / unitBytes);
  const std::uint32_t gap = static_cast<std::uint32_t>(std::min<std::uint64_t>(d, 0xfffffffeu)) + 1;
  for (std::uint64_t u = first; u < first + units; ++u) {
    std::atomic<std::uint32_t> &v = clock_->slot(kGapKey | u, gapPage_);
    std::uint32_t cur = v.load(std::memory_order_relaxed);
    while (cur != 0 && cur < gap && !v.compare_exchange_weak(cur, gap, std::memory_order_relaxed)) {
    }
  }
}

std::vector<std::uint32_t> &DramSectorModel::writePage(std::uint64_t sector) {
  const std::uint64_t page = sector >> kPageShift;
  if (page != lastWritePage_ || !lastWrite_) {
    auto &masks = written_[page];
    if (masks.empty()) masks.assign(2 * kSectors, 0);
    lastWrite_ = &masks;
    lastWritePage_ = page;
  }
  return *lastWrite_;
}

void DramSectorModel::writeSector(std::uint64_t sector, std::uint32_t mask, bool newLine) {
  std::vector<std::uint32_t> &masks = writePage(sector);
  const std::size_t i = sector & (kSectors - 1);
  std::uint32_t &all = masks[i], &stay = masks[kSectors + i];
  all |= mask;
  if (clock_ && capacity_ > 0) {
    const std::uint32_t now = clock_->tick(newLine, writeCursor_.ticks);
    if (newLine) touchLine(sector, now);
    refetchCache_ = -1;
    std::uint64_t d = clock_->stamp(kWriteKey | sector, now, writeCursor_.page);
    if (d == ReuseClock::kFirst) d = 0;
    if (d && double(d) * kLineBytes * distanceScale_ > double(capacity_)) { // evicted since its last write
      ++rewrites_;
      if ((stay ? stay : mask) != 0xffffffffu) ++refills_;
      stay = mask;
      return;
    }
  }
  stay |= mask;
}

void DramSectorModel::orWriteMask(std::uint64_t sector, std::uint32_t mask) {
  std::vector<std::uint32_t> &masks = writePage(sector);
  masks[sector & (kSectors - 1)] |= mask;
  masks[kSectors + (sector & (kSectors - 1))] |= mask;
}

DramSectorModel::DramSectorModel(const DramSectorModel &c, bool)
    : sectorShift_(c.sectorShift_), sectorBytes_(c.sectorBytes_), fetchSectors_(c.fetchSectors_),
      fillPartialWrites_(c.fillPartialWrites_) {} // replicas: no clock, no reuse distances

void DramSectorModel::onReplicas(const BlockReplicas &r) {
  if (r.blocks.empty()) return;
  const std::size_t groups = r.coef.size();
  // Per group, the representative's distinct sectors: marked into a model of their own (no sort).
  std::vector<DramSectorModel> rep;
  rep.reserve(groups);
  for (std::size_t g = 0; g < groups; ++g) rep.emplace_back(*this, true);
  for (std::size_t k = 0; k < r.events->size(); ++k) rep[(*r.group)[k]].onAccess((*r.events)[k]);
  std::vector<std::vector<std::uint64_t>> reads(groups);
  std::vector<std::vector<std::pair<std::uint64_t, std::uint32_t>>> writes(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    for (const auto &[page, bits] : rep[g].pages_)
      for (std::size_t w = 0; w < kWords; ++w)
        for (std::uint64_t b = bits[w]; b; b &= b - 1)
          reads[g].push_back((page << kPageShift) | (w * 64 + unsigned(std::countr_zero(b))));
    for (const auto &[page, masks] : rep[g].written_)
      for (std::size_t i = 0; i < kSectors; ++i)
        if (masks[i]) writes[g].push_back({(page << kPageShift) | i, masks[i]});
  }
  for (std::size_t i = 0; i < r.blocks.size(); ++i)
    for (std::size_t g = 0; g < groups; ++g) {
      const std::uint64_t d = static_cast<std::uint64_t>(r.shift(g, i) / std::int64_t(sectorBytes_));
      for (std::uint64_t sec : reads[g]) mark(sec + d);
      for (const auto &[sec, m] : writes[g]) orWriteMask(sec + d, m);
    }
}

void DramSectorModel::onAccess(const AccessEvent &e) {
  if (e.space != Space::Global) return;
  const unsigned width = e.widthBytes ? e.widthBytes : 1;
  if (e.op == Op::Store) {
    // The request's bytes per sector (lanes of one sector are usually neighbours), then one write
    // per sector: its clock ticks once per new 128-byte line of the request.
    std::uint64_t sector = ~std::uint64_t(0), prevLine = ~std::uint64_t(0);
    std::uint32_t mask = 0;
    auto flush = [&] {
      if (!mask) return;
      const std::uint64_t line = (sector << sectorShift_) / kLineBytes;
      writeSector(sector, mask, line != prevLine);
      prevLine = line;
      mask = 0;
    };
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!e.active.test(lane)) continue;
      const std::uint64_t addr = e.addr[lane].value;
      for (std::uint64_t a = addr; a < addr + width;) {
        const std::uint64_t s = a >> sectorShift_;
        const unsigned first = static_cast<unsigned>(a & (sectorBytes_ - 1));
        const unsigned end = static_cast<unsigned>(std::min<std::uint64_t>(addr + width - (a - first), sectorBytes_));
        if (s != sector) flush(), sector = s;
        mask |= (end - first >= 32 ? 0xffffffffu : ((1u << (end - first)) - 1u)) << first;
        a += end - first;
      }
    }
    flush();
    return;
  }
  std::uint64_t prev = ~std::uint64_t(0); // lanes in the sector just marked add nothing
  std::uint64_t prevLine = ~std::uint64_t(0);
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!e.active.test(lane)) continue;
    std::uint64_t first = e.addr[lane].value >> sectorShift_;
    std::uint64_t last = (e.addr[lane].value + width - 1) >> sectorShift_;
    if (first == prev && last == prev) continue;
    for (std::uint64_t s = first; s <= last; ++s) {
      const std::uint64_t line = (s << sectorShift_) / kLineBytes;
      mark(s, line != prevLine);
      prevLine = line;
    }
    prev = last;
  }
}

void DramSectorModel::merge(const DramSectorModel &other) {
  for (const auto &[page, bits] : other.pages_) {
    auto &mine = pages_[page];
    if (mine.empty()) {
      mine = bits;
      continue;
    }
    for (std::size_t i = 0; i < kWords; ++i) mine[i] |= bits[i];
  }
  for (const auto &[page, masks] : other.written_) {
    auto &mine = written_[page];
    if (mine.empty()) {
      mine = masks;
      continue;
    }
    for (std::size_t i = 0; i < 2 * kSectors; ++i) mine[i] |= masks[i];
  }
  unitGap_.merge(other.unitGap_);
  lineReuse_.merge(other.lineReuse_);
  lineFirst_.merge(other.lineFirst_);
  if (!clock_) clock_ = other.clock_, distanceScale_ = other.distanceScale_;
  refetchCache_ = -1;
  rewrites_ += other.rewrites_;
  refills_ += other.refills_;
  last_ = nullptr; // rehash may have moved nothing, but keep the cache honest
  lastWrite_ = nullptr;
}

namespace {
std::uint64_t scaled(std::uint64_t v, double f) { return f == 1 ? v : static_cast<std::uint64_t>(double(v) * f + 0.5); }
} // namespace

bool DramSectorModel::fitsInL2() const {
  const double footprint = double(sectorsRead() + sectorsWritten()) * sectorBytes_; // scaled already
  return footprint <= double(capacity_);
}

Footprint DramSectorModel::footprint() const {
  Footprint fp;
  fp.reuse = lineReuse_;
  fp.first = lineFirst_;
  if (!clock_) return fp;
  const std::uint64_t n = clock_->ticks(); // batches end part-used: a few hundred ticks per worker
  fp.accesses = double(n);
  clock_->forEachStamp(kLineKey, [&](std::uint64_t, std::uint32_t last) {
    fp.lines += 1;
    fp.reverse.add(std::uint64_t(static_cast<std::uint32_t>(n) - last) + 1);
  });
  return fp;
}

std::uint64_t DramSectorModel::refetchesAt(double capacityBytes) const {
  if (!clock_ || capacityBytes <= 0 || unitGap_.empty()) return 0;
  const double threshold = footprint().missThreshold(capacityBytes / kLineBytes / distanceScale_);
  const double n = std::isinf(threshold) ? 0.0 : unitGap_.countOver(threshold - 1);
  return static_cast<std::uint64_t>(n * scale_ + 0.5);
}

std::uint64_t DramSectorModel::refetches() const {
  if (refetchCache_ < 0) refetchCache_ = static_cast<std::int64_t>(refetchesAt(reuseCapacity_));
  return static_cast<std::uint64_t>(refetchCache_);
}

std::uint64_t DramSectorModel::rewrites() const {
  if (rewrites_ == 0 || fitsInL2()) return 0;
  return static_cast<std::uint64_t>(double(rewrites_) * scale_ + 0.5);
}

std::uint64_t DramSectorModel::refills() const {
  if (refills_ == 0 || fitsInL2()) return 0;
  return static_cast<std::uint64_t>(double(refills_) * scale_ + 0.5);
}

std::uint64_t DramSectorModel::sectorsRead() const {
  std::uint64_t n = 0;
  for (const auto &[page, bits] : pages_)
    for (std::uint64_t w : bits) n += static_cast<std::uint64_t>(std::popcount(w));
  return scaled(n, scale_);
}

std::uint64_t DramSectorModel::bytesRead() const {
  // fetchSectors_ is a power of two dividing 64: fold each unit's bits onto its first bit.
  std::uint64_t unitMask = 0;
  for (unsigned b = 0; b < 64; b += fetchSectors_) unitMask |= std::uint64_t(1) << b;
  auto fold = [&](std::uint64_t w) {
    std::uint64_t f = w;
    for (unsigned k = 1; k < fetchSectors_; ++k) f |= w >> k;
    return f & unitMask;
  };
  std::uint64_t units = 0, fills = 0;
  for (const auto &[page, bits] : pages_)
    for (std::uint64_t w : bits) units += static_cast<std::uint64_t>(std::popcount(fold(w)));
  // With the write rule on, a sector's last stay in the L2 decides its final fill.
  const std::size_t last = rewrites() > 0 ? kSectors : 0;
  if (fillPartialWrites_)
    for (const auto &[page, masks] : written_) {
      auto read = pages_.find(page);
      for (std::size_t s = 0; s < kSectors; ++s) {
        const std::uint32_t m = masks[last + s];
        if (!m || m == 0xffffffffu) continue;
        if (read != pages_.end()) { // a fetched read unit already brought the sector
          std::size_t first = s / fetchSectors_ * fetchSectors_;
          bool fetched = false;
          for (std::size_t k = first; k < first + fetchSectors_; ++k)
            fetched = fetched || ((read->second[k >> 6] >> (k & 63)) & 1);
          if (fetched) continue;
        }
        ++fills;
      }
    }
  return scaled(units * fetchSectors_ * sectorBytes_ + fills * sectorBytes_, scale_) + refetchBytes();
}

std::uint64_t DramSectorModel::sectorsWritten() const {
  std::uint64_t n = 0;
  for (const auto &[page, masks] : written_)
    for (std::size_t i = 0; i < kSectors; ++i) n += masks[i] != 0;
  return scaled(n, scale_);
}

std::uint64_t DramSectorModel::sectorsPartlyWritten() const {
  std::uint64_t n = 0;
  for (const auto &[page, masks] : written_)
    for (std::size_t i = 0; i < kSectors; ++i) n += masks[i] != 0 && masks[i] != 0xffffffffu;
  return scaled(n, scale_);
}

} // namespace warplens::model
