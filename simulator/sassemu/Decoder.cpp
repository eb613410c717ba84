/// \file
/// Operand syntax of nvdisasm 13 for sm_90 (see Decoder.h): registers R/UR/P/UP with
/// `-`, `!`, `~`, `|x|` and `.64/.H0/.H1/.B0-3/.reuse/.X4/.ROW/.COL` suffixes; integer (hex) and floating
/// (decimal, INF, QNAN) immediates; c[bank][index+off]; [R.64+UR+off] with desc[UR]; SR_*; B<n>;
/// `(label) targets.
#include "sassemu/Decoder.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace warplens::sassemu {
namespace {

std::string trim(const std::string &s) {
  std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  std::size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

bool allDigits(const std::string &s, std::size_t from = 0) {
  if (from >= s.size()) return false;
  for (std::size_t i = from; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

/// The decimal number s[from..] (all digits), saturated at 2^20 so that the range checks see it
/// (std::stoul threw std::out_of_range on "R99999999999999999999": an uncaught exception).
std::uint32_t number(const std::string &s, std::size_t from) {
  std::uint32_t v = 0;
  for (std::size_t i = from; i < s.size(); ++i) v = std::min<std::uint32_t>(v * 10 + unsigned(s[i] - '0'), 1u << 20);
  return v;
}

/// Address and constant offsets beyond this are errors: sm_90 encodes at most 24 bits, and the
/// bound keeps every sum the engine forms from them (offset + register, offset + 4) in range.
constexpr std::int64_t kMaxOffset = 0xffffffffll;

struct SRegName {
  const char *name;
  SReg id;
};
constexpr SRegName kSRegs[] = {
    {"SR_TID.X", SReg::TidX},          {"SR_TID.Y", SReg::TidY},
    {"SR_TID.Z", SReg::TidZ},          {"SR_CTAID.X", SReg::CtaidX},
    {"SR_CTAID.Y", SReg::CtaidY},      {"SR_CTAID.Z", SReg::CtaidZ},
    {"SR_LANEID", SReg::LaneId},       {"SR_CgaCtaId", SReg::CgaCtaId},
    {"SR_SWINHI", SReg::SwinHi},       {"SR_SWINLO", SReg::SwinLo},
    {"SR_CLOCKLO", SReg::ClockLo},     {"SR_CLOCKHI", SReg::ClockHi},
    {"SR_CLOCK", SReg::Clock},         {"SR_GLOBALTIMERLO", SReg::GlobalTimerLo},
    {"SR_GLOBALTIMERHI", SReg::GlobalTimerHi}, {"SR_GLOBALTIMER", SReg::GlobalTimer},
    {"SR_EQMASK", SReg::EqMask},       {"SR_LTMASK", SReg::LtMask},
    {"SR_LEMASK", SReg::LeMask},       {"SR_GTMASK", SReg::GtMask},
    {"SR_GEMASK", SReg::GeMask},       {"SR_VIRTUALSMID", SReg::VirtualSmId},
    {"SR_SMID", SReg::SmId},           {"SR_WARPID", SReg::WarpId},
    {"SR_NWARPID", SReg::NWarpId},     {"SR_VIRTID", SReg::VirtId},
    {"SR_TID", SReg::ThreadId},        {"SR_REGALLOC", SReg::RegAlloc},
    {"SR_GRIDID", SReg::GridId},       {"SRZ", SReg::Zero},
};

/// Splits at top-level commas (not inside [], () or ||).
std::vector<std::string> splitOperands(const std::string &s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

class OperandParser {
public:
  OperandParser(const LabelMap &labels, std::uint64_t pc) : labels_(labels), pc_(pc) {}
  std::string error;

  bool reg(const std::string &tok, Operand &o) {
    std::string name = tok, suffix;
    std::size_t dot = tok.find('.');
    if (dot != std::string::npos) name = tok.substr(0, dot), suffix = tok.substr(dot);
    if (name == "RZ") o.kind = OpKind::Reg, o.index = kRZ;
    else if (name == "URZ") o.kind = OpKind::UReg, o.index = kURZ;
    else if (name == "PT") o.kind = OpKind::Pred, o.index = kPT;
    else if (name == "UPT") o.kind = OpKind::UPred, o.index = kPT;
    else if (name.size() > 1 && name[0] == 'R' && allDigits(name, 1)) o.kind = OpKind::Reg, o.index = number(name, 1);
    else if (name.size() > 2 && name.compare(0, 2, "UR") == 0 && allDigits(name, 2)) o.kind = OpKind::UReg, o.index = number(name, 2);
    else if (name.size() > 1 && name[0] == 'P' && allDigits(name, 1)) o.kind = OpKind::Pred, o.index = number(name, 1);
    else if (name.size() > 2 && name.compare(0, 2, "UP") == 0 && allDigits(name, 2)) o.kind = OpKind::UPred, o.index = number(name, 2);
    else if (name.size() > 1 && name[0] == 'B' && allDigits(name, 1)) o.kind = OpKind::Barrier, o.index = number(name, 1);
    else if (name.size() > 2 && name.compare(0, 2, "SB") == 0 && allDigits(name, 2)) o.kind = OpKind::None, o.index = number(name, 2);
    else return false;
    if ((o.kind == OpKind::Reg && o.index > 255) || (o.kind == OpKind::UReg && o.index > 63) ||
        ((o.kind == OpKind::Pred || o.kind == OpKind::UPred) && o.index > 7) ||
        (o.kind == OpKind::Barrier && o.index > 15)) {
      error = "register '" + tok + "' out of range";
      return true;
    }
    while (!suffix.empty()) {
      std::size_t next = suffix.find('.', 1);
      std::string m = suffix.substr(1, next == std::string::npos ? std::string::npos : next - 1);
      suffix = next == std::string::npos ? std::string() : suffix.substr(next);
      if (m == "reuse") continue;
      if (m == "ROW" || m == "COL") continue; // IMMA Ra.ROW, Rb.COL: the only layout mma.sync has for 8-bit inputs
      if (m == "64") o.wide = true;
      else if (m == "H0") o.sel = 1;
      else if (m == "H1") o.sel = 2;
      else if (m == "B0") o.sel = 3;
      else if (m == "B1") o.sel = 4;
      else if (m == "B2") o.sel = 5;
      else if (m == "B3") o.sel = 6;
      else if (m == "H0_H0") o.sel = 7;
      else if (m == "H1_H1") o.sel = 8;
      else if (m == "F32") o.sel = 9;
      else if (m == "X4") o.idxScale = 4;
      else if (m == "X8") o.idxScale = 8;
      else if (m == "X16") o.idxScale = 16;
      else if (m == "U32") continue;
      else { error = "unknown register modifier '." + m + "' in '" + tok + "'"; return true; }
    }
    return true;
  }

  static bool integer(const std::string &tok, std::int64_t &v) {
    std::string t = tok;
    bool neg = false;
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) neg = t[0] == '-', t = t.substr(1);
    if (t.size() < 3 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X')) return false;
    if (t.size() > 18 || !std::isxdigit(static_cast<unsigned char>(t[2]))) return false; // <= 64 bits
    char *end = nullptr;
    unsigned long long u = std::strtoull(t.c_str() + 2, &end, 16);
    if (*end != '\0') return false;
    // Negated in unsigned arithmetic: -0x8000000000000000 overflowed std::int64_t (UBSan finding).
    v = static_cast<std::int64_t>(neg ? 0ull - u : u);
    return true;
  }

  static bool floating(const std::string &tok, double &v) {
    std::string t = tok;
    double sign = 1;
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) sign = t[0] == '-' ? -1 : 1, t = t.substr(1);
    t = trim(t);
    if (t == "INF") { v = sign * std::numeric_limits<double>::infinity(); return true; }
    if (t == "QNAN" || t == "NAN") { v = std::copysign(std::numeric_limits<double>::quiet_NaN(), sign); return true; }
    if (t.empty() || !(std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '.')) return false;
    char *end = nullptr;
    double d = std::strtod(t.c_str(), &end);
    if (*end != '\0') return false;
    v = sign * d;
    return true;
  }

  /// [R2.64+UR4+0x10], [R1-0x8], [UR4], [0x10]
  bool memory(const std::string &inner, Operand &o) {
    o.kind = OpKind::Mem;
    std::string term;
    std::vector<std::pair<char, std::string>> terms;
    char sign = '+';
    for (std::size_t i = 0; i <= inner.size(); ++i) {
      char c = i < inner.size() ? inner[i] : '+';
      if (c == '+' || c == '-') {
        if (!trim(term).empty()) terms.emplace_back(sign, trim(term));
        term.clear();
        sign = c;
      } else {
        term += c;
      }
    }
    for (auto &[s, t] : terms) {
      std::int64_t v = 0;
      if (integer(t, v)) {
        if (v < -kMaxOffset || v > kMaxOffset || (o.off += s == '-' ? -v : v) < -kMaxOffset || o.off > kMaxOffset) {
          error = "address offset '" + t + "' out of range";
          return false;
        }
        continue;
      }
      Operand r;
      if (!reg(t, r) || !error.empty() || s == '-') {
        if (error.empty()) error = "cannot read address term '" + t + "'";
        return false;
      }
      if (r.kind == OpKind::Reg && o.idxKind == OpKind::None) {
        o.idxKind = OpKind::Reg, o.idx = r.index, o.idxWide = r.wide, o.idxScale = r.idxScale;
      } else if (r.kind == OpKind::UReg && o.idxKind == OpKind::None && !o.hasUidx) {
        o.idxKind = OpKind::UReg, o.idx = r.index, o.idxWide = r.wide, o.idxScale = r.idxScale;
      } else if (r.kind == OpKind::UReg && !o.hasUidx) {
        o.hasUidx = true, o.uidx = r.index;
      } else {
        error = "unsupported address term '" + t + "'";
        return false;
      }
    }
    return true;
  }

  bool parse(std::string tok, Operand &o) {
    tok = trim(tok);
    if (tok.empty()) { error = "empty operand"; return false; }
    if (tok[0] == '`') { // `(.L_x_3) or `($func)
      std::size_t a = tok.find('('), b = tok.rfind(')');
      if (a == std::string::npos || b == std::string::npos || b < a) { error = "bad label '" + tok + "'"; return false; }
      std::string name = tok.substr(a + 1, b - a - 1);
      auto it = labels_.find(name);
      if (it == labels_.end()) { error = "unknown label '" + name + "'"; return false; }
      o.kind = OpKind::Label, o.imm = it->second;
      return true;
    }
    std::int64_t iv = 0;
    if (integer(tok, iv)) { o.kind = OpKind::Imm, o.imm = static_cast<std::uint64_t>(iv); return true; }
    double fv = 0;
    if (floating(tok, fv)) { o.kind = OpKind::FImm, o.fimm = fv; return true; }
    while (!tok.empty() && (tok[0] == '-' || tok[0] == '!' || tok[0] == '~' || tok[0] == '+')) {
      if (tok[0] == '-') o.neg = !o.neg;
      else if (tok[0] != '+') o.notp = !o.notp;
      tok = trim(tok.substr(1));
    }
    if (tok.size() > 2 && tok.front() == '|') {
      std::size_t close = tok.find('|', 1);
      if (close == std::string::npos) { error = "unbalanced '|' in '" + tok + "'"; return false; }
      o.abs = true;
      tok = tok.substr(1, close - 1) + tok.substr(close + 1);
    }
    if (tok.rfind("SR", 0) == 0) {
      for (const SRegName &s : kSRegs)
        if (tok == s.name) { o.kind = OpKind::SReg, o.index = static_cast<std::uint32_t>(s.id); return true; }
    }
    if (tok.rfind("c[", 0) == 0) {
      std::size_t close = tok.find(']');
      std::size_t open2 = tok.find('[', close);
      std::size_t close2 = tok.rfind(']');
      std::int64_t bank = 0;
      if (close == std::string::npos || open2 != close + 1 || close2 == close ||
          !integer(tok.substr(2, close - 2), bank) || bank < 0 || bank > 0xff) { error = "bad constant operand '" + tok + "'"; return false; }
      Operand m;
      if (!memory(tok.substr(open2 + 1, close2 - open2 - 1), m)) return false;
      o.kind = OpKind::Const, o.bank = static_cast<std::uint32_t>(bank), o.idxKind = m.idxKind,
      o.idx = m.idx, o.off = m.off;
      if (m.hasUidx) { error = "unsupported constant index '" + tok + "'"; return false; }
      return true;
    }
    std::size_t lb = tok.find('[');
    if (lb != std::string::npos) {
      std::string prefix = tok.substr(0, lb);
      std::string rest = tok.substr(lb);
      bool desc = prefix == "desc";
      // gdesc[URn]: a warpgroup MMA's pair of shared-memory matrix descriptors (URn..URn+3)
      if (!prefix.empty() && !desc && prefix != "gdesc") { error = "unsupported memory operand '" + tok + "'"; return false; }
      if (desc) { // desc[URn][...]
        std::size_t c1 = rest.find(']');
        if (c1 == std::string::npos) { error = "bad descriptor '" + tok + "'"; return false; }
        rest = rest.substr(c1 + 1);
      }
      if (rest.size() < 2 || rest.front() != '[' || rest.back() != ']') { error = "bad memory operand '" + tok + "'"; return false; }
      return memory(rest.substr(1, rest.size() - 2), o);
    }
    if (tok == "PR") { o.kind = OpKind::None; return true; } // all predicates (P2R/R2P)
    if (tok == "gsb0") { o.kind = OpKind::None; return true; } // warpgroup MMA scoreboard (HGMMA)
    if (reg(tok, o)) return error.empty();
    error = "unknown operand '" + tok + "'";
    return false;
  }

private:
  const LabelMap &labels_;
  std::uint64_t pc_;
};

} // namespace

Expected<Instr> decodeText(const std::string &textIn, std::uint64_t pc, const LabelMap &labels) {
  Instr in;
  in.pc = pc;
  std::string text = trim(textIn);
  if (!text.empty() && text.back() == ';') text.pop_back();
  text = trim(text);
  in.text = text + " ;";
  OperandParser p(labels, pc);
  auto fail = [&](const std::string &what) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "pc 0x%04llx", static_cast<unsigned long long>(pc));
    return Error{std::string(buf) + " `" + in.text + "`: " + what};
  };
  std::size_t pos = 0;
  if (!text.empty() && text[0] == '@') {
    std::size_t sp = text.find(' ');
    if (sp == std::string::npos || !p.parse(text.substr(1, sp - 1), in.guard) ||
        (in.guard.kind != OpKind::Pred && in.guard.kind != OpKind::UPred))
      return fail("bad guard predicate" + (p.error.empty() ? "" : ": " + p.error));
    pos = sp + 1;
  }
  std::size_t sp = text.find(' ', pos);
  in.opcode = trim(text.substr(pos, sp == std::string::npos ? std::string::npos : sp - pos));
  if (in.opcode.empty() || in.opcode[0] == '.') return fail("no opcode"); // ".L_x_1)" has no base opcode
  // nvdisasm spells opcodes and modifiers in letters, digits and '_' (HGMMA.64x8x16): anything else ("ULDC.64UR4,"
  // with its space lost, "IMAD.U3\xff") or an empty modifier is a damaged line, not an instruction.
  for (char ch : in.opcode)
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '.')) {
      std::string shown; // printable: bytes outside ASCII as \xNN
      for (unsigned char c : in.opcode) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02x", c);
        shown += c >= 0x20 && c < 0x7f ? std::string(1, char(c)) : std::string(hex);
      }
      return fail("bad character in opcode '" + shown + "'");
    }
  if (in.opcode.back() == '.' || in.opcode.find("..") != std::string::npos)
    return fail("empty modifier in opcode '" + in.opcode + "'");
  std::size_t d = in.opcode.find('.');
  in.base = in.opcode.substr(0, d);
  while (d != std::string::npos) {
    std::size_t n = in.opcode.find('.', d + 1);
    in.mods.push_back(in.opcode.substr(d + 1, n == std::string::npos ? std::string::npos : n - d - 1));
    d = n;
  }
  if (sp != std::string::npos) {
    for (std::string tok : splitOperands(text.substr(sp + 1))) {
      // "R2 `(k)" (RET.REL.NODEC) holds two operands without a comma.
      std::size_t tick = tok.find(" `");
      std::vector<std::string> parts{tick == std::string::npos ? tok : trim(tok.substr(0, tick))};
      if (tick != std::string::npos) parts.push_back(trim(tok.substr(tick + 1)));
      for (const std::string &part : parts) {
        Operand o;
        if (!p.parse(part, o)) return fail(p.error);
        in.ops.push_back(o);
      }
    }
  }
  return in;
}

} // namespace warplens::sassemu
