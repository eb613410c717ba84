/// \file
/// Builds `warplens explain` reports for kernel instructions (see InstructionExplain.h): the
/// selection by pc/line, the costliest warp as a PatternReport, its colliding banks, what ideal
/// would take, and shared-layout rewrites evaluated with the shared model.
#include "analysis/views/InstructionExplain.h"

#include "analysis/views/PatternViews.h"
#include "model/GlobalModel.h"
#include "model/SharedModel.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace warplens::analysis {

namespace {

std::string hexPc(std::uint64_t pc) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%04llx", static_cast<unsigned long long>(pc));
  return b;
}

/// The costliest warp as a one-warp PatternReport (lanes with tx/ty/tz, addresses, banks,
/// sectors; the shared model's bank diagram).
PatternReport warpReport(const model::WorstEvent &worst, const model::SiteInfo &site,
                         const launch::LaunchSpec &spec, const arch::ArchSpec &arch) {
  const model::AccessEvent &e = worst.event;
  PatternReport r;
  PatternOptions &o = r.options;
  o.space = e.space == model::Space::Shared ? model::Space::Shared : model::Space::Global;
  o.op = e.op;
  o.index = site.ptxText;
  o.elem = e.widthBytes;
  o.block = {spec.block[0], spec.block[1], spec.block[2]};
  o.grid = {spec.grid[0], spec.grid[1], spec.grid[2]};
  o.arch = arch.name;
  o.warp = e.warp;
  r.archName = arch.name;
  r.banks = arch.sharedBanks;
  r.bankWidthBytes = arch.bankWidthBytes;
  r.sectorBytes = arch.sectorBytes;
  r.warpSize = arch.warpSize;
  const std::uint64_t tpb = o.block.count();
  r.warpsPerBlock = static_cast<unsigned>((tpb + arch.warpSize - 1) / arch.warpSize);

  WarpRecord w;
  w.warp = e.warp;
  w.blockLinear = e.block;
  w.blockX = e.block % o.grid.x;
  w.blockY = (e.block / o.grid.x) % o.grid.y;
  w.blockZ = static_cast<unsigned>(e.block / (std::uint64_t(o.grid.x) * o.grid.y));
  for (unsigned lane = 0; lane < 32; ++lane) {
    LaneRecord l;
    l.lane = lane;
    const std::uint64_t linear = std::uint64_t(e.warp) * 32 + lane;
    if (linear < tpb) {
      l.tx = static_cast<unsigned>(linear % o.block.x);
      l.ty = static_cast<unsigned>((linear / o.block.x) % o.block.y);
      l.tz = static_cast<unsigned>(linear / (std::uint64_t(o.block.x) * o.block.y));
    }
    l.active = e.active.test(lane);
    if (l.active) {
      l.address = e.addr[lane].value;
      l.index = static_cast<std::int64_t>(l.address / std::max<unsigned>(1, o.elem));
      l.word = l.address / r.bankWidthBytes;
      l.bank = static_cast<unsigned>(l.word % r.banks);
      l.sector = l.address / r.sectorBytes;
      l.sectorLast = (l.address + o.elem - 1) / r.sectorBytes;
      ++w.active;
    }
    w.lanes.push_back(l);
  }
  if (o.space == model::Space::Shared) {
    w.requests = w.active ? 1 : 0;
    w.wavefronts = worst.shared.wavefronts;
    w.wavefrontsIdeal = worst.shared.wavefrontsIdeal;
    w.conflictWays = worst.shared.conflictWays;
    w.diagram = model::SharedModel(arch).diagram(e);
  } else {
    w.requests = worst.global.requests;
    w.sectors = worst.global.sectors;
    w.sectorsIdeal = worst.global.sectorsIdeal;
    w.lines = worst.global.lines;
  }
  r.warps.push_back(std::move(w));
  r.totals.warps = worst.executions;
  for (std::uint32_t c = 0; c < worst.histogram.size(); ++c)
    if (worst.histogram[c]) r.totals.histogram[c] = worst.histogram[c];
  return r;
}

/// Banks that serve the most distinct words in some phase (only when more than one).
std::vector<BankCollision> collisionsOf(const PatternReport &r) {
  std::vector<BankCollision> out;
  const BankGrid g = bankGrid(r, r.warps.front());
  for (const BankGrid::Phase &p : g.phases) {
    if (p.rows < 2) continue;
    for (unsigned b = 0; b < p.banks.size(); ++b) {
      if (p.banks[b].size() != p.rows) continue;
      BankCollision c;
      c.bank = b;
      for (const BankGrid::Cell &cell : p.banks[b]) {
        std::vector<unsigned> lanes = cell.lanes;
        std::sort(lanes.begin(), lanes.end());
        c.words.emplace_back(cell.word, lanes);
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

/// Byte distance between lanes that differ by one in tx (and in ty), where uniform.
std::set<std::uint64_t> rowPitches(const WarpRecord &w, unsigned elem) {
  std::map<std::pair<unsigned, unsigned>, std::uint64_t> at; // (tx, ty) of lanes with tz = 0
  for (const LaneRecord &l : w.lanes)
    if (l.active && l.tz == w.lanes.front().tz) at[{l.tx, l.ty}] = l.address;
  std::set<std::uint64_t> out;
  for (int axis = 0; axis < 2; ++axis) {
    std::map<std::int64_t, unsigned> deltas;
    for (const auto &[k, a] : at) {
      auto next = at.find(axis == 0 ? std::make_pair(k.first + 1, k.second)
                                    : std::make_pair(k.first, k.second + 1));
      if (next != at.end()) ++deltas[std::int64_t(next->second) - std::int64_t(a)];
    }
    if (deltas.empty()) continue;
    auto most = std::max_element(deltas.begin(), deltas.end(),
                                 [](const auto &x, const auto &y) { return x.second < y.second; });
    if (most->first >= std::int64_t(2 * elem) && most->first % elem == 0)
      out.insert(std::uint64_t(most->first));
  }
  return out;
}

std::vector<LayoutFix> layoutFixes(const model::WorstEvent &worst, const PatternReport &r,
                                   const arch::ArchSpec &arch) {
  std::vector<LayoutFix> fixes;
  const model::SharedModel shared(arch);
  const unsigned elem = std::max<unsigned>(1, worst.event.widthBytes);
  const unsigned padUnit = std::max(elem, r.bankWidthBytes);
  auto evaluate = [&](auto remap) {
    model::AccessEvent e = worst.event;
    for (unsigned lane = 0; lane < 32; ++lane)
      if (e.active.test(lane)) e.addr[lane] = ByteAddress{remap(e.addr[lane].value)};
    return shared.cost(e).wavefronts;
  };
  std::uint64_t lowest = UINT64_MAX;
  for (unsigned lane = 0; lane < 32; ++lane)
    if (worst.event.active.test(lane)) lowest = std::min(lowest, worst.event.addr[lane].value);
  for (std::uint64_t pitch : rowPitches(r.warps.front(), elem)) {
    const std::uint64_t base = lowest / pitch * pitch; // taken as the array's start
    for (unsigned k = 1; k <= 4; ++k) {
      const std::uint64_t pad = std::uint64_t(k) * padUnit;
      LayoutFix f;
      f.label = "pad each " + std::to_string(pitch) + "-byte row by " + std::to_string(pad) +
                " bytes (row pitch " + std::to_string(pitch + pad) + " bytes = " +
                std::to_string((pitch + pad) / elem) + " elements)";
      f.wavefronts = evaluate([&](std::uint64_t a) { return a + ((a - base) / pitch) * pad; });
      fixes.push_back(f);
    }
    const std::uint64_t rowElems = pitch / elem;
    if (std::has_single_bit(rowElems)) {
      LayoutFix f;
      f.label = "XOR-swizzle: element column ^= row % " + std::to_string(rowElems) + " (" +
                std::to_string(rowElems) + "-element rows, no extra memory)";
      f.wavefronts = evaluate([&](std::uint64_t a) {
        const std::uint64_t e = (a - base) / elem, row = e / rowElems, col = e % rowElems;
        return base + (row * rowElems + (col ^ (row % rowElems))) * elem + (a - base) % elem;
      });
      fixes.push_back(f);
    }
  }
  std::stable_sort(fixes.begin(), fixes.end(),
                   [](const LayoutFix &a, const LayoutFix &b) { return a.wavefronts < b.wavefronts; });
  return fixes;
}

std::vector<std::string> idealText(const model::WorstEvent &worst, const PatternReport &r) {
  std::vector<std::string> out;
  const WarpRecord &w = r.warps.front();
  const unsigned elem = r.options.elem;
  const std::string bytes = std::to_string(w.active) + " active lanes x " + std::to_string(elem) +
                            " bytes = " + std::to_string(w.active * elem) + " bytes";
  if (r.options.space == model::Space::Shared) {
    const unsigned row = r.banks * r.bankWidthBytes;
    out.push_back("ideal: " + bytes + " → " + std::to_string(w.wavefrontsIdeal) + " wavefront" +
                  (w.wavefrontsIdeal == 1 ? "" : "s") + " of " + std::to_string(row) +
                  " bytes; this warp needs " + std::to_string(w.wavefronts) + ".");
    if (w.diagram.cost.wavefrontsHw) // which rule produced the counts (both truths)
      out.push_back("rule: " + model::describeRule(w.diagram, elem, r.options.op) + ".");
    if (w.wavefronts <= w.wavefrontsIdeal) {
      out.push_back("this warp is already ideal: no bank serves two different words in one pass.");
    } else {
      out.push_back("a bank serves one " + std::to_string(r.bankWidthBytes) +
                    "-byte word per wavefront; here one bank must serve " +
                    std::to_string(w.conflictWays) + " different words (" +
                    std::to_string(w.conflictWays) + "-way conflict), because lanes whose byte "
                    "addresses differ by a multiple of " + std::to_string(row) +
                    " (banks x bank width) fall in the same bank.");
      out.push_back("to be ideal, the words one pass reads must lie in distinct banks (or be the "
                    "same word: a broadcast) — change the array's row pitch or swizzle it; "
                    "candidates below, each run through the same model.");
    }
    return out;
  }
  out.push_back("ideal: " + bytes + " → " + std::to_string(w.sectorsIdeal) + " sector" +
                (w.sectorsIdeal == 1 ? "" : "s") + " of " + std::to_string(r.sectorBytes) +
                " bytes; this warp touches " + std::to_string(w.sectors) + " (" +
                std::to_string(w.lines) + " 128-byte line" + (w.lines == 1 ? "" : "s") + ").");
  if (w.sectors <= w.sectorsIdeal) {
    out.push_back("this warp is already ideal: every byte of every sector it fetches is used.");
    return out;
  }
  std::int64_t stride = 0;
  bool uniform = true, first = true;
  const LaneRecord *prev = nullptr;
  for (const LaneRecord &l : w.lanes) {
    if (!l.active) continue;
    if (prev) {
      const std::int64_t d = std::int64_t(l.address) - std::int64_t(prev->address);
      if (first) stride = d, first = false;
      else if (d != stride) uniform = false;
    }
    prev = &l;
  }
  if (uniform && !first && std::llabs(stride) > std::int64_t(elem))
    out.push_back("consecutive lanes are " + std::to_string(stride) + " bytes apart, so each " +
                  std::to_string(r.sectorBytes) + "-byte sector fetched carries at most " +
                  std::to_string(std::max<std::int64_t>(1, r.sectorBytes / std::llabs(stride))) +
                  " lane(s) of data.");
  else if (uniform && stride == std::int64_t(elem))
    out.push_back("the lanes are contiguous but start at byte " +
                  std::to_string(w.lanes.front().address % r.sectorBytes) + " of a sector: the "
                  "run straddles one sector more than needed (misaligned base or offset).");
  out.push_back("to be ideal, consecutive lanes must touch consecutive " + std::to_string(elem) +
                "-byte elements from a " + std::to_string(r.sectorBytes) + "-byte boundary: make "
                "threadIdx.x the fastest-moving index of this access, or stage the data through "
                "shared memory (as the tiled transpose does).");
  return out;
}

} // namespace

Expected<std::vector<std::size_t>> selectInstructions(const launch::LaunchResult &result,
                                                      std::optional<std::uint64_t> pc,
                                                      std::optional<int> line) {
  std::vector<std::size_t> out;
  const auto &ins = result.instructions;
  if (pc) {
    std::string have;
    for (std::size_t i = 0; i < ins.size(); ++i) {
      if (!ins[i].sassPc) continue;
      if (*ins[i].sassPc == *pc) out.push_back(i);
      have += (have.empty() ? "" : ", ") + hexPc(*ins[i].sassPc);
    }
    if (!out.empty()) return out;
    if (have.empty())
      return Error{"--pc " + hexPc(*pc) + ": no SASS listing for this kernel (" +
                   result.sassSource + "); use --line"};
    return Error{"--pc " + hexPc(*pc) + ": no memory instruction at this pc in " + result.kernel +
                 " (memory instructions at " + have + ")"};
  }
  bool anySource = std::any_of(ins.begin(), ins.end(), [](const auto &r) { return r.sourceLine > 0; });
  std::set<int> lines;
  for (std::size_t i = 0; i < ins.size(); ++i) {
    const int l = anySource ? ins[i].sourceLine : ins[i].ptxLine;
    if (l > 0) lines.insert(l);
    if (line && l == *line) out.push_back(i);
  }
  if (!out.empty()) return out;
  std::string have;
  for (int l : lines) have += (have.empty() ? "" : ", ") + std::to_string(l);
  return Error{"--line " + std::to_string(line ? *line : -1) + ": no memory instruction on " +
               (anySource ? "source" : "PTX") + " line " + std::to_string(line ? *line : -1) +
               " of " + result.kernel + " (memory instructions on lines " +
               (have.empty() ? "none" : have) + ")"};
}

InstructionExplainReport explainInstructions(const launch::LaunchResult &result,
                                             const RunDetail &detail,
                                             const std::vector<std::size_t> &which,
                                             const launch::LaunchSpec &spec,
                                             const arch::ArchSpec &arch) {
  InstructionExplainReport rep;
  rep.launch = result.name;
  rep.kernel = result.kernel;
  rep.arch = result.arch;
  rep.sassSource = result.sassSource;
  rep.grid = spec.grid;
  rep.block = spec.block;
  rep.notes = result.notes;
  for (std::size_t i : which) {
    InstructionExplanation ex;
    ex.record = result.instructions[i];
    if (i < detail.sites.size()) ex.site = detail.sites[i];
    const model::WorstEvent *w = detail.worst && i < detail.sites.size()
                                     ? detail.worst->find(detail.sites[i].site)
                                     : nullptr;
    if (w && w->executions && model::hasCost(w->event.space)) {
      ex.executed = true;
      ex.worst = *w;
      ex.warp = warpReport(*w, ex.site, spec, arch);
      ex.ideal = idealText(*w, ex.warp);
      if (w->event.space == model::Space::Shared) {
        ex.collisions = collisionsOf(ex.warp);
        if (w->shared.wavefronts > w->shared.wavefrontsIdeal) ex.fixes = layoutFixes(*w, ex.warp, arch);
      }
    } else if (w) {
      ex.worst = *w;
    }
    rep.instructions.push_back(std::move(ex));
  }
  return rep;
}

} // namespace warplens::analysis
