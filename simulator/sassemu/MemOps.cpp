/// \file
/// Memory opcode family of the SASS engine: LDG/STG, LDS/STS, LDL/STL, LD/ST (generic), ATOMS/
/// ATOMG/ATOM (ADD, MIN, MAX, INC, DEC, AND, OR, XOR, EXCH, CAS, POPC.INC, CAST.SPIN), RED/REDG.
/// Every execution emits one AccessEvent with the instruction's own site, the guard-filtered
/// lanes (possibly none: an executed, fully predicated-off instruction) and their addresses.
/// Atomics of one warp apply in lane order. Cache hints (.E, .CONSTANT, .STRONG.GPU, ...) do not
/// change values and are not modelled.
#include "sassemu/Exec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <mutex>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;
using U64 = std::uint64_t;

enum Sub : U32 { kLoad, kStore, kAtom, kRed };
enum Atom : U32 { kAdd, kMin, kMax, kInc, kDec, kAnd, kOr, kXor, kExch, kCas, kPopcInc, kCastSpin };
enum AFlags : U32 { kSigned = 1, kF32 = 2, kF64 = 4, kFtz = 8, kSubSigned = 16 };

/// Opens the event, resolves each active lane's address; returns false after x.fail.
bool begin(Exec &x, const Instr &in, const Operand &mem, U32 m, std::uint8_t **ptr) {
  U64 addr[32];
  addressOf(x, mem, addr);
  model::AccessEvent &e = x.event;
  e.site = in.site;
  e.space = in.space;
  e.op = in.memOp;
  e.widthBytes = in.width;
  e.active = LaneMask{m};
  e.block = x.blockLinear;
  e.warp = x.w->index;
  e.skipped = false;
  e.laneSerial = false;
  // Fast paths: every active lane aligned and inside the last global buffer used, or inside the
  // block's shared window outside cluster launches (what resolve() would find, without its
  // per-lane calls); anything else, and every error message, takes resolve().
  const unsigned n = in.width;
  U64 orAddr = 0;
  for (unsigned l = 0; l < 32; ++l) orAddr |= (m >> l & 1) ? addr[l] : 0;
  if ((orAddr & (n - 1)) == 0) {
    const Buffer *b = x.lastBuf;
    if (in.space == model::Space::Global) { // the buffer of the first active lane, if not the last one
      const U64 a0 = addr[std::countr_zero(m | (1u << 31))];
      if (!b || a0 - b->base >= b->size) b = x.prog->bufferAt(a0);
    }
    if (in.space == model::Space::Global && b) {
      bool inside = true;
      for (unsigned l = 0; l < 32; ++l)
        if (m >> l & 1) inside &= addr[l] - b->base < b->size && addr[l] - b->base + n <= b->size;
      if (inside) {
        x.lastBuf = b;
        for (unsigned l = 0; l < 32; ++l)
          if (m >> l & 1) ptr[l] = b->data + (addr[l] - b->base), e.addr[l] = ByteAddress{addr[l]};
        return true;
      }
    } else if (in.space == model::Space::Shared && !x.cluster) {
      const U64 lim = x.prog->sharedBytes;
      bool inside = true;
      for (unsigned l = 0; l < 32; ++l)
        if (m >> l & 1) {
          U64 a = addr[l] & 0xffffffffu;
          inside &= a >= kSharedReserved && a + n <= lim;
        }
      if (inside) {
        for (unsigned l = 0; l < 32; ++l)
          if (m >> l & 1) {
            U64 a = addr[l] & 0xffffffffu;
            ptr[l] = x.shared + a, e.addr[l] = ByteAddress{a - kSharedReserved};
          }
        return true;
      }
    }
  }
  bool first = true;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    model::Space sp = in.space;
    U64 ev = 0;
    ptr[l] = x.resolve(in, l, addr[l], in.width, sp, ev);
    if (!ptr[l]) return false;
    if (first) e.space = sp, first = false;
    e.addr[l] = ByteAddress{ev};
    // Distributed shared memory (another block of the cluster): the SASS metrics count no
    // wavefronts for it (H100, ClusterOps.cpp); the lane leaves the event.
    if (x.cluster && sp == model::Space::Shared && x.dsmem) {
      e.active = LaneMask{U32(e.active.bits & ~(1u << l))};
      if (e.active.empty()) e.space = model::Space::Generic; // as the probe files it: no shared totals
    }
  }
  return true;
}

void emit(Exec &x) {
  if (x.listener) x.listener->onAccess(x.event);
}

U32 loadWord(const std::uint8_t *p, unsigned width, bool sgn) {
  switch (width) {
  case 1: return sgn ? U32(std::int32_t(std::int8_t(*p))) : *p;
  case 2: { std::uint16_t v; std::memcpy(&v, p, 2); return sgn ? U32(std::int32_t(std::int16_t(v))) : v; }
  default: { U32 v; std::memcpy(&v, p, 4); return v; }
  }
}

void hLoad(Exec &x, const Instr &in, U32 m) {
  std::uint8_t *ptr[32];
  if (!begin(x, in, in.ops[1], m, ptr)) return;
  emit(x);
  if (in.noData) return; // address-only mode: no needed register holds loaded data
  const Operand &d = in.ops[0];
  if (d.kind != OpKind::Reg || d.index == kRZ) return;
  unsigned words = in.width <= 4 ? 1 : in.width / 4;
  bool sgn = in.flags & kSubSigned;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    for (unsigned k = 0; k < words; ++k)
      if (d.index + k < kRZ) x.w->r[d.index + k][l] = loadWord(ptr[l] + 4 * k, in.width < 4 ? in.width : 4, sgn);
  }
}

void hStore(Exec &x, const Instr &in, U32 m) {
  std::uint8_t *ptr[32];
  if (!begin(x, in, in.ops[0], m, ptr)) return;
  emit(x);
  if (in.noData) return; // address-only mode: nothing needed reads memory
  const Operand &s = in.ops[1];
  unsigned words = in.width <= 4 ? 1 : in.width / 4;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    for (unsigned k = 0; k < words; ++k) {
      U32 v = (s.kind == OpKind::Reg && s.index + k < kRZ) ? x.w->r[s.index + k][l] : 0;
      std::memcpy(ptr[l] + 4 * k, &v, in.width < 4 ? in.width : 4);
    }
  }
}

U64 atomApply(const Instr &in, U64 old, U64 b, U64 c, bool wide) {
  bool sgn = in.flags & kSigned;
  switch (in.sub >> 8) {
  case kAdd:
    if (in.flags & kF32) {
      float r = std::bit_cast<float>(U32(old)) + std::bit_cast<float>(U32(b));
      U32 bits = std::isnan(r) ? 0x7fffffffu : std::bit_cast<U32>(r);
      if ((in.flags & kFtz) && (bits & 0x7f800000u) == 0) bits &= 0x80000000u;
      return bits;
    }
    if (in.flags & kF64) return std::bit_cast<U64>(std::bit_cast<double>(old) + std::bit_cast<double>(b));
    return old + b;
  case kMin:
    if (wide) return sgn ? U64(std::min(std::int64_t(old), std::int64_t(b))) : std::min(old, b);
    return sgn ? U32(std::min(std::int32_t(old), std::int32_t(b))) : std::min(U32(old), U32(b));
  case kMax:
    if (wide) return sgn ? U64(std::max(std::int64_t(old), std::int64_t(b))) : std::max(old, b);
    return sgn ? U32(std::max(std::int32_t(old), std::int32_t(b))) : std::max(U32(old), U32(b));
  case kInc: return U32(old) >= U32(b) ? 0 : U32(old) + 1;
  case kDec: return (U32(old) == 0 || U32(old) > U32(b)) ? U32(b) : U32(old) - 1;
  case kAnd: return old & b;
  case kOr: return old | b;
  case kXor: return old ^ b;
  case kExch: return b;
  case kCas: case kCastSpin: return old == b ? c : old;
  case kPopcInc: return old + 1;
  }
  return old;
}

/// ATOM*: [Pd,] d, [addr], b [, c]  ·  RED*: [addr], b
void hAtom(Exec &x, const Instr &in, U32 m) {
  bool red = (in.sub & 0xff) == kRed;
  unsigned i = 0;
  const Operand *pd = nullptr, *d = nullptr;
  if (!red) {
    if (in.ops[0].kind == OpKind::Pred) pd = &in.ops[0], i = 1;
    if (in.ops[i].kind != OpKind::Mem) d = &in.ops[i++];
  }
  const Operand &mem = in.ops[i];
  std::uint8_t *ptr[32];
  if (!begin(x, in, mem, m, ptr)) return;
  Atom op = Atom(in.sub >> 8);
  x.event.laneSerial = op != kPopcInc; // per-lane operands: lanes on one shared word serialise
  emit(x);
  bool wide = in.width == 8;
  U64 b[32] = {}, c[32] = {};
  if (op != kPopcInc && i + 1 < in.ops.size()) {
    if (wide) x.fetch64(in.ops[i + 1], m, b, in, false);
    else { U32 t[32]; x.fetch(in.ops[i + 1], m, t, in); for (int l = 0; l < 32; ++l) b[l] = t[l]; }
  }
  if ((op == kCas || op == kCastSpin) && i + 2 < in.ops.size()) {
    if (wide) x.fetch64(in.ops[i + 2], m, c, in, false);
    else { U32 t[32]; x.fetch(in.ops[i + 2], m, t, in); for (int l = 0; l < 32; ++l) c[l] = t[l]; }
  }
  U64 olds[32] = {};
  U32 ok = 0;
  std::unique_lock<std::mutex> lock(x.prog->atomicMutex, std::defer_lock);
  if (x.event.space != model::Space::Shared) lock.lock(); // other blocks run on other workers
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    U64 old = 0;
    std::memcpy(&old, ptr[l], wide ? 8 : 4);
    U64 nv = atomApply(in, old, b[l], c[l], wide);
    std::memcpy(ptr[l], &nv, wide ? 8 : 4);
    olds[l] = old;
    if ((op == kCas || op == kCastSpin) && old == b[l]) ok |= 1u << l;
  }
  if (d) {
    if (wide) x.write64(*d, m, olds);
    else { U32 t[32]; for (int l = 0; l < 32; ++l) t[l] = U32(olds[l]); x.write(*d, m, t); }
  }
  if (pd) x.writePred(*pd, m, op == kCastSpin ? ok : ~0u);
}

unsigned widthOf(const Instr &in, bool &sgn) {
  unsigned w = 4;
  sgn = false;
  for (const auto &mod : in.mods) {
    if (mod == "U8") w = 1;
    else if (mod == "S8") w = 1, sgn = true;
    else if (mod == "U16") w = 2;
    else if (mod == "S16") w = 2, sgn = true;
    else if (mod == "64" || mod == "U64" || mod == "S64" || mod == "F64") w = 8;
    else if (mod == "128") w = 16;
  }
  return w;
}

} // namespace

std::string selectMemory(Instr &in) {
  const std::string &b = in.base;
  using model::Op;
  using model::Space;
  struct Row { const char *name; Space space; Sub sub; };
  static const Row rows[] = {
      {"LDG", Space::Global, kLoad}, {"STG", Space::Global, kStore}, {"LDS", Space::Shared, kLoad},
      {"STS", Space::Shared, kStore}, {"LDL", Space::Local, kLoad}, {"STL", Space::Local, kStore},
      {"LD", Space::Generic, kLoad}, {"ST", Space::Generic, kStore}, {"ATOMS", Space::Shared, kAtom},
      {"ATOMG", Space::Global, kAtom}, {"ATOM", Space::Generic, kAtom}, {"REDG", Space::Global, kRed},
      {"RED", Space::Generic, kRed},
  };
  const Row *row = nullptr;
  for (const Row &r : rows)
    if (b == r.name) row = &r;
  if (!row) return "not a memory opcode";
  bool sgn = false;
  in.width = static_cast<std::uint8_t>(widthOf(in, sgn));
  in.space = row->space;
  in.emit = true;
  if (row->sub == kLoad || row->sub == kStore) {
    if (sgn) in.flags |= kSubSigned;
    in.memOp = row->sub == kLoad ? Op::Load : Op::Store;
    in.fn = row->sub == kLoad ? hLoad : hStore;
    std::size_t need = 2;
    if (in.ops.size() != need) return b + " with " + std::to_string(in.ops.size()) + " operands";
    return {};
  }
  in.memOp = row->sub == kRed ? Op::Reduce : Op::Atomic;
  struct A { const char *name; Atom op; };
  static const A atoms[] = {{"ADD", kAdd}, {"MIN", kMin}, {"MAX", kMax}, {"INC", kInc}, {"DEC", kDec},
                            {"AND", kAnd}, {"OR", kOr}, {"XOR", kXor}, {"EXCH", kExch}, {"CAS", kCas}};
  Atom op = kAdd;
  bool found = false;
  if (hasMod(in, "POPC") && hasMod(in, "INC")) op = kPopcInc, found = true;
  else if (hasMod(in, "CAST") && hasMod(in, "SPIN")) op = kCastSpin, found = true;
  else
    for (const A &a : atoms)
      if (hasMod(in, a.name)) op = a.op, found = true;
  if (!found) return b + ": atomic operation not supported";
  if (hasMod(in, "F32")) in.flags |= kF32;
  if (hasMod(in, "F64")) in.flags |= kF64;
  if (hasMod(in, "FTZ")) in.flags |= kFtz;
  if (hasMod(in, "S32") || hasMod(in, "S64")) in.flags |= kSigned;
  if (hasMod(in, "F16x2") || hasMod(in, "BF16x2") || hasMod(in, "F16") || hasMod(in, "BF16"))
    return b + ": 16-bit float atomics are not supported";
  if (in.width != 4 && in.width != 8) return b + ": " + std::to_string(in.width) + "-byte atomics are not supported";
  in.sub = U32(row->sub) | U32(op) << 8;
  in.fn = hAtom;
  return {};
}

} // namespace warplens::sassemu
