/// \file
/// Execution state of one worker: the current warp (register file as structure of arrays,
/// predicate masks, SIMT groups of lanes per PC, call frames) and its block (shared memory).
/// Does not model warp scheduling order beyond barriers.
#pragma once

#include "emu/Program.h"
#include "model/AccessEvent.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace warplens::emu {

/// Lanes waiting at one PC (per-thread PCs, kept compressed as groups).
struct Group {
  std::uint32_t pc = 0;
  std::uint32_t mask = 0;
};

struct Frame {
  std::uint32_t retPc = 0;
  std::uint32_t mask = 0;
  std::uint32_t call = 0;          ///< Program::calls index
  std::vector<Group> waiting;
  std::uint32_t minWait = kNone;
};

enum class WarpStatus : std::uint8_t { Running, AtBarrier, Done };

struct Warp {
  std::uint32_t index = 0;
  std::uint32_t pc = 0;
  std::uint32_t mask = 0;      ///< lanes executing at pc
  std::uint32_t exited = 0;    ///< lanes that executed exit (or ret from the kernel)
  std::uint32_t minWait = kNone;
  std::vector<Group> waiting;
  std::vector<Frame> frames;
  WarpStatus status = WarpStatus::Running;
  std::vector<std::uint64_t> regs;   ///< numSlots × 32
  std::vector<std::uint32_t> preds;  ///< numPreds
  std::vector<std::uint8_t> local;   ///< 32 × localBytes
  std::vector<std::uint8_t> params;  ///< 32 × paramBytes

  /// Picks the lowest-PC group (merging groups at the same PC) as the executing one.
  /// Returns false when no group is left in this frame.
  bool selectNext() {
    if (waiting.empty()) { mask = 0; minWait = kNone; return false; }
    std::uint32_t best = kNone;
    for (const auto &g : waiting) best = std::min(best, g.pc);
    std::uint32_t m = 0, next = kNone;
    size_t j = 0;
    for (size_t i = 0; i < waiting.size(); ++i) {
      if (waiting[i].pc == best) m |= waiting[i].mask;
      else { next = std::min(next, waiting[i].pc); waiting[j++] = waiting[i]; }
    }
    waiting.resize(j);
    pc = best;
    mask = m;
    minWait = next;
    return true;
  }
  /// The executing group moved to `newPc`: merge / switch when it reaches a waiting group.
  void moveTo(std::uint32_t newPc) {
    pc = newPc;
    if (pc >= minWait) {
      waiting.push_back({pc, mask});
      selectNext();
    }
  }
  void park(std::uint32_t atPc, std::uint32_t m) {
    waiting.push_back({atPc, m});
    minWait = std::min(minWait, atPc);
  }
};

struct Exec {
  const Program *prog = nullptr;
  Warp *w = nullptr;
  std::uint64_t *regs = nullptr;  ///< w->regs.data()
  std::uint32_t *preds = nullptr; ///< w->preds.data()
  std::uint8_t *shared = nullptr;
  std::uint32_t sharedBytes = 0;
  model::AccessListener *listener = nullptr;
  model::AccessEvent event;
  std::uint32_t blockLinear = 0;
  std::uint32_t block[3] = {0, 0, 0};
  std::uint32_t blockDim[3] = {1, 1, 1};
  bool stop = false;              ///< leave the warp loop (barrier, done, error)
  bool failed = false;
  std::string error;
  const GlobalBuffer *lastBuf = nullptr;

  std::uint64_t *r(std::uint32_t slot) { return regs + static_cast<size_t>(slot) * 32; }

  /// Marks the run as failed with `message` (first failure wins).
  void fail(std::string message) {
    if (!failed) { failed = true; error = std::move(message); }
    stop = true;
  }
  /// "(x,y,z)" of lane `lane` of the current warp.
  std::string threadOf(unsigned lane) const {
    std::uint32_t t = w->index * 32 + lane;
    std::uint32_t x = t % blockDim[0], y = (t / blockDim[0]) % blockDim[1],
                  z = t / (blockDim[0] * blockDim[1]);
    return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
  }
  std::string blockStr() const {
    return "(" + std::to_string(block[0]) + "," + std::to_string(block[1]) + "," +
           std::to_string(block[2]) + ")";
  }
  /// The executing group finished (exit / ret): pick the next group, pop frames, or finish.
  void retireGroup();
};

/// Handler selection per instruction class (defined in the *Handlers.cpp files). They return
/// nullptr and set `err` when a type/modifier combination is not supported.
Handler selectAlu(const ptx::Instruction &ins, std::string &err);
Handler selectMemory(const ptx::Instruction &ins, std::string &err);
Handler selectControl(const ptx::Instruction &ins, std::string &err);

} // namespace warplens::emu
