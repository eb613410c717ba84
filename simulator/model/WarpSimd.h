/// \file
/// AVX-512 building blocks of the models' vectorised paths (internal to the model module):
/// loading a warp's 32 addresses, relative 32-bit keys, sorting them, counting neighbour changes.
/// Only compiled on x86-64 with GCC/Clang; callers check the CPU at run time.
#pragma once

#include <bit>
#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#define WARPLENS_MODEL_AVX512 1
// GCC 12's intrinsics start some results from a self-initialised "undefined" vector, which
// -Wmaybe-uninitialized reports at the intrinsic (location-based, so only this header's code).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

namespace warplens::model::detail {

/// Whether this CPU has AVX-512F + BW, BMI2 and LZCNT (the shared model's path); false where
/// not compiled.
inline bool cpuHasAvx512Bw() {
#ifdef WARPLENS_MODEL_AVX512
#if defined(__clang__)
  // clang (14) knows no "lzcnt" feature name; every CPU with AVX-512F has LZCNT (Intel since
  // Haswell, AMD since Zen 4 has AVX-512), so the other three decide.
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("bmi2");
#else
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("lzcnt");
#endif
  return has;
#else
  return false;
#endif
}

/// Whether this CPU runs the AVX-512 paths (AVX-512F); false where they are not compiled.
inline bool cpuHasAvx512() {
#ifdef WARPLENS_MODEL_AVX512
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
#else
  return false;
#endif
}

#ifdef WARPLENS_MODEL_AVX512
#define WARPLENS_AVX512_FN __attribute__((target("avx512f,popcnt,bmi,bmi2")))
/// The helpers below are forced inline: keys stay in registers across them.
#define WARPLENS_AVX512_INLINE __attribute__((target("avx512f,popcnt,bmi,bmi2"), always_inline)) inline

/// 32 unsigned 32-bit keys: lanes 0..15 in lo, 16..31 in hi.
struct Keys32 {
  __m512i lo, hi;
};

/// A warp's 32 addresses in four vectors of 8 lanes (inactive lanes hold whatever the event has).
WARPLENS_AVX512_INLINE void loadAddrs(const std::uint64_t *addr, __m512i v[4]) {
#pragma GCC unroll 4
  for (unsigned q = 0; q < 4; ++q) v[q] = _mm512_loadu_si512(addr + 8 * q);
}

/// Whether an active lane's address has a bit of `lowBits` set.
WARPLENS_AVX512_INLINE bool anyMisaligned(const __m512i v[4], std::uint32_t mask,
                                             std::uint64_t lowBits) {
  const __m512i low = _mm512_set1_epi64(std::int64_t(lowBits));
  unsigned bad = 0;
#pragma GCC unroll 4
  for (unsigned q = 0; q < 4; ++q)
    bad |= _mm512_mask_test_epi64_mask(__mmask8(mask >> (8 * q)), v[q], low);
  return bad != 0;
}

/// out = (v - base) >> shift per lane, in 32 bits; inactive lanes get `fill`. False if an active
/// lane's value (computed modulo 2^64) exceeds maxKey.
WARPLENS_AVX512_INLINE bool relativeKeys(const __m512i v[4], std::uint32_t mask,
                                            std::uint64_t base, unsigned shift,
                                            std::uint32_t maxKey, std::uint32_t fill,
                                            Keys32 &out) {
  const __m512i b = _mm512_set1_epi64(std::int64_t(base));
  const __m512i f = _mm512_set1_epi64(std::int64_t(fill));
  const __m512i lim = _mm512_set1_epi64(std::int64_t(maxKey));
  const __m128i s = _mm_cvtsi32_si128(int(shift));
  __m512i k[4];
  unsigned bad = 0;
#pragma GCC unroll 4
  for (unsigned q = 0; q < 4; ++q) {
    const __mmask8 m = __mmask8(mask >> (8 * q));
    __m512i r = _mm512_srl_epi64(_mm512_sub_epi64(v[q], b), s);
    bad |= _mm512_mask_cmpgt_epu64_mask(m, r, lim);
    k[q] = _mm512_mask_mov_epi64(f, m, r);
  }
  // Low 32 bits of each 64-bit lane of two vectors: even 32-bit lanes of the pair.
  const __m512i even =
      _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  out.lo = _mm512_permutex2var_epi32(k[0], even, k[1]);
  out.hi = _mm512_permutex2var_epi32(k[2], even, k[3]);
  return bad == 0;
}

/// Bit i set: lane i (at global index base + i) of a bitonic compare-exchange stage (block K,
/// distance J) keeps the larger key.
constexpr __mmask16 takeMaxMask(unsigned k, unsigned j, unsigned base) {
  unsigned m = 0;
  for (unsigned i = 0; i < 16; ++i) {
    unsigned g = base + i;
    bool lower = (g & j) == 0, ascending = (g & k) == 0;
    if (lower != ascending) m |= 1u << i;
  }
  return __mmask16(m);
}

/// Lane i of the result = lane i ^ J of v (J = 1, 2, 4 or 8).
template <unsigned J> WARPLENS_AVX512_INLINE __m512i partner(__m512i v) {
  if constexpr (J == 1) return _mm512_shuffle_epi32(v, _MM_PERM_CDAB);
  else if constexpr (J == 2) return _mm512_shuffle_epi32(v, _MM_PERM_BADC);
  else if constexpr (J == 4) return _mm512_shuffle_i64x2(v, v, 0xB1);
  else return _mm512_shuffle_i64x2(v, v, 0x4E);
}

template <unsigned K, unsigned J, unsigned Base>
WARPLENS_AVX512_INLINE __m512i bitonicStage(__m512i v) {
  const __m512i p = partner<J>(v);
  return _mm512_mask_max_epu32(_mm512_min_epu32(v, p), takeMaxMask(K, J, Base), v, p);
}

/// One bitonic merge level (blocks of K lanes, distances J .. 1).
template <unsigned K, unsigned J> WARPLENS_AVX512_INLINE void bitonicStep(Keys32 &x) {
  if constexpr (J == 16) {
    __m512i a = _mm512_min_epu32(x.lo, x.hi), b = _mm512_max_epu32(x.lo, x.hi);
    x.lo = a, x.hi = b;
  } else {
    x.lo = bitonicStage<K, J, 0>(x.lo);
    x.hi = bitonicStage<K, J, 16>(x.hi);
  }
  if constexpr (J > 1) bitonicStep<K, J / 2>(x);
}

/// Sorts the 32 keys ascending (bitonic network, branch-free).
WARPLENS_AVX512_INLINE void sort32(Keys32 &x) {
  bitonicStep<2, 1>(x);
  bitonicStep<4, 2>(x);
  bitonicStep<8, 4>(x);
  bitonicStep<16, 8>(x);
  bitonicStep<32, 16>(x);
}

/// Lane i of the result = lane i-1 of the 32-lane sequence (lane 0: unspecified).
WARPLENS_AVX512_INLINE Keys32 previous(const Keys32 &x) {
  return {_mm512_alignr_epi32(x.lo, x.lo, 15), _mm512_alignr_epi32(x.hi, x.lo, 15)};
}

/// 32-bit mask of lanes where a != b.
WARPLENS_AVX512_INLINE std::uint32_t notEqual(const Keys32 &a, const Keys32 &b) {
  return std::uint32_t(_mm512_cmpneq_epu32_mask(a.lo, b.lo)) |
         std::uint32_t(_mm512_cmpneq_epu32_mask(a.hi, b.hi)) << 16;
}

WARPLENS_AVX512_INLINE Keys32 shiftRight(const Keys32 &x, unsigned s) {
  const __m128i c = _mm_cvtsi32_si128(int(s));
  return {_mm512_srl_epi32(x.lo, c), _mm512_srl_epi32(x.hi, c)};
}

/// Number of lanes in `valid` where the key differs from the previous lane's (lane 0 counts).
WARPLENS_AVX512_INLINE unsigned countChanges(const Keys32 &sorted, std::uint32_t valid) {
  return unsigned(std::popcount((notEqual(sorted, previous(sorted)) | 1u) & valid));
}
#endif

} // namespace warplens::model::detail
