/// \file
/// `warplens explain` for a pattern: why a warp conflicts (or wastes sectors) and which rewrite
/// of the index fixes it — padding the row length, padding every bank row, XOR swizzles, swapping
/// tx/ty, aligning the base — each candidate evaluated with the same models. Does not prove a
/// rewrite keeps the kernel correct: the same mapping must be used by every access of the array.
#pragma once

#include "analysis/pattern/PatternReport.h"
#include "util/Expected.h"

#include <string>
#include <vector>

namespace warplens::analysis {

struct ExplainCandidate {
  std::string label;       ///< "pad rows to 33 elements"
  std::string index;       ///< the rewritten --index
  std::vector<std::pair<std::string, std::string>> lets; ///< the rewritten --let list
  std::uint64_t base = 0;
  std::uint64_t extraElements = 0; ///< memory the rewrite adds, where known (0 = none/unknown)
  bool ok = false;
  std::string error;       ///< why it could not be evaluated
  std::uint64_t cost = 0;  ///< wavefronts (shared) or sectors (global), over the warps examined
  std::uint64_t ideal = 0;
};

/// A bank that serves more than one word in the examined warp.
struct BankCollision {
  unsigned bank = 0;
  std::vector<std::pair<std::uint64_t, std::vector<unsigned>>> words; ///< word → lanes
};

struct ExplainReport {
  PatternReport base;
  std::string form; ///< e.g. "row*W + col with row = tx, W = 32, col = ty"; empty if not detected
  std::vector<BankCollision> collisions; ///< shared: the worst banks of the examined warp
  std::vector<ExplainCandidate> candidates;
};

Expected<ExplainReport> explainPattern(const PatternOptions &options);

} // namespace warplens::analysis
