/// \file
/// Lexer, precedence-climbing parser and postfix evaluator of pattern expressions.
#include "analysis/pattern/Expression.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <optional>

namespace warplens::analysis {

namespace {

constexpr std::size_t kMaxStack = 256;
constexpr unsigned kMaxDepth = 64;            ///< nesting of parentheses, calls and unary operators
constexpr std::size_t kMaxNodes = 4096;       ///< tree size (a 4096-term sum is far past any index)
constexpr std::size_t kMaxText = 16u << 10;   ///< characters

struct Token {
  enum class Kind { Number, Ident, Op, End } kind = Kind::End;
  std::string text;
  std::int64_t value = 0;
  std::size_t column = 0;
};

/// Binary operators by C precedence (higher binds tighter).
int precedence(const std::string &op) {
  static const std::pair<const char *, int> table[] = {
      {"*", 10}, {"/", 10}, {"%", 10}, {"+", 9},  {"-", 9},  {"<<", 8}, {">>", 8},
      {"<", 7},  {"<=", 7}, {">", 7},  {">=", 7}, {"==", 6}, {"!=", 6}, {"&", 5},
      {"^", 4},  {"|", 3},  {"&&", 2}, {"||", 1}};
  for (const auto &[name, prec] : table)
    if (op == name) return prec;
  return -1;
}

bool isFunction(std::string_view name) { return name == "min" || name == "max"; }

} // namespace

const std::array<std::string_view, kBuiltinCount> &builtinNames() {
  static const std::array<std::string_view, kBuiltinCount> names = {
      "tx",  "ty",  "tz",  "bx",  "by",   "bz",   "ntx", "nty", "ntz",
      "nbx", "nby", "nbz", "lane", "warp", "gx", "gy",  "gz"};
  return names;
}

Scope::Scope() {
  for (std::string_view n : builtinNames()) names_.emplace_back(n);
}

Status Scope::add(const std::string &name) {
  bool ident = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) ident = ident && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!ident) return Error{"--let: '" + name + "' is not a name (letters, digits, '_')"};
  int slot = find(name);
  if (slot >= 0 && slot < static_cast<int>(kBuiltinCount))
    return Error{"--let: '" + name + "' redefines a built-in variable"};
  if (slot >= 0) return Error{"--let: '" + name + "' is defined twice"};
  if (isFunction(name)) return Error{"--let: '" + name + "' is a function name"};
  names_.push_back(name);
  return {};
}

int Scope::find(std::string_view name) const {
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return static_cast<int>(i);
  return -1;
}

/// Recursive-descent / precedence-climbing parser producing Expression::nodes_.
class ExpressionParser {
public:
  ExpressionParser(std::string_view text, const Scope &scope, std::string_view what)
      : text_(text), scope_(scope), what_(what) {}

  Expected<Expression> run() {
    if (text_.size() > kMaxText)
      return Error{std::string(what_) + ": expression of " + std::to_string(text_.size()) +
                   " characters exceeds the limit of " + std::to_string(kMaxText)};
    Expression e;
    e.text_ = std::string(text_);
    out_ = &e;
    if (!lex()) return *error_;
    int root = parseBinary(0);
    if (error_) return *error_;
    if (tok().kind != Token::Kind::End) {
      fail(tok(), "unexpected token '" + tok().text + "'");
      return *error_;
    }
    e.root_ = root;
    e.emit(root);
    // Stack depth: simulate the program.
    std::size_t depth = 0;
    for (const auto &in : e.program_) {
      using C = Expression::Code;
      switch (in.code) {
      case C::Push: case C::Load: ++depth; break;
      case C::Neg: case C::Not: case C::BitNot: case C::ToBool: break;
      case C::JumpIfZeroKeep: case C::JumpIfNonZeroKeep: break;
      default: --depth; break; // binary ops and Pop
      }
      e.maxStack_ = std::max(e.maxStack_, depth);
    }
    if (e.maxStack_ > kMaxStack)
      return Error{std::string(what_) + ": expression too deeply nested\n" +
                   Expression::caret(text_, 0)};
    return e;
  }

private:
  const Token &tok() const { return toks_[pos_]; }

  void fail(const Token &t, const std::string &what) {
    if (error_) return;
    std::string shown = t.kind == Token::Kind::End ? "end of expression" : "column " + std::to_string(t.column + 1);
    error_ = Error{std::string(what_) + ": " + what + " at " + shown + "\n" +
                   Expression::caret(text_, t.column)};
  }

  bool lex() {
    std::size_t i = 0;
    while (i < text_.size()) {
      char c = text_[i];
      if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
      Token t;
      t.column = i;
      if (std::isdigit(static_cast<unsigned char>(c))) {
        std::size_t j = i;
        bool hex = c == '0' && i + 1 < text_.size() && (text_[i + 1] == 'x' || text_[i + 1] == 'X');
        if (hex) j += 2;
        while (j < text_.size() && std::isalnum(static_cast<unsigned char>(text_[j]))) ++j;
        t.kind = Token::Kind::Number;
        t.text = std::string(text_.substr(i, j - i));
        unsigned base = hex ? 16 : 10;
        std::uint64_t v = 0;
        bool ok = !hex || j > i + 2;
        for (std::size_t k = i + (hex ? 2 : 0); ok && k < j; ++k) {
          char d = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[k])));
          unsigned digit = std::isdigit(static_cast<unsigned char>(d)) ? unsigned(d - '0')
                           : (d >= 'a' && d <= 'f') ? unsigned(d - 'a' + 10) : 99;
          if (digit >= base) { ok = false; break; }
          if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / base) { ok = false; break; }
          v = v * base + digit;
        }
        if (!ok || (!hex && v > std::uint64_t(std::numeric_limits<std::int64_t>::max()))) {
          fail(t, "bad number '" + t.text + "'");
          return false;
        }
        t.value = static_cast<std::int64_t>(v);
        i = j;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        std::size_t j = i;
        while (j < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_')) ++j;
        t.kind = Token::Kind::Ident;
        t.text = std::string(text_.substr(i, j - i));
        i = j;
      } else {
        static const char *two[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
        t.kind = Token::Kind::Op;
        for (const char *op : two)
          if (text_.substr(i, 2) == op) t.text = op;
        if (t.text.empty()) {
          if (std::string_view("+-*/%&|^()!~<>,").find(c) == std::string_view::npos) {
            t.text = std::string(1, c);
            fail(t, "unexpected character '" + t.text + "'");
            return false;
          }
          t.text = std::string(1, c);
        }
        i += t.text.size();
      }
      toks_.push_back(t);
    }
    Token end;
    end.column = text_.size();
    toks_.push_back(end);
    return true;
  }

  int addNode(ExprNode n) {
    if (out_->nodes_.size() >= kMaxNodes) {
      Token at;
      at.kind = Token::Kind::Op; // not End: the message shows the column
      at.column = n.begin;
      fail(at, "expression has more than " + std::to_string(kMaxNodes) + " terms");
    }
    // Tree depth bounds the recursion of emit() and of explain's walks: a left-leaning chain
    // "a+a+...+a" is as deep as it is long.
    std::size_t d = 1;
    for (int c : n.children) d = std::max(d, depthOf_[std::size_t(c)] + 1);
    if (d > kMaxStack) {
      Token at;
      at.kind = Token::Kind::Op; // not End: the message shows the column
      at.column = n.begin;
      fail(at, "expression nested deeper than " + std::to_string(kMaxStack) + " levels");
    }
    depthOf_.push_back(d);
    out_->nodes_.push_back(std::move(n));
    return static_cast<int>(out_->nodes_.size()) - 1;
  }

  int parseBinary(int minPrec) {
    int lhs = parseUnary();
    while (!error_ && tok().kind == Token::Kind::Op) {
      int prec = precedence(tok().text);
      if (prec < 0 || prec < minPrec) break;
      Token op = tok();
      ++pos_;
      int rhs = parseBinary(prec + 1);
      if (error_) return -1;
      ExprNode n;
      n.kind = ExprNode::Kind::Binary;
      n.op = op.text;
      n.value = static_cast<std::int64_t>(op.column);
      n.children = {lhs, rhs};
      n.begin = out_->nodes_[lhs].begin;
      n.end = out_->nodes_[rhs].end;
      lhs = addNode(std::move(n));
    }
    return lhs;
  }

  int parseUnary() {
    const Token &t = tok();
    // Every recursion (parentheses, call arguments, unary chains) passes here.
    struct Depth {
      unsigned &d;
      explicit Depth(unsigned &x) : d(++x) {}
      ~Depth() { --d; }
    } depth(recursion_);
    if (recursion_ > kMaxDepth) {
      fail(t, "expression nested deeper than " + std::to_string(kMaxDepth) + " levels");
      return -1;
    }
    if (t.kind == Token::Kind::Op && (t.text == "-" || t.text == "!" || t.text == "~" || t.text == "+")) {
      Token op = t;
      ++pos_;
      int operand = parseUnary();
      if (error_) return -1;
      if (op.text == "+") return operand;
      ExprNode n;
      n.kind = ExprNode::Kind::Unary;
      n.op = op.text;
      n.children = {operand};
      n.begin = op.column;
      n.end = out_->nodes_[operand].end;
      return addNode(std::move(n));
    }
    return parsePrimary();
  }

  int parsePrimary() {
    const Token t = tok();
    if (t.kind == Token::Kind::Number) {
      ++pos_;
      ExprNode n;
      n.kind = ExprNode::Kind::Number;
      n.value = t.value;
      n.begin = t.column;
      n.end = t.column + t.text.size();
      return addNode(std::move(n));
    }
    if (t.kind == Token::Kind::Ident) {
      ++pos_;
      if (isFunction(t.text)) return parseCall(t);
      int slot = scope_.find(t.text);
      if (slot < 0) {
        fail(t, "unknown variable '" + t.text + "'");
        return -1;
      }
      ExprNode n;
      n.kind = ExprNode::Kind::Variable;
      n.slot = slot;
      n.op = t.text;
      n.begin = t.column;
      n.end = t.column + t.text.size();
      return addNode(std::move(n));
    }
    if (t.kind == Token::Kind::Op && t.text == "(") {
      ++pos_;
      int inner = parseBinary(0);
      if (error_) return -1;
      if (tok().kind != Token::Kind::Op || tok().text != ")") {
        fail(tok(), "missing ')' for '(' at column " + std::to_string(t.column + 1) + ", found " +
                        describe(tok()));
        return -1;
      }
      out_->nodes_[inner].begin = t.column; // the span includes the parentheses
      out_->nodes_[inner].end = tok().column + 1;
      ++pos_;
      return inner;
    }
    fail(t, "unexpected " + describe(t) + ", expected a number, variable or '('");
    return -1;
  }

  int parseCall(const Token &name) {
    if (tok().kind != Token::Kind::Op || tok().text != "(") {
      fail(tok(), "expected '(' after '" + name.text + "', found " + describe(tok()));
      return -1;
    }
    ++pos_;
    int a = parseBinary(0);
    if (error_) return -1;
    if (tok().kind != Token::Kind::Op || tok().text != ",") {
      fail(tok(), "'" + name.text + "' takes two arguments: expected ',', found " + describe(tok()));
      return -1;
    }
    ++pos_;
    int b = parseBinary(0);
    if (error_) return -1;
    if (tok().kind != Token::Kind::Op || tok().text != ")") {
      fail(tok(), "missing ')' closing '" + name.text + "(', found " + describe(tok()));
      return -1;
    }
    ExprNode n;
    n.kind = ExprNode::Kind::Call;
    n.op = name.text;
    n.children = {a, b};
    n.begin = name.column;
    n.end = tok().column + 1;
    ++pos_;
    return addNode(std::move(n));
  }

  static std::string describe(const Token &t) {
    if (t.kind == Token::Kind::End) return "end of expression";
    return "token '" + t.text + "'";
  }

  std::string_view text_;
  const Scope &scope_;
  std::string_view what_;
  std::vector<Token> toks_;
  std::size_t pos_ = 0;
  Expression *out_ = nullptr;
  std::optional<Error> error_;
  std::vector<std::size_t> depthOf_; ///< tree depth of each node
  unsigned recursion_ = 0;
};

Expected<Expression> Expression::compile(std::string_view text, const Scope &scope,
                                         std::string_view what) {
  bool blank = std::all_of(text.begin(), text.end(),
                           [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
  if (blank) return Error{std::string(what) + ": empty expression"};
  return ExpressionParser(text, scope, what).run();
}

void Expression::emit(int i) {
  const ExprNode &n = nodes_[i];
  switch (n.kind) {
  case ExprNode::Kind::Number: program_.push_back({Code::Push, n.value}); return;
  case ExprNode::Kind::Variable: program_.push_back({Code::Load, n.slot}); return;
  case ExprNode::Kind::Unary:
    emit(n.children[0]);
    program_.push_back({n.op == "-" ? Code::Neg : n.op == "!" ? Code::Not : Code::BitNot, 0});
    return;
  case ExprNode::Kind::Call:
    emit(n.children[0]);
    emit(n.children[1]);
    program_.push_back({n.op == "min" ? Code::Min : Code::Max, 0});
    return;
  case ExprNode::Kind::Binary: break;
  }
  if (n.op == "&&" || n.op == "||") {
    emit(n.children[0]);
    std::size_t jump = program_.size();
    program_.push_back({n.op == "&&" ? Code::JumpIfZeroKeep : Code::JumpIfNonZeroKeep, 0});
    emit(n.children[1]);
    program_.push_back({Code::ToBool, 0});
    program_[jump].arg = static_cast<std::int64_t>(program_.size());
    return;
  }
  static const std::pair<const char *, Code> ops[] = {
      {"+", Code::Add}, {"-", Code::Sub}, {"*", Code::Mul}, {"/", Code::Div}, {"%", Code::Mod},
      {"&", Code::And}, {"|", Code::Or},  {"^", Code::Xor}, {"<<", Code::Shl}, {">>", Code::Shr},
      {"==", Code::Eq}, {"!=", Code::Ne}, {"<", Code::Lt},  {"<=", Code::Le}, {">", Code::Gt},
      {">=", Code::Ge}};
  emit(n.children[0]);
  emit(n.children[1]);
  for (const auto &[name, code] : ops)
    if (n.op == name) program_.push_back({code, n.value}); // value = operator column
}

bool Expression::eval(const std::int64_t *vars, std::int64_t &result,
                      std::size_t &errorColumn) const {
  std::int64_t stack[kMaxStack];
  std::size_t sp = 0;
  using U = std::uint64_t;
  const std::size_t n = program_.size();
  for (std::size_t pc = 0; pc < n; ++pc) {
    const Instr &in = program_[pc];
    switch (in.code) {
    case Code::Push: stack[sp++] = in.arg; continue;
    case Code::Load: stack[sp++] = vars[in.arg]; continue;
    case Code::Neg: stack[sp - 1] = static_cast<std::int64_t>(U(0) - U(stack[sp - 1])); continue;
    case Code::Not: stack[sp - 1] = stack[sp - 1] == 0; continue;
    case Code::BitNot: stack[sp - 1] = ~stack[sp - 1]; continue;
    case Code::ToBool: stack[sp - 1] = stack[sp - 1] != 0; continue;
    case Code::Pop: --sp; continue;
    case Code::JumpIfZeroKeep:
      if (stack[sp - 1] == 0) pc = static_cast<std::size_t>(in.arg) - 1;
      else --sp;
      continue;
    case Code::JumpIfNonZeroKeep:
      if (stack[sp - 1] != 0) { stack[sp - 1] = 1; pc = static_cast<std::size_t>(in.arg) - 1; }
      else --sp;
      continue;
    default: break;
    }
    std::int64_t b = stack[--sp];
    std::int64_t a = stack[sp - 1];
    std::int64_t r = 0;
    switch (in.code) {
    case Code::Add: r = static_cast<std::int64_t>(U(a) + U(b)); break;
    case Code::Sub: r = static_cast<std::int64_t>(U(a) - U(b)); break;
    case Code::Mul: r = static_cast<std::int64_t>(U(a) * U(b)); break;
    case Code::Div:
    case Code::Mod:
      if (b == 0) {
        errorColumn = static_cast<std::size_t>(in.arg);
        return false;
      }
      if (b == -1) r = in.code == Code::Div ? static_cast<std::int64_t>(U(0) - U(a)) : 0;
      else r = in.code == Code::Div ? a / b : a % b;
      break;
    case Code::And: r = a & b; break;
    case Code::Or: r = a | b; break;
    case Code::Xor: r = a ^ b; break;
    case Code::Shl: r = (b < 0 || b > 63) ? 0 : static_cast<std::int64_t>(U(a) << b); break;
    case Code::Shr: r = (b < 0 || b > 63) ? (a < 0 ? -1 : 0) : (a >> b); break;
    case Code::Eq: r = a == b; break;
    case Code::Ne: r = a != b; break;
    case Code::Lt: r = a < b; break;
    case Code::Le: r = a <= b; break;
    case Code::Gt: r = a > b; break;
    case Code::Ge: r = a >= b; break;
    case Code::Min: r = std::min(a, b); break;
    case Code::Max: r = std::max(a, b); break;
    default: break;
    }
    stack[sp - 1] = r;
  }
  result = stack[0];
  return true;
}

std::string Expression::spanText(int i) const {
  const ExprNode &n = nodes_[i];
  return text_.substr(n.begin, n.end - n.begin);
}

std::string Expression::caret(std::string_view text, std::size_t column, unsigned indent) {
  std::string pad(indent, ' ');
  return pad + std::string(text) + "\n" + pad + std::string(std::min(column, text.size()), ' ') + "^";
}

std::string Expression::substitute(const std::vector<std::pair<int, std::string>> &replace) const {
  std::vector<std::pair<std::size_t, std::pair<std::size_t, std::string>>> edits; // begin, end, text
  for (const ExprNode &n : nodes_) {
    if (n.kind != ExprNode::Kind::Variable) continue;
    for (const auto &[slot, text] : replace)
      if (slot == n.slot) edits.push_back({n.begin, {n.end, "(" + text + ")"}});
  }
  std::sort(edits.begin(), edits.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
  std::string out = text_;
  for (const auto &[begin, rest] : edits) out.replace(begin, rest.first - begin, rest.second);
  return out;
}

bool Expression::uses(int slot) const {
  return std::any_of(program_.begin(), program_.end(),
                     [&](const Instr &in) { return in.code == Code::Load && in.arg == slot; });
}

} // namespace warplens::analysis
