/// \file
/// SVG view of a pattern report (self-contained, no scripts): the bank grid of one warp for
/// shared memory, the sector strip for global memory, or the per-warp cost histogram for --all.
#include "analysis/views/PatternViews.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace warplens::analysis {

namespace {

std::string esc(const std::string &s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

/// A lane's colour: hue spread over the 32 lanes.
std::string laneColour(unsigned lane) {
  return "hsl(" + std::to_string((lane * 360 / 32 + lane * 7) % 360) + ",65%,70%)";
}

void bankGridSvg(const PatternReport &r, const WarpRecord &w, std::ostream &os, int &y) {
  const int cell = 26, left = 60;
  BankGrid g = bankGrid(r, w);
  for (const BankGrid::Phase &p : g.phases) {
    if (g.phases.size() > 1)
      os << "<text x='4' y='" << y + 14 << "' font-weight='bold'>phase " << p.phase << "</text>\n";
    y += 20;
    for (unsigned b = 0; b < r.banks; ++b)
      os << "<text x='" << left + b * cell + cell / 2 << "' y='" << y + 14
         << "' text-anchor='middle' fill='#555'>" << b << "</text>\n";
    os << "<text x='4' y='" << y + 14 << "' fill='#555'>bank</text>\n";
    y += 20;
    for (unsigned row = 0; row < p.rows; ++row) {
      os << "<text x='4' y='" << y + 18 << "' fill='#555'>word " << row + 1 << "</text>\n";
      for (unsigned b = 0; b < r.banks; ++b) {
        const int x = left + int(b) * cell;
        const auto &cells = p.banks[b];
        if (row >= cells.size()) {
          os << "<rect x='" << x << "' y='" << y << "' width='" << cell << "' height='" << cell
             << "' fill='#f4f4f4' stroke='#ddd'/>\n";
          continue;
        }
        const auto &c = cells[row];
        unsigned lane = *std::min_element(c.lanes.begin(), c.lanes.end());
        os << "<rect x='" << x << "' y='" << y << "' width='" << cell << "' height='" << cell
           << "' fill='" << (p.rows > 1 && cells.size() == p.rows ? "#f28b82" : laneColour(lane))
           << "' stroke='#333'><title>bank " << b << ", word " << c.word << ", lanes";
        for (unsigned l : c.lanes) os << " " << l;
        os << "</title></rect>\n<text x='" << x + cell / 2 << "' y='" << y + 17
           << "' text-anchor='middle'>" << lane << (c.lanes.size() > 1 ? "*" : "") << "</text>\n";
      }
      y += cell;
    }
    y += 8;
  }
}

void sectorSvg(const PatternReport &r, const WarpRecord &w, std::ostream &os, int &y) {
  std::map<std::uint64_t, std::vector<unsigned>> sectors;
  for (const LaneRecord &l : w.lanes)
    if (l.active)
      for (std::uint64_t s = l.sector; s <= l.sectorLast; ++s) sectors[s].push_back(l.lane);
  y += 10;
  int x = 10;
  for (const auto &[s, lanes] : sectors) {
    const std::string label = "sector " + std::to_string(s);
    const int width = std::max<int>({60, 14 * int(lanes.size()), 7 * int(label.size()) + 10});
    if (x + width > 900) x = 10, y += 64;
    os << "<rect x='" << x << "' y='" << y << "' width='" << width
       << "' height='50' fill='#cfe8fc' stroke='#333'/>\n<text x='" << x + 4 << "' y='" << y + 16
       << "'>" << label << "</text>\n<text x='" << x + 4 << "' y='" << y + 38
       << "' font-size='10'>lanes";
    for (unsigned l : lanes) os << " " << l;
    os << "</text>\n";
    x += width + 6;
  }
  y += 64;
}

void histogramSvg(const PatternReport &r, std::ostream &os, int &y) {
  std::uint64_t most = 1;
  for (const auto &[k, n] : r.totals.histogram) most = std::max(most, n);
  for (const auto &[k, n] : r.totals.histogram) {
    const int len = int(600 * n / most);
    os << "<text x='4' y='" << y + 15 << "'>" << k << "</text>\n<rect x='60' y='" << y
       << "' width='" << std::max(len, 1) << "' height='20' fill='#8ab4f8'/>\n<text x='"
       << 66 + len << "' y='" << y + 15 << "'>" << n << " warps</text>\n";
    y += 24;
  }
}

} // namespace

std::string renderPatternSvg(const PatternReport &r) {
  const PatternOptions &o = r.options;
  const bool shared = o.space == model::Space::Shared;
  std::ostringstream body;
  int y = 8;
  std::string title = std::string(shared ? "shared" : "global") + " " +
                      (o.op == model::Op::Load ? "ld" : "st") + " " + std::to_string(o.elem) +
                      "-byte" + (o.index.empty() ? "" : ", index = " + o.index);
  body << "<text x='4' y='" << y + 16 << "' font-size='16' font-weight='bold'>" << esc(title)
       << "</text>\n";
  y += 26;
  if (o.all) {
    const PatternTotals &t = r.totals;
    body << "<text x='4' y='" << y + 14 << "'>" << t.warps << " warps: "
         << (shared ? "wavefronts " + std::to_string(t.wavefronts) + " (ideal " +
                          std::to_string(t.wavefrontsIdeal) + ")"
                    : "sectors " + std::to_string(t.sectors) + " (ideal " +
                          std::to_string(t.sectorsIdeal) + ")")
         << "; histogram of " << (shared ? "wavefronts" : "sectors") << " per warp</text>\n";
    y += 24;
    histogramSvg(r, body, y);
  } else {
    for (const WarpRecord &w : r.warps) {
      body << "<text x='4' y='" << y + 14 << "'>warp " << w.warp << " of block (" << w.blockX
           << "," << w.blockY << "," << w.blockZ << "): "
           << (shared ? std::to_string(w.wavefronts) + " wavefronts (ideal " +
                            std::to_string(w.wavefrontsIdeal) + "), " +
                            std::to_string(w.conflictWays) + "-way"
                      : std::to_string(w.sectors) + " sectors (ideal " +
                            std::to_string(w.sectorsIdeal) + ")")
           << "</text>\n";
      y += 20;
      if (shared) bankGridSvg(r, w, body, y);
      else sectorSvg(r, w, body, y);
    }
  }
  std::ostringstream os;
  const int width = shared && !o.all ? 60 + 26 * int(r.banks) + 10 : 920;
  os << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << y + 10
     << "' font-family='monospace' font-size='12'>\n<rect width='100%' height='100%' "
        "fill='white'/>\n"
     << body.str() << "</svg>\n";
  return os.str();
}

} // namespace warplens::analysis
