/// \file
/// One launch-wide clock of global reads for the L2 capacity rule (DramSectorModel.h): every worker
/// thread's DRAM model stamps the fetch units it reads here, so the reads between two reads of a
/// unit count every worker's reads (per-worker stamps missed the reads other workers made in
/// between: a 16 MB table read in 8 passes came out re-fetched from DRAM with two workers, none
/// with one). Thread-safe; stamps are kept per 1M fetch units, allocated on first touch.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace warplens::model {

class ReuseClock {
public:
  /// `batch`: ticks a worker takes from the shared counter at once (no contended atomic per read;
  /// distances are off by at most batch x workers, against an L2 of ~400K lines).
  explicit ReuseClock(std::uint64_t batch = 256) : batch_(batch ? batch : 1) {}
  /// A worker's handle: the page it touched last (no lock while it stays on it).
  struct Cursor {
    std::uint64_t page = ~std::uint64_t(0);
    std::atomic<std::uint32_t> *stamps = nullptr;
    std::uint64_t next = 0, end = 0; ///< ticks reserved from the clock, a batch at a time
  };
  /// Records a read of fetch unit `unit`, advancing the clock when `tick` (a new 128-byte line of
  /// the request: the L2 allocates whole lines, so its capacity counts lines); returns the ticks
  /// since the unit's previous read (0: its first read).
  std::uint64_t touch(std::uint64_t unit, bool tick, Cursor &c);

private:
  static constexpr unsigned kPageShift = 20;
  std::uint64_t batch_;
  std::atomic<std::uint64_t> reads_{0};
  std::mutex mu_;
  std::unordered_map<std::uint64_t, std::unique_ptr<std::atomic<std::uint32_t>[]>> pages_;
};

} // namespace warplens::model
