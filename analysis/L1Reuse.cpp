/// \file
/// L1ReuseListener: per-block distinct sectors of global loads, distinct lines per request.
#include "analysis/L1Reuse.h"

#include <algorithm>
#include <array>

namespace warplens::analysis {

std::unordered_set<std::uint64_t> &L1ReuseListener::blockSet(std::uint32_t block) {
  auto it = live_.find(block);
  if (it != live_.end()) return it->second;
  if (live_.size() >= kLiveBlocks) {
    auto old = live_.find(order_.front());
    order_.pop_front();
    if (old != live_.end()) {
      closedMisses_ += old->second.size();
      live_.erase(old);
    }
  }
  order_.push_back(block);
  return live_[block];
}

void L1ReuseListener::onAccess(const model::AccessEvent &e) {
  if (e.skipped || e.companion || e.space != model::Space::Global) return;
  if (e.op != model::Op::Load && e.op != model::Op::Store) return;
  std::array<std::uint64_t, 64> sectors;
  std::array<std::uint64_t, 64> lines;
  std::size_t ns = 0, nl = 0;
  const unsigned width = std::max<unsigned>(1, e.widthBytes);
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!e.active.test(lane)) continue;
    const std::uint64_t first = e.addr[lane].value, last = first + width - 1;
    for (std::uint64_t s = first >> 5; s <= (last >> 5) && ns < sectors.size(); ++s) sectors[ns++] = s;
    for (std::uint64_t l = first >> 7; l <= (last >> 7) && nl < lines.size(); ++l) lines[nl++] = l;
  }
  if (nl == 0) return;
  std::sort(lines.begin(), lines.begin() + nl);
  const std::uint64_t distinctLines =
      static_cast<std::uint64_t>(std::unique(lines.begin(), lines.begin() + nl) - lines.begin());
  if (e.op == model::Op::Store) {
    storeLines_ += distinctLines;
    return;
  }
  loadLines_ += distinctLines;
  std::sort(sectors.begin(), sectors.begin() + ns);
  auto end = std::unique(sectors.begin(), sectors.begin() + ns);
  auto &set = blockSet(e.block);
  for (auto it = sectors.begin(); it != end; ++it) set.insert(*it);
}

void L1ReuseListener::merge(const L1ReuseListener &o) {
  closedMisses_ += o.missSectors();
  loadLines_ += o.loadLines_;
  storeLines_ += o.storeLines_;
}

std::uint64_t L1ReuseListener::missSectors() const {
  std::uint64_t n = closedMisses_;
  for (const auto &[block, set] : live_) n += set.size();
  return n;
}

} // namespace warplens::analysis
