/// \file
/// Strong types for the quantities the models count: byte addresses, sector and bank indices,
/// and 32-lane masks. They keep a bank number from being added to an address by accident.
#pragma once

#include <bit>
#include <compare>
#include <cstdint>
#include <functional>

namespace warplens {

/// A byte address in one memory space (global addresses are virtual, shared are offsets).
struct ByteAddress {
  std::uint64_t value = 0;
  constexpr auto operator<=>(const ByteAddress &) const = default;
  constexpr ByteAddress operator+(std::uint64_t bytes) const { return {value + bytes}; }
};

/// Index of a 32-byte (or arch-defined) sector: address / sector_bytes.
struct SectorIndex {
  std::uint64_t value = 0;
  constexpr auto operator<=>(const SectorIndex &) const = default;
};

/// Shared-memory bank number, 0 .. banks-1.
struct BankIndex {
  std::uint32_t value = 0;
  constexpr auto operator<=>(const BankIndex &) const = default;
};

/// Which of a warp's 32 lanes take part. Bit i = lane i.
struct LaneMask {
  std::uint32_t bits = 0;
  static constexpr LaneMask all() { return {0xffffffffu}; }
  static constexpr LaneMask none() { return {0u}; }
  constexpr bool test(unsigned lane) const { return (bits >> lane) & 1u; }
  constexpr void set(unsigned lane) { bits |= (1u << lane); }
  constexpr int count() const { return std::popcount(bits); }
  constexpr bool empty() const { return bits == 0; }
  constexpr LaneMask operator&(LaneMask o) const { return {bits & o.bits}; }
  constexpr LaneMask operator|(LaneMask o) const { return {bits | o.bits}; }
  constexpr LaneMask operator~() const { return {~bits}; }
  constexpr bool operator==(const LaneMask &) const = default;
};

} // namespace warplens
