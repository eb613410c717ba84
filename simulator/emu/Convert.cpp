/// \file
/// cvt: every integer/float combination with rounding (.rn/.rz/.rm/.rp, .rni/.rzi/.rmi/.rpi),
/// saturation (.sat) and f16/bf16 ↔ f32/f64. Does not model .ftz (denormals are kept).
#include "emu/Lanes.h"

#include <cfenv>
#include <cmath>
#include <limits>

namespace warplens::emu {

using ptx::Round;
using ptx::Type;

namespace {

float halfToFloat(std::uint16_t h) {
  std::uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  float v;
  if (exp == 0) v = std::ldexp(float(man), -24);
  else if (exp == 31) v = man ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else v = std::ldexp(float(man | 0x400), int(exp) - 25);
  return sign ? -v : v;
}

std::uint16_t floatToHalf(float f) {
  // Round to nearest even via double arithmetic on the exact value.
  std::uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  float a = std::fabs(f);
  if (std::isnan(f)) return 0x7fff;
  if (a >= 65520.0f) return sign | 0x7c00;
  if (a < std::ldexp(1.0f, -14)) { // subnormal: units of 2^-24
    double q = std::nearbyint(double(a) * std::ldexp(1.0, 24));
    return sign | std::uint16_t(q);
  }
  int e;
  std::frexp(a, &e); // a = m * 2^e, m in [0.5,1)
  double scaled = std::nearbyint(std::ldexp(double(a), 11 - e)); // 11 significant bits
  if (scaled >= 2048) { scaled /= 2; ++e; }
  std::uint16_t exp = std::uint16_t(e - 1 + 15);
  if (exp >= 31) return sign | 0x7c00;
  return sign | std::uint16_t(exp << 10) | (std::uint16_t(scaled) & 0x3ff);
}

float bf16ToFloat(std::uint16_t h) {
  std::uint32_t b = std::uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

std::uint16_t floatToBf16(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  if (std::isnan(f)) return 0x7fc0;
  b += 0x7fff + ((b >> 16) & 1);
  return std::uint16_t(b >> 16);
}

int fenvOf(Round r) {
  switch (r) {
  case Round::Rz: case Round::Rzi: return FE_TOWARDZERO;
  case Round::Rm: case Round::Rmi: return FE_DOWNWARD;
  case Round::Rp: case Round::Rpi: return FE_UPWARD;
  default: return FE_TONEAREST;
  }
}

double roundInt(double v, Round r) {
  switch (r) {
  case Round::Rzi: case Round::Rz: return std::trunc(v);
  case Round::Rmi: case Round::Rm: return std::floor(v);
  case Round::Rpi: case Round::Rp: return std::ceil(v);
  default: return std::nearbyint(v); // ties to even (default environment)
  }
}

bool isIntType(Type t) { return !ptx::isFloat(t) && t != Type::Pred && t != Type::None; }

/// Reads `bits` as type t: integers into i (sign- or zero-extended), floats into f.
void readValue(std::uint64_t bits, Type t, __int128 &i, double &f, bool &isF) {
  isF = ptx::isFloat(t);
  switch (t) {
  case Type::F16: f = halfToFloat(std::uint16_t(bits)); return;
  case Type::BF16: f = bf16ToFloat(std::uint16_t(bits)); return;
  case Type::F32: f = get<float>(bits); return;
  case Type::F64: f = get<double>(bits); return;
  default: break;
  }
  unsigned n = ptx::typeBytes(t) * 8;
  std::uint64_t u = n == 64 ? bits : (bits & ((1ull << n) - 1));
  if (ptx::isSigned(t) && n < 64 && ((u >> (n - 1)) & 1)) i = __int128(std::int64_t(u | (~0ull << n)));
  else if (ptx::isSigned(t)) i = __int128(std::int64_t(u));
  else i = __int128(u);
}

std::uint64_t convert(std::uint64_t bits, Type dst, Type src, Round rnd, bool sat) {
  __int128 iv = 0;
  double fv = 0;
  bool srcF = false;
  readValue(bits, src, iv, fv, srcF);
  if (isIntType(dst)) {
    unsigned n = ptx::typeBytes(dst) * 8;
    bool sgn = ptx::isSigned(dst);
    __int128 lo = sgn ? -(__int128(1) << (n - 1)) : 0;
    __int128 hi = sgn ? (__int128(1) << (n - 1)) - 1 : (__int128(1) << n) - 1;
    __int128 v;
    if (srcF) {
      if (std::isnan(fv)) return 0;
      double r = roundInt(fv, rnd);
      // float → int always saturates in PTX
      if (r <= double(lo)) v = lo;
      else if (r >= double(hi)) v = hi;
      else v = __int128(r);
    } else {
      v = iv;
      if (sat) v = v < lo ? lo : (v > hi ? hi : v);
    }
    std::uint64_t u = std::uint64_t(v);
    return n == 64 ? u : (u & ((1ull << n) - 1));
  }
  // float destination
  double v = fv;
  if (!srcF) {
    int old = std::fegetround();
    std::fesetround(fenvOf(rnd));
    volatile double dv;
    if (dst == Type::F64) dv = iv < 0 ? double(std::int64_t(iv)) : double(std::uint64_t(iv));
    else {
      volatile float fl = iv < 0 ? float(std::int64_t(iv)) : float(std::uint64_t(iv));
      dv = fl;
    }
    std::fesetround(old);
    v = dv;
  } else if (rnd == Round::Rni || rnd == Round::Rzi || rnd == Round::Rmi || rnd == Round::Rpi) {
    v = roundInt(fv, rnd);
  }
  if (sat) v = std::isnan(v) ? 0.0 : std::fmin(std::fmax(v, 0.0), 1.0);
  switch (dst) {
  case Type::F64: return put<double>(v);
  case Type::F32: {
    if (srcF && src == Type::F64 && (rnd == Round::Rz || rnd == Round::Rm || rnd == Round::Rp)) {
      int old = std::fegetround();
      std::fesetround(fenvOf(rnd));
      volatile double vd = v;
      volatile float fl = float(vd);
      std::fesetround(old);
      return put<float>(fl);
    }
    return put<float>(float(v));
  }
  case Type::F16: return floatToHalf(float(v));
  case Type::BF16: return floatToBf16(float(v));
  default: return 0;
  }
}

} // namespace

void cvtHandler(Exec &x, const DInstr &in, std::uint32_t m) {
  std::uint64_t *d = x.r(in.d[0]);
  const std::uint64_t *a = x.r(in.a[0]);
  if (in.srcType == in.type && !ptx::isFloat(in.type)) {
    forLanes(m, [&](unsigned l) { d[l] = a[l]; });
    return;
  }
  // Fast paths for the common nvcc conversions.
  if (in.type == Type::U64 && in.srcType == Type::U32) { forLanes(m, [&](unsigned l) { d[l] = a[l] & 0xffffffffu; }); return; }
  if (in.type == Type::S64 && in.srcType == Type::S32) { forLanes(m, [&](unsigned l) { d[l] = std::uint64_t(std::int64_t(std::int32_t(a[l]))); }); return; }
  if ((in.type == Type::U32 || in.type == Type::S32) && (in.srcType == Type::U64 || in.srcType == Type::S64) && !in.sat) {
    forLanes(m, [&](unsigned l) { d[l] = a[l] & 0xffffffffu; });
    return;
  }
  forLanes(m, [&](unsigned l) { d[l] = convert(a[l], in.type, in.srcType, in.round, in.sat); });
}

} // namespace warplens::emu
