/// \file
/// Event loop of the block scheduler (BlockSchedule.h).
#include "analysis/BlockSchedule.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>

namespace warplens::analysis {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A resident block's warp group on its sub-partition.
struct Part {
  double left = 0;   ///< work left
  double cap = 0;    ///< most work per cycle (its longest warp)
  double warps = 0;  ///< its warps: its weight in the sub-partition's share
  double rate = 0;   ///< this step's work per cycle
  unsigned sub = 0;  ///< the sub-partition it runs on
};

struct Resident {
  unsigned slot = 0;
  std::vector<Part> parts; ///< its unfinished groups
};

struct Sm {
  double t = 0; ///< the time its residents' work left refers to
  std::vector<Resident> res;
};

/// Water-filling on one sub-partition: `total` shared in proportion to the parts' warps, a part
/// taking at most its cap.
void share(std::vector<Part *> &parts, double total) {
  std::sort(parts.begin(), parts.end(), [](const Part *a, const Part *b) { return a->cap / a->warps < b->cap / b->warps; });
  double left = total, warps = 0;
  for (const Part *p : parts) warps += p->warps;
  for (Part *p : parts) {
    const double fair = left * p->warps / warps;
    p->rate = std::min(p->cap, fair);
    left -= p->rate, warps -= p->warps;
  }
}

} // namespace

BlockWork BlockWork::single(double work, double longest, unsigned warps) {
  BlockWork b;
  b.work[0] = work, b.longest[0] = longest, b.warps[0] = warps;
  return b;
}

double blockMakespan(const std::vector<BlockWork> &blocks, unsigned sms, unsigned slots, unsigned subPartitions,
                     unsigned warpsPerBlock, const std::function<double(unsigned)> &rate, double loneCycles) {
  if (blocks.empty() || sms == 0 || slots == 0) return 0;
  subPartitions = std::max(1u, subPartitions);
  std::vector<Sm> sm(sms);
  std::size_t next = 0;
  auto admit = [&](Sm &m, unsigned slot) {
    const BlockWork &b = blocks[next++];
    Resident r;
    r.slot = slot;
    for (unsigned g = 0; g < kWarpGroups; ++g) {
      if (b.warps[g] == 0 || b.work[g] <= 0) continue;
      const double cap = b.longest[g] > 0 && loneCycles > 0 ? b.work[g] / (b.longest[g] * loneCycles) : kInf;
      r.parts.push_back({b.work[g], cap, double(b.warps[g]), 0, (g + slot * warpsPerBlock) % subPartitions});
    }
    if (!r.parts.empty()) m.res.push_back(std::move(r));
    else if (next < blocks.size()) return false; // nothing to run: the slot takes the next block
    return true;
  };
  auto fill = [&](Sm &m, unsigned slot) {
    while (next < blocks.size() && !admit(m, slot)) {
    }
  };
  for (unsigned s = 0; s < slots; ++s)
    for (unsigned i = 0; i < sms && next < blocks.size(); ++i) fill(sm[i], s);
  // Rates for the SM's current residents; returns when its next group finishes.
  std::vector<std::vector<Part *>> on(subPartitions);
  auto step = [&](Sm &m) {
    for (auto &v : on) v.clear();
    for (Resident &r : m.res)
      for (Part &p : r.parts) on[p.sub].push_back(&p);
    double dt = kInf;
    for (auto &v : on) {
      if (v.empty()) continue;
      double warps = 0;
      for (const Part *p : v) warps += p->warps;
      share(v, std::max(1e-12, rate(static_cast<unsigned>(std::lround(warps)))));
      for (const Part *p : v) dt = std::min(dt, p->left / std::max(1e-12, p->rate));
    }
    return m.t + dt;
  };
  using Event = std::pair<double, unsigned>;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> q;
  for (unsigned i = 0; i < sms; ++i)
    if (!sm[i].res.empty()) q.push({step(sm[i]), i});
  double end = 0;
  while (!q.empty()) {
    const auto [t, i] = q.top();
    q.pop();
    Sm &m = sm[i];
    step(m); // the rates of the step that ends at t
    const double dt = t - m.t;
    m.t = t, end = std::max(end, t);
    std::vector<unsigned> freed;
    for (Resident &r : m.res) {
      for (Part &p : r.parts) p.left -= dt * p.rate;
      r.parts.erase(std::remove_if(r.parts.begin(), r.parts.end(),
                                   [&](const Part &p) { return p.left <= 1e-9 * std::max(1.0, dt * p.rate); }),
                    r.parts.end());
      if (r.parts.empty()) freed.push_back(r.slot);
    }
    m.res.erase(std::remove_if(m.res.begin(), m.res.end(), [](const Resident &r) { return r.parts.empty(); }), m.res.end());
    std::sort(freed.begin(), freed.end());
    for (unsigned s : freed) fill(m, s);
    if (!m.res.empty()) q.push({step(m), i});
  }
  return end;
}

double blockImbalance(const std::vector<std::uint32_t> &groupWork, const std::vector<std::uint32_t> &groupLongest,
                      unsigned warpsPerBlock, unsigned sms, unsigned slots, unsigned subPartitions,
                      const std::function<double(unsigned)> &rate, double loneCycles) {
  const std::size_t n = groupWork.size() / kWarpGroups;
  if (n == 0 || groupWork.size() != groupLongest.size() || groupWork.size() % kWarpGroups || n > (std::size_t(1) << 20) ||
      sms == 0 || slots == 0 || warpsPerBlock == 0)
    return 1.0;
  std::array<unsigned, kWarpGroups> warps{};
  for (unsigned w = 0; w < warpsPerBlock; ++w) ++warps[w % kWarpGroups];
  std::vector<BlockWork> b(n);
  double meanWork = 0;
  double lo = kInf, hi = 0, llo = kInf, lhi = 0, meanLongest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double work = 0, longest = 0;
    for (unsigned g = 0; g < kWarpGroups; ++g) {
      b[i].work[g] = groupWork[i * kWarpGroups + g];
      b[i].longest[g] = groupLongest[i * kWarpGroups + g];
      b[i].warps[g] = warps[g];
      work += b[i].work[g], longest = std::max(longest, b[i].longest[g]);
    }
    meanWork += work, meanLongest += longest;
    lo = std::min(lo, work), hi = std::max(hi, work), llo = std::min(llo, longest), lhi = std::max(lhi, longest);
  }
  meanWork /= double(n), meanLongest /= double(n);
  const double evenLongest = meanWork / warpsPerBlock; // every warp alike
  if (meanWork <= 0 || (hi <= lo * 1.02 + 1 && lhi <= llo * 1.02 + 1 && meanLongest <= evenLongest * 1.02 + 1))
    return 1.0; // even blocks of even warps
  BlockWork even;
  for (unsigned g = 0; g < kWarpGroups; ++g)
    even.work[g] = evenLongest * warps[g], even.longest[g] = evenLongest, even.warps[g] = warps[g];
  const double e = blockMakespan(std::vector<BlockWork>(n, even), sms, slots, subPartitions, warpsPerBlock, rate, loneCycles);
  return e > 0 ? std::max(1.0, blockMakespan(b, sms, slots, subPartitions, warpsPerBlock, rate, loneCycles) / e) : 1.0;
}

double latencyImbalance(const std::vector<std::uint32_t> &longest, unsigned sms, unsigned slots) {
  if (longest.empty() || longest.size() > (std::size_t(1) << 20) || sms == 0 || slots == 0) return 1.0;
  const auto [lo, hi] = std::minmax_element(longest.begin(), longest.end());
  if (*hi <= *lo * 1.02 + 1) return 1.0;
  // A block at one unit per cycle (its cap: work = longest, one warp's worth per cycle), the SM's
  // rate never the limit.
  auto unlimited = [](unsigned) { return kInf; };
  std::vector<BlockWork> b(longest.size());
  double mean = 0;
  for (std::size_t i = 0; i < longest.size(); ++i) b[i] = BlockWork::single(longest[i], longest[i]), mean += double(longest[i]);
  mean /= double(b.size());
  const double even = blockMakespan(std::vector<BlockWork>(b.size(), BlockWork::single(mean, mean)), sms, slots, 1, 1, unlimited, 1.0);
  return even > 0 ? std::max(1.0, blockMakespan(b, sms, slots, 1, 1, unlimited, 1.0) / even) : 1.0;
}

} // namespace warplens::analysis
