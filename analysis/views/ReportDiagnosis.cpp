/// \file
/// One-line diagnoses for the HTML report: what an instruction costs beyond ideal (sectors per
/// request and coalescing efficiency, or conflict ways and wavefronts per request) and the fix
/// that the costliest warp's shape points at. Pure functions of the report structs.
#include "analysis/views/Report.h"

#include <cstdio>
#include <cstdlib>

namespace warplens::analysis {

namespace {

/// 32 → "32", 4.5 → "4.5", 3.333 → "3.3".
std::string num(double v) {
  char b[32];
  if (v == static_cast<double>(static_cast<long long>(v)))
    std::snprintf(b, sizeof b, "%lld", static_cast<long long>(v));
  else
    std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

std::string percent(double num, double den) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", den > 0 ? 100.0 * num / den : 0.0);
  return b;
}

std::string opWord(const std::string &op) {
  if (op == "ld") return "load";
  if (op == "st") return "store";
  if (op == "atom") return "atomic";
  if (op == "red") return "reduction";
  return op.empty() ? "access" : op;
}

int severity(std::uint64_t cost, std::uint64_t ideal) {
  if (cost <= ideal) return 0;
  return cost >= 2 * ideal ? 2 : 1;
}

/// The best fix's count when it beats the costliest warp: "N UNIT per warp instead of M".
std::string bestCount(const ReportDiagram *d) {
  if (!d || d->fixes.empty() || d->fixes.front().count >= d->cost) return "";
  const std::uint64_t n = d->fixes.front().count;
  std::string unit = d->unit;
  if (n == 1 && !unit.empty() && unit.back() == 's') unit.pop_back();
  return std::to_string(n) + " " + unit + " per warp instead of " + std::to_string(d->cost);
}

Diagnosis global(const launch::InstructionRecord &r, const ReportDiagram *d) {
  Diagnosis g;
  const std::string op = opWord(r.op);
  if (!r.requests || !r.sectors) {
    g.headline = op + ": no sectors";
    return g;
  }
  g.severity = severity(r.sectors, r.sectorsIdeal);
  g.headline = op + ": " + num(double(r.sectors) / double(r.requests)) + " sectors per request, " +
               percent(double(r.sectorsIdeal), double(r.sectors)) + " efficient";
  if (!g.severity) {
    g.headline += " (ideal)";
    return g;
  }
  const unsigned elem = r.widthBytes ? r.widthBytes : 4;
  if (d && d->laneStride) {
    const std::int64_t s = std::llabs(*d->laneStride);
    if (s == std::int64_t(elem))
      g.fix = "contiguous lanes start at byte " + std::to_string(d->offsetInSector) +
              " of a sector: align the pointer or offset to 32 bytes";
    else if (s >= 32)
      g.fix = "lanes " + std::to_string(s) + " bytes apart, a sector each: transpose through "
              "shared memory, or let threadIdx.x walk the contiguous index";
    else if (s > std::int64_t(elem))
      g.fix = "lanes " + std::to_string(s) + " bytes apart (array of structs): use a struct of "
              "arrays, or load whole structs with vector loads";
  }
  if (g.fix.empty()) {
    if (r.sectors >= 4 * r.sectorsIdeal)
      g.fix = "strided: stage the tile through shared memory, or let threadIdx.x walk the "
              "contiguous index";
    else
      g.fix = "partly used sectors (misaligned start or gaps): align to 32 bytes or pack the data";
  }
  if (std::string b = bestCount(d); !b.empty()) g.fix += " → " + b;
  return g;
}

Diagnosis shared(const launch::InstructionRecord &r, const ReportDiagram *d) {
  Diagnosis g;
  const std::string op = "shared " + opWord(r.op);
  if (!r.executed || !r.wavefronts) {
    g.headline = op + ": no wavefronts";
    return g;
  }
  const double per = double(r.wavefronts) / double(r.executed);
  const double idealPer = double(r.wavefrontsIdeal) / double(r.executed);
  g.severity = severity(r.wavefronts, r.wavefrontsIdeal);
  if (!g.severity) {
    g.headline = op + ": " + num(per) + " wavefront" + (per == 1 ? "" : "s") +
                 " per request, no bank conflict (ideal)";
    return g;
  }
  g.headline = op + ": " + (r.conflictWaysMax > 1 ? std::to_string(r.conflictWaysMax) + "-way bank conflict, " : "") +
               num(per) + " wavefronts per request for " + num(idealPer) + " ideal";
  if (std::string b = bestCount(d); !b.empty()) g.fix = d->fixes.front().label + " → " + b;
  else
    g.fix = "pad each row of the shared array by one element, or XOR-swizzle its column index";
  return g;
}

} // namespace

std::uint64_t wastedSectors(const launch::InstructionRecord &r) {
  return r.sectors > r.sectorsIdeal ? r.sectors - r.sectorsIdeal : 0;
}

std::uint64_t wastedWavefronts(const launch::InstructionRecord &r) {
  return r.wavefronts > r.wavefrontsIdeal ? r.wavefronts - r.wavefrontsIdeal : 0;
}

Diagnosis diagnose(const launch::InstructionRecord &r, const ReportDiagram *d) {
  if (r.space == "shared") return shared(r, d);
  if (r.space == "global" || r.space == "local") return global(r, d);
  Diagnosis g;
  g.headline = (r.space.empty() ? std::string("memory") : r.space) + " " + opWord(r.op);
  return g;
}

} // namespace warplens::analysis
