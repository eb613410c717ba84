/// \file
/// Address-only mode of the SASS engine: a backward slice from every address, guard, branch
/// condition and barrier keeps the instructions that decide which accesses happen and where;
/// the rest (in an SGEMM most FFMAs, which feed nothing but the values stored) are skipped but
/// still counted as executed. Access counts are identical to full execution; buffer contents are
/// not (the pipeline uses it only when no functional check is asked for). Slice.cpp says how.
#pragma once

#include "sassemu/Instr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace warplens::sassemu {

struct SliceStats {
  std::uint32_t instructions = 0; ///< decoded instructions
  std::uint32_t skipped = 0;      ///< of them, skipped in address-only mode
  bool memoryNeeded = false;      ///< loads and stores still move data (a loaded value is needed)
  std::string why;                ///< the first load whose value is needed (when memoryNeeded)
  std::string disabledBy;         ///< an instruction the slice does not know: nothing skipped
};

/// Sets Instr::skip, skipRun and noData over `code` (decoded, selectors applied); leaves them
/// false when an instruction outside the slice's tables occurs (SliceStats::disabledBy).
SliceStats sliceForAddresses(std::vector<Instr> &code);

} // namespace warplens::sassemu
