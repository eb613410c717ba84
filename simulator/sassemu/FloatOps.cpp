/// \file
/// f32, f16x2 and f64 opcode family of the SASS engine: FADD/FMUL/FFMA (.FTZ, .SAT, .RN/.RZ/.RM/
/// .RP), FMNMX, FSETP, FSEL, FCHK, MUFU (RCP, RSQ, SQRT, EX2, LG2, SIN, COS, TANH, RCP64H,
/// RSQ64H), HFMA2/HADD2/HMUL2 (as used for constants and f16→f32), DADD/DMUL/DFMA/DSETP
/// (.MIN/.MAX included)/DMNMX.
/// NaN results: f32 arithmetic gives the canonical 0x7fffffff; f64 arithmetic propagates the NaN
/// operand quieted (see dres). Both checked on an H100 by kernels/diff. MUFU is computed exactly
/// rounded (the GPU is within its documented ulp error of this); FCHK sends every input that might need it to the slow path.
#include "sassemu/Exec.h"

#include <bit>
#include <cfenv>
#include <cmath>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;
using U64 = std::uint64_t;
constexpr U32 kCanonNaN = 0x7fffffffu;
constexpr U64 kCanonNaN64 = 0xffffffffffffffffull; // GPU canonical f64 NaN

enum Flags : U32 { kFtz = 1, kSat = 2, kRZ = 4, kRM = 8, kRP = 16, kF32 = 32, kNanProp = 64 };

inline float f(U32 b) { return std::bit_cast<float>(b); }
inline U32 bits(float v) { return std::bit_cast<U32>(v); }
inline U32 ftzIn(U32 b, bool ftz) { return (ftz && (b & 0x7f800000u) == 0) ? (b & 0x80000000u) : b; }
inline U32 out(float v, U32 fl) {
  // .SAT clamps to [+0, 1]: NaN and -0 become +0 (GPU-checked: add.sat of NaN, mul.sat -0 * 0)
  if (fl & kSat) v = std::isnan(v) || v <= 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
  if (std::isnan(v)) return kCanonNaN;
  U32 b = bits(v);
  return ftzIn(b, fl & kFtz);
}

struct Round {
  int old = 0;
  bool set = false;
  explicit Round(U32 fl) {
    int mode = (fl & kRZ) ? FE_TOWARDZERO : (fl & kRM) ? FE_DOWNWARD : (fl & kRP) ? FE_UPWARD : -1;
    if (mode >= 0) old = std::fegetround(), std::fesetround(mode), set = true;
  }
  ~Round() { if (set) std::fesetround(old); }
};

enum FOp : U32 { kAdd, kMul, kFma, kMnmx, kSel, kSetp, kChk };

void hF32(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], c[32], d[32];
  bool ftz = in.flags & kFtz;
  x.fetchF(in.ops[1], m, a, in);
  x.fetchF(in.ops[2], m, b, in);
  if (in.sub == kFma) x.fetchF(in.ops[3], m, c, in);
  Round r(in.flags);
  for (int l = 0; l < 32; ++l) {
    float fa = f(ftzIn(a[l], ftz)), fb = f(ftzIn(b[l], ftz));
    switch (in.sub) {
    case kAdd: d[l] = out(fa + fb, in.flags); break;
    case kMul: d[l] = out(fa * fb, in.flags); break;
    case kFma: d[l] = out(std::fma(fa, fb, f(ftzIn(c[l], ftz))), in.flags); break;
    }
  }
  x.write(in.ops[0], m, d);
}

/// FMNMX[.NAN] d, a, b, P: P → min, !P → max; a NaN operand yields the other (.NAN: NaN);
/// -0 < +0.
void hMnmx(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], d[32];
  x.fetchF(in.ops[1], m, a, in);
  x.fetchF(in.ops[2], m, b, in);
  U32 p = x.predMask(in.ops[3]);
  bool ftz = in.flags & kFtz;
  for (int l = 0; l < 32; ++l) {
    U32 ua = ftzIn(a[l], ftz), ub = ftzIn(b[l], ftz);
    float fa = f(ua), fb = f(ub);
    bool mn = p >> l & 1;
    if ((std::isnan(fa) && std::isnan(fb)) || ((in.flags & kNanProp) && (std::isnan(fa) || std::isnan(fb)))) d[l] = kCanonNaN;
    else if (std::isnan(fa)) d[l] = ub;
    else if (std::isnan(fb)) d[l] = ua;
    else if (fa == fb) d[l] = mn ? ((ua >> 31) ? ua : ub) : ((ua >> 31) ? ub : ua);
    else d[l] = (mn ? fa < fb : fa > fb) ? ua : ub;
  }
  x.write(in.ops[0], m, d);
}

void hFsel(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], d[32];
  x.fetchF(in.ops[1], m, a, in);
  x.fetchF(in.ops[2], m, b, in);
  U32 p = x.predMask(in.ops[3]);
  for (int l = 0; l < 32; ++l) d[l] = (p >> l & 1) ? a[l] : b[l];
  x.write(in.ops[0], m, d);
}

/// Comparison codes shared by FSETP and DSETP (unordered variants true on NaN).
struct CmpCode { const char *name; U32 lt, eq, gt, un; };
constexpr CmpCode kCmps[] = {
    {"F", 0, 0, 0, 0},   {"LT", 1, 0, 0, 0},  {"EQ", 0, 1, 0, 0},  {"LE", 1, 1, 0, 0},
    {"GT", 0, 0, 1, 0},  {"NE", 1, 0, 1, 0},  {"GE", 0, 1, 1, 0},  {"NUM", 1, 1, 1, 0},
    {"NAN", 0, 0, 0, 1}, {"LTU", 1, 0, 0, 1}, {"EQU", 0, 1, 0, 1}, {"LEU", 1, 1, 0, 1},
    {"GTU", 0, 0, 1, 1}, {"NEU", 1, 0, 1, 1}, {"GEU", 0, 1, 1, 1}, {"T", 1, 1, 1, 1},
};
inline bool cmpEval(U32 code, double a, double b) {
  const CmpCode &c = kCmps[code];
  if (std::isnan(a) || std::isnan(b)) return c.un;
  return a < b ? c.lt : a == b ? c.eq : c.gt;
}
inline void setpWrite(Exec &x, const Instr &in, U32 m, U32 r) {
  U32 pc = x.predMask(in.ops[4]);
  U32 p0, p1;
  switch (in.boolOp) {
  case 2: p0 = r | pc, p1 = ~r | pc; break;
  case 3: p0 = r ^ pc, p1 = ~r ^ pc; break;
  default: p0 = r & pc, p1 = ~r & pc; break;
  }
  x.writePred(in.ops[0], m, p0);
  x.writePred(in.ops[1], m, p1);
}

void hFsetp(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], r = 0;
  x.fetchF(in.ops[2], m, a, in);
  x.fetchF(in.ops[3], m, b, in);
  bool ftz = in.flags & kFtz;
  for (int l = 0; l < 32; ++l) r |= U32(cmpEval(in.sub, f(ftzIn(a[l], ftz)), f(ftzIn(b[l], ftz)))) << l;
  setpWrite(x, in, m, r);
}

/// FCHK P, a, b: true when a/b may not be exact through the reciprocal fast path.
void hFchk(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], r = 0;
  x.fetchF(in.ops[1], m, a, in);
  x.fetchF(in.ops[2], m, b, in);
  for (int l = 0; l < 32; ++l) {
    int ea = int(a[l] >> 23 & 0xff), eb = int(b[l] >> 23 & 0xff);
    bool slow = eb == 0 || eb == 255 || ea == 255 || (ea == 0 && (a[l] & 0x7fffffffu)) ||
                ea - eb >= 126 || ea - eb <= -126 || eb >= 253 || ea <= 24;
    r |= U32(slow) << l;
  }
  x.writePred(in.ops[0], m, r);
}

enum Mufu : U32 { kRcp, kRsq, kSqrt, kEx2, kLg2, kSin, kCos, kTanh, kRcp64h, kRsq64h };
void hMufu(Exec &x, const Instr &in, U32 m) {
  U32 a[32], d[32];
  x.fetchF(in.ops[1], m, a, in);
  if ((in.sub == kRcp64h || in.sub == kRsq64h) && in.ops[1].kind == OpKind::FImm) {
    // "MUFU.RCP64H R3, 3": the immediate is a double; its high word is the operand
    U64 v[32];
    x.fetch64(in.ops[1], m, v, in, true);
    for (int l = 0; l < 32; ++l) a[l] = U32(v[l] >> 32);
  }
  for (int l = 0; l < 32; ++l) {
    if (in.sub == kRcp64h || in.sub == kRsq64h) {
      double v = std::bit_cast<double>(U64(a[l]) << 32);
      double r = in.sub == kRcp64h ? 1.0 / v : 1.0 / std::sqrt(v);
      d[l] = std::isnan(r) ? 0x7ff80000u : U32(std::bit_cast<U64>(r) >> 32);
      continue;
    }
    float v = f(ftzIn(a[l], true)); // MUFU flushes denormal inputs
    float r;
    switch (in.sub) {
    case kRcp: r = 1.0f / v; break;
    case kRsq: r = 1.0f / std::sqrt(v); break;
    case kSqrt: r = std::sqrt(v); break;
    case kEx2: r = std::exp2(v); break;
    case kLg2: r = std::log2(v); break;
    case kSin: r = float(std::sin(double(v) * 2.0 * M_PI)); break;
    case kCos: r = float(std::cos(double(v) * 2.0 * M_PI)); break;
    default: r = std::tanh(v); break;
    }
    d[l] = out(r, kFtz);
  }
  x.write(in.ops[0], m, d);
}

// ---- f16x2 ----------------------------------------------------------------------------------
float halfToFloat(U32 h) {
  U32 s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, mnt = h & 0x3ff;
  if (e == 0) return f(s) + (s ? -1.0f : 1.0f) * std::ldexp(float(mnt), -24);
  if (e == 31) return f(s | 0x7f800000u | (mnt << 13));
  return f(s | ((e + 112) << 23) | (mnt << 13));
}
U32 floatToHalf(float v) {
  if (std::isnan(v)) return 0x7fff;
  U32 b = bits(v), s = (b >> 16) & 0x8000u;
  float a = std::fabs(v);
  if (a >= 65520.0f) return s | 0x7c00u;
  if (a < std::ldexp(1.0f, -14)) { // subnormal half: round to nearest even multiple of 2^-24
    float q = std::nearbyint(a * std::ldexp(1.0f, 24));
    return s | U32(q);
  }
  int e;
  float fr = std::frexp(a, &e); // a = fr * 2^e, fr in [0.5,1)
  float mant = std::nearbyint((fr * 2.0f - 1.0f) * 1024.0f);
  int he = e - 1 + 15;
  if (mant >= 1024.0f) mant = 0, ++he;
  if (he >= 31) return s | 0x7c00u;
  return s | (U32(he) << 10) | U32(mant);
}
/// The two halves an f16x2 operand supplies (selectors .H0_H0/.H1_H1 broadcast one half).
void halves(Exec &x, const Instr &in, unsigned i, U32 m, U32 *lo, U32 *hi) {
  const Operand &o = in.ops[i];
  U32 v[32];
  x.fetch(o, m, v, in);
  if (o.kind == OpKind::FImm) { // a pair of immediates, printed high half first:
    // "HFMA2.MMA R3, -RZ, RZ, 1.875, 0" leaves 0x3f800000 (1.0f) in R3.
    U32 first = floatToHalf(float(o.fimm));
    U32 second = i + 1 < in.ops.size() && in.ops[i + 1].kind == OpKind::FImm ? floatToHalf(float(in.ops[i + 1].fimm)) : first;
    for (int l = 0; l < 32; ++l) lo[l] = second, hi[l] = first;
    return;
  }
  for (int l = 0; l < 32; ++l) {
    U32 l0 = v[l] & 0xffff, h1 = v[l] >> 16;
    if (o.sel == 7 || o.sel == 1) h1 = l0;
    if (o.sel == 8 || o.sel == 2) l0 = h1;
    if (o.abs) l0 &= 0x7fff, h1 &= 0x7fff;
    if (o.neg) l0 ^= 0x8000, h1 ^= 0x8000;
    lo[l] = l0, hi[l] = h1;
  }
}
enum HOp : U32 { kHAdd, kHMul, kHFma };
void hHalf(Exec &x, const Instr &in, U32 m) {
  unsigned n = in.sub == kHFma ? 3 : 2, i = 1;
  U32 lo[3][32], hi[3][32], d[32];
  for (unsigned k = 0; k < n; ++k) {
    halves(x, in, i, m, lo[k], hi[k]);
    i += (in.ops[i].kind == OpKind::FImm && i + 1 < in.ops.size() && in.ops[i + 1].kind == OpKind::FImm) ? 2 : 1;
  }
  for (int l = 0; l < 32; ++l) {
    float r[2];
    for (int h = 0; h < 2; ++h) {
      float a = halfToFloat(h ? hi[0][l] : lo[0][l]), b = halfToFloat(h ? hi[1][l] : lo[1][l]);
      if (in.sub == kHAdd) r[h] = a + b;
      else if (in.sub == kHMul) r[h] = a * b;
      else r[h] = std::fma(a, b, halfToFloat(h ? hi[2][l] : lo[2][l]));
    }
    d[l] = (in.flags & kF32) ? out(r[0], 0) : (floatToHalf(r[0]) | floatToHalf(r[1]) << 16);
  }
  x.write(in.ops[0], m, d);
}

// ---- f64 ------------------------------------------------------------------------------------
inline double dv(U64 b) { return std::bit_cast<double>(b); }
inline U64 dout(double v) { return std::isnan(v) ? kCanonNaN64 : std::bit_cast<U64>(v); }
inline bool isNan64(U64 b) { return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
/// f64 arithmetic propagates a NaN operand with its quiet bit set, the last NaN operand in SASS
/// order winning (DADD/DMUL: b, then a; DFMA: c, b, a); an invalid operation (inf - inf, 0 * inf)
/// gives 0xfff8000000000000. GPU-checked (diff_double: NaN/sNaN/-NaN pairs).
constexpr U64 kDefaultNaN64 = 0xfff8000000000000ull;
inline U64 dres(double v, const U64 *ops, int n) {
  for (int i = n - 1; i >= 0; --i)
    if (isNan64(ops[i])) return ops[i] | 0x0008000000000000ull;
  return std::isnan(v) ? kDefaultNaN64 : std::bit_cast<U64>(v);
}
void hF64(Exec &x, const Instr &in, U32 m) {
  U64 a[32], b[32], c[32], d[32];
  x.fetch64(in.ops[1], m, a, in, true);
  x.fetch64(in.ops[2], m, b, in, true);
  if (in.sub == kFma) x.fetch64(in.ops[3], m, c, in, true);
  // A propagated NaN is the operand as stored: -x and |x| do not touch it (GPU-checked:
  // DADD -RZ, -R8 of 0x7ff8... stays 0x7ff8...).
  U64 raw[3][32];
  U64 *val[3] = {a, b, c};
  unsigned n = in.sub == kFma ? 3 : 2;
  for (unsigned k = 0; k < n; ++k) {
    const Operand &o = in.ops[k + 1];
    if (!o.neg && !o.abs) continue;
    Operand plain = o;
    plain.neg = plain.abs = false;
    x.fetch64(plain, m, raw[k], in, true);
    for (int l = 0; l < 32; ++l)
      if (isNan64(raw[k][l])) val[k][l] = raw[k][l];
  }
  Round r(in.flags);
  for (int l = 0; l < 32; ++l) {
    switch (in.sub) {
    case kAdd: { U64 o[2] = {a[l], b[l]}; d[l] = dres(dv(a[l]) + dv(b[l]), o, 2); break; }
    case kMul: { U64 o[2] = {a[l], b[l]}; d[l] = dres(dv(a[l]) * dv(b[l]), o, 2); break; }
    case kFma: { U64 o[3] = {a[l], b[l], c[l]}; d[l] = dres(std::fma(dv(a[l]), dv(b[l]), dv(c[l])), o, 3); break; }
    }
  }
  x.write64(in.ops[0], m, d);
}
void hDsetp(Exec &x, const Instr &in, U32 m) {
  U64 a[32], b[32];
  U32 r = 0;
  x.fetch64(in.ops[2], m, a, in, true);
  x.fetch64(in.ops[3], m, b, in, true);
  for (int l = 0; l < 32; ++l) r |= U32(cmpEval(in.sub, dv(a[l]), dv(b[l]))) << l;
  setpWrite(x, in, m, r);
}
/// DSETP.{MIN,MAX}.bool Pd, Pe, a, b, Pc (fmin/fmax of f64 on sm_90, followed by SEL/FSEL on Pd):
/// Pd = "a is the result" (a not NaN, and b NaN or a below/above b; of -0 and +0 the minimum is
/// -0), Pe = both NaN (the code then returns b with its quiet bit set).
void hDsetpMnmx(Exec &x, const Instr &in, U32 m) {
  U64 a[32], b[32];
  U32 r = 0, nan2 = 0;
  x.fetch64(in.ops[2], m, a, in, true);
  x.fetch64(in.ops[3], m, b, in, true);
  bool isMin = in.sub == 0;
  for (int l = 0; l < 32; ++l) {
    double fa = dv(a[l]), fb = dv(b[l]);
    bool pick;
    if (std::isnan(fa)) pick = false;
    else if (std::isnan(fb)) pick = true;
    else if (fa == fb) pick = isMin ? (a[l] >> 63) != 0 : (a[l] >> 63) == 0;
    else pick = isMin ? fa < fb : fa > fb;
    r |= U32(pick) << l;
    nan2 |= U32(std::isnan(fa) && std::isnan(fb)) << l;
  }
  U32 pc = x.predMask(in.ops[4]);
  auto comb = [&](U32 v) { return in.boolOp == 2 ? (v | pc) : in.boolOp == 3 ? (v ^ pc) : (v & pc); };
  x.writePred(in.ops[0], m, comb(r));
  x.writePred(in.ops[1], m, comb(nan2));
}

void hDmnmx(Exec &x, const Instr &in, U32 m) {
  U64 a[32], b[32], d[32];
  x.fetch64(in.ops[1], m, a, in, true);
  x.fetch64(in.ops[2], m, b, in, true);
  U32 p = x.predMask(in.ops[3]);
  for (int l = 0; l < 32; ++l) {
    double fa = dv(a[l]), fb = dv(b[l]);
    bool mn = p >> l & 1;
    if (std::isnan(fa) && std::isnan(fb)) d[l] = kCanonNaN64;
    else if (std::isnan(fa)) d[l] = b[l];
    else if (std::isnan(fb)) d[l] = a[l];
    else if (fa == fb) d[l] = mn ? ((a[l] >> 63) ? a[l] : b[l]) : ((a[l] >> 63) ? b[l] : a[l]);
    else d[l] = (mn ? fa < fb : fa > fb) ? a[l] : b[l];
  }
  x.write64(in.ops[0], m, d);
}

U32 roundFlags(const Instr &in) {
  U32 fl = 0;
  if (hasMod(in, "FTZ")) fl |= kFtz;
  if (hasMod(in, "SAT")) fl |= kSat;
  if (hasMod(in, "RZ")) fl |= kRZ;
  if (hasMod(in, "RM")) fl |= kRM;
  if (hasMod(in, "RP")) fl |= kRP;
  if (hasMod(in, "F32")) fl |= kF32;
  if (hasMod(in, "NAN")) fl |= kNanProp;
  return fl;
}
bool cmpCode(const Instr &in, U32 &code) {
  for (const auto &mod : in.mods)
    for (U32 i = 0; i < sizeof kCmps / sizeof kCmps[0]; ++i)
      if (mod == kCmps[i].name) { code = i; return true; }
  return false;
}

} // namespace

std::string selectFloat(Instr &in) {
  in.flags = roundFlags(in);
  const std::string &b = in.base;
  if (b == "FADD") { in.sub = kAdd; in.fn = hF32; return {}; }
  if (b == "FMUL") {
    for (const auto &mod : in.mods)
      if (mod == "D2" || mod == "D4" || mod == "D8" || mod == "M2" || mod == "M4" || mod == "M8")
        return "FMUL scaling ." + mod + " is not supported";
    in.sub = kMul; in.fn = hF32; return {};
  }
  if (b == "FFMA") { in.sub = kFma; in.fn = hF32; return {}; }
  if (b == "FMNMX") { in.fn = hMnmx; return {}; }
  if (b == "FSEL") { in.fn = hFsel; return {}; }
  if (b == "FCHK") { in.fn = hFchk; return {}; }
  if (b == "DSETP" && (hasMod(in, "MIN") || hasMod(in, "MAX"))) {
    in.sub = hasMod(in, "MIN") ? 0 : 1;
    in.boolOp = hasMod(in, "OR") ? 2 : hasMod(in, "XOR") ? 3 : 1;
    if (in.ops.size() != 5) return "DSETP." + std::string(in.sub ? "MAX" : "MIN") + " with " + std::to_string(in.ops.size()) + " operands";
    in.fn = hDsetpMnmx;
    return {};
  }
  if (b == "FSETP" || b == "DSETP") {
    if (!cmpCode(in, in.sub)) return b + " without a comparison";
    in.boolOp = hasMod(in, "OR") ? 2 : hasMod(in, "XOR") ? 3 : 1;
    in.fn = b == "FSETP" ? hFsetp : hDsetp;
    return {};
  }
  if (b == "MUFU") {
    static const char *names[] = {"RCP", "RSQ", "SQRT", "EX2", "LG2", "SIN", "COS", "TANH", "RCP64H", "RSQ64H"};
    for (U32 i = 0; i < 10; ++i)
      if (hasMod(in, names[i])) { in.sub = i; in.fn = hMufu; return {}; }
    return "MUFU function not supported";
  }
  if (b == "HADD2" || b == "HMUL2" || b == "HFMA2") {
    in.sub = b == "HADD2" ? kHAdd : b == "HMUL2" ? kHMul : kHFma;
    in.fn = hHalf;
    return {};
  }
  if (b == "DADD") { in.sub = kAdd; in.fn = hF64; return {}; }
  if (b == "DMUL") { in.sub = kMul; in.fn = hF64; return {}; }
  if (b == "DFMA") { in.sub = kFma; in.fn = hF64; return {}; }
  if (b == "DMNMX") { in.fn = hDmnmx; return {}; }
  return "not a floating-point opcode";
}

} // namespace warplens::sassemu
