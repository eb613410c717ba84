/// \file
/// Warp-collective family of the SASS engine: REDUX (redux.sync: SUM, MIN, MAX, AND, OR, XOR,
/// signed with .S32) into a uniform register, MATCH.ANY / MATCH.ALL (match.sync, 32 and 64
/// bit), BAR.RED + B2R.RESULT (__syncthreads_count/and/or), BRA.DIV (the converged-warp test in front of cooperative-groups collectives) and the
/// divergent slow path it guards (WARPSYNC.COLLECTIVE ... ENDCOLLECTIVE), which is reported as
/// unsupported when a warp actually takes it. The executing lanes are the SIMT group's lanes
/// after the guard: ptxas only reaches these instructions with the member mask converged.
#include "sassemu/Exec.h"

#include <algorithm>
#include <bit>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;
using U64 = std::uint64_t;

enum Redux : U32 { kSum, kMin, kMax, kAnd, kOr, kXor };

/// REDUX.OP[.S32] URd, Ra
void hRedux(Exec &x, const Instr &in, U32 m) {
  if (!m) return;
  U32 v[32];
  x.fetch(in.ops[1], m, v, in);
  bool sgn = in.flags & 1;
  U32 acc = 0;
  bool first = true;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    U32 a = v[l];
    if (first) { acc = a, first = false; continue; }
    switch (Redux(in.sub)) {
    case kSum: acc += a; break;
    case kMin: acc = sgn ? U32(std::min(std::int32_t(acc), std::int32_t(a))) : std::min(acc, a); break;
    case kMax: acc = sgn ? U32(std::max(std::int32_t(acc), std::int32_t(a))) : std::max(acc, a); break;
    case kAnd: acc &= a; break;
    case kOr: acc |= a; break;
    case kXor: acc ^= a; break;
    }
  }
  U32 out[32];
  for (int l = 0; l < 32; ++l) out[l] = acc;
  x.write(in.ops[0], m, out);
}

/// MATCH.ANY[.U64] Rd, Ra  ·  MATCH.ALL[.U64] Pd, Rd, Ra
void hMatch(Exec &x, const Instr &in, U32 m) {
  bool all = in.sub == 1;
  const Operand &src = in.ops[all ? 2 : 1];
  U64 v[32];
  if (in.flags & 1) x.fetch64(src, m, v, in, false);
  else { U32 t[32]; x.fetch(src, m, t, in); for (int l = 0; l < 32; ++l) v[l] = t[l]; }
  U32 d[32] = {};
  if (all) {
    bool same = true;
    int f = m ? std::countr_zero(m) : 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((m >> l & 1) && v[l] != v[f]) same = false;
    for (int l = 0; l < 32; ++l) d[l] = same ? m : 0;
    x.writePred(in.ops[0], m, same ? ~0u : 0u);
    x.write(in.ops[1], m, d);
    return;
  }
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    U32 peers = 0;
    for (unsigned k = 0; k < 32; ++k)
      if ((m >> k & 1) && v[k] == v[l]) peers |= 1u << k;
    d[l] = peers;
  }
  x.write(in.ops[0], m, d);
}

/// BRA.DIV URmask, target: the whole group jumps when a lane of the member mask that has not
/// exited is missing from it (the warp is diverged); otherwise it falls through to the
/// converged fast path.
void hBraDiv(Exec &x, const Instr &in, U32 m) {
  Group &g = *x.g;
  U32 guard = in.guard.kind == OpKind::None ? ~0u : x.predMask(in.guard);
  U32 mask[32];
  x.fetch(in.ops[0], m, mask, in);
  U32 lanes = m & guard;
  if (!lanes) { ++g.pc; return; }
  U32 members = mask[std::countr_zero(lanes)] & x.w->launched & ~x.w->exited;
  bool diverged = (members & ~g.mask) != 0;
  if (!diverged) { ++g.pc; return; }
  x.fail("divergent warp collective: lanes " + std::to_string(std::popcount(lanes)) + " of member mask 0x" +
         [&] { char b[16]; std::snprintf(b, sizeof b, "%08x", mask[std::countr_zero(lanes)]); return std::string(b); }() +
         " reach it apart (the WARPSYNC.COLLECTIVE slow path is not supported) in thread " +
         x.threadOf(unsigned(std::countr_zero(lanes))) + " block " + x.blockStr() + ", " + x.prog->where(in));
}

void hCollective(Exec &x, const Instr &in, U32 m) {
  unsigned l = m ? unsigned(std::countr_zero(m)) : 0;
  x.fail("divergent warp collective (" + in.base + ") is not supported, thread " + x.threadOf(l) + " block " +
         x.blockStr() + ", " + x.prog->where(in));
}

enum BarRed : U32 { kPopc, kBarAnd, kBarOr };

/// Block-level state of BAR.RED for the current block (reset when the block changes).
void barRedReset(Exec &x) {
  if (x.barRedBlock == x.blockLinear) return;
  x.barRedBlock = x.blockLinear;
  x.barRedGen.clear();
  x.barRedAcc.clear();
}

/// BAR.RED.{POPC,AND,OR}[.DEFER_BLOCKING] 0x0, [!]Pp: the block barrier that also reduces the
/// predicate over the block's arriving threads (__syncthreads_count/and/or). The n-th BAR.RED
/// a warp executes joins the block's n-th reduction.
void hBarRed(Exec &x, const Instr &in, U32 m) {
  barRedReset(x);
  unsigned w = x.w->index;
  if (x.barRedGen.size() <= w) x.barRedGen.resize(w + 1, 0);
  U32 gen = x.barRedGen[w]++;
  if (x.barRedAcc.size() <= gen) x.barRedAcc.resize(gen + 1, {0, 0, 0});
  U32 pred = in.ops.size() > 1 ? x.predMask(in.ops[1]) : ~0u;
  auto &acc = x.barRedAcc[gen];
  acc[0] = in.sub;
  acc[1] += unsigned(std::popcount(m & pred));
  acc[2] += unsigned(std::popcount(m));
  Group &g = *x.g;
  ++g.pc;
  g.state = GroupState::BlockBarrier;
  x.regroup = true;
}

/// B2R.RESULT Rd[, Pd]: the result of the warp's latest BAR.RED (count, or 1/0 for AND/OR).
void hB2r(Exec &x, const Instr &in, U32 m) {
  barRedReset(x);
  unsigned w = x.w->index;
  if (x.barRedGen.size() <= w || x.barRedGen[w] == 0) {
    x.fail("B2R.RESULT without a preceding BAR.RED in " + x.prog->where(in));
    return;
  }
  const auto &acc = x.barRedAcc[x.barRedGen[w] - 1];
  U32 r = acc[0] == kPopc ? acc[1] : acc[0] == kBarAnd ? U32(acc[1] == acc[2]) : U32(acc[1] > 0);
  U32 d[32];
  for (int l = 0; l < 32; ++l) d[l] = r;
  x.write(in.ops[0], m, d);
  if (in.ops.size() > 1 && in.ops[1].kind == OpKind::Pred) x.writePred(in.ops[1], m, r ? ~0u : 0u);
}

} // namespace

std::string selectWarp(Instr &in) {
  const std::string &b = in.base;
  if (b == "REDUX") {
    struct R { const char *name; Redux op; };
    static const R ops[] = {{"SUM", kSum}, {"MIN", kMin}, {"MAX", kMax}, {"AND", kAnd}, {"OR", kOr}, {"XOR", kXor}};
    bool found = false;
    for (const R &r : ops)
      if (hasMod(in, r.name)) in.sub = r.op, found = true;
    if (!found || in.ops.size() != 2) return "REDUX form '" + in.opcode + "' is not supported";
    in.flags = hasMod(in, "S32") ? 1 : 0;
    in.fn = hRedux;
    return {};
  }
  if (b == "MATCH") {
    in.flags = hasMod(in, "U64") ? 1 : 0;
    if (hasMod(in, "ANY") && in.ops.size() == 2) { in.sub = 0; in.fn = hMatch; return {}; }
    if (hasMod(in, "ALL") && in.ops.size() == 3 && in.ops[0].kind == OpKind::Pred) { in.sub = 1; in.fn = hMatch; return {}; }
    return "MATCH form '" + in.opcode + "' is not supported";
  }
  if (b == "ENDCOLLECTIVE") { in.control = true; in.fn = hCollective; return {}; }
  if (b == "B2R") {
    if (!hasMod(in, "RESULT") || in.ops.empty()) return "B2R form '" + in.opcode + "' is not supported";
    in.fn = hB2r;
    return {};
  }
  return "not a warp-collective opcode";
}

/// BRA.DIV and WARPSYNC.COLLECTIVE are forms of control opcodes: the control selector hands
/// them here (see selectControl in CtrlOps.cpp).
std::string selectWarpControl(Instr &in) {
  in.control = true;
  if (in.base == "BRA" && hasMod(in, "DIV")) {
    if (in.ops.empty() || (in.ops[0].kind != OpKind::UReg && in.ops[0].kind != OpKind::Reg))
      return "BRA.DIV without a member-mask register";
    in.fn = hBraDiv;
    return {};
  }
  if (in.base == "WARPSYNC" && hasMod(in, "COLLECTIVE")) { in.fn = hCollective; return {}; }
  if (in.base == "BAR" && hasMod(in, "RED")) {
    if (hasMod(in, "POPC")) in.sub = kPopc;
    else if (hasMod(in, "AND")) in.sub = kBarAnd;
    else if (hasMod(in, "OR")) in.sub = kBarOr;
    else return "BAR.RED form '" + in.opcode + "' is not supported";
    if (in.ops.empty() || in.ops[0].kind != OpKind::Imm || in.ops[0].imm != 0)
      return "BAR.RED on a named barrier other than 0 is not supported";
    if (in.ops.size() > 1 && in.ops[1].kind != OpKind::Pred) return "BAR.RED predicate operand expected";
    in.fn = hBarRed;
    return {};
  }
  return "not a warp-collective control form";
}

} // namespace warplens::sassemu
