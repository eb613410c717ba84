/// \file
/// Cross-checks the optimised models against plain reference implementations of the written rules
/// (std::set/std::map, lane by lane) on many generated warps: random, strided, broadcast, pairs,
/// partial masks, misaligned and sparse addresses, every width, loads and stores, phases on and
/// off, packed layouts, both ideal rules.
#include "arch/ArchSpec.h"
#include "model/GlobalModel.h"
#include "model/SharedModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

namespace warplens::model {
namespace {

GlobalCost referenceGlobal(const arch::ArchSpec &a, const AccessEvent &e) {
  GlobalCost c;
  if (e.active.empty()) return c;
  std::set<std::uint64_t> sectors, lines, bytes;
  for (unsigned l = 0; l < 32; ++l) {
    if (!e.active.test(l)) continue;
    for (unsigned b = 0; b < e.widthBytes; ++b) {
      std::uint64_t byte = e.addr[l].value + b;
      bytes.insert(byte);
      sectors.insert(byte / a.sectorBytes);
      lines.insert(byte / a.lineBytes);
    }
  }
  c.requests = 1;
  c.sectors = unsigned(sectors.size());
  c.lines = unsigned(lines.size());
  c.bytes = unsigned(e.active.count()) * e.widthBytes;
  std::uint64_t idealBytes = a.idealCountsDuplicateBytes ? c.bytes : bytes.size();
  c.sectorsIdeal = std::min(c.sectors, unsigned((idealBytes + a.sectorBytes - 1) / a.sectorBytes));
  return c;
}

/// Most distinct words any bank serves for the active lanes of `lanes` (bit set = lane).
unsigned referencePhaseCost(const arch::ArchSpec &a, const AccessEvent &e, std::uint32_t lanes) {
  std::map<unsigned, std::set<std::uint64_t>> perBank;
  for (unsigned l = 0; l < 32; ++l) {
    if (!((lanes >> l) & 1u) || !e.active.test(l)) continue;
    for (unsigned b = 0; b < e.widthBytes; ++b) {
      const std::uint64_t word = (e.addr[l].value + b) / a.bankWidthBytes;
      perBank[unsigned(word % a.sharedBanks)].insert(word);
    }
  }
  unsigned n = 0;
  for (const auto &[bank, words] : perBank) n = std::max(n, unsigned(words.size()));
  return n;
}

/// Lanes l and l^x of `lanes` that are both active read one address.
bool referenceAgree(const AccessEvent &e, std::uint32_t lanes, unsigned x) {
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned p = l ^ x;
    if (p < 32 && ((lanes >> l) & 1u) && ((lanes >> p) & 1u) && e.active.test(l) &&
        e.active.test(p) && e.addr[l].value != e.addr[p].value)
      return false;
  }
  return true;
}

/// The source-view rule as CALIBRATION.md states it ("Two truths"), given the hardware count.
unsigned referenceSourceView(const arch::ArchSpec &a, const arch::SharedWidthRule &r,
                             const AccessEvent &e, bool hwPacked, unsigned hwWavefronts) {
  if (!r.hasSourceViewRule() || r.mergeAcrossPhases) return hwWavefronts;
  const std::uint32_t all = e.active.bits;
  if (r.svBroadcastLanesPerWavefront) {
    std::set<std::uint64_t> addrs;
    for (unsigned l = 0; l < 32; ++l)
      if (e.active.test(l)) addrs.insert(e.addr[l].value);
    if (addrs.size() == 1)
      return (e.active.count() + r.svBroadcastLanesPerWavefront - 1) /
             r.svBroadcastLanesPerWavefront;
  }
  if (r.svWarpMergeMaxLanes && e.active.count() <= r.svWarpMergeMaxLanes &&
      (r.svWarpMergeLaneXor == 0 || referenceAgree(e, all, r.svWarpMergeLaneXor)) &&
      referencePhaseCost(a, e, all) <= 1)
    return 1;
  if (r.packedLanesPerPhase == 0) return hwWavefronts;
  unsigned total = 0;
  const unsigned P = r.packedLanesPerPhase, Q = r.lanesPerPhase;
  for (unsigned g = 0; g < 32; g += P) {
    std::uint32_t lanes = 0;
    for (unsigned l = g; l < std::min(32u, g + P); ++l)
      if (e.active.test(l)) lanes |= 1u << l;
    if (!lanes) continue;
    const unsigned phase = g / P;
    const bool strict = (r.svStrictPairPhases >> phase) & 1u;
    bool pairs = hwPacked;
    if (r.svPackPerPhase) {
      pairs = false;
      for (unsigned x : r.packLaneXors) {
        bool ok = referenceAgree(e, lanes, x);
        // Strict: every active lane's partner is active as well.
        for (unsigned l = 0; l < 32 && strict; ++l)
          if (((lanes >> l) & 1u) && !(((lanes >> (l ^ x)) & 1u) && (l ^ x) < 32)) ok = false;
        pairs = pairs || ok;
      }
    }
    if (((r.svPairFreePhases >> phase) & 1u) && !e.active.test(r.svPairFreeLane)) pairs = true;
    const unsigned cost = referencePhaseCost(a, e, lanes);
    if (pairs && (!r.svPackOnlyConflictFree || cost <= 1)) {
      total += cost;
      continue;
    }
    for (unsigned q = g; q < std::min(32u, g + P); q += Q) {
      std::uint32_t sub = 0;
      for (unsigned l = q; l < std::min(32u, q + Q); ++l) sub |= lanes & (1u << l);
      total += referencePhaseCost(a, e, sub);
    }
  }
  return total;
}

SharedCost referenceShared(const arch::ArchSpec &a, const AccessEvent &e) {
  SharedCost c;
  if (e.active.empty()) return c;
  const arch::SharedOp op = e.op == Op::Load    ? arch::SharedOp::Load
                            : e.op == Op::Store ? arch::SharedOp::Store
                                                : arch::SharedOp::Any;
  const arch::SharedWidthRule &r = a.sharedRule(e.widthBytes, op);
  unsigned lanesPerPhase = r.lanesPerPhase;
  if (r.packedLanesPerPhase) {
    for (unsigned x : r.packLaneXors) {
      bool agree = true;
      for (unsigned l = 0; l < 32; ++l)
        if (e.active.test(l) && e.active.test(l ^ x) && e.addr[l].value != e.addr[l ^ x].value)
          agree = false;
      if (agree) {
        lanesPerPhase = r.packedLanesPerPhase;
        c.packed = true;
        break;
      }
    }
  }
  std::map<std::pair<unsigned, unsigned>, std::set<std::uint64_t>> words; // (phase, bank)
  std::set<std::uint64_t> bytes;
  std::set<unsigned> phases;
  for (unsigned l = 0; l < 32; ++l) {
    if (!e.active.test(l)) continue;
    unsigned phase = r.mergeAcrossPhases ? 0 : l / lanesPerPhase;
    phases.insert(phase);
    for (unsigned b = 0; b < e.widthBytes; ++b) {
      std::uint64_t byte = e.addr[l].value + b;
      bytes.insert(byte);
      std::uint64_t word = byte / a.bankWidthBytes;
      words[{phase, unsigned(word % a.sharedBanks)}].insert(word);
    }
  }
  std::map<unsigned, unsigned> phaseMax;
  for (const auto &[key, set] : words)
    phaseMax[key.first] = std::max(phaseMax[key.first], unsigned(set.size()));
  for (const auto &[p, n] : phaseMax) {
    c.wavefronts += n;
    c.conflictWays = std::max(c.conflictWays, n);
  }
  c.wavefrontsConflictFree = unsigned(phases.size());
  const std::uint64_t idealBytes = a.sharedIdealCountsDuplicateBytes
                                       ? std::uint64_t(e.active.count()) * e.widthBytes
                                       : bytes.size();
  const unsigned perWave = a.sharedBanks * a.bankWidthBytes;
  c.wavefrontsIdeal = std::max(1u, unsigned((idealBytes + perWave - 1) / perWave));
  // Two truths: the counts above are the hardware counter's; the source view may differ.
  c.wavefrontsHw = c.wavefronts;
  c.wavefronts = referenceSourceView(a, r, e, c.packed, c.wavefrontsHw);
  c.wavefrontsIdeal = std::min(c.wavefrontsIdeal, c.wavefronts);
  return c;
}

/// A generated warp: pattern chosen at random, addresses aligned to the width unless misaligned.
AccessEvent randomEvent(std::mt19937_64 &rng, Space space) {
  static const unsigned widths[] = {1, 2, 4, 8, 16};
  AccessEvent e;
  e.space = space;
  static const Op ops[] = {Op::Load, Op::Store, Op::Atomic};
  e.op = ops[rng() % 3];
  e.widthBytes = std::uint8_t(widths[rng() % 5]);
  const unsigned w = e.widthBytes;
  switch (rng() % 4) {
  case 0: e.active = LaneMask::all(); break;
  case 1: e.active = LaneMask{std::uint32_t(rng())}; break;
  case 2: e.active = LaneMask{0xffffu << (16 * (rng() % 2))}; break;
  default: e.active = LaneMask{1u << (rng() % 32)}; break;
  }
  const std::uint64_t span = space == Space::Shared ? 64 * 1024 : 1 << 24;
  std::uint64_t base = (rng() % span) / w * w;
  const unsigned kind = unsigned(rng() % 8);
  const unsigned pairXor = 1u << (rng() % 5); // lanes l and l^pairXor share an address
  const std::uint64_t stride = (rng() % 70) * w;
  for (unsigned l = 0; l < 32; ++l) {
    std::uint64_t a = base;
    switch (kind) {
    case 0: a = (rng() % span) / w * w; break;                       // random
    case 1: a = base + l * stride; break;                            // strided
    case 2: break;                                                   // broadcast
    case 3: a = base + (31 - l) * w; break;                          // reversed
    case 4: a = base + (l % 4) * stride + (l / 4) * w; break;        // small groups
    case 6: a = base + (l & ~pairXor) * stride; break;               // pairs, strided
    case 7: a = base + ((l & ~pairXor) % 5) * 128; break;            // pairs, same banks
    default: a = (std::uint64_t(rng() % 8) << 22) + l * w + (rng() % 2) * 4; break; // sparse/misaligned
    }
    e.addr[l] = ByteAddress{a};
  }
  return e;
}

void checkArch(const arch::ArchSpec &a, unsigned n, std::uint64_t seed) {
  GlobalModel gm(a);
  SharedModel sm(a);
  std::mt19937_64 rng(seed);
  for (unsigned i = 0; i < n; ++i) {
    AccessEvent g = randomEvent(rng, Space::Global);
    GlobalCost got = gm.cost(g), want = referenceGlobal(a, g);
    ASSERT_EQ(got.requests, want.requests) << "event " << i;
    ASSERT_EQ(got.sectors, want.sectors) << "event " << i << " width " << unsigned(g.widthBytes);
    ASSERT_EQ(got.sectorsIdeal, want.sectorsIdeal) << "event " << i;
    ASSERT_EQ(got.lines, want.lines) << "event " << i;
    ASSERT_EQ(got.bytes, want.bytes) << "event " << i;
    AccessEvent s = randomEvent(rng, Space::Shared);
    SharedCost sg = sm.cost(s), sw = referenceShared(a, s);
    ASSERT_EQ(sg.wavefronts, sw.wavefronts) << "event " << i << " width " << unsigned(s.widthBytes);
    ASSERT_EQ(sg.wavefrontsIdeal, sw.wavefrontsIdeal) << "event " << i;
    ASSERT_EQ(sg.conflictWays, sw.conflictWays) << "event " << i;
    ASSERT_EQ(sg.wavefrontsConflictFree, sw.wavefrontsConflictFree) << "event " << i;
    ASSERT_EQ(sg.wavefrontsHw, sw.wavefrontsHw) << "event " << i;
    ASSERT_EQ(sg.packed, sw.packed) << "event " << i;
  }
}

TEST(ModelReference, Sm90MatchesReference) {
  auto a = arch::loadArch("sm_90");
  ASSERT_TRUE(a.ok());
  checkArch(a.value(), 20000, 1);
}

TEST(ModelReference, MergedPhasesAndDuplicateBytesMatchReference) {
  auto a = arch::loadArchText("alt.json", R"({"name": "alt", "inherits": "sm_90",
      "description": "test", "global": {"idealCountsDuplicateBytes": true, "source": "t"},
      "shared": {"rules": {"4": {"lanesPerPhase": 8}, "8": {"mergeAcrossPhases": true},
      "16": {"lanesPerPhase": 4}}, "source": "t"}})");
  ASSERT_TRUE(a.ok()) << a.error().message;
  checkArch(a.value(), 20000, 2);
}

TEST(ModelReference, OlderArchAndOtherPackingsMatchReference) {
  // sm_70: no packing, distinct-byte ideal (unmeasured there; the file keeps the old rule).
  auto v = arch::loadArch("sm_70");
  ASSERT_TRUE(v.ok());
  checkArch(v.value(), 10000, 3);
  auto a = arch::loadArchText("pack.json", R"({"name": "pack", "inherits": "sm_90",
      "description": "test", "shared": {"idealCountsDuplicateBytes": false, "rules": {
      "4": {"ld": {"packedLanesPerPhase": 32, "packLaneXors": [4]}, "st": {"lanesPerPhase": 16}},
      "8": {"st": {"packedLanesPerPhase": 32, "packLaneXors": [8, 16]}}}, "source": "t"}})");
  ASSERT_TRUE(a.ok()) << a.error().message;
  checkArch(a.value(), 10000, 4);
}

/// Warps at the limits of the vectorised paths (keys relative to the first active lane: 2^32
/// elements for global, 2^22 rows for shared): spans just inside and just outside them, addresses
/// near 0 and near 2^64 (differences wrap), one-phase and multi-phase masks.
AccessEvent edgeEvent(std::mt19937_64 &rng, Space space) {
  static const unsigned widths[] = {1, 2, 4, 8, 16};
  AccessEvent e;
  e.space = space;
  static const Op ops[] = {Op::Load, Op::Store, Op::Atomic};
  e.op = ops[rng() % 3];
  e.widthBytes = std::uint8_t(widths[rng() % 5]);
  const std::uint64_t w = e.widthBytes;
  e.active = rng() % 2 ? LaneMask::all() : LaneMask{std::uint32_t(rng()) | 1u};
  // Global keys are elements from the first lane's line less 2^31; shared keys rows from its row
  // less 2^10 (2^21 in other designs): steps of those sizes put lanes right at the edges.
  const std::uint64_t step = space == Space::Global ? (std::uint64_t(1) << 31) * w
                             : rng() % 2                ? (std::uint64_t(1) << 10) * 128
                                                        : (std::uint64_t(1) << 21) * 128;
  std::uint64_t base;
  switch (rng() % 3) {
  case 0: base = (rng() % 4096) / w * w; break;                          // near 0
  case 1: base = (~std::uint64_t(0) - rng() % 4096) / w * w; break;    // near 2^64
  default: base = (rng() >> 8) / w * w; break;
  }
  const unsigned kind = unsigned(rng() % 4);
  for (unsigned l = 0; l < 32; ++l) {
    std::uint64_t a = base + l * w;
    const std::uint64_t jitter = (rng() % 3) * 128 + (rng() % 4) * w;
    switch (kind) {
    case 0: a = base + (rng() % 2 ? step : 0) - jitter; break;            // up to the top edge
    case 1: a = base - (rng() % 2 ? step : 0) + jitter; break;            // down to the bottom
    case 2: a = base + (std::uint64_t(rng() % 4) << 40) + l * 128; break; // far apart
    default: a = base + (rng() % 3) * step + (l % 4) * w; break;          // one step beyond
    }
    e.addr[l] = ByteAddress{a};
  }
  return e;
}

void checkEdges(const arch::ArchSpec &a, unsigned n, std::uint64_t seed) {
  GlobalModel gv(a), gs(a);
  SharedModel sv(a), ss(a);
  gs.setVectorised(false);
  ss.setVectorised(false);
  ASSERT_FALSE(gs.vectorised());
  ASSERT_FALSE(ss.vectorised());
  std::mt19937_64 rng(seed);
  for (unsigned i = 0; i < n; ++i) {
    AccessEvent g = edgeEvent(rng, Space::Global);
    const GlobalCost want = referenceGlobal(a, g);
    for (const GlobalModel *m : {&gv, &gs}) {
      GlobalCost got = m->cost(g);
      ASSERT_EQ(got.sectors, want.sectors) << "event " << i << " vectorised " << m->vectorised();
      ASSERT_EQ(got.sectorsIdeal, want.sectorsIdeal) << "event " << i;
      ASSERT_EQ(got.lines, want.lines) << "event " << i;
    }
    AccessEvent s = edgeEvent(rng, Space::Shared);
    const SharedCost sw = referenceShared(a, s);
    for (const SharedModel *m : {&sv, &ss}) {
      SharedCost sg = m->cost(s);
      ASSERT_EQ(sg.wavefronts, sw.wavefronts) << "event " << i << " vectorised " << m->vectorised();
      ASSERT_EQ(sg.wavefrontsIdeal, sw.wavefrontsIdeal) << "event " << i;
      ASSERT_EQ(sg.conflictWays, sw.conflictWays) << "event " << i;
      ASSERT_EQ(sg.wavefrontsConflictFree, sw.wavefrontsConflictFree) << "event " << i;
      ASSERT_EQ(sg.wavefrontsHw, sw.wavefrontsHw) << "event " << i;
      ASSERT_EQ(sg.packed, sw.packed) << "event " << i;
    }
  }
}

TEST(ModelReference, KeyRangeEdgesMatchReferenceOnBothPaths) {
  auto a = arch::loadArch("sm_90");
  ASSERT_TRUE(a.ok());
  checkEdges(a.value(), 4000, 5);
}

TEST(ModelReference, ScalarPathsMatchReference) {
  // The portable paths, which CPUs without AVX-512 use (and the vectorised ones hand back to).
  auto a = arch::loadArch("sm_90");
  ASSERT_TRUE(a.ok());
  GlobalModel gm(a.value());
  SharedModel sm(a.value());
  gm.setVectorised(false);
  sm.setVectorised(false);
  std::mt19937_64 rng(6);
  for (unsigned i = 0; i < 10000; ++i) {
    AccessEvent g = randomEvent(rng, Space::Global);
    GlobalCost got = gm.cost(g), want = referenceGlobal(a.value(), g);
    ASSERT_EQ(got.sectors, want.sectors) << "event " << i;
    ASSERT_EQ(got.sectorsIdeal, want.sectorsIdeal) << "event " << i;
    ASSERT_EQ(got.lines, want.lines) << "event " << i;
    AccessEvent s = randomEvent(rng, Space::Shared);
    SharedCost sg = sm.cost(s), sw = referenceShared(a.value(), s);
    ASSERT_EQ(sg.wavefronts, sw.wavefronts) << "event " << i;
    ASSERT_EQ(sg.wavefrontsIdeal, sw.wavefrontsIdeal) << "event " << i;
    ASSERT_EQ(sg.conflictWays, sw.conflictWays) << "event " << i;
    ASSERT_EQ(sg.packed, sw.packed) << "event " << i;
  }
}

} // namespace
} // namespace warplens::model
