/// \file
/// One launch-wide clock of global line accesses for the L2 capacity rule (DramSectorModel.h):
/// every worker thread's DRAM model stamps the keys it touches here (fetch units, lines, written
/// sectors), so the accesses between two touches of a key count every worker's (per-worker stamps
/// missed the reads other workers made in between: a 16 MB table read in 8 passes came out
/// re-fetched from DRAM with two workers, none with one). Thread-safe; stamps are kept per 1M
/// keys, allocated on first touch.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace warplens::model {

class ReuseClock {
public:
  /// `batch`: ticks a worker takes from the shared counter at once (no contended atomic per read;
  /// distances are off by at most batch x workers, against an L2 of ~400K lines).
  explicit ReuseClock(std::uint64_t batch = 256) : batch_(batch ? batch : 1) {}
  /// A worker's ticks, reserved from the clock a batch at a time.
  struct Ticks {
    std::uint64_t next = 0, end = 0;
  };
  /// A worker's handle on one page of stamps (no lock while it stays on it).
  struct Page {
    std::uint64_t page = ~std::uint64_t(0);
    std::atomic<std::uint32_t> *stamps = nullptr;
  };
  struct Cursor {
    Page page;
    Ticks ticks;
  };
  /// The worker's current tick, advanced first when `advance` (a new 128-byte line of a request:
  /// the L2 allocates whole lines, so its capacity counts lines). 1-based, modulo 2^32.
  std::uint32_t tick(bool advance, Ticks &t);
  /// Stamps `key` with `now`; returns the ticks since its previous stamp, 0 for a stamp of about
  /// the same moment (another worker's later batch), kFirst for its first.
  static constexpr std::uint64_t kFirst = ~std::uint64_t(0);
  std::uint64_t stamp(std::uint64_t key, std::uint32_t now, Page &p);
  /// The value kept for `key` (0 until first set): stamps, or whatever a caller keeps per key in
  /// the same pages (DramSectorModel: each fetch unit's longest line gap since its last read).
  std::atomic<std::uint32_t> &slot(std::uint64_t key, Page &p);
  /// tick + stamp; returns 0 for a first touch.
  std::uint64_t touch(std::uint64_t key, bool advance, Cursor &c) {
    const std::uint64_t d = stamp(key, tick(advance, c.ticks), c.page);
    return d == kFirst ? 0 : d;
  }
  /// Every stamped key with all of `bits` set, with its last stamp (call when the workers are done).
  void forEachStamp(std::uint64_t bits, const std::function<void(std::uint64_t key, std::uint32_t last)> &f) const;
  /// Ticks handed out (an upper bound on the last stamp: batches end part-used).
  std::uint64_t ticks() const { return reads_.load(std::memory_order_relaxed); }

private:
  static constexpr unsigned kPageShift = 20;
  std::uint64_t batch_;
  std::atomic<std::uint64_t> reads_{0};
  mutable std::mutex mu_;
  std::unordered_map<std::uint64_t, std::unique_ptr<std::atomic<std::uint32_t>[]>> pages_;
};

} // namespace warplens::model
