/// \file
/// Occupancy (warps, blocks, registers, shared memory per SM) and the limiter times.
#include "perf/TimeModel.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace warplens::perf {

Occupancy occupancy(const LaunchShape &s, const DeviceSpec &d) {
  Occupancy o;
  const unsigned threads = s.block[0] * s.block[1] * s.block[2];
  o.warpsPerBlock = (threads + 31) / 32;
  if (o.warpsPerBlock == 0 || threads > d.maxThreadsPerBlock) return o;
  unsigned best = d.maxBlocksPerSm;
  o.limitedBy = "blocks";
  auto limit = [&](unsigned n, const char *why) {
    if (n < best) {
      best = n;
      o.limitedBy = why;
    }
  };
  limit(d.maxWarpsPerSm / o.warpsPerBlock, "warps");
  if (s.registersPerThread > 0) {
    unsigned unit = std::max(1u, d.registerAllocUnit);
    unsigned perWarp = (s.registersPerThread * 32 + unit - 1) / unit * unit;
    limit((d.registersPerSm / perWarp) / o.warpsPerBlock, "registers");
  }
  unsigned shared = (s.staticSharedBytes ? s.staticSharedBytes : d.sharedReservedPerBlock) +
                    s.dynamicSharedBytes;
  unsigned sunit = std::max(1u, d.sharedAllocUnit);
  shared = (shared + sunit - 1) / sunit * sunit;
  if (shared > 0) limit(d.sharedBytesPerSm / shared, "shared");
  o.blocksPerSm = best;
  double blocks = double(s.grid[0]) * s.grid[1] * s.grid[2];
  if (best > 0) o.waves = blocks / (double(best) * d.sms);
  return o;
}

MemoryCounts atL2Reuse(MemoryCounts m, double capacity) {
  const auto &c = m.refetchCurve;
  if (c.empty() || m.l2ReuseBytes <= 0 || capacity <= 0 || capacity == m.l2ReuseBytes) return m;
  auto at = [&](double x) {
    if (x <= c.front().first) return c.front().second;
    if (x >= c.back().first) return c.back().second;
    std::size_t k = 1;
    while (c[k].first < x) ++k;
    const double t = (x - c[k - 1].first) / (c[k].first - c[k - 1].first);
    return c[k - 1].second + t * (c[k].second - c[k - 1].second);
  };
  const double delta = at(capacity) - at(m.l2ReuseBytes);
  m.dramReadBytes = std::max(0.0, m.dramReadBytes + delta);
  m.dramRefetchBytes = std::max(0.0, m.dramRefetchBytes + delta);
  m.l2ReuseBytes = capacity;
  return m;
}

Features features(const TimeInputs &inputs, const DeviceSpec &d) {
  // The device's own L2 reuse capacity (a prediction's counts may come from another device's).
  TimeInputs adjusted;
  const bool other = d.l2ReuseBytes > 0 && !inputs.mem.refetchCurve.empty() && inputs.mem.l2ReuseBytes != d.l2ReuseBytes;
  if (other) adjusted = inputs, adjusted.mem = atL2Reuse(inputs.mem, d.l2ReuseBytes);
  const TimeInputs &in = other ? adjusted : inputs;
  Features f;
  f.occupancy = occupancy(in.shape, d);
  f.traceNs = in.mix.traceNs;
  const double blocks = double(in.shape.grid[0]) * in.shape.grid[1] * in.shape.grid[2];
  if (blocks <= 0) return f;
  const double perSm = std::ceil(blocks / d.sms);
  const double share = perSm / blocks; // the busiest SM's part of per-block work
  const double ghz = d.smClockHz / 1e9;
  const auto &m = in.mem;
  f.blocksOnBusiestSm = perSm;
  f.loads = m.globalLoadRequests > 0 ? 1.0 : 0.0;
  f.dramRefetchBytes = std::clamp(m.dramRefetchBytes, 0.0, m.dramReadBytes + m.dramWriteBytes);
  f.dramBytes = m.dramReadBytes - f.dramRefetchBytes + m.dramWriteBytes;
  f.dramWriteShare = f.dramBytes + f.dramRefetchBytes > 0 ? m.dramWriteBytes / (f.dramBytes + f.dramRefetchBytes) : 0.0;
  f.l2Lines = m.l2ReadLines;
  f.l2Bytes = 32.0 * (m.l2ReadSectors + m.globalStoreSectors);
  f.storeSectors = m.globalStoreSectors;
  // L1 tag lookups: one per distinct 128-byte line of a request (measured on the H200: 1, 8 and
  // 32 lines per request take 1, 8 and 32 cycles of an SM's L1).
  const double loadLines = m.globalLoadLines > 0 ? m.globalLoadLines
                                                 : std::max(m.globalLoadRequests, m.globalLoadSectors / 4);
  const double storeLines = m.globalStoreLines > 0 ? m.globalStoreLines
                                                   : std::max(m.globalStoreRequests, m.globalStoreSectors / 4);
  f.storeLines = storeLines;
  // Loads: data-stage wavefronts where known (bank conflicts between lines; measured with
  // l1_banks: 32 lines in 32 banks take about 8 cycles, in one bank 32), else one per line.
  const double loadWavefronts = m.globalLoadWavefronts > 0 ? m.globalLoadWavefronts : loadLines;
  // In the issue simulation where it ran them (computeNs), else here.
  const double lsuAll = (m.sharedWavefronts + m.dataPathExtraWavefronts + loadWavefronts + storeLines) * share / ghz;
  f.lsuWavefrontNs = in.mix.simCoversLsu && !in.mix.simCycles.empty() ? 0.0 : lsuAll;
  const double sub = std::max(1u, d.subPartitions);
  f.issueInstNs = in.mix.warpInstructions * share / (sub * ghz);
  f.shuffleNs = in.mix.shuffleInstructions * share / ghz;
  {
    // The issue simulation at the busiest SM's resident warps per sub-partition (its blocks of
    // one round), divided over the sub-partitions those warps occupy.
    const double resident = f.occupancy.blocksPerSm ? std::min<double>(f.occupancy.blocksPerSm, perSm) : 1.0;
    const double smWarps = std::max(1.0, resident * f.occupancy.warpsPerBlock);
    const std::size_t w = static_cast<std::size_t>(std::clamp(std::ceil(smWarps / sub), 1.0, 16.0));
    const double busySub = std::min(sub, smWarps);
    double cycles = in.mix.warpInstructions;
    std::string bound = "issue";
    if (in.mix.simCycles.size() >= w) {
      cycles = in.mix.simCycles[w - 1];
      if (in.mix.simBound.size() >= w) bound = in.mix.simBound[w - 1];
    }
    const double stretch = bound == "l1/shared" ? in.mix.smBlockImbalance : in.mix.blockImbalance;
    f.computeNs = cycles * share / (busySub * ghz) * std::max(1.0, stretch);
    // Session 20: where the SM trace simulation stands for every block (even blocks: both
    // stretches within kEvenBlocks), its time caps the warps' own work. The issue simulation
    // adds up each basic block's steady state, so a kernel's phases (a load phase bound by issue,
    // a stencil phase bound by the data path) come one after another; in the trace the blocks
    // resident together overlap them (heldout13 box5x5_shared: issue simulation 94 us, trace 73,
    // measured 79).
    if (in.mix.traceNs > 0 && in.mix.blockImbalance <= kEvenBlocks && in.mix.smBlockImbalance <= kEvenBlocks)
      f.computeNs = std::min(f.computeNs, in.mix.traceNs);
    for (std::size_t k = 0; k < kLimiterCount; ++k)
      if (bound == kLimiters[k]) f.computeLimiter = k;
  }
  f.atomicRequests = m.atomicLineRequests;
  f.hotLineSteps = m.hottestLineSteps * m.atomicFloatShare;
  f.hotLineIntSteps = m.hottestLineSteps * (1.0 - m.atomicFloatShare);
  f.hotLineOps = m.hottestLineOps;
  f.hotLineExtra = m.hottestLineExtra;
  f.hotLineSectorOps = m.hottestLineSectorOps;
  const double warps = blocks * f.occupancy.warpsPerBlock;
  // At most one step per warp on the busiest line: they come at the warps' ends (hotTailSteps).
  if (warps > 0 && f.hotLineSteps + f.hotLineIntSteps <= warps) f.hotTailSteps = f.hotLineSteps;
  const double rounds = f.occupancy.blocksPerSm
                            ? std::ceil(blocks / (double(f.occupancy.blocksPerSm) * d.sms))
                            : blocks;
  f.residentRounds = rounds;
  f.waveWarps = rounds * f.occupancy.warpsPerBlock;
  if (warps > 0) f.barrierWaves = in.mix.barriers / warps * rounds;
  const double loadRounds = m.loadRounds > 0 ? m.loadRounds : m.globalLoadRequests;
  if (warps > 0 && loadRounds > 0) {
    const double perWarp = loadRounds / warps * rounds * std::max(1.0, in.mix.latencyImbalance);
    // Where a round of loads is served: it waits for its slowest sector. L1: the sector-level
    // miss fraction (L1 misses / sectors requested) taken as independent over the round's sectors
    // (streams touch new lines all along); L2: the fraction of L1 misses that the DRAM serves
    // (DRAM fetches / L1 misses), per round (first-touch misses come together, not spread).
    const double sectors = std::max(m.globalLoadSectors, loadRounds);
    const double k = sectors / loadRounds; // sectors per round
    const double m1 = std::clamp(m.l2ReadSectors / sectors, 0.0, 1.0);
    const double m2 = m.l2ReadSectors > 0 ? std::clamp(m.dramReadBytes / (32.0 * m.l2ReadSectors), 0.0, 1.0) : 0.0;
    const double missesL1 = m.loadMissRounds >= 0 ? std::clamp(m.loadMissRounds / loadRounds, 0.0, 1.0)
                                                  : 1.0 - std::pow(1.0 - m1, k);
    // Of the rounds that miss L1, those whose fetch unit the warp's own earlier request brought
    // wait for the L2 only (MemoryCounts::loadDramRounds).
    const double ownFetch = m.loadDramRounds >= 0 && m.loadMissRounds > 0
                                ? std::clamp(m.loadDramRounds / m.loadMissRounds, 0.0, 1.0)
                                : 1.0;
    const double missesL2 = m2 * ownFetch;
    f.latencyRequests = perWarp * missesL1 * missesL2;
    // Regions per round: a round's requests taken to fall in different regions.
    const double regions = m.globalLoadRegions > 0 ? m.globalLoadRegions / loadRounds : 1.0;
    f.regionRounds = f.latencyRequests * std::log2(std::max(1.0, regions));
    f.latencyL2Rounds = perWarp * missesL1 * (1.0 - missesL2);
    f.latencyL1Rounds = perWarp * (1.0 - missesL1);
    const double b = std::clamp(m.barrierLoadRounds / loadRounds, 0.0, 1.0);
    const double resident = std::max(1u, f.occupancy.blocksPerSm);
    f.barrierDramBytes = b * m.dramReadBytes;
    f.barrierLsuNs = b * lsuAll / resident;
    f.barrierIssueNs = b * f.issueInstNs / resident;
  }
  return f;
}

void setDramUtilization(Features &f, double u) {
  u = std::clamp(u, 0.0, kMaxDramUtilization);
  f.dramUtilization = u;
  f.loadedRounds = f.latencyRequests * u / (1.0 - u);
  f.writeLoadedRounds = f.loadedRounds * f.dramWriteShare;
}

double dramUtilizationOf(const Features &f, double durationNs, const DeviceSpec &d) {
  if (durationNs <= 0 || d.dramPeakBytesPerSecond <= 0) return 0;
  return (f.dramBytes + f.dramRefetchBytes) / (durationNs * 1e-9 * d.dramPeakBytesPerSecond);
}

std::array<double, kLimiterCount> limiterTerms(const Features &f, const Coefficients &c) {
  std::array<double, kLimiterCount> t{};
  for (const Column &col : kColumns) t[limiterOf(col, f)] += f.*(col.feature) * c.*(col.coef);
  return t;
}

namespace {
constexpr std::size_t kLatency = 6;
/// The p-norm of the terms `in` selects (the largest alone for p <= 0).
template <class In> double pnormWhere(const std::array<double, kLimiterCount> &t, double p, In in) {
  double top = 0;
  for (std::size_t k = 0; k < kLimiterCount; ++k)
    if (in(k)) top = std::max(top, t[k]);
  if (p <= 0 || top <= 0) return top;
  double sum = 0;
  for (std::size_t k = 0; k < kLimiterCount; ++k)
    if (in(k)) sum += std::pow(t[k] / top, p);
  return top * std::pow(sum, 1.0 / p);
}
double warpWork(const std::array<double, kLimiterCount> &t, double p) {
  return pnormWhere(t, p, [](std::size_t k) { return kWarpWorkLimiter[k]; });
}
/// N_q(a, b).
double pnorm2(double a, double b, double q) {
  std::array<double, kLimiterCount> t{};
  t[0] = a, t[1] = b;
  return pnormWhere(t, q, [](std::size_t k) { return k < 2; });
}
} // namespace

double combineTerms(const std::array<double, kLimiterCount> &t, double p, double q) {
  if (p <= 0 || q <= 0 || q == p) return pnormWhere(t, p, [](std::size_t) { return true; });
  const double rest = pnormWhere(t, p, [](std::size_t k) { return !kWarpWorkLimiter[k] && k != kLatency; });
  return pnorm2(rest, pnorm2(warpWork(t, p), t[kLatency], q), p);
}

std::array<double, kLimiterCount> combineWeights(const std::array<double, kLimiterCount> &t, double p, double q) {
  std::array<double, kLimiterCount> w{};
  const double total = combineTerms(t, p, q);
  if (total <= 0) return w;
  if (p <= 0) {
    w[static_cast<std::size_t>(std::max_element(t.begin(), t.end()) - t.begin())] = 1.0;
    return w;
  }
  if (q <= 0 || q == p) {
    for (std::size_t k = 0; k < kLimiterCount; ++k) w[k] = std::pow(t[k] / total, p - 1);
    return w;
  }
  // T = N_p(rest, C), C = N_q(A, latency), A = N_p(warp work): the chain rule.
  const double a = warpWork(t, p), c = pnorm2(a, t[kLatency], q);
  const double dC = c > 0 ? std::pow(c / total, p - 1) : 0.0;
  for (std::size_t k = 0; k < kLimiterCount; ++k) {
    if (k == kLatency) w[k] = c > 0 ? dC * std::pow(t[k] / c, q - 1) : 0.0;
    else if (kWarpWorkLimiter[k]) w[k] = a > 0 && c > 0 ? dC * std::pow(a / c, q - 1) * std::pow(t[k] / a, p - 1) : 0.0;
    else w[k] = std::pow(t[k] / total, p - 1);
  }
  return w;
}

bool applyTraceFloor(std::array<double, kLimiterCount> &t, const Features &f, const DeviceSpec &d) {
  if (f.traceNs <= 0) return false;
  const double p = d.overlapP, q = d.overlapLatencyP;
  const bool flat = p <= 0 || q <= 0 || q == p; // one norm over all: latency alone carries it
  const double a = flat ? 0.0 : warpWork(t, p), c = flat ? t[kLatency] : pnorm2(a, t[kLatency], q);
  if (c >= f.traceNs) return false;
  // Half way from the totals' time to the simulation's (see TimeModel.h).
  const double target = 0.5 * (c + f.traceNs);
  t[kLatency] = flat ? target : std::pow(std::pow(target, q) - std::pow(a, q), 1.0 / q);
  return true;
}

namespace {
double durationOf(const Features &f, const DeviceSpec &d) {
  auto t = limiterTerms(f, d.coef);
  applyTraceFloor(t, f, d);
  return d.coef.launchNs + f.loads * d.coef.fillNs + combineTerms(t, d.overlapP, d.overlapLatencyP);
}
} // namespace

TimePrediction predict(const Features &given, const DeviceSpec &d) {
  Features f = given;
  if (f.dramUtilization < 0) {
    // Duration and DRAM utilisation together: h(u) = u - U(duration(u)) increases with u (a
    // longer duration lowers U), so bisection finds its root in [0, max].
    double lo = 0, hi = kMaxDramUtilization;
    setDramUtilization(f, hi);
    if (hi - dramUtilizationOf(f, durationOf(f, d), d) <= 0) lo = hi;
    for (int k = 0; k < 60 && hi - lo > 1e-9; ++k) {
      const double mid = 0.5 * (lo + hi);
      setDramUtilization(f, mid);
      (mid - dramUtilizationOf(f, durationOf(f, d), d) < 0 ? lo : hi) = mid;
    }
    setDramUtilization(f, lo);
  }
  TimePrediction p;
  p.occupancy = f.occupancy;
  p.launchNs = d.coef.launchNs + f.loads * d.coef.fillNs;
  p.termsNs = limiterTerms(f, d.coef);
  p.latencyFromTotalsNs = p.termsNs[kLatency];
  p.traceFloor = applyTraceFloor(p.termsNs, f, d);
  std::size_t k = std::max_element(p.termsNs.begin(), p.termsNs.end()) - p.termsNs.begin();
  p.limiter = p.termsNs[k] > p.launchNs ? kLimiters[k] : "launch";
  p.durationNs = p.launchNs + combineTerms(p.termsNs, d.overlapP, d.overlapLatencyP);
  p.dramBytes = f.dramBytes + f.dramRefetchBytes;
  if (p.durationNs > 0) p.dramBytesPerSecond = p.dramBytes / (p.durationNs * 1e-9);
  return p;
}

TimePrediction predict(const TimeInputs &in, const DeviceSpec &d) { return predict(features(in, d), d); }

nlohmann::json toJson(const TimePrediction &p, const DeviceSpec &d) {
  nlohmann::json terms = nlohmann::json::object();
  for (std::size_t i = 0; i < kLimiterCount; ++i) terms[kLimiters[i]] = p.termsNs[i];
  return {{"device", d.name},
          {"predicted_ns", p.durationNs},
          {"limiter", p.limiter},
          {"launch_ns", p.launchNs},
          {"terms_ns", terms},
          {"trace_floor", p.traceFloor},
          {"latency_from_totals_ns", p.latencyFromTotalsNs},
          {"dram_bytes", p.dramBytes},
          {"dram_gbs", p.dramBytesPerSecond / 1e9},
          {"occupancy",
           {{"blocks_per_sm", p.occupancy.blocksPerSm},
            {"warps_per_block", p.occupancy.warpsPerBlock},
            {"limited_by", p.occupancy.limitedBy},
            {"waves", p.occupancy.waves}}}};
}

} // namespace warplens::perf
