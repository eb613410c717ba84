/// \file
/// Fuzz target result_json: the measured/predicted result reader (parseMeasured on JSON text);
/// whatever it accepts must survive toJson → resultsFromJson unchanged.
#include "FuzzTargets.h"

#include "analysis/compare/NcuCsv.h"
#include "launch/Result.h"

#include <string>

namespace warplens::fuzz {

int resultJson(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  // Only the JSON path of the content sniffing: the CSV path has its own target.
  const std::size_t k = text.find_first_not_of(" \t\r\n");
  if (k == std::string::npos || text[k] != '{') return 0;
  auto in = analysis::parseMeasured(text, "fuzz.json");
  if (!in) {
    if (in.error().message.rfind("fuzz.json", 0) != 0) violated("result_json", in.error().message);
    return 0;
  }
  const auto j = launch::toJson(in->launches);
  auto back = launch::resultsFromJson(j, "round-trip");
  if (!back) violated("result_json", "written JSON not read back: " + back.error().message);
  if (launch::toJson(*back) != j) violated("result_json", "round trip changed the results");
  return 0;
}

} // namespace warplens::fuzz

WARPLENS_FUZZ_ENTRY(resultJson)
