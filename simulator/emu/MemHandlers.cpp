/// \file
/// ld/st/atom/red/cvta handlers: address resolution per space (global buffers, block shared
/// memory, per-lane local and param areas, generic windows), bounds and alignment checks with
/// compute-sanitizer-like messages, and one AccessEvent per warp-level memory instruction.
/// Does not model memory ordering between blocks beyond atomicity of atom/red.
#include "emu/Lanes.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>

namespace warplens::emu {

using ptx::StateSpace;
using ptx::Type;

namespace {

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

const char *spaceWord(StateSpace s) {
  switch (s) {
  case StateSpace::Global: return "__global__";
  case StateSpace::Shared: return "__shared__";
  case StateSpace::Local: return "__local__";
  default: return "generic";
  }
}

[[gnu::noinline]] void outOfBounds(Exec &x, const DInstr &in, unsigned lane, StateSpace sp,
                                  std::uint64_t addr, unsigned bytes, const char *why = nullptr) {
  const bool write = in.memOp == model::Op::Store;
  std::string kind = in.memOp == model::Op::Load ? "read" : write ? "write" : "atomic";
  std::string msg = std::string(why ? why : "Invalid ") + spaceWord(sp) + " " + kind + " of size " +
                    std::to_string(bytes) + " bytes at " + hex(addr);
  if (!why) {
    if (sp == StateSpace::Global) {
      const GlobalBuffer *near = nullptr;
      std::uint64_t best = ~0ull;
      for (const auto &b : x.prog->globals) {
        std::uint64_t dist = addr < b.base ? b.base - addr : (addr >= b.base + b.size ? addr - (b.base + b.size) + 1 : 0);
        if (dist < best) { best = dist; near = &b; }
      }
      if (near) {
        msg += addr < near->base ? " (" + std::to_string(near->base - addr) + " bytes before"
                                 : " (" + std::to_string(addr - near->base - near->size) + " bytes after the end of";
        msg += " the nearest buffer '" + near->name + "' [" + hex(near->base) + ", " +
               hex(near->base + near->size) + "), " + std::to_string(near->size) + " bytes)";
      } else {
        msg += " (no buffers allocated)";
      }
    } else if (sp == StateSpace::Shared) {
      msg += " (shared memory of the block is " + std::to_string(x.sharedBytes) + " bytes)";
    } else if (sp == StateSpace::Local) {
      msg += " (local memory per thread is " + std::to_string(x.prog->localBytes) + " bytes)";
    }
  }
  msg += ", thread " + x.threadOf(lane) + " block " + x.blockStr() + ", " + x.prog->where(in);
  x.fail(std::move(msg));
}

inline std::uint64_t addrOf(Exec &x, const DInstr &in, unsigned l) {
  std::uint64_t b = 0;
  if (in.base != kNone) {
    b = x.r(in.base)[l];
    if (in.base32) b &= 0xffffffffu;
  }
  return b + static_cast<std::uint64_t>(in.offset);
}

inline const GlobalBuffer *findBuffer(Exec &x, std::uint64_t a, unsigned n) {
  const GlobalBuffer *b = x.lastBuf;
  if (b && a - b->base < b->size && a - b->base + n <= b->size) return b;
  const auto &g = x.prog->globals;
  auto it = std::upper_bound(g.begin(), g.end(), a, [](std::uint64_t v, const GlobalBuffer &buf) { return v < buf.base; });
  if (it == g.begin()) return nullptr;
  --it;
  if (a - it->base < it->size && a - it->base + n <= it->size) { x.lastBuf = &*it; return &*it; }
  return nullptr;
}

/// Resolves lane `l`'s address to host memory; `sp` is updated to the resolved space for
/// generic accesses and `evAddr` to the address reported in the event. nullptr after x.fail.
template <StateSpace S>
inline std::uint8_t *resolve(Exec &x, const DInstr &in, unsigned l, std::uint64_t a, unsigned n,
                             StateSpace &sp, std::uint64_t &evAddr) {
  evAddr = a;
  if ((a & (n - 1)) != 0) {
    outOfBounds(x, in, l, S == StateSpace::Generic ? StateSpace::Global : S, a, n, "Misaligned ");
    return nullptr;
  }
  if constexpr (S == StateSpace::Global) {
    const GlobalBuffer *b = findBuffer(x, a, n);
    if (!b) { outOfBounds(x, in, l, S, a, n); return nullptr; }
    return b->data + (a - b->base);
  } else if constexpr (S == StateSpace::Shared) {
    if (a + n > x.sharedBytes || a >= x.sharedBytes) { outOfBounds(x, in, l, S, a, n); return nullptr; }
    return x.shared + a;
  } else if constexpr (S == StateSpace::Local) {
    std::uint32_t lb = x.prog->localBytes;
    if (a + n > lb || a >= lb) { outOfBounds(x, in, l, S, a, n); return nullptr; }
    return x.w->local.data() + static_cast<size_t>(l) * lb + a;
  } else if constexpr (S == StateSpace::Param) {
    if (in.k) { // kernel parameter
      if (a + n > x.prog->kernelParams.size() || a >= x.prog->kernelParams.size()) { outOfBounds(x, in, l, S, a, n); return nullptr; }
      return const_cast<std::uint8_t *>(x.prog->kernelParams.data()) + a;
    }
    std::uint32_t pb = x.prog->paramBytes;
    if (a + n > pb || a >= pb) { outOfBounds(x, in, l, S, a, n); return nullptr; } // a >= pb: a + n may wrap
    return x.w->params.data() + static_cast<size_t>(l) * pb + a;
  } else if constexpr (S == StateSpace::Const) {
    if (a + n > x.prog->constBank.size() || a >= x.prog->constBank.size()) { outOfBounds(x, in, l, S, a, n); return nullptr; }
    return const_cast<std::uint8_t *>(x.prog->constBank.data()) + a;
  } else { // generic
    if (a - kSharedWindow < kWindowSize) {
      sp = StateSpace::Shared;
      return resolve<StateSpace::Shared>(x, in, l, a - kSharedWindow, n, sp, evAddr);
    }
    if (a - kLocalWindow < kWindowSize) {
      sp = StateSpace::Local;
      return resolve<StateSpace::Local>(x, in, l, a - kLocalWindow, n, sp, evAddr);
    }
    if (a - kConstWindow < kWindowSize) {
      sp = StateSpace::Const;
      return resolve<StateSpace::Const>(x, in, l, a - kConstWindow, n, sp, evAddr);
    }
    sp = StateSpace::Global;
    return resolve<StateSpace::Global>(x, in, l, a, n, sp, evAddr);
  }
}

model::Space toModel(StateSpace s) {
  switch (s) {
  case StateSpace::Shared: return model::Space::Shared;
  case StateSpace::Local: return model::Space::Local;
  case StateSpace::Const: return model::Space::Const;
  case StateSpace::Param: return model::Space::Param;
  default: return model::Space::Global;
  }
}

inline void beginEvent(Exec &x, const DInstr &in, std::uint32_t m) {
  x.event.site = in.site;
  x.event.op = in.memOp;
  x.event.laneSerial = in.laneSerial;
  x.event.widthBytes = static_cast<std::uint8_t>(in.width * in.vec);
  x.event.active = LaneMask{m};
  x.event.block = x.blockLinear;
  x.event.warp = x.w->index;
}

inline void endEvent(Exec &x, std::uint32_t m, StateSpace first) {
  x.event.space = toModel(first);
  x.listener->onAccess(x.event);
}

template <unsigned W> inline std::uint64_t loadBits(const std::uint8_t *p, bool signExt) {
  if constexpr (W == 1) { std::uint8_t v = *p; return signExt ? std::uint64_t(std::int64_t(std::int8_t(v))) : v; }
  else if constexpr (W == 2) { std::uint16_t v; std::memcpy(&v, p, 2); return signExt ? std::uint64_t(std::int64_t(std::int16_t(v))) : v; }
  else if constexpr (W == 4) { std::uint32_t v; std::memcpy(&v, p, 4); return signExt ? std::uint64_t(std::int64_t(std::int32_t(v))) : v; }
  else { std::uint64_t v; std::memcpy(&v, p, 8); return v; }
}

template <unsigned W> inline void storeBits(std::uint8_t *p, std::uint64_t v) { std::memcpy(p, &v, W); }

/// The per-lane scaffold every memory handler shares: opens the access event, resolves each active
/// lane's address (`bytes` wide) in space S, records it, hands the host pointer to `perLane`, and
/// closes the event with the space the first resolved lane fell in.
template <StateSpace S, class PerLane>
[[gnu::always_inline]] inline void accessLanes(Exec &x, const DInstr &in, std::uint32_t m,
                                               unsigned bytes, PerLane &&perLane) {
  StateSpace first = S, sp = S;
  bool haveFirst = false;
  if (in.emit) beginEvent(x, in, m);
  forLanes(m, [&](unsigned l) {
    if (x.stop) return;
    std::uint64_t ev;
    std::uint8_t *p = resolve<S>(x, in, l, addrOf(x, in, l), bytes, sp, ev);
    if (!p) return;
    if (!haveFirst) { first = sp; haveFirst = true; }
    x.event.addr[l] = ByteAddress{ev};
    perLane(l, p);
  });
  if (x.stop || !in.emit) return;
  endEvent(x, m, first);
}

template <StateSpace S, unsigned W> void ld(Exec &x, const DInstr &in, std::uint32_t m) {
  accessLanes<S>(x, in, m, W * in.vec, [&](unsigned l, std::uint8_t *p) {
    for (unsigned v = 0; v < in.vec; ++v)
      if (in.d[v] != kNone) x.r(in.d[v])[l] = loadBits<W>(p + v * W, in.signExt);
  });
}

template <StateSpace S, unsigned W> void st(Exec &x, const DInstr &in, std::uint32_t m) {
  accessLanes<S>(x, in, m, W * in.vec, [&](unsigned l, std::uint8_t *p) {
    for (unsigned v = 0; v < in.vec; ++v) storeBits<W>(p + v * W, x.r(in.a[v])[l]);
  });
}

template <class T> T atomApply(ptx::AtomOp op, T old, T b, T c) {
  using ptx::AtomOp;
  switch (op) {
  case AtomOp::Add: if constexpr (std::is_floating_point_v<T>) return old + b; else return T(std::make_unsigned_t<T>(old) + std::make_unsigned_t<T>(b));
  case AtomOp::Min: return std::is_floating_point_v<T> ? T(std::fmin(old, b)) : (b < old ? b : old);
  case AtomOp::Max: return std::is_floating_point_v<T> ? T(std::fmax(old, b)) : (b > old ? b : old);
  case AtomOp::Exch: return b;
  case AtomOp::Cas: return old == b ? c : old;
  default: break;
  }
  if constexpr (!std::is_floating_point_v<T>) {
    switch (op) {
    case AtomOp::Inc: return old >= b ? T(0) : T(old + 1);
    case AtomOp::Dec: return (old == 0 || old > b) ? b : T(old - 1);
    case AtomOp::And: return old & b;
    case AtomOp::Or: return old | b;
    case AtomOp::Xor: return old ^ b;
    default: break;
    }
  }
  return old;
}

template <class T, StateSpace S> void atom(Exec &x, const DInstr &in, std::uint32_t m) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  const bool isRed = in.memOp == model::Op::Reduce;
  const std::uint64_t *b = x.r(in.a[0]);
  const std::uint64_t *c = in.a[1] == kNone ? nullptr : x.r(in.a[1]);
  accessLanes<S>(x, in, m, sizeof(T), [&](unsigned l, std::uint8_t *p) {
    std::atomic_ref<Bits> ref(*reinterpret_cast<Bits *>(p));
    Bits cur = ref.load(std::memory_order_relaxed), next;
    T bv = get<T>(b[l]), cv = c ? get<T>(c[l]) : T(0);
    do {
      next = Bits(put<T>(atomApply<T>(in.atomOp, get<T>(cur), bv, cv)));
    } while (!ref.compare_exchange_weak(cur, next, std::memory_order_relaxed));
    if (!isRed && in.d[0] != kNone) x.r(in.d[0])[l] = put<T>(get<T>(cur));
  });
}

/// cvta: d = (a + k) truncated to the type width.
void cvta(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]);
  std::uint64_t wmask = in.width == 4 ? 0xffffffffull : ~0ull;
  if (in.base32) {
    forLanes(m, [&](unsigned l) { d[l] = ((a[l] & 0xffffffffu) + in.k) & wmask; });
  } else {
    forLanes(m, [&](unsigned l) { d[l] = (a[l] + in.k) & wmask; });
  }
}

template <StateSpace S> Handler pickLdSt(bool load, unsigned w) {
  switch (w) {
  case 1: return load ? &ld<S, 1> : &st<S, 1>;
  case 2: return load ? &ld<S, 2> : &st<S, 2>;
  case 4: return load ? &ld<S, 4> : &st<S, 4>;
  case 8: return load ? &ld<S, 8> : &st<S, 8>;
  default: return nullptr;
  }
}

template <class T> Handler pickAtom(StateSpace s) {
  switch (s) {
  case StateSpace::Global: return &atom<T, StateSpace::Global>;
  case StateSpace::Shared: return &atom<T, StateSpace::Shared>;
  case StateSpace::Generic: return &atom<T, StateSpace::Generic>;
  default: return nullptr;
  }
}

} // namespace

Handler selectMemory(const ptx::Instruction &ins, std::string &err) {
  using ptx::Opcode;
  Handler h = nullptr;
  if (ins.op == Opcode::Cvta) return &cvta;
  if (ins.op == Opcode::Ld || ins.op == Opcode::St) {
    bool load = ins.op == Opcode::Ld;
    unsigned w = ptx::typeBytes(ins.type);
    switch (ins.space) {
    case StateSpace::Global: h = pickLdSt<StateSpace::Global>(load, w); break;
    case StateSpace::Shared: h = pickLdSt<StateSpace::Shared>(load, w); break;
    case StateSpace::Local: h = pickLdSt<StateSpace::Local>(load, w); break;
    case StateSpace::Param: h = pickLdSt<StateSpace::Param>(load, w); break;
    case StateSpace::Const: h = load ? pickLdSt<StateSpace::Const>(true, w) : nullptr; break;
    case StateSpace::Generic: h = pickLdSt<StateSpace::Generic>(load, w); break;
    default: break;
    }
  } else if (ins.op == Opcode::Atom || ins.op == Opcode::Red) {
    switch (ins.type) {
    case Type::B32: case Type::U32: h = pickAtom<std::uint32_t>(ins.space); break;
    case Type::S32: h = pickAtom<std::int32_t>(ins.space); break;
    case Type::B64: case Type::U64: h = pickAtom<std::uint64_t>(ins.space); break;
    case Type::S64: h = pickAtom<std::int64_t>(ins.space); break;
    case Type::F32: h = pickAtom<float>(ins.space); break;
    case Type::F64: h = pickAtom<double>(ins.space); break;
    default: break;
    }
  }
  if (!h) err = "unsupported memory instruction form '" + ins.opcodeText + "'";
  return h;
}

} // namespace warplens::emu
