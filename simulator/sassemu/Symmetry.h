/// \file
/// Block symmetry for address-only mode: while one block (the representative) runs, tracks for
/// every register how its value would differ in every other block of the grid, and proves that
/// all blocks make the same accesses moved in address. Then the engine runs one block and hands
/// the others to the listeners as replicas (model::BlockReplicas) instead of executing them.
///
/// The proof, per register and lane: a value is the *same* in every block, *affine* in the block
/// index (value(b) = v + c·(b - rep) as an integer, the register holding it modulo 2^32, with
/// b ranging over the whole grid), or *opaque*. CTAID is affine; loaded values, clocks and SM ids
/// are opaque; everything else follows per-opcode rules (Symmetry.cpp: adds, multiplies by a
/// same value, shifts, LEA, masks that keep or drop whole low bits, compares whose outcome is
/// the same over the grid's corners, selects). The run is proven only if:
/// - every guard, branch condition and control operand is the same in every block (so every
///   block follows the representative's path, lane by lane);
/// - every memory address is affine with one coefficient vector for all active lanes of an
///   access (the whole access moves by c·(b - rep) bytes), global only, and stays inside the
///   same buffer at every corner of the grid;
/// - every value a rule computed equals the value the engine computed (a self-check).
/// Anything else (an opaque value used where it matters, an opcode without a rule reading an
/// affine value that then matters) ends the proof: the launch runs block by block as before.
/// The engine groups blocks whose moves are multiples of 128 bytes (model costs, sectors, lines
/// and fetch units are unchanged by such moves) under one representative each.
#pragma once

#include "model/AccessEvent.h"
#include "sassemu/Exec.h"

#include <array>
#include <map>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace warplens::sassemu {

using I128 = __int128;

/// value(b) = v + c·(b - rep), an exact integer.
struct Form {
  I128 v = 0;
  I128 c[3] = {0, 0, 0};
  bool moves() const { return c[0] != 0 || c[1] != 0 || c[2] != 0; }
};

enum class Taint : std::uint8_t { Same, Affine, Opaque };

struct Val {
  Taint t = Taint::Same;
  Form f; ///< Same: f.v is the value (c = 0); Affine: the form
  static Val same(I128 v) { Val x; x.f.v = v; return x; }
  static Val opaque() { Val x; x.t = Taint::Opaque; return x; }
};

class Symmetry {
public:
  Symmetry(const Program &prog, std::array<std::uint32_t, 3> grid, std::array<std::uint32_t, 3> rep,
           std::uint32_t nWarps);

  bool ok() const { return why_.empty(); }
  const std::string &why() const { return why_; }
  /// The proof ended because one of its rules computed a value the engine did not (a bug in a
  /// rule or in the engine, never a property of the kernel): the fuzz target flags it.
  bool ruleError() const { return ruleError_; }

  /// Control instruction `in` on group lanes `m`: its conditions and operands must be the same
  /// in every block.
  void control(const Exec &x, const Instr &in, std::uint32_t m);
  /// Before the engine executes `in` (group lanes `m`, guard applied `eff`): checks the guard,
  /// computes the address forms of a memory instruction and the forms of what `in` writes.
  void before(Exec &x, const Instr &in, std::uint32_t m, std::uint32_t eff);
  /// After it executed: checks the forms against the engine's values and records them.
  void after(Exec &x, const Instr &in, std::uint32_t eff);
  /// An event the instruction just emitted (between before() and after()).
  void onEvent(const model::AccessEvent &e);

  /// True if block `b` takes the representative's path and keeps every moved access inside its
  /// buffer: the comparisons recorded on the way (block-dependent guards such as bounds checks
  /// of partial tiles) come out as they did for the representative, and each group's address
  /// span moved to `b` stays in the buffer it was in.
  bool admits(const std::array<std::uint32_t, 3> &b) const;

  /// The representative's events, the group (coefficient row) of each, the rows.
  std::vector<model::AccessEvent> events;
  std::vector<std::uint32_t> group;
  std::vector<std::array<std::int64_t, 3>> coef;

private:
  struct WarpForms {
    std::vector<std::uint8_t> rt; ///< [reg * 32 + lane] taint of R
    std::vector<Form> rf;         ///< [reg * 32 + lane] form of R (Affine only)
    std::vector<std::uint32_t> rmask; ///< [reg] lanes whose R is not the same in every block
    std::uint8_t urt[64] = {};
    Form urf[64];
    std::uint32_t popaque[8] = {}; ///< lanes whose P is opaque
    bool upopaque[8] = {};
  };
  struct Write {
    OpKind kind;
    std::uint32_t index;
    std::uint32_t mask;
    std::array<Val, 32> v;
  };

  void fail(const Instr &in, const std::string &why);
  void ruleFail(const Instr &in, const std::string &why); ///< fail() for a rule error
  /// Records that D(b) < 0 (less) or D(b) >= 0 (!less) must hold in a replica; false if too many.
  bool require(const Form &d, bool less);
  WarpForms &forms(const Exec &x) { return warps_[x.w->index]; }
  /// The raw (unmodified) value of operand `o` at `lane`; `raw` holds the engine's fetch.
  Val src(const Exec &x, const Operand &o, unsigned lane, const std::uint32_t *raw);
  Val src1(const Exec &x, const Operand &o, unsigned lane, std::uint32_t rawLane);
  /// As the integer view (Exec::fetchI): -x, ~x applied modulo 2^32.
  Val srcI(const Exec &x, const Operand &o, unsigned lane, const std::uint32_t *raw);
  Val pairVal(const Exec &x, const Operand &o, unsigned lane); ///< 64-bit register pair, exact
  bool predOpaque(const Exec &x, const Operand &o, std::uint32_t lanes) const;
  bool rangeOf(const Form &f, I128 &lo, I128 &hi) const;
  bool exact(const Val &x, bool isSigned, unsigned bits, Val &out) const;
  bool floorDiv(const Val &x, unsigned k, Val &out) const;
  Form norm(Form f) const;

  bool rule(Exec &x, const Instr &in, std::uint32_t eff);
  void generic(Exec &x, const Instr &in, std::uint32_t eff, bool anyTaint);
  /// True if an operand of `in` (or its guard, or a register a 64-bit form reads with it) holds
  /// a value that is not the same in every block, in a lane of `lanes`.
  bool readsTaint(const Exec &x, const Instr &in, std::uint32_t lanes, std::size_t from) const;
  bool opTaint(const WarpForms &w, const Operand &o, std::uint32_t lanes, bool pair) const;
  void pushWrite(OpKind kind, std::uint32_t index, std::uint32_t mask, const std::array<Val, 32> &v);

  const Program &prog_;
  std::array<std::uint32_t, 3> grid_, rep_;
  std::vector<WarpForms> warps_;
  std::uint32_t regs_ = 0;
  Write writes_[6];            ///< what the instruction under way writes (lanes of each mask only)
  unsigned nWrites_ = 0;
  std::array<Val, 32> scratch_[4]; ///< rule(): destination, high word, predicate outputs
  bool pendingAddr_ = false;
  bool addrSame_ = false; ///< the pending address is the same in every block (no lane moves)
  std::array<Val, 32> addr_;
  std::uint8_t width_ = 4;
  std::string why_;
  bool ruleError_ = false;
  /// Path constraints: per (coefficients, sense) the extreme value (max for D < 0, min for D >= 0).
  std::map<std::array<I128, 4>, I128> constraints_;
  struct Span {
    std::uint32_t group;
    std::uint64_t base, end; ///< the buffer
    I128 lo, hi;             ///< the representative's byte span in it (hi exclusive)
  };
  std::vector<Span> spans_;
  std::unordered_map<std::uint64_t, Val> local_; ///< spilled forms: (warp * 32 + lane) << 32 | local address
  struct RangeMemo {
    I128 c[3] = {0, 0, 0}, lo = 0, hi = 0;
  };
  mutable RangeMemo memo_[4]; ///< rangeOf's last coefficient vectors (lanes and loops repeat them)
  mutable unsigned memoNext_ = 0;
};

} // namespace warplens::sassemu
