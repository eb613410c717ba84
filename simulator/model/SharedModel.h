/// \file
/// Bank model for shared memory: one warp instruction → wavefronts, ideal wavefronts, conflict
/// ways, and per-bank occupancy for diagrams. Does not model arbitration with other L1 traffic
/// (the extra wavefronts hardware counters show when global accesses run at the same time), nor
/// anything the arch rules do not say: behaviour depends only on banks, bank width and the
/// per-(width, op) rule (lanesPerPhase, mergeAcrossPhases, packedLanesPerPhase, packLaneXors).
///
/// Rules: a lane's w-byte access touches the bank words covering [addr, addr+w) (1/2-byte
/// accesses touch one word); lanes touching the same word share it (broadcast, stores too).
/// The rule is the op's override (ld/st) for the width, else the width's Any rule. Phases of
/// lanesPerPhase consecutive lanes are served one after another (mergeAcrossPhases: the whole
/// warp is one phase). Packed: if packedLanesPerPhase > 0 and, for some x in packLaneXors, every
/// active lane n whose partner n^x is active has the same address as it, phases hold
/// packedLanesPerPhase lanes instead. Wavefronts of a phase = max over banks of distinct words
/// in that bank (0 for a phase without active lanes); the total is the sum over phases.
/// Lane-serial events (AccessEvent::laneSerial: shared atomics with a per-lane operand) count,
/// per phase, the most active lanes any one bank serves instead: lanes on one word do not share it.
/// Conflict-free wavefronts = phases with an active lane. Ideal = min(wavefronts, max(1,
/// ceil(bytes / (banks * bank width)))), bytes = active lanes * width when the arch's
/// sharedIdealCountsDuplicateBytes is set, else the distinct bytes touched.
#pragma once

#include "arch/ArchSpec.h"
#include "model/AccessEvent.h"

#include <string>
#include <vector>

namespace warplens::model {

/// Which rule produced a source-view count where it differs from the hardware counter's.
enum class SourceViewRule : std::uint8_t {
  SameAsHardware,  ///< both truths use the same phases
  PackedConflict,  ///< a packed phase had a bank conflict: its plain phases were counted
  PhasePacked,     ///< a packed phase met the pack condition on its own lanes (not warp-wide)
  WarpMerged,      ///< the whole warp was one wavefront (few lanes, one address pattern)
  Broadcast,       ///< every active lane reads one address: one wavefront per N active lanes
  StrictPairs,     ///< a strict phase had a lane whose partner is off: its plain phases count
  PairFree,        ///< the pair-free lane is off: a conflict-free phase packed without pairs
};

/// Two truths (arch/CALIBRATION.md): `wavefronts`/`wavefrontsIdeal` are the source-view SASS
/// metric (smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared[_ideal]); `wavefrontsHw` and
/// wavefrontsHw − wavefrontsConflictFree are the L1 hardware counters
/// (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*, l1tex__data_bank_conflicts_*).
struct SharedCost {
  std::uint32_t wavefronts = 0;      ///< source view
  std::uint32_t wavefrontsIdeal = 0; ///< source view
  std::uint32_t wavefrontsHw = 0;    ///< hardware counter (equal to wavefronts unless svRule says)
  std::uint32_t conflictWays = 0; ///< max distinct words any one bank must serve (1 = no conflict)
  /// Phases with an active lane: the wavefronts without any bank conflict. The hardware counter
  /// l1tex__data_bank_conflicts_* counts wavefronts − this (measured on sm_90; it differs from
  /// wavefronts − wavefrontsIdeal when a packed load has conflicts).
  std::uint32_t wavefrontsConflictFree = 0;
  bool packed = false; ///< the packed phase layout was used (hardware rule)
  SourceViewRule svRule = SourceViewRule::SameAsHardware;
};

/// One line naming the rule behind a source-view count ("" when both truths agree), e.g.
/// "16-byte load: packed half-warp 1 has a bank conflict, its quarter-warps count (2+1)".
const char *toString(SourceViewRule r);

/// For diagrams: which lanes hit which bank, and which word of the bank each touched.
struct BankDiagram {
  struct Hit {
    unsigned lane;
    unsigned bank;
    std::uint64_t word; ///< byte address / bank width
    unsigned phase;
  };
  std::vector<Hit> hits;
  /// size = banks; per bank, the most distinct words it serves in any one phase
  std::vector<unsigned> distinctWordsPerBank;
  unsigned lanesPerPhase = 32;       ///< the rule used for this width
  bool mergeAcrossPhases = false;
  bool packed = false;               ///< the packed layout (lanesPerPhase is its phase size)
  std::vector<unsigned> wavefrontsPerPhase; ///< one entry per phase (one if merged)
  SharedCost cost;                   ///< the same numbers cost() returns
};

/// Which rule produced a diagram's counts, in words: the phase layout, packing, and where the
/// two truths differ, both counts and why (e.g. "16-byte load: one quarter-warp (8 lanes) per
/// phase; ... hardware counter: 2 wavefronts, 0 bank conflicts; source view (SASS metric): 1
/// wavefront: a conflict-free warp ...").
std::string describeRule(const BankDiagram &d, unsigned widthBytes, Op op);

class SharedModel {
public:
  explicit SharedModel(const arch::ArchSpec &arch);
  SharedCost cost(const AccessEvent &event) const;
  BankDiagram diagram(const AccessEvent &event) const;
  /// Testing: allow the AVX-512 path where the CPU has it (the default), or only the portable
  /// scalar paths. Both give identical results.
  void setVectorised(bool on);
  bool vectorised() const { return simd_; }

private:
  struct WidthRule {
    std::uint8_t numPhases = 1;
    std::uint8_t lanesPerPhase = 32;
    bool merge = false;
    std::uint8_t phaseOfLane[32] = {};
    std::uint32_t lanesOfPhase[32] = {};
    /// Lanes costVectorised() sorts together: the phase (32 if merged); 0 when phases are not
    /// power-of-two blocks (that path then declines).
    std::uint8_t sortBlock = 32;
  };
  /// One (op, width): the plain phase layout, and the packed one with the lane XORs allowing it.
  struct OpRule {
    WidthRule plain;
    WidthRule packed;
    std::uint32_t packXors = 0; ///< bit x set: partner n^x may share the address (0: never packed)
    // Source-view rule (arch::SharedWidthRule::sv*); sv false: both truths agree.
    bool sv = false;
    bool svPackPerPhase = false;
    bool svPackOnlyConflictFree = false;
    unsigned svWarpMergeMaxLanes = 0;
    unsigned svWarpMergeLaneXor = 0;
    unsigned svBroadcastLanes = 0;
    std::uint32_t svStrictPhases = 0;   ///< bit p: packed phase p needs every partner active
    std::uint32_t svPairFreePhases = 0; ///< bit p: packed phase p packs without pairs ...
    unsigned svPairFreeLane = 31;       ///< ... while this lane is inactive
  };
  /// The source-view wavefronts for `o` given the hardware count (see SharedCost).
  std::uint32_t sourceViewWavefronts(const AccessEvent &event, unsigned width, const OpRule &o,
                                     bool hwPacked, std::uint32_t hwWavefronts,
                                     SourceViewRule &rule) const;
  /// Most distinct words any one bank serves for `lanes` (0 for none).
  unsigned phaseCost(const AccessEvent &event, std::uint32_t lanes, unsigned width) const;
  /// Where lane n and n^x are both in `lanes` (active), they have the same address.
  static bool pairsAgree(const AccessEvent &event, std::uint32_t lanes, unsigned x);
  /// Every lane n of `lanes` has its partner n^x in `lanes` too, with the same address.
  static bool pairsComplete(const AccessEvent &event, std::uint32_t lanes, unsigned x);
  static constexpr unsigned kRows = 2048;
  static void setLayout(WidthRule &w, unsigned lanesPerPhase, bool merge);
  /// The layout cost() and diagram() use for this event.
  const WidthRule &layout(const AccessEvent &event, unsigned width, bool &packed) const;
  /// Wavefronts, conflict ways and (distinct-byte) ideal with a given layout.
  SharedCost costWith(const AccessEvent &event, unsigned width, const WidthRule &r) const;
  /// Aligned accesses all in one row (broadcast, 128-byte aligned contiguous words).
  SharedCost costOneRow(const AccessEvent &event, unsigned width, const WidthRule &r) const;
  /// Aligned accesses within 2048 rows (banks * bank width bytes each): direct-mapped tables.
  SharedCost costAligned(const AccessEvent &event, unsigned width, const WidthRule &r,
                         std::uint64_t rowMin) const;
  /// AVX-512BW (SharedModelSimd.cpp), for the duplicate-counting ideal: lanes aligned to a
  /// power-of-two width, rows within 2^10 of the first active lane's. Returns packVectorCost(...), or 0 when
  /// the event needs costWith().
  std::uint64_t costVectorised(const AccessEvent &event, unsigned width, const OpRule &o) const;

public:
  /// Internal: costVectorised()'s result in one register (bits 0-15 wavefronts, 16-31 conflict
  /// ways, bit 32 packed, bit 33 set).
  static constexpr std::uint64_t packVectorCost(std::uint32_t wavefronts, std::uint32_t ways,
                                                bool packed) {
    return wavefronts | std::uint64_t(ways) << 16 | std::uint64_t(packed) << 32 |
           std::uint64_t(1) << 33;
  }

private:
  /// Phases of layout r with an active lane (the conflict-free wavefronts).
  static unsigned phasesWithLanes(std::uint32_t mask, const WidthRule &r);
  /// Ideal wavefronts counting every active lane's bytes: max(1, ceil(lanes * width / row bytes)).
  std::uint32_t duplicateBytesIdeal(std::uint32_t mask, unsigned width) const;
  /// AccessEvent::laneSerial: per phase, the most active lanes any one bank serves.
  SharedCost costLaneSerial(const AccessEvent &event, unsigned width) const;
  /// Anything else (misaligned lanes, sparse addresses): a hash set of words.
  SharedCost costGeneral(const AccessEvent &event, unsigned width, const WidthRule &r) const;

  const arch::ArchSpec *arch_; ///< only read in the constructor; the model keeps its own copy
  OpRule rules_[3][5];         ///< [Any, Load, Store][widths 1, 2, 4, 8, 16]
  bool idealDuplicates_ = false; ///< ideal counts every active lane's bytes
  unsigned wordShift_ = 2;     ///< log2(bank width)
  unsigned bankMask_ = 31;
  unsigned banks_ = 32;
  unsigned bytesPerWavefront_ = 128;
  unsigned rowShift_ = 7;      ///< log2(banks * bank width): a row holds one word per bank
  bool simd_ = false;          ///< costVectorised() may be used (CPU, banks and rows allow it)
  bool simdAllowed_ = false;   ///< the arch's banks (<= 32) and rows (<= 1 KiB) suit it
};

} // namespace warplens::model
