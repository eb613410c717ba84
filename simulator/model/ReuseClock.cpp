/// \file
/// The launch-wide read clock (ReuseClock.h).
#include "model/ReuseClock.h"

namespace warplens::model {

std::uint64_t ReuseClock::touch(std::uint64_t unit, bool tick, Cursor &c) {
  const std::uint64_t page = unit >> kPageShift;
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
  // Stamps hold the clock (1-based) modulo 2^32; launches past 4G reads wrap (distances then
  // come out short: fewer re-fetches, never more).
  if (tick || c.next == 0) {
    if (c.next == 0 || c.next + 1 >= c.end) { // reserve ticks base + 1 .. base + batch_
      c.next = reads_.fetch_add(batch_, std::memory_order_relaxed) + 1;
      c.end = c.next + batch_;
    } else {
      ++c.next;
    }
  }
  const auto now = static_cast<std::uint32_t>(c.next);
  const std::uint32_t before = c.stamps[unit & ((std::uint64_t(1) << kPageShift) - 1)].exchange(now, std::memory_order_relaxed);
  // Another worker may have stamped the unit with a tick of a later batch than this one's: a read
  // of about the same moment (distance 0), not one 2^32 ticks ago.
  const auto d = static_cast<std::int32_t>(now - before);
  return before && d > 0 ? static_cast<std::uint64_t>(d) : 0;
}

} // namespace warplens::model
