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

/// How a shared-memory access of one per-lane width is served.
/// The warp's lanes are split into phases of `lanesPerPhase` consecutive lanes; each phase is
/// served separately unless `mergeAcrossPhases` lets phases that hit disjoint banks (or identical
/// words) share a wavefront. Exact semantics are documented in the data file and SharedModel.h.
struct SharedWidthRule {
  unsigned widthBytes = 4;
  unsigned lanesPerPhase = 32;
  bool mergeAcrossPhases = false;
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
  std::vector<SharedWidthRule> sharedRules; ///< one per width 1, 2, 4, 8, 16
  // Capacities (bytes), 0 where unknown
  std::uint64_t l1BytesPerSm = 0;
  std::uint64_t sharedBytesPerSmMax = 0;
  std::uint64_t sharedBytesPerBlockMax = 0;
  std::uint64_t l2Bytes = 0;
  /// field group -> citation ("shared": "CUDA C++ Programming Guide, CC 9.0 §...")
  std::map<std::string, std::string> sources;
  /// Data files this spec was resolved from, leaf first ("sm_90.json", "sm_89.json", ...).
  std::vector<std::string> files;

  const SharedWidthRule &sharedRule(unsigned widthBytes) const;
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
