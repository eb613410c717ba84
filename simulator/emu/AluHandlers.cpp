/// \file
/// Integer, floating-point, comparison and predicate handlers, one template instance per
/// (operation, type) chosen at load time. Does not model .ftz flushing or approximation error:
/// approximate functions (.approx) return the correctly rounded value.
#include "emu/Lanes.h"

#include <bit>
#include <cmath>
#include <limits>

namespace warplens::emu {

using ptx::Opcode;
using ptx::Type;

namespace {

template <class T> using U = std::make_unsigned_t<T>;

template <class T> constexpr bool isFp = std::is_floating_point_v<T>;

// ---- operations ---------------------------------------------------------------------------
template <class T> struct Add { static T f(T a, T b) { if constexpr (isFp<T>) return a + b; else return T(U<T>(a) + U<T>(b)); } };
template <class T> struct Sub { static T f(T a, T b) { if constexpr (isFp<T>) return a - b; else return T(U<T>(a) - U<T>(b)); } };
template <class T> struct MulLo { static T f(T a, T b) { if constexpr (isFp<T>) return a * b; else return T(U<T>(a) * U<T>(b)); } };
template <class T> struct Min { static T f(T a, T b) { if constexpr (isFp<T>) return std::fmin(a, b); else return a < b ? a : b; } };
template <class T> struct Max { static T f(T a, T b) { if constexpr (isFp<T>) return std::fmax(a, b); else return a > b ? a : b; } };
template <class T> struct And { static T f(T a, T b) { return a & b; } };
template <class T> struct Or { static T f(T a, T b) { return a | b; } };
template <class T> struct Xor { static T f(T a, T b) { return a ^ b; } };
template <class T> struct Copysign { static T f(T a, T b) { return std::copysign(b, a); } };
template <class T> struct Div {
  static T f(T a, T b) {
    if constexpr (isFp<T>) return a / b;
    else {
      if (b == 0) return T(~U<T>(0));
      if constexpr (std::is_signed_v<T>)
        if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;
      return a / b;
    }
  }
};
template <class T> struct Rem {
  static T f(T a, T b) {
    if (b == 0) return a;
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return 0;
    return a % b;
  }
};
template <class T> struct MulHi {
  static T f(T a, T b) {
    if constexpr (sizeof(T) == 8) {
      using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
      return T(static_cast<W>(a) * static_cast<W>(b) >> 64);
    } else {
      using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
      return T(static_cast<W>(a) * static_cast<W>(b) >> (8 * sizeof(T)));
    }
  }
};
template <class T> struct Wide {
  using type = std::conditional_t<sizeof(T) == 2, std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>,
                                  std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;
};
template <class T> struct Shl {
  static T f(T a, std::uint32_t n) { return n >= 8 * sizeof(T) ? T(0) : T(U<T>(a) << n); }
};
template <class T> struct Shr {
  static T f(T a, std::uint32_t n) {
    if (n >= 8 * sizeof(T)) return std::is_signed_v<T> ? (a < 0 ? T(-1) : T(0)) : T(0);
    return T(a >> n);
  }
};

// ---- handler templates --------------------------------------------------------------------
template <class T, class Op> void bin(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]);
  forLanes(m, [&](unsigned l) { d[l] = put<T>(Op::f(get<T>(a[l]), get<T>(b[l]))); });
  if constexpr (isFp<T>)
    if (in.sat) forLanes(m, [&](unsigned l) { T v = get<T>(d[l]); d[l] = put<T>(v != v ? T(0) : std::fmin(std::fmax(v, T(0)), T(1))); });
}

template <class T, class Op> void shift(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]);
  forLanes(m, [&](unsigned l) { d[l] = put<T>(Op::f(get<T>(a[l]), get<std::uint32_t>(b[l]))); });
}

template <class T> void addSat(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]);
  bool sub = in.op == Opcode::Sub;
  forLanes(m, [&](unsigned l) {
    std::int64_t v = std::int64_t(get<T>(a[l])) + (sub ? -std::int64_t(get<T>(b[l])) : std::int64_t(get<T>(b[l])));
    v = std::clamp<std::int64_t>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    d[l] = put<T>(T(v));
  });
}

template <class T> void mulWide(Exec &x, const DInstr &in, std::uint32_t m) {
  using W = typename Wide<T>::type;
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]);
  forLanes(m, [&](unsigned l) { d[l] = put<W>(W(U<W>(W(get<T>(a[l]))) * U<W>(W(get<T>(b[l]))))); });
}

template <class T> void madWide(Exec &x, const DInstr &in, std::uint32_t m) {
  using W = typename Wide<T>::type;
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]), *c = x.r(in.a[2]);
  forLanes(m, [&](unsigned l) {
    d[l] = put<W>(W(U<W>(W(get<T>(a[l]))) * U<W>(W(get<T>(b[l]))) + U<W>(get<W>(c[l]))));
  });
}

template <class T, class Op> void mad(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]), *c = x.r(in.a[2]);
  forLanes(m, [&](unsigned l) { d[l] = put<T>(Add<T>::f(Op::f(get<T>(a[l]), get<T>(b[l])), get<T>(c[l]))); });
}

template <class T> void fma(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]), *c = x.r(in.a[2]);
  forLanes(m, [&](unsigned l) { d[l] = put<T>(std::fma(get<T>(a[l]), get<T>(b[l]), get<T>(c[l]))); });
  if (in.sat) forLanes(m, [&](unsigned l) { T v = get<T>(d[l]); d[l] = put<T>(v != v ? T(0) : std::fmin(std::fmax(v, T(0)), T(1))); });
}

void mul24(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]);
  const std::uint64_t *c = in.a[2] == kNone ? nullptr : x.r(in.a[2]);
  bool sgn = ptx::isSigned(in.type), hi = in.k != 0;
  forLanes(m, [&](unsigned l) {
    std::int64_t va = sgn ? (std::int64_t(std::uint64_t(a[l]) << 40) >> 40) : std::int64_t(a[l] & 0xffffff);
    std::int64_t vb = sgn ? (std::int64_t(std::uint64_t(b[l]) << 40) >> 40) : std::int64_t(b[l] & 0xffffff);
    std::uint64_t p = std::uint64_t(va * vb);
    std::uint32_t r = hi ? std::uint32_t(p >> 16) : std::uint32_t(p);
    if (c) r += std::uint32_t(c[l]);
    d[l] = r;
  });
}

template <class T, class F> void unary(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]);
  forLanes(m, [&](unsigned l) { d[l] = F::f(a[l]); });
}

template <class T> struct MovF { static std::uint64_t f(std::uint64_t v) { return put<T>(get<T>(v)); } };
template <class T> struct AbsF {
  static std::uint64_t f(std::uint64_t v) {
    if constexpr (isFp<T>) return put<T>(std::fabs(get<T>(v)));
    else { T a = get<T>(v); return put<T>(a < 0 ? T(U<T>(0) - U<T>(a)) : a); }
  }
};
template <class T> struct NegF {
  static std::uint64_t f(std::uint64_t v) {
    if constexpr (isFp<T>) return put<T>(-get<T>(v));
    else return put<T>(T(U<T>(0) - U<T>(get<T>(v))));
  }
};
template <class T> struct NotF { static std::uint64_t f(std::uint64_t v) { return put<T>(T(~get<T>(v))); } };
template <class T> struct CnotF { static std::uint64_t f(std::uint64_t v) { return put<T>(T(get<T>(v) == 0 ? 1 : 0)); } };
template <class T> struct PopcF { static std::uint64_t f(std::uint64_t v) { return std::uint32_t(std::popcount(U<T>(get<T>(v)))); } };
template <class T> struct ClzF { static std::uint64_t f(std::uint64_t v) { return std::uint32_t(std::countl_zero(U<T>(get<T>(v)))); } };
template <class T> struct BrevF {
  static std::uint64_t f(std::uint64_t v) {
    U<T> a = U<T>(get<T>(v)), r = 0;
    for (unsigned i = 0; i < 8 * sizeof(T); ++i) r |= ((a >> i) & 1u) ? (U<T>(1) << (8 * sizeof(T) - 1 - i)) : 0;
    return put<T>(T(r));
  }
};
template <class T> struct SqrtF { static std::uint64_t f(std::uint64_t v) { return put<T>(std::sqrt(get<T>(v))); } };
template <class T> struct RsqrtF { static std::uint64_t f(std::uint64_t v) { return put<T>(T(1) / std::sqrt(get<T>(v))); } };
template <class T> struct RcpF { static std::uint64_t f(std::uint64_t v) { return put<T>(T(1) / get<T>(v)); } };
template <class T> struct Ex2F { static std::uint64_t f(std::uint64_t v) { return put<T>(std::exp2(get<T>(v))); } };
template <class T> struct Lg2F { static std::uint64_t f(std::uint64_t v) { return put<T>(std::log2(get<T>(v))); } };
template <class T> struct SinF { static std::uint64_t f(std::uint64_t v) { return put<T>(std::sin(get<T>(v))); } };
template <class T> struct CosF { static std::uint64_t f(std::uint64_t v) { return put<T>(std::cos(get<T>(v))); } };

template <class T> void bfe(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]), *c = x.r(in.a[2]);
  constexpr unsigned bits = 8 * sizeof(T);
  forLanes(m, [&](unsigned l) {
    U<T> v = U<T>(get<T>(a[l]));
    unsigned pos = b[l] & 0xff, len = c[l] & 0xff;
    bool sbit = false;
    if (std::is_signed_v<T> && len != 0) {
      unsigned top = std::min(pos + len - 1, bits - 1);
      sbit = (v >> top) & 1u;
    }
    U<T> r = 0;
    for (unsigned i = 0; i < bits; ++i) {
      bool bit = (i < len && pos + i < bits) ? ((v >> (pos + i)) & 1u) : sbit;
      if (bit) r |= U<T>(1) << i;
    }
    d[l] = put<T>(T(r));
  });
}

template <class T> void bfi(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]), *c = x.r(in.a[2]), *e = x.r(in.a[3]);
  constexpr unsigned bits = 8 * sizeof(T);
  forLanes(m, [&](unsigned l) {
    U<T> f = U<T>(get<T>(a[l])), r = U<T>(get<T>(b[l]));
    unsigned pos = c[l] & 0xff, len = e[l] & 0xff;
    for (unsigned i = 0; i < len && pos + i < bits; ++i) {
      U<T> bit = U<T>(1) << (pos + i);
      r = ((f >> i) & 1u) ? (r | bit) : (r & ~bit);
    }
    d[l] = put<T>(T(r));
  });
}

void prmt(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]), *c = x.r(in.a[2]);
  forLanes(m, [&](unsigned l) {
    std::uint64_t src = (a[l] & 0xffffffffu) | ((b[l] & 0xffffffffu) << 32);
    std::uint32_t sel = std::uint32_t(c[l]), r = 0;
    for (unsigned i = 0; i < 4; ++i) {
      unsigned s = (sel >> (4 * i)) & 0xf;
      std::uint32_t byte = (src >> (8 * (s & 7))) & 0xff;
      if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
      r |= byte << (8 * i);
    }
    d[l] = r;
  });
}

// ---- comparisons ----------------------------------------------------------------------------
template <class T> std::uint32_t compare(const Exec &xc, const DInstr &in, std::uint32_t m) {
  Exec &x = const_cast<Exec &>(xc);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]);
  std::uint32_t bits = 0;
  auto run = [&](auto pred) { forLanes(m, [&](unsigned l) { if (pred(get<T>(a[l]), get<T>(b[l]))) bits |= 1u << l; }); };
  auto nan = [](T v) { if constexpr (isFp<T>) return std::isnan(v); else return (void)v, false; };
  using ptx::Cmp;
  switch (in.cmp) {
  case Cmp::Eq: run([&](T p, T q) { return !nan(p) && !nan(q) && p == q; }); break;
  case Cmp::Ne: run([&](T p, T q) { return !nan(p) && !nan(q) && p != q; }); break;
  case Cmp::Lt: case Cmp::Lo: run([](T p, T q) { return p < q; }); break;
  case Cmp::Le: case Cmp::Ls: run([](T p, T q) { return p <= q; }); break;
  case Cmp::Gt: case Cmp::Hi: run([](T p, T q) { return p > q; }); break;
  case Cmp::Ge: case Cmp::Hs: run([](T p, T q) { return p >= q; }); break;
  case Cmp::Equ: run([&](T p, T q) { return nan(p) || nan(q) || p == q; }); break;
  case Cmp::Neu: run([&](T p, T q) { return nan(p) || nan(q) || p != q; }); break;
  case Cmp::Ltu: run([&](T p, T q) { return nan(p) || nan(q) || p < q; }); break;
  case Cmp::Leu: run([&](T p, T q) { return nan(p) || nan(q) || p <= q; }); break;
  case Cmp::Gtu: run([&](T p, T q) { return nan(p) || nan(q) || p > q; }); break;
  case Cmp::Geu: run([&](T p, T q) { return nan(p) || nan(q) || p >= q; }); break;
  case Cmp::Num: run([&](T p, T q) { return !nan(p) && !nan(q); }); break;
  case Cmp::Nan: run([&](T p, T q) { return nan(p) || nan(q); }); break;
  case Cmp::None: break;
  }
  return bits;
}

std::uint32_t combine(ptx::BoolOp op, std::uint32_t v, std::uint32_t c) {
  switch (op) {
  case ptx::BoolOp::And: return v & c;
  case ptx::BoolOp::Or: return v | c;
  case ptx::BoolOp::Xor: return v ^ c;
  default: return v;
  }
}

template <class T> void setp(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint32_t bits = compare<T>(x, in, m);
  std::uint32_t c = in.boolOp == ptx::BoolOp::None ? 0 : readPred(x, in, 2);
  std::uint32_t p = combine(in.boolOp, bits, c), q = combine(in.boolOp, ~bits, c);
  writePred(x, in.d[0], p, m);
  writePred(x, in.d2, q, m);
}

template <class T> void set(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint32_t bits = compare<T>(x, in, m);
  std::uint32_t c = in.boolOp == ptx::BoolOp::None ? 0 : readPred(x, in, 2);
  bits = combine(in.boolOp, bits, c);
  std::uint64_t *d = x.r(in.d[0]);
  bool f = in.type == Type::F32;
  forLanes(m, [&](unsigned l) { d[l] = (bits >> l) & 1u ? (f ? 0x3f800000u : 0xffffffffu) : 0u; });
}

template <class T> void selp(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]);
  std::uint32_t p = readPred(x, in, 2);
  forLanes(m, [&](unsigned l) { d[l] = put<T>(get<T>((p >> l) & 1u ? a[l] : b[l])); });
}

template <class T> void slct(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]), *b = x.r(in.a[1]), *c = x.r(in.a[2]);
  bool f = in.srcType == Type::F32;
  forLanes(m, [&](unsigned l) {
    bool ge = f ? get<float>(c[l]) >= 0.0f : get<std::int32_t>(c[l]) >= 0;
    d[l] = put<T>(get<T>(ge ? a[l] : b[l]));
  });
}

// ---- predicates as masks ------------------------------------------------------------------
void predLogic(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint32_t a = readPred(x, in, 0), r = 0;
  switch (in.op) {
  case Opcode::And: r = a & readPred(x, in, 1); break;
  case Opcode::Or: r = a | readPred(x, in, 1); break;
  case Opcode::Xor: r = a ^ readPred(x, in, 1); break;
  case Opcode::Not: r = ~a; break;
  default: r = a; break; // mov
  }
  writePred(x, in.d[0], r, m);
}

/// mov.pred %p, imm: the constant's slot holds 0 or 1 for every lane.
void predFromSlot(Exec &x, const DInstr &in, std::uint32_t m) {
  const std::uint64_t *a = x.r(in.k);
  std::uint32_t bits = 0;
  for (unsigned l = 0; l < 32; ++l) bits |= (a[l] & 1u) << l;
  writePred(x, in.d[0], bits, m);
}

/// mov.b64 d, {a, b} (k = element bits): pack sources, low element first.
void movPack(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  unsigned bits = unsigned(in.k), n = in.vec;
  std::uint64_t emask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
  forLanes(m, [&](unsigned l) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= (x.r(in.a[i])[l] & emask) << (i * bits);
    d[l] = v;
  });
}

/// mov.b64 {a, b}, s: unpack.
void movUnpack(Exec &x, const DInstr &in, std::uint32_t m) {
  const std::uint64_t *s = x.r(in.a[0]);
  unsigned bits = unsigned(in.k), n = in.vec;
  std::uint64_t emask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
  std::uint64_t tmp[32];
  forLanes(m, [&](unsigned l) { tmp[l] = s[l]; });
  for (unsigned i = 0; i < n; ++i) {
    if (in.d[i] == kNone) continue;
    std::uint64_t *d = x.r(in.d[i]);
    forLanes(m, [&](unsigned l) { d[l] = (tmp[l] >> (i * bits)) & emask; });
  }
}

// ---- dispatch -------------------------------------------------------------------------------
template <template <class> class H> Handler pick(Type t, bool ints, bool floats) {
  switch (t) {
  case Type::B16: case Type::U16: if (ints) return H<std::uint16_t>::get(); break;
  case Type::S16: if (ints) return H<std::int16_t>::get(); break;
  case Type::B32: case Type::U32: if (ints) return H<std::uint32_t>::get(); break;
  case Type::S32: if (ints) return H<std::int32_t>::get(); break;
  case Type::B64: case Type::U64: if (ints) return H<std::uint64_t>::get(); break;
  case Type::S64: if (ints) return H<std::int64_t>::get(); break;
  case Type::F32: if (floats) return H<float>::get(); break;
  case Type::F64: if (floats) return H<double>::get(); break;
  default: break;
  }
  return nullptr;
}

#define WL_BIN(NAME, OP, INTS_ONLY)                                                              \
  template <class T> struct NAME {                                                               \
    static Handler get() {                                                                       \
      if constexpr (INTS_ONLY && isFp<T>) return nullptr;                                        \
      else return &bin<T, OP<T>>;                                                                \
    }                                                                                            \
  };
WL_BIN(HAdd, Add, false)
WL_BIN(HSub, Sub, false)
WL_BIN(HMul, MulLo, false)
WL_BIN(HMin, Min, false)
WL_BIN(HMax, Max, false)
WL_BIN(HDiv, Div, false)
WL_BIN(HRem, Rem, true)
WL_BIN(HAnd, And, true)
WL_BIN(HOr, Or, true)
WL_BIN(HXor, Xor, true)
#undef WL_BIN
template <class T> struct HCopysign { static Handler get() { if constexpr (isFp<T>) return &bin<T, Copysign<T>>; else return nullptr; } };
template <class T> struct HMulHi { static Handler get() { if constexpr (isFp<T>) return nullptr; else return &bin<T, MulHi<T>>; } };
template <class T> struct HMadLo { static Handler get() { if constexpr (isFp<T>) return &fma<T>; else return &mad<T, MulLo<T>>; } };
template <class T> struct HMadHi { static Handler get() { if constexpr (isFp<T>) return nullptr; else return &mad<T, MulHi<T>>; } };
template <class T> struct HMulWide { static Handler get() { if constexpr (isFp<T> || sizeof(T) == 8) return nullptr; else return &mulWide<T>; } };
template <class T> struct HMadWide { static Handler get() { if constexpr (isFp<T> || sizeof(T) == 8) return nullptr; else return &madWide<T>; } };
template <class T> struct HShl { static Handler get() { if constexpr (isFp<T>) return nullptr; else return &shift<T, Shl<T>>; } };
template <class T> struct HShr { static Handler get() { if constexpr (isFp<T>) return nullptr; else return &shift<T, Shr<T>>; } };
template <class T> struct HFma { static Handler get() { if constexpr (isFp<T>) return &fma<T>; else return nullptr; } };
template <class T> struct HBfe { static Handler get() { if constexpr (isFp<T> || sizeof(T) < 4) return nullptr; else return &bfe<T>; } };
template <class T> struct HBfi { static Handler get() { if constexpr (isFp<T> || sizeof(T) < 4) return nullptr; else return &bfi<T>; } };
template <class T> struct HSetp { static Handler get() { return &setp<T>; } };
template <class T> struct HSet { static Handler get() { return &set<T>; } };
template <class T> struct HSelp { static Handler get() { return &selp<T>; } };
template <class T> struct HSlct { static Handler get() { return &slct<T>; } };
#define WL_UN(NAME, F, MODE) /* MODE: 0 any, 1 ints, 2 floats */                               \
  template <class T> struct NAME {                                                               \
    static Handler get() {                                                                       \
      if constexpr ((MODE == 1 && isFp<T>) || (MODE == 2 && !isFp<T>)) return nullptr;           \
      else return &unary<T, F<T>>;                                                               \
    }                                                                                            \
  };
WL_UN(HMov, MovF, 0)
WL_UN(HAbs, AbsF, 0)
WL_UN(HNeg, NegF, 0)
WL_UN(HNot, NotF, 1)
WL_UN(HCnot, CnotF, 1)
WL_UN(HPopc, PopcF, 1)
WL_UN(HClz, ClzF, 1)
WL_UN(HBrev, BrevF, 1)
WL_UN(HSqrt, SqrtF, 2)
WL_UN(HRsqrt, RsqrtF, 2)
WL_UN(HRcp, RcpF, 2)
WL_UN(HEx2, Ex2F, 2)
WL_UN(HLg2, Lg2F, 2)
WL_UN(HSin, SinF, 2)
WL_UN(HCos, CosF, 2)
#undef WL_UN

} // namespace

void cvtHandler(Exec &x, const DInstr &in, std::uint32_t m); // Convert.cpp

Handler selectAlu(const ptx::Instruction &ins, std::string &err) {
  Type t = ins.type;
  bool fp = ptx::isFloat(t);
  if (fp && ins.round != ptx::Round::None && ins.round != ptx::Round::Rn && ins.op != Opcode::Cvt) {
    err = "unsupported rounding mode in '" + ins.opcodeText + "' (only .rn is modelled)";
    return nullptr;
  }
  if (t == Type::Pred) {
    switch (ins.op) {
    case Opcode::And: case Opcode::Or: case Opcode::Xor: case Opcode::Not: case Opcode::Mov:
      return &predLogic;
    default: break;
    }
  }
  Handler h = nullptr;
  using ptx::MulMode;
  switch (ins.op) {
  case Opcode::Add: h = (ins.sat && !fp) ? (t == Type::S32 ? &addSat<std::int32_t> : nullptr) : pick<HAdd>(t, true, true); break;
  case Opcode::Sub: h = (ins.sat && !fp) ? (t == Type::S32 ? &addSat<std::int32_t> : nullptr) : pick<HSub>(t, true, true); break;
  case Opcode::Mul:
    if (ins.mulMode == MulMode::Hi) h = pick<HMulHi>(t, true, false);
    else if (ins.mulMode == MulMode::Wide) h = pick<HMulWide>(t, true, false);
    else h = pick<HMul>(t, true, true);
    break;
  case Opcode::Mad:
    if (ins.mulMode == MulMode::Hi) h = pick<HMadHi>(t, true, false);
    else if (ins.mulMode == MulMode::Wide) h = pick<HMadWide>(t, true, false);
    else h = pick<HMadLo>(t, true, true);
    break;
  case Opcode::Mul24: case Opcode::Mad24:
    h = (t == Type::S32 || t == Type::U32) ? &mul24 : nullptr;
    break;
  case Opcode::Fma: h = pick<HFma>(t, false, true); break;
  case Opcode::Div: h = pick<HDiv>(t, true, true); break;
  case Opcode::Rem: h = pick<HRem>(t, true, false); break;
  case Opcode::Min: h = pick<HMin>(t, true, true); break;
  case Opcode::Max: h = pick<HMax>(t, true, true); break;
  case Opcode::Abs: h = pick<HAbs>(t, true, true); break;
  case Opcode::Neg: h = pick<HNeg>(t, true, true); break;
  case Opcode::And: h = pick<HAnd>(t, true, false); break;
  case Opcode::Or: h = pick<HOr>(t, true, false); break;
  case Opcode::Xor: h = pick<HXor>(t, true, false); break;
  case Opcode::Not: h = pick<HNot>(t, true, false); break;
  case Opcode::Cnot: h = pick<HCnot>(t, true, false); break;
  case Opcode::Shl: h = pick<HShl>(t, true, false); break;
  case Opcode::Shr: h = pick<HShr>(t, true, false); break;
  case Opcode::Popc: h = pick<HPopc>(t, true, false); break;
  case Opcode::Clz: h = pick<HClz>(t, true, false); break;
  case Opcode::Brev: h = pick<HBrev>(t, true, false); break;
  case Opcode::Bfe: h = pick<HBfe>(t, true, false); break;
  case Opcode::Bfi: h = pick<HBfi>(t, true, false); break;
  case Opcode::Prmt: h = (t == Type::B32) ? &prmt : nullptr; break;
  case Opcode::Setp: h = pick<HSetp>(t, true, true); break;
  case Opcode::Set: h = pick<HSet>(ins.srcType, true, true); break;
  case Opcode::Selp: h = pick<HSelp>(t, true, true); break;
  case Opcode::Slct: h = pick<HSlct>(t, true, true); break;
  case Opcode::Sqrt: h = pick<HSqrt>(t, false, true); break;
  case Opcode::Rsqrt: h = pick<HRsqrt>(t, false, true); break;
  case Opcode::Rcp: h = pick<HRcp>(t, false, true); break;
  case Opcode::Ex2: h = pick<HEx2>(t, false, true); break;
  case Opcode::Lg2: h = pick<HLg2>(t, false, true); break;
  case Opcode::Sin: h = pick<HSin>(t, false, true); break;
  case Opcode::Cos: h = pick<HCos>(t, false, true); break;
  case Opcode::Copysign: h = pick<HCopysign>(t, false, true); break;
  case Opcode::Cvt: h = &cvtHandler; break;
  case Opcode::Mov:
    if (t == Type::F16 || t == Type::BF16) h = pick<HMov>(Type::U16, true, false);
    else if (t == Type::F16x2) h = pick<HMov>(Type::U32, true, false);
    else h = pick<HMov>(t, true, true);
    break;
  default: break;
  }
  if (!h) err = "unsupported type or form in '" + ins.opcodeText + "'";
  return h;
}

Handler movPackHandler() { return &movPack; }
Handler movUnpackHandler() { return &movUnpack; }
Handler predFromSlotHandler() { return &predFromSlot; }

} // namespace warplens::emu
