/// \file
/// Matches PTX memory sites to SASS memory instructions. Algorithm: (0) a source line with
/// copies of several accesses (unrolled loop) is matched per branch-free SASS region, see
/// tryUnrolledLine; then per SASS instruction, in pc order: (1) find an unmatched, compatible
/// PTX site on the same source line; if its width is the SASS width it is a 1:1 match, else
/// merge it with neighbouring PTX sites on the same base register whose immediate offsets tile
/// [start, start+width) exactly (preferring a start aligned to the width); (2) without line
/// info, the same but taking PTX sites in order; (3) a SASS instruction left over whose line
/// and width equal an already matched group is a copy made by ptxas (unrolling). PTX sites left
/// over stay PTX-level, with a note naming the source line.
/// Does not model: ptxas splitting one PTX access into several, or copies on different lines;
/// outside step (0), copies are given to a PTX access by line and offsets only (no control
/// flow), so the copies of two accesses on one line can be attributed to the wrong one.
#include "sass/Grouping.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

namespace warplens::sass {
namespace {

using model::Op;
using model::SiteInfo;
using model::Space;

constexpr int kMergeWindowPtxLines = 48; ///< how far apart (PTX lines) merge partners may be

struct PtxItem {
  const SiteInfo *site = nullptr;
  std::optional<PtxAddress> addr;
  int group = -1;
  bool skip = false; ///< param/const: never an LSU instruction in SASS
};

struct Group {
  std::vector<std::size_t> members; ///< PTX item indices, by offset
  std::vector<std::int64_t> offsets;
  std::vector<std::size_t> sass;    ///< indices into the memory-instruction list, pc order
  unsigned width = 0;
};

bool opCompatible(Op ptx, Op sass) {
  auto atomic = [](Op o) { return o == Op::Atomic || o == Op::Reduce; };
  return ptx == sass || (atomic(ptx) && atomic(sass));
}

bool spaceCompatible(Space ptx, Space sass) {
  if (ptx == sass) return true;
  if (ptx == Space::Generic)
    return sass == Space::Global || sass == Space::Shared || sass == Space::Local;
  return false;
}

std::string baseName(const std::string &path) {
  return std::filesystem::path(path).filename().string();
}

bool sameLocation(const SiteInfo &p, const std::string &file, int line) {
  if (line < 0 || p.sourceLine != line) return false;
  return p.sourceFile.empty() || file.empty() || baseName(p.sourceFile) == baseName(file);
}

/// The PTX site's line is the SASS instruction's line, or, for inlined code, its innermost one
/// (PTX .loc gives both; which one a site carries is the producer's choice).
bool sameLine(const SiteInfo &p, const SassInstruction &s) {
  return sameLocation(p, s.sourceFile, s.sourceLine) ||
         sameLocation(p, s.innerFile, s.innerLine);
}

std::string lineName(const std::string &file, int line) {
  if (line < 0) return "(no line info)";
  return (file.empty() ? std::string("line ") : baseName(file) + ":") + std::to_string(line);
}

std::string hexPc(std::uint64_t pc) {
  std::ostringstream ss;
  ss << "0x" << std::hex << pc;
  return ss.str();
}

class Matcher {
public:
  Matcher(const std::vector<SiteInfo> &sites, const SassFunction &function) {
    for (const SiteInfo &s : sites) {
      PtxItem item;
      item.site = &s;
      item.addr = parsePtxAddress(s.ptxText);
      item.skip = s.space == Space::Param || s.space == Space::Const;
      ptx_.push_back(item);
    }
    std::stable_sort(ptx_.begin(), ptx_.end(), [](const PtxItem &a, const PtxItem &b) {
      return a.site->ptxLine < b.site->ptxLine;
    });
    int region = 0;
    for (const SassInstruction &i : function.instructions) {
      all_.push_back(&i);
      if (i.isMemory) {
        sass_.push_back(&i);
        sassAddr_.push_back(parseSassAddress(i.text));
        sassIndex_.push_back(all_.size() - 1);
        sassRegion_.push_back(region);
      }
      if (isBranch(i.opcode)) ++region;
    }
    sassGroup_.assign(sass_.size(), -1);
  }

  Grouping run() {
    matchUnrolledLines();
    for (std::size_t s = 0; s < sass_.size(); ++s) matchByLine(s);
    for (std::size_t s = 0; s < sass_.size(); ++s) matchByOrder(s);
    for (std::size_t s = 0; s < sass_.size(); ++s) matchCopy(s);
    return build();
  }

private:
  bool compatible(const PtxItem &p, const SassInstruction &s) const {
    return !p.skip && p.group < 0 && opCompatible(p.site->op, s.op) &&
           spaceCompatible(p.site->space, s.space);
  }

  /// Members (item indices) of a group of total width `width` containing `anchor`, or empty.
  std::vector<std::size_t> tryGroup(std::size_t anchor, const SassInstruction &s) {
    const PtxItem &a = ptx_[anchor];
    unsigned width = s.widthBytes;
    if (a.site->widthBytes == width) return {anchor};
    if (a.site->widthBytes > width || !a.addr) return {};
    std::vector<std::size_t> pool;
    for (std::size_t i = 0; i < ptx_.size(); ++i) {
      const PtxItem &p = ptx_[i];
      if (i != anchor && (!compatible(p, s) || !p.addr || p.addr->base != a.addr->base ||
                          p.site->op != a.site->op || p.site->space != a.site->space ||
                          p.site->widthBytes >= width ||
                          std::abs(p.site->ptxLine - a.site->ptxLine) > kMergeWindowPtxLines))
        continue;
      pool.push_back(i);
    }
    std::vector<std::int64_t> starts;
    for (std::size_t i : pool) {
      std::int64_t o = ptx_[i].addr->offset;
      if (o <= a.addr->offset && o > a.addr->offset - static_cast<std::int64_t>(width))
        starts.push_back(o);
    }
    std::sort(starts.begin(), starts.end());
    const std::int64_t w = width;
    std::stable_partition(starts.begin(), starts.end(),
                          [&](std::int64_t o) { return ((o % w) + w) % w == 0; });
    for (std::int64_t start : starts) {
      std::vector<std::size_t> chosen;
      std::int64_t cursor = start;
      bool hasAnchor = false;
      while (cursor < start + static_cast<std::int64_t>(width)) {
        std::size_t best = SIZE_MAX;
        for (std::size_t i : pool) {
          if (ptx_[i].addr->offset != cursor) continue;
          if (std::find(chosen.begin(), chosen.end(), i) != chosen.end()) continue;
          if (i == anchor) { best = i; break; }
          if (best == SIZE_MAX || std::abs(ptx_[i].site->ptxLine - a.site->ptxLine) <
                                      std::abs(ptx_[best].site->ptxLine - a.site->ptxLine))
            best = i;
        }
        if (best == SIZE_MAX) break;
        hasAnchor |= best == anchor;
        chosen.push_back(best);
        cursor += ptx_[best].site->widthBytes;
      }
      if (hasAnchor && cursor == start + static_cast<std::int64_t>(width)) return chosen;
    }
    return {};
  }

  void assign(std::size_t s, const std::vector<std::size_t> &members) {
    Group g;
    g.members = members;
    g.width = sass_[s]->widthBytes;
    for (std::size_t m : members) g.offsets.push_back(ptx_[m].addr ? ptx_[m].addr->offset : 0);
    g.sass.push_back(s);
    int id = static_cast<int>(groups_.size());
    for (std::size_t m : members) ptx_[m].group = id;
    const auto &pa = ptx_[members.front()].addr;
    if (sassAddr_[s] && pa)
      deltas_[{sassAddr_[s]->base, pa->base}] =
          sassAddr_[s]->offset - *std::min_element(g.offsets.begin(), g.offsets.end());
    sassGroup_[s] = id;
    groups_.push_back(std::move(g));
  }

  /// Whether grouping `members` into SASS instruction `s` agrees with an offset relation
  /// (SASS offset - PTX offset) already seen between the same two base registers:
  /// 1 agrees, 0 no relation known, -1 contradicts.
  int offsetAgreement(std::size_t s, const std::vector<std::size_t> &members) const {
    const auto &sa = sassAddr_[s];
    const auto &pa = ptx_[members.front()].addr;
    if (!sa || !pa) return 0;
    auto it = deltas_.find({sa->base, pa->base});
    if (it == deltas_.end()) return 0;
    std::int64_t start = pa->offset;
    for (std::size_t m : members)
      if (ptx_[m].addr) start = std::min(start, ptx_[m].addr->offset);
    return start + it->second == sa->offset ? 1 : -1;
  }

  void matchByLine(std::size_t s) {
    if (sassGroup_[s] >= 0) return;
    // ptxas reorders accesses within a line: prefer the candidate whose offset agrees with the
    // register/offset relation of earlier matches, then one with no known relation, then any.
    std::vector<std::vector<std::size_t>> options;
    for (std::size_t i = 0; i < ptx_.size(); ++i) {
      if (!compatible(ptx_[i], *sass_[s]) || !sameLine(*ptx_[i].site, *sass_[s])) continue;
      std::vector<std::size_t> members = tryGroup(i, *sass_[s]);
      if (!members.empty()) options.push_back(std::move(members));
    }
    for (int want : {1, 0, -1})
      for (const auto &members : options)
        if (offsetAgreement(s, members) == want) return assign(s, members);
  }

  void matchByOrder(std::size_t s) {
    if (sassGroup_[s] >= 0) return;
    for (std::size_t i = 0; i < ptx_.size(); ++i) {
      if (!compatible(ptx_[i], *sass_[s])) continue;
      // With line info on both sides, a different line is a different access.
      if (sass_[s]->sourceLine >= 0 && ptx_[i].site->sourceLine >= 0) continue;
      std::vector<std::size_t> members = tryGroup(i, *sass_[s]);
      if (!members.empty()) {
        orderMatched_ = true;
        return assign(s, members);
      }
      return; // in order: the first compatible PTX site must be this instruction's
    }
  }

  void matchCopy(std::size_t s) {
    if (sassGroup_[s] >= 0) return;
    int best = -1, bestAgree = -2;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      const Group &grp = groups_[g];
      const SassInstruction &first = *sass_[grp.sass.front()];
      if (grp.width != sass_[s]->widthBytes || first.opcode != sass_[s]->opcode) continue;
      if (sass_[s]->sourceLine < 0 || first.sourceLine != sass_[s]->sourceLine ||
          first.sourceFile != sass_[s]->sourceFile)
        continue;
      int agree = offsetAgreement(s, grp.members);
      if (best < 0 || agree > bestAgree ||
          (agree == bestAgree && grp.sass.size() < groups_[best].sass.size())) {
        best = static_cast<int>(g);
        bestAgree = agree;
      }
    }
    if (best < 0) return;
    groups_[best].sass.push_back(s);
    sassGroup_[s] = best;
  }

  // ---- Unrolled loops: copies of several accesses on one line, attributed per region ----

  static bool isBranch(const std::string &opcode) {
    for (const char *b : {"BRA", "BRX", "JMP", "JMX", "RET", "EXIT", "CALL"})
      if (opcode.rfind(b, 0) == 0) return true;
    return false;
  }

  /// "R12.64" → {12, 2}; "R4" → {4, 1}; anything else → {-1, 0}.
  static std::pair<int, int> regRange(const std::string &operand) {
    if (operand.size() < 2 || operand[0] != 'R' || !std::isdigit(static_cast<unsigned char>(operand[1])))
      return {-1, 0};
    int n = std::atoi(operand.c_str() + 1);
    return {n, operand.find(".64") != std::string::npos ? 2 : 1};
  }

  /// Registers the instruction writes through its first operand (conservative: wide results).
  static std::pair<int, int> destRange(const SassInstruction &i) {
    if (i.isMemory && i.op == Op::Store) return {-1, 0};
    std::istringstream in(i.text);
    std::string tok;
    in >> tok;
    if (!tok.empty() && tok[0] == '@') in >> tok; // predicate, then the opcode
    std::string dest;
    in >> dest;
    if (!dest.empty() && dest.back() == ',') dest.pop_back();
    auto r = regRange(dest);
    if (r.first < 0) return r;
    const std::string &op = i.opcode;
    if (op.find(".128") != std::string::npos) r.second = 4;
    else if (op.find(".WIDE") != std::string::npos || op.find(".64") != std::string::npos)
      r.second = 2;
    return r;
  }

  /// Whether an instruction strictly between all_[from] and all_[to] writes registers `r`.
  bool redefined(std::pair<int, int> r, std::size_t from, std::size_t to) const {
    for (std::size_t k = from + 1; k < to; ++k) {
      auto d = destRange(*all_[k]);
      if (d.first >= 0 && d.first < r.first + r.second && r.first < d.first + d.second)
        return true;
    }
    return false;
  }

  /// Splits `items` into clusters sharing a base (with `key` giving (base name, valid)).
  template <class KeyFn>
  static std::vector<std::vector<std::size_t>> clusters(const std::vector<std::size_t> &items,
                                                        KeyFn key) {
    std::vector<std::vector<std::size_t>> out;
    for (std::size_t i : items) {
      auto [k, ok] = key(i, out);
      if (ok && k >= 0) out[static_cast<std::size_t>(k)].push_back(i);
      else out.push_back({i});
    }
    return out;
  }

  /// Copies (k per PTX site of `block`) of the SASS instructions `region`, or empty: accesses
  /// on one base (PTX and SASS) pair up by order of first appearance, their copies by offset;
  /// single accesses round-robin in pc order.
  std::vector<std::vector<std::size_t>> assignRegion(const std::vector<std::size_t> &region,
                                                     const std::vector<std::size_t> &block) {
    const std::size_t k = region.size() / block.size();
    auto ptxClusters = clusters(block, [&](std::size_t i, const auto &cs) {
      for (std::size_t c = 0; c < cs.size(); ++c)
        if (ptx_[cs[c].front()].addr->base == ptx_[i].addr->base) return std::pair{int(c), true};
      return std::pair{-1, false};
    });
    auto sassClusters = clusters(region, [&](std::size_t s, const auto &cs) {
      auto r = regRange(sassAddr_[s]->base);
      if (r.first < 0) return std::pair{-1, false};
      for (std::size_t c = cs.size(); c-- > 0;) {
        std::size_t last = cs[c].back();
        if (regRange(sassAddr_[last]->base) == r)
          return std::pair{int(c), !redefined(r, sassIndex_[last], sassIndex_[s])};
      }
      return std::pair{-1, false};
    });
    std::vector<std::vector<std::size_t>> pMulti, sMulti;
    std::vector<std::size_t> pSingle, sSingle;
    for (auto &c : ptxClusters) c.size() > 1 ? pMulti.push_back(c) : pSingle.push_back(c[0]);
    for (auto &c : sassClusters) c.size() > 1 ? sMulti.push_back(c) : sSingle.push_back(c[0]);
    if (pMulti.size() != sMulti.size() || sSingle.size() != pSingle.size() * k) return {};
    std::map<std::size_t, std::vector<std::size_t>> copies; // PTX item → SASS, in copy order
    for (std::size_t j = 0; j < pMulti.size(); ++j) {
      auto p = pMulti[j], sv = sMulti[j];
      const std::size_t c = p.size();
      if (sv.size() != c * k) return {};
      auto poff = [&](std::size_t i) { return ptx_[i].addr->offset; };
      auto soff = [&](std::size_t s) { return sassAddr_[s]->offset; };
      std::stable_sort(p.begin(), p.end(), [&](auto a, auto b) { return poff(a) < poff(b); });
      std::stable_sort(sv.begin(), sv.end(), [&](auto a, auto b) { return soff(a) < soff(b); });
      for (std::size_t i = 0; i < sv.size(); ++i) {
        if (soff(sv[i]) - soff(sv[i / c * c]) != poff(p[i % c]) - poff(p[0])) return {};
        copies[p[i % c]].push_back(sv[i]);
      }
    }
    for (std::size_t i = 0; i < sSingle.size(); ++i)
      copies[pSingle[i % pSingle.size()]].push_back(sSingle[i]);
    std::vector<std::vector<std::size_t>> out;
    for (std::size_t p : block) out.push_back(copies[p]);
    return out;
  }

  /// One source line whose SASS instructions are copies of several PTX accesses (an unrolled
  /// loop, its tails and a PTX remainder loop): the line's PTX accesses (PTX order) are cut into
  /// at most two blocks (PTX loops); each branch-free SASS region is k copies of one block, and
  /// regions follow blocks in order. Applied only when every block ends with 1 or 2U-1 copies.
  bool tryUnrolledLine(const std::vector<std::size_t> &ss) {
    const SassInstruction &f = *sass_[ss.front()];
    for (std::size_t s : ss)
      if (sass_[s]->opcode != f.opcode || sass_[s]->widthBytes != f.widthBytes || !sassAddr_[s])
        return false;
    std::vector<std::size_t> ps;
    for (std::size_t i = 0; i < ptx_.size(); ++i) {
      if (ptx_[i].skip || !sameLine(*ptx_[i].site, f)) continue;
      if (!compatible(ptx_[i], f) || ptx_[i].site->widthBytes != f.widthBytes || !ptx_[i].addr)
        return false;
      ps.push_back(i);
    }
    if (ps.size() < 2 || ss.size() <= ps.size()) return false;
    std::vector<std::vector<std::size_t>> regions;
    for (std::size_t j = 0; j < ss.size(); ++j) {
      if (j == 0 || sassRegion_[ss[j]] != sassRegion_[ss[j - 1]]) regions.emplace_back();
      regions.back().push_back(ss[j]);
    }
    for (std::size_t cut = 0; cut < ps.size(); ++cut) {
      std::vector<std::vector<std::size_t>> blocks;
      if (cut == 0) blocks = {ps};
      else blocks = {{ps.begin(), ps.begin() + cut}, {ps.begin() + cut, ps.end()}};
      std::vector<std::vector<std::vector<std::size_t>>> perBlock(blocks.size());
      for (std::size_t b = 0; b < blocks.size(); ++b) perBlock[b].assign(blocks[b].size(), {});
      std::size_t lastBlock = 0;
      bool ok = true;
      for (const auto &r : regions) {
        int chosen = -1;
        for (std::size_t b = 0; b < blocks.size(); ++b)
          if (r.size() % blocks[b].size() == 0 &&
              (chosen < 0 || blocks[b].size() > blocks[chosen].size()))
            chosen = static_cast<int>(b);
        if (chosen < 0 || static_cast<std::size_t>(chosen) < lastBlock) { ok = false; break; }
        lastBlock = static_cast<std::size_t>(chosen);
        auto got = assignRegion(r, blocks[chosen]);
        if (got.empty()) { ok = false; break; }
        for (std::size_t m = 0; m < got.size(); ++m)
          perBlock[chosen][m].insert(perBlock[chosen][m].end(), got[m].begin(), got[m].end());
      }
      for (std::size_t b = 0; ok && b < blocks.size(); ++b) {
        const std::size_t n = perBlock[b][0].size();
        for (const auto &c : perBlock[b]) ok &= c.size() == n;
        ok &= n == 1 || unrolledLoopBody(n) > 0;
      }
      if (!ok) continue;
      for (std::size_t b = 0; b < blocks.size(); ++b)
        for (std::size_t m = 0; m < blocks[b].size(); ++m) {
          Group g;
          g.members = {blocks[b][m]};
          g.offsets = {ptx_[blocks[b][m]].addr->offset};
          g.sass = perBlock[b][m];
          g.width = f.widthBytes;
          const int id = static_cast<int>(groups_.size());
          ptx_[blocks[b][m]].group = id;
          for (std::size_t s : g.sass) sassGroup_[s] = id;
          groups_.push_back(std::move(g));
        }
      return true;
    }
    return false;
  }

  void matchUnrolledLines() {
    std::map<std::pair<std::string, int>, std::vector<std::size_t>> byLine;
    for (std::size_t s = 0; s < sass_.size(); ++s)
      if (sass_[s]->sourceLine >= 0)
        byLine[{baseName(sass_[s]->sourceFile), sass_[s]->sourceLine}].push_back(s);
    for (const auto &[line, ss] : byLine) tryUnrolledLine(ss);
  }

  Grouping build() {
    Grouping out;
    std::vector<std::uint32_t> sassId(sass_.size(), 0);
    for (std::size_t s = 0; s < sass_.size(); ++s) {
      if (sassGroup_[s] < 0) {
        const SassInstruction &i = *sass_[s];
        bool spill = i.space == Space::Local;
        out.notes.push_back("SASS " + hexPc(i.pc) + " " + i.opcode + " (" +
                            lineName(i.sourceFile, i.sourceLine) + ") has no PTX access" +
                            (spill ? " (register spill?): not predicted" : ": not predicted"));
        continue;
      }
      const Group &g = groups_[sassGroup_[s]];
      const SiteInfo &lead = *ptx_[g.members.front()].site;
      SiteInfo info = lead;
      info.site = static_cast<std::uint32_t>(out.sassSites.size());
      info.widthBytes = sass_[s]->widthBytes;
      info.op = sass_[s]->op;
      if (sass_[s]->space != Space::Generic) info.space = sass_[s]->space;
      if (sass_[s]->sourceLine >= 0) {
        info.sourceLine = sass_[s]->sourceLine;
        if (info.sourceFile.empty()) info.sourceFile = sass_[s]->sourceFile;
      }
      if (g.members.size() > 1)
        info.ptxText += " (+" + std::to_string(g.members.size() - 1) + " merged)";
      info.sassPc = sass_[s]->pc;
      info.sassText = sass_[s]->text;
      sassId[s] = info.site;
      out.sassSites.push_back(std::move(info));
    }
    struct CopyNote {
      int accesses = 0, firstPtx = 1 << 30, lastPtx = -1;
    };
    std::map<std::pair<std::string, std::size_t>, CopyNote> copyNotes; // (line, copies)
    for (const Group &g : groups_) {
      std::int64_t start = *std::min_element(g.offsets.begin(), g.offsets.end());
      std::vector<std::uint32_t> copies;
      for (std::size_t s : g.sass) copies.push_back(sassId[s]);
      for (std::size_t k = 0; k < g.members.size(); ++k) {
        Grouping::Member m;
        m.sassSite = copies.front();
        m.offsetBytes = static_cast<unsigned>(g.offsets[k] - start);
        m.components = static_cast<unsigned>(g.members.size());
        if (copies.size() > 1) m.copies = copies;
        out.byPtxSite[ptx_[g.members[k]].site->site] = m;
      }
      if (copies.size() > 1) {
        const SiteInfo &lead = *ptx_[g.members.front()].site;
        CopyNote &n = copyNotes[{lineName(lead.sourceFile, lead.sourceLine), copies.size()}];
        n.accesses += 1;
        n.firstPtx = std::min(n.firstPtx, lead.ptxLine);
        n.lastPtx = std::max(n.lastPtx, lead.ptxLine);
      }
    }
    for (const auto &[key, n] : copyNotes) {
      std::string k = std::to_string(key.second);
      std::string which = n.accesses == 1
                              ? "PTX line " + std::to_string(n.firstPtx)
                              : "each of " + std::to_string(n.accesses) + " PTX accesses (lines " +
                                    std::to_string(n.firstPtx) + "-" + std::to_string(n.lastPtx) + ")";
      if (unsigned u = unrolledLoopBody(key.second)) {
        std::string us = std::to_string(u);
        out.notes.push_back(
            key.first + ": ptxas made " + k + " copies of " + which + " (unrolled loop: a " +
            us + "-copy main body and tails); a warp's executions are counted in passes of " +
            us + " on the main body and the rest (count mod " + us +
            ") on the tails, as ptxas runs them; per-copy counts also assume each copy was "
            "attributed to the right PTX access (their sum is exact)");
      } else {
        out.notes.push_back(key.first + ": ptxas made " + k + " copies of " + which +
                            " (unrolled loop?); a warp's k-th execution is counted on copy k "
                            "mod " + k + ", so per-copy counts are approximate (their sum is "
                            "exact)");
      }
    }
    std::map<std::string, int> unmatchedByLine;
    for (const PtxItem &p : ptx_) {
      if (p.group >= 0) continue;
      SiteInfo info = *p.site;
      info.site = static_cast<std::uint32_t>(out.sassSites.size());
      info.sassPc.reset();
      info.sassText.clear();
      out.byPtxSite[p.site->site] = Grouping::Member{info.site, 0, 1, {}};
      out.sassSites.push_back(std::move(info));
      if (!p.skip) ++unmatchedByLine[lineName(p.site->sourceFile, p.site->sourceLine)];
    }
    for (const auto &[line, n] : unmatchedByLine)
      out.notes.push_back(line + ": " + std::to_string(n) +
                          " PTX access(es) not matched to a SASS instruction; reported PTX-level");
    if (orderMatched_)
      out.notes.push_back("some accesses were matched to SASS by order only (no line info)");
    return out;
  }

  std::vector<PtxItem> ptx_;
  std::vector<const SassInstruction *> sass_;
  std::vector<const SassInstruction *> all_; ///< every instruction, listing order
  std::vector<std::size_t> sassIndex_;        ///< memory instruction → index in all_
  std::vector<int> sassRegion_;               ///< memory instruction → branch-free region
  std::vector<std::optional<AddressOperand>> sassAddr_;
  /// (SASS base, PTX base) → SASS offset − PTX offset, from the latest match of that pair
  std::map<std::pair<std::string, std::string>, std::int64_t> deltas_;
  std::vector<int> sassGroup_;
  std::vector<Group> groups_;
  bool orderMatched_ = false;
};

} // namespace

std::optional<PtxAddress> parsePtxAddress(const std::string &ptxText) {
  std::size_t open = ptxText.find('[');
  if (open == std::string::npos) return std::nullopt;
  std::size_t close = ptxText.find(']', open);
  if (close == std::string::npos) return std::nullopt;
  std::string inner;
  for (char c : ptxText.substr(open + 1, close - open - 1))
    if (c != ' ' && c != '\t') inner += c;
  PtxAddress a;
  std::size_t op = inner.find_first_of("+-", 1);
  if (op == std::string::npos) {
    a.base = inner;
    return a;
  }
  a.base = inner.substr(0, op);
  std::string num = inner.substr(op + 1);
  bool negative = inner[op] == '-';
  if (!num.empty() && num[0] == '-') negative = !negative, num.erase(0, 1);
  char *end = nullptr;
  long long v = std::strtoll(num.c_str(), &end, 0);
  if (num.empty() || *end != '\0') return std::nullopt;
  a.offset = negative ? -v : v;
  return a;
}

Expected<Grouping> groupAccesses(const std::vector<model::SiteInfo> &ptxSites,
                                 const SassFunction &function) {
  std::set<std::uint32_t> ids;
  for (const SiteInfo &s : ptxSites)
    if (!ids.insert(s.site).second)
      return Error{"groupAccesses: PTX site id " + std::to_string(s.site) + " appears twice"};
  return Matcher(ptxSites, function).run();
}

Grouping identityGrouping(const std::vector<model::SiteInfo> &ptxSites) {
  Grouping g;
  g.sassSites = ptxSites;
  for (const SiteInfo &s : ptxSites) g.byPtxSite[s.site] = Grouping::Member{s.site, 0, 1, {}};
  return g;
}

} // namespace warplens::sass
