/// \file
/// A fixed-capacity open-addressing set of 64-bit keys for the per-instruction models: no heap,
/// no clearing cost beyond a few occupancy words (internal to the model module).
#pragma once

#include <cstdint>
#include <cstring>

namespace warplens::model::detail {

/// Holds at most Slots/2 keys (callers insert at most that many per reset()). Slots is a power
/// of two and a multiple of 64. Keys live in slots; callers keep per-slot values in their own
/// arrays indexed by the slot insert() returns.
template <unsigned Slots> class SmallKeySet {
  static_assert(Slots % 64 == 0 && (Slots & (Slots - 1)) == 0);
  static constexpr unsigned kShift = 64 - __builtin_ctz(Slots);

public:
  void reset() { std::memset(occupied_, 0, sizeof occupied_); }

  /// Returns the key's slot; `isNew` tells whether it was just added.
  unsigned insert(std::uint64_t key, bool &isNew) {
    unsigned h = static_cast<unsigned>((key * 0x9E3779B97F4A7C15ull) >> kShift);
    for (;;) {
      std::uint64_t bit = std::uint64_t(1) << (h & 63);
      std::uint64_t &word = occupied_[h >> 6];
      if (!(word & bit)) {
        word |= bit;
        keys_[h] = key;
        isNew = true;
        return h;
      }
      if (keys_[h] == key) {
        isNew = false;
        return h;
      }
      h = (h + 1) & (Slots - 1);
    }
  }

  /// Calls f(slot) for every occupied slot.
  template <class F> void forEach(F &&f) const {
    for (unsigned i = 0; i < Slots / 64; ++i)
      for (std::uint64_t w = occupied_[i]; w; w &= w - 1) f(i * 64 + unsigned(__builtin_ctzll(w)));
  }

  std::uint64_t key(unsigned slot) const { return keys_[slot]; }

private:
  std::uint64_t occupied_[Slots / 64];
  std::uint64_t keys_[Slots]; // deliberately uninitialised: only occupied slots are read
};

} // namespace warplens::model::detail
