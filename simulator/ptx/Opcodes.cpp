/// \file
/// Opcode and modifier decoding for the supported PTX subset (see Opcodes.h).
#include "ptx/Opcodes.h"

#include <array>
#include <cstring>
#include <map>
#include <vector>

namespace warplens::ptx {

namespace {

const std::map<std::string, Opcode> &baseOpcodes() {
  static const std::map<std::string, Opcode> m = {
      {"mov", Opcode::Mov},       {"ld", Opcode::Ld},         {"ldu", Opcode::Ld},
      {"st", Opcode::St},         {"cvta", Opcode::Cvta},     {"add", Opcode::Add},
      {"sub", Opcode::Sub},       {"mul", Opcode::Mul},       {"mad", Opcode::Mad},
      {"mul24", Opcode::Mul24},   {"mad24", Opcode::Mad24},   {"div", Opcode::Div},
      {"rem", Opcode::Rem},       {"min", Opcode::Min},       {"max", Opcode::Max},
      {"abs", Opcode::Abs},       {"neg", Opcode::Neg},       {"and", Opcode::And},
      {"or", Opcode::Or},         {"xor", Opcode::Xor},       {"not", Opcode::Not},
      {"shl", Opcode::Shl},       {"shr", Opcode::Shr},       {"cnot", Opcode::Cnot},
      {"popc", Opcode::Popc},     {"clz", Opcode::Clz},       {"brev", Opcode::Brev},
      {"bfe", Opcode::Bfe},       {"bfi", Opcode::Bfi},       {"prmt", Opcode::Prmt},
      {"setp", Opcode::Setp},     {"selp", Opcode::Selp},     {"set", Opcode::Set},
      {"slct", Opcode::Slct},     {"cvt", Opcode::Cvt},       {"fma", Opcode::Fma},
      {"sqrt", Opcode::Sqrt},     {"rsqrt", Opcode::Rsqrt},   {"rcp", Opcode::Rcp},
      {"ex2", Opcode::Ex2},       {"lg2", Opcode::Lg2},       {"sin", Opcode::Sin},
      {"cos", Opcode::Cos},       {"copysign", Opcode::Copysign}, {"bra", Opcode::Bra},
      {"call", Opcode::Call},     {"ret", Opcode::Ret},       {"exit", Opcode::Exit},
      {"bar", Opcode::Bar},       {"barrier", Opcode::Bar},   {"membar", Opcode::Membar},
      {"fence", Opcode::Membar},  {"shfl", Opcode::Shfl},     {"vote", Opcode::Vote},
      {"activemask", Opcode::Activemask}, {"atom", Opcode::Atom}, {"red", Opcode::Red},
      {"prefetch", Opcode::Prefetch}, {"prefetchu", Opcode::Prefetch},
      {"nanosleep", Opcode::Nop}, {"pmevent", Opcode::Nop}};
  return m;
}

const std::map<std::string, Cmp> &cmpNames() {
  static const std::map<std::string, Cmp> m = {
      {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},   {"le", Cmp::Le},
      {"gt", Cmp::Gt},   {"ge", Cmp::Ge},   {"lo", Cmp::Lo},   {"ls", Cmp::Ls},
      {"hi", Cmp::Hi},   {"hs", Cmp::Hs},   {"equ", Cmp::Equ}, {"neu", Cmp::Neu},
      {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu}, {"geu", Cmp::Geu},
      {"num", Cmp::Num}, {"nan", Cmp::Nan}};
  return m;
}

const std::map<std::string, Round> &roundNames() {
  static const std::map<std::string, Round> m = {
      {"rn", Round::Rn},   {"rz", Round::Rz},   {"rm", Round::Rm},   {"rp", Round::Rp},
      {"rni", Round::Rni}, {"rzi", Round::Rzi}, {"rmi", Round::Rmi}, {"rpi", Round::Rpi}};
  return m;
}

const std::map<std::string, AtomOp> &atomNames() {
  static const std::map<std::string, AtomOp> m = {
      {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},
      {"dec", AtomOp::Dec}, {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor},
      {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas}};
  return m;
}

/// Modifiers that change nothing the emulator models (caching, ordering, scope, sync).
bool ignorable(const std::string &m) {
  static const char *names[] = {"nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "volatile",
                                "relaxed", "acquire", "release", "acq_rel", "sc", "weak",
                                "cta", "gpu", "sys", "cluster", "sync", "aligned", "uni",
                                "noftz", "mmio", "gl", "L1", "L2", "unified", "b128"};
  for (const char *n : names)
    if (m == n) return true;
  return m.rfind("L1::", 0) == 0 || m.rfind("L2::", 0) == 0 || m.rfind("shared::", 0) == 0 ||
         m.rfind("global::", 0) == 0 || m.rfind("level::", 0) == 0;
}

StateSpace parseSpace(const std::string &m) {
  if (m == "global") return StateSpace::Global;
  if (m == "shared" || m == "shared::cta") return StateSpace::Shared;
  if (m == "local") return StateSpace::Local;
  if (m == "const") return StateSpace::Const;
  if (m == "param") return StateSpace::Param;
  return StateSpace::None;
}

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> parts;
  std::string cur;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.') { parts.push_back(cur); cur.clear(); }
    else cur.push_back(s[i]);
  }
  parts.push_back(cur);
  return parts;
}

} // namespace

Type parseType(const std::string &n) {
  static const std::map<std::string, Type> m = {
      {"pred", Type::Pred}, {"b8", Type::B8},   {"b16", Type::B16}, {"b32", Type::B32},
      {"b64", Type::B64},   {"u8", Type::U8},   {"u16", Type::U16}, {"u32", Type::U32},
      {"u64", Type::U64},   {"s8", Type::S8},   {"s16", Type::S16}, {"s32", Type::S32},
      {"s64", Type::S64},   {"f16", Type::F16}, {"f16x2", Type::F16x2}, {"bf16", Type::BF16},
      {"f32", Type::F32},   {"f64", Type::F64}};
  auto it = m.find(n);
  return it == m.end() ? Type::None : it->second;
}

std::string decodeOpcode(const std::string &text, Instruction &ins) {
  auto parts = split(text);
  auto it = baseOpcodes().find(parts[0]);
  if (it == baseOpcodes().end()) return "unsupported PTX instruction '" + text + "'";
  ins.op = it->second;
  ins.opcodeText = text;
  std::vector<Type> types;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string &m = parts[i];
    if (m.empty()) return "malformed opcode '" + text + "'";
    Type t = parseType(m);
    if (t != Type::None) { types.push_back(t); continue; }
    StateSpace sp = parseSpace(m);
    if (sp != StateSpace::None && ins.op != Opcode::Membar) { ins.space = sp; continue; }
    if (m == "v2" || m == "v4") { ins.vec = m == "v2" ? 2 : 4; continue; }
    if (m == "v8") return "unsupported vector width '.v8' in '" + text + "'";
    if (ins.op == Opcode::Cvta && m == "to") { ins.toSpace = true; continue; }
    if ((ins.op == Opcode::Setp || ins.op == Opcode::Set) && cmpNames().count(m) && ins.cmp == Cmp::None) {
      ins.cmp = cmpNames().at(m);
      continue;
    }
    if ((ins.op == Opcode::Setp || ins.op == Opcode::Set) && (m == "and" || m == "or" || m == "xor")) {
      ins.boolOp = m == "and" ? BoolOp::And : m == "or" ? BoolOp::Or : BoolOp::Xor;
      continue;
    }
    if ((ins.op == Opcode::Atom || ins.op == Opcode::Red) && atomNames().count(m)) {
      ins.atomOp = atomNames().at(m);
      continue;
    }
    if (ins.op == Opcode::Shfl && (m == "up" || m == "down" || m == "bfly" || m == "idx")) {
      ins.shfl = m == "up" ? ShflMode::Up : m == "down" ? ShflMode::Down : m == "bfly" ? ShflMode::Bfly : ShflMode::Idx;
      continue;
    }
    if (ins.op == Opcode::Vote && (m == "all" || m == "any" || m == "uni" || m == "ballot")) {
      ins.vote = m == "all" ? VoteMode::All : m == "any" ? VoteMode::Any : m == "uni" ? VoteMode::Uni : VoteMode::Ballot;
      continue;
    }
    if (ins.op == Opcode::Bar && m == "warp") { ins.op = Opcode::BarWarp; continue; }
    if (ins.op == Opcode::Bar && (m == "arrive" || m == "red")) {
      if (m == "red") return "unsupported PTX instruction '" + text + "'";
      ins.bar = BarKind::Arrive;
      continue;
    }
    if (roundNames().count(m)) { ins.round = roundNames().at(m); continue; }
    if (m == "lo" || m == "hi" || m == "wide") {
      ins.mulMode = m == "lo" ? MulMode::Lo : m == "hi" ? MulMode::Hi : MulMode::Wide;
      continue;
    }
    if (m == "sat") { ins.sat = true; continue; }
    if (m == "ftz") { ins.ftz = true; continue; }
    if (m == "approx") { ins.approx = true; continue; }
    if (m == "full") { continue; }
    if (m == "clamp" && ins.op == Opcode::Bfe) { ins.clampBfe = true; continue; }
    if (m == "uni") { ins.uni = true; continue; }
    if (m == "cc") return "unsupported carry form '" + text + "' (.cc/addc)";
    if (ins.op == Opcode::Prefetch) continue;
    if (ins.op == Opcode::Membar) continue; // membar.gl / fence.sc.gpu ...
    if (ignorable(m)) continue;
    return "unsupported modifier '." + m + "' in '" + text + "'";
  }
  // Assign types.
  switch (ins.op) {
  case Opcode::Cvt:
  case Opcode::Set:
  case Opcode::Slct:
    if (types.size() != 2) return "expected two types in '" + text + "'";
    ins.type = types[0];
    ins.srcType = types[1];
    break;
  case Opcode::Bra: case Opcode::Call: case Opcode::Ret: case Opcode::Exit: case Opcode::Bar:
  case Opcode::BarWarp: case Opcode::Membar: case Opcode::Prefetch: case Opcode::Nop:
    if (!types.empty()) return "unexpected type in '" + text + "'";
    break;
  default:
    if (types.size() != 1) return "expected one type in '" + text + "'";
    ins.type = types[0];
  }
  switch (ins.op) {
  case Opcode::Ld: case Opcode::St:
    if (ins.space == StateSpace::None) ins.space = StateSpace::Generic;
    if (parts[0] == "ldu" && ins.space == StateSpace::Generic) ins.space = StateSpace::Global;
    break;
  case Opcode::Atom: case Opcode::Red:
    if (ins.space == StateSpace::None) ins.space = StateSpace::Generic;
    if (ins.atomOp == AtomOp::None) return "missing operation in '" + text + "'";
    if (ins.space != StateSpace::Global && ins.space != StateSpace::Shared && ins.space != StateSpace::Generic)
      return "unsupported space in '" + text + "'";
    break;
  case Opcode::Cvta:
    if (ins.space == StateSpace::None) return "missing space in '" + text + "'";
    break;
  case Opcode::Setp: case Opcode::Set:
    if (ins.cmp == Cmp::None) return "missing comparison in '" + text + "'";
    break;
  case Opcode::Shfl:
    if (ins.shfl == ShflMode::None) return "missing mode in '" + text + "'";
    break;
  case Opcode::Vote:
    if (ins.vote == VoteMode::None) return "missing mode in '" + text + "'";
    break;
  case Opcode::Prmt:
    break;
  default:
    break;
  }
  if ((ins.type == Type::F16 || ins.type == Type::F16x2 || ins.type == Type::BF16) &&
      ins.op != Opcode::Ld && ins.op != Opcode::St && ins.op != Opcode::Cvt && ins.op != Opcode::Mov)
    return "unsupported half-precision arithmetic '" + text + "'";
  return {};
}

} // namespace warplens::ptx
