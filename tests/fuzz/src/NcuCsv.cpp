/// \file
/// Fuzz target ncu_csv: the Nsight Compute CSV importers (raw page wide/long, source page) and
/// the content sniffing of parseMeasured on any bytes.
#include "FuzzTargets.h"

#include "analysis/compare/NcuCsv.h"
#include "launch/Result.h"

#include <string>

namespace warplens::fuzz {

int ncuCsv(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  for (const auto &row : analysis::parseCsv(text))
    for (const auto &cell : row) (void)analysis::parseCsvNumber(cell);
  auto raw = analysis::parseNcuRawCsv(text, "fuzz.csv");
  if (!raw && raw.error().message.rfind("fuzz.csv", 0) != 0) violated("ncu_csv", raw.error().message);
  auto src = analysis::parseNcuSourceCsv(text, "fuzz.csv");
  if (!src && src.error().message.rfind("fuzz.csv", 0) != 0) violated("ncu_csv", src.error().message);
  // Whatever was read must be writable: dump() throws on invalid UTF-8 (a crash of
  // `warplens compare --format json` before the cells were cleaned).
  if (raw) (void)launch::toJson(*raw).dump();
  if (src) (void)launch::toJson(src->launches).dump();
  if (!text.empty() && text[0] != '{') {
    auto any = analysis::parseMeasured(text, "fuzz.csv");
    if (!any && any.error().message.rfind("fuzz.csv", 0) != 0) violated("ncu_csv", any.error().message);
  }
  return 0;
}

} // namespace warplens::fuzz

WARPLENS_FUZZ_ENTRY(ncuCsv)
