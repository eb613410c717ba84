/// \file
/// Conversion opcode family of the SASS engine: I2F/I2FP (s/u 8..64 → f32/f64, with .RN/.RZ/.RM/
/// .RP), F2I/F2IP (f32/f64 → s/u 32/64 with .TRUNC/.FLOOR/.CEIL, saturating, NaN → 0), F2F
/// (f32 ↔ f64, f32 → f16), F2IP (f32 → u8/s8 in the low byte), FRND (f32/f64 to integral
/// value). Not modelled: bf16 and f16 → f32 F2F forms (error).
#include "sassemu/Exec.h"

#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;
using U64 = std::uint64_t;

enum Ty : U32 { kS8, kU8, kS16, kU16, kS32, kU32, kS64, kU64, kF16, kF32, kF64, kNone };
Ty tyOf(const std::string &m) {
  static const char *n[] = {"S8", "U8", "S16", "U16", "S32", "U32", "S64", "U64", "F16", "F32", "F64"};
  for (U32 i = 0; i < 11; ++i)
    if (m == n[i]) return Ty(i);
  return kNone;
}
bool is64(Ty t) { return t == kS64 || t == kU64 || t == kF64; }
bool isFloat(Ty t) { return t == kF16 || t == kF32 || t == kF64; }

enum Rnd : U32 { kRN, kRdZ, kRM, kRP };
int feMode(U32 r) { return r == kRdZ ? FE_TOWARDZERO : r == kRM ? FE_DOWNWARD : r == kRP ? FE_UPWARD : FE_TONEAREST; }

struct Conv { Ty dst = kNone, src = kNone; U32 rnd = kRN; bool ftz = false; };
Conv convOf(const Instr &in) { // packed into sub (dst | src << 8 | rnd << 16), flags ftz
  return Conv{Ty(in.sub & 0xff), Ty((in.sub >> 8) & 0xff), (in.sub >> 16) & 0xff, in.flags != 0};
}

/// u64 -> f64 correctly rounded in the current mode, +0 for 0: the sum of two exact halves with
/// one rounding. A plain double(v) is not rounding-mode safe under clang (x86-64 without AVX-512):
/// it subtracts 2^52 / 2^84 from exact biased halves, and under FE_DOWNWARD x - x is -0, so 0
/// became -0.0 (the GPU gives +0 for I2F.F64.U64.RM of 0); a `v == 0` test is folded away.
double u64ToF64(U64 v) { return double(U32(v >> 32)) * 0x1p32 + double(U32(v)); }

double srcValue(Ty t, U64 v) {
  switch (t) {
  case kS8: return double(std::int8_t(v));
  case kU8: return double(std::uint8_t(v));
  case kS16: return double(std::int16_t(v));
  case kU16: return double(std::uint16_t(v));
  case kS32: return double(std::int32_t(v));
  case kU32: return double(U32(v));
  case kF32: return double(std::bit_cast<float>(U32(v)));
  case kF64: return std::bit_cast<double>(v);
  default: return 0;
  }
}

void hI2F(Exec &x, const Instr &in, U32 m) {
  Conv c = convOf(in);
  U64 a[32], d[32];
  x.fetch64(in.ops[1], m, a, in, false);
  const Operand &src = in.ops[1];
  int old = std::fegetround();
  std::fesetround(feMode(c.rnd));
  for (int l = 0; l < 32; ++l) {
    U64 v = is64(c.src) ? a[l] : U64(U32(a[l]));
    if (src.sel >= 3 && src.sel <= 6) v = (v >> (8 * (src.sel - 3))) & 0xff; // .B1 byte select
    if (src.sel == 2) v >>= 16;
    if (c.dst == kF64) {
      volatile double r = c.src == kS64 ? double(std::int64_t(v)) : c.src == kU64 ? u64ToF64(v) : srcValue(c.src, v);
      d[l] = std::bit_cast<U64>(double(r));
    } else {
      volatile float r = c.src == kS64 ? float(std::int64_t(v)) : c.src == kU64 ? float(v)
                       : c.src == kS32 ? float(std::int32_t(v)) : c.src == kU32 ? float(U32(v))
                       : float(srcValue(c.src, v));
      d[l] = std::bit_cast<U32>(float(r));
    }
  }
  std::fesetround(old);
  if (c.dst == kF64) x.write64(in.ops[0], m, d);
  else { U32 o[32]; for (int l = 0; l < 32; ++l) o[l] = U32(d[l]); x.write(in.ops[0], m, o); }
}

void hF2I(Exec &x, const Instr &in, U32 m) {
  Conv c = convOf(in);
  U64 a[32], d[32];
  if (c.src == kF64) x.fetch64(in.ops[1], m, a, in, true);
  else { U32 t[32]; x.fetchF(in.ops[1], m, t, in); for (int l = 0; l < 32; ++l) a[l] = t[l]; }
  for (int l = 0; l < 32; ++l) {
    double v = srcValue(c.src, a[l]);
    if (c.ftz && c.src == kF32 && (U32(a[l]) & 0x7f800000u) == 0) v = 0;
    if (std::isnan(v)) { // GPU-checked: f32 → 32-bit gives 0; from f64 or to 64 bits the minimum
      d[l] = (c.src == kF64 || is64(c.dst)) ? (is64(c.dst) ? 1ull << 63 : 0x80000000ull) : 0;
      continue;
    }
    double r = c.rnd == kRdZ ? std::trunc(v) : c.rnd == kRM ? std::floor(v) : c.rnd == kRP ? std::ceil(v) : std::nearbyint(v);
    double lo, hi;
    switch (c.dst) {
    case kS32: lo = -2147483648.0, hi = 2147483647.0; break;
    case kU32: lo = 0, hi = 4294967295.0; break;
    case kS64: lo = -9223372036854775808.0, hi = 9223372036854775807.0; break;
    case kU64: lo = 0, hi = 18446744073709551615.0; break;
    case kS16: lo = -32768, hi = 32767; break;
    case kU16: lo = 0, hi = 65535; break;
    case kS8: lo = -128, hi = 127; break;
    default: lo = 0, hi = 255; break;
    }
    if (r <= lo) r = lo;
    if (c.dst == kS64 && r >= 9223372036854775807.0) { d[l] = U64(std::numeric_limits<std::int64_t>::max()); continue; }
    if (c.dst == kU64 && r >= 18446744073709551615.0) { d[l] = ~0ull; continue; }
    if (r >= hi) r = hi;
    d[l] = (c.dst == kS64 || c.dst == kS32 || c.dst == kS16 || c.dst == kS8) ? U64(std::int64_t(r)) : U64(r);
    if (!is64(c.dst)) d[l] &= 0xffffffffull;
  }
  if (is64(c.dst)) x.write64(in.ops[0], m, d);
  else { U32 o[32]; for (int l = 0; l < 32; ++l) o[l] = U32(d[l]); x.write(in.ops[0], m, o); }
}

void hF2F(Exec &x, const Instr &in, U32 m) {
  Conv c = convOf(in);
  U64 a[32], d[32];
  if (c.src == kF64) x.fetch64(in.ops[1], m, a, in, true);
  else { U32 t[32]; x.fetchF(in.ops[1], m, t, in); for (int l = 0; l < 32; ++l) a[l] = t[l]; }
  int old = std::fegetround();
  std::fesetround(feMode(c.rnd));
  for (int l = 0; l < 32; ++l) {
    double v = srcValue(c.src, a[l]);
    // NaN: quieted, the payload kept as far as it fits (GPU-checked: 0x7f800001 → 0x7ff8000020000000,
    // 0x7ff0000000000001 → 0x7fc00000)
    if (c.dst == kF64)
      d[l] = std::isnan(v) ? (U64(a[l] & 0x80000000u) << 32 | 0x7ff8000000000000ull | U64(a[l] & 0x7fffffu) << 29)
                           : std::bit_cast<U64>(v);
    else {
      volatile float r = float(v);
      U32 b = std::isnan(v) ? (U32(a[l] >> 32) & 0x80000000u) | 0x7fc00000u | U32((a[l] >> 29) & 0x7fffffu)
                            : std::bit_cast<U32>(float(r));
      if (c.ftz && (b & 0x7f800000u) == 0) b &= 0x80000000u;
      d[l] = b;
    }
  }
  std::fesetround(old);
  if (c.dst == kF64) x.write64(in.ops[0], m, d);
  else { U32 o[32]; for (int l = 0; l < 32; ++l) o[l] = U32(d[l]); x.write(in.ops[0], m, o); }
}

/// f32 → IEEE half bits with rounding `rnd` (NaN → 0x7fff, overflow → inf or the largest finite
/// half, by direction); subnormal halves are kept (quantum 2^-24).
U32 floatToHalfRounded(U32 bits, U32 rnd, bool ftzIn) {
  if (ftzIn && (bits & 0x7f800000u) == 0) bits &= 0x80000000u;
  float v = std::bit_cast<float>(bits);
  U32 sign = (bits >> 16) & 0x8000u;
  if (std::isnan(v)) return 0x7fffu;
  double a = std::fabs(double(v));
  bool neg = sign != 0;
  // rounding of the magnitude: up (away from zero), down (toward zero) or nearest
  int dir = rnd == kRN ? 0 : rnd == kRdZ ? -1 : rnd == kRP ? (neg ? -1 : 1) : (neg ? 1 : -1);
  if (std::isinf(a)) return sign | 0x7c00u;
  double q = 0x1p-24;
  if (a >= 0x1p-14) {
    int e;
    std::frexp(a, &e); // a = f * 2^e, f in [0.5, 1)
    q = std::ldexp(1.0, e - 11);
  }
  double n = a / q; // exact: at most 24 significant bits
  double r = dir == 0 ? std::nearbyint(n) : dir > 0 ? std::ceil(n) : std::floor(n);
  double mag = r * q;
  if (mag > 65504.0) return sign | (dir < 0 ? 0x7bffu : 0x7c00u);
  if (mag < 0x1p-14) return sign | U32(mag / 0x1p-24);
  int e;
  double f = std::frexp(mag, &e); // mag = f * 2^e
  U32 mant = U32((f * 2.0 - 1.0) * 1024.0);
  return sign | U32(e - 1 + 15) << 10 | mant;
}

void hF2F16(Exec &x, const Instr &in, U32 m) {
  Conv c = convOf(in);
  U32 a[32], d[32];
  x.fetchF(in.ops[1], m, a, in);
  for (int l = 0; l < 32; ++l) d[l] = floatToHalfRounded(a[l], c.rnd, c.ftz);
  x.write(in.ops[0], m, d);
}

/// F2IP.{U8,S8}.F32 d, RZ, a, RZ: a converted (saturating) into the low byte, the rest zero.
void hF2IP(Exec &x, const Instr &in, U32 m) {
  Conv c = convOf(in);
  U32 a[32], d[32];
  x.fetchF(in.ops[2], m, a, in);
  for (int l = 0; l < 32; ++l) {
    U32 bits = a[l];
    if (c.ftz && (bits & 0x7f800000u) == 0) bits &= 0x80000000u;
    double v = double(std::bit_cast<float>(bits));
    if (std::isnan(v)) { d[l] = 0; continue; }
    double r = c.rnd == kRdZ ? std::trunc(v) : c.rnd == kRM ? std::floor(v) : c.rnd == kRP ? std::ceil(v) : std::nearbyint(v);
    double lo = c.dst == kS8 ? -128 : 0, hi = c.dst == kS8 ? 127 : 255;
    r = r < lo ? lo : r > hi ? hi : r;
    d[l] = U32(std::int32_t(r)) & 0xffu;
  }
  x.write(in.ops[0], m, d);
}

void hFrnd(Exec &x, const Instr &in, U32 m) {
  Conv c = convOf(in);
  U64 a[32], d[32];
  bool dbl = c.src == kF64 || c.dst == kF64;
  if (dbl) x.fetch64(in.ops[1], m, a, in, true);
  else { U32 t[32]; x.fetchF(in.ops[1], m, t, in); for (int l = 0; l < 32; ++l) a[l] = t[l]; }
  for (int l = 0; l < 32; ++l) {
    double v = dbl ? std::bit_cast<double>(a[l]) : double(std::bit_cast<float>(U32(a[l])));
    double r = c.rnd == kRdZ ? std::trunc(v) : c.rnd == kRM ? std::floor(v) : c.rnd == kRP ? std::ceil(v) : std::nearbyint(v);
    if (dbl) d[l] = std::isnan(r) ? a[l] | 0x0008000000000000ull : std::bit_cast<U64>(r); // NaN quieted
    else d[l] = std::isnan(r) ? 0x7fffffffu : std::bit_cast<U32>(float(r));
  }
  if (dbl) x.write64(in.ops[0], m, d);
  else { U32 o[32]; for (int l = 0; l < 32; ++l) o[l] = U32(d[l]); x.write(in.ops[0], m, o); }
}

} // namespace

std::string selectConvert(Instr &in) {
  const std::string &b = in.base;
  std::vector<Ty> tys;
  U32 rnd = kRN;
  bool ftz = false;
  for (const auto &mod : in.mods) {
    Ty t = tyOf(mod);
    if (t != kNone) { tys.push_back(t); continue; }
    if (mod == "RZ" || mod == "TRUNC") rnd = kRdZ;
    else if (mod == "RM" || mod == "FLOOR") rnd = kRM;
    else if (mod == "RP" || mod == "CEIL") rnd = kRP;
    else if (mod == "RN" || mod == "ROUND") rnd = kRN;
    else if (mod == "FTZ") ftz = true;
    else if (mod == "NTZ" || mod == "PACK_AB") continue;
    else return b + " modifier ." + mod + " is not supported";
  }
  Ty dst = kNone, src = kNone;
  if (b == "I2F" || b == "I2FP") {
    // I2F[.dst][.src]: one type names the source unless it is a float type
    if (tys.size() >= 2) dst = tys[0], src = tys[1];
    else if (tys.size() == 1) (isFloat(tys[0]) ? dst : src) = tys[0];
    if (dst == kNone) dst = kF32;
    if (src == kNone) src = kS32;
    if (isFloat(src) || !isFloat(dst) || dst == kF16) return "I2F from " + std::to_string(src) + " is not supported";
    in.fn = hI2F;
  } else if (b == "F2I" || b == "F2IP") {
    if (tys.size() >= 2) dst = tys[0], src = tys[1];
    else if (tys.size() == 1) (isFloat(tys[0]) ? src : dst) = tys[0];
    if (dst == kNone) dst = kS32;
    if (src == kNone) src = kF32;
    if (!isFloat(src) || src == kF16) return "F2I from f16 is not supported";
    if (b == "F2IP") {
      if (dst != kU8 && dst != kS8) return "F2IP to a type other than U8/S8 is not supported";
      if (in.ops.size() != 4 || in.ops[1].kind != OpKind::Reg || in.ops[1].index != kRZ ||
          in.ops[3].kind != OpKind::Reg || in.ops[3].index != kRZ)
        return "F2IP packing into a non-zero register is not supported";
    }
    if (!hasMod(in, "TRUNC") && !hasMod(in, "FLOOR") && !hasMod(in, "CEIL") && !hasMod(in, "RZ") &&
        !hasMod(in, "RM") && !hasMod(in, "RP"))
      rnd = kRN;
    in.fn = b == "F2IP" ? hF2IP : hF2I;
  } else if (b == "F2F") {
    if (tys.size() == 2 && tys[0] == kF16 && tys[1] == kF32) {
      dst = kF16, src = kF32;
      in.fn = hF2F16;
    } else {
      if (tys.size() != 2 || tys[0] == kF16 || tys[1] == kF16) return "F2F form is not supported";
      dst = tys[0], src = tys[1];
      in.fn = hF2F;
    }
  } else if (b == "FRND") {
    src = dst = tys.empty() ? kF32 : tys[0];
    in.fn = hFrnd;
  } else {
    return "not a conversion opcode";
  }
  in.sub = U32(dst) | U32(src) << 8 | rnd << 16;
  in.flags = ftz;
  return {};
}

} // namespace warplens::sassemu
