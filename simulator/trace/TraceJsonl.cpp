/// \file
/// JSON Lines rendering of trace headers and events.
#include "trace/TraceJsonl.h"

#include "trace/TraceReader.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ostream>

namespace warplens::trace {
namespace {

std::string hex(std::uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

} // namespace

std::string headerToJsonLine(const TraceHeader &h) {
  nlohmann::ordered_json j;
  j["trace"] = "warplens";
  j["version"] = kVersion;
  j["arch"] = h.arch;
  j["kernel"] = h.kernel;
  j["sites"] = nlohmann::ordered_json::array();
  for (const auto &[site, label] : h.sites) j["sites"].push_back({{"site", site}, {"label", label}});
  // Names come from the file: stray bytes become U+FFFD (dump() threw on invalid UTF-8).
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string eventToJsonLine(const model::AccessEvent &e) {
  nlohmann::ordered_json j;
  j["site"] = e.site;
  j["space"] = std::string(model::toString(e.space));
  j["op"] = std::string(model::toString(e.op));
  j["width"] = e.widthBytes;
  j["block"] = e.block;
  j["warp"] = e.warp;
  char mask[16];
  std::snprintf(mask, sizeof mask, "0x%08x", e.active.bits);
  j["active"] = mask;
  auto &addr = j["addr"] = nlohmann::ordered_json::array();
  for (unsigned lane = 0; lane < 32; ++lane)
    addr.push_back(e.active.test(lane) ? nlohmann::ordered_json(hex(e.addr[lane].value))
                                       : nlohmann::ordered_json(nullptr));
  return j.dump();
}

Expected<std::uint64_t> dumpJsonl(const std::string &path, std::ostream &out) {
  WL_TRY(reader, TraceReader::open(path));
  out << headerToJsonLine(reader.header()) << "\n";
  model::AccessEvent e;
  std::uint64_t n = 0;
  for (;;) {
    WL_TRY(more, reader.next(e));
    if (!more) break;
    out << eventToJsonLine(e) << "\n";
    ++n;
  }
  return n;
}

} // namespace warplens::trace
