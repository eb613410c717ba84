/// \file
/// Reader of SASS listings (cuobjdump -sass / nvdisasm -gi output): functions, instructions with
/// pc offsets, opcode, memory space/op/width for memory instructions, and source lines.
#pragma once

#include "model/AccessEvent.h"
#include "util/Expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warplens::sass {

struct SassInstruction {
  std::uint64_t pc = 0;          ///< byte offset in the function
  std::string text;              ///< "LDS.128 R4, [R2+0x10] ;" (predicate included)
  std::string opcode;            ///< "LDS.128"
  bool isMemory = false;         ///< LDG/STG/LDS/STS/LD/ST/LDL/STL/ATOM*/RED*/LDGSTS...
  model::Space space = model::Space::Global;
  model::Op op = model::Op::Load;
  unsigned widthBytes = 4;       ///< per lane
  std::string sourceFile;        ///< where the listing has line info; for inlined code the
  int sourceLine = -1;           ///< outermost call site (nvdisasm -gi "inlined at")
  std::string innerFile;         ///< innermost location (== source* unless inlined)
  int innerLine = -1;
};

struct SassFunction {
  std::string name;              ///< mangled name
  std::vector<SassInstruction> instructions;
  /// Labels and symbols of the section (".L_x_3", "$__internal_0_$...", the kernel) → pc.
  std::vector<std::pair<std::string, std::uint64_t>> labels;
};

Expected<std::vector<SassFunction>> parseListing(const std::string &text, const std::string &where);
Expected<std::vector<SassFunction>> readListing(const std::string &path);

/// The function named `mangled`, or nullptr.
const SassFunction *findFunction(const std::vector<SassFunction> &functions,
                                 const std::string &mangled);

/// Sets isMemory/space/op/widthBytes of `inst` from an opcode such as "LDG.E.128.CONSTANT";
/// returns false (leaving `inst` alone) for non-memory opcodes (LDC, ULDC, LDGDEPBAR, ...).
bool decodeMemoryOpcode(const std::string &opcode, SassInstruction &inst);

/// Address operand of a memory instruction: "[R2.64+0x10]" → base "R2.64", offset 16.
struct AddressOperand {
  std::string base;
  std::int64_t offset = 0;
};
std::optional<AddressOperand> parseSassAddress(const std::string &text);

} // namespace warplens::sass
