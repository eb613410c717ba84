/// \file
/// Turns per-pc SASS metric values into the result schema: one InstructionRecord per memory
/// instruction of the listing (text, space, op, width, source line), kernel totals under
/// smsp__sass_*.sum names, and a summary note for the non-memory instructions. Pure host code.
#pragma once

#include "launch/Result.h"
#include "sass/SassListing.h"

#include <cstdint>
#include <map>
#include <string>

namespace warplens::probe {

using PcValues = std::map<std::uint64_t, std::map<std::string, std::uint64_t>>;

/// Fills `out.instructions`, adds totals to `out.metrics` and notes to `out.notes`.
/// `listing` may be null (no SASS listing): then every pc with sectors or wavefronts becomes a
/// record whose space is inferred from which metric is non-zero.
void addSassRecords(const PcValues &values, const sass::SassFunction *listing,
                    launch::LaunchResult &out);

/// "ld", "st", "atom", "red" (the result schema's op names).
std::string opName(model::Op op);
/// "global", "shared", "local", "const", "param", "generic".
std::string spaceName(model::Space space);

} // namespace warplens::probe
