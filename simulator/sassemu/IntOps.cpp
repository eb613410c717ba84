/// \file
/// Integer opcode family of the SASS engine: IMAD (and .WIDE/.HI/.X/.MOV/.IADD/.SHL), IADD3,
/// VIADD, LEA(.HI/.X/.SX32), LOP3, SHF, ISETP(.EX), SEL, IMNMX/VIMNMX/VIMNMX3, IABS, POPC, FLO, BREV,
/// PRMT (and its modes), BMSK, SGXT, PLOP3, VABSDIFF, VIADDMNMX — and their uniform-datapath
/// forms (UIMAD, UIADD3, ULEA, ...).
/// Carries follow the hardware's two's-complement view: `-x` is ~x + 1 inside a carry chain.
#include "sassemu/Exec.h"

#include <algorithm>
#include <bit>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;
using U64 = std::uint64_t;

enum Flags : U32 {
  kWide = 1, kHi = 2, kU32 = 4, kX = 8, kSx32 = 16, kLeft = 32, kW = 64, kS = 128, k64 = 256,
};

/// Index of the first operand after the destination(s): predicates between them are outputs.
struct Layout {
  unsigned dst = 0, predOuts[2] = {0, 0}, nPredOut = 0, src = 1;
};
Layout layoutOf(const Instr &in) {
  Layout l;
  unsigned i = 1;
  while (i < in.ops.size() && (in.ops[i].kind == OpKind::Pred || in.ops[i].kind == OpKind::UPred) && l.nPredOut < 2 &&
         i + 1 < in.ops.size())
    l.predOuts[l.nPredOut++] = i++;
  l.src = i;
  return l;
}

/// Trailing predicate operands (carry-ins) after `first`.
U32 carryIn(Exec &x, const Instr &in, unsigned first, unsigned lane) {
  U32 c = 0;
  for (unsigned i = first; i < in.ops.size(); ++i)
    if (in.ops[i].kind == OpKind::Pred || in.ops[i].kind == OpKind::UPred) c += (x.predMask(in.ops[i]) >> lane) & 1;
  return c;
}

/// 33-bit view of an integer operand for carry chains: -x = ~x + 1 (so -0 carries).
void fetchCarryTerm(Exec &x, const Operand &o, U32 mask, U64 *out, const Instr &in) {
  U32 v[32];
  x.fetch(o, mask, v, in);
  for (int l = 0; l < 32; ++l) {
    U32 a = o.notp ? ~v[l] : v[l];
    out[l] = o.neg ? U64(U32(~a)) + 1 : U64(a);
  }
}

void hImad(Exec &x, const Instr &in, U32 m) {
  Layout L = layoutOf(in);
  const Operand &oa = in.ops[L.src], &ob = in.ops[L.src + 1], &oc = in.ops[L.src + 2];
  U32 a[32], b[32];
  x.fetchI(oa, m, a, in);
  x.fetchI(ob, m, b, in);
  bool sgn = !(in.flags & kU32);
  if (in.flags & kWide) {
    U64 c[32], d[32];
    U32 co = 0;
    x.fetch64(oc, m, c, in, false);
    for (int l = 0; l < 32; ++l) {
      U64 p = sgn ? U64(std::int64_t(std::int32_t(a[l])) * std::int64_t(std::int32_t(b[l]))) : U64(a[l]) * b[l];
      unsigned __int128 s = (unsigned __int128)p + c[l] + ((in.flags & kX) ? carryIn(x, in, L.src + 3, l) : 0);
      d[l] = U64(s);
      co |= U32(s >> 64 & 1) << l;
    }
    x.write64(in.ops[0], m, d);
    if (L.nPredOut) x.writePred(in.ops[L.predOuts[0]], m, co); // IMAD.WIDE.U32 d, P, a, b, c
    return;
  }
  U32 d[32];
  U32 co = 0;
  if (in.flags & kHi) {
    // IMAD.HI d, a, b, c: the high word of a*b + c, where c is the 64-bit pair (c+1:c). ptxas
    // relies on it: "IMAD.HI.U32 R0, R9, R11, R8" with R8 = 0 is the Newton step q + hi(q*e).
    U64 c[32];
    x.fetch64(oc, m, c, in, false);
    for (int l = 0; l < 32; ++l) {
      __int128 p = sgn ? __int128(std::int64_t(std::int32_t(a[l])) * std::int64_t(std::int32_t(b[l])))
                       : __int128(U64(a[l]) * b[l]);
      unsigned __int128 s = (unsigned __int128)p + c[l] + ((in.flags & kX) ? carryIn(x, in, L.src + 3, l) : 0);
      d[l] = U32(s >> 32);
      co |= U32(s >> 64 & 1) << l;
    }
  } else {
    U64 c[32];
    fetchCarryTerm(x, oc, m, c, in);
    for (int l = 0; l < 32; ++l) {
      U64 s = U64(U32(a[l] * b[l])) + c[l] + ((in.flags & kX) ? carryIn(x, in, L.src + 3, l) : 0);
      d[l] = U32(s);
      co |= U32((s >> 32) & 1) << l;
    }
  }
  x.write(in.ops[0], m, d);
  if (L.nPredOut) x.writePred(in.ops[L.predOuts[0]], m, co);
}

void hIadd3(Exec &x, const Instr &in, U32 m) {
  Layout L = layoutOf(in);
  U64 a[32], b[32], c[32];
  fetchCarryTerm(x, in.ops[L.src], m, a, in);
  fetchCarryTerm(x, in.ops[L.src + 1], m, b, in);
  if (L.src + 2 < in.ops.size() && in.ops[L.src + 2].kind != OpKind::Pred && in.ops[L.src + 2].kind != OpKind::UPred)
    fetchCarryTerm(x, in.ops[L.src + 2], m, c, in);
  else
    std::fill(c, c + 32, 0);
  U32 d[32], c0 = 0, c1 = 0;
  for (int l = 0; l < 32; ++l) {
    U64 s = a[l] + b[l] + c[l] + ((in.flags & kX) ? carryIn(x, in, L.src + 3, l) : 0);
    U64 hi = s >> 32; // negated terms entered as ~x + 1, so this is the hardware's carry
    d[l] = U32(s);
    // Two carry-outs hold the count (0..2) as a sum, which IADD3.X adds back as P0 + P1: a
    // 64-bit a - b - c (low words a + ~b + 1 + ~c + 1) carries twice when nothing borrows.
    if (L.nPredOut > 1) {
      c0 |= U32(hi >= 1) << l;
      c1 |= U32(hi >= 2) << l;
    } else {
      c0 |= U32(hi & 1) << l;
    }
  }
  x.write(in.ops[0], m, d);
  if (L.nPredOut > 0) x.writePred(in.ops[L.predOuts[0]], m, c0);
  if (L.nPredOut > 1) x.writePred(in.ops[L.predOuts[1]], m, c1);
}

void hViadd(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], d[32];
  x.fetchI(in.ops[1], m, a, in);
  x.fetchI(in.ops[2], m, b, in);
  for (int l = 0; l < 32; ++l) d[l] = a[l] + b[l];
  x.write(in.ops[0], m, d);
}

/// LEA d, [Pco], a, b, s [,Pci]  ·  LEA.HI d, [Pco], a, b, c, s [,Pci]  ·  LEA.HI.SX32 d, a, b, s
void hLea(Exec &x, const Instr &in, U32 m) {
  Layout L = layoutOf(in);
  unsigned i = L.src;
  U32 a[32], b[32], c[32], s[32];
  x.fetchI(in.ops[i], m, a, in);
  U64 bb[32];
  fetchCarryTerm(x, in.ops[i + 1], m, bb, in);
  (void)b;
  bool hi = in.flags & kHi;
  unsigned si = i + 2;
  if (hi && !(in.flags & kSx32)) { x.fetchI(in.ops[i + 2], m, c, in); si = i + 3; }
  x.fetch(in.ops[si], m, s, in);
  U32 d[32], co = 0;
  for (int l = 0; l < 32; ++l) {
    unsigned sh = s[l] & 31;
    U32 part;
    if (hi) {
      U32 cc = (in.flags & kSx32) ? U32(std::int32_t(a[l]) >> 31) : c[l];
      U64 v = (U64(cc) << 32) | a[l];
      part = U32(v >> (32 - sh));
    } else {
      part = a[l] << sh;
    }
    U64 sum = U64(part) + bb[l] + ((in.flags & kX) ? carryIn(x, in, si + 1, l) : 0);
    d[l] = U32(sum);
    co |= U32((sum >> 32) & 1) << l;
  }
  x.write(in.ops[0], m, d);
  if (L.nPredOut) x.writePred(in.ops[L.predOuts[0]], m, co);
}

inline U32 lut3(U32 lut, U32 a, U32 b, U32 c) {
  U32 r = 0;
  for (int i = 0; i < 8; ++i)
    if (lut >> i & 1) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  return r;
}

/// LOP3.LUT [Pd,] d, a, b, c, lut, Pq: d = lut(a,b,c); Pd = (d != 0) | Pq.
void hLop3(Exec &x, const Instr &in, U32 m) {
  unsigned i = 0;
  const Operand *pd = nullptr;
  if (in.ops[0].kind == OpKind::Pred || in.ops[0].kind == OpKind::UPred) pd = &in.ops[0], i = 1;
  const Operand &od = in.ops[i];
  U32 a[32], b[32], c[32], lut[32];
  x.fetchI(in.ops[i + 1], m, a, in);
  x.fetchI(in.ops[i + 2], m, b, in);
  x.fetchI(in.ops[i + 3], m, c, in);
  x.fetch(in.ops[i + 4], m, lut, in);
  U32 d[32], nz = 0;
  for (int l = 0; l < 32; ++l) {
    d[l] = lut3(lut[l] & 0xff, a[l], b[l], c[l]);
    nz |= U32(d[l] != 0) << l;
  }
  x.write(od, m, d);
  if (pd) {
    U32 q = i + 5 < in.ops.size() ? x.predMask(in.ops[i + 5]) : 0;
    x.writePred(*pd, m, nz | q);
  }
}

/// PLOP3.LUT Pd, Pe, a, b, c, lut, lut2
void hPlop3(Exec &x, const Instr &in, U32 m) {
  U32 a = x.predMask(in.ops[2]), b = x.predMask(in.ops[3]), c = x.predMask(in.ops[4]);
  U32 lutA = static_cast<U32>(in.ops[5].imm) & 0xff, lutB = in.ops.size() > 6 ? static_cast<U32>(in.ops[6].imm) & 0xff : 0;
  x.writePred(in.ops[0], m, lut3(lutA, a, b, c));
  x.writePred(in.ops[1], m, lut3(lutB, a, b, c));
}

/// SHF.{L,R}.{U32,S32,U64,S64}[.HI][.W] d, lo, shift, hi
void hShf(Exec &x, const Instr &in, U32 m) {
  U32 lo[32], s[32], hi[32], d[32];
  x.fetchI(in.ops[1], m, lo, in);
  x.fetch(in.ops[2], m, s, in);
  x.fetchI(in.ops[3], m, hi, in);
  unsigned max = (in.flags & k64) ? 64 : 32;
  for (int l = 0; l < 32; ++l) {
    unsigned sh = (in.flags & kW) ? (s[l] & (max - 1)) : std::min<U32>(s[l], max);
    U64 v = (U64(hi[l]) << 32) | lo[l];
    U64 r;
    if (in.flags & kLeft) {
      r = sh >= 64 ? 0 : v << sh;
    } else if (in.flags & kS) {
      r = U64(sh >= 64 ? std::int64_t(v) >> 63 : std::int64_t(v) >> sh);
    } else {
      r = sh >= 64 ? 0 : v >> sh;
    }
    d[l] = (in.flags & kHi) ? U32(r >> 32) : U32(r);
  }
  x.write(in.ops[0], m, d);
}

enum Cmp : U32 { kF, kLT, kEQ, kLE, kGT, kNE, kGE, kT };
Cmp cmpOf(const Instr &in, bool &ok) {
  static const char *names[] = {"F", "LT", "EQ", "LE", "GT", "NE", "GE", "T"};
  for (const auto &mod : in.mods)
    for (U32 i = 0; i < 8; ++i)
      if (mod == names[i]) { ok = true; return Cmp(i); }
  ok = false;
  return kF;
}
template <class T> bool cmpApply(Cmp c, T a, T b) {
  switch (c) {
  case kLT: return a < b;
  case kEQ: return a == b;
  case kLE: return a <= b;
  case kGT: return a > b;
  case kNE: return a != b;
  case kGE: return a >= b;
  case kT: return true;
  default: return false;
  }
}

/// ISETP.cmp[.U32].bool[.EX] Pd, Pe, a, b, Pc [, Pex]
void hIsetp(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32];
  x.fetchI(in.ops[2], m, a, in);
  x.fetchI(in.ops[3], m, b, in);
  U32 pc = x.predMask(in.ops[4]);
  U32 pex = in.ops.size() > 5 ? x.predMask(in.ops[5]) : 0;
  Cmp c = Cmp(in.sub);
  U32 r = 0;
  for (int l = 0; l < 32; ++l) {
    bool v;
    if (in.flags & kX) {
      bool eq = a[l] == b[l], lowRes = pex >> l & 1;
      Cmp strict = c == kGE ? kGT : c == kLE ? kLT : c;
      if (c == kEQ) v = eq && lowRes;
      else if (c == kNE) v = !eq || lowRes;
      else {
        bool s = (in.flags & kU32) ? cmpApply(strict, a[l], b[l]) : cmpApply(strict, std::int32_t(a[l]), std::int32_t(b[l]));
        v = s || (eq && lowRes);
      }
    } else {
      v = (in.flags & kU32) ? cmpApply(c, a[l], b[l]) : cmpApply(c, std::int32_t(a[l]), std::int32_t(b[l]));
    }
    r |= U32(v) << l;
  }
  U32 p0, p1;
  switch (in.boolOp) {
  case 2: p0 = r | pc, p1 = ~r | pc; break;
  case 3: p0 = r ^ pc, p1 = ~r ^ pc; break;
  default: p0 = r & pc, p1 = ~r & pc; break;
  }
  x.writePred(in.ops[0], m, p0);
  x.writePred(in.ops[1], m, p1);
}

void hSel(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], d[32];
  x.fetchI(in.ops[1], m, a, in);
  x.fetchI(in.ops[2], m, b, in);
  U32 p = x.predMask(in.ops[3]);
  for (int l = 0; l < 32; ++l) d[l] = (p >> l & 1) ? a[l] : b[l];
  x.write(in.ops[0], m, d);
}

/// IMNMX/VIMNMX d, a, b, P: P → min, !P → max.
void hMnmx(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], d[32];
  x.fetchI(in.ops[1], m, a, in);
  x.fetchI(in.ops[2], m, b, in);
  U32 p = x.predMask(in.ops[3]);
  for (int l = 0; l < 32; ++l) {
    bool mn = p >> l & 1;
    if (in.flags & kU32) d[l] = mn ? std::min(a[l], b[l]) : std::max(a[l], b[l]);
    else d[l] = U32(mn ? std::min(std::int32_t(a[l]), std::int32_t(b[l])) : std::max(std::int32_t(a[l]), std::int32_t(b[l])));
  }
  x.write(in.ops[0], m, d);
}

/// VIMNMX3 d, a, b, c, P (sm_90, three inputs): P → min, !P → max of the three, as IMNMX
/// (nvcc 13: max(max(x, y), z) is "VIMNMX3 R9, R0, R7, R6, !PT", min "..., PT").
void hMnmx3(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], c[32], d[32];
  x.fetchI(in.ops[1], m, a, in);
  x.fetchI(in.ops[2], m, b, in);
  x.fetchI(in.ops[3], m, c, in);
  U32 p = x.predMask(in.ops[4]);
  for (int l = 0; l < 32; ++l) {
    bool mn = p >> l & 1;
    if (in.flags & kU32) d[l] = mn ? std::min({a[l], b[l], c[l]}) : std::max({a[l], b[l], c[l]});
    else {
      const std::int32_t sa = std::int32_t(a[l]), sb = std::int32_t(b[l]), sc = std::int32_t(c[l]);
      d[l] = U32(mn ? std::min({sa, sb, sc}) : std::max({sa, sb, sc}));
    }
  }
  x.write(in.ops[0], m, d);
}

enum Unary : U32 { kAbs, kPopc, kFlo, kBrev, kSgxt, kBmsk };
void hUnary(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], d[32];
  unsigned src = 1;
  if (in.sub == kFlo && in.ops.size() > 2 && in.ops[1].kind == OpKind::Pred) src = 2; // FLO d, P, a
  x.fetchI(in.ops[src], m, a, in);
  if (in.sub == kSgxt || in.sub == kBmsk) x.fetch(in.ops[src + 1], m, b, in);
  for (int l = 0; l < 32; ++l) {
    U32 v = a[l];
    switch (in.sub) {
    case kAbs: d[l] = U32(std::int32_t(v) < 0 ? 0u - v : v); break;
    case kPopc: d[l] = U32(std::popcount(v)); break;
    case kFlo: {
      U32 t = (in.flags & kU32) ? v : (std::int32_t(v) < 0 ? ~v : v);
      U32 msb = t ? 31u - U32(std::countl_zero(t)) : 0xffffffffu;
      d[l] = (in.flags & kS) && t ? 31u - msb : msb; // .SH: shift amount
      break;
    }
    case kBrev: d[l] = [](U32 y) { U32 r = 0; for (int i = 0; i < 32; ++i) r |= ((y >> i) & 1u) << (31 - i); return r; }(v); break;
    case kSgxt: { // .W: width modulo 32 (GPU: szext.wrap of width 65 is width 1, of 64 is 0)
      U32 n = (in.flags & kW) ? (b[l] & 31) : std::min<U32>(b[l], 32);
      if (n == 0) d[l] = 0;
      else if (n >= 32) d[l] = v;
      else if (in.flags & kU32) d[l] = v & ((1u << n) - 1);
      else d[l] = U32(std::int32_t(v << (32 - n)) >> (32 - n));
      break;
    }
    case kBmsk: { // BMSK d, pos, width
      U32 pos = (in.flags & kW) ? v & 31 : std::min<U32>(v, 32), w = (in.flags & kW) ? b[l] & 31 : std::min<U32>(b[l], 32);
      U64 mk = ((U64(1) << w) - 1) << pos;
      d[l] = U32(mk);
      break;
    }
    }
  }
  x.write(in.ops[0], m, d);
}

/// PRMT d, a, sel, b: byte i of d = byte (sel>>4i)&7 of {b:a}, sign-replicated if bit 3.
/// Modes (.F4E .B4E .RC8 .ECL .ECR .RC16, in.sub 1..6) use only sel[1:0] = n: byte i of d is
/// source byte n+i, n-i (mod 8), n, max(i, n), min(i, n), or 2(n&1) + (i&1) — PTX's prmt table.
void hPrmt(Exec &x, const Instr &in, U32 m) {
  U32 a[32], s[32], b[32], d[32];
  x.fetchI(in.ops[1], m, a, in);
  x.fetch(in.ops[2], m, s, in);
  x.fetchI(in.ops[3], m, b, in);
  for (int l = 0; l < 32; ++l) {
    U64 v = (U64(b[l]) << 32) | a[l];
    U32 r = 0, n = s[l] & 3;
    for (U32 i = 0; i < 4; ++i) {
      U32 byte;
      if (in.sub == 0) {
        U32 nib = (s[l] >> (4 * i)) & 0xf;
        byte = U32(v >> (8 * (nib & 7))) & 0xff;
        if (nib & 8) byte = (byte & 0x80) ? 0xff : 0;
      } else {
        U32 src = 0;
        switch (in.sub) {
        case 1: src = (n + i) & 7; break;
        case 2: src = (n - i) & 7; break;
        case 3: src = n; break;
        case 4: src = std::max(i, n); break;
        case 5: src = std::min(i, n); break;
        default: src = 2 * (n & 1) + (i & 1); break;
        }
        byte = U32(v >> (8 * src)) & 0xff;
      }
      r |= byte << (8 * i);
    }
    d[l] = r;
  }
  x.write(in.ops[0], m, d);
}

/// VABSDIFF[.U32] d, a, b, c: d = |a - b| + c (difference exact, sum modulo 2^32; PTX sad).
void hVabsdiff(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], c[32], d[32];
  x.fetchI(in.ops[1], m, a, in);
  x.fetchI(in.ops[2], m, b, in);
  x.fetchI(in.ops[3], m, c, in);
  for (int l = 0; l < 32; ++l) {
    bool lt = (in.flags & kU32) ? a[l] < b[l] : std::int32_t(a[l]) < std::int32_t(b[l]);
    d[l] = (lt ? b[l] - a[l] : a[l] - b[l]) + c[l];
  }
  x.write(in.ops[0], m, d);
}

/// VIADDMNMX[.U32] d, a, b, c, P: d = P ? min(a + b, c) : max(a + b, c) (sum modulo 2^32).
void hViaddMnmx(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], c[32], d[32];
  x.fetchI(in.ops[1], m, a, in);
  x.fetchI(in.ops[2], m, b, in);
  x.fetchI(in.ops[3], m, c, in);
  U32 p = x.predMask(in.ops[4]);
  for (int l = 0; l < 32; ++l) {
    U32 s = a[l] + b[l];
    bool mn = p >> l & 1;
    if (in.flags & kU32) d[l] = mn ? std::min(s, c[l]) : std::max(s, c[l]);
    else d[l] = U32(mn ? std::min(std::int32_t(s), std::int32_t(c[l])) : std::max(std::int32_t(s), std::int32_t(c[l])));
  }
  x.write(in.ops[0], m, d);
}

} // namespace

std::string selectInt(Instr &in) {
  std::string b = in.base;
  if (!b.empty() && b[0] == 'U' && b != "U") { in.uniform = true; b = b.substr(1); }
  auto flag = [&](const char *m, U32 f) { if (hasMod(in, m)) in.flags |= f; };
  flag("WIDE", kWide);
  flag("HI", kHi);
  flag("U32", kU32);
  flag("X", kX);
  flag("SX32", kSx32);
  flag("W", kW);
  if (b == "IMAD") { in.fn = hImad; return {}; }
  if (b == "IADD3") { in.fn = hIadd3; return {}; }
  if (b == "VIADD" || b == "IADD") {
    if (hasMod(in, "64")) return "64-bit IADD is not supported";
    in.fn = hViadd;
    return {};
  }
  if (b == "LEA") { in.fn = hLea; return {}; }
  if (b == "LOP3") { in.fn = hLop3; return {}; }
  if (b == "PLOP3") { in.fn = hPlop3; return {}; }
  if (b == "SHF") {
    flag("L", kLeft);
    if (hasMod(in, "S32") || hasMod(in, "S64")) in.flags |= kS;
    if (hasMod(in, "U64") || hasMod(in, "S64")) in.flags |= k64;
    in.fn = hShf;
    return {};
  }
  if (b == "ISETP") {
    bool ok = false;
    in.sub = cmpOf(in, ok);
    if (!ok) return "ISETP without a comparison";
    in.boolOp = hasMod(in, "OR") ? 2 : hasMod(in, "XOR") ? 3 : 1;
    flag("EX", kX);
    in.fn = hIsetp;
    return {};
  }
  if (b == "SEL") { in.fn = hSel; return {}; }
  if (b == "VIMNMX3") {
    if (in.ops.size() != 5) return "VIMNMX3 with " + std::to_string(in.ops.size()) + " operands";
    in.fn = hMnmx3;
    return {};
  }
  if (b == "IMNMX" || b == "VIMNMX") {
    if (b == "VIMNMX" && in.ops.size() != 4) return "VIMNMX with " + std::to_string(in.ops.size()) + " operands";
    in.fn = hMnmx;
    return {};
  }
  if (b == "PRMT") {
    static const char *modes[] = {"F4E", "B4E", "RC8", "ECL", "ECR", "RC16"};
    for (const auto &mod : in.mods) {
      U32 k = 0;
      while (k < 6 && mod != modes[k]) ++k;
      if (k == 6) return "PRMT mode ." + mod + " is not supported";
      in.sub = k + 1;
    }
    in.fn = hPrmt;
    return {};
  }
  if (b == "VABSDIFF") {
    if (in.ops.size() != 4) return "VABSDIFF with " + std::to_string(in.ops.size()) + " operands";
    for (const auto &mod : in.mods)
      if (mod != "U32" && mod != "S32") return "VABSDIFF modifier ." + mod + " is not supported";
    in.fn = hVabsdiff;
    return {};
  }
  if (b == "VIADDMNMX") {
    if (in.ops.size() != 5) return "VIADDMNMX with " + std::to_string(in.ops.size()) + " operands";
    for (const auto &mod : in.mods)
      if (mod != "U32" && mod != "S32") return "VIADDMNMX modifier ." + mod + " is not supported";
    in.fn = hViaddMnmx;
    return {};
  }
  struct U { const char *name; Unary op; };
  static const U unaries[] = {{"IABS", kAbs}, {"POPC", kPopc}, {"FLO", kFlo}, {"BREV", kBrev}, {"SGXT", kSgxt}, {"BMSK", kBmsk}};
  for (const U &u : unaries)
    if (b == u.name) {
      in.sub = u.op;
      if (u.op == kFlo && hasMod(in, "SH")) in.flags |= kS;
      in.fn = hUnary;
      return {};
    }
  return "not an integer opcode";
}

} // namespace warplens::sassemu
