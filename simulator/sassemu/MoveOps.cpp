/// \file
/// Data-movement opcode family of the SASS engine: MOV/UMOV/MOV32I, S2R/S2UR/CS2R, LDC/ULDC,
/// R2UR, P2R/R2P, SHFL (IDX/UP/DOWN/BFLY with the PTX clamp/segment rules), VOTE/VOTEU (ANY, ALL,
/// EQ with the ballot). A shuffle from an inactive lane reads that lane's register as it stands.
#include "sassemu/Exec.h"

#include <bit>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;
using U64 = std::uint64_t;

void hMov(Exec &x, const Instr &in, U32 m) {
  U32 a[32];
  x.fetchI(in.ops[1], m, a, in);
  x.write(in.ops[0], m, a);
}

void hMov64(Exec &x, const Instr &in, U32 m) { // CS2R R, SRZ / LDC.64 / ULDC.64
  U64 a[32];
  if (in.ops[1].kind == OpKind::SReg) {
    U32 lo[32];
    x.fetch(in.ops[1], m, lo, in);
    for (int l = 0; l < 32; ++l) a[l] = lo[l];
  } else {
    x.fetch64(in.ops[1], m, a, in, false);
  }
  x.write64(in.ops[0], m, a);
}

/// LDC.U8/S8/U16/S16: sub-word constant loads
void hLdcSub(Exec &x, const Instr &in, U32 m) {
  U32 a[32];
  Operand o = in.ops[1];
  std::int64_t off = o.off;
  o.off = off & ~std::int64_t(3);
  x.fetch(o, m, a, in);
  unsigned sh = unsigned(off & 3) * 8;
  for (int l = 0; l < 32; ++l) {
    U32 v = a[l] >> sh;
    switch (in.sub) {
    case 1: a[l] = v & 0xff; break;
    case 2: a[l] = U32(std::int32_t(std::int8_t(v))); break;
    case 3: a[l] = v & 0xffff; break;
    default: a[l] = U32(std::int32_t(std::int16_t(v))); break;
    }
  }
  x.write(in.ops[0], m, a);
}

void hR2ur(Exec &x, const Instr &in, U32 m) {
  U32 a[32];
  x.fetch(in.ops[in.ops.size() - 1], m, a, in);
  x.write(in.ops[0], m, a); // UReg write takes the first active lane
}

/// P2R d, PR, a, mask: d = (a & ~mask) | (P0..P6 of the lane & mask), shifted to byte .Bk
void hP2r(Exec &x, const Instr &in, U32 m) {
  U32 a[32], k[32], d[32];
  x.fetch(in.ops[2], m, a, in);
  x.fetch(in.ops[3], m, k, in);
  unsigned sh = in.sub * 8;
  for (int l = 0; l < 32; ++l) {
    U32 p = 0;
    for (int i = 0; i < 7; ++i) p |= ((x.w->p[i] >> l) & 1u) << i;
    U32 mk = (k[l] & 0xff) << sh;
    d[l] = (a[l] & ~mk) | ((p << sh) & mk);
  }
  x.write(in.ops[0], m, d);
}

/// R2P PR, a, mask: P_i = bit i (of byte .Bk) of a, where mask bit i is set
void hR2p(Exec &x, const Instr &in, U32 m) {
  U32 a[32], k[32];
  x.fetch(in.ops[1], m, a, in);
  x.fetch(in.ops[2], m, k, in);
  unsigned sh = in.sub * 8;
  for (int i = 0; i < 7; ++i) {
    U32 set = 0, touch = 0;
    for (int l = 0; l < 32; ++l) {
      if (!(m >> l & 1) || !(k[l] >> i & 1)) continue;
      touch |= 1u << l;
      set |= ((a[l] >> (sh + i)) & 1u) << l;
    }
    x.w->p[i] = (x.w->p[i] & ~touch) | set;
  }
}

enum Shfl : U32 { kIdx, kUp, kDown, kBfly };
/// SHFL.mode Pd, d, a, b, c
void hShfl(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], c[32], d[32], ok = 0;
  x.fetch(in.ops[2], m, a, in);
  x.fetch(in.ops[3], m, b, in);
  x.fetch(in.ops[4], m, c, in);
  for (U32 lane = 0; lane < 32; ++lane) {
    U32 bval = b[lane] & 0x1f, cval = c[lane] & 0x1f, seg = (c[lane] >> 8) & 0x1f;
    U32 maxLane = (lane & seg) | (cval & ~seg), minLane = lane & seg;
    std::int32_t j;
    bool p;
    switch (in.sub) {
    case kUp: j = std::int32_t(lane) - std::int32_t(bval); p = j >= std::int32_t(maxLane); break;
    case kDown: j = std::int32_t(lane + bval); p = j <= std::int32_t(maxLane); break;
    case kBfly: j = std::int32_t(lane ^ bval); p = j <= std::int32_t(maxLane); break;
    default: j = std::int32_t(minLane | (bval & ~seg)); p = j <= std::int32_t(maxLane); break;
    }
    if (!p) j = std::int32_t(lane);
    d[lane] = a[j & 31];
    ok |= U32(p) << lane;
  }
  x.write(in.ops[1], m, d);
  x.writePred(in.ops[0], m, ok);
}

enum Vote : U32 { kAny, kAll, kEq };
/// VOTE.mode [Rd,] Pd, Pin  ·  VOTEU.mode [URd,] UPd, Pin
void hVote(Exec &x, const Instr &in, U32 m) {
  unsigned i = 0;
  const Operand *rd = nullptr;
  if (in.ops[0].kind == OpKind::Reg || in.ops[0].kind == OpKind::UReg) rd = &in.ops[0], i = 1;
  U32 active = m; // the group's lanes whose guard holds: a predicated-off lane takes no part
  U32 ballot = x.predMask(in.ops[i + 1]) & active;
  bool any = ballot != 0, all = ballot == active, eq = ballot == 0 || ballot == active;
  if (rd) {
    U32 v[32];
    for (int l = 0; l < 32; ++l) v[l] = ballot;
    if (rd->kind == OpKind::UReg) { if (rd->index != kURZ) x.w->ur[rd->index] = ballot; }
    else x.write(*rd, m, v);
  }
  bool r = in.sub == kAny ? any : in.sub == kAll ? all : eq;
  const Operand &pd = in.ops[i];
  if (pd.kind == OpKind::UPred) { if (pd.index != kPT) x.w->up[pd.index] = r; }
  else x.writePred(pd, m, r ? ~0u : 0u);
}

} // namespace

std::string selectMove(Instr &in) {
  const std::string &b = in.base;
  if (b == "MOV" || b == "UMOV" || b == "MOV32I" || b == "S2R" || b == "S2UR" || b == "IMOV") {
    if (b[0] == 'U' || b == "S2UR") in.uniform = true;
    in.fn = hMov;
    return {};
  }
  if (b == "CS2R") {
    if (hasMod(in, "32")) { in.fn = hMov; return {}; }
    in.fn = hMov64;
    return {};
  }
  if (b == "LDC" || b == "ULDC") {
    in.uniform = b == "ULDC";
    if (hasMod(in, "64")) { in.fn = hMov64; return {}; }
    if (hasMod(in, "U8")) in.sub = 1;
    else if (hasMod(in, "S8")) in.sub = 2;
    else if (hasMod(in, "U16")) in.sub = 3;
    else if (hasMod(in, "S16")) in.sub = 4;
    in.fn = in.sub ? hLdcSub : hMov;
    return {};
  }
  if (b == "R2UR") { in.fn = hR2ur; return {}; }
  if (b == "P2R" || b == "R2P") {
    for (unsigned k = 1; k < 4; ++k)
      if (hasMod(in, (std::string("B") + char('0' + k)).c_str())) in.sub = k;
    in.fn = b == "P2R" ? hP2r : hR2p;
    return {};
  }
  if (b == "SHFL") {
    in.sub = hasMod(in, "UP") ? kUp : hasMod(in, "DOWN") ? kDown : hasMod(in, "BFLY") ? kBfly : kIdx;
    if (in.ops.size() != 5) return "SHFL with " + std::to_string(in.ops.size()) + " operands";
    in.fn = hShfl;
    return {};
  }
  if (b == "VOTE" || b == "VOTEU") {
    in.sub = hasMod(in, "ANY") ? kAny : hasMod(in, "ALL") ? kAll : hasMod(in, "EQ") ? kEq : 99;
    if (in.sub == 99) return "VOTE mode not supported";
    in.fn = hVote;
    return {};
  }
  return "not a move opcode";
}

} // namespace warplens::sassemu
