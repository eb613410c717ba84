/// \file
/// Fuzz target trace_reader: TraceReader over an in-memory stream (fmemopen) of any bytes, read
/// to the end marker or the first error.
#include "FuzzTargets.h"

#include "trace/TraceJsonl.h"
#include "trace/TraceReader.h"

#include <cstdio>
#include <string>

namespace warplens::fuzz {

int traceReader(const std::uint8_t *data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  if (bytes.empty()) bytes.push_back('\0'); // fmemopen needs a non-empty buffer
  std::FILE *f = ::fmemopen(bytes.data(), size ? size : 1, "rb");
  if (!f) violated("trace_reader", "fmemopen failed");
  auto r = trace::TraceReader::open(f, "fuzz.wlt");
  if (!r) {
    if (r.error().message.rfind("fuzz.wlt", 0) != 0) violated("trace_reader", r.error().message);
    return 0;
  }
  // The header goes into JSON (replay --format json, dump-jsonl): it must dump whatever its bytes.
  (void)trace::headerToJsonLine(r->header());
  model::AccessEvent e;
  std::uint64_t n = 0;
  for (;;) {
    auto more = r->next(e);
    if (!more) {
      if (more.error().message.rfind("fuzz.wlt", 0) != 0) violated("trace_reader", more.error().message);
      break;
    }
    if (!*more) break;
    // A record takes at least 19 bytes (tag, site, 4 x u8, mask, block, warp).
    if (++n * 19 > size) violated("trace_reader", "more records than the bytes allow");
  }
  return 0;
}

} // namespace warplens::fuzz

WARPLENS_FUZZ_ENTRY(traceReader)
