/// \file
/// The index/mask expression language of `warplens pattern`: C-like integer expressions over the
/// thread variables (tx, ty, ..., lane, warp, gx) and --let names, compiled once to a postfix bytecode.
#pragma once

#include "util/Expected.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warplens::analysis {

/// Built-in variable slots. --let names take the slots after kBuiltinCount, in definition order.
enum class Var : unsigned {
  Tx, Ty, Tz, Bx, By, Bz, Ntx, Nty, Ntz, Nbx, Nby, Nbz, Lane, Warp, Gx, Gy, Gz, Count
};
inline constexpr unsigned kBuiltinCount = static_cast<unsigned>(Var::Count);

/// Names of the built-in variables, indexed by Var.
const std::array<std::string_view, kBuiltinCount> &builtinNames();

/// The variable names an expression may use: the built-ins followed by --let names.
class Scope {
public:
  Scope();
  /// Adds a --let name; error if it is a built-in, a function name, already defined or not an
  /// identifier.
  Status add(const std::string &name);
  /// Slot of `name`, or -1.
  int find(std::string_view name) const;
  const std::vector<std::string> &names() const { return names_; }
  std::size_t size() const { return names_.size(); }

private:
  std::vector<std::string> names_;
};

/// A node of the parsed tree: kept so that `explain` can recognise shapes like `row*W + col` and
/// quote the source text of sub-expressions.
struct ExprNode {
  enum class Kind { Number, Variable, Unary, Binary, Call } kind = Kind::Number;
  std::string op;            ///< operator or function name ("+", "min", unary "-", ...)
  std::int64_t value = 0;    ///< Number
  int slot = -1;             ///< Variable
  std::vector<int> children; ///< indices into Expression::nodes()
  std::size_t begin = 0;     ///< source span [begin, end) in the expression text
  std::size_t end = 0;
};

/// A compiled expression. Evaluation is a tight loop over a postfix program with 64-bit signed
/// arithmetic (wrapping); `&&`/`||` short-circuit; comparisons yield 0 or 1.
class Expression {
public:
  /// Parses `text`; an error names the token and its column and shows the text with a caret.
  /// `what` names the option in messages ("--index").
  static Expected<Expression> compile(std::string_view text, const Scope &scope,
                                      std::string_view what = "expression");

  /// Evaluates with `vars` (scope.size() values). On division/modulo by zero returns false and
  /// sets `errorColumn` (0-based) to the operator's column.
  bool eval(const std::int64_t *vars, std::int64_t &result, std::size_t &errorColumn) const;

  const std::string &text() const { return text_; }
  const std::vector<ExprNode> &nodes() const { return nodes_; }
  int root() const { return root_; }
  /// Source text of node `i` (trimmed).
  std::string spanText(int i) const;
  /// `text` with a caret under `column`, two lines, each indented by `indent` spaces.
  static std::string caret(std::string_view text, std::size_t column, unsigned indent = 2);

  /// The source text with every use of a variable slot in `replace` swapped for its text
  /// (parenthesised); used by `explain` to build candidate rewrites.
  std::string substitute(const std::vector<std::pair<int, std::string>> &replace) const;

  /// True if the expression uses the slot anywhere.
  bool uses(int slot) const;

  // Bytecode (public so tests can check it is compact).
  enum class Code : std::uint8_t {
    Push, Load, Neg, Not, BitNot, Add, Sub, Mul, Div, Mod, And, Or, Xor, Shl, Shr,
    Eq, Ne, Lt, Le, Gt, Ge, Min, Max, JumpIfZeroKeep, JumpIfNonZeroKeep, ToBool, Pop
  };
  struct Instr {
    Code code;
    std::int64_t arg = 0; ///< Push: value; Load: slot; jumps: target; Div/Mod: column
  };
  const std::vector<Instr> &program() const { return program_; }

private:
  friend class ExpressionParser;
  void emit(int node);

  std::string text_;
  std::vector<ExprNode> nodes_;
  int root_ = -1;
  std::vector<Instr> program_;
  std::size_t maxStack_ = 0;
};

} // namespace warplens::analysis
