/// \file
/// Recursive-descent PTX parser: module directives, variables, functions, register
/// declarations, .loc line info and instructions with resolved registers (see Parser.h).
#include "ptx/Parser.h"

#include "ptx/Lexer.h"
#include "ptx/Module.h"
#include "ptx/Opcodes.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <set>
#include <stdexcept>
#include <sstream>

namespace warplens::ptx {

namespace {

const std::map<std::string, Special> &specialNames() {
  static const std::map<std::string, Special> m = {
      {"%tid.x", Special::TidX},         {"%tid.y", Special::TidY},
      {"%tid.z", Special::TidZ},         {"%ntid.x", Special::NtidX},
      {"%ntid.y", Special::NtidY},       {"%ntid.z", Special::NtidZ},
      {"%ctaid.x", Special::CtaidX},     {"%ctaid.y", Special::CtaidY},
      {"%ctaid.z", Special::CtaidZ},     {"%nctaid.x", Special::NctaidX},
      {"%nctaid.y", Special::NctaidY},   {"%nctaid.z", Special::NctaidZ},
      {"%laneid", Special::LaneId},      {"%warpid", Special::WarpId},
      {"%nwarpid", Special::NWarpId},    {"%smid", Special::SmId},
      {"%nsmid", Special::NSmId},        {"%gridid", Special::GridId},
      {"%clock", Special::Clock},        {"%clock64", Special::Clock64},
      {"%lanemask_eq", Special::LanemaskEq}, {"%lanemask_lt", Special::LanemaskLt},
      {"%lanemask_le", Special::LanemaskLe}, {"%lanemask_gt", Special::LanemaskGt},
      {"%lanemask_ge", Special::LanemaskGe}, {"%globaltimer", Special::GlobalTimer}};
  return m;
}

// Input limits (SPEC "Limits"): anything above them is rejected with the line and token, so that
// no PTX file can make the parser or the loader allocate or loop without bound.
constexpr std::uint64_t kMaxRegisters = 1u << 17;     ///< registers of one function, all types
constexpr std::uint64_t kMaxModuleRegisters = 1u << 20; ///< registers of all functions together
constexpr std::uint64_t kMaxArrayElements = 1ull << 32; ///< product of a variable's dimensions
constexpr unsigned kMaxNesting = 64;                  ///< { } in initializers and operands
constexpr std::uint64_t kMaxAlign = 1u << 16;

/// Largest variable of each state space: CUDA's own limits (64 KiB constant bank, 512 KiB local
/// per thread, 32 KiB kernel parameters) rounded up; shared 256 KiB (the largest sm_XX has
/// 228 KiB); global 1 GiB (module-scope __device__ arrays; launch buffers have their own limit).
std::uint64_t maxVariableBytes(StateSpace s) {
  switch (s) {
  case StateSpace::Const: return 64u << 10;
  case StateSpace::Shared: return 256u << 10;
  case StateSpace::Local: return 512u << 10;
  case StateSpace::Param: return 64u << 10;
  default: return 1ull << 30;
  }
}

/// Thrown inside the parser only; converted to an Error at the entry points.
struct ParseFailure {
  std::string message;
};

bool parseInteger(const std::string &text, std::uint64_t &out) {
  std::string t = text;
  if (!t.empty() && (t.back() == 'U' || t.back() == 'u')) t.pop_back();
  if (t.empty()) return false;
  try {
    size_t used = 0;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) out = std::stoull(t.substr(2), &used, 16), used += 2;
    else if (t.size() > 1 && t[0] == '0' && std::isdigit(static_cast<unsigned char>(t[1]))) out = std::stoull(t, &used, 8);
    else out = std::stoull(t, &used, 10);
    return used == t.size();
  } catch (...) {
    return false;
  }
}

class ParserImpl {
public:
  ParserImpl(const std::string &text, const std::string &path)
      : toks_(tokenize(text)), lines_(splitLines(text)), path_(path) {
    mod_ = std::make_shared<Module>();
    mod_->path = path;
  }

  std::shared_ptr<Module> run() {
    while (peek().kind != TokKind::End) topLevel();
    std::uint32_t idx = 0;
    for (auto &f : mod_->functions)
      for (auto &ins : f.instructions) ins.moduleIndex = idx++;
    return mod_;
  }

private:
  std::vector<Token> toks_;
  std::vector<std::string> lines_;
  std::string path_;
  size_t pos_ = 0;
  std::shared_ptr<Module> mod_;
  int locFile_ = -1, locLine_ = -1, outerFile_ = -1, outerLine_ = -1;
  std::map<std::string, std::size_t> functionIndex_; ///< name → index in mod_->functions
  std::map<std::string, std::size_t> localIndex_;    ///< current body: name → index in locals
  std::uint64_t moduleRegisters_ = 0;

  const Token &peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < toks_.size() ? toks_[i] : toks_.back();
  }
  const Token &next() {
    const Token &t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  [[noreturn]] void fail(const Token &t, const std::string &what) {
    std::string tok = t.kind == TokKind::End ? "end of file" : "'" + t.text + "'";
    throw ParseFailure{path_ + ":" + std::to_string(t.line) + ": " + what + " at " + tok};
  }
  [[noreturn]] void failLine(int line, const std::string &what) {
    throw ParseFailure{path_ + ":" + std::to_string(line) + ": " + what};
  }
  bool isPunct(const char *p, size_t ahead = 0) const {
    const Token &t = peek(ahead);
    return t.kind == TokKind::Punct && t.text == p;
  }
  bool isWord(const char *w) const { return peek().kind == TokKind::Word && peek().text == w; }
  void expectPunct(const char *p) {
    if (!isPunct(p)) fail(peek(), std::string("expected '") + p + "'");
    next();
  }
  std::string expectWord(const char *what) {
    if (peek().kind != TokKind::Word) fail(peek(), std::string("expected ") + what);
    return next().text;
  }
  std::uint64_t expectInt(const char *what) {
    bool neg = false;
    if (isPunct("-")) { next(); neg = true; }
    std::uint64_t v = 0;
    if (peek().kind != TokKind::Number || !parseInteger(peek().text, v)) fail(peek(), std::string("expected ") + what);
    next();
    return neg ? (~v + 1) : v;
  }
  /// A non-negative integer no larger than `max` (counts, sizes, alignments).
  std::uint64_t expectCount(const std::string &what, std::uint64_t max) {
    if (isPunct("-")) failLine(peek().line, what + " -" + peek(1).text + " is negative");
    const Token &t = peek();
    std::uint64_t v = 0;
    if (t.kind != TokKind::Number || !parseInteger(t.text, v)) fail(t, "expected " + what);
    if (v > max) fail(t, what + " " + t.text + " exceeds the limit of " + std::to_string(max));
    next();
    return v;
  }
  /// Guards the recursive rules (initializers, operands) against unbounded nesting.
  struct DepthGuard {
    unsigned &depth;
    DepthGuard(ParserImpl &p, const Token &at) : depth(p.depth_) {
      if (++depth > kMaxNesting) {
        --depth;
        p.fail(at, "nesting deeper than " + std::to_string(kMaxNesting) + " levels");
      }
    }
    ~DepthGuard() { --depth; }
  };
  unsigned depth_ = 0;

  void skipTo(const char *p) {
    while (peek().kind != TokKind::End && !isPunct(p)) next();
    expectPunct(p);
  }

  // ---- module level -------------------------------------------------------------------
  void topLevel() {
    const Token &t = peek();
    if (t.kind == TokKind::Punct && t.text == ";") { next(); return; }
    if (t.kind != TokKind::Word) fail(t, "expected a directive");
    const std::string d = t.text;
    if (d == ".version") { next(); mod_->version = next().text; return; }
    if (d == ".target") {
      next();
      mod_->target = expectWord("target name");
      while (isPunct(",")) { next(); expectWord("target option"); }
      return;
    }
    if (d == ".address_size") { next(); mod_->addressSize = static_cast<int>(expectInt("address size")); return; }
    if (d == ".file") {
      next();
      int idx = static_cast<int>(expectInt("file index"));
      if (peek().kind != TokKind::String) fail(peek(), "expected file name string");
      mod_->files[idx] = next().text;
      while (isPunct(",")) { next(); expectInt("file timestamp/size"); }
      return;
    }
    if (d == ".section") {
      next();
      expectWord("section name");
      expectPunct("{");
      int depth = 1;
      while (depth > 0 && peek().kind != TokKind::End) {
        if (isPunct("{")) ++depth;
        if (isPunct("}")) --depth;
        next();
      }
      return;
    }
    if (d == ".pragma") { next(); skipTo(";"); return; }
    bool isExtern = false;
    while (isWord(".visible") || isWord(".extern") || isWord(".weak") || isWord(".common")) {
      if (isWord(".extern")) isExtern = true;
      next();
    }
    const std::string k = peek().text;
    if (k == ".entry" || k == ".func") { function(); return; }
    if (k == ".global" || k == ".const" || k == ".shared") {
      Variable v = variable(isExtern);
      mod_->globals.push_back(std::move(v));
      expectPunct(";");
      return;
    }
    fail(peek(), "unsupported directive");
  }

  StateSpace spaceOf(const std::string &w) {
    if (w == ".global") return StateSpace::Global;
    if (w == ".const") return StateSpace::Const;
    if (w == ".shared") return StateSpace::Shared;
    if (w == ".local") return StateSpace::Local;
    if (w == ".param") return StateSpace::Param;
    return StateSpace::None;
  }

  /// `.space [.align N] [.ptr ...] [.vN] .type name [ [N] ]... [= init]` (no ';').
  Variable variable(bool isExtern) {
    Variable v;
    v.line = peek().line;
    v.isExtern = isExtern;
    v.space = spaceOf(next().text);
    unsigned vec = 1;
    bool haveType = false;
    while (peek().kind == TokKind::Word && peek().text[0] == '.') {
      std::string a = next().text;
      if (a == ".align") {
        const Token &at = peek();
        v.align = static_cast<unsigned>(expectCount("alignment", kMaxAlign));
        if (!std::has_single_bit(v.align)) fail(at, "alignment must be a power of two");
        continue;
      }
      if (a == ".ptr") { v.isPtr = true; continue; }
      if (a == ".v2" || a == ".v4") { vec = a == ".v2" ? 2 : 4; continue; }
      if (spaceOf(a) != StateSpace::None) continue; // .ptr .global
      Type t = parseType(a.substr(1));
      if (t == Type::None) fail(toks_[pos_ - 1], "unsupported variable attribute");
      v.type = t;
      haveType = true;
    }
    if (!haveType) fail(peek(), "expected a type");
    v.name = expectWord("variable name");
    std::uint64_t count = vec;
    const Token &nameTok = toks_[pos_ - 1];
    while (isPunct("[")) {
      next();
      v.isArray = true;
      if (isPunct("]")) { next(); count = 0; continue; }
      const Token &dimTok = peek();
      std::uint64_t dim = expectCount("array size", kMaxArrayElements);
      if (dim && count > kMaxArrayElements / dim)
        fail(dimTok, "array of more than " + std::to_string(kMaxArrayElements) + " elements");
      count *= dim;
      expectPunct("]");
    }
    const unsigned eb = typeBytes(v.type);
    const std::uint64_t maxBytes = maxVariableBytes(v.space);
    if (count * eb > maxBytes)
      fail(nameTok, std::to_string(count * eb) + " bytes of ." + toString(v.space) +
                        " variable exceed the limit of " + std::to_string(maxBytes));
    v.sizeBytes = count * eb;
    if (isPunct("=")) {
      next();
      std::vector<std::uint64_t> vals;
      initializer(vals);
      // Only the initialised prefix is stored; the loader zero-fills the rest.
      std::uint64_t given = static_cast<std::uint64_t>(vals.size()) * eb;
      if (!v.sizeBytes && given > maxBytes)
        fail(nameTok, "initializer of " + std::to_string(given) + " bytes exceeds the limit of " +
                          std::to_string(maxBytes));
      if (!v.sizeBytes) v.sizeBytes = given;
      v.init.assign(std::min(v.sizeBytes, given), 0);
      for (size_t i = 0; i < vals.size() && (i + 1) * eb <= v.init.size(); ++i)
        std::memcpy(&v.init[i * eb], &vals[i], eb);
    }
    return v;
  }

  void initializer(std::vector<std::uint64_t> &vals) {
    DepthGuard guard(*this, peek());
    if (isPunct("{")) {
      next();
      while (!isPunct("}")) {
        initializer(vals);
        if (isPunct(",")) next();
        else if (!isPunct("}")) fail(peek(), "expected ',' or '}' in initializer");
      }
      next();
      return;
    }
    Operand o = immediate();
    vals.push_back(o.imm);
  }

  Operand immediate() {
    Operand o;
    o.kind = OperandKind::Imm;
    bool neg = false;
    if (isPunct("-")) { next(); neg = true; }
    const Token &t = peek();
    if (t.kind != TokKind::Number) fail(t, "expected a number");
    std::string s = next().text;
    try {
      return immediateValue(s, neg, o);
    } catch (const std::exception &) {
      fail(t, "malformed number");
    }
  }

  Operand immediateValue(const std::string &s, bool neg, Operand o) {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
      o.immType = Type::F32;
      o.imm = std::stoull(s.substr(2), nullptr, 16);
      if (neg) o.imm ^= 0x80000000u;
    } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
      o.immType = Type::F64;
      o.imm = std::stoull(s.substr(2), nullptr, 16);
      if (neg) o.imm ^= 0x8000000000000000ull;
    } else if (s.find_first_of(".eE") != std::string::npos && s.find_first_of("xX") == std::string::npos) {
      double d = std::stod(s);
      if (neg) d = -d;
      o.immType = Type::F64;
      std::memcpy(&o.imm, &d, 8);
    } else {
      std::uint64_t v = 0;
      if (!parseInteger(s, v)) throw std::invalid_argument("malformed number");
      o.immType = Type::S64;
      o.imm = neg ? (~v + 1) : v;
    }
    return o;
  }

  // ---- functions ------------------------------------------------------------------------
  void paramList(std::vector<Variable> &out) {
    expectPunct("(");
    while (!isPunct(")")) {
      if (!isWord(".param") && !isWord(".reg")) fail(peek(), "expected .param");
      Variable v = variable(false);
      v.space = StateSpace::Param;
      out.push_back(std::move(v));
      if (isPunct(",")) next();
      else if (!isPunct(")")) fail(peek(), "expected ',' or ')' in parameter list");
    }
    next();
  }

  void function() {
    Function f;
    f.line = peek().line;
    f.isEntry = next().text == ".entry";
    if (!f.isEntry && isPunct("(")) paramList(f.returns);
    f.name = expectWord("function name");
    if (isPunct("(")) paramList(f.params);
    // performance directives: .maxntid 256,1,1 .reqntid .minnctapersm .maxnreg .noreturn ...
    while (peek().kind != TokKind::End && !isPunct("{") && !isPunct(";")) {
      const Token &t = next();
      if (t.kind == TokKind::Word && t.text == ".pragma") { skipTo(";"); continue; }
      if (!(t.kind == TokKind::Number || (t.kind == TokKind::Punct && t.text == ",") ||
            (t.kind == TokKind::Word && t.text[0] == '.')))
        fail(t, "unexpected token in function header");
    }
    if (isPunct(";")) { next(); addFunction(std::move(f)); return; }
    expectPunct("{");
    f.hasBody = true;
    locFile_ = locLine_ = outerFile_ = outerLine_ = -1;
    localIndex_.clear();
    body(f);
    resolve(f);
    addFunction(std::move(f));
  }

  void addFunction(Function f) {
    auto [it, fresh] = functionIndex_.emplace(f.name, mod_->functions.size());
    if (!fresh) {
      if (f.hasBody) mod_->functions[it->second] = std::move(f); // definition after a prototype
      return;
    }
    mod_->functions.push_back(std::move(f));
  }

  void addRegister(Function &f, const std::string &name, Type t, const Token &at) {
    if (f.regIndex.count(name)) return; // redeclared in a nested scope: reuse
    if (f.regs.size() >= kMaxRegisters)
      fail(at, "function '" + f.name + "' declares more than " + std::to_string(kMaxRegisters) +
                   " registers");
    if (++moduleRegisters_ > kMaxModuleRegisters)
      fail(at, "the module declares more than " + std::to_string(kMaxModuleRegisters) + " registers");
    f.regIndex[name] = static_cast<int>(f.regs.size());
    f.regs.push_back(Register{name, t});
  }

  void body(Function &f) {
    int depth = 1;
    while (true) {
      const Token &t = peek();
      if (t.kind == TokKind::End) fail(t, "unterminated function body of '" + f.name + "'");
      if (t.kind == TokKind::Punct && t.text == "}") {
        next();
        if (--depth == 0) return;
        continue;
      }
      if (t.kind == TokKind::Punct && t.text == "{") { next(); ++depth; continue; }
      if (t.kind == TokKind::Punct && t.text == ";") { next(); continue; }
      if (t.kind == TokKind::Word && t.text == ".reg") { regDecl(f); continue; }
      if (t.kind == TokKind::Word && (t.text == ".local" || t.text == ".shared" || t.text == ".param" || t.text == ".const" || t.text == ".global")) {
        Variable v = variable(false);
        auto [it, fresh] = localIndex_.emplace(v.name, f.locals.size());
        if (fresh) f.locals.push_back(std::move(v));
        else f.locals[it->second].sizeBytes = std::max(f.locals[it->second].sizeBytes, v.sizeBytes);
        expectPunct(";");
        continue;
      }
      if (t.kind == TokKind::Word && t.text == ".loc") { loc(); continue; }
      if (t.kind == TokKind::Word && t.text == ".pragma") { next(); skipTo(";"); continue; }
      if (t.kind == TokKind::Word && t.text[0] != '.' && isPunct(":", 1)) {
        f.labels[t.text] = static_cast<int>(f.instructions.size());
        next();
        next();
        continue;
      }
      if (t.kind == TokKind::Word && t.text[0] == '.') fail(t, "unsupported directive");
      instruction(f);
    }
  }

  void regDecl(Function &f) {
    next();
    std::string tw = expectWord("register type");
    unsigned vec = 1;
    if (tw == ".v2" || tw == ".v4") { vec = tw == ".v2" ? 2 : 4; tw = expectWord("register type"); }
    (void)vec;
    Type t = tw.size() > 1 ? parseType(tw.substr(1)) : Type::None;
    if (t == Type::None) fail(toks_[pos_ - 1], "unsupported register type");
    while (true) {
      const Token &nameTok = peek();
      std::string name = expectWord("register name");
      if (isPunct("<")) {
        next();
        std::uint64_t n = expectCount("register count", kMaxRegisters);
        expectPunct(">");
        if (f.regs.size() + n > kMaxRegisters)
          fail(nameTok, "function '" + f.name + "' declares more than " +
                            std::to_string(kMaxRegisters) + " registers");
        if (moduleRegisters_ + n > kMaxModuleRegisters)
          fail(nameTok, "the module declares more than " + std::to_string(kMaxModuleRegisters) +
                            " registers");
        for (std::uint64_t i = 0; i < n; ++i) addRegister(f, name + std::to_string(i), t, nameTok);
      } else {
        addRegister(f, name, t, nameTok);
      }
      if (isPunct(",")) { next(); continue; }
      expectPunct(";");
      break;
    }
  }

  void loc() {
    next();
    locFile_ = static_cast<int>(expectInt("file index"));
    locLine_ = static_cast<int>(expectInt("line"));
    if (peek().kind == TokKind::Number) next(); // column
    outerFile_ = outerLine_ = -1;
    while (isPunct(",")) {
      next();
      std::string key = expectWord("loc attribute");
      if (key == "function_name") { expectWord("function name label"); if (isPunct("+")) { next(); expectInt("offset"); } }
      else if (key == "inlined_at") {
        outerFile_ = static_cast<int>(expectInt("file index"));
        outerLine_ = static_cast<int>(expectInt("line"));
        if (peek().kind == TokKind::Number) next();
      } else fail(toks_[pos_ - 1], "unsupported .loc attribute");
    }
  }

  // ---- instructions ---------------------------------------------------------------------
  void instruction(Function &f) {
    Instruction ins;
    const Token &first = peek();
    ins.ptxLine = first.line;
    size_t startTok = pos_;
    if (isPunct("@")) {
      next();
      if (isPunct("!")) { next(); ins.guardNeg = true; }
      const Token &p = peek();
      std::string pn = expectWord("guard predicate");
      auto it = f.regIndex.find(pn);
      if (it == f.regIndex.end()) fail(p, "unknown predicate register");
      ins.guard = it->second;
    }
    const Token &opTok = peek();
    if (opTok.kind != TokKind::Word) fail(opTok, "expected an instruction");
    std::string opText = next().text;
    std::string err = decodeOpcode(opText, ins);
    if (!err.empty()) failLine(opTok.line, err);
    while (!isPunct(";")) {
      if (peek().kind == TokKind::End) fail(peek(), "expected ';'");
      ins.operands.push_back(operand(f));
      if (isPunct(",")) next();
      else if (!isPunct(";")) fail(peek(), "expected ',' or ';' after operand of '" + opText + "'");
    }
    next();
    // text: tokens joined
    std::string text;
    for (size_t i = startTok; i < pos_; ++i) {
      const Token &t = toks_[i];
      if (t.kind == TokKind::Punct && (t.text == "," || t.text == ";" || t.text == "]" || t.text == "}" || t.text == ")" || t.text == "|" || t.text == "+")) {
        text += t.text;
        if (t.text == ",") text += ' ';
        continue;
      }
      if (!text.empty() && text.back() != ' ' && text.back() != '[' && text.back() != '{' && text.back() != '(' && text.back() != '@' && text.back() != '!' && text.back() != '|' && text.back() != '+' && text.back() != '-')
        text += ' ';
      if (t.kind == TokKind::String) text += "\"" + t.text + "\"";
      else text += t.text;
    }
    ins.text = text;
    ins.locFile = locFile_;
    ins.locLine = locLine_;
    ins.outerFile = outerFile_;
    ins.outerLine = outerLine_;
    f.instructions.push_back(std::move(ins));
  }

  Operand operand(Function &f) {
    Operand o;
    const Token &t = peek();
    DepthGuard guard(*this, t);
    if (isPunct("[")) {
      next();
      o.kind = OperandKind::Address;
      if (peek().kind == TokKind::Word) {
        const Token &b = peek();
        std::string name = next().text;
        auto it = f.regIndex.find(name);
        if (it != f.regIndex.end()) o.reg = it->second;
        else if (name[0] == '%') fail(b, "unknown register");
        else o.symbol = name;
        if (isPunct("+") || isPunct("-")) {
          bool neg = isPunct("-");
          next();
          std::uint64_t v = expectInt("address offset");
          o.offset = static_cast<std::int64_t>(neg ? 0 - v : v); // wraps like the hardware
        }
      } else {
        o.offset = static_cast<std::int64_t>(expectInt("address"));
      }
      expectPunct("]");
      return o;
    }
    if (isPunct("{")) {
      next();
      o.kind = OperandKind::Vector;
      while (!isPunct("}")) {
        o.elems.push_back(operand(f));
        if (isPunct(",")) next();
        else if (!isPunct("}")) fail(peek(), "expected ',' or '}' in vector operand");
      }
      next();
      return o;
    }
    if (isPunct("(")) {
      next();
      o.kind = OperandKind::List;
      while (!isPunct(")")) {
        o.elems.push_back(operand(f));
        if (isPunct(",")) next();
        else if (!isPunct(")")) fail(peek(), "expected ',' or ')' in argument list");
      }
      next();
      return o;
    }
    if (isPunct("!")) {
      next();
      o = operand(f);
      if (o.kind != OperandKind::Reg) fail(t, "'!' needs a predicate register");
      o.negate = true;
      return o;
    }
    if (isPunct("-") || t.kind == TokKind::Number) return immediate();
    if (t.kind == TokKind::Word) {
      std::string name = next().text;
      auto it = f.regIndex.find(name);
      if (it != f.regIndex.end()) {
        o.kind = OperandKind::Reg;
        o.reg = it->second;
      } else if (name[0] == '%') {
        auto sp = specialNames().find(name);
        if (sp == specialNames().end()) fail(t, "unknown register");
        o.kind = OperandKind::Special;
        o.special = sp->second;
      } else if (name == "_") {
        o.kind = OperandKind::Reg;
        o.reg = -1;
      } else {
        o.kind = OperandKind::Symbol;
        o.symbol = name;
      }
      if (isPunct("|")) { // setp %p|%q, shfl %r|%p: second destination
        next();
        const Token &q = peek();
        std::string qn = expectWord("predicate register");
        auto qi = f.regIndex.find(qn);
        if (qi == f.regIndex.end()) fail(q, "unknown predicate register");
        Operand second;
        second.kind = OperandKind::Reg;
        second.reg = qi->second;
        o.elems.push_back(second);
      }
      return o;
    }
    fail(t, "unexpected token in operand");
  }

  /// Names a function body may refer to; built once per function so that resolving stays linear.
  std::set<std::string> symbolsOf(const Function &f) const {
    std::set<std::string> names;
    const std::vector<Variable> *lists[] = {&f.params, &f.returns, &f.locals, &mod_->globals};
    for (const auto *list : lists)
      for (const auto &v : *list) names.insert(v.name);
    for (const auto &g : mod_->functions) names.insert(g.name);
    names.insert(f.name);
    return names;
  }

  void resolve(Function &f) {
    const std::set<std::string> known = symbolsOf(f);
    for (auto &ins : f.instructions) {
      if (ins.op == Opcode::Bra) {
        if (ins.operands.size() != 1 || ins.operands[0].kind != OperandKind::Symbol)
          failLine(ins.ptxLine, "bra needs one label operand in '" + ins.text + "'");
        auto it = f.labels.find(ins.operands[0].symbol);
        if (it == f.labels.end()) failLine(ins.ptxLine, "unknown label '" + ins.operands[0].symbol + "'");
        ins.operands[0].kind = OperandKind::Label;
        ins.target = it->second;
        continue;
      }
      if (ins.op == Opcode::Call) {
        for (auto &o : ins.operands)
          if (o.kind == OperandKind::Symbol && o.symbol != f.name && !functionIndex_.count(o.symbol))
            failLine(ins.ptxLine, "call of unknown or indirect target '" + o.symbol + "' (only direct calls are supported)");
        continue;
      }
      for (auto &o : ins.operands) {
        const std::string &s = o.symbol;
        if ((o.kind == OperandKind::Symbol || (o.kind == OperandKind::Address && o.reg < 0 && !s.empty())) &&
            !known.count(s))
          failLine(ins.ptxLine, "unknown symbol '" + s + "' in '" + ins.text + "'");
      }
    }
  }
};

} // namespace

Expected<std::shared_ptr<const Module>> parseText(const std::string &text, const std::string &path) {
  try {
    ParserImpl p(text, path);
    return std::shared_ptr<const Module>(p.run());
  } catch (const ParseFailure &f) {
    return Error{f.message};
  } catch (const std::exception &e) {
    return Error{path + ": malformed PTX (" + e.what() + ")"};
  }
}

Expected<std::shared_ptr<const Module>> parseFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open PTX file"};
  std::stringstream ss;
  ss << in.rdbuf();
  return parseText(ss.str(), path);
}

std::vector<std::string> entryNames(const Module &module) {
  std::vector<std::string> names;
  for (const auto &f : module.functions)
    if (f.isEntry) names.push_back(f.name);
  return names;
}

} // namespace warplens::ptx
