/// \file
/// Decodes a dotted PTX opcode ("ld.global.nc.v4.f32") into Instruction fields (opcode, types,
/// space, vector width, comparison, rounding, ...). Unsupported opcodes and modifiers are errors.
#pragma once

#include "ptx/Module.h"

#include <string>

namespace warplens::ptx {

/// Fills ins.op, ins.type, ins.srcType and the modifier fields from `text`. Returns an empty
/// string on success, else a message naming the unsupported opcode or modifier.
std::string decodeOpcode(const std::string &text, Instruction &ins);

/// Parses a type name without the dot ("f32"); Type::None if it is not one.
Type parseType(const std::string &name);

} // namespace warplens::ptx
