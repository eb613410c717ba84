/// \file
/// `warplens explain` of instructions of an analyzed kernel: picks instructions by SASS pc or
/// source line, and turns each one's totals and costliest warp (model::WorstEventListener) into
/// plain report structs — the warp as a one-warp PatternReport, so the pattern views draw it.
#pragma once

#include "analysis/Pipeline.h"
#include "analysis/pattern/PatternExplainer.h"
#include "analysis/pattern/PatternReport.h"
#include "arch/ArchSpec.h"
#include "launch/LaunchSpec.h"
#include "launch/Result.h"
#include "model/WorstEventListener.h"
#include "util/Expected.h"

#include <optional>
#include <string>
#include <vector>

namespace warplens::analysis {

/// A rewrite of the shared array's layout, evaluated with the shared model on the costliest warp.
/// Takes the warp's lowest address, rounded down to a row, as the array's start, and assumes
/// that every access of the array uses the same mapping; it does not check the rest of the kernel.
struct LayoutFix {
  std::string label;           ///< "pad every 64-byte row by 4 bytes (row pitch 68 bytes)"
  std::uint32_t wavefronts = 0; ///< the costliest warp's wavefronts with the rewrite
};

struct InstructionExplanation {
  launch::InstructionRecord record; ///< totals over the whole launch
  model::SiteInfo site;
  bool executed = false;            ///< some warp executed it (else no costliest warp)
  model::WorstEvent worst;          ///< the costliest execution, counts, histogram
  PatternReport warp;               ///< the costliest warp (warps[0]) for the pattern views
  std::vector<BankCollision> collisions; ///< shared: the banks serving the most words
  std::vector<std::string> ideal;   ///< what ideal means here and what it would take
  std::vector<LayoutFix> fixes;     ///< shared conflicts: layouts that help, best first
};

struct InstructionExplainReport {
  std::string launch, kernel, arch, sassSource;
  launch::Dim3 grid{1, 1, 1}, block{1, 1, 1};
  std::string selector;             ///< "--pc 0x01c0" or "--line 143"
  std::vector<std::string> notes;   ///< the analysis notes (e.g. SASS unavailable)
  std::vector<InstructionExplanation> instructions;
};

/// Indices into result.instructions chosen by exactly one of `pc` (SASS pc) or `line` (source
/// line; PTX line when no instruction has source lines). Error (status 2) names the pc or line
/// and lists what is there.
Expected<std::vector<std::size_t>> selectInstructions(const launch::LaunchResult &result,
                                                      std::optional<std::uint64_t> pc,
                                                      std::optional<int> line);

/// Builds the report for the chosen records; `detail` comes from Pipeline::analyze with
/// wantWorst (its sites[i] is the site of result.instructions[i]).
InstructionExplainReport explainInstructions(const launch::LaunchResult &result,
                                             const RunDetail &detail,
                                             const std::vector<std::size_t> &which,
                                             const launch::LaunchSpec &spec,
                                             const arch::ArchSpec &arch);

} // namespace warplens::analysis
