/// \file
/// Turns one nvdisasm instruction text ("@!P0 IMAD.WIDE.U32 R2, R3, 0x4, R4 ;") into an Instr:
/// guard, opcode and modifiers, operands with their modifiers. Labels are resolved through the
/// function's label map. Semantics are chosen later by the opcode table (OpTable.cpp).
#pragma once

#include "sassemu/Instr.h"
#include "util/Expected.h"

#include <cstdint>
#include <map>
#include <string>

namespace warplens::sassemu {

using LabelMap = std::map<std::string, std::uint64_t>; ///< label / symbol → pc

/// Parses `text` (the listing's instruction text, ';' included or not). Errors name the token.
Expected<Instr> decodeText(const std::string &text, std::uint64_t pc, const LabelMap &labels);

} // namespace warplens::sassemu
