/// \file
/// Fuzz target sass_listing: parseListing() and parseSassAddress() on any bytes.
#include "FuzzTargets.h"

#include "sass/SassListing.h"

#include <nlohmann/json.hpp>

#include <string>

namespace warplens::fuzz {

int sassListing(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  auto fns = sass::parseListing(text, "fuzz.sass");
  if (!fns) {
    if (fns.error().message.rfind("fuzz.sass", 0) != 0) violated("sass_listing", fns.error().message);
    return 0;
  }
  for (const auto &f : *fns)
    for (const auto &ins : f.instructions) {
      if (ins.opcode.empty()) violated("sass_listing", "instruction without opcode");
      if (ins.isMemory && (ins.widthBytes == 0 || ins.widthBytes > 16))
        violated("sass_listing", "memory width outside 1..16");
      (void)sass::parseSassAddress(ins.text);
      (void)nlohmann::json({ins.text, ins.sourceFile, ins.innerFile}).dump(); // results are JSON
    }
  return 0;
}

} // namespace warplens::fuzz

WARPLENS_FUZZ_ENTRY(sassListing)
