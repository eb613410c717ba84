/// \file
/// Event loop of the block scheduler (BlockSchedule.h). Session 14: the same schedules to the last
/// digit in about a third of the time (2^20 blocks of 8 warps: 2.7 s to 1 s): a sub-partition is
/// shared again only when its parts change, its parts kept in the share's order, events in a
/// branch-free tournament, blocks built as they come, and tie orders that cannot differ run once.
#include "analysis/BlockSchedule.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace warplens::analysis {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A resident block's warp group on its sub-partition.
struct Part {
  double left = 0;   ///< work left
  double cap = 0;    ///< most work per cycle (its longest warp)
  double warps = 0;  ///< its warps: its weight in the sub-partition's share
  double rate = 0;   ///< this step's work per cycle
  unsigned slot = 0; ///< its block's slot
  std::size_t seq = 0; ///< the order it came in: block x kWarpGroups + group
};

/// Group g's most work per cycle: its work over its longest warp's time alone (none: no cap).
double capOf(const BlockWork &b, unsigned g, double loneCycles) {
  return b.longest[g] > 0 && loneCycles > 0 ? b.work[g] / (b.longest[g] * loneCycles) : kInf;
}

/// The share's order: parts that reach their cap first (least cap per warp) first.
bool capFirst(const Part &a, const Part &b) { return a.cap * b.warps < b.cap * a.warps; }

/// std::sort's insertion sort (libstdc++: up to 16 elements) keeps equal parts in the order they
/// came; above it the share sorts them from that order with std::sort as ever.
constexpr std::size_t kStableSort = 16;

/// A sub-partition's unfinished parts: in the order they came, or, when `ordered` (makespan's
/// note), in the share's order, equal parts in the order they came, kept as parts come and go.
/// Its rates change only when a part ends or comes, so only then are they shared again (the same
/// parts in the same order give the same rates).
struct Sub {
  std::vector<Part> parts;
  bool changed = false;
  double next = kInf; ///< unless changed: the least left / rate of its parts (when its first one ends)
};

struct Sm {
  double t = 0;  ///< the time its residents' work left refers to
  double dt = 0; ///< the length of its current step (kept: t' - t loses precision late in a big grid)
  std::size_t parts = 0;
  std::size_t started = 0; ///< blocks it has started (subPartitionOf)
  std::vector<Sub> subs;
  std::vector<unsigned> groupsLeft; ///< per slot: its block's unfinished groups
};

/// Water-filling on one sub-partition: `total` shared in proportion to the parts' warps, a part
/// taking at most its cap, parts at(0), ..., at(n - 1) in the share's order.
template <class At> void share(std::size_t n, double total, const At &at) {
  double left = total, warps = 0;
  for (std::size_t i = 0; i < n; ++i) warps += at(i).warps;
  for (std::size_t i = 0; i < n; ++i) {
    Part &p = at(i);
    const double fair = left * p.warps / warps;
    p.rate = std::max(1e-12, std::min(p.cap, fair)); // never 0: every part ends
    left -= p.rate, warps -= p.warps;
  }
}

/// An event: SM `sm`'s step ends at `t`. Events go in order of `key` (t on a grid of 1e-6
/// cycles), then `tie`; no two pending events share both (tie is the SM, or a bijection of the SM
/// and the event's number).
struct Event {
  double key;
  std::uint64_t tie;
  double t;
  unsigned sm;
};

/// Pending events, at most one per SM: a tournament over the SMs, each node the earliest event
/// below it, so that an SM's next step replaces its event along one path up. Which event is the
/// earlier is a coin toss to a branch predictor, so they are compared and chosen without branches:
/// keys as their bits (keys are never negative, the clock starts at 0, and +0 stands for -0: a
/// non-negative double's bits order as its value), ties as they are.
class EventTree {
public:
  explicit EventTree(unsigned sms) : leaves_(std::bit_ceil(std::max(2u, sms))), node_(2 * leaves_), t_(leaves_, 0) {
    for (unsigned i = 0; i < leaves_; ++i) set(i, nullptr);
  }
  bool empty() const { return pending_ == 0; }
  /// The earliest event.
  Event top() const {
    const Node &n = node_[1];
    return {std::bit_cast<double>(n.key), n.tie, t_[n.sm], static_cast<unsigned>(n.sm)};
  }
  /// Sets SM i's event (none: `e` is nullptr; its place then holds a key after every event's).
  void set(unsigned i, const Event *e) {
    std::size_t n = leaves_ + i;
    pending_ += std::size_t(e != nullptr) - std::size_t(node_[n].key != kNone);
    Node cur{e ? std::bit_cast<std::uint64_t>(e->key + 0.0) : kNone, e ? e->tie : 0, i};
    if (e) t_[i] = e->t;
    node_[n] = cur;
    for (; n > 1; n /= 2) {
      const Node &o = node_[n ^ 1];
      const std::uint64_t other =
          std::uint64_t(o.key < cur.key) | (std::uint64_t(o.key == cur.key) & std::uint64_t(o.tie < cur.tie));
      const std::uint64_t mask = 0 - other;
      cur.key ^= (cur.key ^ o.key) & mask, cur.tie ^= (cur.tie ^ o.tie) & mask, cur.sm ^= (cur.sm ^ o.sm) & mask;
      node_[n / 2] = cur;
    }
  }

private:
  static constexpr std::uint64_t kNone = ~std::uint64_t(0); ///< above every double's bits but NaNs'
  struct Node {
    std::uint64_t key = kNone, tie = 0, sm = 0;
  };
  std::size_t leaves_;
  std::size_t pending_ = 0;
  std::vector<Node> node_;
  std::vector<double> t_;
};

/// blockMakespan over `count` blocks, block i being blockAt(i) (blockImbalance builds them on the
/// fly: 2^20 blocks of 80 bytes twice otherwise); `tied`, when given, tells whether the tie order
/// took part: whether two SMs freed slots at the same time (the same key) while blocks were left.
/// Events come in order of their keys (a step ends no earlier than it starts); when at most one
/// SM of those at a key takes blocks, every order of them ends in the same state.
template <class BlockAt>
double makespan(std::size_t count, const BlockAt &blockAt, unsigned sms, unsigned slots, unsigned subPartitions,
                unsigned warpsPerBlock, const std::function<double(unsigned)> &rate, double loneCycles,
                std::uint64_t tieSeed, bool *tied) {
  if (tied) *tied = false;
  if (count == 0 || sms == 0 || slots == 0) return 0;
  subPartitions = std::max(1u, subPartitions);
  // rate(n) for the warp counts a sub-partition can hold (at most slots x warpsPerBlock).
  std::vector<double> rateOf(std::size_t(slots) * std::max(1u, warpsPerBlock) + kWarpGroups + 2, 0);
  for (std::size_t n = 0; n < rateOf.size(); ++n) rateOf[n] = std::max(1e-12, rate(static_cast<unsigned>(n)));
  auto rateAt = [&](std::size_t n) {
    return n < rateOf.size() ? rateOf[n] : std::max(1e-12, rate(static_cast<unsigned>(n)));
  };
  // Parts are kept in the share's order as they come and go (no sort per share) when the order
  // compares exact products, a strict weak order: the same warps in every group, or warps that are
  // powers of two (caps far from overflow). Otherwise (warps 2 and 3, say) each share sorts.
  bool ordered = true;
  {
    unsigned firstWarps = 0;
    bool same = true, powers = true;
    for (std::size_t i = 0; i < count && ordered; ++i) {
      const BlockWork &b = blockAt(i);
      for (unsigned g = 0; g < kWarpGroups; ++g) {
        if (b.warps[g] == 0 || b.work[g] <= 0) continue;
        const double cap = capOf(b, g, loneCycles);
        if (!firstWarps) firstWarps = b.warps[g];
        same = same && b.warps[g] == firstWarps, powers = powers && (b.warps[g] & (b.warps[g] - 1)) == 0;
        ordered = ordered && (same || powers) && (cap == kInf || cap <= 1e290);
      }
    }
  }
  std::vector<Sm> sm(sms);
  for (Sm &m : sm) m.subs.resize(subPartitions), m.groupsLeft.assign(slots, 0);
  std::size_t next = 0;
  auto admit = [&](Sm &m, unsigned slot) {
    const BlockWork b = blockAt(next++);
    unsigned n = 0;
    const std::size_t rotation = m.started++;
    for (unsigned g = 0; g < kWarpGroups; ++g) {
      if (b.warps[g] == 0 || b.work[g] <= 0) continue;
      const double cap = capOf(b, g, loneCycles);
      Sub &s = m.subs[subPartitionOf(g, rotation, subPartitions)];
      const Part p{b.work[g], cap, double(b.warps[g]), 0, slot, (next - 1) * kWarpGroups + g};
      // After the parts it does not come before: a stable sort of the order they came.
      s.parts.insert(ordered ? std::upper_bound(s.parts.begin(), s.parts.end(), p, capFirst) : s.parts.end(), p);
      s.changed = true, ++n;
    }
    m.groupsLeft[slot] = n, m.parts += n;
    return n || next >= count; // nothing to run: the slot takes the next block
  };
  auto fill = [&](Sm &m, unsigned slot) {
    while (next < count && !admit(m, slot)) {
    }
  };
  for (unsigned s = 0; s < slots; ++s)
    for (unsigned i = 0; i < sms && next < count; ++i) fill(sm[i], s);
  // Rates for the SM's current residents (shared again on the sub-partitions whose parts changed);
  // returns when its next group finishes and keeps the step's length in m.dt.
  std::vector<Part *> on;
  auto step = [&](Sm &m) {
    double dt = kInf;
    for (Sub &s : m.subs) {
      if (s.changed) {
        std::size_t warps = 0; // whole warps: the sum is exact
        for (const Part &p : s.parts) warps += static_cast<std::size_t>(p.warps);
        // std::sort puts equal parts above kStableSort in an order of its own: those are sorted
        // from the order they came, as are all where the order is not kept.
        bool sorted = ordered;
        if (sorted && s.parts.size() > kStableSort)
          for (std::size_t k = 1; k < s.parts.size() && sorted; ++k) sorted = capFirst(s.parts[k - 1], s.parts[k]);
        if (sorted) {
          share(s.parts.size(), rateAt(warps), [&](std::size_t i) -> Part & { return s.parts[i]; });
        } else {
          on.clear();
          for (Part &p : s.parts) on.push_back(&p);
          if (ordered) std::sort(on.begin(), on.end(), [](const Part *a, const Part *b) { return a->seq < b->seq; });
          std::sort(on.begin(), on.end(), [](const Part *a, const Part *b) { return capFirst(*a, *b); });
          share(on.size(), rateAt(warps), [&](std::size_t i) -> Part & { return *on[i]; });
        }
        double next = kInf;
        for (const Part &p : s.parts) next = std::min(next, p.left / p.rate);
        s.next = next;
        s.changed = false;
      }
      dt = std::min(dt, s.next);
    }
    m.dt = dt;
    return m.t + dt;
  };
  // Events go in time order on a grid of 1e-6 cycles; SMs whose slots free at the same time
  // (identical blocks: a Mandelbrot image's mirrored rows) take the next blocks in SM order
  // (tieSeed 0) or in a pseudo-random order drawn from tieSeed, not in an order set by rounding.
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
  EventTree q(sms);
  for (unsigned i = 0; i < sms; ++i)
    if (sm[i].parts) {
      const Event e = event(step(sm[i]), i);
      q.set(i, &e);
    }
  double end = 0;
  std::vector<unsigned> freed;
  double tieKey = -1;                             // the key of the events now running
  std::size_t tieNext = 0;                        // the next block when they began
  unsigned tieSm = std::numeric_limits<unsigned>::max(); // the last of them to free a slot
  while (!q.empty()) {
    const Event e = q.top();
    Sm &m = sm[e.sm]; // its parts still hold the rates of the step that ends at e.t
    const double dt = m.dt;
    m.t = e.t, end = std::max(end, e.t);
    freed.clear();
    for (Sub &s : m.subs) {
      // A part ends when this step's work reaches what it had left (relative tolerance: the step
      // was computed from the part that ends first, so at least one always ends); it is marked by
      // a negative left (one that goes on keeps a positive one) and taken out. `next`: the next
      // step's least left / rate, should the sub-partition's rates stay (no part ends or comes).
      double next = kInf;
      bool ended = false;
      for (Part &p : s.parts) {
        const double done = dt * p.rate;
        if (done >= p.left * (1 - 1e-9)) {
          p.left = -1, ended = true;
          continue;
        }
        p.left -= done;
        next = std::min(next, p.left / p.rate);
      }
      s.next = next;
      if (ended) { // counted apart from the loop above: with no call in it, its sums stay in registers
        for (const Part &p : s.parts) {
          if (p.left >= 0) continue;
          --m.parts;
          if (--m.groupsLeft[p.slot] == 0) freed.push_back(p.slot);
        }
        auto gone = [](const Part &p) { return p.left < 0; };
        s.parts.erase(std::remove_if(s.parts.begin(), s.parts.end(), gone), s.parts.end());
        s.changed = true;
      }
    }
    if (tied && e.key != tieKey) tieKey = e.key, tieNext = next, tieSm = std::numeric_limits<unsigned>::max();
    if (tied && !freed.empty() && tieNext < count) {
      if (tieSm != std::numeric_limits<unsigned>::max() && tieSm != e.sm) *tied = true;
      tieSm = e.sm;
    }
    std::sort(freed.begin(), freed.end());
    for (unsigned s : freed) fill(m, s);
    if (m.parts) {
      const Event n = event(step(m), e.sm);
      q.set(e.sm, &n);
    } else {
      q.set(e.sm, nullptr);
    }
  }
  return end;
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
  auto at = [&](std::size_t i) -> const BlockWork & { return blocks[i]; };
  return makespan(blocks.size(), at, sms, slots, subPartitions, warpsPerBlock, rate, loneCycles, tieSeed, nullptr);
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
  auto block = [&](std::size_t i) {
    BlockWork b;
    for (unsigned g = 0; g < kWarpGroups; ++g)
      b.work[g] = groupWork[i * kWarpGroups + g], b.longest[g] = groupLongest[i * kWarpGroups + g],
      b.warps[g] = warps[g];
    return b;
  };
  double meanWork = 0;
  double lo = kInf, hi = 0, llo = kInf, lhi = 0, meanLongest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double work = 0, longest = 0;
    for (unsigned g = 0; g < kWarpGroups; ++g)
      work += groupWork[i * kWarpGroups + g], longest = std::max<double>(longest, groupLongest[i * kWarpGroups + g]);
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
  auto evenAt = [&](std::size_t) -> const BlockWork & { return even; };
  const double e = makespan(n, evenAt, sms, slots, subPartitions, warpsPerBlock, rate, loneCycles, 0, nullptr);
  if (e <= 0) return 1.0;
  // Where the first tie order never decided which SM took a block, every order gives its
  // schedule: it is summed k times all the same (to the same last digit).
  double u = 0, m = 0;
  bool tied = true;
  const unsigned k = tieOrders(n);
  for (unsigned s = 1; s <= k; ++s) {
    if (s == 1 || tied)
      m = makespan(n, block, sms, slots, subPartitions, warpsPerBlock, rate, loneCycles, s, s == 1 ? &tied : nullptr);
    u += m;
  }
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
