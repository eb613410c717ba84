/// \file
/// Time section text and conflict cost sentences (see TimeViews.h).
#include "analysis/views/TimeViews.h"

#include "perf/DeviceSpec.h"

#include <cstdio>
#include <sstream>

namespace warplens::analysis {

namespace {

std::string us(double ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f us", ns / 1e3);
  return b;
}

std::string fixed(double v, int digits) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

} // namespace

std::string renderTimeText(const launch::LaunchResult &r, const std::string &indent) {
  const auto &t = r.time;
  if (t.is_null() || !t.is_object()) return "";
  std::ostringstream os;
  if (t.contains("measured_ns") && t["measured_ns"].is_array()) {
    os << indent << "time:   measured";
    auto m = r.metrics.find("gpu__time_duration.sum");
    if (m != r.metrics.end()) os << " " << us(m->second);
    os << " (" << t.value("method", std::string("kernel timer")) << ")\n";
    return os.str();
  }
  if (!t.contains("predicted_ns")) return "";
  os << indent << "time:   predicted " << us(t.value("predicted_ns", 0.0)) << " on "
     << t.value("device", std::string("?")) << ", limited by " << t.value("limiter", std::string("?"));
  double gbs = t.value("dram_gbs", 0.0);
  os << "; DRAM " << fixed(t.value("dram_bytes", 0.0) / 1e6, 2) << " MB at " << fixed(gbs, 0)
     << " GB/s\n";
  if (t.contains("occupancy")) {
    const auto &o = t["occupancy"];
    os << indent << "        occupancy " << o.value("blocks_per_sm", 0u) << " blocks/SM of "
       << o.value("warps_per_block", 0u) << " warps (limited by "
       << o.value("limited_by", std::string("?")) << "), " << fixed(o.value("waves", 0.0), 2)
       << " waves\n";
  }
  if (t.contains("terms_ns")) {
    os << indent << "        terms: launch " << us(t.value("launch_ns", 0.0));
    for (auto it = t["terms_ns"].begin(); it != t["terms_ns"].end(); ++it)
      os << ", " << it.key() << " " << us(it.value().get<double>());
    os << "\n";
  }
  // Session 10: the SM trace simulation, where it ran and raised the latency term.
  const double traceNs = t.contains("inputs") ? t["inputs"].value("trace_sim_ns", -1.0) : -1.0;
  if (t.value("trace_floor", false) && traceNs > 0)
    os << indent << "        block 0's trace on one SM (barriers, dependent loads): " << us(traceNs)
       << "; latency raised from " << us(t.value("latency_from_totals_ns", 0.0)) << " half way to it\n";
  return os.str();
}

std::string conflictCostText(double wavefronts, double ideal, const std::string &deviceName) {
  auto d = perf::loadDevice(deviceName);
  if (!d || wavefronts <= 0) return "";
  const double cyc = d->coef.lsuCyclesPerWavefront;
  const double ghz = d->smClockHz / 1e9;
  std::ostringstream os;
  os << "Time: on " << d->name << " (fitted " << fixed(cyc, 2) << " cycles per wavefront at "
     << fixed(ghz, 2) << " GHz) these " << fixed(wavefronts, 0) << " wavefronts occupy one SM's "
     << "L1/shared data path for " << fixed(wavefronts * cyc / ghz, 1) << " ns";
  if (ideal > 0 && ideal < wavefronts)
    os << "; conflict-free (" << fixed(ideal, 0) << ") it would be " << fixed(ideal * cyc / ghz, 1)
       << " ns, " << fixed(wavefronts / ideal, 1) << "x less";
  os << ".";
  return os.str();
}

std::string sectorCostText(double sectors, double ideal, const std::string &deviceName) {
  auto d = perf::loadDevice(deviceName);
  if (!d || sectors <= 0 || d->coef.l2NsPerByte <= 0 || d->coef.dramNsPerByte <= 0) return "";
  const double bytes = 32.0 * sectors;
  std::ostringstream os;
  os << "Time: on " << d->name << " these " << fixed(sectors, 0) << " sectors move "
     << fixed(bytes, 0) << " bytes: " << fixed(bytes * d->coef.l2NsPerByte, 1)
     << " ns of the whole GPU's L2 bandwidth (fitted " << fixed(1.0 / d->coef.l2NsPerByte, 0)
     << " GB/s), " << fixed(bytes * d->coef.dramNsPerByte, 1) << " ns of its DRAM bandwidth ("
     << fixed(1.0 / d->coef.dramNsPerByte, 0) << " GB/s) when they miss L2";
  if (ideal > 0 && ideal < sectors)
    os << "; with " << fixed(ideal, 0) << " sectors, " << fixed(sectors / ideal, 1) << "x less";
  os << ".";
  return os.str();
}

} // namespace warplens::analysis
