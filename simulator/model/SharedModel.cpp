/// \file
/// Bank model: picks the phase layout (plain or packed), counts per phase and bank the distinct
/// words a warp's active lanes touch; the worst bank of each phase sets that phase's wavefronts.
/// No heap use in cost().
#include "model/SharedModel.h"

#include "model/SmallKeySet.h"
#include "model/WarpSimd.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <set>

#if defined(__x86_64__) && !defined(__POPCNT__)
// Every x86-64 CPU that hosts a CUDA GPU has POPCNT (2008+); without it popcount is a slow
// libgcc call.
#pragma GCC target("popcnt")
#endif

namespace warplens::model {
namespace {

/// Index of a width in the rule table: 1→0, 2→1, 4→2, 8→3, 16→4 (others round up, capped).
inline unsigned widthIndex(unsigned w) {
  unsigned i = w <= 1 ? 0u : unsigned(std::bit_width(w - 1));
  return i > 4 ? 4u : i;
}

/// Contract: width 1..16; anything larger is clamped so the word set never fills.
inline unsigned clampWidth(unsigned w) { return w == 0 ? 1u : (w > 16 ? 16u : w); }


/// Slot of an op in the rule table: loads and stores may have overrides; atomics use Any.
inline unsigned opSlot(Op op) {
  return op == Op::Load ? 1u : op == Op::Store ? 2u : 0u;
}

} // namespace

void SharedModel::setLayout(WidthRule &w, unsigned lanesPerPhase, bool merge) {
  w = WidthRule{};
  w.lanesPerPhase = std::uint8_t(std::clamp(lanesPerPhase, 1u, 32u));
  w.merge = merge;
  w.numPhases = w.merge ? 1 : std::uint8_t((32 + w.lanesPerPhase - 1) / w.lanesPerPhase);
  w.sortBlock = w.merge ? 32 : std::has_single_bit(unsigned(w.lanesPerPhase)) ? w.lanesPerPhase : 0;
  for (unsigned lane = 0; lane < 32; ++lane) {
    w.phaseOfLane[lane] = w.merge ? 0 : std::uint8_t(lane / w.lanesPerPhase);
    w.lanesOfPhase[w.phaseOfLane[lane]] |= 1u << lane;
  }
}

SharedModel::SharedModel(const arch::ArchSpec &arch) : arch_(&arch) {
  wordShift_ = unsigned(std::countr_zero(arch.bankWidthBytes));
  banks_ = arch.sharedBanks;
  bankMask_ = banks_ - 1;
  bytesPerWavefront_ = arch.sharedBanks * arch.bankWidthBytes;
  rowShift_ = unsigned(std::countr_zero(bytesPerWavefront_));
  idealDuplicates_ = arch.sharedIdealCountsDuplicateBytes;
  simdAllowed_ = banks_ <= 32 && rowShift_ <= 16; // bank group: 5 bits; keys fit 32 bits
  simd_ = simdAllowed_ && detail::cpuHasAvx512Bw();
  const unsigned widths[5] = {1, 2, 4, 8, 16};
  const arch::SharedOp ops[3] = {arch::SharedOp::Any, arch::SharedOp::Load, arch::SharedOp::Store};
  for (unsigned o = 0; o < 3; ++o) {
    for (unsigned i = 0; i < 5; ++i) {
      const arch::SharedWidthRule &r = arch.sharedRule(widths[i], ops[o]);
      OpRule &rule = rules_[o][i];
      setLayout(rule.plain, r.lanesPerPhase, r.mergeAcrossPhases);
      rule.packXors = 0;
      rule.sv = r.hasSourceViewRule() && !r.mergeAcrossPhases;
      rule.svPackPerPhase = r.svPackPerPhase;
      rule.svPackOnlyConflictFree = r.svPackOnlyConflictFree;
      rule.svWarpMergeMaxLanes = r.svWarpMergeMaxLanes;
      rule.svWarpMergeLaneXor = r.svWarpMergeLaneXor;
      rule.svBroadcastLanes = r.svBroadcastLanesPerWavefront;
      rule.svStrictPhases = r.svStrictPairPhases;
      rule.svPairFreePhases = r.svPairFreePhases;
      rule.svPairFreeLane = r.svPairFreeLane & 31u;
      if (r.packedLanesPerPhase == 0) continue;
      setLayout(rule.packed, r.packedLanesPerPhase, r.mergeAcrossPhases);
      for (unsigned x : r.packLaneXors)
        if (x >= 1 && x <= 31) rule.packXors |= 1u << x;
    }
  }
}

void SharedModel::setVectorised(bool on) {
  simd_ = on && simdAllowed_ && detail::cpuHasAvx512Bw();
}

const SharedModel::WidthRule &SharedModel::layout(const AccessEvent &event, unsigned width,
                                                  bool &packed) const {
  const OpRule &o = rules_[opSlot(event.op)][widthIndex(width)];
  packed = false;
  const std::uint32_t mask = event.active.bits;
  for (std::uint32_t xs = o.packXors; xs; xs &= xs - 1) {
    const unsigned x = unsigned(std::countr_zero(xs));
    bool same = true;
    for (std::uint32_t m = mask; m && same; m &= m - 1) {
      const unsigned n = unsigned(std::countr_zero(m)), p = n ^ x;
      same = p < n || !((mask >> p) & 1u) || event.addr[n].value == event.addr[p].value;
    }
    if (same) {
      packed = true;
      return o.packed;
    }
  }
  return o.plain;
}

unsigned SharedModel::phasesWithLanes(std::uint32_t mask, const WidthRule &r) {
  unsigned n = 0;
  for (unsigned p = 0; p < r.numPhases; ++p) n += (mask & r.lanesOfPhase[p]) != 0;
  return n;
}

SharedCost SharedModel::cost(const AccessEvent &event) const {
  const std::uint32_t mask = event.active.bits;
  if (mask == 0) return {};
  const unsigned width = clampWidth(event.widthBytes);
  if (event.laneSerial) return costLaneSerial(event, width);
  const OpRule &o = rules_[opSlot(event.op)][widthIndex(width)];
  if (simd_ && idealDuplicates_ && std::has_single_bit(width)) {
    // Built from scalars at the end: a struct filled through memory stalls store forwarding.
    const std::uint64_t v = costVectorised(event, width, o);
    if (v) {
      const std::uint32_t wavefronts = std::uint32_t(v & 0xffff);
      const bool packed = (v >> 32) & 1;
      const std::uint32_t ideal = duplicateBytesIdeal(mask, width);
      SharedCost c;
      c.wavefrontsHw = wavefronts;
      c.wavefronts = o.sv ? sourceViewWavefronts(event, width, o, packed, wavefronts, c.svRule)
                          : wavefronts;
      c.wavefrontsIdeal = std::min(ideal, c.wavefronts);
      c.conflictWays = std::uint32_t((v >> 16) & 0xffff);
      c.wavefrontsConflictFree = phasesWithLanes(mask, packed ? o.packed : o.plain);
      c.packed = packed;
      return c;
    }
  }
  bool packed = false;
  const WidthRule &r = layout(event, width, packed);
  SharedCost c = costWith(event, width, r);
  c.packed = packed;
  c.wavefrontsConflictFree = phasesWithLanes(mask, r);
  c.wavefrontsHw = c.wavefronts;
  if (o.sv) c.wavefronts = sourceViewWavefronts(event, width, o, packed, c.wavefronts, c.svRule);
  if (idealDuplicates_) c.wavefrontsIdeal = duplicateBytesIdeal(mask, width);
  c.wavefrontsIdeal = std::min(c.wavefrontsIdeal, c.wavefronts);
  return c;
}

std::uint32_t SharedModel::duplicateBytesIdeal(std::uint32_t mask, unsigned width) const {
  const std::uint64_t bytes = std::uint64_t(std::popcount(mask)) * width;
  return std::max<std::uint32_t>(1u, std::uint32_t((bytes + bytesPerWavefront_ - 1) / bytesPerWavefront_));
}

SharedCost SharedModel::costLaneSerial(const AccessEvent &event, unsigned width) const {
  const std::uint32_t mask = event.active.bits;
  bool packed = false;
  const WidthRule &r = layout(event, width, packed);
  SharedCost c;
  c.packed = packed;
  // Per phase and bank, the active lanes touching it (a lane once per bank word it covers): lanes
  // on one word are separate accesses (AccessEvent::laneSerial).
  std::array<std::uint8_t, 64> lanesIn{};
  for (unsigned p = 0; p < r.numPhases; ++p) {
    const std::uint32_t lanes = mask & r.lanesOfPhase[p];
    if (!lanes) continue;
    lanesIn.fill(0);
    unsigned most = 0;
    for (std::uint32_t m = lanes; m; m &= m - 1) {
      const std::uint64_t a = event.addr[std::countr_zero(m)].value;
      for (std::uint64_t wd = a >> wordShift_, last = (a + width - 1) >> wordShift_; wd <= last; ++wd) {
        const unsigned bank = unsigned(wd) & bankMask_ & 63u;
        most = std::max<unsigned>(most, ++lanesIn[bank]);
      }
    }
    c.wavefronts += most;
    c.conflictWays = std::max<std::uint32_t>(c.conflictWays, most);
  }
  c.wavefrontsHw = c.wavefronts;
  c.wavefrontsConflictFree = phasesWithLanes(mask, r);
  c.wavefrontsIdeal = std::min(c.wavefronts, duplicateBytesIdeal(mask, width));
  return c;
}

const char *toString(SourceViewRule r) {
  switch (r) {
  case SourceViewRule::SameAsHardware: return "";
  case SourceViewRule::PackedConflict:
    return "a packed phase with a bank conflict counts as its plain phases (source view); the "
           "hardware counter keeps it packed";
  case SourceViewRule::PhasePacked:
    return "a packed phase whose own lanes meet the pair condition is one wavefront (source "
           "view); the hardware counter needs the condition warp-wide";
  case SourceViewRule::WarpMerged:
    return "a conflict-free warp with few active lanes is one wavefront (source view)";
  case SourceViewRule::Broadcast:
    return "every active lane reads one address: the source view counts one wavefront per "
           "packed phase's worth of active lanes (16 for a 16-byte load), wherever they sit; the "
           "hardware counter serves each packed phase with an active lane";
  case SourceViewRule::StrictPairs:
    return "lane 31 is active and a lane of half-warp 0 has its lane^1 and lane^2 partners "
           "switched off (or reading other addresses): the source view counts half-warp 0 as its "
           "quarter-warps; the hardware counter packs it (an inactive partner does not break a "
           "pair there)";
  case SourceViewRule::PairFree:
    return "lane 31 is inactive: the source view serves a conflict-free half-warp 0 in one "
           "wavefront even where lanes n and n^1 / n^2 read different addresses; the hardware "
           "counter needs the pair condition";
  }
  return "";
}

std::string describeRule(const BankDiagram &d, unsigned widthBytes, Op op) {
  auto group = [](unsigned lanes) -> std::string {
    if (lanes >= 32) return "the whole warp";
    if (lanes == 16) return "one half-warp (16 lanes)";
    if (lanes == 8) return "one quarter-warp (8 lanes)";
    return "one group of " + std::to_string(lanes) + " lanes";
  };
  std::string s = std::to_string(widthBytes) + "-byte " +
                  std::string(op == Op::Store ? "store" : op == Op::Load ? "load" : "access") +
                  ": " + (d.mergeAcrossPhases ? std::string("the whole warp") : group(d.lanesPerPhase)) +
                  " per phase";
  if (d.packed)
    s += " (packed: every active lane reads the address of its active lane^1 or lane^2 partner, "
         "so pairs share one return slot)";
  if (d.wavefrontsPerPhase.size() > 1) {
    s += "; wavefronts per phase ";
    for (std::size_t i = 0; i < d.wavefrontsPerPhase.size(); ++i)
      s += (i ? "+" : "") + std::to_string(d.wavefrontsPerPhase[i]);
  }
  const SharedCost &c = d.cost;
  const std::uint32_t conflicts =
      c.wavefrontsHw > c.wavefrontsConflictFree ? c.wavefrontsHw - c.wavefrontsConflictFree : 0;
  s += "; hardware counter: " + std::to_string(c.wavefrontsHw) + " wavefront" +
       (c.wavefrontsHw == 1 ? "" : "s") + ", " + std::to_string(conflicts) + " bank conflict" +
       (conflicts == 1 ? "" : "s");
  if (c.wavefronts != c.wavefrontsHw)
    s += "; source view (SASS metric): " + std::to_string(c.wavefronts) + " wavefront" +
         (c.wavefronts == 1 ? "" : "s") + ", ideal " + std::to_string(c.wavefrontsIdeal) + ": " +
         toString(c.svRule);
  else
    s += "; source view the same (ideal " + std::to_string(c.wavefrontsIdeal) + ")";
  return s;
}

bool SharedModel::pairsAgree(const AccessEvent &event, std::uint32_t lanes, unsigned x) {
  for (std::uint32_t m = lanes; m; m &= m - 1) {
    const unsigned n = unsigned(std::countr_zero(m)), p = n ^ x;
    if (p < 32 && ((lanes >> p) & 1u) && event.addr[n].value != event.addr[p].value) return false;
  }
  return true;
}

bool SharedModel::pairsComplete(const AccessEvent &event, std::uint32_t lanes, unsigned x) {
  for (std::uint32_t m = lanes; m; m &= m - 1) {
    const unsigned n = unsigned(std::countr_zero(m)), p = n ^ x;
    if (p >= 32 || !((lanes >> p) & 1u) || event.addr[n].value != event.addr[p].value) return false;
  }
  return true;
}

unsigned SharedModel::phaseCost(const AccessEvent &event, std::uint32_t lanes,
                                unsigned width) const {
  // At most 32 lanes x 5 words (16 bytes, misaligned): sort, drop repeats, count per bank.
  std::uint64_t words[32 * 5];
  unsigned n = 0;
  for (std::uint32_t m = lanes; m; m &= m - 1) {
    const std::uint64_t a = event.addr[std::countr_zero(m)].value;
    const std::uint64_t first = a >> wordShift_, last = (a + width - 1) >> wordShift_;
    for (std::uint64_t w = first; w <= last && n < 32 * 5; ++w) words[n++] = w;
  }
  std::sort(words, words + n);
  std::uint8_t perBank[64] = {};
  unsigned best = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (i && words[i] == words[i - 1]) continue;
    best = std::max<unsigned>(best, ++perBank[unsigned(words[i]) & bankMask_]);
  }
  return best;
}

std::uint32_t SharedModel::sourceViewWavefronts(const AccessEvent &event, unsigned width,
                                                const OpRule &o, bool hwPacked,
                                                std::uint32_t hwWavefronts,
                                                SourceViewRule &rule) const {
  const std::uint32_t mask = event.active.bits;
  rule = SourceViewRule::SameAsHardware;
  if (o.svBroadcastLanes) {
    const std::uint64_t a0 = event.addr[std::countr_zero(mask)].value;
    bool one = true;
    for (std::uint32_t m = mask & (mask - 1); m && one; m &= m - 1)
      one = event.addr[std::countr_zero(m)].value == a0;
    if (one) {
      const std::uint32_t n =
          (std::uint32_t(std::popcount(mask)) + o.svBroadcastLanes - 1) / o.svBroadcastLanes;
      if (n != hwWavefronts) rule = SourceViewRule::Broadcast;
      return n;
    }
  }
  if (o.svWarpMergeMaxLanes && unsigned(std::popcount(mask)) <= o.svWarpMergeMaxLanes &&
      (o.svWarpMergeLaneXor == 0 || pairsAgree(event, mask, o.svWarpMergeLaneXor)) &&
      phaseCost(event, mask, width) <= 1) {
    if (hwWavefronts != 1) rule = SourceViewRule::WarpMerged;
    return 1;
  }
  if (o.packXors == 0) return hwWavefronts;
  // Phases that pack without pairs while the pair-free lane is inactive (conflict-free only).
  const std::uint32_t pairFree = (mask >> o.svPairFreeLane) & 1u ? 0u : o.svPairFreePhases;
  auto phasePairs = [&](std::uint32_t lanes, bool strict) {
    for (std::uint32_t xs = o.packXors; xs; xs &= xs - 1) {
      const unsigned x = unsigned(std::countr_zero(xs));
      if (strict ? pairsComplete(event, lanes, x) : pairsAgree(event, lanes, x)) return true;
    }
    return false;
  };
  // Fast path: the hardware packed the warp and no packed phase has a conflict: the source view
  // agrees (the warp-wide pair condition implies each phase's), unless a strict phase has a lane
  // whose partners are all off.
  if (hwPacked && hwWavefronts == phasesWithLanes(mask, o.packed)) {
    bool strictOk = true;
    for (std::uint32_t ps = o.svStrictPhases & ~pairFree; ps && strictOk; ps &= ps - 1) {
      const unsigned p = unsigned(std::countr_zero(ps));
      if (p >= o.packed.numPhases) break;
      // A full phase meets the strict condition whenever the warp-wide one holds.
      const std::uint32_t lanes = mask & o.packed.lanesOfPhase[p];
      if (lanes && lanes != o.packed.lanesOfPhase[p]) strictOk = phasePairs(lanes, true);
    }
    if (strictOk) return hwWavefronts;
  }
  if (!hwPacked) { // no phase packs on its own either: the plain phases are the hardware's
    bool any = false;
    for (unsigned p = 0; p < o.packed.numPhases && !any; ++p)
      if (const std::uint32_t lanes = mask & o.packed.lanesOfPhase[p])
        any = ((pairFree >> p) & 1u) ||
              (o.svPackPerPhase && phasePairs(lanes, (o.svStrictPhases >> p) & 1u));
    if (!any) return hwWavefronts;
  }
  std::uint32_t total = 0;
  bool packedConflict = false, strictSplit = false, pairFreeUsed = false;
  for (unsigned p = 0; p < o.packed.numPhases; ++p) {
    const std::uint32_t lanes = mask & o.packed.lanesOfPhase[p];
    if (!lanes) continue;
    const bool strict = (o.svStrictPhases >> p) & 1u;
    bool pairs = o.svPackPerPhase ? phasePairs(lanes, strict) : hwPacked;
    if (!pairs && ((pairFree >> p) & 1u)) {
      pairs = true;
      pairFreeUsed = true;
    } else if (!pairs && o.svPackPerPhase && strict && phasePairs(lanes, false)) {
      strictSplit = true;
    }
    if (pairs) {
      const unsigned c = phaseCost(event, lanes, width);
      if (!o.svPackOnlyConflictFree || c <= 1) {
        total += c;
        continue;
      }
      packedConflict = true;
    }
    for (unsigned q = 0; q < o.plain.numPhases; ++q)
      if (const std::uint32_t sub = lanes & o.plain.lanesOfPhase[q])
        total += phaseCost(event, sub, width);
  }
  if (total != hwWavefronts)
    rule = packedConflict ? SourceViewRule::PackedConflict
           : strictSplit  ? SourceViewRule::StrictPairs
           : pairFreeUsed ? SourceViewRule::PairFree
                          : SourceViewRule::PhasePacked;
  return total;
}

SharedCost SharedModel::costWith(const AccessEvent &event, unsigned width,
                                 const WidthRule &r) const {
  const std::uint32_t mask = event.active.bits;
  // Eligibility for the direct-mapped path: power-of-two width no larger than a row, every
  // active lane aligned to it, rows within a window of kRows, at most 128 elements per row.
  const unsigned elemBytes = std::min(width, 1u << wordShift_);
  if (std::has_single_bit(width) && width <= (1u << rowShift_) &&
      ((1u << rowShift_) / elemBytes) <= 128) {
    std::uint64_t orAddr = 0, rowMin = ~std::uint64_t(0), rowMax = 0;
    for (std::uint32_t m = mask; m; m &= m - 1) {
      std::uint64_t a = event.addr[std::countr_zero(m)].value;
      orAddr |= a;
      rowMin = std::min(rowMin, a >> rowShift_);
      rowMax = std::max(rowMax, a >> rowShift_);
    }
    if ((orAddr & (width - 1)) == 0 && rowMax == rowMin) return costOneRow(event, width, r);
    if ((orAddr & (width - 1)) == 0 && rowMax - rowMin < kRows)
      return costAligned(event, width, r, rowMin);
  }
  return costGeneral(event, width, r);
}

namespace {

/// Most distinct words any one bank serves, given one bank mask per distinct row (bit b of a
/// row's mask = the row's word in bank b is touched). Bit-sliced counters: bit b of level j is
/// bit j of bank b's count.
inline unsigned maxPerBank(const std::uint64_t *bankMaskOfRow, const std::uint16_t *rows,
                           unsigned n) {
  if (n <= 1) return n;
  std::uint64_t level[8] = {};
  unsigned top = 0;
  for (unsigned i = 0; i < n; ++i) {
    std::uint64_t carry = bankMaskOfRow[rows[i]];
    unsigned j = 0;
    while (carry) {
      std::uint64_t t = level[j] & carry;
      level[j] ^= carry;
      carry = t;
      ++j;
    }
    top = std::max(top, j);
  }
  std::uint64_t cand = ~std::uint64_t(0);
  unsigned result = 0;
  for (unsigned j = top; j-- > 0;) {
    std::uint64_t x = level[j] & cand;
    if (x) cand = x, result |= 1u << j;
  }
  return result;
}

inline bool testAndSet(std::uint64_t *bits, unsigned i) {
  std::uint64_t bit = std::uint64_t(1) << (i & 63);
  bool was = bits[i >> 6] & bit;
  bits[i >> 6] |= bit;
  return was;
}

} // namespace

SharedCost SharedModel::costOneRow(const AccessEvent &event, unsigned width,
                                   const WidthRule &r) const {
  // One row holds one word per bank, so no phase serves two words of one bank: each phase with
  // an active lane is one wavefront. Distinct elements = bits of the union of the lanes' masks.
  const unsigned wordBytes = 1u << wordShift_;
  const bool elemIsWord = width >= wordBytes;
  const unsigned elemShift = unsigned(std::countr_zero(std::min(width, wordBytes)));
  const unsigned wordsPerLane = elemIsWord ? width / wordBytes : 1;
  const std::uint64_t laneBanks =
      wordsPerLane >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << wordsPerLane) - 1;
  const std::uint64_t rowBytes = std::uint64_t(1) << rowShift_;
  std::uint64_t lo = 0, hi = 0;
  for (std::uint32_t m = event.active.bits; m; m &= m - 1) {
    std::uint64_t a = event.addr[std::countr_zero(m)].value;
    if (elemIsWord) {
      lo |= laneBanks << ((a >> wordShift_) & bankMask_);
    } else {
      unsigned slot = unsigned((a & (rowBytes - 1)) >> elemShift);
      lo |= slot < 64 ? std::uint64_t(1) << slot : 0;
      hi |= slot >= 64 ? std::uint64_t(1) << (slot - 64) : 0;
    }
  }
  SharedCost c;
  for (unsigned p = 0; p < r.numPhases; ++p) c.wavefronts += (event.active.bits & r.lanesOfPhase[p]) != 0;
  c.conflictWays = 1;
  std::uint64_t distinctBytes = std::uint64_t(std::popcount(lo) + std::popcount(hi)) << elemShift;
  c.wavefrontsIdeal = std::max<std::uint32_t>(
      1u, std::uint32_t((distinctBytes + bytesPerWavefront_ - 1) / bytesPerWavefront_));
  return c;
}

SharedCost SharedModel::costAligned(const AccessEvent &event, unsigned width, const WidthRule &r,
                                    std::uint64_t rowMin) const {
  const unsigned wordBytes = 1u << wordShift_;
  const bool elemIsWord = width >= wordBytes;
  const unsigned elemShift = unsigned(std::countr_zero(std::min(width, wordBytes)));
  const unsigned wordsPerLane = elemIsWord ? width / wordBytes : 1;
  const std::uint64_t laneBanks =
      wordsPerLane >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << wordsPerLane) - 1;
  const std::uint64_t rowBytes = std::uint64_t(1) << rowShift_;
  // Distinct elements across phases need a warp-wide table; the duplicate-counting ideal does not.
  const bool needDistinct = !idealDuplicates_;
  const bool needWarpTable = needDistinct && (r.numPhases > 1 || !elemIsWord);

  // Per phase: bank mask of each touched row. Warp-wide: element mask of each touched row.
  std::uint64_t phaseValid[kRows / 64];
  std::uint64_t phaseBanks[kRows];
  std::uint16_t phaseRows[32];
  std::uint64_t warpValid[kRows / 64];
  std::uint64_t warpLo[kRows], warpHi[kRows];
  std::uint16_t warpRows[32];
  unsigned nWarpRows = 0;
  std::memset(phaseValid, 0, sizeof phaseValid);
  if (needWarpTable) std::memset(warpValid, 0, sizeof warpValid);

  std::uint32_t total = 0, ways = 0, distinctElems = 0;
  for (unsigned p = 0; p < r.numPhases; ++p) {
    std::uint32_t lanes = event.active.bits & r.lanesOfPhase[p];
    if (!lanes) continue;
    unsigned n = 0;
    unsigned cur = ~0u;
    std::uint64_t accBanks = 0, accLo = 0, accHi = 0;
    auto flush = [&] {
      if (!testAndSet(phaseValid, cur)) phaseBanks[cur] = accBanks, phaseRows[n++] = std::uint16_t(cur);
      else phaseBanks[cur] |= accBanks;
      if (!needWarpTable) return;
      if (!testAndSet(warpValid, cur))
        warpLo[cur] = accLo, warpHi[cur] = accHi, warpRows[nWarpRows++] = std::uint16_t(cur);
      else warpLo[cur] |= accLo, warpHi[cur] |= accHi;
    };
    for (std::uint32_t m = lanes; m; m &= m - 1) {
      std::uint64_t a = event.addr[std::countr_zero(m)].value;
      unsigned row = unsigned((a >> rowShift_) - rowMin);
      std::uint64_t banks = laneBanks << ((a >> wordShift_) & bankMask_);
      std::uint64_t lo = banks, hi = 0;
      if (!elemIsWord) {
        unsigned slot = unsigned((a & (rowBytes - 1)) >> elemShift);
        lo = slot < 64 ? std::uint64_t(1) << slot : 0;
        hi = slot >= 64 ? std::uint64_t(1) << (slot - 64) : 0;
      }
      if (row == cur) {
        accBanks |= banks, accLo |= lo, accHi |= hi;
        continue;
      }
      if (cur != ~0u) flush();
      cur = row, accBanks = banks, accLo = lo, accHi = hi;
    }
    flush();
    unsigned phaseMax = maxPerBank(phaseBanks, phaseRows, n);
    total += phaseMax;
    ways = std::max(ways, phaseMax);
    if (needDistinct && !needWarpTable)
      for (unsigned i = 0; i < n; ++i) distinctElems += unsigned(std::popcount(phaseBanks[phaseRows[i]]));
    for (unsigned i = 0; i < n; ++i) phaseValid[phaseRows[i] >> 6] = 0; // reset for next phase
  }
  if (needWarpTable)
    for (unsigned i = 0; i < nWarpRows; ++i)
      distinctElems += unsigned(std::popcount(warpLo[warpRows[i]]) + std::popcount(warpHi[warpRows[i]]));

  SharedCost c;
  c.wavefronts = total;
  c.conflictWays = ways;
  std::uint64_t distinctBytes = std::uint64_t(distinctElems) << elemShift;
  c.wavefrontsIdeal = std::max<std::uint32_t>(
      1u, std::uint32_t((distinctBytes + bytesPerWavefront_ - 1) / bytesPerWavefront_));
  return c;
}

SharedCost SharedModel::costGeneral(const AccessEvent &event, unsigned width,
                                    const WidthRule &r) const {
  SharedCost c;
  const std::uint32_t mask = event.active.bits;
  const unsigned wordBytes = 1u << wordShift_;

  // Per (phase, bank): distinct words served. Rows of banks_ counters, one row per phase.
  std::uint8_t count[32 * 64];
  std::uint8_t phaseMax[32];
  std::memset(count, 0, std::size_t(r.numPhases) * banks_);
  std::memset(phaseMax, 0, r.numPhases);
  // Warp-wide set of words, with the phases that touched each word and the bytes touched in it.
  detail::SmallKeySet<256> words;
  std::uint32_t phasesOf[256];
  std::uint16_t bytesOf[256];
  words.reset();
  std::uint32_t distinctBytes = 0;

  auto touch = [&](std::uint64_t word, unsigned phase, std::uint16_t bytes) {
    bool isNew;
    unsigned slot = words.insert(word, isNew);
    const std::uint32_t phaseBit = 1u << phase;
    if (isNew) {
      phasesOf[slot] = phaseBit;
      bytesOf[slot] = bytes;
      distinctBytes += unsigned(std::popcount(bytes));
    } else {
      distinctBytes += unsigned(std::popcount(std::uint16_t(bytes & ~bytesOf[slot])));
      bytesOf[slot] |= bytes;
      if (phasesOf[slot] & phaseBit) return;
      phasesOf[slot] |= phaseBit;
    }
    std::uint8_t n = ++count[phase * banks_ + (unsigned(word) & bankMask_)];
    if (n > phaseMax[phase]) phaseMax[phase] = n;
  };

  if (width <= wordBytes) {
    // Common case: each lane touches one word (aligned 1/2/4-byte accesses).
    for (std::uint32_t m = mask; m; m &= m - 1) {
      unsigned lane = unsigned(std::countr_zero(m));
      std::uint64_t a = event.addr[lane].value;
      unsigned off = unsigned(a & (wordBytes - 1));
      if (off + width <= wordBytes) {
        touch(a >> wordShift_, r.phaseOfLane[lane], std::uint16_t(((1u << width) - 1) << off));
        continue;
      }
      // Misaligned: straddles two words.
      touch(a >> wordShift_, r.phaseOfLane[lane],
            std::uint16_t((0xffffu << off) & ((1u << wordBytes) - 1)));
      touch((a >> wordShift_) + 1, r.phaseOfLane[lane],
            std::uint16_t((1u << (off + width - wordBytes)) - 1));
    }
  } else {
    const std::uint16_t full = std::uint16_t((1u << wordBytes) - 1);
    for (std::uint32_t m = mask; m; m &= m - 1) {
      unsigned lane = unsigned(std::countr_zero(m));
      std::uint64_t a = event.addr[lane].value;
      std::uint64_t end = a + width;
      std::uint64_t first = a >> wordShift_, last = (end - 1) >> wordShift_;
      for (std::uint64_t wd = first; wd <= last; ++wd) {
        std::uint64_t lo = std::max(a, wd << wordShift_), hi = std::min(end, (wd + 1) << wordShift_);
        std::uint16_t bytes = std::uint16_t(((1u << (hi - lo)) - 1) << (lo - (wd << wordShift_)));
        touch(wd, r.phaseOfLane[lane], hi - lo == wordBytes ? full : bytes);
      }
    }
  }

  std::uint32_t total = 0, ways = 0;
  for (unsigned p = 0; p < r.numPhases; ++p) {
    total += phaseMax[p];
    ways = std::max<std::uint32_t>(ways, phaseMax[p]);
  }
  c.wavefronts = total;
  c.conflictWays = ways;
  c.wavefrontsIdeal = std::max<std::uint32_t>(
      1u, (distinctBytes + bytesPerWavefront_ - 1) / bytesPerWavefront_);
  return c;
}

BankDiagram SharedModel::diagram(const AccessEvent &event) const {
  BankDiagram d;
  const unsigned width = clampWidth(event.widthBytes);
  bool packed = false;
  const WidthRule &r = layout(event, width, packed);
  d.lanesPerPhase = r.lanesPerPhase;
  d.mergeAcrossPhases = r.merge;
  d.packed = packed;
  d.distinctWordsPerBank.assign(banks_, 0);
  d.wavefrontsPerPhase.assign(r.numPhases, 0);
  d.cost = cost(event);
  // (phase, bank) -> distinct words; simple containers: diagrams are not on the hot path.
  std::map<std::pair<unsigned, unsigned>, std::set<std::uint64_t>> wordsIn;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!event.active.test(lane)) continue;
    std::uint64_t a = event.addr[lane].value;
    std::uint64_t first = a >> wordShift_, last = (a + width - 1) >> wordShift_;
    unsigned phase = r.phaseOfLane[lane];
    for (std::uint64_t wd = first; wd <= last; ++wd) {
      unsigned bank = unsigned(wd) & bankMask_;
      d.hits.push_back({lane, bank, wd, phase});
      wordsIn[{phase, bank}].insert(wd);
    }
  }
  std::map<std::pair<unsigned, unsigned>, unsigned> lanesIn; // AccessEvent::laneSerial
  if (event.laneSerial)
    for (const BankDiagram::Hit &h : d.hits) ++lanesIn[{h.phase, h.bank}];
  for (const auto &[key, set] : wordsIn) {
    unsigned n = event.laneSerial ? lanesIn[key] : unsigned(set.size());
    d.distinctWordsPerBank[key.second] = std::max(d.distinctWordsPerBank[key.second], n);
    d.wavefrontsPerPhase[key.first] = std::max(d.wavefrontsPerPhase[key.first], n);
  }
  return d;
}

} // namespace warplens::model
