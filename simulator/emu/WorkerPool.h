/// \file
/// The worker pool both execution engines (PTX emulator, SASS engine) run a launch's blocks on:
/// one listener per worker, the calling thread alone when one worker suffices.
#pragma once

#include "model/AccessEvent.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

namespace warplens::emu {

/// Workers for `blocks` blocks: `requested` (0 = hardware concurrency), never more than blocks.
inline unsigned workerCount(unsigned requested, std::uint64_t blocks) {
  unsigned n = requested ? requested : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::uint64_t>(n, blocks));
}

/// Runs `work(listener)` once per listener, each on its own thread (inline when there is one).
template <class Work>
void runWorkers(std::vector<std::unique_ptr<model::AccessListener>> &listeners, const Work &work) {
  if (listeners.size() == 1) {
    work(*listeners[0]);
    return;
  }
  std::vector<std::thread> pool;
  for (auto &l : listeners) pool.emplace_back([&work, &l] { work(*l); });
  for (auto &t : pool) t.join();
}

} // namespace warplens::emu
