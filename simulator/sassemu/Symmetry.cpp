/// \file
/// Block symmetry (Symmetry.h): the forms of values across blocks, the per-opcode rules, and the
/// checks that make the representative's events stand for every other block's.
#include "sassemu/Symmetry.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;
using U64 = std::uint64_t;

constexpr I128 kOne = 1;
constexpr I128 k2_32 = kOne << 32;

/// floor(a / 2^k) (an arithmetic shift floors)
I128 fdiv(I128 a, unsigned k) { return a >> k; }
I128 fmod32(I128 a) { return a - fdiv(a, 32) * k2_32; }

Form add(const Form &a, const Form &b) {
  Form r;
  r.v = a.v + b.v;
  for (int i = 0; i < 3; ++i) r.c[i] = a.c[i] + b.c[i];
  return r;
}
Form scale(const Form &a, I128 k) {
  Form r;
  r.v = a.v * k;
  for (int i = 0; i < 3; ++i) r.c[i] = a.c[i] * k;
  return r;
}
Form constant(I128 v) {
  Form r;
  r.v = v;
  return r;
}
Val valOf(const Form &f) {
  Val x;
  x.f = f;
  x.t = f.moves() ? Taint::Affine : Taint::Same;
  return x;
}
/// x modulo 2^32 as a register form: -x, ~x = -x - 1.
Val negate(const Val &x) {
  if (x.t == Taint::Opaque) return x;
  return valOf(scale(x.f, -1));
}
Val lnot(const Val &x) {
  if (x.t == Taint::Opaque) return x;
  Form f = scale(x.f, -1);
  f.v -= 1;
  return valOf(f);
}
bool tainted(const Val &x) { return x.t != Taint::Same; }

const std::array<Val, 32> &allOf(Taint t) {
  static const std::array<Val, 32> opaque = [] { std::array<Val, 32> a; a.fill(Val::opaque()); return a; }();
  static const std::array<Val, 32> same{};
  return t == Taint::Opaque ? opaque : same;
}

std::string_view baseOf(const Instr &in) {
  std::string_view b = in.base;
  if (b.size() > 1 && b[0] == 'U' && b != "UMOV" && b != "UBLKCP") return b.substr(1);
  return b;
}

bool is64Form(const Instr &in) {
  if (!in.base.empty() && in.base[0] == 'D') return true;
  for (const std::string &m : in.mods)
    if (m.find("64") != std::string::npos || m == "WIDE") return true;
  return false;
}

} // namespace

Symmetry::Symmetry(const Program &prog, std::array<std::uint32_t, 3> grid, std::array<std::uint32_t, 3> rep,
                   std::uint32_t nWarps)
    : prog_(prog), grid_(grid), rep_(rep), warps_(nWarps) {
  regs_ = std::min<std::uint32_t>(256, prog.maxReg + 2);
  for (WarpForms &w : warps_) {
    w.rt.assign(std::size_t(regs_) * 32, 0);
    w.rf.assign(std::size_t(regs_) * 32, Form{});
    w.rmask.assign(regs_, 0);
  }
}

void Symmetry::fail(const Instr &in, const std::string &why) {
  if (why_.empty()) why_ = prog_.where(in) + ": " + why;
}

void Symmetry::ruleFail(const Instr &in, const std::string &why) {
  if (why_.empty()) ruleError_ = true;
  fail(in, why);
}

bool Symmetry::require(const Form &d, bool less) {
  if (constraints_.size() >= 4096) return false;
  std::array<I128, 4> key{d.c[0], d.c[1], d.c[2], less ? 1 : 0};
  auto [it, inserted] = constraints_.try_emplace(key, d.v);
  if (!inserted) it->second = less ? std::max(it->second, d.v) : std::min(it->second, d.v);
  return true;
}

bool Symmetry::admits(const std::array<std::uint32_t, 3> &b) const {
  for (const auto &[key, v] : constraints_) {
    I128 x = v;
    for (int i = 0; i < 3; ++i) x += key[i] * (I128(b[i]) - I128(rep_[i]));
    if (key[3] ? !(x < 0) : !(x >= 0)) return false;
  }
  for (const Span &sp : spans_) {
    I128 d = 0;
    for (int i = 0; i < 3; ++i) d += I128(coef[sp.group][i]) * (I128(b[i]) - I128(rep_[i]));
    if (sp.lo + d < I128(sp.base) || sp.hi + d > I128(sp.end)) return false;
  }
  return true;
}

Form Symmetry::norm(Form f) const {
  const I128 big = kOne << 90;
  bool large = f.v > big || f.v < -big;
  for (int i = 0; i < 3; ++i) large = large || f.c[i] > big || f.c[i] < -big;
  if (!large) return f;
  f.v = fmod32(f.v); // a register holds the form modulo 2^32: any representative will do
  for (int i = 0; i < 3; ++i) {
    f.c[i] = fmod32(f.c[i]);
    if (f.c[i] >= (kOne << 31)) f.c[i] -= k2_32;
  }
  return f;
}

bool Symmetry::rangeOf(const Form &f, I128 &lo, I128 &hi) const {
  lo = hi = f.v;
  if (!f.moves()) return true;
  for (const RangeMemo &m : memo_)
    if (f.c[0] == m.c[0] && f.c[1] == m.c[1] && f.c[2] == m.c[2]) {
      lo += m.lo, hi += m.hi;
      return true;
    }
  const I128 cap = kOne << 92;
  for (int i = 0; i < 3; ++i) {
    if (f.c[i] > cap || f.c[i] < -cap) return false;
    I128 a = f.c[i] * (0 - I128(rep_[i])), b = f.c[i] * (I128(grid_[i]) - 1 - I128(rep_[i]));
    lo += std::min(a, b);
    hi += std::max(a, b);
  }
  RangeMemo &m = memo_[memoNext_++ % std::size(memo_)];
  for (int i = 0; i < 3; ++i) m.c[i] = f.c[i];
  m.lo = lo - f.v, m.hi = hi - f.v;
  return true;
}

bool Symmetry::exact(const Val &x, bool isSigned, unsigned bits, Val &out) const {
  if (x.t == Taint::Opaque) return false;
  const I128 off = isSigned ? (kOne << (bits - 1)) : 0;
  I128 lo, hi;
  if (x.t == Taint::Same) lo = hi = x.f.v;
  else if (!rangeOf(x.f, lo, hi)) return false;
  I128 k = (lo + off) >> bits;
  if (((hi + off) >> bits) != k) return false;
  out = x;
  out.f.v -= k << bits;
  return true;
}

bool Symmetry::floorDiv(const Val &x, unsigned k, Val &out) const {
  if (x.t == Taint::Opaque || k > 100) return false;
  if (k == 0) { out = x; return true; }
  if (x.t == Taint::Same) { out = Val::same(fdiv(x.f.v, k)); return true; }
  I128 lo, hi;
  if (!rangeOf(x.f, lo, hi)) return false;
  if (fdiv(lo, k) == fdiv(hi, k)) { out = Val::same(fdiv(lo, k)); return true; }
  const I128 d = kOne << k;
  for (int i = 0; i < 3; ++i)
    if ((x.f.c[i] & (d - 1)) != 0) return false;
  Form f;
  f.v = fdiv(x.f.v, k);
  for (int i = 0; i < 3; ++i) f.c[i] = x.f.c[i] >> k;
  out = valOf(f);
  return true;
}

Val Symmetry::src(const Exec &x, const Operand &o, unsigned lane, const std::uint32_t *raw) {
  return src1(x, o, lane, raw[lane]);
}

Val Symmetry::src1(const Exec &x, const Operand &o, unsigned lane, std::uint32_t rawLane) {
  const WarpForms &w = warps_[x.w->index];
  auto regVal = [&](std::uint32_t idx) {
    if (idx == kRZ || idx >= regs_) return Val::same(idx == kRZ ? 0 : rawLane);
    std::size_t k = std::size_t(idx) * 32 + lane;
    if (w.rt[k] == std::uint8_t(Taint::Same)) return Val::same(rawLane);
    if (w.rt[k] == std::uint8_t(Taint::Opaque)) return Val::opaque();
    Val v;
    v.t = Taint::Affine;
    v.f = w.rf[k];
    return v;
  };
  auto uregVal = [&](std::uint32_t idx) {
    if (idx >= kURZ) return Val::same(idx == kURZ ? 0 : rawLane); // (a pair's second past UR62)
    if (w.urt[idx] == std::uint8_t(Taint::Same)) return Val::same(rawLane);
    if (w.urt[idx] == std::uint8_t(Taint::Opaque)) return Val::opaque();
    Val v;
    v.t = Taint::Affine;
    v.f = w.urf[idx];
    return v;
  };
  switch (o.kind) {
  case OpKind::Reg: return regVal(o.index);
  case OpKind::UReg: return uregVal(o.index);
  case OpKind::Const:
    if (o.idxKind == OpKind::Reg && o.idx != kRZ && o.idx < regs_ && w.rt[std::size_t(o.idx) * 32 + lane]) return Val::opaque();
    if (o.idxKind == OpKind::UReg && o.idx != kURZ && w.urt[o.idx]) return Val::opaque();
    return Val::same(rawLane);
  case OpKind::SReg: {
    auto id = static_cast<SReg>(o.index);
    if (id == SReg::CtaidX || id == SReg::CtaidY || id == SReg::CtaidZ) {
      int d = id == SReg::CtaidX ? 0 : id == SReg::CtaidY ? 1 : 2;
      Val v;
      v.f.v = rep_[d];
      v.f.c[d] = 1;
      v.t = grid_[d] > 1 ? Taint::Affine : Taint::Same;
      if (grid_[d] == 1) v.f.c[d] = 0;
      return v;
    }
    // The engine's clocks, SM ids and grid id are 0 in every block; SR_CgaCtaId is 0 outside
    // cluster launches (which are not replicated).
    return Val::same(rawLane);
  }
  case OpKind::Pred:
    return (o.index < kPT && (w.popaque[o.index] >> lane & 1)) ? Val::opaque() : Val::same(rawLane);
  case OpKind::UPred:
    return (o.index < kPT && w.upopaque[o.index]) ? Val::opaque() : Val::same(rawLane);
  default:
    return Val::same(rawLane);
  }
}

Val Symmetry::srcI(const Exec &x, const Operand &o, unsigned lane, const std::uint32_t *raw) {
  Val v = src(x, o, lane, raw);
  if (v.t == Taint::Same) {
    U32 a = raw[lane];
    if (o.neg) a = 0u - a;
    if (o.notp) a = ~a;
    return Val::same(a);
  }
  if (o.neg) v = negate(v);
  if (o.notp) v = lnot(v);
  return v;
}

Val Symmetry::pairVal(const Exec &x, const Operand &o, unsigned lane) {
  // o names the low register of a pair (Reg or UReg)
  Operand l = o, h = o;
  l.neg = l.notp = l.abs = false;
  h = l;
  h.index = o.index + 1;
  if (o.kind == OpKind::Reg && o.index == kRZ) return Val::same(0);
  if (o.kind == OpKind::UReg && o.index == kURZ) return Val::same(0);
  std::uint32_t lo = o.kind == OpKind::Reg ? x.w->r[l.index][lane] : x.w->ur[l.index];
  std::uint32_t hi = o.kind == OpKind::Reg ? x.w->r[h.index & 255][lane] : x.w->ur[h.index & 63];
  Val vl = src1(x, l, lane, lo), vh = src1(x, h, lane, hi);
  if (vl.t == Taint::Opaque || vh.t != Taint::Same) return Val::opaque();
  if (vl.t == Taint::Same) return Val::same((I128(U64(U32(vh.f.v))) << 32) | U64(U32(vl.f.v)));
  Val ul;
  if (!exact(vl, false, 32, ul)) return Val::opaque();
  ul.f.v += I128(U64(U32(vh.f.v))) << 32;
  return ul;
}

bool Symmetry::predOpaque(const Exec &x, const Operand &o, std::uint32_t lanes) const {
  const WarpForms &w = warps_[x.w->index];
  if (o.kind == OpKind::Pred) return o.index < kPT && (w.popaque[o.index] & lanes);
  if (o.kind == OpKind::UPred) return o.index < kPT && w.upopaque[o.index] && lanes;
  return false;
}

bool Symmetry::opTaint(const WarpForms &w, const Operand &o, std::uint32_t lanes, bool pair) const {
  auto reg = [&](std::uint32_t i) { return i != kRZ && i < regs_ && (w.rmask[i] & lanes); };
  auto ureg = [&](std::uint32_t i) { return i != kURZ && i < 64 && w.urt[i]; };
  switch (o.kind) {
  case OpKind::Reg: return reg(o.index) || ((pair || o.wide) && o.index != kRZ && reg(o.index + 1));
  case OpKind::UReg: return ureg(o.index) || ((pair || o.wide) && o.index != kURZ && ureg(o.index + 1));
  case OpKind::Pred: return o.index < kPT && (w.popaque[o.index] & lanes);
  case OpKind::UPred: return o.index < kPT && w.upopaque[o.index] && lanes;
  case OpKind::Const:
  case OpKind::Mem:
    if (o.idxKind == OpKind::Reg && (reg(o.idx) || (o.idxWide && o.idx != kRZ && reg(o.idx + 1)))) return true;
    if (o.idxKind == OpKind::UReg && (ureg(o.idx) || (o.idxWide && o.idx != kURZ && ureg(o.idx + 1)))) return true;
    return o.kind == OpKind::Mem && o.hasUidx && ureg(o.uidx);
  case OpKind::SReg: {
    auto id = static_cast<SReg>(o.index);
    return (id == SReg::CtaidX && grid_[0] > 1) || (id == SReg::CtaidY && grid_[1] > 1) || (id == SReg::CtaidZ && grid_[2] > 1);
  }
  default: return false;
  }
}

bool Symmetry::readsTaint(const Exec &x, const Instr &in, std::uint32_t lanes, std::size_t from) const {
  const WarpForms &w = warps_[x.w->index];
  const bool pair = is64Form(in);
  if (opTaint(w, in.guard, lanes, false)) return true;
  for (std::size_t k = from; k < in.ops.size(); ++k)
    if (opTaint(w, in.ops[k], lanes, pair)) return true;
  return false;
}

void Symmetry::pushWrite(OpKind kind, std::uint32_t index, std::uint32_t mask, const std::array<Val, 32> &v) {
  // RZ, URZ, PT and past them (the second register of a pair at R254/UR62+: the engine does not
  // write there either) are not tracked.
  if (kind == OpKind::Reg && index >= kRZ) return;
  if (kind == OpKind::UReg && index >= kURZ) return;
  if ((kind == OpKind::Pred || kind == OpKind::UPred) && index >= kPT) return;
  if (nWrites_ == std::size(writes_)) { why_ = "an instruction writes more than the proof tracks"; return; }
  Write &w = writes_[nWrites_++];
  w.kind = kind, w.index = index, w.mask = mask;
  for (std::uint32_t m = mask; m; m &= m - 1) w.v[std::countr_zero(m)] = v[std::countr_zero(m)];
}

void Symmetry::control(const Exec &x, const Instr &in, std::uint32_t m) {
  if (!ok()) return;
  if (predOpaque(x, in.guard, m)) return fail(in, "its guard differs between blocks");
  const WarpForms &w = warps_[x.w->index];
  for (std::size_t k = 0; k < in.ops.size(); ++k) {
    const Operand &o = in.ops[k];
    if ((o.kind == OpKind::Pred || o.kind == OpKind::UPred) && predOpaque(x, o, m))
      return fail(in, "a condition differs between blocks");
    if (in.base == "BMOV" && k == 0) continue; // its destination
    if (o.kind == OpKind::Reg && o.index != kRZ && o.index < regs_)
      for (unsigned l = 0; l < 32; ++l)
        if ((m >> l & 1) && w.rt[std::size_t(o.index) * 32 + l]) return fail(in, "an operand differs between blocks");
    if (o.kind == OpKind::UReg && o.index != kURZ && w.urt[o.index]) return fail(in, "an operand differs between blocks");
  }
  // A control instruction that writes a register (BMOV R, B) writes the same in every block.
  if (!in.ops.empty() && (in.ops[0].kind == OpKind::Reg || in.ops[0].kind == OpKind::UReg) && in.base == "BMOV") {
    WarpForms &wf = warps_[x.w->index];
    if (in.ops[0].kind == OpKind::Reg && in.ops[0].index < regs_)
      for (unsigned l = 0; l < 32; ++l)
        if (m >> l & 1) wf.rt[std::size_t(in.ops[0].index) * 32 + l] = 0, wf.rmask[in.ops[0].index] &= ~(1u << l);
    if (in.ops[0].kind == OpKind::UReg && in.ops[0].index != kURZ) wf.urt[in.ops[0].index] = 0;
  }
}

void Symmetry::before(Exec &x, const Instr &in, std::uint32_t m, std::uint32_t eff) {
  nWrites_ = 0;
  pendingAddr_ = false;
  if (!ok()) return;
  if (predOpaque(x, in.guard, m)) return fail(in, "its guard differs between blocks");
  if (!eff && !in.emit) return; // writes nothing
  if (!in.emit) {
    // Nothing read moves: whatever it writes is the same in every block (no rule needed).
    bool t = readsTaint(x, in, eff, 1);
    if (!t || !rule(x, in, eff)) generic(x, in, eff, t);
    return;
  }
  {
    const Operand *mem = nullptr;
    for (const Operand &o : in.ops)
      if (o.kind == OpKind::Mem) { mem = &o; break; }
    for (unsigned l = 0; l < 32; ++l) addr_[l] = Val::opaque();
    width_ = in.width;
    const WarpForms &wf = warps_[x.w->index];
    addrSame_ = false;
    if (mem && !opTaint(wf, *mem, eff, false)) { // the same address in every block
      std::uint64_t a[32];
      addressOf(x, *mem, a); // the spill tracking below keys on it
      for (unsigned l = 0; l < 32; ++l) addr_[l] = Val::same(a[l]);
      addrSame_ = true;
    } else if (mem) {
      addrSame_ = false;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(eff >> l & 1)) continue;
        Form a = constant(mem->off);
        Val base = Val::same(0);
        if (mem->idxKind == OpKind::Reg || mem->idxKind == OpKind::UReg) {
          Operand r;
          r.kind = mem->idxKind;
          r.index = mem->idx;
          if (mem->idxWide) {
            base = pairVal(x, r, l);
          } else {
            std::uint32_t rv = r.kind == OpKind::Reg ? (r.index == kRZ ? 0 : x.w->r[r.index][l]) : (r.index == kURZ ? 0 : x.w->ur[r.index]);
            Val v = src1(x, r, l, rv), u;
            base = exact(v, false, 32, u) ? valOf(scale(u.f, mem->idxScale)) : Val::opaque();
          }
        }
        if (base.t == Taint::Opaque) return fail(in, "its address differs between blocks other than by a move");
        a = add(a, base.f);
        if (mem->hasUidx && mem->uidx != kURZ) {
          Operand r;
          r.kind = OpKind::UReg;
          r.index = mem->uidx;
          Val v = src1(x, r, l, x.w->ur[r.index]), u;
          if (!exact(v, false, 32, u)) return fail(in, "its address differs between blocks other than by a move");
          a = add(a, u.f);
        }
        addr_[l] = valOf(a);
      }
    }
    pendingAddr_ = true;
    if (in.space == model::Space::Local && (in.base == "STL" || in.base == "LDL") && in.ops.size() >= 2) {
      // Spills: a thread's local words keep the forms stored in them (local addresses are the
      // same in every block). A word never stored here reads opaque (stale from another block).
      const bool store = in.base == "STL";
      const Operand &r = store ? in.ops[1] : in.ops[0];
      const unsigned words = std::max(1u, unsigned(in.width) / 4);
      std::array<std::array<Val, 32>, 4> ld;
      for (auto &a : ld) a.fill(Val::opaque());
      for (unsigned l = 0; l < 32; ++l) {
        if (!(eff >> l & 1)) continue;
        if (addr_[l].t != Taint::Same) return fail(in, "a local address differs between blocks");
        for (unsigned k = 0; k < words && k < 4; ++k) {
          // Keyed by the 4-byte word: a sub-word store (STL.U8 ...) makes its word opaque.
          std::uint64_t key = (std::uint64_t(x.w->index * 32 + l) << 32) | ((std::uint32_t(addr_[l].f.v) + 4 * k) & ~3u);
          if (store) {
            Val v = Val::opaque();
            if (in.width >= 4 && r.kind == OpKind::Reg) v = src1(x, Operand{OpKind::Reg, r.index == kRZ ? kRZ : r.index + k}, l,
                                                                  r.index == kRZ ? 0 : x.w->r[(r.index + k) & 255][l]);
            local_[key] = v;
          } else {
            auto it = local_.find(key);
            if (it != local_.end() && in.width >= 4) ld[k][l] = it->second;
          }
        }
      }
      if (!store && !in.noData && r.kind == OpKind::Reg)
        for (unsigned k = 0; k < words && k < 4; ++k) pushWrite(OpKind::Reg, r.index + k, eff, ld[k]);
      return;
    }
    bool writesData = (in.memOp == model::Op::Load && !in.noData) || in.memOp == model::Op::Atomic;
    if (writesData && !in.ops.empty() && (in.ops[0].kind == OpKind::Reg || in.ops[0].kind == OpKind::UReg)) {
      unsigned words = std::max(1u, unsigned(in.width) / 4);
      for (unsigned k = 0; k < words; ++k) pushWrite(in.ops[0].kind, in.ops[0].index + k, eff, allOf(Taint::Opaque)); // loaded values
    }
    for (std::size_t k = 1; k < in.ops.size(); ++k) // a load's predicate result (LDG P0, ...): opaque too
      if (writesData && (in.ops[k].kind == OpKind::Pred || in.ops[k].kind == OpKind::UPred) && k == 1) {
        pushWrite(in.ops[k].kind, in.ops[k].index, eff, allOf(Taint::Opaque));
      }
    return;
  }
}

void Symmetry::generic(Exec &x, const Instr &in, std::uint32_t eff, bool anyTaint) {
  // Destinations: the first operand (two registers for 64-bit forms, where the second is only
  // "maybe"), up to two predicates right after it, and a register after a predicate first one
  // (LOP3 P0, R5, ..., SHFL PT, R5, ...).
  std::pair<std::size_t, unsigned> defs[4]; // operand, registers
  unsigned nd = 0;
  std::size_t i = 0;
  if (!in.ops.empty()) {
    const Operand &d = in.ops[0];
    bool pred = d.kind == OpKind::Pred || d.kind == OpKind::UPred;
    defs[nd++] = {0, is64Form(in) || in.base == "CS2R" ? 2u : 1u};
    i = 1;
    unsigned np = pred ? 1 : 0;
    while (i < in.ops.size() && (in.ops[i].kind == OpKind::Pred || in.ops[i].kind == OpKind::UPred) && np < 2 &&
           i + 1 < in.ops.size())
      defs[nd++] = {i++, 1}, ++np;
    if (pred && i == 1 && i < in.ops.size() && (in.ops[i].kind == OpKind::Reg || in.ops[i].kind == OpKind::UReg))
      defs[nd++] = {i++, 1};
  }
  (void)i; // every operand after the first counts as read (readsTaint from 1): a register taken
           // for a destination here that is in fact a source does not escape (conservative)
  for (unsigned di = 0; di < nd; ++di) {
    auto [k, n] = defs[di];
    const Operand &d = in.ops[k];
    const std::array<Val, 32> &v = allOf(anyTaint ? Taint::Opaque : Taint::Same);
    if (d.kind == OpKind::Reg || d.kind == OpKind::UReg) {
      pushWrite(d.kind, d.index, eff, v);
      // A 64-bit form's second register: surely written by CS2R R, SRZ, LDC.64, the .WIDE forms
      // and the double-precision arithmetic (same in every block when nothing read moves); maybe
      // written otherwise: opaque if anything read moves, else same where it was same before and
      // opaque where it moved (it may now hold a value the same in every block: a kept form
      // would be stale).
      bool surely = in.base == "CS2R" || ((in.base == "LDC" || in.base == "ULDC") && hasMod(in, "64")) ||
                    hasMod(in, "WIDE") || in.base == "DADD" || in.base == "DMUL" || in.base == "DFMA";
      if (n == 2 && (anyTaint || surely)) pushWrite(d.kind, d.index + 1, eff, v);
      else if (n == 2) {
        const WarpForms &w = warps_[x.w->index];
        const std::uint32_t r = d.index + 1;
        std::array<Val, 32> &m = scratch_[0];
        bool moved = false;
        for (unsigned l = 0; l < 32; ++l) {
          bool same = d.kind == OpKind::UReg ? r >= kURZ || w.urt[r] == std::uint8_t(Taint::Same)
                                             : r >= regs_ || w.rt[std::size_t(r) * 32 + l] == std::uint8_t(Taint::Same);
          m[l] = same ? Val::same(0) : Val::opaque();
          moved = moved || !same;
        }
        if (moved) pushWrite(d.kind, r, eff, m);
      }
    } else if (d.kind == OpKind::Pred || d.kind == OpKind::UPred) {
      pushWrite(d.kind, d.index, eff, v);
    }
  }
}

bool Symmetry::rule(Exec &x, const Instr &in, std::uint32_t eff) {
  const std::string_view b = baseOf(in);
  const bool u32 = hasMod(in, "U32");
  auto fetchRaw = [&](const Operand &o, std::uint32_t *raw) { x.fetch(o, eff ? eff : 1, raw, in); };
  auto anyTainted = [&](std::initializer_list<const Operand *> ops) {
    std::uint32_t raw[32];
    for (const Operand *o : ops) {
      fetchRaw(*o, raw);
      for (unsigned l = 0; l < 32; ++l)
        if ((eff >> l & 1) && tainted(src(x, *o, l, raw))) return true;
    }
    return false;
  };
  std::array<Val, 32> &d = scratch_[0], &hiOut = scratch_[1], &p0 = scratch_[2], &p1 = scratch_[3];
  for (std::uint32_t mm = eff; mm; mm &= mm - 1) {
    unsigned l = unsigned(std::countr_zero(mm));
    d[l] = hiOut[l] = p0[l] = p1[l] = Val::opaque();
  }
  auto lanes = [&](auto &&f) {
    for (unsigned l = 0; l < 32; ++l)
      if (eff >> l & 1) f(l);
  };
  // Layout: destination, then up to two predicate outputs (as IntOps.cpp's layoutOf).
  unsigned src0 = 1, predOuts[2] = {0, 0}, nPredOut = 0;
  while (src0 < in.ops.size() && (in.ops[src0].kind == OpKind::Pred || in.ops[src0].kind == OpKind::UPred) && nPredOut < 2 &&
         src0 + 1 < in.ops.size())
    predOuts[nPredOut++] = src0++;
  auto carryIn = [&](unsigned first, unsigned lane, bool &opq) {
    U32 c = 0;
    for (unsigned i = first; i < in.ops.size(); ++i)
      if (in.ops[i].kind == OpKind::Pred || in.ops[i].kind == OpKind::UPred) {
        if (predOpaque(x, in.ops[i], 1u << lane)) opq = true;
        c += (x.predMask(in.ops[i]) >> lane) & 1;
      }
    return c;
  };
  // The 33-bit carry-chain term of an operand (IntOps.cpp fetchCarryTerm): -x = ~x + 1.
  auto carryTerm = [&](const Val &raw, const Operand &o, Val &t) {
    Val u;
    if (!exact(raw, false, 32, u)) return false;
    Form a = u.f;
    if (o.notp) { a = scale(a, -1); a.v += k2_32 - 1; }
    if (o.neg) { a = scale(a, -1); a.v += k2_32; }
    t = valOf(a);
    return true;
  };
  auto carryOuts = [&](const Form &sum, unsigned lane, bool exactOk) {
    if (!nPredOut) return;
    Val h;
    if (exactOk && floorDiv(valOf(sum), 32, h) && h.t == Taint::Same) {
      p0[lane] = Val::same(U64(h.f.v) & 1);
      p1[lane] = Val::same((U64(h.f.v) >> 1) & 1);
    }
  };
  auto finish = [&](bool pair) {
    pushWrite(in.ops[0].kind, in.ops[0].index, eff, d);
    if (pair) pushWrite(in.ops[0].kind, in.ops[0].index + 1, eff, hiOut);
    if (nPredOut > 0) pushWrite(in.ops[predOuts[0]].kind, in.ops[predOuts[0]].index, eff, p0);
    if (nPredOut > 1) pushWrite(in.ops[predOuts[1]].kind, in.ops[predOuts[1]].index, eff, p1);
    return true;
  };

  if (b == "MOV" || b == "UMOV" || b == "MOV32I" || b == "S2R" || b == "S2UR" || b == "IMOV") {
    if (in.ops.size() < 2) return false;
    std::uint32_t raw[32];
    fetchRaw(in.ops[1], raw);
    lanes([&](unsigned l) { d[l] = srcI(x, in.ops[1], l, raw); });
    nPredOut = 0;
    return finish(false);
  }
  if (b == "R2UR") {
    const Operand &s = in.ops[in.ops.size() - 1];
    if (in.ops[0].kind != OpKind::UReg) return false;
    std::uint32_t raw[32];
    fetchRaw(s, raw);
    lanes([&](unsigned l) { d[l] = src(x, s, l, raw); });
    pushWrite(OpKind::UReg, in.ops[0].index, eff, d);
    return true;
  }
  if (b == "CS2R") {
    if (in.ops.size() < 2 || in.ops[1].kind != OpKind::SReg) return false;
    auto id = static_cast<SReg>(in.ops[1].index);
    if (id == SReg::CtaidX || id == SReg::CtaidY || id == SReg::CtaidZ) return false;
    return false; // generic: no tainted source -> same in every block
  }
  if (b == "IMAD") {
    const bool wide = hasMod(in, "WIDE"), hi = hasMod(in, "HI"), xx = hasMod(in, "X");
    if (hi) return false;
    if (in.ops.size() < src0 + 3) return false;
    const Operand &oa = in.ops[src0], &ob = in.ops[src0 + 1], &oc = in.ops[src0 + 2];
    if (!anyTainted({&oa, &ob, &oc}) && !xx) return false; // generic: same in every block
    std::uint32_t ra[32], rb[32], rc[32];
    fetchRaw(oa, ra), fetchRaw(ob, rb), fetchRaw(oc, rc);
    bool bad = false;
    lanes([&](unsigned l) {
      if (bad) return;
      bool opq = false;
      U32 cin = xx ? carryIn(src0 + 3, l, opq) : 0;
      Val a = srcI(x, oa, l, ra), bb = srcI(x, ob, l, rb);
      if (opq || a.t == Taint::Opaque || bb.t == Taint::Opaque || (tainted(a) && tainted(bb))) { bad = true; return; }
      if (wide) {
        Val ia, ib;
        if (!exact(a, !u32, 32, ia) || !exact(bb, !u32, 32, ib)) { bad = true; return; }
        Form prod = tainted(ia) ? scale(ia.f, ib.f.v) : scale(ib.f, ia.f.v);
        Val c64;
        if (oc.kind == OpKind::Reg || oc.kind == OpKind::UReg) c64 = pairVal(x, oc, l);
        else {
          std::uint64_t cv[32];
          x.fetch64(oc, eff, cv, in, false);
          c64 = Val::same(cv[l]);
        }
        if (c64.t == Taint::Opaque) { bad = true; return; }
        if (oc.neg && c64.t == Taint::Affine) { bad = true; return; } // (fetch64 negates modulo 2^64)
        Form X = add(add(prod, c64.f), constant(cin));
        // The engine keeps X modulo 2^64: equal to X when X stays inside one 2^64 window.
        Val x64;
        if (!exact(valOf(X), false, 64, x64)) { bad = true; return; }
        d[l] = valOf(norm(x64.f));
        Val h;
        if (floorDiv(x64, 32, h)) hiOut[l] = valOf(norm(h.f));
        if (nPredOut) p0[l] = Val::same(0); // no carry out of a 64-bit sum inside one window
        return;
      }
      Val c = src(x, oc, l, rc);
      if (c.t == Taint::Opaque) { bad = true; return; }
      Form prod = tainted(a) ? scale(a.f, U32(bb.f.v)) : scale(bb.f, U32(a.f.v));
      Val cm = c;
      if (oc.neg) cm = negate(cm);
      if (oc.notp) cm = lnot(cm);
      if (c.t == Taint::Same) {
        U32 cv = rc[l];
        if (oc.neg) cv = 0u - cv;
        if (oc.notp) cv = ~cv;
        cm = Val::same(cv);
      }
      Form sum = add(add(prod, cm.f), constant(cin));
      d[l] = valOf(norm(sum));
      if (nPredOut) { // carry out: exact 33-bit sum
        Val pe, t;
        if (exact(valOf(prod), false, 32, pe) && carryTerm(c, oc, t))
          carryOuts(add(add(pe.f, t.f), constant(cin)), l, true);
      }
    });
    if (bad) return false;
    return finish(wide);
  }
  if (b == "IADD3") {
    const bool xx = hasMod(in, "X");
    const Operand &oa = in.ops[src0], &ob = in.ops[src0 + 1];
    bool hasC = src0 + 2 < in.ops.size() && in.ops[src0 + 2].kind != OpKind::Pred && in.ops[src0 + 2].kind != OpKind::UPred;
    Operand zero;
    zero.kind = OpKind::Imm;
    const Operand &oc = hasC ? in.ops[src0 + 2] : zero;
    if (!anyTainted({&oa, &ob, &oc}) && !xx) return false;
    std::uint32_t ra[32], rb[32], rc[32];
    fetchRaw(oa, ra), fetchRaw(ob, rb);
    if (hasC) fetchRaw(oc, rc);
    else std::memset(rc, 0, sizeof rc);
    bool bad = false;
    lanes([&](unsigned l) {
      if (bad) return;
      bool opq = false;
      U32 cin = xx ? carryIn(src0 + 3, l, opq) : 0;
      Val a = src(x, oa, l, ra), bb = src(x, ob, l, rb), c = src(x, oc, l, rc);
      if (opq || a.t == Taint::Opaque || bb.t == Taint::Opaque || c.t == Taint::Opaque) { bad = true; return; }
      Val ta, tb, tc;
      bool ex = carryTerm(a, oa, ta) && carryTerm(bb, ob, tb) && carryTerm(c, oc, tc);
      Form sum;
      if (ex) {
        sum = add(add(add(ta.f, tb.f), tc.f), constant(cin));
      } else { // modulo 2^32 only: -x and ~x as forms
        sum = add(add(add(srcI(x, oa, l, ra).f, srcI(x, ob, l, rb).f), srcI(x, oc, l, rc).f), constant(cin));
      }
      d[l] = valOf(norm(sum));
      carryOuts(sum, l, ex);
    });
    if (bad) return false;
    return finish(false);
  }
  if (b == "VIADD" || b == "IADD") {
    if (in.ops.size() < 3) return false;
    if (!anyTainted({&in.ops[1], &in.ops[2]})) return false;
    std::uint32_t ra[32], rb[32];
    fetchRaw(in.ops[1], ra), fetchRaw(in.ops[2], rb);
    bool bad = false;
    lanes([&](unsigned l) {
      Val a = srcI(x, in.ops[1], l, ra), bb = srcI(x, in.ops[2], l, rb);
      if (a.t == Taint::Opaque || bb.t == Taint::Opaque) bad = true;
      else d[l] = valOf(norm(add(a.f, bb.f)));
    });
    if (bad) return false;
    nPredOut = 0;
    return finish(false);
  }
  if (b == "LEA") {
    const bool hi = hasMod(in, "HI"), sx = hasMod(in, "SX32"), xx = hasMod(in, "X");
    unsigned i = src0;
    const Operand &oa = in.ops[i], &ob = in.ops[i + 1];
    unsigned si = i + 2;
    const Operand *oc = nullptr;
    if (hi && !sx) oc = &in.ops[i + 2], si = i + 3;
    const Operand &os = in.ops[si];
    std::vector<const Operand *> all = {&oa, &ob, &os};
    if (oc) all.push_back(oc);
    bool any = false;
    {
      std::uint32_t raw[32];
      for (const Operand *o : all) {
        fetchRaw(*o, raw);
        for (unsigned l = 0; l < 32; ++l)
          if ((eff >> l & 1) && tainted(src(x, *o, l, raw))) any = true;
      }
    }
    if (!any && !xx) return false;
    std::uint32_t ra[32], rb[32], rc[32], rs[32];
    fetchRaw(oa, ra), fetchRaw(ob, rb), fetchRaw(os, rs);
    if (oc) fetchRaw(*oc, rc);
    bool bad = false;
    lanes([&](unsigned l) {
      if (bad) return;
      Val s = src(x, os, l, rs);
      if (tainted(s)) { bad = true; return; }
      unsigned sh = U32(s.f.v) & 31;
      bool opq = false;
      U32 cin = xx ? carryIn(si + 1, l, opq) : 0;
      Val a = srcI(x, oa, l, ra), bv = src(x, ob, l, rb);
      if (opq || a.t == Taint::Opaque || bv.t == Taint::Opaque) { bad = true; return; }
      Val part;
      if (!hi) {
        part = valOf(scale(a.f, kOne << sh));
      } else {
        Val base;
        if (sx) {
          if (!exact(a, true, 32, base)) { bad = true; return; }
        } else {
          Val cv = srcI(x, *oc, l, rc), ua;
          if (tainted(cv) || !exact(a, false, 32, ua)) { bad = true; return; }
          base = valOf(add(ua.f, constant(I128(U32(cv.f.v)) << 32)));
        }
        if (!floorDiv(base, 32 - sh, part)) { bad = true; return; }
      }
      Val tb;
      Val pe;
      bool ex = carryTerm(bv, ob, tb) && exact(part, false, 32, pe);
      Form bm = srcI(x, ob, l, rb).f;
      Form sum = ex ? add(add(pe.f, tb.f), constant(cin)) : add(add(part.f, bm), constant(cin));
      d[l] = valOf(norm(sum));
      carryOuts(sum, l, ex);
    });
    if (bad) return false;
    return finish(false);
  }
  if (b == "SHF") {
    if (in.ops.size() < 4) return false;
    const bool left = hasMod(in, "L"), sgn = hasMod(in, "S32") || hasMod(in, "S64"),
               w64 = hasMod(in, "U64") || hasMod(in, "S64"), hi = hasMod(in, "HI"), wrap = hasMod(in, "W");
    if (!anyTainted({&in.ops[1], &in.ops[2], &in.ops[3]})) return false;
    std::uint32_t rl[32], rs[32], rh[32];
    fetchRaw(in.ops[1], rl), fetchRaw(in.ops[2], rs), fetchRaw(in.ops[3], rh);
    bool bad = false;
    lanes([&](unsigned l) {
      if (bad) return;
      Val lo = srcI(x, in.ops[1], l, rl), s = src(x, in.ops[2], l, rs), h = srcI(x, in.ops[3], l, rh);
      if (tainted(s) || lo.t == Taint::Opaque || h.t == Taint::Opaque) { bad = true; return; }
      unsigned max = w64 ? 64 : 32;
      unsigned sh = wrap ? (U32(s.f.v) & (max - 1)) : std::min<U32>(U32(s.f.v), max);
      if (left) {
        if (!hi) { // low word of (h:lo) << sh
          d[l] = sh >= 32 ? Val::same(0) : valOf(norm(scale(lo.f, kOne << sh)));
          return;
        }
        if (sh >= 64) { d[l] = Val::same(0); return; }
        if (sh >= 32) { d[l] = valOf(norm(scale(lo.f, kOne << (sh - 32)))); return; }
        Val ul, part;
        if (!exact(lo, false, 32, ul) || !floorDiv(valOf(scale(ul.f, kOne << sh)), 32, part)) { bad = true; return; }
        d[l] = valOf(norm(add(scale(h.f, kOne << sh), part.f)));
        return;
      }
      Val ih, ul, r;
      if (!exact(h, sgn, 32, ih) || !exact(lo, false, 32, ul)) { bad = true; return; }
      Form v = add(scale(ih.f, k2_32), ul.f);
      if (!floorDiv(valOf(v), sh + (hi ? 32 : 0), r)) { bad = true; return; }
      d[l] = valOf(norm(r.f));
    });
    if (bad) return false;
    nPredOut = 0;
    return finish(false);
  }
  if (b == "LOP3") {
    unsigned i = 0;
    const Operand *pd = nullptr;
    if (in.ops[0].kind == OpKind::Pred || in.ops[0].kind == OpKind::UPred) pd = &in.ops[0], i = 1;
    if (in.ops.size() < i + 5) return false;
    const Operand &od = in.ops[i];
    const Operand *srcs[3] = {&in.ops[i + 1], &in.ops[i + 2], &in.ops[i + 3]};
    if (!anyTainted({srcs[0], srcs[1], srcs[2]})) return false;
    if (pd && pd->index != kPT) return false; // the zero test of a moving value: generic (opaque)
    std::uint32_t raw[3][32], rlut[32];
    for (int k = 0; k < 3; ++k) fetchRaw(*srcs[k], raw[k]);
    fetchRaw(in.ops[i + 4], rlut);
    bool bad = false;
    lanes([&](unsigned l) {
      if (bad) return;
      Val v[3];
      int t = -1;
      for (int k = 0; k < 3; ++k) {
        v[k] = srcI(x, *srcs[k], l, raw[k]);
        if (v[k].t == Taint::Opaque) { bad = true; return; }
        if (v[k].t == Taint::Affine) {
          if (t >= 0) { bad = true; return; }
          t = k;
        }
      }
      if (t < 0) return; // (cannot happen: anyTainted)
      unsigned K = 32;
      for (int j = 0; j < 3; ++j)
        if (v[t].f.c[j] != 0) {
          I128 c = v[t].f.c[j] < 0 ? -v[t].f.c[j] : v[t].f.c[j];
          unsigned z = 0;
          while (z < 32 && ((c >> z) & 1) == 0) ++z;
          K = std::min(K, z);
        }
      U32 vals[3];
      for (int k = 0; k < 3; ++k) vals[k] = U32(U64(fmod32(v[k].f.v)));
      U32 lut = rlut[l] & 0xff;
      auto f = [&](U32 a, U32 bb, U32 c) {
        U32 r = 0;
        for (int q = 0; q < 8; ++q)
          if (lut >> q & 1) r |= ((q & 4) ? a : ~a) & ((q & 2) ? bb : ~bb) & ((q & 1) ? c : ~c);
        return r;
      };
      U32 r0 = f(vals[0], vals[1], vals[2]);
      U32 low = K >= 32 ? ~0u : ((1u << K) - 1);
      // The result's bits at K and above as functions of the moving operand's bits.
      U32 in0[3] = {vals[0], vals[1], vals[2]}, in1[3] = {vals[0], vals[1], vals[2]};
      in0[t] = 0, in1[t] = ~0u;
      U32 f0 = f(in0[0], in0[1], in0[2]) & ~low, f1 = f(in1[0], in1[1], in1[2]) & ~low;
      U32 same = ~(f0 ^ f1) & ~low, id = ~f0 & f1 & ~low, inv = f0 & ~f1 & ~low;
      if (same == (~low)) { d[l] = Val::same(r0); return; }
      Form xf = v[t].f;
      if (id == (~low)) {
        Form r = add(xf, constant(-I128(vals[t] & low) + I128(r0 & low)));
        d[l] = valOf(norm(r));
        return;
      }
      if (inv == (~low)) {
        Form r = scale(xf, -1);
        r.v -= 1;
        r = add(r, constant(-I128((~vals[t]) & low) + I128(r0 & low)));
        d[l] = valOf(norm(r));
        return;
      }
      bad = true;
    });
    if (bad) return false;
    pushWrite(od.kind, od.index, eff, d);
    return true;
  }
  if (b == "ISETP" || b == "IMNMX" || b == "VIMNMX") {
    const bool isSetp = b == "ISETP";
    if (in.ops.size() < (isSetp ? 5u : 4u)) return false;
    const Operand &oa = in.ops[isSetp ? 2 : 1], &ob = in.ops[isSetp ? 3 : 2];
    if (!anyTainted({&oa, &ob})) return false;
    if (isSetp && hasMod(in, "EX")) return false; // generic: opaque
    static const char *names[] = {"F", "LT", "EQ", "LE", "GT", "NE", "GE", "T"};
    int cmp = -1;
    if (isSetp) {
      for (int k = 0; k < 8; ++k)
        if (hasMod(in, names[k])) cmp = k;
      if (cmp < 0) return false;
    }
    std::uint32_t ra[32], rb[32];
    fetchRaw(oa, ra), fetchRaw(ob, rb);
    const Operand &op = in.ops[isSetp ? 4 : 3];
    bool bad = false;
    lanes([&](unsigned l) {
      if (bad) return;
      if (predOpaque(x, op, 1u << l)) { bad = true; return; }
      Val a = srcI(x, oa, l, ra), bv = srcI(x, ob, l, rb), ia, ib;
      if (!exact(a, !u32, 32, ia) || !exact(bv, !u32, 32, ib)) { bad = true; return; }
      Form diff = add(ia.f, scale(ib.f, -1));
      I128 lo, hi;
      if (!rangeOf(diff, lo, hi)) { bad = true; return; }
      int lt = hi < 0 ? 1 : lo >= 0 ? 0 : -1; // a < b in every block / in none
      if (!isSetp) {
        if (lt < 0) { // differs between blocks: the representative's choice, under a constraint
          if (!require(diff, diff.v < 0)) { bad = true; return; }
          lt = diff.v < 0 ? 1 : 0;
        }
        bool mn = x.predMask(op) >> l & 1;
        bool pickA = mn ? lt == 1 : lt == 0;
        Val chosen = pickA ? ia : ib;
        d[l] = valOf(norm(chosen.f));
        return;
      }
      int r = -1;
      int eq = (lo == 0 && hi == 0) ? 1 : (lo > 0 || hi < 0) ? 0 : -1;
      int gt = lo > 0 ? 1 : hi <= 0 ? 0 : -1;
      switch (cmp) {
      case 0: r = 0; break;
      case 1: r = lt; break;
      case 2: r = eq; break;
      case 3: r = gt < 0 ? -1 : 1 - gt; break;
      case 4: r = gt; break;
      case 5: r = eq < 0 ? -1 : 1 - eq; break;
      case 6: r = lt < 0 ? -1 : 1 - lt; break;
      default: r = 1; break;
      }
      if (r < 0) {
        // Differs between blocks: keep the representative's outcome and record the condition
        // under which another block's is the same (Symmetry::admits); EQ/NE only where equal.
        Form m1 = diff;
        m1.v -= 1;
        const bool lt0 = diff.v < 0, eq0 = diff.v == 0, le0 = diff.v <= 0;
        bool ok = true;
        switch (cmp) {
        case 1: ok = require(diff, lt0); break;            // LT: D < 0
        case 6: ok = require(diff, lt0); break;            // GE: !(D < 0)
        case 3: ok = require(m1, le0); break;              // LE: D - 1 < 0
        case 4: ok = require(m1, le0); break;              // GT: !(D - 1 < 0)
        case 2:
        case 5:                                            // EQ / NE: only the equal case
          ok = eq0 && require(m1, true) && require(diff, false);
          break;
        default: ok = false; break;
        }
        if (!ok) return; // stays opaque
      }
      p0[l] = Val::same(0), p1[l] = Val::same(0); // same in every (admitted) block (values: the engine's)
    });
    if (bad) return false;
    if (!isSetp) {
      nPredOut = 0;
      return finish(false);
    }
    pushWrite(in.ops[0].kind, in.ops[0].index, eff, p0);
    pushWrite(in.ops[1].kind, in.ops[1].index, eff, p1);
    return true;
  }
  if (b == "SEL") {
    if (in.ops.size() < 4) return false;
    if (!anyTainted({&in.ops[1], &in.ops[2]})) return false;
    std::uint32_t ra[32], rb[32];
    fetchRaw(in.ops[1], ra), fetchRaw(in.ops[2], rb);
    bool bad = false;
    lanes([&](unsigned l) {
      if (predOpaque(x, in.ops[3], 1u << l)) { bad = true; return; }
      bool p = x.predMask(in.ops[3]) >> l & 1;
      d[l] = p ? srcI(x, in.ops[1], l, ra) : srcI(x, in.ops[2], l, rb);
      if (d[l].t == Taint::Affine) d[l] = valOf(norm(d[l].f));
    });
    if (bad) return false;
    nPredOut = 0;
    return finish(false);
  }
  return false;
}

void Symmetry::after(Exec &x, const Instr &in, std::uint32_t eff) {
  pendingAddr_ = false;
  if (!ok()) return;
  WarpForms &w = warps_[x.w->index];
  for (unsigned wi = 0; wi < nWrites_; ++wi) {
    const Write &wr = writes_[wi];
    switch (wr.kind) {
    case OpKind::Reg: {
      if (wr.index >= regs_) {
        for (unsigned l = 0; l < 32; ++l)
          if ((wr.mask >> l & 1) && wr.v[l].t != Taint::Same) return fail(in, "writes a moving value past the tracked registers");
        break;
      }
      for (unsigned l = 0; l < 32; ++l) {
        if (!(wr.mask >> l & 1)) continue;
        const Val &v = wr.v[l];
        std::size_t k = std::size_t(wr.index) * 32 + l;
        if (v.t == Taint::Affine && U32(U64(fmod32(v.f.v))) != x.w->r[wr.index][l]) {
          if (std::getenv("WARPLENS_SASS_SYMMETRY"))
            std::fprintf(stderr, "symmetry: %s lane %u: form %llx, engine %x\n", in.text.c_str(), l,
                         static_cast<unsigned long long>(U64(fmod32(v.f.v))), x.w->r[wr.index][l]);
          return ruleFail(in, "a rule disagrees with the engine (rule error)");
        }
        w.rt[k] = std::uint8_t(v.t);
        if (v.t == Taint::Affine) w.rf[k] = v.f;
        if (v.t == Taint::Same) w.rmask[wr.index] &= ~(1u << l);
        else w.rmask[wr.index] |= 1u << l;
      }
      break;
    }
    case OpKind::UReg: {
      if (!wr.mask) break;
      unsigned l = unsigned(std::countr_zero(wr.mask));
      const Val &v = wr.v[l];
      if (v.t == Taint::Affine && U32(U64(fmod32(v.f.v))) != x.w->ur[wr.index])
        return ruleFail(in, "a rule disagrees with the engine (rule error)");
      w.urt[wr.index] = std::uint8_t(v.t);
      if (v.t == Taint::Affine) w.urf[wr.index] = v.f;
      break;
    }
    case OpKind::Pred:
      for (unsigned l = 0; l < 32; ++l)
        if (wr.mask >> l & 1) {
          if (wr.v[l].t == Taint::Opaque) w.popaque[wr.index] |= 1u << l;
          else w.popaque[wr.index] &= ~(1u << l);
        }
      break;
    case OpKind::UPred:
      if (wr.mask) w.upopaque[wr.index] = wr.v[std::countr_zero(wr.mask)].t == Taint::Opaque;
      break;
    default:
      break;
    }
  }
  nWrites_ = 0;
}

void Symmetry::onEvent(const model::AccessEvent &e) {
  if (!ok()) return;
  const Instr *in = nullptr;
  std::size_t idx = e.site;
  if (idx < prog_.code.size()) in = &prog_.code[idx];
  if (!pendingAddr_ || !in) {
    why_ = "an access event without a tracked address (site " + std::to_string(e.site) + ")";
    return;
  }
  if (e.space == model::Space::Local && in->base != "STL" && in->base != "LDL")
    return fail(*in, "a generic access reaches local memory (spill forms are tracked for STL/LDL only)");
  std::array<std::int64_t, 3> c{0, 0, 0};
  bool first = true;
  for (unsigned l = 0; l < 32 && !addrSame_; ++l) { // (addrSame_: no lane moves)
    if (!e.active.test(l)) continue;
    const Val &a = addr_[l];
    if (a.t == Taint::Opaque) return fail(*in, "an active lane's address is not tracked");
    std::array<std::int64_t, 3> cl;
    for (int d = 0; d < 3; ++d) {
      if (a.f.c[d] > (kOne << 40) || a.f.c[d] < -(kOne << 40)) return fail(*in, "its address moves too far per block");
      cl[d] = std::int64_t(a.f.c[d]);
    }
    if (first) c = cl, first = false;
    else if (cl != c) return fail(*in, "its lanes' addresses move differently between blocks");
    if (!a.f.moves()) continue;
    if (e.space != model::Space::Global) return fail(*in, "a shared or local address moves between blocks");
    if (U64(a.f.v) != e.addr[l].value) return ruleFail(*in, "the tracked address disagrees with the engine's");
    if (!prog_.bufferAt(e.addr[l].value)) return fail(*in, "a moving access outside every buffer");
  }
  std::uint32_t g = 0;
  while (g < coef.size() && coef[g] != c) ++g;
  if (g == coef.size()) coef.push_back(c);
  // The group's byte span per buffer: admits() checks it moved to each replica.
  if (c != std::array<std::int64_t, 3>{0, 0, 0})
    for (unsigned l = 0; l < 32 && !addrSame_; ++l) {
      if (!e.active.test(l)) continue;
      const Buffer *buf = prog_.bufferAt(e.addr[l].value);
      I128 lo = I128(e.addr[l].value), hi = lo + std::max<unsigned>(1, e.widthBytes);
      Span *sp = nullptr;
      for (Span &x : spans_)
        if (x.group == g && x.base == buf->base) { sp = &x; break; }
      if (!sp) {
        if (spans_.size() >= 4096) return fail(*in, "too many buffers and moves to track");
        spans_.push_back({g, buf->base, buf->base + buf->size, lo, hi});
      } else {
        sp->lo = std::min(sp->lo, lo), sp->hi = std::max(sp->hi, hi);
      }
    }
  events.push_back(e);
  group.push_back(g);
}

} // namespace warplens::sassemu
