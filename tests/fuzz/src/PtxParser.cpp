/// \file
/// Fuzz target ptx_parser: parseText() on any bytes; an error must name the file.
#include "FuzzTargets.h"

#include "ptx/Module.h"
#include "ptx/Parser.h"

#include <string>

namespace warplens::fuzz {

int ptxParser(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  auto m = ptx::parseText(text, "fuzz.ptx");
  if (!m) {
    if (m.error().message.rfind("fuzz.ptx", 0) != 0) violated("ptx_parser", m.error().message);
    if (m.error().status != 2) violated("ptx_parser", "error status is not 2");
    return 0;
  }
  for (const auto &f : (*m)->functions)
    for (const auto &ins : f.instructions)
      if (ins.op == ptx::Opcode::Bra && (ins.target < 0 || std::size_t(ins.target) > f.instructions.size()))
        violated("ptx_parser", "branch target outside the function");
  (void)ptx::entryNames(**m);
  return 0;
}

} // namespace warplens::fuzz

WARPLENS_FUZZ_ENTRY(ptxParser)
