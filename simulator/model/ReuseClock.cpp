/// \file
/// The launch-wide line clock (ReuseClock.h).
#include "model/ReuseClock.h"

namespace warplens::model {

std::uint32_t ReuseClock::tick(bool advance, Ticks &t) {
  if (advance || t.next == 0) {
    if (t.next == 0 || t.next + 1 >= t.end) { // reserve ticks base + 1 .. base + batch_
      t.next = reads_.fetch_add(batch_, std::memory_order_relaxed) + 1;
      t.end = t.next + batch_;
    } else {
      ++t.next;
    }
  }
  // Stamps hold the clock modulo 2^32; launches past 4G accesses wrap (distances then come out
  // short: fewer re-fetches, never more).
  return static_cast<std::uint32_t>(t.next);
}

std::uint64_t ReuseClock::stamp(std::uint64_t key, std::uint32_t now, Page &c) {
  const std::uint32_t before = slot(key, c).exchange(now, std::memory_order_relaxed);
  if (!before) return kFirst;
  // Another worker may have stamped the key with a tick of a later batch than this one's: a touch
  // of about the same moment (distance 0), not one 2^32 ticks ago.
  const auto d = static_cast<std::int32_t>(now - before);
  return d > 0 ? static_cast<std::uint64_t>(d) : 0;
}

std::atomic<std::uint32_t> &ReuseClock::slot(std::uint64_t key, Page &c) {
  const std::uint64_t page = key >> kPageShift;
  if (page != c.page || !c.stamps) {
    std::lock_guard<std::mutex> lock(mu_);
    auto &p = pages_[page];
    if (!p) {
      p = std::make_unique<std::atomic<std::uint32_t>[]>(std::size_t(1) << kPageShift);
      for (std::size_t i = 0; i < (std::size_t(1) << kPageShift); ++i) p[i].store(0, std::memory_order_relaxed);
    }
    c.page = page;
    c.stamps = p.get();
  }
  return c.stamps[key & ((std::uint64_t(1) << kPageShift) - 1)];
}

void ReuseClock::forEachStamp(std::uint64_t bits, const std::function<void(std::uint64_t, std::uint32_t)> &f) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto &[page, stamps] : pages_) {
    const std::uint64_t base = page << kPageShift;
    if ((base & bits) != bits) continue;
    for (std::size_t i = 0; i < (std::size_t(1) << kPageShift); ++i)
      if (const std::uint32_t s = stamps[i].load(std::memory_order_relaxed)) f(base | i, s);
  }
}

} // namespace warplens::model
