/// \file
/// runLaunch: loads the kernel, then streams blocks to worker threads; each worker runs the
/// warps of one block cooperatively (each until it reaches bar.sync or finishes) and sends
/// its events to its own listener. Memory use does not grow with the grid.
#include "emu/Emulator.h"
#include "emu/WorkerPool.h"

#include "emu/Exec.h"
#include "emu/Loader.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

namespace warplens::emu {

namespace {

using ptx::Special;

struct Shared {
  const Program *prog = nullptr;
  const launch::LaunchSpec *spec = nullptr;
  std::uint64_t totalBlocks = 0;
  std::uint64_t budget = 0;
  std::atomic<std::uint64_t> nextBlock{0};
  std::atomic<std::uint64_t> used{0};
  std::atomic<bool> abort{false};
  std::mutex mu;
  std::string error;
  std::uint64_t errorBlock = ~0ull;
  std::atomic<std::uint64_t> warpInstr{0}, threadInstr{0};

  void fail(std::uint64_t block, const std::string &msg) {
    std::lock_guard<std::mutex> lock(mu);
    if (block < errorBlock) { errorBlock = block; error = msg; }
    abort = true;
  }
};

class Worker {
public:
  Worker(Shared &s, model::AccessListener &listener) : s_(s) {
    const Program &p = *s.prog;
    x_.prog = &p;
    x_.listener = &listener;
    const auto &b = s.spec->block;
    threadsPerBlock_ = b[0] * b[1] * b[2];
    nWarps_ = (threadsPerBlock_ + 31) / 32;
    x_.blockDim[0] = b[0];
    x_.blockDim[1] = b[1];
    x_.blockDim[2] = b[2];
    warps_.resize(nWarps_);
    for (std::uint32_t i = 0; i < nWarps_; ++i) {
      Warp &w = warps_[i];
      w.index = i;
      w.regs.assign(static_cast<size_t>(p.numSlots) * 32, 0);
      w.preds.assign(p.numPreds, 0);
      w.local.assign(static_cast<size_t>(p.localBytes) * 32, 0);
      w.params.assign(static_cast<size_t>(p.paramBytes) * 32, 0);
      for (const auto &[slot, v] : p.constants)
        for (unsigned l = 0; l < 32; ++l) w.regs[static_cast<size_t>(slot) * 32 + l] = v;
    }
    shared_.assign(p.sharedBytes + 16, 0);
    x_.shared = shared_.data();
    x_.sharedBytes = p.sharedBytes;
  }

  void run() {
    while (!s_.abort.load(std::memory_order_relaxed)) {
      std::uint64_t b = s_.nextBlock.fetch_add(1);
      if (b >= s_.totalBlocks) break;
      if (!runBlock(b)) break;
    }
    flush();
  }

private:
  Shared &s_;
  Exec x_;
  std::vector<Warp> warps_;
  std::vector<std::uint8_t> shared_;
  std::uint32_t threadsPerBlock_ = 0, nWarps_ = 0;
  std::uint64_t warpInstr_ = 0, threadInstr_ = 0, flushedThread_ = 0;

  void flush() {
    s_.warpInstr += warpInstr_;
    s_.threadInstr += threadInstr_;
    warpInstr_ = threadInstr_ = 0;
  }

  void initWarp(Warp &w) {
    const Program &p = *s_.prog;
    std::uint32_t first = w.index * 32;
    std::uint32_t n = std::min<std::uint32_t>(32, threadsPerBlock_ - first);
    w.pc = 0;
    w.mask = n == 32 ? kFullMask : ((1u << n) - 1);
    w.exited = 0;
    w.minWait = kNone;
    w.waiting.clear();
    w.frames.clear();
    w.status = WarpStatus::Running;
    auto slot = [&](Special sp) { return w.regs.data() + static_cast<size_t>(p.specialBase + static_cast<std::uint32_t>(sp)) * 32; };
    const auto &bd = s_.spec->block;
    const auto &gd = s_.spec->grid;
    for (unsigned l = 0; l < 32; ++l) {
      std::uint32_t t = first + l;
      slot(Special::TidX)[l] = t % bd[0];
      slot(Special::TidY)[l] = (t / bd[0]) % bd[1];
      slot(Special::TidZ)[l] = t / (bd[0] * bd[1]);
      slot(Special::NtidX)[l] = bd[0];
      slot(Special::NtidY)[l] = bd[1];
      slot(Special::NtidZ)[l] = bd[2];
      slot(Special::CtaidX)[l] = x_.block[0];
      slot(Special::CtaidY)[l] = x_.block[1];
      slot(Special::CtaidZ)[l] = x_.block[2];
      slot(Special::NctaidX)[l] = gd[0];
      slot(Special::NctaidY)[l] = gd[1];
      slot(Special::NctaidZ)[l] = gd[2];
      slot(Special::LaneId)[l] = l;
      slot(Special::WarpId)[l] = w.index;
      slot(Special::NWarpId)[l] = 64;
      slot(Special::SmId)[l] = 0;
      slot(Special::NSmId)[l] = 132;
      slot(Special::GridId)[l] = 0;
      slot(Special::Clock)[l] = 0;
      slot(Special::Clock64)[l] = 0;
      slot(Special::GlobalTimer)[l] = 0;
      slot(Special::LanemaskEq)[l] = 1u << l;
      slot(Special::LanemaskLt)[l] = (1u << l) - 1;
      slot(Special::LanemaskLe)[l] = l == 31 ? kFullMask : (2u << l) - 1;
      slot(Special::LanemaskGt)[l] = l == 31 ? 0u : ~((2u << l) - 1);
      slot(Special::LanemaskGe)[l] = ~((1u << l) - 1);
    }
  }

  bool runBlock(std::uint64_t b) {
    const auto &g = s_.spec->grid;
    x_.blockLinear = static_cast<std::uint32_t>(b);
    x_.block[0] = static_cast<std::uint32_t>(b % g[0]);
    x_.block[1] = static_cast<std::uint32_t>((b / g[0]) % g[1]);
    x_.block[2] = static_cast<std::uint32_t>(b / (static_cast<std::uint64_t>(g[0]) * g[1]));
    std::memset(shared_.data(), 0, shared_.size());
    for (auto &w : warps_) initWarp(w);
    while (true) {
      bool anyRunning = false;
      for (auto &w : warps_) {
        if (w.status != WarpStatus::Running) continue;
        runWarp(w);
        if (x_.failed) {
          s_.fail(b, x_.error);
          return false;
        }
        anyRunning = true;
      }
      if (!anyRunning) break;
      bool waiting = false;
      for (auto &w : warps_)
        if (w.status == WarpStatus::AtBarrier) { w.status = WarpStatus::Running; waiting = true; }
      if (!waiting) break;
    }
    return true;
  }

  void budgetCheck() {
    std::uint64_t delta = threadInstr_ - flushedThread_;
    flushedThread_ = threadInstr_;
    std::uint64_t total = s_.used.fetch_add(delta) + delta;
    if (total > s_.budget)
      x_.fail("instruction budget exhausted: more than " + std::to_string(s_.budget) +
              " thread-instructions (EmuOptions.instructionBudget) in kernel '" + s_.prog->kernel +
              "', block " + x_.blockStr() + " warp " + std::to_string(x_.w->index) +
              " at " + s_.prog->where(s_.prog->code[x_.w->pc]) +
              "; raise the budget or look for an endless loop");
    else if (s_.abort.load(std::memory_order_relaxed))
      x_.fail("aborted");
  }

  void runWarp(Warp &w) {
    Exec &x = x_;
    x.w = &w;
    x.regs = w.regs.data();
    x.preds = w.preds.data();
    x.stop = false;
    const DInstr *code = s_.prog->code.data();
    std::uint64_t warpInstr = 0, threadInstr = 0;
    std::uint32_t tick = 4096;
    while (true) {
      const DInstr &in = code[w.pc];
      std::uint32_t m = w.mask;
      ++warpInstr;
      threadInstr += static_cast<std::uint32_t>(std::popcount(m));
      if (in.guard != kNone) {
        std::uint32_t p = x.preds[in.guard];
        m &= in.guardNeg ? ~p : p;
      }
      in.fn(x, in, m);
      if (in.flow == Flow::Control) {
        if (x.stop) break;
      } else {
        if (in.flow == Flow::MayStop && x.stop) break;
        if (++w.pc >= w.minWait) {
          w.waiting.push_back({w.pc, w.mask});
          w.selectNext();
        }
      }
      if (--tick == 0) {
        tick = 4096;
        warpInstr_ += warpInstr;
        threadInstr_ += threadInstr;
        warpInstr = threadInstr = 0;
        budgetCheck();
        if (x.stop) break;
      }
    }
    warpInstr_ += warpInstr;
    threadInstr_ += threadInstr;
    if (threadInstr_ - flushedThread_ > (1u << 20) && !x.failed) budgetCheck();
  }
};

} // namespace

Expected<LaunchRun> runLaunch(const ptx::Module &module, const launch::LaunchSpec &spec,
                              std::vector<launch::HostBuffer> &buffers,
                              const ListenerFactory &makeListener, const EmuOptions &options) {
  auto start = std::chrono::steady_clock::now();
  WL_TRY(kernel, findKernel(module, spec.kernel));
  for (unsigned i = 0; i < 3; ++i)
    if (spec.grid[i] == 0 || spec.block[i] == 0)
      return Error{spec.specFile + ": grid and block dimensions must be positive"};
  std::uint64_t tpb = std::uint64_t(spec.block[0]) * spec.block[1] * spec.block[2];
  if (tpb > 1024) return Error{spec.specFile + ": block of " + std::to_string(tpb) + " threads exceeds 1024"};
  WL_TRY(prog, loadProgram(module, *kernel, spec, buffers));

  Shared sh;
  sh.prog = prog.get();
  sh.spec = &spec;
  sh.totalBlocks = std::uint64_t(spec.grid[0]) * spec.grid[1] * spec.grid[2];
  sh.budget = options.instructionBudget;
  unsigned threads = workerCount(options.threads, sh.totalBlocks);

  LaunchRun run;
  run.kernelMangled = kernel->name;
  run.sites = prog->sites;
  for (unsigned i = 0; i < threads; ++i) run.listeners.push_back(makeListener());
  runWorkers(run.listeners, [&sh](model::AccessListener &l) {
    Worker w(sh, l);
    w.run();
  });
  if (sh.abort) return Error{sh.error};
  for (auto &l : run.listeners) l->onEnd();
  run.stats.warpInstructions = sh.warpInstr;
  run.stats.threadInstructions = sh.threadInstr;
  run.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

} // namespace warplens::emu
