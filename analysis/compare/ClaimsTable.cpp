/// \file
/// The "seed claims vs measured" table: each seed's claim next to what the hardware did.
/// Only three claim shapes get a verdict (N-way, N%, N sectors); the rest are shown as text.
#include "analysis/compare/CompareViews.h"

#include "analysis/views/ResultTable.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>

namespace warplens::analysis {

namespace {

struct Facts {
  double maxWays = 0;         ///< max over shared instructions of wavefronts / ideal
  double minEfficiency = -1;  ///< min over global instructions of ideal / sectors (percent)
  double maxSectorsPerReq = 0; ///< max over global instructions of sectors / executed
  bool any = false;
  bool shared = false;
};

Facts factsOf(const LaunchComparison &l, bool measured) {
  Facts f;
  for (const auto &row : l.instructions) {
    const auto &rec = measured ? row.measured : row.predicted;
    if (!rec) continue;
    f.any = true;
    if (rec->space == "shared" && rec->wavefrontsIdeal) f.shared = true;
    if (rec->space == "shared" && rec->wavefrontsIdeal)
      f.maxWays = std::max(f.maxWays, double(rec->wavefronts) / double(rec->wavefrontsIdeal));
    if (rec->space == "global" && rec->sectors) {
      const double eff = 100.0 * double(rec->sectorsIdeal) / double(rec->sectors);
      f.minEfficiency = f.minEfficiency < 0 ? eff : std::min(f.minEfficiency, eff);
      const double req = double(rec->requests ? rec->requests : rec->executed);
      if (req) f.maxSectorsPerReq = std::max(f.maxSectorsPerReq, double(rec->sectors) / req);
    }
  }
  return f;
}

std::string describe(const Facts &f) {
  if (!f.any) return "-";
  std::ostringstream os;
  char b[64];
  if (f.shared) {
    std::snprintf(b, sizeof b, "%.2f", f.maxWays);
    os << "shared max " << b << "-way";
  }
  if (f.minEfficiency >= 0) {
    std::snprintf(b, sizeof b, "%.1f", f.minEfficiency);
    os << (f.shared ? "; " : "") << "global min eff " << b << "%";
    std::snprintf(b, sizeof b, "%.2f", f.maxSectorsPerReq);
    os << ", max " << b << " sectors/req";
  }
  return os.str();
}

std::string verdict(const std::string &claim, const Facts &m) {
  if (!m.any) return "not measured";
  std::smatch g;
  auto near = [](double a, double b) { return std::fabs(a - b) <= 0.05 * std::max(1.0, b); };
  if (std::regex_search(claim, g, std::regex(R"((\d+)\s*-?\s*way)")))
    return near(m.maxWays, std::stod(g[1])) ? "holds" : "does not hold";
  if (std::regex_search(claim, g, std::regex(R"((\d+(?:\.\d+)?)\s*%)")))
    return m.minEfficiency >= 0 && near(m.minEfficiency, std::stod(g[1])) ? "holds"
                                                                          : "does not hold";
  if (std::regex_search(claim, g, std::regex(R"((\d+)\s*sectors)")))
    return near(m.maxSectorsPerReq, std::stod(g[1])) ? "holds" : "does not hold";
  return "see numbers";
}

/// "transpose_shared16_f32_2048" → "transpose_shared16_f32" (drops a trailing _<digits>).
std::string stripSize(const std::string &name) {
  const auto u = name.find_last_of('_');
  if (u == std::string::npos || u + 1 == name.size()) return name;
  for (std::size_t i = u + 1; i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return name;
  return name.substr(0, u);
}

/// The seeds in time: predicted vs measured duration and effective bandwidth per launch.
std::string renderTimeClaims(const CompareReport &rep) {
  std::ostringstream os;
  std::size_t rows = 0;
  for (const auto &l : rep.launches) {
    const MetricRow *t = nullptr;
    for (const auto &r : l.metrics)
      if (r.metric == "gpu__time_duration.sum" && r.compared) t = &r;
    if (!t || !l.predictedTime.is_object() || !l.predictedTime.contains("inputs")) continue;
    if (rows++ == 0)
      os << "\n### Seeds in time\n\nEffective bandwidth = (DRAM bytes read, as predicted, + bytes "
            "written) / duration, the seeds' convention; predicted by the time model "
            "(simulator/perf/CALIBRATION.md) from warplens' counts, measured with the probe.\n\n"
            "| launch | predicted us | measured us | error | predicted GB/s | measured GB/s | "
            "limiter |\n|---|---:|---:|---:|---:|---:|---|\n";
    const auto &in = l.predictedTime["inputs"];
    const double bytes = in.value("dram_read_bytes", 0.0) + in.value("bytes_written", 0.0);
    char b[256];
    std::snprintf(b, sizeof b, "| %s | %.2f | %.2f | %+.1f%% | %.0f | %.0f | %s |\n", l.name.c_str(),
                  *t->predicted / 1e3, *t->measured / 1e3,
                  100.0 * (*t->predicted - *t->measured) / *t->measured, bytes / *t->predicted,
                  bytes / *t->measured, l.predictedTime.value("limiter", std::string("?")).c_str());
    os << b;
  }
  return os.str();
}

} // namespace

std::string renderClaimsMarkdown(const CompareReport &rep, const nlohmann::json &claims) {
  std::ostringstream os;
  os << "## Seed claims vs measured\n\n";
  if (!claims.is_object() || claims.empty()) {
    os << "No claims file.\n";
    return os.str();
  }
  os << "| launch | seed claim | predicted | measured | verdict |\n|---|---|---|---|---|\n";
  std::size_t elsewhere = 0;
  for (auto it = claims.begin(); it != claims.end(); ++it) {
    const std::string claim = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
    const LaunchComparison *l = nullptr;
    for (const auto &c : rep.launches)
      if (c.name == it.key()) l = &c;
    // The same seed at another size: "transpose_shared16_f32_2048" claims for "..._f32_64".
    for (const auto &c : rep.launches)
      if (!l && stripSize(c.name) == stripSize(it.key())) l = &c;
    if (!l) {
      ++elsewhere;
      continue;
    }
    const Facts p = factsOf(*l, false), m = factsOf(*l, true);
    os << "| " << l->name << " | " << claim << " | " << describe(p) << " | " << describe(m) << " | "
       << verdict(claim, m) << " |\n";
  }
  if (elsewhere)
    os << "\n" << elsewhere << " further claim(s) concern launches not in this comparison.\n";
  os << renderTimeClaims(rep);
  return os.str();
}

} // namespace warplens::analysis
