/// \file
/// The sub-partition issue loop (IssueSim.h).
#include "analysis/IssueSim.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace warplens::analysis {

IssueStats &IssueStats::operator+=(const IssueStats &o) {
  cycles += o.cycles, issue += o.issue, fmaHeavy += o.fmaHeavy, fmaLite += o.fmaLite;
  alu += o.alu, fp64 += o.fp64, xu += o.xu, mio += o.mio;
  return *this;
}

IssueStats IssueStats::scaled(double k) const {
  IssueStats s = *this;
  s.cycles *= k, s.issue *= k, s.fmaHeavy *= k, s.fmaLite *= k, s.alu *= k, s.fp64 *= k, s.xu *= k;
  s.mio *= k;
  return s;
}

std::string IssueStats::bound() const {
  if (cycles <= 0) return "issue";
  const double fma = std::max(fmaHeavy, 0.5 * (fmaHeavy + fmaLite));
  const std::pair<double, const char *> busy[] = {{issue, "issue"}, {fma, "fma"}, {alu, "alu"},
                                                  {fp64, "fp64"},   {xu, "xu"},   {mio, "l1/shared"}};
  const auto *top = std::max_element(std::begin(busy), std::end(busy),
                                     [](const auto &a, const auto &b) { return a.first < b.first; });
  return top->first >= 0.6 * cycles ? top->second : "dependency";
}

std::int64_t SubPartitionPipes::freeAt(Pipe p) const {
  switch (p) {
  case Pipe::Fma: return std::min(heavy, lite);
  case Pipe::FmaHeavy: return heavy;
  case Pipe::Alu: return alu;
  case Pipe::Fp64: return fp64;
  case Pipe::Xu: return xu;
  case Pipe::None: break;
  }
  return 0;
}

Pipe SubPartitionPipes::take(Pipe p, std::int64_t t, std::int64_t busy) {
  switch (p) {
  case Pipe::Fma:
    if (lite <= t) {
      lite = t + busy;
      return Pipe::Fma;
    }
    heavy = t + busy;
    return Pipe::FmaHeavy;
  case Pipe::FmaHeavy: heavy = t + busy; break;
  case Pipe::Alu: alu = t + busy; break;
  case Pipe::Fp64: fp64 = t + busy; break;
  case Pipe::Xu: xu = t + busy; break;
  case Pipe::None: break;
  }
  return p;
}

namespace {

/// Every warp runs the block `reps` times; returns the cycle at which the last instruction has
/// issued and the shared data path has taken the last wavefronts, the busy cycles in `out`.
std::int64_t runReps(const std::vector<SimInstruction> &body, unsigned warps, unsigned reps, IssueStats &out) {
  const std::size_t n = body.size();
  constexpr int kRegs = kSimRegs;
  struct Warp {
    std::size_t k = 0;
    unsigned rep = 0;
    std::int64_t next = 0; ///< earliest issue of its next instruction (stall counts)
    std::array<std::int64_t, kRegs> ready{};
  };
  std::vector<Warp> ws(warps);
  std::int64_t t = 0, issueFree = 0, mio = 0;
  SubPartitionPipes pipes;
  const std::uint64_t total = std::uint64_t(warps) * reps * n;
  std::uint64_t issued = 0;
  unsigned rr = 0;
  constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
  while (issued < total) {
    if (issueFree > t) {
      t = issueFree;
      continue;
    }
    std::int64_t next = kNever;
    bool did = false;
    for (unsigned i = 0; i < warps && !did; ++i) {
      const unsigned w = (rr + i) % warps;
      Warp &wp = ws[w];
      if (wp.rep >= reps) continue;
      const SimInstruction &ins = body[wp.k];
      std::int64_t at = std::max(wp.next, pipes.freeAt(ins.timing.pipe));
      for (int r : ins.reads) at = std::max(at, wp.ready[static_cast<std::size_t>(r)]);
      if (at > t) {
        next = std::min(next, at);
        continue;
      }
      // Issue.
      did = true;
      rr = w + 1;
      const std::int64_t busy = ins.timing.pipeCycles;
      switch (pipes.take(ins.timing.pipe, t, busy)) {
      case Pipe::Fma: out.fmaLite += busy; break;
      case Pipe::FmaHeavy: out.fmaHeavy += busy; break;
      case Pipe::Alu: out.alu += busy; break;
      case Pipe::Fp64: out.fp64 += busy; break;
      case Pipe::Xu: out.xu += busy; break;
      case Pipe::None: break;
      }
      issueFree = t + ins.issueCycles;
      out.issue += ins.issueCycles;
      std::int64_t readyAt = t + ins.timing.latency;
      if (ins.mioCycles > 0) {
        // The shared data path in order: this instruction's wavefronts after the queued ones.
        const std::int64_t start = std::max(t, mio);
        mio = start + ins.mioCycles;
        readyAt = start + ins.timing.latency;
        out.mio += ins.mioCycles;
      }
      for (int r : ins.writes) wp.ready[static_cast<std::size_t>(r)] = readyAt;
      wp.next = t + std::max(1, ins.stall);
      if (++wp.k == n) wp.k = 0, ++wp.rep;
      ++issued;
    }
    if (!did) t = next == kNever ? t + 1 : std::max(t + 1, next);
    else ++t;
  }
  return std::max(t, mio);
}

} // namespace

IssueStats simulateIssue(const std::vector<SimInstruction> &body, unsigned warps) {
  IssueStats out;
  const std::size_t n = body.size();
  if (n == 0 || warps == 0) return out;
  // Enough repetitions for a steady state, bounded work for long straight-line blocks. The steady
  // state's cycles per execution: the difference between `reps` and half as many repetitions (the
  // start-up, the first round's latencies and queues, cancels).
  const unsigned reps = n >= 400 ? 2u : std::clamp(static_cast<unsigned>(1200 / n), 2u, 8u), half = reps / 2;
  IssueStats scratch;
  const std::int64_t longRun = runReps(body, warps, reps, out), shortRun = runReps(body, warps, half, scratch);
  // Busy cycles: every execution alike (per instruction, fixed).
  out = out.scaled(1.0 / (double(warps) * reps));
  out.cycles = static_cast<double>(longRun - shortRun) / (double(warps) * (reps - half));
  return out;
}

} // namespace warplens::analysis
