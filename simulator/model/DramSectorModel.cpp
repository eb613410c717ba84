/// \file
/// Cold-L2 DRAM read model: a sparse bitmap of the global sectors read (see DramSectorModel.h).
#include "model/DramSectorModel.h"

#include <bit>

namespace warplens::model {

DramSectorModel::DramSectorModel(const arch::ArchSpec &arch)
    : sectorShift_(static_cast<unsigned>(std::countr_zero(arch.sectorBytes ? arch.sectorBytes : 32u))),
      sectorBytes_(arch.sectorBytes ? arch.sectorBytes : 32u) {}

void DramSectorModel::mark(std::uint64_t sector) {
  std::uint64_t page = sector >> kPageShift;
  if (page != lastPage_ || !last_) {
    auto &bits = pages_[page];
    if (bits.empty()) bits.assign(kWords, 0);
    last_ = &bits;
    lastPage_ = page;
  }
  std::uint64_t bit = sector & ((std::uint64_t(1) << kPageShift) - 1);
  (*last_)[bit >> 6] |= std::uint64_t(1) << (bit & 63);
}

void DramSectorModel::onAccess(const AccessEvent &e) {
  if (e.space != Space::Global || e.op == Op::Store) return;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!e.active.test(lane)) continue;
    std::uint64_t first = e.addr[lane].value >> sectorShift_;
    std::uint64_t last = (e.addr[lane].value + (e.widthBytes ? e.widthBytes : 1) - 1) >> sectorShift_;
    for (std::uint64_t s = first; s <= last; ++s) mark(s);
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
  last_ = nullptr; // rehash may have moved nothing, but keep the cache honest
}

std::uint64_t DramSectorModel::sectorsRead() const {
  std::uint64_t n = 0;
  for (const auto &[page, bits] : pages_)
    for (std::uint64_t w : bits) n += static_cast<std::uint64_t>(std::popcount(w));
  return n;
}

} // namespace warplens::model
