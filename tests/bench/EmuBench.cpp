/// \file
/// Engine throughput (thread-instructions per second, one worker) on the same kernels run two
/// ways: the PTX emulator on nvcc-generated PTX, and the SASS engine on the cubin ptxas made of
/// that PTX (listing from nvdisasm): a naive and a shared-tile transpose and a 16×16-tile SGEMM
/// from tests/emu/fixtures (regen.sh).
#include "emu/Emulator.h"
#include "sass/SassListing.h"
#include "sassemu/Engine.h"
#include "launch/LaunchSpec.h"
#include "ptx/Parser.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <string>

using namespace warplens;

namespace {

struct NullListener : model::AccessListener {
  std::uint64_t n = 0;
  void onAccess(const model::AccessEvent &e) override { n += e.active.bits & 1; }
};

/// tests/emu/fixtures next to this source file (CMake passes absolute source paths).
std::string fixtures() {
  std::string here = __FILE__;
  return here.substr(0, here.rfind('/')) + "/../emu/fixtures/";
}

launch::HostBuffer buf(const std::string &name, std::size_t floats) {
  launch::HostBuffer b;
  b.name = name;
  b.count = floats;
  b.bytes.assign(floats * 4, 0);
  for (std::size_t i = 0; i < floats; ++i) {
    float f = float(i % 101);
    std::memcpy(&b.bytes[i * 4], &f, 4);
  }
  return b;
}

launch::ArgSpec bufArg(const std::string &n) {
  launch::ArgSpec a;
  a.isBuffer = true;
  a.buffer = n;
  return a;
}

launch::ArgSpec intArg(int v) {
  launch::ArgSpec a;
  a.type = launch::ScalarType::I32;
  a.intValue = v;
  return a;
}

/// Engine selected by the benchmark's argument: 0 = PTX emulator, 1 = SASS engine.
void runBench(benchmark::State &state, const std::string &file, launch::LaunchSpec spec,
              std::vector<launch::HostBuffer> bufs) {
  emu::EmuOptions opt;
  opt.threads = 1;
  std::uint64_t threadInstr = 0;
  auto factory = [] { return std::make_unique<NullListener>(); };
  if (state.range(0) == 0) {
    auto m = ptx::parseFile(fixtures() + file + ".ptx");
    if (!m.ok()) { state.SkipWithError(m.error().message.c_str()); return; }
    for (auto _ : state) {
      auto r = emu::runLaunch(**m, spec, bufs, factory, opt);
      if (!r.ok()) { state.SkipWithError(r.error().message.c_str()); return; }
      threadInstr += r->stats.threadInstructions;
    }
    state.SetLabel("ptx");
  } else {
    auto fns = sass::readListing(fixtures() + file + ".sass");
    auto cubin = sassemu::readCubin(fixtures() + file + ".cubin");
    if (!fns.ok() || !cubin.ok()) { state.SkipWithError("fixture listing/cubin unreadable"); return; }
    const sass::SassFunction *fn = nullptr;
    for (const auto &f : *fns)
      if (f.name.rfind(spec.kernel, 0) == 0 || f.name.find(spec.kernel) != std::string::npos) fn = &f;
    if (!fn) { state.SkipWithError("kernel not in the listing"); return; }
    for (auto _ : state) {
      auto r = sassemu::runLaunch(*fn, *cubin, spec, bufs, factory, opt);
      if (!r.ok()) { state.SkipWithError(r.error().message.c_str()); return; }
      threadInstr += r->stats.threadInstructions;
    }
    state.SetLabel("sass");
  }
  state.counters["thread_instr_per_s"] = benchmark::Counter(double(threadInstr), benchmark::Counter::kIsRate);
}

void BM_TransposeNaive(benchmark::State &state) {
  const int n = 512;
  launch::LaunchSpec s;
  s.kernel = "transposeNaive";
  s.grid = {n / 32, n / 32, 1};
  s.block = {32, 8, 1};
  s.args = {bufArg("out"), bufArg("in"), intArg(n), intArg(n)};
  runBench(state, "transpose", s, {buf("out", n * n), buf("in", n * n)});
}

void BM_TransposeShared(benchmark::State &state) {
  const int n = 512;
  launch::LaunchSpec s;
  s.kernel = "transposeShared";
  s.grid = {n / 32, n / 32, 1};
  s.block = {32, 8, 1};
  s.args = {bufArg("out"), bufArg("in"), intArg(n), intArg(n)};
  runBench(state, "transpose", s, {buf("out", n * n), buf("in", n * n)});
}

void BM_SgemmTiled(benchmark::State &state) {
  const int n = 256;
  launch::LaunchSpec s;
  s.kernel = "sgemmTiled";
  s.grid = {n / 16, n / 16, 1};
  s.block = {16, 16, 1};
  s.args = {bufArg("C"), bufArg("A"), bufArg("B"), intArg(n)};
  runBench(state, "sgemm", s, {buf("C", n * n), buf("A", n * n), buf("B", n * n)});
}

} // namespace

BENCHMARK(BM_TransposeNaive)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TransposeShared)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SgemmTiled)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
