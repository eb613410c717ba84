/// \file
/// PatternExplainer: finds the colliding lanes of a pattern, recognises `row*W + col` indices,
/// and evaluates padding / swizzle / transposition candidates with runPattern.
#include "analysis/pattern/PatternExplainer.h"

#include "analysis/pattern/Expression.h"
#include "analysis/pattern/PatternRunner.h"

#include <algorithm>
#include <map>
#include <optional>

namespace warplens::analysis {

namespace {

/// The shape `row*W + col` (either operand order) at the root of the index.
struct RowMajorForm {
  std::string row, col;
  std::int64_t width = 0;
  int letIndex = -1; ///< W came from --let NAME=<literal>: its position in the let list
};

std::optional<std::int64_t> literal(const std::string &text) {
  Scope empty;
  auto e = Expression::compile(text, empty);
  if (!e || e->nodes()[e->root()].kind != ExprNode::Kind::Number) return std::nullopt;
  return e->nodes()[e->root()].value;
}

std::optional<RowMajorForm> detectRowMajor(const PatternOptions &o) {
  Scope scope;
  for (const auto &let : o.lets)
    if (!scope.add(let.first)) return std::nullopt;
  auto e = Expression::compile(o.index, scope);
  if (!e) return std::nullopt;
  const auto &nodes = e->nodes();
  const ExprNode &root = nodes[e->root()];
  if (root.kind != ExprNode::Kind::Binary || root.op != "+") return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const ExprNode &mul = nodes[root.children[side]];
    if (mul.kind != ExprNode::Kind::Binary || mul.op != "*") continue;
    for (int k = 0; k < 2; ++k) {
      const ExprNode &w = nodes[mul.children[k]];
      RowMajorForm f;
      if (w.kind == ExprNode::Kind::Number) {
        f.width = w.value;
      } else if (w.kind == ExprNode::Kind::Variable && w.slot >= int(kBuiltinCount)) {
        f.letIndex = w.slot - int(kBuiltinCount);
        auto v = literal(o.lets[f.letIndex].second);
        if (!v) continue;
        f.width = *v;
      } else {
        continue;
      }
      if (f.width <= 0) continue;
      f.row = e->spanText(mul.children[1 - k]);
      f.col = e->spanText(root.children[1 - side]);
      return f;
    }
  }
  return std::nullopt;
}

std::vector<BankCollision> collisions(const PatternReport &r) {
  std::vector<BankCollision> out;
  if (r.warps.empty()) return out;
  const WarpRecord &w = r.warps.front();
  std::map<std::pair<unsigned, unsigned>, std::map<std::uint64_t, std::vector<unsigned>>> byBank;
  if (!w.diagram.hits.empty()) {
    for (const auto &h : w.diagram.hits) {
      auto &lanes = byBank[{h.phase, h.bank}][h.word];
      if (std::find(lanes.begin(), lanes.end(), h.lane) == lanes.end()) lanes.push_back(h.lane);
    }
  } else {
    for (const LaneRecord &l : w.lanes)
      if (l.active) byBank[{0, l.bank}][l.word].push_back(l.lane);
  }
  std::size_t most = 1;
  for (const auto &[key, words] : byBank) most = std::max(most, words.size());
  if (most < 2) return out;
  for (const auto &[key, words] : byBank) {
    if (words.size() != most || out.size() >= 4) continue;
    BankCollision c;
    c.bank = key.second;
    for (const auto &[word, lanes] : words) c.words.emplace_back(word, lanes);
    out.push_back(std::move(c));
  }
  return out;
}

bool isPowerOfTwo(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

} // namespace

Expected<ExplainReport> explainPattern(const PatternOptions &o) {
  WL_TRY(base, runPattern(o));
  ExplainReport ex;
  ex.base = std::move(base);
  const bool shared = o.space == model::Space::Shared;
  auto cost = [&](const PatternReport &r) {
    return shared ? r.totals.wavefronts : r.totals.sectors;
  };
  auto ideal = [&](const PatternReport &r) {
    return shared ? r.totals.wavefrontsIdeal : r.totals.sectorsIdeal;
  };
  if (shared) ex.collisions = collisions(ex.base);
  if (cost(ex.base) <= ideal(ex.base)) return ex; // nothing to fix

  std::vector<ExplainCandidate> cands;
  auto add = [&](std::string label, std::string index, std::uint64_t extra = 0) {
    ExplainCandidate c;
    c.label = std::move(label);
    c.index = std::move(index);
    c.lets = o.lets;
    c.base = o.base;
    c.extraElements = extra;
    cands.push_back(std::move(c));
  };
  const auto form = detectRowMajor(o);
  if (form) {
    ex.form = "row*W + col with row = " + form->row + ", W = " + std::to_string(form->width) +
              ", col = " + form->col;
  }
  const std::int64_t perBankRow =
      std::max<std::int64_t>(1, std::int64_t(ex.base.banks) * ex.base.bankWidthBytes / o.elem);
  if (shared) {
    if (form) {
      for (std::int64_t p = 1; p <= 4; ++p) {
        std::string w = std::to_string(form->width + p);
        std::string label = "pad rows to " + w + " elements";
        if (form->letIndex >= 0) {
          add(label, o.index);
          cands.back().lets[form->letIndex].second = w;
        } else {
          add(label, "(" + form->row + ")*" + w + " + " + form->col);
        }
      }
      if (isPowerOfTwo(form->width))
        add("XOR swizzle: col ^ (row % W), no extra memory",
            "(" + form->row + ")*" + std::to_string(form->width) + " + ((" + form->col + ") ^ ((" +
                form->row + ") % " + std::to_string(form->width) + "))");
    }
    const std::string r = std::to_string(perBankRow);
    add("pad one element after every " + r + " (one bank row)",
        "(" + o.index + ") + (" + o.index + ") / " + r);
    add("XOR the element within a bank row with the row number",
        "(" + o.index + ") ^ (((" + o.index + ") / " + r + ") % " + r + ")");
  } else {
    Scope scope;
    for (const auto &let : o.lets) (void)scope.add(let.first);
    auto e = Expression::compile(o.index, scope);
    if (e && e->uses(int(Var::Tx)) && e->uses(int(Var::Ty)))
      add("swap tx and ty (consecutive lanes get consecutive elements)",
          e->substitute({{int(Var::Tx), "ty"}, {int(Var::Ty), "tx"}}));
    if (e && e->uses(int(Var::Gx)) && e->uses(int(Var::Gy)))
      add("swap gx and gy (consecutive lanes get consecutive elements)",
          e->substitute({{int(Var::Gx), "gy"}, {int(Var::Gy), "gx"}}));
    // A contiguous run that starts inside a sector: shifting it to the boundary shows the cost
    // of the misalignment (in a kernel: pad or offset the array so the run starts aligned).
    if (!ex.base.warps.empty()) {
      const WarpRecord &w = ex.base.warps.front();
      const LaneRecord *first = nullptr;
      for (const LaneRecord &l : w.lanes)
        if (l.active && (!first || l.address < first->address)) first = &l;
      const std::uint64_t mis = first ? first->address % ex.base.sectorBytes : 0;
      if (first && mis % o.elem == 0 && mis != 0 && o.base % ex.base.sectorBytes == 0)
        add("start each warp's run on a " + std::to_string(ex.base.sectorBytes) +
                "-byte boundary (shift by -" + std::to_string(mis / o.elem) + " elements)",
            "(" + o.index + ") - " + std::to_string(mis / o.elem));
    }
    if (o.base % 128 != 0) {
      add("align the base address to 128 bytes", o.index);
      cands.back().base = o.base / 128 * 128;
    }
  }
  for (ExplainCandidate &c : cands) {
    PatternOptions co = o;
    co.index = c.index;
    co.lets = c.lets;
    co.base = c.base;
    auto r = runPattern(co);
    if (!r) {
      c.error = r.error().message;
      continue;
    }
    c.ok = true;
    c.cost = cost(*r);
    c.ideal = ideal(*r);
  }
  ex.candidates = std::move(cands);
  return ex;
}

} // namespace warplens::analysis
