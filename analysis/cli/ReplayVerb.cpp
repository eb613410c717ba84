/// \file
/// `warplens replay TRACE`: runs the global and shared models over a recorded warp-access trace
/// and prints per-site totals (text or JSON), or dumps the trace as JSON Lines.
#include "analysis/cli/Verbs.h"
#include "arch/ArchSpec.h"
#include "model/InstructionStats.h"
#include "trace/TraceJsonl.h"
#include "trace/TraceReader.h"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <ostream>
#include <sstream>

namespace warplens::cli {
namespace {

namespace po = boost::program_options;

const char *kUsage =
    "usage: warplens replay TRACE [--arch sm_90] [--format text|json] [--jsonl]\n\n"
    "Replays a warp-access trace (written by a TraceWriter, e.g. from the emulator) through the\n"
    "memory models and prints, per instruction site: executions, active threads, global requests,\n"
    "32-byte sectors, ideal sectors, 128-byte lines, shared wavefronts, ideal wavefronts and the\n"
    "worst bank-conflict ways. The trace is checked as it is read: a truncated or corrupt file is\n"
    "reported with its byte offset and record number (exit status 2).\n\n"
    "examples:\n"
    "  warplens replay kernel.wlt                 totals under the trace's own architecture\n"
    "  warplens replay kernel.wlt --arch sm_80    the same addresses on another architecture\n"
    "  warplens replay kernel.wlt --jsonl | head  the raw events, one JSON object per line\n\n"
    "options";

struct Row {
  std::string label;
  model::InstructionStats s;
};

nlohmann::ordered_json rowJson(std::uint32_t site, const Row &r) {
  nlohmann::ordered_json j;
  j["site"] = site;
  j["label"] = r.label;
  j["space"] = std::string(model::toString(r.s.space));
  j["op"] = std::string(model::toString(r.s.op));
  j["width_bytes"] = r.s.widthBytes;
  j["executed"] = r.s.executed;
  j["threads"] = r.s.threads;
  j["requests"] = r.s.requests;
  j["sectors"] = r.s.sectors;
  j["sectors_ideal"] = r.s.sectorsIdeal;
  j["lines"] = r.s.lines;
  j["wavefronts"] = r.s.wavefronts;
  j["wavefronts_ideal"] = r.s.wavefrontsIdeal;
  j["conflict_ways_max"] = r.s.conflictWaysMax;
  return j;
}

std::string textTable(const std::map<std::uint32_t, Row> &rows, const model::InstructionStats &t) {
  std::ostringstream os;
  char line[512];
  std::snprintf(line, sizeof line, "%8s  %-7s %-4s %5s %10s %11s %10s %11s %11s %10s %11s %11s %5s  %s\n",
                "site", "space", "op", "width", "executed", "threads", "requests", "sectors",
                "ideal_sect", "lines", "wavefronts", "ideal_wave", "ways", "label");
  os << line;
  auto put = [&](const std::string &site, const model::InstructionStats &s, const std::string &space,
                 const std::string &op, const std::string &label) {
    std::snprintf(line, sizeof line,
                  "%8s  %-7s %-4s %5s %10llu %11llu %10llu %11llu %11llu %10llu %11llu %11llu %5u  %s\n",
                  site.c_str(), space.c_str(), op.c_str(),
                  s.widthBytes ? std::to_string(s.widthBytes).c_str() : "-",
                  (unsigned long long)s.executed, (unsigned long long)s.threads,
                  (unsigned long long)s.requests, (unsigned long long)s.sectors,
                  (unsigned long long)s.sectorsIdeal, (unsigned long long)s.lines,
                  (unsigned long long)s.wavefronts, (unsigned long long)s.wavefrontsIdeal,
                  s.conflictWaysMax, label.c_str());
    os << line;
  };
  for (const auto &[site, r] : rows)
    put(std::to_string(site), r.s, std::string(model::toString(r.s.space)),
        std::string(model::toString(r.s.op)), r.label);
  put("total", t, "-", "-", "");
  return os.str();
}

} // namespace

int replayMain(const Args &args, std::ostream &out, std::ostream &err) {
  po::options_description opts(kUsage);
  std::string archName, format = "text", tracePath;
  opts.add_options()("help,h", "show this help")(
      "arch", po::value<std::string>(&archName),
      "architecture whose rules to apply (default: the one recorded in the trace, else sm_90; "
      "see warplens --list-arches; a path to an arch .json also works)")(
      "format", po::value<std::string>(&format)->default_value("text"), "text or json")(
      "jsonl", "print the trace itself as JSON Lines (header line, then one event per line)");
  po::options_description hidden;
  hidden.add_options()("trace", po::value<std::string>(&tracePath));
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description pos;
  pos.add("trace", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error &e) {
    err << "warplens replay: " << e.what() << "\n(try warplens replay --help)\n";
    return 2;
  }
  if (vm.count("help")) {
    out << opts << "\n";
    return 0;
  }
  if (tracePath.empty()) {
    err << "warplens replay: missing TRACE (the trace file to replay)\n(try warplens replay --help)\n";
    return 2;
  }
  if (format != "text" && format != "json") {
    err << "warplens replay: --format '" << format << "': expected text or json\n";
    return 2;
  }
  if (vm.count("jsonl")) {
    auto n = trace::dumpJsonl(tracePath, out);
    if (!n) {
      err << "warplens replay: " << n.error().message << "\n";
      return n.error().status;
    }
    return 0;
  }

  auto reader = trace::TraceReader::open(tracePath);
  if (!reader) {
    err << "warplens replay: " << reader.error().message << "\n";
    return reader.error().status;
  }
  const trace::TraceHeader header = reader->header();
  if (archName.empty()) archName = header.arch.empty() ? "sm_90" : header.arch;
  auto arch = arch::loadArch(archName);
  if (!arch) {
    err << "warplens replay: --arch: " << arch.error().message << "\n";
    return arch.error().status;
  }
  model::StatsCollector stats(arch.value());
  model::AccessEvent e;
  for (;;) {
    auto more = reader->next(e);
    if (!more) {
      err << "warplens replay: " << more.error().message << "\n";
      return more.error().status;
    }
    if (!more.value()) break;
    stats.onAccess(e);
  }
  stats.onEnd();

  std::map<std::uint32_t, std::string> labels(header.sites.begin(), header.sites.end());
  std::map<std::uint32_t, Row> rows;
  model::InstructionStats total;
  for (const auto &[site, s] : stats.sites()) {
    rows[site] = Row{labels.count(site) ? labels[site] : std::string(), s};
    model::InstructionStats t = s;
    t.widthBytes = 0;
    total.merge(t);
  }
  total.widthBytes = 0;

  if (format == "json") {
    nlohmann::ordered_json j;
    j["trace"] = tracePath;
    j["kernel"] = header.kernel;
    j["arch"] = arch->name;
    j["events"] = reader->recordsRead();
    j["sites"] = nlohmann::ordered_json::array();
    for (const auto &[site, r] : rows) j["sites"].push_back(rowJson(site, r));
    nlohmann::ordered_json t = rowJson(0, Row{"", total});
    for (const char *k : {"site", "label", "space", "op", "width_bytes"}) t.erase(k);
    j["totals"] = t;
    // Kernel name and site labels come from the trace file: stray bytes become U+FFFD (dump()
    // threw on invalid UTF-8 and warplens aborted).
    out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return 0;
  }
  out << "trace " << tracePath << ": kernel '" << header.kernel << "', " << reader->recordsRead()
      << " warp accesses, arch " << arch->name
      << (vm.count("arch") ? " (--arch)" : header.arch.empty() ? " (default)" : " (from the trace)")
      << "\n\n"
      << textTable(rows, total);
  return 0;
}

} // namespace warplens::cli
