/// \file
/// Google Benchmark of the SM trace simulation (analysis/TraceSim.h): items/s = simulated warp
/// instructions per second on one thread. A launch simulates at most kTraceBudget (4M) warp
/// instructions, so this rate bounds what the simulation adds to a prediction (target: the budget
/// in at most a second, >= 4M items/s).
#include "analysis/OpcodeTiming.h"
#include "analysis/TraceSim.h"

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

} // namespace

BENCHMARK(BM_TraceSim)->Arg(4)->Arg(16)->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
