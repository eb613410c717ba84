/// \file
/// Reader of SASS listings (cuobjdump -sass / nvdisasm -g output): functions, instructions with
/// pc offsets, opcode, memory space/op/width for memory instructions, and source lines.
#pragma once

#include "model/AccessEvent.h"
#include "util/Expected.h"

#include <cstdint>
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
  std::string sourceFile;        ///< where the listing has line info
  int sourceLine = -1;
};

struct SassFunction {
  std::string name;              ///< mangled name
  std::vector<SassInstruction> instructions;
};

Expected<std::vector<SassFunction>> parseListing(const std::string &text, const std::string &where);
Expected<std::vector<SassFunction>> readListing(const std::string &path);

} // namespace warplens::sass
