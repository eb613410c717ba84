/// \file
/// Control flow and warp-collective handlers: bra with divergence (per-PC lane groups, lowest PC
/// first, merging where PCs meet; a uniformly taken forward bra reports the memory instructions
/// it jumps over), call/ret, exit, bar.sync, shfl, vote, activemask. Does not model independent
/// thread scheduling beyond this min-PC order (no forward progress for intra-warp spin locks).
#include "emu/Lanes.h"

namespace warplens::emu {

using ptx::Opcode;

void Exec::retireGroup() {
  Warp &wp = *w;
  while (true) {
    if (wp.selectNext()) return;
    if (wp.frames.empty()) {
      wp.status = WarpStatus::Done;
      stop = true;
      return;
    }
    Frame f = std::move(wp.frames.back());
    wp.frames.pop_back();
    std::uint32_t live = f.mask & ~wp.exited;
    const CallInfo &ci = prog->calls[f.call];
    std::uint32_t pb = prog->paramBytes;
    for (const auto &c : ci.rets)
      forLanes(live, [&](unsigned l) {
        std::uint8_t *base = wp.params.data() + static_cast<size_t>(l) * pb;
        std::memmove(base + c.to, base + c.from, c.bytes);
      });
    wp.waiting = std::move(f.waiting);
    wp.minWait = f.minWait;
    if (live) {
      wp.mask = live;
      wp.moveTo(f.retPc);
      return;
    }
  }
}

namespace {

/// The executing lanes all jump over the memory instructions of Program::skips[in.skip]: one
/// skipped event each, except where lanes of the warp still wait at or before the instruction
/// (waiting groups all sit past the branch: min-PC order). Those lanes may run it in this same
/// pass over the code, and if ptxas predicated the region the warp executes it once in all, so
/// the skip is left to them. Lanes parked past the instruction (an enclosing divergent branch)
/// play no part: a predicated nest still executes the instruction once, with no lanes.
void emitSkips(Exec &x, const DInstr &in) {
  const std::uint32_t waitingFrom = x.w->minWait;
  for (const Program::Skip &s : x.prog->skips[in.skip]) {
    if (s.pc >= waitingFrom) break; // program order: the rest wait too
    model::AccessEvent e = s.event;
    e.block = x.blockLinear;
    e.warp = x.w->index;
    x.listener->onAccess(e);
  }
}

void bra(Exec &x, const DInstr &in, std::uint32_t m) {
  Warp &w = *x.w;
  std::uint32_t notTaken = w.mask & ~m;
  if (!notTaken) {
    if (in.skip != kNone) emitSkips(x, in);
    w.moveTo(in.target);
    return;
  }
  if (!m) { w.moveTo(w.pc + 1); return; }
  w.park(in.target, m);
  w.park(w.pc + 1, notTaken);
  w.selectNext();
}

void exitLanes(Exec &x, const DInstr &in, std::uint32_t m) {
  Warp &w = *x.w;
  w.exited |= m;
  w.mask &= ~m;
  if (w.mask) w.moveTo(w.pc + 1);
  else x.retireGroup();
}

void ret(Exec &x, const DInstr &in, std::uint32_t m) {
  Warp &w = *x.w;
  if (w.frames.empty()) { exitLanes(x, in, m); return; }
  w.mask &= ~m;
  if (w.mask) w.moveTo(w.pc + 1);
  else x.retireGroup();
}

void call(Exec &x, const DInstr &in, std::uint32_t m) {
  Warp &w = *x.w;
  if (!m) { w.moveTo(w.pc + 1); return; }
  if (w.frames.size() >= 64) { x.fail("call depth above 64 at " + x.prog->where(in)); return; }
  const CallInfo &ci = x.prog->calls[in.aux];
  std::uint32_t pb = x.prog->paramBytes;
  for (const auto &c : ci.args)
    forLanes(m, [&](unsigned l) {
      std::uint8_t *base = w.params.data() + static_cast<size_t>(l) * pb;
      std::memmove(base + c.to, base + c.from, c.bytes);
    });
  std::uint32_t rest = w.mask & ~m;
  if (rest) w.park(w.pc + 1, rest);
  Frame f;
  f.retPc = w.pc + 1;
  f.mask = m;
  f.call = in.aux;
  f.waiting = std::move(w.waiting);
  f.minWait = w.minWait;
  w.waiting.clear();
  w.minWait = kNone;
  w.frames.push_back(std::move(f));
  w.pc = in.target;
  w.mask = m;
}

void bar(Exec &x, const DInstr &in, std::uint32_t m) {
  Warp &w = *x.w;
  w.moveTo(w.pc + 1);
  if (in.k == 0) { // bar.sync / barrier.sync: wait for the block
    w.status = WarpStatus::AtBarrier;
    x.stop = true;
  }
}

void nop(Exec &, const DInstr &, std::uint32_t) {}

void shfl(Exec &x, const DInstr &in, std::uint32_t m) {
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]), *c = x.r(in.a[2]);
  std::uint32_t src[32];
  for (unsigned l = 0; l < 32; ++l) src[l] = std::uint32_t(a[l]);
  std::uint64_t *d = x.r(in.d[0]);
  std::uint32_t pbits = 0;
  forLanes(m, [&](unsigned lane) {
    std::uint32_t bval = b[lane] & 0x1f, cv = std::uint32_t(c[lane]);
    std::uint32_t clampv = cv & 0x1f, segmask = (cv >> 8) & 0x1f;
    std::uint32_t maxLane = (lane & segmask) | (clampv & ~segmask), minLane = lane & segmask;
    std::int32_t j = 0;
    bool pval = false;
    switch (in.shfl) {
    case ptx::ShflMode::Up: j = std::int32_t(lane) - std::int32_t(bval); pval = j >= std::int32_t(maxLane); break;
    case ptx::ShflMode::Down: j = std::int32_t(lane + bval); pval = j <= std::int32_t(maxLane); break;
    case ptx::ShflMode::Bfly: j = std::int32_t(lane ^ bval); pval = j <= std::int32_t(maxLane); break;
    default: j = std::int32_t(minLane | (bval & ~segmask)); pval = j <= std::int32_t(maxLane); break;
    }
    if (!pval || j < 0 || j > 31) j = std::int32_t(lane);
    d[lane] = src[j];
    if (pval) pbits |= 1u << lane;
  });
  writePred(x, in.d2, pbits, m);
}

void vote(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint32_t p = readPred(x, in, 0) & m;
  switch (in.vote) {
  case ptx::VoteMode::All: writePred(x, in.d[0], p == m ? ~0u : 0u, m); break;
  case ptx::VoteMode::Any: writePred(x, in.d[0], p != 0 ? ~0u : 0u, m); break;
  case ptx::VoteMode::Uni: writePred(x, in.d[0], (p == 0 || p == m) ? ~0u : 0u, m); break;
  default: {
    std::uint64_t *d = x.r(in.d[0]);
    forLanes(m, [&](unsigned l) { d[l] = p; });
  }
  }
}

void activemask(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  std::uint32_t v = x.w->mask;
  forLanes(m, [&](unsigned l) { d[l] = v; });
}

} // namespace

Handler selectControl(const ptx::Instruction &ins, std::string &err) {
  switch (ins.op) {
  case Opcode::Bra: return &bra;
  case Opcode::Call: return &call;
  case Opcode::Ret: return &ret;
  case Opcode::Exit: return &exitLanes;
  case Opcode::Bar: return &bar;
  case Opcode::BarWarp: case Opcode::Membar: case Opcode::Prefetch: case Opcode::Nop: return &nop;
  case Opcode::Shfl:
    if (ptx::typeBytes(ins.type) == 4) return &shfl;
    break;
  case Opcode::Vote: return &vote;
  case Opcode::Activemask: return &activemask;
  default: break;
  }
  err = "unsupported instruction '" + ins.opcodeText + "'";
  return nullptr;
}

} // namespace warplens::emu
