/// \file
/// Control opcode family of the SASS engine: BRA (with a condition predicate), BRX, CALL/RET (the
/// return address travels in a register), EXIT/KILL, BSSY/BSYNC/BREAK/BMOV (convergence barriers),
/// WARPSYNC, BAR (block barrier), BPT.TRAP, and the instructions with no effect on values or
/// counts here (NOP, YIELD, DEPBAR, MEMBAR, FENCE, ...). Handlers receive the group's whole mask
/// and apply the guard themselves; they move lanes between groups (see Engine.cpp's scheduler).
///
/// Which side of a divergent branch runs first, measured (H100, CUPTI SASS metrics per
/// instruction, 2026-11-25): the side with fewer lanes, the fall-through on a tie; the other side
/// waits until the running one blocks at a convergence barrier (BSYNC, WARPSYNC) or leaves, and
/// the waiting groups then resume last-suspended first, merged with every ready group at the same
/// pc. Groups that run do not merge where their paths meet. So every group that leaves a loop on
/// its own executes the loop's BSYNC on its own (gcd: 12.5 per warp, one per distinct exit trip),
/// and code reached by a break before the BSYNC runs once per such group (sdf_spheretrace's
/// shading: 34209 warp executions where merged groups would make 18253). Against the hardware's
/// per-instruction counts: bloom_probe_smem 51,215,272 warp instructions (measured 51,221,289; the
/// former lowest-pc-first order gave 49,783,583), poisson_knuth 41,128,464 (41,128,508; was
/// 39,687,680), gcd_euclid 38,377,390 (38,381,652; 37,626,946), heat_plate 8,939,136 (exact; was
/// 8,699,136), sdf_spheretrace 63,704,891 (63,958,575; 57,332,686).
#include "sassemu/Exec.h"

#include <algorithm>
#include <bit>
#include <map>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;

U32 guardOf(Exec &x, const Instr &in) {
  return in.guard.kind == OpKind::None ? ~0u : x.predMask(in.guard);
}

/// Sends `lanes` of the executing group to `target` (the rest go on at pc + 1).
void jump(Exec &x, U32 lanes, U32 target) {
  Group &g = *x.g;
  U32 stay = g.mask & ~lanes;
  if (!lanes) { ++g.pc; return; }
  x.regroup = true;
  if (!stay) { g.pc = target; return; }
  auto &gs = x.w->groups;
  const std::size_t at = static_cast<std::size_t>(&g - gs.data());
  // The smaller side runs first (ties: the fall-through); the other waits (Engine.cpp pick).
  const bool takenFirst = std::popcount(lanes) < std::popcount(stay);
  g.mask = stay;
  ++g.pc;
  gs.push_back(Group{target, lanes, GroupState::Run, 0}); // invalidates x.g
  if (!takenFirst) std::rotate(gs.begin() + static_cast<std::ptrdiff_t>(at), gs.begin() + static_cast<std::ptrdiff_t>(at) + 1, gs.end());
  x.g = nullptr;
}

/// Per-lane targets (RET, BRX): splits the group by destination.
void jumpPerLane(Exec &x, U32 lanes, const U32 *targetBytes, const Instr &in) {
  std::map<U32, U32> byTarget;
  for (unsigned l = 0; l < 32; ++l)
    if (lanes >> l & 1) {
      U32 t = targetBytes[l];
      if (t % 16 || t / 16 >= x.prog->code.size()) {
        x.fail("indirect jump to 0x" + [&] { char b[16]; std::snprintf(b, sizeof b, "%x", t); return std::string(b); }() +
               " outside the function by thread " + x.threadOf(l) + " block " + x.blockStr() + ", " + x.prog->where(in));
        return;
      }
      byTarget[t / 16] |= 1u << l;
    }
  Group &g = *x.g;
  U32 stay = g.mask & ~lanes;
  x.regroup = true;
  std::vector<Group> add;
  bool reuse = !stay;
  for (auto [t, mk] : byTarget) {
    if (reuse) { g.pc = t, g.mask = mk, reuse = false; continue; }
    add.push_back(Group{t, mk, GroupState::Run, 0});
  }
  if (stay) g.mask = stay, ++g.pc;
  for (const Group &n : add) x.w->groups.push_back(n);
  x.g = nullptr;
}

void hBra(Exec &x, const Instr &in, U32 m) {
  U32 take = m & guardOf(x, in);
  const Operand *target = nullptr;
  for (const Operand &o : in.ops) {
    if (o.kind == OpKind::Pred || o.kind == OpKind::UPred) take &= x.predMask(o);
    if (o.kind == OpKind::Label) target = &o;
  }
  jump(x, take, in.target);
  (void)target;
}

void hCall(Exec &x, const Instr &in, U32 m) { jump(x, m & guardOf(x, in), in.target); }

void hRet(Exec &x, const Instr &in, U32 m) { // RET.REL.NODEC Rn `(fn)  ·  BRX Rn
  U32 lanes = m & guardOf(x, in), t[32];
  x.fetch(in.ops[0], lanes, t, in);
  if (in.ops[0].kind == OpKind::Reg && in.flags) // BRX R, -0x..: relative to the next pc
    for (int l = 0; l < 32; ++l) t[l] = static_cast<U32>(t[l] + (x.g->pc + 1) * 16);
  jumpPerLane(x, lanes, t, in);
}

void hExit(Exec &x, const Instr &in, U32 m) {
  U32 lanes = m & guardOf(x, in);
  Group &g = *x.g;
  x.w->exited |= lanes;
  g.mask &= ~lanes;
  ++g.pc;
  if (lanes) x.regroup = true;
}

void hBssy(Exec &x, const Instr &in, U32 m) {
  x.w->b[in.ops[0].index] = m;
  ++x.g->pc;
}

void hBreak(Exec &x, const Instr &in, U32 m) {
  x.w->b[in.ops[0].index] &= ~(m & guardOf(x, in));
  ++x.g->pc;
}

/// BSYNC Bn: wait until every lane of Bn that has not exited is here.
void hBsync(Exec &x, const Instr &in, U32 m) {
  (void)m;
  Group &g = *x.g;
  auto &gs = x.w->groups;
  for (Group &o : gs)
    if (&o != &g && o.state == GroupState::BsyncWait && o.pc == g.pc) g.mask |= o.mask, o.mask = 0;
  U32 need = x.w->b[in.ops[0].index] & ~x.w->exited;
  x.regroup = true;
  if ((need & ~g.mask) == 0) { ++g.pc; return; }
  g.state = GroupState::BsyncWait;
  g.need = in.ops[0].index;
}

void hWarpsync(Exec &x, const Instr &in, U32 m) {
  (void)m;
  Group &g = *x.g;
  U32 need = x.w->launched;
  if (!in.ops.empty()) {
    U32 v[32];
    x.fetch(in.ops[0], g.mask, v, in);
    need = v[std::countr_zero(g.mask)];
  }
  need &= ~x.w->exited;
  auto &gs = x.w->groups;
  for (Group &o : gs)
    if (&o != &g && o.state == GroupState::WarpsyncWait && o.pc == g.pc) g.mask |= o.mask, o.mask = 0;
  x.regroup = true;
  if ((need & ~g.mask) == 0) { ++g.pc; return; }
  g.state = GroupState::WarpsyncWait;
  g.need = need;
}

void hBar(Exec &x, const Instr &in, U32 m) {
  (void)in, (void)m;
  Group &g = *x.g;
  ++g.pc;
  g.state = GroupState::BlockBarrier;
  x.regroup = true;
}

void hBmov(Exec &x, const Instr &in, U32 m) { // BMOV.32[.CLEAR] Rd, Bn  ·  BMOV.32 Bn, Ra
  const Operand &d = in.ops[0], &s = in.ops[1];
  if (d.kind == OpKind::Barrier) {
    U32 v[32];
    x.fetch(s, m, v, in);
    x.w->b[d.index] = v[std::countr_zero(m)];
  } else {
    U32 v[32];
    for (int l = 0; l < 32; ++l) v[l] = x.w->b[s.index];
    x.write(d, m, v);
    if (in.flags) x.w->b[s.index] = 0;
  }
  ++x.g->pc;
}

void hTrap(Exec &x, const Instr &in, U32 m) {
  U32 lanes = m & guardOf(x, in);
  if (!lanes) { ++x.g->pc; return; }
  unsigned l = unsigned(std::countr_zero(lanes));
  x.fail("trap (a failed assert or __trap) executed by thread " + x.threadOf(l) + " block " + x.blockStr() +
         ", " + x.prog->where(in));
}

void hNop(Exec &x, const Instr &, U32) { ++x.g->pc; }

} // namespace

std::string selectControl(Instr &in) {
  const std::string &b = in.base;
  in.control = true;
  auto label = [&]() -> bool {
    for (const Operand &o : in.ops)
      if (o.kind == OpKind::Label) { in.target = static_cast<std::uint32_t>(o.imm / 16); return true; }
    return false;
  };
  if ((b == "BRA" && hasMod(in, "DIV")) || (b == "WARPSYNC" && hasMod(in, "COLLECTIVE")))
    return selectWarpControl(in); // WarpOps.cpp
  if (b == "CALL" && !in.ops.empty() && in.ops[0].kind == OpKind::Reg) return selectDiag(in); // DiagOps.cpp
  if (b == "BRA") {
    if (!label()) return "BRA without a label target";
    if (hasMod(in, "DIV") || hasMod(in, "CONV")) return "BRA." + in.mods[0] + " is not supported";
    in.fn = hBra;
    return {};
  }
  if (b == "CALL") {
    if (!label()) return "indirect or external CALL is not supported";
    in.fn = hCall;
    return {};
  }
  if (b == "RET") {
    if (in.ops.empty() || in.ops[0].kind != OpKind::Reg) return "RET without a return-address register";
    in.fn = hRet;
    return {};
  }
  if (b == "BRX") {
    if (in.ops.empty() || in.ops[0].kind != OpKind::Reg) return "BRX without a register";
    in.flags = 1;
    in.fn = hRet;
    return {};
  }
  if (b == "EXIT" || b == "KILL") { in.fn = hExit; return {}; }
  if (b == "BSSY") { if (in.ops.empty() || in.ops[0].kind != OpKind::Barrier) return "BSSY without a barrier"; in.fn = hBssy; return {}; }
  if (b == "BSYNC") { if (in.ops.empty() || in.ops[0].kind != OpKind::Barrier) return "BSYNC without a barrier"; in.fn = hBsync; return {}; }
  if (b == "BREAK") { if (in.ops.empty() || in.ops[0].kind != OpKind::Barrier) return "BREAK without a barrier"; in.fn = hBreak; return {}; }
  if (b == "BMOV") {
    if (in.ops.size() != 2) return "BMOV form not supported";
    in.flags = hasMod(in, "CLEAR");
    in.fn = hBmov;
    return {};
  }
  if (b == "WARPSYNC") { in.fn = hWarpsync; return {}; }
  if (b == "BAR") {
    if (hasMod(in, "RED")) return selectWarpControl(in); // WarpOps.cpp (__syncthreads_count/and/or)
    if (hasMod(in, "SCAN")) return "BAR.SCAN is not supported";
    if (hasMod(in, "ARV")) { in.fn = hNop; return {}; }
    in.fn = hBar;
    return {};
  }
  if (b == "BPT") { in.fn = hTrap; return {}; }
  static const char *nops[] = {"NOP", "YIELD", "DEPBAR", "MEMBAR", "FENCE", "ERRBAR", "CCTL", "CGAERRBAR",
                               "NANOSLEEP", "PMTRIG", "CCTLL"};
  for (const char *n : nops)
    if (b == n) { in.fn = hNop; return {}; }
  return "not a control opcode";
}

} // namespace warplens::sassemu
