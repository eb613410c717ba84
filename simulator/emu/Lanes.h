/// \file
/// Typed access to 64-bit register slots and the per-lane loops every handler is built from:
/// a full-warp branch-free loop (vectorizable) and a masked loop for divergent warps.
#pragma once

#include "emu/Exec.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace warplens::emu {

template <class T> inline T get(std::uint64_t v) {
  if constexpr (std::is_same_v<T, float>) {
    std::uint32_t b = static_cast<std::uint32_t>(v);
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  } else if constexpr (std::is_same_v<T, double>) {
    double d;
    std::memcpy(&d, &v, 8);
    return d;
  } else {
    return static_cast<T>(v);
  }
}

template <class T> inline std::uint64_t put(T v) {
  if constexpr (std::is_same_v<T, float>) {
    std::uint32_t b;
    std::memcpy(&b, &v, 4);
    return b;
  } else if constexpr (std::is_same_v<T, double>) {
    std::uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  } else {
    using U = std::make_unsigned_t<T>;
    return static_cast<std::uint64_t>(static_cast<U>(v));
  }
}

/// Runs body(lane) for every lane set in `mask`.
template <class F> inline void forLanes(std::uint32_t mask, F &&body) {
  if (mask == kFullMask) {
    for (unsigned l = 0; l < 32; ++l) body(l);
  } else {
    while (mask) {
      unsigned l = static_cast<unsigned>(std::countr_zero(mask));
      mask &= mask - 1;
      body(l);
    }
  }
}

/// Writes predicate bits `bits` to predicate `p` for the lanes in `mask`.
inline void writePred(Exec &x, std::uint32_t p, std::uint32_t bits, std::uint32_t mask) {
  if (p == kNone) return;
  x.preds[p] = (x.preds[p] & ~mask) | (bits & mask);
}

/// Predicate source i of `in`, negation applied.
inline std::uint32_t readPred(const Exec &x, const DInstr &in, unsigned i) {
  std::uint32_t v = x.preds[in.a[i]];
  return (in.negMask >> i) & 1u ? ~v : v;
}

} // namespace warplens::emu
