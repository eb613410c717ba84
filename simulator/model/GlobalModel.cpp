/// \file
/// Coalescing model: a warp's active lanes are folded into per-line byte masks (lines are at most
/// 128 bytes, so one mask is two 64-bit words); sectors, lines and distinct bytes follow from the
/// masks. Aligned lanes are counted from their sorted addresses (AVX-512: 32-bit keys relative to
/// the lowest line, a bitonic network, neighbour changes) or, on other CPUs, by a vectorised scan
/// of neighbour changes when non-decreasing, else a small hash set.
#include "model/GlobalModel.h"

#include "model/SmallKeySet.h"
#include "model/WarpSimd.h"

#include <algorithm>
#include <bit>

namespace warplens::model {
namespace {

/// The bytes of one line a warp touched: bit i of (lo, hi) = byte i of the line.
struct LineMask {
  std::uint64_t lo = 0, hi = 0;
  void add(unsigned off, unsigned len) { // [off, off+len) inside the line, len <= 64
    std::uint64_t ones = len >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << len) - 1;
    if (off >= 64) {
      hi |= ones << (off - 64);
    } else {
      lo |= ones << off;
      if (off + len > 64) hi |= ones >> (64 - off);
    }
  }
  void merge(const LineMask &o) { lo |= o.lo, hi |= o.hi; }
  unsigned bytes() const { return unsigned(std::popcount(lo) + std::popcount(hi)); }
};

/// Counts over 32 lanes' addresses (inactive lanes already replaced by a neighbour's address, which
/// adds no change): changes of address, sector and line between neighbours, whether any address
/// decreases, and the OR of all (for alignment). Written as plain loops so that the AVX2 clone
/// vectorises them.
struct Scan {
  std::uint64_t newAddr, newSector, newLine, decreasing, orAddr;
};

__attribute__((target_clones("avx2", "default"), optimize("O3", "vect-cost-model=unlimited")))
Scan scanLanes(const std::uint64_t *a, unsigned sectorShift, unsigned lineShift) {
  std::uint64_t na = 1, ns = 1, nl = 1, dec = 0, orA = a[0];
  for (unsigned i = 1; i < 32; ++i) {
    na += a[i] != a[i - 1];
    ns += (a[i] >> sectorShift) != (a[i - 1] >> sectorShift);
    nl += (a[i] >> lineShift) != (a[i - 1] >> lineShift);
    dec |= a[i] < a[i - 1];
    orA |= a[i];
  }
  return {na, ns, nl, dec, orA};
}

#if defined(__x86_64__) && !defined(__POPCNT__)
// Placed after scanLanes (its AVX2 clone cannot mix with a target pragma). Every x86-64 CPU
// that hosts a CUDA GPU has POPCNT (2008+); without it popcount is a slow libgcc call.
#pragma GCC target("popcnt")
#endif

#ifdef WARPLENS_MODEL_AVX512
/// Lanes aligned to a power-of-two width no larger than a sector, any order: keys (address -
/// lowest line start) / width, sorted; distinct addresses, sectors and lines are the changes
/// between neighbours of key, key >> (sector shift - width shift), key >> (line shift - ...).
/// False (c untouched) when an active lane is misaligned or the keys do not fit 32 bits.
WARPLENS_AVX512_FN bool costSorted(const AccessEvent &event, unsigned width, unsigned sectorShift,
                                   unsigned lineShift, bool idealDuplicates, GlobalCost &c) {
  static_assert(sizeof(ByteAddress) == sizeof(std::uint64_t));
  const std::uint32_t mask = event.active.bits;
  __m512i v[4];
  detail::loadAddrs(&event.addr[0].value, v);
  if (detail::anyMisaligned(v, mask, width - 1)) return false;
  // Base: the first active lane's line, less 2^31 keys, so keys on both sides of it fit.
  const unsigned ws = unsigned(std::countr_zero(width));
  const std::uint64_t first = event.addr[std::countr_zero(mask)].value;
  const std::uint64_t base = ((first >> lineShift) << lineShift) - (std::uint64_t(1) << (31 + ws));
  detail::Keys32 k;
  if (!detail::relativeKeys(v, mask, base, ws, 0xfffffffeu, 0xffffffffu, k)) return false;
  detail::sort32(k);
  const unsigned n = unsigned(std::popcount(mask));
  const std::uint32_t valid = n == 32 ? ~0u : (1u << n) - 1;
  c.sectors = detail::countChanges(detail::shiftRight(k, sectorShift - ws), valid);
  c.lines = detail::countChanges(detail::shiftRight(k, lineShift - ws), valid);
  const std::uint64_t idealBytes =
      idealDuplicates ? c.bytes : std::uint64_t(detail::countChanges(k, valid)) * width;
  c.sectorsIdeal = std::min(c.sectors, std::uint32_t((idealBytes + (1u << sectorShift) - 1) >>
                                                     sectorShift));
  return true;
}
#endif

} // namespace

GlobalModel::GlobalModel(const arch::ArchSpec &arch)
    : sectorShift_(unsigned(std::countr_zero(arch.sectorBytes))),
      lineShift_(unsigned(std::countr_zero(arch.lineBytes))), sectorBytes_(arch.sectorBytes),
      idealCountsDuplicates_(arch.idealCountsDuplicateBytes), simd_(detail::cpuHasAvx512()) {}

void GlobalModel::setVectorised(bool on) { simd_ = on && detail::cpuHasAvx512(); }

std::uint32_t GlobalModel::ideal(std::uint64_t bytes, std::uint32_t sectors) const {
  return std::min(sectors, std::uint32_t((bytes + sectorBytes_ - 1) / sectorBytes_));
}

/// Number of sectors (chunks of 2^sectorShift bytes) with at least one byte set.
static inline unsigned sectorsIn(const LineMask &m, unsigned sectorShift) {
  if (sectorShift == 5) // 32-byte sectors: four 32-bit chunks
    return unsigned((std::uint32_t(m.lo) != 0) + ((m.lo >> 32) != 0) + (std::uint32_t(m.hi) != 0) +
                    ((m.hi >> 32) != 0));
  const unsigned bits = 1u << sectorShift; // 16 or 64 (schema: 16..64)
  const std::uint64_t chunk = bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
  unsigned n = 0;
  for (unsigned off = 0; off < 64; off += bits) n += ((m.lo >> off) & chunk) != 0;
  for (unsigned off = 0; off < 64; off += bits) n += ((m.hi >> off) & chunk) != 0;
  return n;
}

GlobalCost GlobalModel::costAligned(const AccessEvent &event, unsigned width, GlobalCost c) const {
  const std::uint32_t mask = event.active.bits;
  const std::uint64_t lineBytes = std::uint64_t(1) << lineShift_;
  const std::uint64_t widthOnes = (std::uint64_t(1) << width) - 1; // width <= 32
  std::uint64_t distinctBytes;
  // Any order: a small hash set of lines, each with the mask of its bytes touched.
  detail::SmallKeySet<128> set;
  std::uint64_t lo[128], hi[128];
  set.reset();
  for (std::uint32_t m = mask; m; m &= m - 1) {
    std::uint64_t a = event.addr[std::countr_zero(m)].value;
    unsigned off = unsigned(a & (lineBytes - 1));
    std::uint64_t bits = widthOnes << (off & 63);
    std::uint64_t bl = off < 64 ? bits : 0, bh = off < 64 ? 0 : bits;
    bool isNew;
    unsigned slot = set.insert(a >> lineShift_, isNew);
    if (isNew) lo[slot] = bl, hi[slot] = bh;
    else lo[slot] |= bl, hi[slot] |= bh;
  }
  std::uint32_t lines = 0, sectors = 0;
  distinctBytes = 0;
  set.forEach([&](unsigned slot) {
    LineMask lm{lo[slot], hi[slot]};
    ++lines;
    sectors += sectorsIn(lm, sectorShift_);
    distinctBytes += lm.bytes();
  });
  c.lines = lines;
  c.sectors = sectors;
  c.sectorsIdeal = ideal(idealCountsDuplicates_ ? c.bytes : distinctBytes, c.sectors);
  return c;
}

GlobalCost GlobalModel::cost(const AccessEvent &event) const {
  GlobalCost c;
  const std::uint32_t mask = event.active.bits;
  if (mask == 0) return c;
  // Contract: width 1..16. Clamped to 1..32 so a lane spans at most two lines (>= 16 bytes each
  // by the arch schema) and the 128-slot line set below never fills.
  const unsigned width = event.widthBytes == 0 ? 1u : (event.widthBytes > 32 ? 32u : event.widthBytes);
  const std::uint64_t lineBytes = std::uint64_t(1) << lineShift_;
  c.requests = 1;
  c.bytes = unsigned(std::popcount(mask)) * width;

  std::uint32_t lines = 0, sectors = 0, distinctBytes = 0;

  // Aligned paths: power-of-two width and every active lane aligned to it, so a lane never
  // leaves its sector, line or 64-byte half, and two lanes' bytes are identical or disjoint.
  if (std::has_single_bit(width) && width <= sectorBytes_) {
#ifdef WARPLENS_MODEL_AVX512
    if (simd_ && costSorted(event, width, sectorShift_, lineShift_, idealCountsDuplicates_, c))
      return c;
#endif
    alignas(64) std::uint64_t a[32];
    std::uint64_t last = event.addr[std::countr_zero(mask)].value;
    for (unsigned i = 0; i < 32; ++i) { // inactive lanes repeat the previous active address
      last = (mask >> i) & 1 ? event.addr[i].value : last;
      a[i] = last;
    }
    Scan sc = scanLanes(a, sectorShift_, lineShift_);
    if ((sc.orAddr & (width - 1)) == 0) {
      if (!sc.decreasing) {
        // Non-decreasing addresses: every count is a number of changes between neighbours.
        c.sectors = std::uint32_t(sc.newSector);
        c.lines = std::uint32_t(sc.newLine);
        c.sectorsIdeal = ideal(idealCountsDuplicates_ ? c.bytes : sc.newAddr * width, c.sectors);
        return c;
      }
      return costAligned(event, width, c);
    }
  }
  // Calls f(line, off, len) for the piece of the lane's bytes in each line it covers.
  auto pieces = [&](std::uint64_t a, auto &&f) {
    std::uint64_t line = a >> lineShift_;
    unsigned off = unsigned(a & (lineBytes - 1));
    if (off + width <= lineBytes) {
      f(line, off, width);
    } else {
      unsigned first = unsigned(lineBytes) - off;
      f(line, off, first);
      f(line + 1, 0u, width - first);
    }
  };

  // Fast path: lines never decrease from one active lane to the next; a run of lanes in one line
  // is folded in registers and counted when the line changes.
  bool ordered = true;
  {
    std::uint64_t cur = ~std::uint64_t(0);
    LineMask acc;
    for (std::uint32_t m = mask; m && ordered; m &= m - 1) {
      unsigned lane = unsigned(std::countr_zero(m));
      pieces(event.addr[lane].value, [&](std::uint64_t line, unsigned off, unsigned len) {
        if (line == cur) {
          acc.add(off, len);
          return;
        }
        if (line < cur && cur != ~std::uint64_t(0)) {
          ordered = false;
          return;
        }
        if (cur != ~std::uint64_t(0)) {
          ++lines;
          sectors += sectorsIn(acc, sectorShift_);
          distinctBytes += acc.bytes();
        }
        cur = line;
        acc = LineMask{};
        acc.add(off, len);
      });
    }
    if (ordered) {
      ++lines;
      sectors += sectorsIn(acc, sectorShift_);
      distinctBytes += acc.bytes();
    }
  }

  if (!ordered) {
    // General path: a small hash set of lines, each with its byte mask.
    detail::SmallKeySet<128> set;
    LineMask masks[128];
    set.reset();
    for (std::uint32_t m = mask; m; m &= m - 1) {
      unsigned lane = unsigned(std::countr_zero(m));
      pieces(event.addr[lane].value, [&](std::uint64_t line, unsigned off, unsigned len) {
        bool isNew;
        unsigned slot = set.insert(line, isNew);
        if (isNew) masks[slot] = LineMask{};
        masks[slot].add(off, len);
      });
    }
    lines = sectors = distinctBytes = 0;
    set.forEach([&](unsigned slot) {
      ++lines;
      sectors += sectorsIn(masks[slot], sectorShift_);
      distinctBytes += masks[slot].bytes();
    });
  }

  c.lines = lines;
  c.sectors = sectors;
  c.sectorsIdeal = ideal(idealCountsDuplicates_ ? c.bytes : distinctBytes, c.sectors);
  return c;
}

} // namespace warplens::model
