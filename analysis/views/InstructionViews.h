/// \file
/// Views of `warplens explain` for kernel instructions: text (totals, costliest warp's per-lane
/// arithmetic, bank diagram or sector map, what ideal takes, layout candidates) and JSON.
#pragma once

#include "analysis/views/InstructionExplain.h"

#include <nlohmann/json.hpp>
#include <string>

namespace warplens::analysis {

std::string renderInstructionExplainText(const InstructionExplainReport &report);
nlohmann::json instructionExplainToJson(const InstructionExplainReport &report);

} // namespace warplens::analysis
