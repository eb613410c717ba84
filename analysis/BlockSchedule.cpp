/// \file
/// Event loop of the block scheduler (BlockSchedule.h).
#include "analysis/BlockSchedule.h"

#include <algorithm>
#include <cmath>
#include <limits>
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

/// A resident block: its unfinished groups (at most kWarpGroups, kept in place: no allocation per
/// block, 2^20 blocks take a few seconds otherwise).
struct Resident {
  unsigned slot = 0;
  unsigned n = 0;
  std::array<Part, kWarpGroups> parts{};
};

struct Sm {
  double t = 0;  ///< the time its residents' work left refers to
  double dt = 0; ///< the length of its current step (kept: t' - t loses precision late in a big grid)
  std::vector<Resident> res;
};

/// Water-filling on one sub-partition: `total` shared in proportion to the parts' warps, a part
/// taking at most its cap.
void share(Part **parts, std::size_t n, double total) {
  std::sort(parts, parts + n, [](const Part *a, const Part *b) { return a->cap * b->warps < b->cap * a->warps; });
  double left = total, warps = 0;
  for (std::size_t i = 0; i < n; ++i) warps += parts[i]->warps;
  for (std::size_t i = 0; i < n; ++i) {
    Part *p = parts[i];
    const double fair = left * p->warps / warps;
    p->rate = std::max(1e-12, std::min(p->cap, fair)); // never 0: every part ends
    left -= p->rate, warps -= p->warps;
  }
}

} // namespace

unsigned tieOrders(std::size_t blocks) {
  return static_cast<unsigned>(std::clamp<std::size_t>((std::size_t(1) << 17) / std::max<std::size_t>(1, blocks), 1, 8));
}

BlockWork BlockWork::single(double work, double longest, unsigned warps) {
  BlockWork b;
  b.work[0] = work, b.longest[0] = longest, b.warps[0] = warps;
  return b;
}

double blockMakespan(const std::vector<BlockWork> &blocks, unsigned sms, unsigned slots, unsigned subPartitions,
                     unsigned warpsPerBlock, const std::function<double(unsigned)> &rate, double loneCycles,
                     std::uint64_t tieSeed) {
  if (blocks.empty() || sms == 0 || slots == 0) return 0;
  subPartitions = std::max(1u, subPartitions);
  // rate(n) for the warp counts a sub-partition can hold (at most slots x warpsPerBlock).
  std::vector<double> rateOf(std::size_t(slots) * std::max(1u, warpsPerBlock) + kWarpGroups + 2, 0);
  for (std::size_t n = 0; n < rateOf.size(); ++n) rateOf[n] = std::max(1e-12, rate(static_cast<unsigned>(n)));
  auto rateAt = [&](double warps) {
    const auto n = static_cast<std::size_t>(std::lround(warps));
    return n < rateOf.size() ? rateOf[n] : std::max(1e-12, rate(static_cast<unsigned>(n)));
  };
  std::vector<Sm> sm(sms);
  std::size_t next = 0;
  auto admit = [&](Sm &m, unsigned slot) {
    const BlockWork &b = blocks[next++];
    Resident r;
    r.slot = slot;
    for (unsigned g = 0; g < kWarpGroups; ++g) {
      if (b.warps[g] == 0 || b.work[g] <= 0) continue;
      const double cap = b.longest[g] > 0 && loneCycles > 0 ? b.work[g] / (b.longest[g] * loneCycles) : kInf;
      r.parts[r.n++] = {b.work[g], cap, double(b.warps[g]), 0, (g + slot * warpsPerBlock) % subPartitions};
    }
    if (r.n) m.res.push_back(r);
    else if (next < blocks.size()) return false; // nothing to run: the slot takes the next block
    return true;
  };
  auto fill = [&](Sm &m, unsigned slot) {
    while (next < blocks.size() && !admit(m, slot)) {
    }
  };
  for (unsigned s = 0; s < slots; ++s)
    for (unsigned i = 0; i < sms && next < blocks.size(); ++i) fill(sm[i], s);
  // Rates for the SM's current residents; returns when its next group finishes and keeps the
  // step's length in m.dt.
  std::vector<std::vector<Part *>> on(subPartitions);
  auto step = [&](Sm &m) {
    for (auto &v : on) v.clear();
    for (Resident &r : m.res)
      for (unsigned k = 0; k < r.n; ++k) on[r.parts[k].sub].push_back(&r.parts[k]);
    double dt = kInf;
    for (auto &v : on) {
      if (v.empty()) continue;
      double warps = 0;
      for (const Part *p : v) warps += p->warps;
      share(v.data(), v.size(), rateAt(warps));
      for (const Part *p : v) dt = std::min(dt, p->left / p->rate);
    }
    m.dt = dt;
    return m.t + dt;
  };
  // Events go in time order on a grid of 1e-6 cycles; SMs whose slots free at the same time
  // (identical blocks: a Mandelbrot image's mirrored rows) take the next blocks in SM order
  // (tieSeed 0) or in a pseudo-random order drawn from tieSeed, not in an order set by rounding.
  struct Event {
    double key;
    std::uint64_t tie;
    double t;
    unsigned sm;
    bool operator>(const Event &o) const { return key != o.key ? key > o.key : tie > o.tie; }
  };
  std::uint64_t events = 0;
  auto event = [&](double t, unsigned i) {
    std::uint64_t x = i;
    if (tieSeed) {
      x = tieSeed * 0x9e3779b97f4a7c15ull + (std::uint64_t(i) << 32) + ++events; // splitmix64
      x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
      x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
      x ^= x >> 31;
    }
    return Event{std::round(t * 1e6), x, t, i};
  };
  std::priority_queue<Event, std::vector<Event>, std::greater<>> q;
  for (unsigned i = 0; i < sms; ++i)
    if (!sm[i].res.empty()) q.push(event(step(sm[i]), i));
  double end = 0;
  std::vector<unsigned> freed;
  while (!q.empty()) {
    const auto [key, tie, t, i] = q.top();
    q.pop();
    Sm &m = sm[i]; // its parts still hold the rates of the step that ends at t
    const double dt = m.dt;
    m.t = t, end = std::max(end, t);
    freed.clear();
    for (Resident &r : m.res) {
      // A part ends when this step's work reaches what it had left (relative tolerance: the step
      // was computed from the part that ends first, so at least one always ends).
      unsigned kept = 0;
      for (unsigned k = 0; k < r.n; ++k) {
        Part p = r.parts[k];
        const double done = dt * p.rate;
        if (done >= p.left * (1 - 1e-9)) continue;
        p.left -= done;
        r.parts[kept++] = p;
      }
      r.n = kept;
      if (!kept) freed.push_back(r.slot);
    }
    if (!freed.empty()) {
      m.res.erase(std::remove_if(m.res.begin(), m.res.end(), [](const Resident &r) { return r.n == 0; }), m.res.end());
      std::sort(freed.begin(), freed.end());
      for (unsigned s : freed) fill(m, s);
    }
    if (!m.res.empty()) q.push(event(step(m), i));
  }
  return end;
}

double blockImbalance(const std::vector<std::uint32_t> &groupWork, const std::vector<std::uint32_t> &groupLongest,
                      unsigned warpsPerBlock, unsigned sms, unsigned slots, unsigned subPartitions,
                      const std::function<double(unsigned)> &rate, double loneCycles) {
  const std::size_t n = groupWork.size() / kWarpGroups;
  if (n == 0 || groupWork.size() != groupLongest.size() || groupWork.size() % kWarpGroups || n > emu::kMaxBlockGroups ||
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
  if (e <= 0) return 1.0;
  double u = 0;
  const unsigned k = tieOrders(n);
  for (unsigned s = 1; s <= k; ++s) u += blockMakespan(b, sms, slots, subPartitions, warpsPerBlock, rate, loneCycles, s);
  return std::max(1.0, u / k / e);
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
  // Blocks here do not share their SM (each runs at its own pace), so the order in which SMs that
  // free a slot at the same time take the next blocks does not change the makespan: one order.
  return even > 0 ? std::max(1.0, blockMakespan(b, sms, slots, 1, 1, unlimited, 1.0) / even) : 1.0;
}

} // namespace warplens::analysis
