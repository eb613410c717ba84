/// \file
/// PatternRunner: lane-by-lane evaluation of a pattern's expressions over warps of a grid, and
/// the shared/global model costs of each warp.
#include "analysis/pattern/PatternRunner.h"

#include "analysis/pattern/Expression.h"
#include "arch/ArchSpec.h"
#include "model/GlobalModel.h"
#include "model/SharedModel.h"

#include <optional>

namespace warplens::analysis {

namespace {

/// The compiled --let, --mask and --index expressions, and the variable slots they read.
class LaneEvaluator {
public:
  static Expected<LaneEvaluator> make(const PatternOptions &o) {
    LaneEvaluator ev;
    for (const auto &[name, text] : o.lets) {
      WL_TRY(e, Expression::compile(text, ev.scope_, "--let " + name));
      WL_CHECK(ev.scope_.add(name));
      ev.letNames_.push_back(name);
      ev.lets_.push_back(std::move(e));
    }
    WL_TRY(index, Expression::compile(o.index, ev.scope_, "--index"));
    ev.index_.emplace(std::move(index));
    if (!o.mask.empty()) {
      WL_TRY(mask, Expression::compile(o.mask, ev.scope_, "--mask"));
      ev.mask_.emplace(std::move(mask));
    }
    ev.vars_.assign(ev.scope_.size(), 0);
    return ev;
  }

  std::int64_t *vars() { return vars_.data(); }

  /// Evaluates lets, then the mask, then (for active lanes) the index.
  /// Returns an error naming the lane on division by zero.
  /// `where()` describes the lane; it is only called when an error is reported.
  template <class Where> Status evalLane(bool &active, std::int64_t &index, Where where) {
    std::size_t col = 0;
    for (std::size_t i = 0; i < lets_.size(); ++i) {
      std::int64_t v = 0;
      if (!lets_[i].eval(vars_.data(), v, col))
        return divError("--let " + letNames_[i], lets_[i].text(), col, where());
      vars_[kBuiltinCount + i] = v;
    }
    if (mask_) {
      std::int64_t m = 0;
      if (!mask_->eval(vars_.data(), m, col)) return divError("--mask", mask_->text(), col, where());
      active = m != 0;
    }
    if (!active) return {};
    if (!index_->eval(vars_.data(), index, col))
      return divError("--index", index_->text(), col, where());
    return {};
  }

private:
  static Error divError(const std::string &what, const std::string &text, std::size_t col,
                        const std::string &where) {
    return Error{what + ": division by zero at column " + std::to_string(col + 1) + " for " +
                 where + "\n" + Expression::caret(text, col)};
  }

  Scope scope_;
  std::vector<std::string> letNames_;
  std::vector<Expression> lets_;
  std::optional<Expression> index_, mask_;
  std::vector<std::int64_t> vars_;
};

std::string dimText(unsigned x, unsigned y, unsigned z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

Status checkOptions(const PatternOptions &o) {
  if (o.elem != 1 && o.elem != 2 && o.elem != 4 && o.elem != 8 && o.elem != 16)
    return Error{"--elem: " + std::to_string(o.elem) + " bytes; expected 1, 2, 4, 8 or 16"};
  if (o.block.x == 0 || o.block.y == 0 || o.block.z == 0)
    return Error{"--block: every dimension must be at least 1"};
  if (o.block.count() > 1024)
    return Error{"--block: " + std::to_string(o.block.count()) +
                 " threads; a CUDA block holds at most 1024"};
  if (o.grid.x == 0 || o.grid.y == 0 || o.grid.z == 0)
    return Error{"--grid: every dimension must be at least 1"};
  if (o.space != model::Space::Shared && o.space != model::Space::Global)
    return Error{"--space: expected shared or global"};
  // --all visits every warp: bound the work like a launch spec bounds a grid.
  // (--grid parts are below 2^31 each, so the product needs 128 bits.)
  const unsigned __int128 threads =
      static_cast<unsigned __int128>(o.grid.x) * o.grid.y * o.grid.z * o.block.count();
  if (o.all && threads > (1ull << 31))
    return Error{"--grid: " + std::to_string(o.grid.x) + "," + std::to_string(o.grid.y) + "," +
                 std::to_string(o.grid.z) + " blocks of " + std::to_string(o.block.count()) +
                 " threads exceed 2^31 threads for --all"};
  return {};
}

} // namespace

Expected<PatternReport> runPattern(const PatternOptions &o) {
  WL_CHECK(checkOptions(o));
  WL_TRY(arch, arch::loadArch(o.arch));
  WL_TRY(ev, LaneEvaluator::make(o));

  PatternReport report;
  report.options = o;
  report.archName = arch.name;
  report.banks = arch.sharedBanks;
  report.bankWidthBytes = arch.bankWidthBytes;
  report.sectorBytes = arch.sectorBytes;
  report.warpSize = arch.warpSize;
  const unsigned ws = arch.warpSize;
  const std::uint64_t threadsPerBlock = o.block.count();
  report.warpsPerBlock = static_cast<unsigned>((threadsPerBlock + ws - 1) / ws);
  if (!o.all && o.warp >= report.warpsPerBlock)
    return Error{"--warp: " + std::to_string(o.warp) + " is out of range; block " +
                 dimText(o.block.x, o.block.y, o.block.z) + " has " +
                 std::to_string(report.warpsPerBlock) + " warps (0.." +
                 std::to_string(report.warpsPerBlock - 1) + ")"};

  const model::SharedModel shared(arch);
  const model::GlobalModel global(arch);
  const bool isShared = o.space == model::Space::Shared;

  std::int64_t *v = ev.vars();
  v[unsigned(Var::Ntx)] = o.block.x;
  v[unsigned(Var::Nty)] = o.block.y;
  v[unsigned(Var::Ntz)] = o.block.z;
  v[unsigned(Var::Nbx)] = o.grid.x;
  v[unsigned(Var::Nby)] = o.grid.y;
  v[unsigned(Var::Nbz)] = o.grid.z;

  WarpRecord rec;
  rec.lanes.resize(ws);
  model::AccessEvent event;
  event.space = o.space;
  event.op = o.op;
  event.widthBytes = static_cast<std::uint8_t>(o.elem);
  bool haveWorst = false;
  std::uint32_t worstCost = 0;

  const std::uint64_t blocks = o.all ? o.grid.count() : 1;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const unsigned bx = static_cast<unsigned>(b % o.grid.x);
    const unsigned by = static_cast<unsigned>((b / o.grid.x) % o.grid.y);
    const unsigned bz = static_cast<unsigned>(b / (std::uint64_t(o.grid.x) * o.grid.y));
    v[unsigned(Var::Bx)] = bx;
    v[unsigned(Var::By)] = by;
    v[unsigned(Var::Bz)] = bz;
    const unsigned firstWarp = o.all ? 0 : o.warp;
    const unsigned endWarp = o.all ? report.warpsPerBlock : o.warp + 1;
    for (unsigned w = firstWarp; w < endWarp; ++w) {
      rec.warp = w;
      rec.blockX = bx, rec.blockY = by, rec.blockZ = bz;
      rec.blockLinear = static_cast<std::uint32_t>(b);
      rec.active = 0;
      event.active = LaneMask::none();
      event.block = rec.blockLinear;
      event.warp = w;
      v[unsigned(Var::Warp)] = w;
      for (unsigned lane = 0; lane < ws; ++lane) {
        LaneRecord &l = rec.lanes[lane];
        l = LaneRecord{};
        l.lane = lane;
        const std::uint64_t linear = std::uint64_t(w) * ws + lane;
        if (linear >= threadsPerBlock) continue; // partial last warp: inactive lane
        l.tx = static_cast<unsigned>(linear % o.block.x);
        l.ty = static_cast<unsigned>((linear / o.block.x) % o.block.y);
        l.tz = static_cast<unsigned>(linear / (std::uint64_t(o.block.x) * o.block.y));
        v[unsigned(Var::Tx)] = l.tx;
        v[unsigned(Var::Ty)] = l.ty;
        v[unsigned(Var::Tz)] = l.tz;
        v[unsigned(Var::Lane)] = lane;
        v[unsigned(Var::Gx)] = std::int64_t(bx) * o.block.x + l.tx;
        v[unsigned(Var::Gy)] = std::int64_t(by) * o.block.y + l.ty;
        v[unsigned(Var::Gz)] = std::int64_t(bz) * o.block.z + l.tz;
        bool active = true;
        std::int64_t index = 0;
        auto where = [&] {
          return "lane " + std::to_string(lane) + " (tx=" + std::to_string(l.tx) + ",ty=" +
                 std::to_string(l.ty) + ",tz=" + std::to_string(l.tz) + ") of warp " +
                 std::to_string(w) + ", block " + dimText(bx, by, bz);
        };
        if (auto s = ev.evalLane(active, index, where); !s)
          return s.error();
        if (!active) continue;
        const std::int64_t addr = static_cast<std::int64_t>(
            std::uint64_t(index) * o.elem + o.base);
        if (addr < 0)
          return Error{"--index: lane " + std::to_string(lane) + " of warp " + std::to_string(w) +
                       ", block " + dimText(bx, by, bz) + ": index " + std::to_string(index) +
                       " gives a negative byte address " + std::to_string(addr)};
        if (addr % o.elem != 0)
          return Error{"--base: byte address " + std::to_string(addr) + " of lane " +
                       std::to_string(lane) + " is not aligned to --elem " +
                       std::to_string(o.elem) + " (misaligned accesses fault on the GPU)"};
        l.active = true;
        l.index = index;
        l.address = static_cast<std::uint64_t>(addr);
        l.word = l.address / report.bankWidthBytes;
        l.bank = static_cast<unsigned>(l.word % report.banks);
        l.sector = l.address / report.sectorBytes;
        l.sectorLast = (l.address + o.elem - 1) / report.sectorBytes;
        event.active.set(lane);
        event.addr[lane] = ByteAddress{l.address};
        ++rec.active;
      }
      if (isShared) {
        const model::SharedCost c = shared.cost(event);
        rec.requests = rec.active ? 1 : 0;
        rec.wavefronts = c.wavefronts;
        rec.wavefrontsIdeal = c.wavefrontsIdeal;
        rec.conflictWays = c.conflictWays;
      } else {
        const model::GlobalCost c = global.cost(event);
        rec.requests = c.requests;
        rec.sectors = c.sectors;
        rec.sectorsIdeal = c.sectorsIdeal;
        rec.lines = c.lines;
      }
      PatternTotals &t = report.totals;
      ++t.warps;
      t.threads += rec.active;
      t.requests += rec.requests;
      t.sectors += rec.sectors;
      t.sectorsIdeal += rec.sectorsIdeal;
      t.lines += rec.lines;
      t.wavefronts += rec.wavefronts;
      t.wavefrontsIdeal += rec.wavefrontsIdeal;
      t.conflictWaysMax = std::max(t.conflictWaysMax, rec.conflictWays);
      const std::uint32_t cost = isShared ? rec.wavefronts : rec.sectors;
      ++t.histogram[cost];
      if (!haveWorst || cost > worstCost) {
        haveWorst = true;
        worstCost = cost;
        if (isShared) rec.diagram = shared.diagram(event);
        if (report.warps.empty()) report.warps.push_back(rec);
        else report.warps[0] = rec;
      }
    }
  }
  return report;
}

} // namespace warplens::analysis
