/// \file
/// The AVX-512 path of the bank model: each phase's 16-bit keys (bank group, row) sorted in one
/// vector; a phase's wavefronts are the most distinct rows any bank group serves in it. Same
/// rules as SharedModel.h; used only when the CPU has AVX-512BW, BMI2 and LZCNT.
#include "model/SharedModel.h"

#include "model/WarpSimd.h"

#include <algorithm>
#include <array>
#include <bit>

namespace warplens::model {
namespace {

/// Bit n of the result = bit n ^ x of m (x < 32).
constexpr std::uint32_t partnerLanes(std::uint32_t m, unsigned x) {
  constexpr std::uint32_t keep[5] = {0x55555555u, 0x33333333u, 0x0f0f0f0fu, 0x00ff00ffu,
                                     0x0000ffffu};
  for (unsigned k = 0; k < 5; ++k) {
    if (!((x >> k) & 1u)) continue;
    const unsigned s = 1u << k;
    m = ((m >> s) & keep[k]) | ((m & keep[k]) << s);
  }
  return m;
}

#ifdef WARPLENS_MODEL_AVX512
#define WARPLENS_AVX512BW_FN __attribute__((target("avx512f,avx512bw,popcnt,bmi,bmi2,lzcnt")))
#define WARPLENS_AVX512BW_INLINE                                                                 \
  __attribute__((target("avx512f,avx512bw,popcnt,bmi,bmi2,lzcnt"), always_inline)) inline

constexpr unsigned kRowBits = 11; ///< row field of a 16-bit key; the bank group (5 bits) above it
constexpr std::uint16_t kFiller = 0xffff; ///< key of inactive lanes (no real key reaches it)

/// Bit i set: lane i of a bitonic compare-exchange stage (block K, distance J) over 32 lanes
/// keeps the larger key; K = 64: every block ascending.
constexpr __mmask32 takeMax32(unsigned k, unsigned j) {
  std::uint32_t m = 0;
  for (unsigned i = 0; i < 32; ++i)
    if (((i & j) == 0) != ((i & k) == 0)) m |= 1u << i;
  return m;
}

/// Lane i of the result = lane i ^ J of v (32 lanes of 16 bits).
template <unsigned J> WARPLENS_AVX512BW_INLINE __m512i partner16(__m512i v) {
  if constexpr (J == 1) return _mm512_rol_epi32(v, 16);
  else if constexpr (J == 2) return _mm512_shuffle_epi32(v, _MM_PERM_CDAB);
  else if constexpr (J == 4) return _mm512_shuffle_epi32(v, _MM_PERM_BADC);
  else if constexpr (J == 8) return _mm512_shuffle_i64x2(v, v, 0xB1);
  else return _mm512_shuffle_i64x2(v, v, 0x4E);
}

template <unsigned K, unsigned J, bool Up = false>
WARPLENS_AVX512BW_INLINE __m512i merge16(__m512i v) {
  const __m512i p = partner16<J>(v);
  v = _mm512_mask_max_epu16(_mm512_min_epu16(v, p), takeMax32(Up ? 64 : K, J), v, p);
  if constexpr (J > 1) return merge16<K, J / 2, Up>(v);
  else return v;
}

/// Sorts each block of `block` lanes (1, 2, 4, 8, 16 or 32) of 32 16-bit keys ascending.
WARPLENS_AVX512BW_INLINE __m512i sortBlocks16(__m512i v, unsigned block) {
  if (block == 1) return v;
  if (block == 2) return merge16<2, 1, true>(v);
  v = merge16<2, 1>(v);
  if (block == 4) return merge16<4, 2, true>(v);
  v = merge16<4, 2>(v);
  if (block == 8) return merge16<8, 4, true>(v);
  v = merge16<8, 4>(v);
  if (block == 16) return merge16<16, 8, true>(v);
  return merge16<32, 16>(merge16<16, 8>(v));
}

/// Longest run of set bits within each byte value.
constexpr std::array<std::uint8_t, 256> kByteRuns = [] {
  std::array<std::uint8_t, 256> t{};
  for (unsigned b = 0; b < 256; ++b) {
    unsigned run = 0, best = 0;
    for (unsigned i = 0; i < 8; ++i) {
      run = (b >> i) & 1u ? run + 1 : 0;
      best = std::max(best, run);
    }
    t[b] = std::uint8_t(best);
  }
  return t;
}();

/// Branch-free max (std::max on table references compiles to data-dependent branches).
WARPLENS_AVX512BW_INLINE unsigned maxOf(unsigned a, unsigned b) {
  return a ^ ((a ^ b) & (0u - unsigned(a < b)));
}

/// Ones of y below bit k plus ones from bit k up: the run through the boundary at bit k.
WARPLENS_AVX512BW_INLINE unsigned runThrough(std::uint32_t y, unsigned k) {
  return unsigned(std::countl_zero(~(y << (32 - k)))) + unsigned(std::countr_zero(~(y >> k)));
}

/// Length of the longest run of set bits in y, with a short dependency chain and no branches
/// (y is data): runs inside a byte from a table, runs through a byte boundary by bit counts.
WARPLENS_AVX512BW_INLINE unsigned longestRun(std::uint32_t y) {
  const unsigned b0 = kByteRuns[y & 0xff], b1 = kByteRuns[(y >> 8) & 0xff],
                 b2 = kByteRuns[(y >> 16) & 0xff], b3 = kByteRuns[y >> 24];
  const unsigned c = maxOf(maxOf(runThrough(y, 8), runThrough(y, 16)), runThrough(y, 24));
  return maxOf(maxOf(maxOf(b0, b1), maxOf(b2, b3)), c);
}

/// Every active lane's access is aligned to `width` (a power of two, at most a row) and so lies in
/// one row and one element of unit = max(width, bank width) bytes; the element's banks form bank
/// group g = (address % row bytes) / unit, and lanes in different groups share no bank. So the
/// distinct words a bank serves in a phase = the distinct rows among the phase's lanes in its
/// group. Phases are aligned blocks of `block` lanes; keys g << 11 | (row - first row + 2^10)
/// are sorted within each block, and a phase's wavefronts are its longest run of distinct keys
/// with the same g. Returns SharedModel::packVectorCost(...), or 0 when the event needs the
/// scalar path (rows 2^10 or more from the first lane's). (Scalars, not a struct: GCC assembles
/// small structs through memory and stalls store forwarding.)
WARPLENS_AVX512BW_FN std::uint64_t sortedCost(const AccessEvent &event, unsigned width,
                                              unsigned plainBlock, unsigned packedBlock,
                                              std::uint32_t packXors, unsigned wordShift,
                                              unsigned rowShift) {
  static_assert(sizeof(ByteAddress) == sizeof(std::uint64_t));
  const std::uint32_t mask = event.active.bits;
  __m512i v[4];
  detail::loadAddrs(&event.addr[0].value, v);
  if (detail::anyMisaligned(v, mask, width - 1)) return 0;
  const std::uint64_t firstRow = event.addr[std::countr_zero(mask)].value >> rowShift;
  const std::uint64_t base = (firstRow - (std::uint64_t(1) << (kRowBits - 1))) << rowShift;
  // rel = address - base, rows 0 .. 2^11 - 2 (so no key reaches the filler).
  const std::uint32_t maxRel = (((1u << kRowBits) - 1) << rowShift) - 1;
  detail::Keys32 rel;
  if (!detail::relativeKeys(v, mask, base, 0, maxRel, 0, rel)) return 0;

  // Packed layout: for some x, every active lane with an active partner n^x has its address.
  unsigned block = plainBlock;
  bool packed = false;
  const __m512i iota = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  for (std::uint32_t xs = packXors; xs; xs &= xs - 1) {
    const unsigned x = unsigned(std::countr_zero(xs));
    const __m512i idx = _mm512_xor_si512(iota, _mm512_set1_epi32(int(x & 15)));
    const bool swap = x & 16;
    const detail::Keys32 p = {_mm512_permutexvar_epi32(idx, swap ? rel.hi : rel.lo),
                              _mm512_permutexvar_epi32(idx, swap ? rel.lo : rel.hi)};
    if ((mask & partnerLanes(mask, x) & detail::notEqual(rel, p)) == 0) {
      packed = true;
      block = packedBlock;
      break;
    }
  }
  if (block == 0) return 0; // phases are not aligned power-of-two blocks

  // 16-bit keys g << 11 | row, one vector of 32 lanes.
  const unsigned unitShift = std::max(unsigned(std::countr_zero(width)), wordShift);
  const __m512i inRow = _mm512_set1_epi32(int((1u << rowShift) - 1));
  const __m128i gShift = _mm_cvtsi32_si128(int(unitShift)), rShift = _mm_cvtsi32_si128(int(rowShift));
  const __m512i filler = _mm512_set1_epi32(kFiller);
  __m512i k32[2];
  for (unsigned h = 0; h < 2; ++h) {
    const __m512i r = h ? rel.hi : rel.lo;
    const __m512i g = _mm512_srl_epi32(_mm512_and_si512(r, inRow), gShift);
    const __m512i key = _mm512_or_si512(_mm512_slli_epi32(g, kRowBits), _mm512_srl_epi32(r, rShift));
    k32[h] = _mm512_mask_mov_epi32(filler, __mmask16(mask >> (16 * h)), key);
  }
  const __m512i even16 = _mm512_set_epi16(62, 60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40, 38, 36,
                                          34, 32, 30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8,
                                          6, 4, 2, 0);
  const __m512i k = sortBlocks16(_mm512_permutex2var_epi16(k32[0], even16, k32[1]), block);

  // Lane i-1 of the sorted keys; blocks are independent: their first lanes always start anew.
  const __m512i down1 = _mm512_set_epi16(30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                         16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
                                         0, 0);
  const __m512i prev = _mm512_permutexvar_epi16(down1, k);
  constexpr std::uint32_t kBlockStarts[6] = {0xffffffffu, 0x55555555u, 0x11111111u,
                                             0x01010101u, 0x00010001u, 0x00000001u};
  const std::uint32_t starts = kBlockStarts[std::countr_zero(block)];
  const std::uint32_t valid = _mm512_cmpneq_epu16_mask(k, _mm512_set1_epi16(short(kFiller)));
  const std::uint32_t fresh = (_mm512_cmpneq_epu16_mask(k, prev) | starts) & valid;
  const std::uint32_t groupStart =
      _mm512_cmpneq_epu16_mask(_mm512_srli_epi16(k, kRowBits), _mm512_srli_epi16(prev, kRowBits)) |
      starts;

  // Per phase: index its distinct keys 0..m-1; the group starts among them, G, split them into
  // runs, and the longest run (1 + longest run of zeros of G below m) is its wavefronts.
  const std::uint32_t blockMask = block == 32 ? ~0u : (1u << block) - 1;
  std::uint32_t wavefronts = 0, ways = 0;
  for (unsigned p = 0; p < 32; p += block) {
    const std::uint32_t f = (fresh >> p) & blockMask;
    if (!f) continue;
    const unsigned m = unsigned(std::popcount(f));
    const std::uint32_t g = _pext_u32((groupStart >> p) & blockMask, f);
    const std::uint32_t below = m == 32 ? ~0u : (1u << m) - 1;
    const std::uint32_t z = ~g & below; // distinct keys that share a group with the previous one
    // z == 0 (no bank conflict) is common and usually steady for an instruction: skip the rest.
    const std::uint32_t w = z ? 1 + longestRun(z) : 1;
    wavefronts += w;
    ways = maxOf(ways, w);
  }
  return SharedModel::packVectorCost(wavefronts, ways, packed);
}
#endif

} // namespace

std::uint64_t SharedModel::costVectorised(const AccessEvent &event, unsigned width,
                                          const OpRule &o) const {
#ifdef WARPLENS_MODEL_AVX512
  return sortedCost(event, width, o.plain.sortBlock, o.packed.sortBlock, o.packXors, wordShift_,
                    rowShift_);
#else
  (void)event, (void)width, (void)o;
  return 0;
#endif
}

} // namespace warplens::model
