/// \file
/// Google Benchmark of the two per-instruction models (GlobalModel, SharedModel) on random,
/// strided and broadcast warp accesses; items/s = warp accesses per second on one thread.
#include "arch/ArchSpec.h"
#include "model/GlobalModel.h"
#include "model/SharedModel.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <vector>

namespace {

using warplens::model::AccessEvent;
using warplens::model::Space;

const warplens::arch::ArchSpec &arch() {
  static const warplens::arch::ArchSpec spec = [] {
    auto a = warplens::arch::loadArch("sm_90");
    if (!a) std::abort();
    return a.value();
  }();
  return spec;
}

enum Pattern { Random = 0, Strided = 1, Broadcast = 2 };

/// 1024 events of one pattern. `stride` is in elements (Strided only); addresses are aligned to
/// the width. Global addresses span 64 MiB, shared ones 48 KiB.
std::vector<AccessEvent> makeEvents(Space space, Pattern p, unsigned width, unsigned stride) {
  std::mt19937_64 rng(42);
  const std::uint64_t span = space == Space::Global ? (64u << 20) : (48u << 10);
  const std::uint64_t base = space == Space::Global ? 0x7f0000000000ull : 0;
  std::vector<AccessEvent> events(1024);
  for (std::size_t i = 0; i < events.size(); ++i) {
    AccessEvent &e = events[i];
    e.space = space;
    e.widthBytes = std::uint8_t(width);
    e.active = warplens::LaneMask::all();
    std::uint64_t start = (rng() % (span / 2)) / width * width;
    for (unsigned lane = 0; lane < 32; ++lane) {
      std::uint64_t off = 0;
      if (p == Random) off = (rng() % span) / width * width;
      else if (p == Strided) off = (start + std::uint64_t(lane) * stride * width) % span;
      else off = start;
      e.addr[lane] = {base + off};
    }
  }
  return events;
}

template <class Model>
void run(benchmark::State &state, Space space) {
  Model model(arch());
  auto events = makeEvents(space, Pattern(state.range(0)), unsigned(state.range(1)),
                           unsigned(state.range(2)));
  std::size_t i = 0;
  for (auto _ : state) {
    auto c = model.cost(events[i]);
    benchmark::DoNotOptimize(c);
    i = (i + 1) & 1023;
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()));
}

void BM_GlobalModel(benchmark::State &state) { run<warplens::model::GlobalModel>(state, Space::Global); }
void BM_SharedModel(benchmark::State &state) { run<warplens::model::SharedModel>(state, Space::Shared); }

// Args: {pattern (0 random, 1 strided, 2 broadcast), width bytes, stride in elements}
void patterns(benchmark::internal::Benchmark *b) {
  b->ArgNames({"pattern", "width", "stride"});
  for (int w : {4, 8, 16}) {
    b->Args({Random, w, 0});
    b->Args({Strided, w, 1});
    b->Args({Strided, w, 2});
    b->Args({Strided, w, 32});
    b->Args({Broadcast, w, 0});
  }
}

BENCHMARK(BM_GlobalModel)->Apply(patterns);
BENCHMARK(BM_SharedModel)->Apply(patterns);

} // namespace

BENCHMARK_MAIN();
