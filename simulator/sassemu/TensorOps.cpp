/// \file
/// Tensor-core and half-precision family of the SASS engine:
///  - HMMA.16816.F32[.BF16] / HMMA.1688.F32[.BF16] (mma.sync m16n8k16 / m16n8k8, f16 or bf16
///    inputs, f32 accumulate) and HMMA.16816.F16 / HMMA.1688.F16 (f16 accumulate), with the PTX
///    ISA's fragment layouts (groupID = lane / 4, t = lane % 4): A row g / g+8, columns 2t, 2t+1
///    (+8); B rows 2t, 2t+1 (+8), column g; C/D row g / g+8, columns 2t, 2t+1. With f32
///    accumulate each output is the tensor core's truncating sum (tcSum), bit-exact against the
///    H100 (kernels/modern/mma16.json); .F16 accumulate: the exact sum rounded once to f16 (not
///    measured bit for bit).
///  - LDSM.16.M88[.2|.4] and LDSM.16.MT88[.2|.4] (ldmatrix, .trans): lanes 8i..8i+7 give the
///    row addresses of matrix i (16 bytes each); lane l receives row l/4, elements 2(l%4) and
///    2(l%4)+1 (transposed: column l/4). One shared-load event: the row-giving lanes with their
///    16-byte rows.
///  - HMMA.1684.F32.TF32 / HMMA.1688.F32.TF32 (tf32 inputs, see hHmmaTf32), IMMA.16816 /
///    IMMA.16832 (8-bit integer inputs, s32 accumulate, see hImma), STSM (stmatrix, see hStsm).
///  - MOVM.16.MT88 (movmatrix.trans): the warp's 8x8 b16 matrix transposed.
///  - HGMMA.64xNx16.F32 (wgmma.mma_async, A and B from shared-memory descriptors) and
///    WARPGROUP.ARRIVE / WARPGROUP.DEPBAR (wgmma.fence / wait_group): see hHgmma.
///  - F2FP.F16.F32.PACK_AB / F2FP.BF16.F32.PACK_AB (cvt.rn.f16x2.f32 / bf16x2): Ra to the high,
///    Rb to the low half, round to nearest even.
#include "sassemu/Exec.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;
using U64 = std::uint64_t;

float halfToFloat(std::uint16_t h) {
  U32 s = U32(h >> 15) << 31, e = (h >> 10) & 31, f = h & 0x3ff;
  if (e == 31) return std::bit_cast<float>(s | 0x7f800000u | f << 13);
  if (e == 0) {
    float v = std::ldexp(float(f), -24);
    return s ? -v : v;
  }
  return std::bit_cast<float>(s | (e + 112) << 23 | f << 13);
}

float bf16ToFloat(std::uint16_t h) { return std::bit_cast<float>(U32(h) << 16); }

std::uint16_t floatToHalf(float v) { // round to nearest even
  U32 b = std::bit_cast<U32>(v);
  U32 s = (b >> 16) & 0x8000;
  if (std::isnan(v)) return static_cast<std::uint16_t>(s | 0x7fff);
  float a = std::fabs(v);
  if (a >= 65520.f) return static_cast<std::uint16_t>(s | 0x7c00);
  if (a < 0x1p-14f) { // subnormal: multiples of 2^-24
    float q = std::nearbyint(a * 0x1p24f);
    return static_cast<std::uint16_t>(s | U32(q));
  }
  U32 ab = b & 0x7fffffffu;
  U32 mant = ab & 0x7fffff, exp = (ab >> 23) - 112;
  U32 h = exp << 10 | mant >> 13;
  U32 rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;
  return static_cast<std::uint16_t>(s | h);
}

std::uint16_t floatToBf16(float v) {
  U32 b = std::bit_cast<U32>(v);
  if (std::isnan(v)) return static_cast<std::uint16_t>((b >> 16) | 0x40);
  U32 r = b + 0x7fff + ((b >> 16) & 1);
  return static_cast<std::uint16_t>(r >> 16);
}

enum HFlags : U32 { kBf16 = 1, kF16Acc = 2, kK8 = 4, kTf32 = 8, kK4 = 16 };

/// A tf32 operand as the tensor core reads an f32 register: sign, exponent and the upper 10
/// mantissa bits; the low 13 bits are ignored (truncation, not rounding: cvt.rna.tf32.f32 is
/// the program's job). Measured: see hHmmaTf32.
double tf32Of(U32 w) { return double(std::bit_cast<float>(w & 0xffffe000u)); }

/// floor(log2 |v|) of a finite nonzero double.
int expOf(double v) {
  int e = 0;
  (void)std::frexp(v, &e);
  return e - 1;
}

/// The tensor core's dot product step with f32 accumulate, D = C + sum_k a[k] b[k] (K <= 16), as
/// measured on the H100 for tf32 (HMMA.1684 / 1688), f16 and bf16 (HMMA.16816.F32[.BF16]) inputs:
/// every product is exact; the terms are aligned to the largest exponent among C's and the
/// products' (a product's exponent is the sum of its factors' exponents, before normalisation),
/// each truncated toward zero to 2^(emax - 25) (25 bits below the leading one); the exact sum of
/// the truncated terms is rounded toward zero to f32. Non-finite inputs fall back to a plain double
/// sum (inf / NaN propagate). Subnormal f16 inputs take their true exponent (not measured).
float tcSum(const double *a, const double *b, unsigned K, double c) {
  double prod[16];
  bool finite = std::isfinite(c);
  int emax = INT_MIN;
  for (unsigned k = 0; k < K; ++k) {
    prod[k] = a[k] * b[k]; // exact: at most 11-bit x 11-bit significands
    finite = finite && std::isfinite(a[k]) && std::isfinite(b[k]);
    if (prod[k] != 0 && finite) emax = std::max(emax, expOf(a[k]) + expOf(b[k]));
  }
  if (!finite) {
    double s = c;
    for (unsigned k = 0; k < K; ++k) s += prod[k];
    return static_cast<float>(s);
  }
  if (c != 0) emax = std::max(emax, expOf(c));
  if (emax == INT_MIN) return static_cast<float>(c); // all terms zero
  const int u = emax - 25;
  // Terms in units of 2^u, truncated toward zero: |term| < 2^(emax + 2), so < 2^27 units each.
  std::int64_t sum = 0;
  auto add = [&](double t) {
    if (t == 0) return;
    sum += static_cast<std::int64_t>(std::trunc(std::ldexp(t, -u))); // exact: <= 24 significant bits
  };
  add(c);
  for (unsigned k = 0; k < K; ++k) add(prod[k]);
  double d = std::ldexp(static_cast<double>(sum), u); // exact (|sum| < 2^32)
  float f = static_cast<float>(d);
  if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f); // toward zero
  return f;
}

/// HMMA.{16816,1688}.{F32,F16}[.BF16] Rd, Ra, Rb, Rc
void hHmma(Exec &x, const Instr &in, U32 m) {
  (void)m;
  const bool bf = in.flags & kBf16, f16acc = in.flags & kF16Acc, k8 = in.flags & kK8;
  const unsigned K = k8 ? 8 : 16;
  auto elem = [&](U32 word, unsigned half) {
    std::uint16_t h = static_cast<std::uint16_t>(half ? word >> 16 : word & 0xffff);
    return double(bf ? bf16ToFloat(h) : halfToFloat(h));
  };
  auto R = [&](const Operand &o, unsigned k, unsigned lane) -> U32 {
    return o.index == kRZ ? 0u : x.w->r[(o.index + k) & 255][lane];
  };
  const Operand &D = in.ops[0], &A = in.ops[1], &B = in.ops[2], &C = in.ops[3];
  double a[16][16], b[16][8], c[16][8];
  for (unsigned l = 0; l < 32; ++l) {
    unsigned g = l / 4, t = l % 4;
    // A: regs {row g, k 2t..}, {row g+8, k 2t..}, then (k16) the same with k + 8
    for (unsigned r = 0; r < (k8 ? 2u : 4u); ++r) {
      unsigned row = g + (r & 1) * 8, col = 2 * t + (r >> 1) * 8;
      U32 w = R(A, r, l);
      a[row][col] = elem(w, 0), a[row][col + 1] = elem(w, 1);
    }
    for (unsigned r = 0; r < (k8 ? 1u : 2u); ++r) {
      U32 w = R(B, r, l);
      b[2 * t + r * 8][g] = elem(w, 0), b[2 * t + r * 8 + 1][g] = elem(w, 1);
    }
    if (f16acc) {
      for (unsigned r = 0; r < 2; ++r) {
        U32 w = R(C, r, l);
        c[g + r * 8][2 * t] = halfToFloat(static_cast<std::uint16_t>(w & 0xffff));
        c[g + r * 8][2 * t + 1] = halfToFloat(static_cast<std::uint16_t>(w >> 16));
      }
    } else {
      for (unsigned r = 0; r < 4; ++r)
        c[g + (r >> 1) * 8][2 * t + (r & 1)] = C.index == kRZ ? 0.0 : double(std::bit_cast<float>(R(C, r, l)));
    }
  }
  float d[16][8];
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 8; ++j) {
      if (!f16acc) { // f32 accumulate: the tensor core's truncating sum (tcSum, measured)
        double bj[16];
        for (unsigned k = 0; k < K; ++k) bj[k] = b[k][j];
        d[i][j] = tcSum(a[i], bj, K, c[i][j]);
        continue;
      }
      double s = c[i][j];
      for (unsigned k = 0; k < K; ++k) s += a[i][k] * b[k][j];
      d[i][j] = static_cast<float>(s);
    }
  // Results land only in the lanes of the (converged) warp: mma.sync is warp-wide.
  U32 out[4][32];
  for (unsigned l = 0; l < 32; ++l) {
    unsigned g = l / 4, t = l % 4;
    if (f16acc) {
      for (unsigned r = 0; r < 2; ++r)
        out[r][l] = floatToHalf(d[g + r * 8][2 * t]) | U32(floatToHalf(d[g + r * 8][2 * t + 1])) << 16;
    } else {
      for (unsigned r = 0; r < 4; ++r) out[r][l] = std::bit_cast<U32>(d[g + (r >> 1) * 8][2 * t + (r & 1)]);
    }
  }
  if (D.index == kRZ) return;
  for (unsigned r = 0; r < (f16acc ? 2u : 4u); ++r)
    for (unsigned l = 0; l < 32; ++l) x.w->r[(D.index + r) & 255][l] = out[r][l];
}

/// HMMA.{1684,1688}.F32.TF32 Rd, Ra, Rb, Rc (mma.sync m16n8k4 / m16n8k8 .tf32, f32 accumulate):
/// 32-bit elements, PTX ISA fragment layouts (g = lane / 4, t = lane % 4): A register r holds row
/// g + 8 (r % 2), column t + 4 (r / 2) (2 registers for k4, 4 for k8); B register r row t + 4r,
/// column g; C/D as the f16 forms. Arithmetic (tcSum), bit-exact against the H100's results
/// of kernels/modern/modern2.json (1536 of 1536 outputs of 4 chained HMMA.1688 on raw f32 inputs
/// and 16 chained HMMA.1684 on cvt.rna-rounded ones; validation/h100/modern2_outputs).
void hHmmaTf32(Exec &x, const Instr &in, U32 m) {
  (void)m;
  const unsigned K = in.flags & kK4 ? 4 : 8;
  auto R = [&](const Operand &o, unsigned k, unsigned lane) -> U32 {
    return o.index == kRZ ? 0u : x.w->r[(o.index + k) & 255][lane];
  };
  const Operand &D = in.ops[0], &A = in.ops[1], &B = in.ops[2], &C = in.ops[3];
  double a[16][8], b[8][8], c[16][8];
  for (unsigned l = 0; l < 32; ++l) {
    unsigned g = l / 4, t = l % 4;
    for (unsigned r = 0; r < K / 2; ++r) a[g + (r % 2) * 8][t + (r / 2) * 4] = tf32Of(R(A, r, l));
    for (unsigned r = 0; r < K / 4; ++r) b[t + 4 * r][g] = tf32Of(R(B, r, l));
    for (unsigned r = 0; r < 4; ++r)
      c[g + (r >> 1) * 8][2 * t + (r & 1)] = C.index == kRZ ? 0.0 : double(std::bit_cast<float>(R(C, r, l)));
  }
  if (D.index == kRZ) return;
  U32 out[4][32];
  for (unsigned l = 0; l < 32; ++l) {
    unsigned g = l / 4, t = l % 4;
    for (unsigned r = 0; r < 4; ++r) {
      unsigned i = g + (r >> 1) * 8, j = 2 * t + (r & 1);
      double bj[8];
      for (unsigned k = 0; k < K; ++k) bj[k] = b[k][j];
      out[r][l] = std::bit_cast<U32>(tcSum(a[i], bj, K, c[i][j]));
    }
  }
  for (unsigned r = 0; r < 4; ++r)
    for (unsigned l = 0; l < 32; ++l) x.w->r[(D.index + r) & 255][l] = out[r][l];
}

/// IMMA.{16816,16832}.{S8,U8}.{S8,U8}[.SAT] Rd, Ra.ROW, Rb.COL, Rc (mma.sync m16n8k16 / m16n8k32
/// with 8-bit integer inputs, s32 accumulate): A register r holds row g + 8 (r % 2), columns
/// 4t..4t+3 (+16 for r >= 2), byte j = column 4t + j; B register r rows 4t..4t+3 (+16 r), column
/// g; C/D as HMMA's f32 layout, s32. The sum wraps modulo 2^32 (.SAT clamps to the s32 range).
void hImma(Exec &x, const Instr &in, U32 m) {
  (void)m;
  const unsigned K = in.sub;
  const bool aSigned = in.flags & 1, bSigned = in.flags & 2, sat = in.flags & 4;
  auto R = [&](const Operand &o, unsigned k, unsigned lane) -> U32 {
    return o.index == kRZ ? 0u : x.w->r[(o.index + k) & 255][lane];
  };
  auto byteOf = [](U32 w, unsigned j, bool sgn) -> std::int64_t {
    U32 v = (w >> (8 * j)) & 0xff;
    return sgn ? std::int64_t(std::int8_t(v)) : std::int64_t(v);
  };
  const Operand &D = in.ops[0], &A = in.ops[1], &B = in.ops[2], &C = in.ops[3];
  std::int64_t a[16][32], b[32][8], c[16][8];
  for (unsigned l = 0; l < 32; ++l) {
    unsigned g = l / 4, t = l % 4;
    for (unsigned r = 0; r < K / 8; ++r)
      for (unsigned j = 0; j < 4; ++j) a[g + (r % 2) * 8][4 * t + j + (r / 2) * 16] = byteOf(R(A, r, l), j, aSigned);
    for (unsigned r = 0; r < K / 16; ++r)
      for (unsigned j = 0; j < 4; ++j) b[4 * t + j + 16 * r][g] = byteOf(R(B, r, l), j, bSigned);
    for (unsigned r = 0; r < 4; ++r)
      c[g + (r >> 1) * 8][2 * t + (r & 1)] = std::int64_t(std::int32_t(R(C, r, l)));
  }
  if (D.index == kRZ) return;
  U32 out[4][32];
  for (unsigned l = 0; l < 32; ++l) {
    unsigned g = l / 4, t = l % 4;
    for (unsigned r = 0; r < 4; ++r) {
      unsigned i = g + (r >> 1) * 8, j = 2 * t + (r & 1);
      std::int64_t s = c[i][j];
      for (unsigned k = 0; k < K; ++k) s += a[i][k] * b[k][j];
      if (sat) s = std::clamp<std::int64_t>(s, INT32_MIN, INT32_MAX);
      out[r][l] = U32(s);
    }
  }
  for (unsigned r = 0; r < 4; ++r)
    for (unsigned l = 0; l < 32; ++l) x.w->r[(D.index + r) & 255][l] = out[r][l];
}

/// HGMMA.64xNx16.F32[.BF16] Rd, gdesc[URa], Rc|RZ, [!]UPp|[!]UPT[, gsb0] (wgmma.mma_async with A
/// and B in shared memory): URa:URa+1 and URa+2:URa+3 are the matrix descriptors (start address,
/// leading byte offset = between core matrices along K, stride byte offset = between 8-row
/// groups along M / N, in 16-byte units; no swizzle), both K-major. Each warp of the warpgroup
/// (warp index % 4 = w) computes its rows 16w..16w+15 of the 64 x N tile, so the warps need not
/// meet: register i of lane l holds row 16w + l/4 (+8 for i % 4 >= 2), column
/// 8 (i / 4) + 2 (l % 4) + i % 2. The predicate is scale-d: false ignores Rc. Sums exact, rounded
/// once to f32 (as HMMA).
void hHgmma(Exec &x, const Instr &in, U32 m) {
  (void)m;
  const unsigned N = in.sub;
  const bool bf = in.flags & kBf16;
  const Operand &D = in.ops[0], &G = in.ops[1], &C = in.ops[2];
  bool accumulate = C.index != kRZ && (in.ops.size() < 4 || x.predMask(in.ops[3]) != 0);
  U64 descA = U64(x.w->ur[G.idx & 63]) | U64(x.w->ur[(G.idx + 1) & 63]) << 32;
  U64 descB = U64(x.w->ur[(G.idx + 2) & 63]) | U64(x.w->ur[(G.idx + 3) & 63]) << 32;
  for (U64 d : {descA, descB})
    if (d >> 62) { x.fail("HGMMA with a swizzled shared-memory layout is not supported in " + x.prog->where(in)); return; }
  auto elem = [&](U64 desc, unsigned row, unsigned k) -> double { // row: M (A) or N (B)
    U64 start = (desc & 0x3fff) << 4, lbo = ((desc >> 16) & 0x3fff) << 4, sbo = ((desc >> 32) & 0x3fff) << 4;
    U64 a = start + (row / 8) * sbo + (k / 8) * lbo + (row % 8) * 16 + (k % 8) * 2;
    model::Space sp = model::Space::Shared;
    U64 ev = 0;
    const std::uint8_t *p = x.resolve(in, 0, a, 2, sp, ev);
    if (!p) return 0.0;
    std::uint16_t h;
    std::memcpy(&h, p, 2);
    return double(bf ? bf16ToFloat(h) : halfToFloat(h));
  };
  const unsigned w = x.w->index % 4;
  double a[16][16];
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned k = 0; k < 16; ++k) a[i][k] = elem(descA, 16 * w + i, k);
  std::vector<double> b(16 * N);
  for (unsigned k = 0; k < 16; ++k)
    for (unsigned n = 0; n < N; ++n) b[k * N + n] = elem(descB, n, k);
  if (x.failed) return;
  const unsigned regs = N / 2;
  std::vector<U32> out(std::size_t(regs) * 32);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < regs; ++i) {
      unsigned row = l / 4 + (i % 4 >= 2 ? 8 : 0), col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
      double s = accumulate ? double(std::bit_cast<float>(x.w->r[(C.index + i) & 255][l])) : 0.0;
      for (unsigned k = 0; k < 16; ++k) s += a[row][k] * b[k * N + col];
      out[std::size_t(i) * 32 + l] = std::bit_cast<U32>(static_cast<float>(s));
    }
  // Counts (H100): one shared-load execution per warp; the warpgroup's operand tiles, (A + B
  // bytes) / 128 wavefronts, on its first warp (AccessEvent::tileWavefronts).
  model::AccessEvent &e = x.event;
  e.site = in.site;
  e.space = model::Space::Shared;
  e.op = model::Op::Load;
  e.widthBytes = in.width;
  e.active = LaneMask{m};
  e.block = x.blockLinear;
  e.warp = x.w->index;
  e.skipped = false;
  e.companion = false;
  e.laneSerial = false;
  e.minWavefronts = 0;
  e.tileWavefronts = w == 0 ? std::int32_t((64 * 16 * 2 + N * 16 * 2) / 128) : 0;
  if (x.listener) x.listener->onAccess(e);
  e.tileWavefronts = -1;
  if (D.index == kRZ) return;
  for (unsigned i = 0; i < regs; ++i)
    for (unsigned l = 0; l < 32; ++l) x.w->r[(D.index + i) & 255][l] = out[std::size_t(i) * 32 + l];
}

/// LDSM.16.{M88,MT88}[.1|.2|.4] Rd, [addr]
void hLdsm(Exec &x, const Instr &in, U32 m) {
  const unsigned n = in.sub;          // matrices
  const bool trans = in.flags & 1;
  U64 addr[32];
  addressOf(x, in.ops[1], addr);
  model::AccessEvent &e = x.event;
  e.site = in.site;
  e.space = model::Space::Shared;
  e.op = model::Op::Load;
  e.widthBytes = 16;
  U32 rowLanes = (n == 4 ? ~0u : (1u << (8 * n)) - 1) & m;
  e.active = LaneMask{rowLanes};
  e.block = x.blockLinear;
  e.warp = x.w->index;
  e.skipped = false;
  e.companion = false;
  std::uint8_t *row[32] = {};
  for (unsigned l = 0; l < 32; ++l) {
    if (!(rowLanes >> l & 1)) continue;
    model::Space sp = model::Space::Shared;
    U64 ev = 0;
    row[l] = x.resolve(in, l, addr[l], 16, sp, ev);
    if (!row[l]) return;
    e.addr[l] = ByteAddress{ev};
  }
  if (x.listener) x.listener->onAccess(e);
  const Operand &d = in.ops[0];
  if (d.index == kRZ) return;
  for (unsigned i = 0; i < n; ++i) {
    for (unsigned l = 0; l < 32; ++l) {
      if (!(m >> l & 1)) continue;
      unsigned g = l / 4, t = l % 4;
      std::uint16_t h0, h1;
      if (!trans) {
        const std::uint8_t *r = row[8 * i + g];
        if (!r) { x.fail("ldmatrix row address of lane " + std::to_string(8 * i + g) + " is not given (inactive lane), " + x.prog->where(in)); return; }
        std::memcpy(&h0, r + 4 * t, 2);
        std::memcpy(&h1, r + 4 * t + 2, 2);
      } else {
        const std::uint8_t *r0 = row[8 * i + 2 * t], *r1 = row[8 * i + 2 * t + 1];
        if (!r0 || !r1) { x.fail("ldmatrix row address of an inactive lane is needed, " + x.prog->where(in)); return; }
        std::memcpy(&h0, r0 + 2 * g, 2);
        std::memcpy(&h1, r1 + 2 * g, 2);
      }
      x.w->r[(d.index + i) & 255][l] = h0 | U32(h1) << 16;
    }
  }
}

/// STSM.16.{M88,MT88}[.1|.2|.4] [addr], Rs (stmatrix, .trans): the inverse of LDSM: lanes
/// 8i..8i+7 give the row addresses of matrix i; register Rs+i of lane l holds row l/4, elements
/// 2(l%4), 2(l%4)+1 of matrix i (transposed: column l/4, rows 2(l%4), 2(l%4)+1). One shared-store
/// event: the row-giving lanes, 16 bytes each.
void hStsm(Exec &x, const Instr &in, U32 m) {
  const unsigned n = in.sub;
  const bool trans = in.flags & 1;
  U64 addr[32];
  addressOf(x, in.ops[0], addr);
  model::AccessEvent &e = x.event;
  e.site = in.site;
  e.space = model::Space::Shared;
  e.op = model::Op::Store;
  e.widthBytes = 16;
  U32 rowLanes = (n == 4 ? ~0u : (1u << (8 * n)) - 1) & m;
  e.active = LaneMask{rowLanes};
  e.block = x.blockLinear;
  e.warp = x.w->index;
  e.skipped = false;
  e.companion = false;
  std::uint8_t *row[32] = {};
  for (unsigned l = 0; l < 32; ++l) {
    if (!(rowLanes >> l & 1)) continue;
    model::Space sp = model::Space::Shared;
    U64 ev = 0;
    row[l] = x.resolve(in, l, addr[l], 16, sp, ev);
    if (!row[l]) return;
    e.addr[l] = ByteAddress{ev};
  }
  if (x.listener) x.listener->onAccess(e);
  if (m != ~0u) { x.fail("stmatrix with inactive lanes (their registers hold matrix elements), " + x.prog->where(in)); return; }
  const Operand &s = in.ops[1];
  for (unsigned i = 0; i < n; ++i)
    for (unsigned r = 0; r < 8; ++r) {
      std::uint8_t *dst = row[8 * i + r];
      for (unsigned c = 0; c < 8; ++c) {
        unsigned lane = trans ? c * 4 + r / 2 : r * 4 + c / 2, half = trans ? r % 2 : c % 2;
        U32 w = s.index == kRZ ? 0u : x.w->r[(s.index + i) & 255][lane];
        std::uint16_t h = static_cast<std::uint16_t>(half ? w >> 16 : w & 0xffff);
        std::memcpy(dst + 2 * c, &h, 2);
      }
    }
}

/// MOVM.16.MT88 Rd, Ra
void hMovm(Exec &x, const Instr &in, U32 m) {
  U32 v[32];
  x.fetch(in.ops[1], ~0u, v, in);
  auto at = [&](unsigned r, unsigned c) -> std::uint16_t { // element (row r, col c) of the source
    U32 w = v[r * 4 + c / 2];
    return static_cast<std::uint16_t>(c & 1 ? w >> 16 : w & 0xffff);
  };
  U32 d[32];
  for (unsigned l = 0; l < 32; ++l) {
    unsigned g = l / 4, t = l % 4;
    d[l] = at(2 * t, g) | U32(at(2 * t + 1, g)) << 16;
  }
  x.write(in.ops[0], m, d);
}

/// F2FP.{F16,BF16}.F32.PACK_AB Rd, Ra, Rb
void hF2fp(Exec &x, const Instr &in, U32 m) {
  U32 a[32], b[32], d[32];
  x.fetchF(in.ops[1], m, a, in);
  x.fetchF(in.ops[2], m, b, in);
  const bool bf = in.flags & kBf16;
  for (int l = 0; l < 32; ++l) {
    float fa = std::bit_cast<float>(a[l]), fb = std::bit_cast<float>(b[l]);
    U32 ha = bf ? floatToBf16(fa) : floatToHalf(fa), hb = bf ? floatToBf16(fb) : floatToHalf(fb);
    d[l] = ha << 16 | hb;
  }
  x.write(in.ops[0], m, d);
}

} // namespace

std::string selectTensor(Instr &in) {
  const std::string &b = in.base;
  if (b == "HGMMA") {
    unsigned n = 0;
    for (const std::string &mod : in.mods) {
      if (mod.rfind("64x", 0) == 0 && mod.size() > 6 && mod.substr(mod.size() - 3) == "x16") n = unsigned(std::atoi(mod.c_str() + 3));
      else if (mod != "F32" && mod != "BF16") return "HGMMA modifier '" + mod + "' is not supported (f16/bf16 inputs, f32 accumulate)";
    }
    if (n < 8 || n > 256 || n % 8) return "HGMMA shape '" + in.opcode + "' is not supported (64xNx16)";
    if (in.ops.size() < 3 || in.ops[0].kind != OpKind::Reg || in.ops[1].kind != OpKind::Mem ||
        in.ops[1].idxKind != OpKind::UReg || in.ops[2].kind != OpKind::Reg)
      return "HGMMA form not supported (A and B from shared-memory descriptors only)";
    in.sub = n;
    in.flags = hasMod(in, "BF16") ? U32(kBf16) : 0u;
    in.space = model::Space::Shared; // as the probe's listing files it
    in.memOp = model::Op::Load;
    in.width = 4;
    in.emit = true;
    in.fn = hHgmma;
    return {};
  }
  if (b == "WARPGROUP") { // wgmma.fence (ARRIVE) and wgmma.wait_group (DEPBAR): HGMMA completes at once
    if (!hasMod(in, "ARRIVE") && !hasMod(in, "DEPBAR")) return "WARPGROUP form '" + in.opcode + "' is not supported";
    in.fn = [](Exec &, const Instr &, U32) {};
    return {};
  }
  if (b == "HMMA") {
    if (in.ops.size() != 4) return "HMMA with " + std::to_string(in.ops.size()) + " operands";
    bool k16 = hasMod(in, "16816"), k8 = hasMod(in, "1688");
    if (!k16 && !k8 && !hasMod(in, "TF32")) return "HMMA shape '" + in.opcode + "' is not supported (16816 and 1688 are)";
    if (hasMod(in, "TF32")) {
      bool k4 = hasMod(in, "1684");
      if ((!k4 && !hasMod(in, "1688")) || !hasMod(in, "F32") || in.mods.size() != 3)
        return "HMMA tf32 form '" + in.opcode + "' is not supported (1684 and 1688 with F32 are)";
      in.flags = kTf32 | (k4 ? U32(kK4) : 0u);
      in.fn = hHmmaTf32;
      return {};
    }
    for (const std::string &mod : in.mods)
      if (mod != "16816" && mod != "1688" && mod != "F32" && mod != "F16" && mod != "BF16")
        return "HMMA modifier '" + mod + "' is not supported";
    in.flags = (hasMod(in, "BF16") ? U32(kBf16) : 0u) | (k8 ? U32(kK8) : 0u) | (hasMod(in, "F32") ? 0u : U32(kF16Acc));
    in.fn = hHmma;
    return {};
  }
  if (b == "IMMA") {
    if (in.ops.size() != 4) return "IMMA with " + std::to_string(in.ops.size()) + " operands";
    unsigned k = hasMod(in, "16832") ? 32 : hasMod(in, "16816") ? 16 : 0;
    if (!k) return "IMMA shape '" + in.opcode + "' is not supported (16816 and 16832 are)";
    std::vector<std::string> types;
    bool sat = false;
    for (const std::string &mod : in.mods) {
      if (mod == "S8" || mod == "U8") types.push_back(mod);
      else if (mod == "SAT") sat = true;
      else if (mod != "16816" && mod != "16832") return "IMMA modifier '" + mod + "' is not supported (8-bit inputs)";
    }
    if (types.size() != 2) return "IMMA form '" + in.opcode + "' is not supported (two 8-bit input types)";
    in.sub = k;
    in.flags = (types[0] == "S8" ? 1u : 0u) | (types[1] == "S8" ? 2u : 0u) | (sat ? 4u : 0u);
    in.fn = hImma;
    return {};
  }
  if (b == "STSM") {
    if (!hasMod(in, "16") || in.ops.size() != 2 || in.ops[0].kind != OpKind::Mem || in.ops[1].kind != OpKind::Reg)
      return "STSM form '" + in.opcode + "'";
    bool trans = hasMod(in, "MT88");
    if (!trans && !hasMod(in, "M88")) return "STSM layout '" + in.opcode + "' is not supported";
    in.sub = hasMod(in, "4") ? 4 : hasMod(in, "2") ? 2 : 1;
    in.flags = trans ? 1 : 0;
    in.width = static_cast<std::uint8_t>(4 * in.sub); // as LDSM (the probe's listing files both alike)
    in.space = model::Space::Shared;
    in.memOp = model::Op::Store;
    in.emit = true;
    in.fn = hStsm;
    return {};
  }
  if (b == "LDSM") {
    if (!hasMod(in, "16") || in.ops.size() != 2 || in.ops[1].kind != OpKind::Mem) return "LDSM form '" + in.opcode + "'";
    bool trans = hasMod(in, "MT88");
    if (!trans && !hasMod(in, "M88")) return "LDSM layout '" + in.opcode + "' is not supported";
    in.sub = hasMod(in, "4") ? 4 : hasMod(in, "2") ? 2 : 1;
    in.flags = trans ? 1 : 0;
    in.width = static_cast<std::uint8_t>(4 * in.sub); // as the probe's listing files it (4, 8, 16)
    in.space = model::Space::Shared;
    in.memOp = model::Op::Load;
    in.emit = true;
    in.fn = hLdsm;
    return {};
  }
  if (b == "MOVM") {
    if (!hasMod(in, "16") || !hasMod(in, "MT88") || in.ops.size() != 2) return "MOVM form '" + in.opcode + "'";
    in.fn = hMovm;
    return {};
  }
  if (b == "F2FP") {
    if (!hasMod(in, "PACK_AB") || !hasMod(in, "F32") || in.ops.size() != 3) return "F2FP form '" + in.opcode + "' is not supported";
    if (hasMod(in, "BF16")) in.flags = kBf16;
    else if (!hasMod(in, "F16")) return "F2FP form '" + in.opcode + "' is not supported";
    in.fn = hF2fp;
    return {};
  }
  return "not a tensor-core opcode";
}

} // namespace warplens::sassemu
