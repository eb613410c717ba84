/// \file
/// Google Benchmark of the SM trace simulation (analysis/TraceSim.h): items/s = simulated warp
/// instructions per second on one thread. A launch simulates at most kTraceBudget (4M) warp
/// instructions, so this rate bounds what the simulation adds to a prediction (target: the budget
/// in at most a second, >= 4M items/s). Session 13: the per-sub-partition block schedule
/// (analysis/BlockSchedule.h) up to the largest grid it takes, 2^20 blocks (aimed at: one
/// blockImbalance in at most a second; measured 1.3-3.2 s at 2^20 on the 2-core CI machine).
/// Session 14, same results: 2^20 blocks of 2 / 8 / 32 warps 0.69 / 1.0 / 0.59 s (were 2.3 /
/// 2.7-2.9 / 1.0-1.1 s), 2^14 and 2^16 blocks of 8 warps 0.12 s (were 0.31-0.35 s), on that machine.
#include "analysis/BlockSchedule.h"
#include "analysis/OpcodeTiming.h"
#include "analysis/TraceSim.h"

#include <algorithm>
#include <cstdint>

#include <benchmark/benchmark.h>

#include <vector>

namespace {

using namespace warplens::analysis;

TraceInstruction ins(const char *opcode, std::vector<int> reads, std::vector<int> writes) {
  return traceInstruction(opcode, std::move(reads), std::move(writes));
}

/// A tiled loop body: a global load (L2 latency), its shared store, a barrier, eight shared loads
/// (two wavefronts each) feeding sixteen FFMAs, a barrier, the back-edge.
std::vector<TraceInstruction> body() {
  std::vector<TraceInstruction> c;
  c.push_back(ins("LDG.E", {2}, {4}));
  c.back().loadLatency = 400;
  c.back().wavefronts = 1;
  c.push_back(ins("STS", {4}, {}));
  c.back().wavefronts = 1;
  c.push_back(ins("BAR.SYNC", {}, {}));
  c.back().barrier = true;
  for (int k = 0; k < 8; ++k) {
    c.push_back(ins("LDS", {3}, {10 + k}));
    c.back().wavefronts = 2;
    c.push_back(ins("FFMA", {10 + k, 20}, {30 + k % 4}));
    c.push_back(ins("FFMA", {10 + k, 21}, {34 + k % 4}));
  }
  c.push_back(ins("IADD3", {2}, {2}));
  c.push_back(ins("BAR.SYNC", {}, {}));
  c.back().barrier = true;
  c.push_back(ins("BRA", {}, {}));
  return c;
}

/// Blocks of state.range(0) warps, 64 warps resident on the SM, each warp 200 loop iterations.
void BM_TraceSim(benchmark::State &state) {
  const auto code = body();
  const unsigned warpsPerBlock = static_cast<unsigned>(state.range(0));
  std::vector<std::uint32_t> one;
  for (int it = 0; it < 200; ++it)
    for (std::uint32_t k = 0; k < code.size(); ++k) one.push_back(k);
  const std::vector<std::vector<std::uint32_t>> warps(warpsPerBlock, one);
  const unsigned resident = 64 / warpsPerBlock;
  double instructions = 0;
  for (auto _ : state) {
    TraceSimResult r = simulateTrace(code, warps, resident, 2 * resident, 4, kBarrierCycles);
    benchmark::DoNotOptimize(r.cycles);
    instructions += r.instructions;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(instructions));
}

/// blockImbalance of 2^state.range(1) blocks of state.range(0) warps with uneven warps (a fixed
/// hash of block and warp: 1K..4K instructions), 132 SMs, 64 / warps-per-block slots; items =
/// blocks. Up to 2^17 blocks it averages tieOrders(blocks) schedules (8 at 2^14, 2 at 2^16).
void BM_BlockSchedule(benchmark::State &state) {
  const unsigned wpb = static_cast<unsigned>(state.range(0));
  const std::size_t blocks = std::size_t(1) << state.range(1);
  std::vector<std::uint32_t> work(blocks * kWarpGroups, 0), longest(blocks * kWarpGroups, 0);
  for (std::size_t b = 0; b < blocks; ++b)
    for (unsigned w = 0; w < wpb; ++w) {
      std::uint64_t x = (b * 64 + w + 1) * 0x9e3779b97f4a7c15ull;
      x ^= x >> 29;
      const auto e = static_cast<std::uint32_t>(1000 + x % 3000);
      work[b * kWarpGroups + w % kWarpGroups] += e;
      longest[b * kWarpGroups + w % kWarpGroups] = std::max(longest[b * kWarpGroups + w % kWarpGroups], e);
    }
  auto rate = [](unsigned n) { return n >= 4 ? 1.0 : 0.25 * n; };
  for (auto _ : state) {
    double s = blockImbalance(work, longest, wpb, 132, 64 / wpb, 4, rate, 4.0);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(blocks));
}

} // namespace

BENCHMARK(BM_TraceSim)->Arg(4)->Arg(16)->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BlockSchedule)
    ->Args({8, 14})
    ->Args({8, 16})
    ->Args({2, 20})
    ->Args({8, 20})
    ->Args({32, 20})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_MAIN();
