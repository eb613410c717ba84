/// \file
/// Text view of a pattern report: per-lane arithmetic, bank diagram or sector map, counts, and
/// for --all the totals with a histogram of per-warp cost.
#include "analysis/views/PatternViews.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

namespace warplens::analysis {

namespace {

std::string dim(unsigned x, unsigned y, unsigned z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

/// "0-7,9,12-13"
std::string laneRanges(std::vector<unsigned> lanes) {
  std::sort(lanes.begin(), lanes.end());
  std::string s;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (!s.empty()) s += ",";
    s += std::to_string(lanes[i]);
    if (j > i) s += "-" + std::to_string(lanes[j]);
    i = j + 1;
  }
  return s;
}

std::string header(const PatternReport &r) {
  const PatternOptions &o = r.options;
  std::ostringstream os;
  os << (o.space == model::Space::Shared ? "shared " : "global ")
     << (o.op == model::Op::Load ? "load" : "store") << " of " << o.elem
     << "-byte elements, index = " << o.index;
  if (o.base) os << ", base " << o.base;
  os << "\n";
  for (const auto &[name, text] : o.lets) os << "  let " << name << " = " << text << "\n";
  if (!o.mask.empty()) os << "  active where " << o.mask << "\n";
  os << "block " << dim(o.block.x, o.block.y, o.block.z) << " (" << r.warpsPerBlock
     << " warps), grid " << dim(o.grid.x, o.grid.y, o.grid.z) << ", arch " << r.archName << ": "
     << r.banks << " banks x " << r.bankWidthBytes << " bytes, " << r.sectorBytes
     << "-byte sectors\n";
  return os.str();
}

std::string byteText(const PatternOptions &o, const LaneRecord &l) {
  std::string s = std::to_string(l.index) + "*" + std::to_string(o.elem);
  if (o.base) s += "+" + std::to_string(o.base);
  return "byte " + s + " = " + std::to_string(l.address);
}

void laneLines(const PatternReport &r, const WarpRecord &w, std::ostream &os) {
  const PatternOptions &o = r.options;
  const bool shared = o.space == model::Space::Shared;
  os << "\nper lane (index = " << o.index << "):\n";
  for (const LaneRecord &l : w.lanes) {
    os << "  lane " << std::setw(2) << l.lane << " (tx=" << l.tx << ",ty=" << l.ty;
    if (o.block.z > 1) os << ",tz=" << l.tz;
    os << "): ";
    if (!l.active) {
      os << "inactive\n";
      continue;
    }
    os << "index = " << (o.index.size() <= 24 ? o.index + " = " : "") << l.index << " → " << byteText(o, l) << " → ";
    if (shared) {
      os << "bank (" << l.address << "/" << r.bankWidthBytes << ")%" << r.banks << " = " << l.bank;
      if (o.elem > r.bankWidthBytes)
        os << ".." << (l.bank + o.elem / r.bankWidthBytes - 1) % r.banks;
    } else {
      os << "sector " << l.address << "/" << r.sectorBytes << " = " << l.sector;
      if (l.sectorLast != l.sector) os << ".." << l.sectorLast;
    }
    os << "\n";
  }
}

void sectorMap(const PatternReport &r, const WarpRecord &w, std::ostream &os) {
  std::map<std::uint64_t, std::vector<unsigned>> sectors;
  for (const LaneRecord &l : w.lanes)
    if (l.active)
      for (std::uint64_t s = l.sector; s <= l.sectorLast; ++s) sectors[s].push_back(l.lane);
  os << "\nsector map (" << sectors.size() << " distinct " << r.sectorBytes << "-byte sectors):\n";
  for (const auto &[s, lanes] : sectors)
    os << "  sector " << s << " (bytes " << s * r.sectorBytes << ".." << (s + 1) * r.sectorBytes - 1
       << "): lanes " << laneRanges(lanes) << "\n";
}

std::string counts(const PatternReport &r, const WarpRecord &w) {
  std::ostringstream os;
  if (r.options.space == model::Space::Shared) {
    os << "wavefronts " << w.wavefronts << " (ideal " << w.wavefrontsIdeal << ")";
    if (w.conflictWays > 1)
      os << ": " << w.conflictWays << "-way bank conflict, " << w.wavefronts - w.wavefrontsIdeal
         << " extra wavefront" << (w.wavefronts - w.wavefrontsIdeal == 1 ? "" : "s");
    else
      os << ": no bank conflict";
    if (!w.diagram.hits.empty() || w.diagram.cost.wavefrontsHw)
      os << "\n  rule: " << model::describeRule(w.diagram, r.options.elem, r.options.op);
  } else {
    os << "requests " << w.requests << ", sectors " << w.sectors << " (ideal " << w.sectorsIdeal
       << "), lines " << w.lines << ", efficiency = ideal/actual = " << w.sectorsIdeal << "/"
       << w.sectors << " = " << std::fixed << std::setprecision(1)
       << (w.sectors ? 100.0 * w.sectorsIdeal / w.sectors : 100.0) << "%";
  }
  return os.str();
}

void conflictLines(const PatternReport &r, const WarpRecord &w, std::ostream &os) {
  BankGrid g = bankGrid(r, w);
  unsigned shown = 0;
  for (const BankGrid::Phase &p : g.phases) {
    if (p.rows < 2) continue;
    for (unsigned b = 0; b < p.banks.size() && shown < 4; ++b) {
      if (p.banks[b].size() != p.rows) continue;
      os << "  bank " << b << " serves " << p.rows << " different words:";
      unsigned listed = 0;
      for (const BankGrid::Cell &c : p.banks[b]) {
        if (listed++ == 8) {
          os << " …";
          break;
        }
        os << " " << c.word << " (lane " << laneRanges(c.lanes) << ")";
      }
      os << "\n";
      ++shown;
    }
  }
}

} // namespace

BankGrid bankGrid(const PatternReport &r, const WarpRecord &w) {
  std::map<unsigned, BankGrid::Phase> phases;
  auto add = [&](unsigned phase, unsigned lane, unsigned bank, std::uint64_t word) {
    BankGrid::Phase &p = phases[phase];
    p.phase = phase;
    if (p.banks.empty()) p.banks.resize(r.banks);
    auto &cells = p.banks[bank % r.banks];
    auto it = std::find_if(cells.begin(), cells.end(), [&](const auto &c) { return c.word == word; });
    if (it == cells.end()) cells.push_back({word, {lane}});
    else if (std::find(it->lanes.begin(), it->lanes.end(), lane) == it->lanes.end())
      it->lanes.push_back(lane);
  };
  if (!w.diagram.hits.empty()) {
    for (const auto &h : w.diagram.hits) add(h.phase, h.lane, h.bank, h.word);
  } else {
    for (const LaneRecord &l : w.lanes) {
      if (!l.active) continue;
      for (unsigned k = 0; k * r.bankWidthBytes < r.options.elem; ++k)
        add(0, l.lane, static_cast<unsigned>((l.word + k) % r.banks), l.word + k);
    }
  }
  BankGrid g;
  for (auto &[k, p] : phases) {
    for (const auto &cells : p.banks) p.rows = std::max<unsigned>(p.rows, unsigned(cells.size()));
    g.phases.push_back(std::move(p));
  }
  return g;
}

std::string renderBankDiagram(const PatternReport &r, const WarpRecord &w) {
  std::ostringstream os;
  BankGrid g = bankGrid(r, w);
  os << "bank diagram: one column per bank; each row is one distinct " << r.bankWidthBytes
     << "-byte word the bank must serve,\nlabelled with the lane that touches it (* = several "
        "lanes share the word: a broadcast, served once).\nA column with N rows is an N-way "
        "conflict: that bank needs N passes.\n";
  for (const BankGrid::Phase &p : g.phases) {
    if (g.phases.size() > 1) {
      std::vector<unsigned> lanes;
      for (const auto &cells : p.banks)
        for (const auto &c : cells) lanes.insert(lanes.end(), c.lanes.begin(), c.lanes.end());
      std::sort(lanes.begin(), lanes.end());
      lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
      os << "phase " << p.phase << " (lanes " << laneRanges(lanes) << "):\n";
    }
    os << "bank ";
    for (unsigned b = 0; b < r.banks; ++b) os << std::setw(2) << b << ' ';
    os << "\n";
    for (unsigned row = 0; row < p.rows; ++row) {
      os << "w" << std::left << std::setw(3) << row + 1 << std::right << " ";
      for (unsigned b = 0; b < r.banks; ++b) {
        const auto &cells = p.banks[b];
        if (row < cells.size()) {
          const auto &c = cells[row];
          os << std::setw(2) << *std::min_element(c.lanes.begin(), c.lanes.end())
             << (c.lanes.size() > 1 ? '*' : ' ');
        } else {
          os << " . ";
        }
      }
      os << "\n";
    }
  }
  return os.str();
}

std::string renderPatternText(const PatternReport &r) {
  std::ostringstream os;
  os << header(r);
  const bool shared = r.options.space == model::Space::Shared;
  if (!r.options.all) {
    for (const WarpRecord &w : r.warps) {
      os << "\nwarp " << w.warp << " of block " << dim(w.blockX, w.blockY, w.blockZ) << ": "
         << w.active << " of " << w.lanes.size() << " lanes active\n";
      laneLines(r, w, os);
      os << "\n";
      if (shared) os << renderBankDiagram(r, w);
      else sectorMap(r, w, os);
      os << "\nresult: " << counts(r, w) << "\n";
      if (shared) conflictLines(r, w, os);
    }
    return os.str();
  }
  const PatternTotals &t = r.totals;
  os << "\nall " << t.warps << " warps of the grid, " << t.threads << " active threads\n";
  if (shared) {
    os << "requests " << t.requests << ", wavefronts " << t.wavefronts << " (ideal "
       << t.wavefrontsIdeal << "), conflicts " << t.wavefronts - t.wavefrontsIdeal
       << ", worst conflict " << t.conflictWaysMax << "-way\n";
  } else {
    os << "requests " << t.requests << ", sectors " << t.sectors << " (ideal " << t.sectorsIdeal
       << "), lines " << t.lines << ", efficiency " << std::fixed << std::setprecision(1)
       << (t.sectors ? 100.0 * t.sectorsIdeal / t.sectors : 100.0) << "%\n";
  }
  os << "\nhistogram of " << (shared ? "wavefronts" : "sectors") << " per warp:\n";
  std::uint64_t most = 0;
  for (const auto &[k, n] : t.histogram) most = std::max(most, n);
  for (const auto &[k, n] : t.histogram) {
    unsigned bar = most ? unsigned((n * 40 + most - 1) / most) : 0;
    os << "  " << std::setw(4) << k << " │" << std::string(bar, '#') << " " << n << " warp"
       << (n == 1 ? "" : "s") << "\n";
  }
  for (const WarpRecord &w : r.warps) {
    os << "\ncostliest warp: warp " << w.warp << " of block " << dim(w.blockX, w.blockY, w.blockZ)
       << ": " << counts(r, w) << "\n";
    if (shared) os << renderBankDiagram(r, w);
  }
  return os.str();
}

} // namespace warplens::analysis
