/// \file
/// The SM trace simulation (TraceSim.h).
#include "analysis/TraceSim.h"

#include "analysis/BlockSchedule.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace warplens::analysis {

namespace {
constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
constexpr int kRegs = kSimRegs;

struct WarpState {
  const std::vector<std::uint32_t> *trace = nullptr;
  std::size_t pos = 0;
  unsigned slot = 0;        ///< the resident block it belongs to
  unsigned sub = 0;         ///< the sub-partition it issues on
  std::int64_t next = 0;    ///< earliest issue of its next instruction
  bool done = true, waiting = false;
  std::array<std::int64_t, kRegs> ready{};
};

struct SubPartition {
  std::vector<std::size_t> warps; ///< indices into the SM's warp states
  std::size_t rr = 0;
  std::int64_t issueFree = 0;
  SubPartitionPipes pipes;
};

struct Slot {
  unsigned live = 0, arrived = 0;
};
} // namespace

TraceInstruction traceInstruction(std::string_view opcode, std::vector<int> reads, std::vector<int> writes) {
  TraceInstruction t;
  t.sim.timing = opcodeTiming(opcode);
  t.sim.reads = std::move(reads);
  t.sim.writes = std::move(writes);
  return t;
}

TraceSimResult simulateTrace(const std::vector<TraceInstruction> &code, const std::vector<std::vector<std::uint32_t>> &warps,
                             unsigned resident, unsigned blocks, unsigned subPartitions, int barrierCycles) {
  TraceSimResult out;
  const std::size_t perBlock = warps.size();
  if (perBlock == 0 || blocks == 0) return out;
  resident = std::max(1u, std::min(resident, blocks));
  subPartitions = std::max(1u, subPartitions);
  static const TraceInstruction kPlain{};
  std::vector<WarpState> ws(std::size_t(resident) * perBlock);
  std::vector<SubPartition> subs(subPartitions);
  std::vector<Slot> slots(resident);
  for (std::size_t i = 0; i < ws.size(); ++i) subs[ws[i].sub = 0].warps.push_back(i);
  unsigned started = 0, liveBlocks = 0;
  // Session 15: warp i of the n-th block the SM starts issues on subPartitionOf(i, n) (BlockSchedule.h).
  auto moveTo = [&](std::size_t wi, unsigned to) {
    WarpState &w = ws[wi];
    if (w.sub == to) return;
    auto &from = subs[w.sub].warps;
    from.erase(std::find(from.begin(), from.end(), wi));
    if (subs[w.sub].rr >= from.size()) subs[w.sub].rr = 0;
    subs[to].warps.push_back(wi);
    w.sub = to;
  };
  auto start = [&](unsigned slot, std::int64_t t) {
    Slot &s = slots[slot];
    s = Slot{};
    for (std::size_t i = 0; i < perBlock; ++i) {
      moveTo(std::size_t(slot) * perBlock + i, subPartitionOf(i, started, subPartitions));
      WarpState &w = ws[std::size_t(slot) * perBlock + i];
      w.trace = &warps[i];
      w.pos = 0;
      w.slot = slot;
      w.next = t;
      w.waiting = false;
      w.done = warps[i].empty();
      w.ready.fill(t);
      s.live += w.done ? 0 : 1;
    }
    ++started;
    if (s.live) ++liveBlocks;
  };
  for (unsigned s = 0; s < resident; ++s) start(s, 0);
  double mio = 0; // the SM's L1 data path: free from this cycle (fractional wavefronts per execution)
  std::int64_t t = 0;
  auto release = [&](unsigned slot, std::int64_t at) {
    for (std::size_t i = 0; i < perBlock; ++i) {
      WarpState &w = ws[std::size_t(slot) * perBlock + i];
      if (w.waiting) w.waiting = false, w.next = std::max(w.next, at);
    }
    slots[slot].arrived = 0;
  };
  while (liveBlocks > 0) {
    bool issuedAny = false;
    std::int64_t nextEvent = kNever;
    for (SubPartition &sp : subs) {
      if (sp.issueFree > t) {
        nextEvent = std::min(nextEvent, sp.issueFree);
        continue;
      }
      const std::size_t n = sp.warps.size();
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t wi = sp.warps[(sp.rr + k) % n];
        WarpState &w = ws[wi];
        if (w.done || w.waiting) continue;
        const std::uint32_t idx = (*w.trace)[w.pos];
        const TraceInstruction &ti = idx < code.size() ? code[idx] : kPlain;
        const SimInstruction &ins = ti.sim;
        std::int64_t at = std::max(w.next, sp.pipes.freeAt(ins.timing.pipe));
        for (int r : ins.reads) at = std::max(at, w.ready[static_cast<std::size_t>(r)]);
        if (at > t) {
          nextEvent = std::min(nextEvent, at);
          continue;
        }
        // Issue.
        issuedAny = true;
        sp.rr = (sp.rr + k + 1) % n;
        sp.pipes.take(ins.timing.pipe, t, ins.timing.pipeCycles);
        sp.issueFree = t + std::max(1, ins.issueCycles);
        const int latency = ti.loadLatency >= 0 ? ti.loadLatency : ins.timing.latency;
        std::int64_t readyAt = t + latency;
        if (ti.wavefronts > 0) {
          // In order through the path; the result follows its last wavefront.
          const double from = std::max(static_cast<double>(t), mio);
          mio = from + ti.wavefronts;
          readyAt = static_cast<std::int64_t>(std::ceil(mio)) - 1 + latency;
        }
        for (int r : ins.writes) w.ready[static_cast<std::size_t>(r)] = readyAt;
        w.next = t + std::max(1, ins.stall);
        out.instructions += 1;
        Slot &s = slots[w.slot];
        if (++w.pos == w.trace->size()) {
          w.done = true;
          --s.live;
        } else if (ti.barrier) {
          w.waiting = true;
          ++s.arrived;
        }
        if (s.live > 0 && s.arrived > 0 && s.arrived == s.live) release(w.slot, t + barrierCycles);
        if (s.live == 0) {
          --liveBlocks;
          if (started < blocks) start(w.slot, t + 1);
        }
        break;
      }
    }
    if (issuedAny) {
      ++t;
    } else if (nextEvent == kNever) {
      // Nothing can issue and nothing will: warps wait at barriers their block's other warps
      // never reach (a trace the engine ended there). Release them.
      bool any = false;
      for (unsigned s = 0; s < resident; ++s)
        if (slots[s].arrived) release(s, t + barrierCycles), any = true;
      if (!any) break;
    } else {
      t = std::max(t + 1, nextEvent);
    }
  }
  out.cycles = std::max(static_cast<double>(t), mio);
  out.ran = true;
  return out;
}

TraceSimResult simulateSmBlocks(const std::vector<TraceInstruction> &code,
                                const std::vector<std::vector<std::uint32_t>> &warps, unsigned resident, double perSm,
                                unsigned subPartitions, int barrierCycles, double budget) {
  TraceSimResult out;
  double len = 0;
  for (const auto &w : warps) len += static_cast<double>(w.size());
  if (len <= 0 || perSm <= 0) return out;
  resident = std::max(1u, resident);
  const double blocks = std::ceil(perSm);
  if (blocks * len <= budget) return simulateTrace(code, warps, resident, static_cast<unsigned>(blocks), subPartitions, barrierCycles);
  const double k = std::min<double>(resident, blocks);
  if (2 * k * len <= budget && 2 * k <= blocks) {
    const TraceSimResult one = simulateTrace(code, warps, resident, static_cast<unsigned>(k), subPartitions, barrierCycles);
    const TraceSimResult two = simulateTrace(code, warps, resident, static_cast<unsigned>(2 * k), subPartitions, barrierCycles);
    out = two;
    out.cycles = two.cycles + (blocks - 2 * k) / k * std::max(0.0, two.cycles - one.cycles);
    out.instructions = len * blocks;
    return out;
  }
  if (k * len <= budget) {
    out = simulateTrace(code, warps, resident, static_cast<unsigned>(k), subPartitions, barrierCycles);
    out.cycles *= blocks / k;
    out.instructions = len * blocks;
  }
  return out;
}

} // namespace warplens::analysis
