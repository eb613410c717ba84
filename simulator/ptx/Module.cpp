/// \file
/// Module helpers: type sizes and names, lookups (see Module.h).
#include "ptx/Module.h"

namespace warplens::ptx {

unsigned typeBytes(Type t) {
  switch (t) {
  case Type::Pred: return 1;
  case Type::B8: case Type::U8: case Type::S8: return 1;
  case Type::B16: case Type::U16: case Type::S16: case Type::F16: case Type::BF16: return 2;
  case Type::B32: case Type::U32: case Type::S32: case Type::F32: case Type::F16x2: return 4;
  case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 8;
  case Type::None: return 0;
  }
  return 0;
}

bool isFloat(Type t) {
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::F32 || t == Type::F64;
}

bool isSigned(Type t) { return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64; }

const char *toString(Type t) {
  static const char *names[] = {"none", "pred", "b8",  "b16", "b32", "b64", "u8",    "u16",  "u32",
                                "u64",  "s8",   "s16", "s32", "s64", "f16", "f16x2", "bf16", "f32",
                                "f64"};
  return names[static_cast<int>(t)];
}

const char *toString(StateSpace s) {
  static const char *names[] = {"none", "global", "shared", "local", "const", "param", "generic"};
  return names[static_cast<int>(s)];
}

const char *toString(Opcode op) {
  static const char *names[] = {
      "mov",  "ld",   "st",   "cvta", "add",   "sub",   "mul",  "mad",   "mul24", "mad24",
      "div",  "rem",  "min",  "max",  "abs",   "neg",   "and",  "or",    "xor",   "not",
      "shl",  "shr",  "cnot", "popc", "clz",   "brev",  "bfe",  "bfi",   "prmt",  "setp",
      "selp", "set",  "slct", "cvt",  "fma",   "sqrt",  "rsqrt", "rcp",  "ex2",   "lg2",
      "sin",  "cos",  "copysign", "bra", "call", "ret", "exit", "bar",  "bar.warp", "membar",
      "shfl", "vote", "activemask", "atom", "red", "prefetch", "nop"};
  return names[static_cast<int>(op)];
}

const Function *Module::findFunction(const std::string &name) const {
  for (const auto &f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

const Variable *Module::findGlobal(const std::string &name) const {
  for (const auto &v : globals)
    if (v.name == name) return &v;
  return nullptr;
}

std::string Module::fileName(int index) const {
  auto it = files.find(index);
  return it == files.end() ? std::string() : it->second;
}

} // namespace warplens::ptx
