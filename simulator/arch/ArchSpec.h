/// \file
/// One GPU architecture's memory-system parameters, loaded from simulator/arch/data/sm_XX.json
/// (each file inherits from a parent and overrides fields, citing sources). Model code reads these
/// fields and never branches on the architecture number.
#pragma once

#include "util/Expected.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace warplens::arch {

/// Which shared-memory operations a rule covers. Any: every op unless a Load/Store rule for the
/// same width overrides it (atomics and reductions always use the Any rule).
enum class SharedOp : std::uint8_t { Any, Load, Store };

/// How a shared-memory access of one per-lane width (and op) is served.
/// The warp's lanes are split into phases of `lanesPerPhase` consecutive lanes, served one after
/// another (`mergeAcrossPhases`: the whole warp is one phase). Packed return (loads, measured on
/// sm_90): when, for some x in `packLaneXors`, every active lane n whose partner n^x is active
/// reads the same address as that partner, phases hold `packedLanesPerPhase` lanes instead
/// (0 = never packed). Exact semantics: SharedModel.h and arch/CALIBRATION.md.
struct SharedWidthRule {
  unsigned widthBytes = 4;
  unsigned lanesPerPhase = 32;
  bool mergeAcrossPhases = false;
  SharedOp op = SharedOp::Any;
  unsigned packedLanesPerPhase = 0;
  std::vector<unsigned> packLaneXors; ///< lane XOR distances (1..31) that allow packing
  /// The source-view rule ("sourceView" object; Nsight Compute's per-instruction SASS metric
  /// smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared), where it differs from the hardware
  /// counter's rule above (SharedModel.h, arch/CALIBRATION.md):
  /// - svPackPerPhase: the pack condition is tested within each packed phase, not warp-wide;
  /// - svPackOnlyConflictFree: a packed phase counts one wavefront only when its lanes have no
  ///   bank conflict; otherwise its plain phases count;
  /// - svWarpMergeMaxLanes (0 = off): a warp with at most this many active lanes, no bank
  ///   conflict and lane n reading lane n^svWarpMergeLaneXor's address (where both are active)
  ///   is one wavefront;
  /// - svBroadcastLanesPerWavefront (0 = off): a warp whose active lanes all read one address
  ///   counts ceil(active lanes / this) wavefronts;
  /// - svStrictPairPhases (bit p = packed phase p): in these phases the pair condition is strict:
  ///   every active lane's partner n^x must be active too (and read the same address);
  /// - svPairFreePhases (bit p = packed phase p), svPairFreeLane: while lane svPairFreeLane is
  ///   inactive, these packed phases pack without the pair condition (no bank conflict suffices).
  bool svPackPerPhase = false;
  bool svPackOnlyConflictFree = false;
  unsigned svWarpMergeMaxLanes = 0;
  unsigned svWarpMergeLaneXor = 0;
  unsigned svBroadcastLanesPerWavefront = 0;
  std::uint32_t svStrictPairPhases = 0;
  std::uint32_t svPairFreePhases = 0;
  unsigned svPairFreeLane = 31;
  /// Any of the above set: the two truths may differ for this (width, op).
  bool hasSourceViewRule() const {
    return svPackPerPhase || svPackOnlyConflictFree || svWarpMergeMaxLanes != 0 ||
           svBroadcastLanesPerWavefront != 0 || svStrictPairPhases != 0 || svPairFreePhases != 0;
  }
};

struct ArchSpec {
  std::string name;        ///< "sm_90"
  std::string inherits;    ///< parent name or empty
  std::string description; ///< "Hopper (GH100): H100, H200"
  unsigned warpSize = 32;
  // Global memory (L1TEX LSU path)
  unsigned sectorBytes = 32;
  unsigned lineBytes = 128;
  /// Ideal sectors = ceil(bytes / sectorBytes) where bytes counts each distinct byte once (false)
  /// or every active lane's bytes, duplicates included (true). Calibrated on hardware.
  bool idealCountsDuplicateBytes = false;
  // Shared memory
  unsigned sharedBanks = 32;
  unsigned bankWidthBytes = 4;
  /// Ideal wavefronts = min(wavefronts, max(1, ceil(bytes / (banks * bankWidthBytes)))) where
  /// bytes counts every active lane's bytes, duplicates included (true), or each distinct byte
  /// once (false). Calibrated on hardware (sm_90: true).
  bool sharedIdealCountsDuplicateBytes = false;
  /// One Any rule per width 1, 2, 4, 8, 16 (in that order), then the Load/Store overrides the
  /// data defines, each fully resolved (override fields over the width's Any rule).
  std::vector<SharedWidthRule> sharedRules;
  // Capacities (bytes), 0 where unknown
  std::uint64_t l1BytesPerSm = 0;
  std::uint64_t sharedBytesPerSmMax = 0;
  std::uint64_t sharedBytesPerBlockMax = 0;
  std::uint64_t l2Bytes = 0;
  // DRAM fetch rule (optional "dram" group; model/DramSectorModel.h): reads reach DRAM in units
  // of dramReadFetchBytes (aligned); sectors written only in part are filled from DRAM.
  unsigned dramReadFetchBytes = 32;
  bool dramFillPartialWrites = false;
  /// field group -> citation ("shared": "CUDA C++ Programming Guide, CC 9.0 §...")
  std::map<std::string, std::string> sources;
  /// Data files this spec was resolved from, leaf first ("sm_90.json", "sm_89.json", ...).
  std::vector<std::string> files;

  /// The Any rule of a width.
  const SharedWidthRule &sharedRule(unsigned widthBytes) const;
  /// The rule for `op` (Load/Store override if the data has one, else the Any rule).
  const SharedWidthRule &sharedRule(unsigned widthBytes, SharedOp op) const;
};

/// Load an architecture by name ("sm_90"); resolves inheritance. Unknown name → Error listing
/// the known names. A name ending in ".json" is read from disk as by loadArchFile.
Expected<ArchSpec> loadArch(std::string_view name);
/// Load an architecture data file from disk. Its parent ("inherits") is looked up beside it
/// first, then among the built-in files. Errors name the file and the key.
Expected<ArchSpec> loadArchFile(const std::string &path);
/// Load an architecture from JSON text (`fileName` is used in errors; parents are built-in).
Expected<ArchSpec> loadArchText(const std::string &fileName, std::string_view text);
/// Every known architecture name, sorted.
std::vector<std::string> listArches();

} // namespace warplens::arch
