/// \file
/// Event loop of the block scheduler (BlockSchedule.h).
#include "analysis/BlockSchedule.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace warplens::analysis {

namespace {

struct Resident {
  double left = 0; ///< work left
  double cap = 0;  ///< most work per cycle (its longest warp)
  double rate = 0; ///< this step's work per cycle
};

/// Water-filling: `total` shared equally, a block taking at most its cap.
void share(std::vector<Resident> &r, double total) {
  std::vector<std::size_t> order(r.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return r[a].cap < r[b].cap; });
  double left = total;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const double fair = left / static_cast<double>(order.size() - i);
    Resident &x = r[order[i]];
    x.rate = std::min(x.cap, fair);
    left -= x.rate;
  }
}

} // namespace

double blockMakespan(const std::vector<BlockWork> &blocks, unsigned sms, unsigned slots,
                     const std::function<double(unsigned)> &rate, double loneCycles) {
  if (blocks.empty() || sms == 0 || slots == 0) return 0;
  std::vector<std::vector<Resident>> sm(sms);
  std::size_t next = 0;
  auto admit = [&](std::vector<Resident> &r) {
    const BlockWork &b = blocks[next++];
    const double cap = b.longest > 0 && loneCycles > 0 ? b.work / (b.longest * loneCycles)
                                                       : std::numeric_limits<double>::infinity();
    r.push_back({b.work, cap, 0});
  };
  for (unsigned s = 0; s < slots && next < blocks.size(); ++s)
    for (unsigned m = 0; m < sms && next < blocks.size(); ++m) admit(sm[m]);
  double t = 0;
  std::size_t left = blocks.size();
  while (left > 0) {
    double dt = std::numeric_limits<double>::infinity();
    for (auto &r : sm) {
      if (r.empty()) continue;
      share(r, std::max(1e-12, rate(static_cast<unsigned>(r.size()))));
      for (const Resident &x : r) dt = std::min(dt, x.left / std::max(1e-12, x.rate));
    }
    t += dt;
    for (auto &r : sm) {
      if (r.empty()) continue;
      const std::size_t before = r.size();
      for (Resident &x : r) x.left -= dt * x.rate;
      r.erase(std::remove_if(r.begin(), r.end(), [&](const Resident &x) { return x.left <= 1e-9 * std::max(1.0, dt * x.rate); }),
              r.end());
      left -= before - r.size();
      while (r.size() < slots && next < blocks.size()) admit(r);
    }
  }
  return t;
}

double blockImbalance(const std::vector<std::uint32_t> &work, const std::vector<std::uint32_t> &longest,
                      unsigned warpsPerBlock, unsigned sms, unsigned slots, const std::function<double(unsigned)> &rate,
                      double loneCycles) {
  if (work.empty() || work.size() != longest.size() || work.size() > (std::size_t(1) << 20) || sms == 0 || slots == 0)
    return 1.0;
  std::vector<BlockWork> b(work.size());
  double meanWork = 0, meanLongest = 0;
  for (std::size_t i = 0; i < work.size(); ++i) {
    b[i] = {double(work[i]), double(longest[i])};
    meanWork += b[i].work, meanLongest += b[i].longest;
  }
  meanWork /= double(b.size()), meanLongest /= double(b.size());
  const auto [lo, hi] = std::minmax_element(work.begin(), work.end());
  const auto [llo, lhi] = std::minmax_element(longest.begin(), longest.end());
  const double evenLongest = meanWork / std::max(1u, warpsPerBlock); // every warp alike
  if (meanWork <= 0 || (*hi <= *lo * 1.02 + 1 && *lhi <= *llo * 1.02 + 1 && meanLongest <= evenLongest * 1.02 + 1))
    return 1.0; // even blocks of even warps
  const double even = blockMakespan(std::vector<BlockWork>(b.size(), {meanWork, evenLongest}), sms, slots, rate, loneCycles);
  return even > 0 ? std::max(1.0, blockMakespan(b, sms, slots, rate, loneCycles) / even) : 1.0;
}

double latencyImbalance(const std::vector<std::uint32_t> &longest, unsigned sms, unsigned slots) {
  if (longest.empty() || longest.size() > (std::size_t(1) << 20) || sms == 0 || slots == 0) return 1.0;
  const auto [lo, hi] = std::minmax_element(longest.begin(), longest.end());
  if (*hi <= *lo * 1.02 + 1) return 1.0;
  // A block at one unit per cycle (its cap: work = longest, one warp's worth per cycle), the SM's
  // rate never the limit.
  auto unlimited = [](unsigned) { return std::numeric_limits<double>::infinity(); };
  std::vector<BlockWork> b(longest.size());
  double mean = 0;
  for (std::size_t i = 0; i < longest.size(); ++i) b[i] = {double(longest[i]), double(longest[i])}, mean += double(longest[i]);
  mean /= double(b.size());
  const double even = blockMakespan(std::vector<BlockWork>(b.size(), {mean, mean}), sms, slots, unlimited, 1.0);
  return even > 0 ? std::max(1.0, blockMakespan(b, sms, slots, unlimited, 1.0) / even) : 1.0;
}

} // namespace warplens::analysis
