/// \file
/// Loading (decode every instruction once, lay out constant bank 0, buffers, shared and local
/// memory) and running (blocks spread over worker threads, warps of a block run until a block
/// barrier, SIMT groups scheduled as the hardware does: the smaller side of a divergent
/// branch first, the running group until it blocks, CtrlOps.cpp says what was measured) for Engine.h.
#include "sassemu/Engine.h"

#include "emu/Loader.h"
#include "emu/WorkerPool.h"
#include "sassemu/Decoder.h"
#include "sassemu/Exec.h"
#include "sassemu/Slice.h"
#include "sassemu/Symmetry.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace warplens::sassemu {
namespace {

std::string hex(std::uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::uint64_t alignUp(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

Expected<std::vector<Instr>> decodeFunction(const sass::SassFunction &fn, const std::string &where) {
  LabelMap labels(fn.labels.begin(), fn.labels.end());
  std::vector<Instr> code;
  for (const sass::SassInstruction &si : fn.instructions) {
    auto in = decodeText(si.text, si.pc, labels);
    auto loc = [&] {
      std::string s = si.innerLine >= 0 ? si.innerFile + ":" + std::to_string(si.innerLine) : std::string();
      return s.empty() ? std::string() : ", source " + s;
    };
    if (!in.ok()) return Error::at(where, fn.name + ": " + in.error().message + loc());
    Instr &d = *in;
    // Sites carry the innermost location: the line of the inlined device function that makes the
    // access, as Nsight Compute's source view attributes it (the probe's records keep the kernel's
    // call-site line; compare matches by pc, so both meet).
    d.sourceFile = si.innerLine >= 0 ? si.innerFile : si.sourceFile;
    d.sourceLine = si.innerLine >= 0 ? si.innerLine : si.sourceLine;
    Selector sel = selectorFor(d.base);
    std::string err = sel ? sel(d) : "unsupported opcode '" + d.base + "'";
    if (!err.empty() || !d.fn)
      return Error::at(where, fn.name + ": pc " + hex(si.pc) + " `" + d.text + "`: " +
                                  (err.empty() ? "no semantics" : err) + loc() +
                                  " (the SASS engine cannot execute it; --engine ptx runs the PTX instead)");
    if (si.pc % 16) return Error::at(where, fn.name + ": pc " + hex(si.pc) + " is not 16-byte aligned");
    std::size_t idx = si.pc / 16;
    if (idx >= code.size()) code.resize(idx + 1);
    d.site = static_cast<std::uint32_t>(idx);
    code[idx] = std::move(d);
  }
  return code;
}

/// A count held in 32 bits, saturated.
std::uint32_t clip(std::uint64_t v) { return static_cast<std::uint32_t>(std::min<std::uint64_t>(v, 0xffffffffu)); }

struct Shared {
  const Program *prog = nullptr;
  const launch::LaunchSpec *spec = nullptr;
  std::uint64_t totalBlocks = 0, budget = 0; ///< totalBlocks counts clusters when cluster[] is set
  std::array<std::uint32_t, 3> cluster{0, 0, 0}; ///< cluster dims of a cluster launch (runClusters)
  std::atomic<std::uint64_t> nextBlock{0}, used{0}, warpInstr{0}, threadInstr{0}, skippedInstr{0};
  bool replicate = false; ///< block symmetry (Symmetry.h): block 0 tries to stand for the others
  std::vector<std::uint64_t> sample; ///< sampling: the blocks to run (linear ids), else empty
  std::atomic<std::uint64_t> replicated{0};
  /// Warp instructions executed per code index (pc / 16), replicas included (RunStats::warpInstrPerPc);
  /// workers add theirs when they finish (s_.mu held).
  std::vector<std::uint64_t> pcCount;
  /// Session 8: warp instructions per block (linear id; replicas as their representative), for
  /// plain grids run whole (no sampling, no clusters) of up to kMaxBlockWork blocks; else empty.
  std::vector<std::uint32_t> blockWork, blockLongest; ///< and its longest warp's instructions
  /// Session 12: per block (up to kMaxBlockGroups) and warp group (warps i with i mod 4 = g), the
  /// group's warp instructions and its longest warp's (RunStats::blockGroupWarpInstr); else empty.
  std::vector<std::uint32_t> groupWork, groupLongest;
  std::vector<std::vector<std::uint32_t>> trace; ///< block 0's warps' code indices (RunStats::blockTrace)
  std::string symmetryWhy; ///< why a proof failed (WARPLENS_SASS_SYMMETRY=1 prints it)
  std::string ruleError;   ///< the first proof that failed on a rule error (RunStats::symmetryRuleError)
  std::atomic<bool> abort{false};
  std::mutex mu;
  std::string error;
  std::uint64_t errorBlock = ~0ull;
  void fail(std::uint64_t block, const std::string &msg) {
    std::lock_guard<std::mutex> lock(mu);
    if (block < errorBlock) errorBlock = block, error = msg;
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
    for (int i = 0; i < 3; ++i) x_.blockDim[i] = b[i];
    tpb_ = b[0] * b[1] * b[2];
    nWarps_ = (tpb_ + 31) / 32;
    warps_ = std::make_unique<Warp[]>(nWarps_);
    for (std::uint32_t i = 0; i < nWarps_; ++i) {
      warps_[i].index = i;
      warps_[i].local.assign(std::size_t(p.localBytes) * 32, 0);
    }
    shared_.assign(p.sharedBytes, 0);
    x_.shared = shared_.data();
    blockPc_.assign(p.code.size() + 1, 0);
    skipDiff_.assign(p.code.size() + 1, 0);
    totalPc_.assign(p.code.size(), 0);
  }
  ~Worker() { // the worker's per-pc counts join the launch's
    std::lock_guard<std::mutex> lock(s_.mu);
    if (s_.pcCount.size() < totalPc_.size()) s_.pcCount.resize(totalPc_.size(), 0);
    for (std::size_t i = 0; i < totalPc_.size(); ++i) s_.pcCount[i] += totalPc_[i];
  }

  void run() {
    while (!s_.abort) {
      std::uint64_t bl = s_.nextBlock++;
      if (!s_.sample.empty()) { // sampling: the i-th sampled block
        if (bl >= s_.sample.size()) break;
        if (!runOne(s_.sample[bl])) break;
        continue;
      }
      if (bl >= s_.totalBlocks) break;
      bool ok = s_.replicate && bl == 0 ? runWithReplicas(bl) : runOne(bl);
      if (!ok) break;
    }
  }

private:
  void setBlock(std::uint64_t bl) {
    const auto &g = s_.spec->grid;
    x_.blockLinear = static_cast<std::uint32_t>(bl);
    x_.block[0] = static_cast<std::uint32_t>(bl % g[0]);
    x_.block[1] = static_cast<std::uint32_t>((bl / g[0]) % g[1]);
    x_.block[2] = static_cast<std::uint32_t>(bl / (std::uint64_t(g[0]) * g[1]));
  }
  /// Adds the block's counts (`copies` times) to the launch; false (and the launch fails) on an
  /// error or an exhausted budget. The budget bounds the work done: replicas (`executed` false)
  /// were not executed and do not use it.
  bool account(std::uint64_t bl, std::uint64_t copies = 1, bool executed = true,
               const std::vector<std::uint32_t> *replicas = nullptr) {
    s_.warpInstr += warpInstr_ * copies;
    s_.threadInstr += threadInstr_ * copies;
    s_.skippedInstr += skippedInstr_ * copies;
    const std::uint64_t perBlock = addPcCounts(copies);
    std::uint64_t longest = repLongest_;
    if (!replicas) { // the block just run: its longest warp and warp groups, the counts cleared for the next
      longest = 0;
      groupsOf(curGroup_);
      for (std::uint32_t i = 0; i < nWarps_; ++i) longest = std::max(longest, warps_[i].executed), warps_[i].executed = 0;
    }
    const GroupCounts &groups = replicas ? repGroup_ : curGroup_;
    auto putGroups = [&](std::uint64_t b) {
      if (b >= s_.groupWork.size() / emu::kWarpGroups) return;
      for (std::uint32_t g = 0; g < emu::kWarpGroups; ++g)
        s_.groupWork[b * emu::kWarpGroups + g] = groups.work[g], s_.groupLongest[b * emu::kWarpGroups + g] = groups.longest[g];
    };
    if (replicas)
      for (std::uint32_t b : *replicas) putGroups(b);
    else if (executed)
      putGroups(bl);
    if (!s_.blockWork.empty()) { // distinct blocks per worker: no lock needed
      if (replicas)
        for (std::uint32_t b : *replicas) s_.blockWork[b] = clip(perBlock), s_.blockLongest[b] = clip(longest);
      else if (executed && bl < s_.blockWork.size()) s_.blockWork[bl] = clip(perBlock), s_.blockLongest[bl] = clip(longest);
    }
    std::uint64_t t = executed ? threadInstr_ * copies : 0;
    if (s_.used.fetch_add(t) + t > s_.budget)
      s_.fail(bl, "instruction budget of " + std::to_string(s_.budget) +
                      " thread-instructions exhausted (raise it or shrink the launch)");
    warpInstr_ = threadInstr_ = skippedInstr_ = 0;
    if (x_.failed) { s_.fail(bl, x_.error); return false; }
    return !s_.abort;
  }
  bool runOne(std::uint64_t bl) {
    setBlock(bl);
    runBlock();
    return account(bl);
  }

  /// Passes events on and shows them to the symmetry proof.
  struct Recorder : model::AccessListener {
    model::AccessListener *to = nullptr;
    Symmetry *sym = nullptr;
    void onAccess(const model::AccessEvent &e) override {
      to->onAccess(e);
      sym->onEvent(e);
    }
  };

  /// Runs block `bl` while proving block symmetry (Symmetry.h); the proof, or nullptr when the
  /// block failed. The block's events reach the listener either way.
  std::unique_ptr<Symmetry> runTracked(std::uint64_t bl, std::uint64_t &warpI, std::uint64_t &threadI,
                                       std::uint64_t &skippedI, bool &ok) {
    setBlock(bl);
    const auto &g = s_.spec->grid;
    auto sym = std::make_unique<Symmetry>(*x_.prog, std::array<std::uint32_t, 3>{g[0], g[1], g[2]},
                                          std::array<std::uint32_t, 3>{x_.block[0], x_.block[1], x_.block[2]}, nWarps_);
    Recorder rec;
    rec.to = x_.listener;
    rec.sym = sym.get();
    x_.listener = &rec;
    sym_ = sym.get();
    runBlock();
    x_.listener = rec.to;
    sym_ = nullptr;
    warpI = warpInstr_, threadI = threadInstr_, skippedI = skippedInstr_;
    repPc_ = blockPc_, repSkip_ = skipDiff_;
    repLongest_ = 0;
    for (std::uint32_t i = 0; i < nWarps_; ++i) repLongest_ = std::max(repLongest_, warps_[i].executed);
    groupsOf(repGroup_);
    ok = account(bl);
    return sym;
  }

  /// Keeps the first proof that ended on a rule error (RunStats::symmetryRuleError); s_.mu held.
  void noteRuleError(const Symmetry &sym) {
    if (sym.ruleError() && s_.ruleError.empty()) s_.ruleError = sym.why();
  }

  /// Block `bl` (0) proves symmetry; then the blocks no worker took yet are replicas of it, or
  /// of another representative where their moves are not multiples of 128 bytes from it.
  bool runWithReplicas(std::uint64_t bl) {
    std::uint64_t wi = 0, ti = 0, si = 0;
    bool ok = true;
    auto sym = runTracked(bl, wi, ti, si, ok);
    if (!ok) return false;
    if (!sym->ok()) {
      std::lock_guard<std::mutex> lock(s_.mu);
      if (s_.symmetryWhy.empty()) s_.symmetryWhy = sym->why();
      noteRuleError(*sym);
      return true; // the others run block by block
    }
    std::uint64_t from = s_.nextBlock.exchange(s_.totalBlocks);
    if (from >= s_.totalBlocks) return true;
    std::vector<std::uint64_t> todo;
    todo.reserve(s_.totalBlocks - from);
    for (std::uint64_t b = from; b < s_.totalBlocks; ++b) todo.push_back(b);
    std::array<std::uint32_t, 3> rep{x_.block[0], x_.block[1], x_.block[2]};
    std::uint64_t repLinear = bl;
    for (unsigned barren = 0;;) {
      std::size_t before = todo.size();
      if (!replicate(*sym, rep, repLinear, todo, wi, ti, si)) return false;
      if (todo.empty()) return true;
      // A representative that stood for no other block twice in a row: the blocks left differ
      // too much (every edge block its own path); run them plainly.
      barren = todo.size() == before ? barren + 1 : 0;
      if (barren >= 2) {
        for (std::uint64_t b : todo)
          if (!runOne(b)) return false;
        return true;
      }
      // Another class (moves not a multiple of 128 bytes from this representative): its lowest
      // block proves again and stands for its class.
      std::uint64_t r = todo.front();
      todo.erase(todo.begin());
      sym = runTracked(r, wi, ti, si, ok);
      if (!ok) return false;
      if (!sym->ok()) { // cannot happen for a proof that held for block 0; run the rest plainly
        {
          std::lock_guard<std::mutex> lock(s_.mu);
          noteRuleError(*sym);
        }
        for (std::uint64_t b : todo)
          if (!runOne(b)) return false;
        return true;
      }
      rep = {x_.block[0], x_.block[1], x_.block[2]};
      repLinear = r;
    }
  }

  /// Hands the blocks of `todo` whose every group moves by a multiple of 128 bytes from `rep`
  /// to the listener as replicas, adds their counts, and removes them from `todo`.
  bool replicate(const Symmetry &sym, std::array<std::uint32_t, 3> rep, std::uint64_t repLinear,
                 std::vector<std::uint64_t> &todo, std::uint64_t wi, std::uint64_t ti, std::uint64_t si) {
    const auto &g = s_.spec->grid;
    model::BlockReplicas r;
    r.events = &sym.events;
    r.group = &sym.group;
    r.coef = sym.coef;
    r.rep = rep;
    std::vector<std::uint64_t> rest;
    auto flush = [&] { // at most 2^20 replicas per call: memory stays bounded on large grids
      if (r.blocks.empty()) return true;
      x_.listener->onReplicas(r);
      warpInstr_ = wi, threadInstr_ = ti, skippedInstr_ = si;
      blockPc_ = repPc_, skipDiff_ = repSkip_;
      s_.replicated += r.blocks.size();
      bool ok = account(repLinear, r.blocks.size(), false, &r.blockLinear);
      r.blocks.clear();
      r.blockLinear.clear();
      return ok;
    };
    for (std::uint64_t b : todo) {
      std::array<std::uint32_t, 3> c{static_cast<std::uint32_t>(b % g[0]), static_cast<std::uint32_t>((b / g[0]) % g[1]),
                                     static_cast<std::uint32_t>(b / (std::uint64_t(g[0]) * g[1]))};
      bool alike = sym.admits(c); // its path and its moved accesses are the representative's
      for (const auto &k : sym.coef) {
        if (!alike) break;
        std::int64_t d = 0;
        for (int i = 0; i < 3; ++i) d += k[i] * (std::int64_t(c[i]) - std::int64_t(rep[i]));
        if (d % 128 != 0) { alike = false; break; }
      }
      if (!alike) { rest.push_back(b); continue; }
      r.blocks.push_back(c);
      r.blockLinear.push_back(static_cast<std::uint32_t>(b));
      if (r.blocks.size() == (std::size_t(1) << 20) && !flush()) return false;
    }
    todo.swap(rest);
    return flush();
  }

public:
  // ---- thread block clusters (Hopper, issue 9): runClusters() runs a cluster's blocks together,
  // one Worker per block rank, one sweep of each block's warps in turn (ClusterOps.cpp).
  void clusterStart(std::uint64_t bl, ClusterState *cs, std::uint32_t rank) {
    const auto &g = s_.spec->grid;
    x_.blockLinear = static_cast<std::uint32_t>(bl);
    x_.block[0] = static_cast<std::uint32_t>(bl % g[0]);
    x_.block[1] = static_cast<std::uint32_t>((bl / g[0]) % g[1]);
    x_.block[2] = static_cast<std::uint32_t>(bl / (std::uint64_t(g[0]) * g[1]));
    x_.cluster = cs;
    x_.clusterRank = rank;
    cs->shared[rank] = shared_.data();
    cs->warps[rank] = warps_.get();
    cs->nWarps = nWarps_;
    std::fill(shared_.begin(), shared_.end(), 0);
    for (std::uint32_t i = 0; i < nWarps_; ++i) initWarp(warps_[i]);
    clusterDone_ = false;
  }
  /// One sweep over the block's warps (runBlock's loop body). Returns false once the block has
  /// finished; `progress` is set when it executed something or released a block barrier.
  bool clusterSweep(bool &progress) {
    if (clusterDone_) return false;
    bool anyLive = false, anyRan = false;
    yielded_ = false;
    for (std::uint32_t i = 0; i < nWarps_ && !x_.stop; ++i) {
      Warp &w = warps_[i];
      if (w.done) continue;
      anyLive = true;
      if (runWarp(w)) anyRan = true;
    }
    if (!anyLive || x_.stop) return !(clusterDone_ = true);
    if (anyRan) progress = true;
    if (yielded_) return true;
    for (std::uint32_t i = 0; i < nWarps_; ++i)
      for (Group &gr : warps_[i].groups)
        if (gr.state == GroupState::BlockBarrier) gr.state = GroupState::Run, progress = true;
    return true;
  }
  /// Adds the block's counts to the launch; false (and the launch fails) on an error.
  bool clusterFinish() {
    s_.warpInstr += warpInstr_;
    addPcCounts(1);
    s_.threadInstr += threadInstr_;
    if (s_.used.fetch_add(threadInstr_) + threadInstr_ > s_.budget)
      s_.fail(x_.blockLinear, "instruction budget of " + std::to_string(s_.budget) +
                                  " thread-instructions exhausted (raise it or shrink the launch)");
    warpInstr_ = threadInstr_ = 0;
    if (x_.failed) s_.fail(x_.blockLinear, x_.error);
    return !x_.failed && !s_.abort;
  }
  Exec &clusterExec() { return x_; }

private:
  void initWarp(Warp &w) {
    const Program &p = *x_.prog;
    std::uint32_t first = w.index * 32;
    std::uint32_t n = std::min<std::uint32_t>(32, tpb_ - first);
    w.launched = n == 32 ? ~0u : ((1u << n) - 1);
    w.exited = ~w.launched;
    w.done = false;
    w.groups.assign(1, Group{0, w.launched, GroupState::Run, 0});
    w.cgaArrivals = 0;
    for (std::uint32_t r = 0; r < p.maxReg && r < 255; ++r) std::memset(w.r[r], 0, 128);
    std::memset(w.r[255], 0, 128);
    std::memset(w.ur, 0, sizeof w.ur);
    std::memset(w.p, 0, sizeof w.p);
    w.p[7] = ~0u;
    std::memset(w.up, 0, sizeof w.up);
    w.up[7] = 1;
    std::memset(w.b, 0, sizeof w.b);
  }

  void runBlock() {
    std::fill(shared_.begin(), shared_.end(), 0);
    for (std::uint32_t i = 0; i < nWarps_; ++i) initWarp(warps_[i]);
    tracing_ = x_.blockLinear == 0;
    traced_ = 0;
    if (tracing_) trace_.assign(nWarps_, {});
    while (!x_.stop) {
      bool anyLive = false, anyRan = false;
      yielded_ = false;
      for (std::uint32_t i = 0; i < nWarps_ && !x_.stop; ++i) {
        Warp &w = warps_[i];
        if (w.done) continue;
        anyLive = true;
        if (runWarp(w)) anyRan = true;
      }
      if (!anyLive || x_.stop) break;
      if (yielded_) continue; // a warp waits on an mbarrier, not at the block barrier: go round again
      // Every live warp waits at a block barrier: release them all.
      bool released = false;
      for (std::uint32_t i = 0; i < nWarps_; ++i)
        for (Group &gr : warps_[i].groups)
          if (gr.state == GroupState::BlockBarrier) gr.state = GroupState::Run, released = true;
      if (!released && !anyRan) {
        x_.fail("the block's warps can make no progress (barrier deadlock) in block " + x_.blockStr());
        break;
      }
    }
    if (tracing_ && !x_.failed) {
      std::lock_guard<std::mutex> lock(s_.mu);
      s_.trace = std::move(trace_);
    }
    tracing_ = false;
    trace_.clear();
  }

  /// Block 0's trace: warp `w` executed code indices pc .. pc + k - 1 (dropped past kMaxBlockTrace).
  void tracePcs(const Warp &w, std::uint32_t pc, std::uint32_t k) {
    if (traced_ + k > emu::kMaxBlockTrace) {
      tracing_ = false;
      trace_.clear();
      return;
    }
    traced_ += k;
    auto &t = trace_[w.index];
    for (std::uint32_t i = 0; i < k; ++i) t.push_back(pc + i);
  }

  /// The group to run: the running one (the last in w.groups) while it can, else the group
  /// suspended last with every ready group at its pc merged in (WARPLENS_SIMT=lowest: the
  /// lowest-pc group, merged likewise); nullptr when the warp is done or waits at a block
  /// barrier. Satisfied convergence barriers are released here.
  Group *pick(Warp &w) {
    auto &gs = w.groups;
    // Merges every other ready group at gs[k]'s pc into it.
    auto absorb = [&gs](int k) {
      for (int i = 0; i < int(gs.size()); ++i)
        if (i != k && gs[i].state == GroupState::Run && gs[i].pc == gs[k].pc) gs[k].mask |= gs[i].mask, gs[i].mask = 0;
    };
    auto dropEmpty = [&gs] {
      gs.erase(std::remove_if(gs.begin(), gs.end(), [](const Group &g) { return g.mask == 0; }), gs.end());
    };
    // The running group (the last one) goes on while it can.
    bool resume = gs.empty() || gs.back().mask == 0 || gs.back().state != GroupState::Run;
    for (;;) {
      dropEmpty();
      for (Group &g : gs) {
        if (g.state == GroupState::BsyncWait && ((w.b[g.need] & ~w.exited) & ~g.mask) == 0) g.state = GroupState::Run, ++g.pc;
        if (g.state == GroupState::WarpsyncWait && ((g.need & ~w.exited) & ~g.mask) == 0) g.state = GroupState::Run, ++g.pc;
      }
      if (!kLowestPcFirst) {
        // The hardware's order (measured: CtrlOps.cpp's file notes): the group that
        // runs goes on until it blocks (a convergence or block barrier) or leaves; then the group
        // suspended last resumes, together with every ready group at its pc.
        minOther_ = ~0u;
        if (!resume && !gs.empty() && gs.back().state == GroupState::Run) return &gs.back();
        resume = true;
        int last = -1;
        for (int i = int(gs.size()) - 1; i >= 0 && last < 0; --i)
          if (gs[i].state == GroupState::Run) last = i;
        if (last >= 0) {
          absorb(last);
          std::rotate(gs.begin() + last, gs.begin() + last + 1, gs.end());
          dropEmpty();
          return &gs.back();
        }
      }
      int best = -1;
      for (int i = 0; i < int(gs.size()); ++i)
        if (gs[i].state == GroupState::Run && (best < 0 || gs[i].pc < gs[best].pc)) best = i;
      if (kLowestPcFirst && best >= 0) {
        Group &b = gs[best];
        absorb(best);
        minOther_ = ~0u;
        for (int i = 0; i < int(gs.size()); ++i)
          if (i != best && gs[i].mask && gs[i].state == GroupState::Run) minOther_ = std::min(minOther_, gs[i].pc);
        return &b;
      }
      if (gs.empty()) { w.done = true; return nullptr; }
      for (const Group &g : gs)
        if (g.state == GroupState::BlockBarrier) return nullptr;
      // Only convergence waits are left and none is satisfied (e.g. lanes waiting at a block
      // barrier inside the region): release the lowest one, as the hardware's scheduler would.
      Group *low = nullptr;
      for (Group &g : gs)
        if (!low || g.pc < low->pc) low = &g;
      low->state = GroupState::Run;
      ++low->pc;
    }
  }

  /// Runs `w` until it is done or waits at a block barrier. Returns true if it executed anything.
  bool runWarp(Warp &w) {
    x_.w = &w;
    const Program &p = *x_.prog;
    const std::size_t n = p.code.size();
    bool ran = false;
    Group *g = pick(w);
    while (g && !x_.stop) {
      x_.g = g;
      x_.regroup = false;
      if (g->pc >= n || !p.code[g->pc].fn) {
        x_.fail("execution ran off the end of the kernel code at pc " + hex(std::uint64_t(g->pc) * 16) +
                " in block " + x_.blockStr());
        break;
      }
      const Instr &in = p.code[g->pc];
      std::uint32_t m = g->mask;
      ran = true;
      if (in.skip) { // address-only mode: a run of instructions nothing needed depends on
        std::uint32_t k = in.skipRun;
        if (g->pc + k > minOther_) k = minOther_ - g->pc; // stop where another group waits to merge
        std::uint64_t t = std::uint64_t(k) * unsigned(std::popcount(m));
        warpInstr_ += k, threadInstr_ += t, skippedInstr_ += t, w.executed += k;
        if (tracing_) tracePcs(w, g->pc, k);
        ++skipDiff_[g->pc], --skipDiff_[g->pc + k];
        g->pc += k;
        if (g->pc >= minOther_) g = pick(w);
        continue;
      }
      ++warpInstr_, ++w.executed;
      ++blockPc_[g->pc];
      if (tracing_) tracePcs(w, g->pc, 1);
      threadInstr_ += unsigned(std::popcount(m));
      if (in.control) {
        // Every loop passes a control instruction: bound one block here (run() checks the launch's
        // total after each block; a block that never exits ran forever before).
        if (threadInstr_ > s_.budget) {
          x_.fail("instruction budget of " + std::to_string(s_.budget) + " thread-instructions exhausted in block " +
                  x_.blockStr() + " at " + p.where(in) + " (raise it or shrink the launch)");
          break;
        }
        if (sym_) sym_->control(x_, in, m);
        in.fn(x_, in, m);
        if (x_.yield) { x_.yield = false, yielded_ = true; break; } // an mbarrier try_wait waits
        g = pick(w);
        continue;
      }
      std::uint32_t eff = in.guard.kind == OpKind::None ? m : (m & x_.predMask(in.guard));
      if (sym_) sym_->before(x_, in, m, eff);
      if (eff || in.emit) in.fn(x_, in, eff);
      if (sym_) sym_->after(x_, in, eff);
      if (traceLane_ >= 0 && (eff >> traceLane_ & 1)) traceStep(in);
      ++g->pc;
      if (x_.yield) { x_.yield = false, yielded_ = true; break; } // a wait failed: others run first
      if (g->pc >= minOther_) g = pick(w);
    }
    return ran;
  }

  /// WARPLENS_SASS_TRACE=LANE: prints every instruction lane LANE of block 0 executes, with the
  /// registers its first operand names afterwards (a debugging aid for engine semantics).
  void traceStep(const Instr &in) {
    if (x_.blockLinear != 0) return;
    std::fprintf(stderr, "[w%u] %04llx %-48s", x_.w->index, static_cast<unsigned long long>(in.pc), in.text.c_str());
    if (!in.ops.empty()) {
      const Operand &d = in.ops[0];
      if (d.kind == OpKind::Reg && d.index != kRZ)
        std::fprintf(stderr, " R%u=%08x R%u=%08x", d.index, x_.w->r[d.index][traceLane_], d.index + 1,
                     x_.w->r[(d.index + 1) & 255][traceLane_]);
      else if (d.kind == OpKind::Pred || d.kind == OpKind::UPred)
        std::fprintf(stderr, " P=%u", d.kind == OpKind::Pred ? (x_.w->p[d.index] >> traceLane_ & 1) : x_.w->up[d.index]);
      else if (d.kind == OpKind::UReg)
        std::fprintf(stderr, " UR%u=%08x", d.index, x_.w->ur[d.index]);
    }
    std::fprintf(stderr, "\n");
  }
  int traceLane_ = [] { const char *e = std::getenv("WARPLENS_SASS_TRACE"); return e ? std::atoi(e) : -1; }();

  Shared &s_;
  Exec x_;
  Symmetry *sym_ = nullptr; ///< the block under way proves symmetry (runTracked)
  std::unique_ptr<Warp[]> warps_;
  std::vector<std::uint8_t> shared_;
  std::uint32_t tpb_ = 0, nWarps_ = 0;
  std::uint32_t minOther_ = ~0u;
  /// WARPLENS_SIMT=lowest: the engine's former order (the lowest-pc group first, groups merged
  /// wherever they meet), for comparison.
  const bool kLowestPcFirst = [] { const char *e = std::getenv("WARPLENS_SIMT"); return e && std::string(e) == "lowest"; }();
  bool yielded_ = false; ///< a warp of this sweep stopped at a failed mbarrier wait (AsyncOps.cpp)
  bool clusterDone_ = false; ///< clusterSweep: the block has finished
  bool tracing_ = false;     ///< block 0 runs: its warps' code indices go to trace_
  std::uint64_t traced_ = 0;
  std::vector<std::vector<std::uint32_t>> trace_;
  std::uint64_t warpInstr_ = 0, threadInstr_ = 0, skippedInstr_ = 0;
  std::uint64_t repLongest_ = 0; ///< the representative's longest warp (replicas' per-block counts)
  /// A block's warp groups (warps i with i mod kWarpGroups = g): instructions and longest warp.
  struct GroupCounts {
    std::array<std::uint32_t, emu::kWarpGroups> work{}, longest{};
  };
  GroupCounts repGroup_, curGroup_; ///< the representative's (replicas), the block just run
  void groupsOf(GroupCounts &c) const {
    c = GroupCounts{};
    for (std::uint32_t i = 0; i < nWarps_; ++i) {
      const std::uint32_t g = i % emu::kWarpGroups, e = clip(warps_[i].executed);
      c.work[g] = clip(std::uint64_t(c.work[g]) + e);
      c.longest[g] = std::max(c.longest[g], e);
    }
  }
  /// Per code index: the block's executed warp instructions, its skipped runs as a difference
  /// array (+1 at a run's start, -1 past its end), the representative's of both (replicas), and
  /// the worker's total.
  std::vector<std::uint64_t> blockPc_, repPc_, totalPc_;
  std::vector<std::int64_t> skipDiff_, repSkip_;
  /// Adds the block's per-pc counts `copies` times to the worker's total and clears them; returns
  /// the block's warp instructions (one copy).
  std::uint64_t addPcCounts(std::uint64_t copies) {
    std::int64_t run = 0;
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < totalPc_.size(); ++i) {
      run += skipDiff_[i];
      const std::uint64_t c = blockPc_[i] + static_cast<std::uint64_t>(run);
      if (c) totalPc_[i] += c * copies, sum += c;
      blockPc_[i] = 0, skipDiff_[i] = 0;
    }
    skipDiff_[totalPc_.size()] = 0;
    return sum;
  }
};

/// Runs whole clusters (Shared::cluster dims): each worker takes the next cluster and runs its
/// blocks together, sweeping them in turn until all have finished (ClusterOps.cpp). A round in
/// which no block makes progress is a deadlock.
void runClusters(Shared &s, model::AccessListener &listener) {
  const auto &cd = s.cluster;
  const auto &g = s.spec->grid;
  std::uint32_t n = cd[0] * cd[1] * cd[2];
  std::vector<std::unique_ptr<Worker>> ws;
  for (std::uint32_t r = 0; r < n; ++r) ws.push_back(std::make_unique<Worker>(s, listener));
  ClusterState cs;
  cs.size = n;
  cs.shared.assign(n, nullptr);
  cs.warps.assign(n, nullptr);
  std::uint32_t gx = g[0] / cd[0], gy = g[1] / cd[1];
  while (!s.abort) {
    std::uint64_t c = s.nextBlock++;
    if (c >= s.totalBlocks) break;
    std::uint64_t cx = c % gx, cy = (c / gx) % gy, cz = c / (std::uint64_t(gx) * gy);
    for (std::uint32_t r = 0; r < n; ++r) {
      std::uint64_t bx = cx * cd[0] + r % cd[0], by = cy * cd[1] + (r / cd[0]) % cd[1], bz = cz * cd[2] + r / (cd[0] * cd[1]);
      ws[r]->clusterStart(bx + by * g[0] + bz * std::uint64_t(g[0]) * g[1], &cs, r);
    }
    cs.spins = 0;
    for (bool live = true; live;) {
      live = false;
      bool progress = false, failed = false;
      for (auto &w : ws) {
        if (w->clusterSweep(progress)) live = true;
        if (w->clusterExec().stop) failed = true;
      }
      if (failed) break;
      if (live && !progress) {
        ws[0]->clusterExec().fail("the cluster's blocks can make no progress (cluster barrier deadlock) in the cluster of block " +
                                  ws[0]->clusterExec().blockStr());
        break;
      }
    }
    bool ok = true;
    for (auto &w : ws) ok = w->clusterFinish() && ok;
    if (!ok) break;
  }
}

Status encodeArg(const launch::ArgSpec &a, std::uint8_t *dst, unsigned size, const std::string &where) {
  unsigned n = launch::sizeOf(a.type);
  if (n != size)
    return Error{where + ": value of " + std::to_string(n) + " bytes for a " + std::to_string(size) + "-byte parameter"};
  using launch::ScalarType;
  if (a.type == ScalarType::F32) { float f = static_cast<float>(a.floatValue); std::memcpy(dst, &f, 4); }
  else if (a.type == ScalarType::F64) std::memcpy(dst, &a.floatValue, 8);
  else if (a.type == ScalarType::F16) return Error{where + ": f16 values as kernel parameters are not supported"};
  else std::memcpy(dst, &a.intValue, n);
  return {};
}

Expected<std::unique_ptr<Program>> load(const sass::SassFunction &fn, const Cubin &cubin,
                                        const launch::LaunchSpec &spec,
                                        std::vector<launch::HostBuffer> &buffers, const std::string &where,
                                        bool addressOnly) {
  auto prog = std::make_unique<Program>();
  prog->path = where;
  prog->kernel = fn.name;
  WL_TRY(code, decodeFunction(fn, where));
  prog->code = std::move(code);
  if (addressOnly) {
    SliceStats st = sliceForAddresses(prog->code);
    prog->sliced = st.disabledBy.empty();
    if (std::getenv("WARPLENS_SASS_SLICE")) { // debugging aid: what the slice kept
      std::fprintf(stderr, "slice %s: %u of %u instructions skipped, memory %s %s\n", fn.name.c_str(), st.skipped,
                   st.instructions, st.memoryNeeded ? "needed:" : "not needed", st.why.c_str());
      if (!st.disabledBy.empty()) std::fprintf(stderr, "  not sliced: %s\n", st.disabledBy.c_str());
      for (const Instr &in : prog->code)
        if (in.fn) std::fprintf(stderr, "  %s %04llx %s\n", in.skip ? "skip" : in.noData ? "addr" : "keep",
                                static_cast<unsigned long long>(in.pc), in.text.c_str());
    }
  }
  for (const Instr &in : prog->code) {
    auto see = [&](const Operand &o) {
      if (o.kind == OpKind::Reg && o.index != kRZ) prog->maxReg = std::max(prog->maxReg, o.index + (o.wide ? 2u : 1u) + 3);
      if ((o.kind == OpKind::Mem || o.kind == OpKind::Const) && o.idxKind == OpKind::Reg && o.idx != kRZ)
        prog->maxReg = std::max(prog->maxReg, o.idx + 2);
    };
    for (const Operand &o : in.ops) see(o);
  }
  prog->maxReg = std::min<std::uint32_t>(prog->maxReg, 255);
  auto kit = cubin.kernels.find(fn.name);
  if (kit == cubin.kernels.end()) return Error::at(where, "the cubin has no kernel '" + fn.name + "'");
  const CubinKernel &k = kit->second;
  std::string specWhere = spec.specFile.empty() ? spec.name : spec.specFile;
  if (k.params.size() != spec.args.size())
    return Error{specWhere + ": kernel '" + fn.name + "' takes " + std::to_string(k.params.size()) +
                 " parameters but the launch gives " + std::to_string(spec.args.size()) + " args"};
  // Buffers at the same addresses the PTX emulator uses (emu::bufferBases: 4 KiB aligned).
  auto bases = emu::bufferBases(buffers);
  std::uint64_t end = emu::kGlobalBase;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    prog->buffers.push_back({buffers[i].name, bases[i], buffers[i].bytes.size(), buffers[i].bytes.data()});
    end = bases[i] + alignUp(std::max<std::uint64_t>(buffers[i].bytes.size(), 1), 512) + 512;
  }
  std::map<std::string, std::uint64_t> globalAddr;
  for (const CubinGlobal &gv : cubin.globals) {
    prog->moduleGlobals.push_back(gv.bytes);
    globalAddr[gv.name] = end;
    end += alignUp(gv.bytes.size(), 512) + 512;
  }
  for (std::size_t i = 0; i < cubin.globals.size(); ++i)
    prog->buffers.push_back({cubin.globals[i].name, globalAddr[cubin.globals[i].name], cubin.globals[i].bytes.size(),
                             prog->moduleGlobals[i].data()});
  std::sort(prog->buffers.begin(), prog->buffers.end(), [](const Buffer &a, const Buffer &b) { return a.base < b.base; });
  // Constant banks
  for (const auto &[bank, bytes] : cubin.banks)
    if (bank >= 1 && bank < 6) prog->cbank[bank] = bytes;
  for (const CubinAddressSlot &s : cubin.addressSlots) {
    if (s.bank >= 6 || s.bank == 0) continue;
    auto it = globalAddr.find(s.symbol);
    std::uint64_t v = 0;
    if (it != globalAddr.end()) {
      v = it->second + static_cast<std::uint64_t>(s.addend);
    } else if (s.symbol == "vprintf" || s.symbol == "__assertfail") { // external callees (DiagOps.cpp)
      auto e = std::find(prog->externs.begin(), prog->externs.end(), s.symbol);
      if (e == prog->externs.end()) e = prog->externs.insert(e, s.symbol);
      v = kExternFnBase + 16 * std::uint64_t(e - prog->externs.begin());
    } else {
      return Error::at(where, "constant bank " + std::to_string(s.bank) + " holds the address of '" + s.symbol +
                                  "', which is not a __device__ variable the SASS engine can place");
    }
    auto &b = prog->cbank[s.bank];
    unsigned n = (s.lo32 || s.hi32) ? 4 : 8;
    if (s.hi32) v >>= 32;
    if (b.size() < s.offset + n) b.resize(s.offset + n, 0);
    std::memcpy(b.data() + s.offset, &v, n);
  }
  // Local memory: the frame (and callees' stack), R1 starts at its top.
  prog->localBytes = static_cast<std::uint32_t>(alignUp(std::max(k.frameBytes, k.stackBytes), 16));
  prog->sharedBytes = std::max<std::uint32_t>(k.sharedBytes, kSharedReserved) + spec.dynamicSharedBytes;
  // Constant bank 0: launch dimensions, windows, stack, parameters.
  auto &c0 = prog->cbank[0];
  c0.assign(std::max<std::size_t>(k.paramBase + std::max<std::uint32_t>(k.paramBytes, 0), 0x210) + 16, 0);
  auto put32 = [&](std::size_t off, std::uint32_t v) { std::memcpy(c0.data() + off, &v, 4); };
  for (int i = 0; i < 3; ++i) put32(4 * i, spec.block[i]), put32(0xc + 4 * i, spec.grid[i]);
  put32(0x20, static_cast<std::uint32_t>(kLocalWindow));
  put32(0x24, static_cast<std::uint32_t>(kLocalWindow >> 32));
  put32(0x28, prog->localBytes);
  for (std::size_t i = 0; i < k.params.size(); ++i) {
    const KernelParam &p = k.params[i];
    const launch::ArgSpec &a = spec.args[i];
    std::string argWhere = specWhere + ": args[" + std::to_string(i) + "]";
    std::size_t off = k.paramBase + p.offset;
    if (off + p.size > c0.size()) c0.resize(off + p.size, 0);
    if (a.isTensorMap()) { // Hopper TMA: the engine's own descriptor (AsyncOps.cpp)
      const Buffer *found = nullptr;
      for (const Buffer &b : prog->buffers)
        if (b.name == a.buffer) found = &b;
      if (!found) return Error{argWhere + ": unknown buffer '" + a.buffer + "'"};
      std::string err = encodeTensorMap(a, found->base + a.offsetBytes, c0.data() + off, p.size);
      if (!err.empty()) return Error{argWhere + ": " + err};
      std::uint64_t win = kParamWindow + k.paramBase; // c[0x0][0x198]: generic address of the parameters
      std::memcpy(c0.data() + 0x198, &win, 8);
      continue;
    }
    if (a.isBuffer) {
      if (p.size != 8) return Error{argWhere + ": buffer '" + a.buffer + "' passed to a " + std::to_string(p.size) + "-byte parameter"};
      const Buffer *found = nullptr;
      for (const Buffer &b : prog->buffers)
        if (b.name == a.buffer) found = &b;
      if (!found) return Error{argWhere + ": unknown buffer '" + a.buffer + "'"};
      std::uint64_t v = found->base + a.offsetBytes;
      std::memcpy(c0.data() + off, &v, 8);
    } else {
      WL_CHECK(encodeArg(a, c0.data() + off, p.size, argWhere));
    }
  }
  return prog;
}

} // namespace

std::string Program::where(const Instr &in) const {
  std::string s = "pc " + hex(in.pc) + " `" + in.text + "`";
  if (in.sourceLine >= 0) s += ", source " + in.sourceFile + ":" + std::to_string(in.sourceLine);
  return s;
}

namespace {
/// The memory instructions of decoded code, as sites.
std::vector<model::SiteInfo> sitesOf(const std::vector<Instr> &code) {
  std::vector<model::SiteInfo> sites;
  for (const Instr &in : code) {
    if (!in.fn || !in.emit) continue;
    model::SiteInfo s;
    s.site = in.site;
    s.sourceFile = in.sourceFile;
    s.sourceLine = in.sourceLine;
    s.space = in.space;
    s.op = in.memOp;
    s.widthBytes = in.width;
    s.sassPc = in.pc;
    s.sassText = in.text;
    sites.push_back(std::move(s));
  }
  return sites;
}
} // namespace

Expected<std::vector<model::SiteInfo>> memorySites(const sass::SassFunction &fn, const std::string &where) {
  WL_TRY(code, decodeFunction(fn, where));
  return sitesOf(code);
}

Expected<emu::LaunchRun> runLaunch(const sass::SassFunction &fn, const Cubin &cubin,
                                   const launch::LaunchSpec &spec,
                                   std::vector<launch::HostBuffer> &buffers,
                                   const emu::ListenerFactory &makeListener,
                                   const emu::EmuOptions &options, const std::string &where) {
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < 3; ++i)
    if (spec.grid[i] == 0 || spec.block[i] == 0)
      return Error{spec.specFile + ": grid and block dimensions must be positive"};
  std::uint64_t tpb = std::uint64_t(spec.block[0]) * spec.block[1] * spec.block[2];
  if (tpb > 1024) return Error{spec.specFile + ": block of " + std::to_string(tpb) + " threads exceeds 1024"};
  // Address-only mode is off while a lane is traced (its trace shows values).
  const bool addressOnly = options.addressOnly && !std::getenv("WARPLENS_SASS_TRACE");
  WL_TRY(prog, load(fn, cubin, spec, buffers, where, addressOnly));
  Shared sh;
  sh.prog = prog.get();
  sh.spec = &spec;
  sh.totalBlocks = std::uint64_t(spec.grid[0]) * spec.grid[1] * spec.grid[2];
  sh.budget = options.instructionBudget;
  { // thread block clusters (Hopper): __cluster_dims__, or cluster barriers in a cluster of one
    auto kit = cubin.kernels.find(fn.name);
    auto cd = kit != cubin.kernels.end() ? kit->second.clusterDim : std::array<std::uint32_t, 3>{0, 0, 0};
    if (spec.cluster[0]) { // the launch spec's "cluster" (cudaLaunchKernelEx's cluster attribute)
      if (cd[0] * cd[1] * cd[2] != 0 && cd != spec.cluster)
        return Error{spec.specFile + ": cluster [" + std::to_string(spec.cluster[0]) + ", " + std::to_string(spec.cluster[1]) + ", " +
                     std::to_string(spec.cluster[2]) + "] differs from the kernel's __cluster_dims__ [" + std::to_string(cd[0]) +
                     ", " + std::to_string(cd[1]) + ", " + std::to_string(cd[2]) + "] (the launch would fail)"};
      cd = spec.cluster;
    }
    bool barriers = std::any_of(prog->code.begin(), prog->code.end(), [](const Instr &in) { return in.base.rfind("UCGABAR", 0) == 0; });
    if (cd[0] * cd[1] * cd[2] > 1 || barriers) {
      for (int i = 0; i < 3; ++i) cd[i] = std::max<std::uint32_t>(cd[i], 1);
      for (int i = 0; i < 3; ++i)
        if (spec.grid[i] % cd[i])
          return Error{spec.specFile + ": grid [" + std::to_string(spec.grid[0]) + ", " + std::to_string(spec.grid[1]) + ", " +
                       std::to_string(spec.grid[2]) + "] is not a multiple of the kernel's cluster dims [" +
                       std::to_string(cd[0]) + ", " + std::to_string(cd[1]) + ", " + std::to_string(cd[2]) + "]"};
      if (cd[0] * cd[1] * cd[2] > 16)
        return Error{spec.specFile + ": cluster of " + std::to_string(cd[0] * cd[1] * cd[2]) + " blocks exceeds 16"};
      sh.cluster = {cd[0], cd[1], cd[2]};
      sh.totalBlocks /= std::uint64_t(cd[0]) * cd[1] * cd[2];
      if (spec.cluster[0] || (kit != cubin.kernels.end() && kit->second.clusterDim[0])) {
        // An explicit cluster launch's constants, where ptxas reads them (sm_90): c[0x0][0x140] = 1
        // (%is_explicit_cluster), 0x144.. %cluster_nctaid, 0x150.. 1/%cluster_nctaid as floats
        // (%clusterid = trunc(ctaid * it)), 0x15c.. %nclusterid, 0x188 %cluster_nctarank.
        auto &c0 = prog->cbank[0];
        if (c0.size() < 0x18c) c0.resize(0x18c, 0);
        auto put = [&](std::size_t off, std::uint32_t v) { std::memcpy(c0.data() + off, &v, 4); };
        put(0x140, 1);
        for (int i = 0; i < 3; ++i) {
          float r = 1.0f / float(cd[i]);
          if (double(r) * cd[i] < 1.0) r = std::nextafter(r, 2.0f); // never below 1/n: exact quotients
          put(0x144 + 4 * i, cd[i]), put(0x150 + 4 * i, std::bit_cast<std::uint32_t>(r)), put(0x15c + 4 * i, spec.grid[i] / cd[i]);
        }
        put(0x188, cd[0] * cd[1] * cd[2]);
      }
    }
  }
  // Block symmetry (Symmetry.h): address-only runs of plain grids, unless WARPLENS_SASS_REPLICATE=0.
  // Up to 2^24 blocks (the list of blocks left to replicate stays under ~130 MB); larger grids
  // run block by block under the instruction budget.
  if (const char *e = std::getenv("WARPLENS_SASS_REPLICATE"); prog->sliced && !sh.cluster[0] && sh.totalBlocks > 1 &&
                                                               sh.totalBlocks <= (std::uint64_t(1) << 24) &&
                                                               options.replicate && !(e && std::string(e) == "0"))
    sh.replicate = true;
  std::vector<std::uint32_t> sampleStratum;
  std::uint64_t strataSize[2] = {0, 0};
  if (options.sampleBlocks && options.sampleBlocks < sh.totalBlocks && !sh.cluster[0]) {
    // Two strata: blocks on the grid's edge (first or last along a dimension of more than two
    // blocks: stencils and tiles treat them differently) and the interior. Each gets samples in
    // proportion, the edge at least a quarter of them; within a stratum one block per equal
    // run of its blocks, at a position a fixed hash picks.
    const auto &g = spec.grid;
    std::vector<std::uint64_t> members[2];
    const bool strata = sh.totalBlocks <= (std::uint64_t(1) << 26); // else one stratum (memory)
    for (std::uint64_t b = 0; b < sh.totalBlocks && strata; ++b) {
      std::uint64_t c[3] = {b % g[0], (b / g[0]) % g[1], b / (std::uint64_t(g[0]) * g[1])};
      bool edge = false;
      for (int d = 0; d < 3; ++d) edge = edge || (g[d] > 2 && (c[d] == 0 || c[d] == g[d] - 1));
      members[edge ? 0 : 1].push_back(b);
    }
    if (!strata) // every block in the "interior" stratum, by stride: no list of ids
      for (std::uint64_t k = 0; k < options.sampleBlocks; ++k) members[1].push_back(k * sh.totalBlocks / options.sampleBlocks);
    const std::uint64_t n = options.sampleBlocks, total = strata ? sh.totalBlocks : n, ne0 = members[0].size();
    std::uint64_t nEdge = ne0 == 0 ? 0 : std::min<std::uint64_t>(ne0, std::max<std::uint64_t>((n * ne0 + total - 1) / total, n / 4));
    if (members[1].empty()) nEdge = n;
    if (n - nEdge > members[1].size()) nEdge = n - members[1].size();
    const std::uint64_t take[2] = {nEdge, n - nEdge};
    for (int h = 0; h < 2; ++h) {
      const auto &m = members[h];
      strataSize[h] = strata ? m.size() : (h == 1 ? sh.totalBlocks : 0);
      for (std::uint64_t k = 0; k < take[h]; ++k) {
        std::uint64_t lo = k * m.size() / take[h], hi = (k + 1) * m.size() / take[h];
        std::uint64_t x = (k + 1 + 1000003ull * h) * 0x9e3779b97f4a7c15ull;
        x ^= x >> 31, x *= 0xbf58476d1ce4e5b9ull, x ^= x >> 29;
        sh.sample.push_back(m[lo + x % (hi - lo)]);
        sampleStratum.push_back(std::uint32_t(h));
      }
    }
    sh.replicate = false;
  }
  if (sh.sample.empty() && !sh.cluster[0] && sh.totalBlocks <= emu::kMaxBlockWork) sh.blockWork.assign(sh.totalBlocks, 0), sh.blockLongest.assign(sh.totalBlocks, 0);
  if (sh.sample.empty() && !sh.cluster[0] && sh.totalBlocks <= emu::kMaxBlockGroups)
    sh.groupWork.assign(sh.totalBlocks * emu::kWarpGroups, 0), sh.groupLongest.assign(sh.totalBlocks * emu::kWarpGroups, 0);
  unsigned threads = emu::workerCount(options.threads, sh.totalBlocks);
  emu::LaunchRun run;
  run.kernelMangled = fn.name;
  run.sites = sitesOf(prog->code); // decoded once, by load()
  for (unsigned i = 0; i < threads; ++i) run.listeners.push_back(makeListener());
  emu::runWorkers(run.listeners, [&sh](model::AccessListener &l) {
    if (sh.cluster[0]) return runClusters(sh, l);
    Worker w(sh, l);
    w.run();
  });
  if (sh.abort) return Error{sh.error};
  for (auto &l : run.listeners) l->onEnd();
  run.stats.warpInstructions = sh.warpInstr;
  run.stats.warpInstrPerPc = std::move(sh.pcCount);
  run.stats.blockWarpInstr = std::move(sh.blockWork);
  run.stats.blockLongestWarp = std::move(sh.blockLongest);
  run.stats.blockGroupWarpInstr = std::move(sh.groupWork);
  run.stats.blockGroupLongestWarp = std::move(sh.groupLongest);
  run.stats.blockTrace = std::move(sh.trace);
  run.stats.threadInstructions = sh.threadInstr;
  run.stats.skippedThreadInstructions = sh.skippedInstr;
  run.stats.addressOnly = prog->sliced;
  run.stats.replicatedBlocks = sh.replicated;
  run.stats.symmetryRuleError = sh.ruleError;
  run.stats.sampledBlocks = sh.sample;
  run.stats.sampledStratum = sampleStratum;
  run.stats.strataSize[0] = strataSize[0], run.stats.strataSize[1] = strataSize[1];
  if (std::getenv("WARPLENS_SASS_SYMMETRY"))
    std::fprintf(stderr, "symmetry %s: %llu of %llu blocks replicated%s%s\n", fn.name.c_str(),
                 static_cast<unsigned long long>(sh.replicated.load()), static_cast<unsigned long long>(sh.totalBlocks),
                 sh.symmetryWhy.empty() ? "" : "; not proven: ", sh.symmetryWhy.c_str());
  run.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

} // namespace warplens::sassemu
