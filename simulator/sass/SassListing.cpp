/// \file
/// Parses `nvdisasm -gi -c` (also -g) and `cuobjdump -sass` listings: function headers, `/*pc*/ TEXT ;`
/// instruction lines and `//## File "...", line N` line-info comments; decodes memory opcodes.
#include "sass/SassListing.h"

#include "launch/JsonText.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace warplens::sass {
namespace {

std::string trim(const std::string &s) {
  std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  std::size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> splitDots(const std::string &op) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : op) {
    if (c == '.') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

/// Name of a function from a "//----- .text.NAME -----" header, or empty.
std::string sectionHeaderName(const std::string &line) {
  std::size_t p = line.find("//---");
  if (p == std::string::npos) return {};
  std::size_t t = line.find(".text.", p);
  if (t == std::string::npos) return {};
  std::size_t b = t + 6;
  std::size_t e = line.find_first_of(" \t-", b);
  // mangled names never contain '-' or blanks
  return line.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

} // namespace

bool decodeMemoryOpcode(const std::string &opcode, SassInstruction &inst) {
  std::vector<std::string> parts = splitDots(opcode);
  const std::string &base = parts[0];
  using model::Op;
  using model::Space;
  bool matrix = false;
  if (base == "LDG") inst.space = Space::Global, inst.op = Op::Load;
  else if (base == "STG") inst.space = Space::Global, inst.op = Op::Store;
  else if (base == "LDS") inst.space = Space::Shared, inst.op = Op::Load;
  else if (base == "STS") inst.space = Space::Shared, inst.op = Op::Store;
  else if (base == "LD") inst.space = Space::Generic, inst.op = Op::Load;
  else if (base == "ST") inst.space = Space::Generic, inst.op = Op::Store;
  else if (base == "LDL") inst.space = Space::Local, inst.op = Op::Load;
  else if (base == "STL") inst.space = Space::Local, inst.op = Op::Store;
  else if (base == "ATOM") inst.space = Space::Generic, inst.op = Op::Atomic;
  else if (base == "ATOMG") inst.space = Space::Global, inst.op = Op::Atomic;
  else if (base == "ATOMS") inst.space = Space::Shared, inst.op = Op::Atomic;
  else if (base == "RED") inst.space = Space::Generic, inst.op = Op::Reduce;
  else if (base == "REDG") inst.space = Space::Global, inst.op = Op::Reduce;
  else if (base == "LDGSTS") inst.space = Space::Global, inst.op = Op::Load;
  else if (base == "LDSM") inst.space = Space::Shared, inst.op = Op::Load, matrix = true;
  else if (base == "STSM") inst.space = Space::Shared, inst.op = Op::Store, matrix = true;
  // mbarrier operations (init, arrive, phase check) act on a 64-bit word in shared memory.
  else if (base == "SYNCS" || base == "ARRIVES") inst.space = Space::Shared, inst.op = Op::Atomic;
  // Hopper TMA: bulk copies (UBLKCP.S.G global -> shared, UBLKCP.G.S shared -> global) and
  // tensor copies (UTMALDG loads, UTMASTG stores), filed by their global side.
  else if (base == "UBLKCP") inst.space = Space::Global, inst.op = parts.size() > 1 && parts[1] == "G" ? Op::Store : Op::Load;
  else if (base == "UTMALDG") inst.space = Space::Global, inst.op = Op::Load;
  else if (base == "UTMASTG") inst.space = Space::Global, inst.op = Op::Store;
  // Warpgroup MMA reading its A and B tiles from shared memory (descriptors).
  else if (base == "HGMMA") inst.space = Space::Shared, inst.op = Op::Load;
  else return false;

  unsigned width = 4;
  if (matrix) {
    // LDSM.16.M88.4: four 8x8 b16 matrices, 16 bytes per lane; .2 → 8; none/.1 → 4.
    const std::string &last = parts.back();
    if (last == "4") width = 16;
    else if (last == "2") width = 8;
  } else {
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const std::string &m = parts[i];
      if (m == "U8" || m == "S8") width = 1;
      else if (m == "U16" || m == "S16") width = 2;
      else if (m == "64" || m == "U64" || m == "S64" || m == "F64") width = 8;
      else if (m == "128") width = 16;
    }
  }
  inst.isMemory = true;
  inst.widthBytes = width;
  return true;
}

Expected<std::vector<SassFunction>> parseListing(const std::string &text, const std::string &where) {
  std::vector<SassFunction> functions;
  std::istringstream in(text);
  std::string line;
  int lineNo = 0;
  std::string curFile, innerFile;
  int curLine = -1, innerLine = -1;
  bool lastWasInlined = false;
  std::vector<std::string> pendingLabels;
  while (std::getline(in, line)) {
    ++lineNo;
    std::string name = sectionHeaderName(line);
    std::size_t fpos = line.find("Function : ");
    if (name.empty() && fpos != std::string::npos) name = trim(line.substr(fpos + 11));
    if (!name.empty()) {
      functions.push_back(SassFunction{name, {}, {}});
      pendingLabels.clear();
      curFile.clear();
      innerFile.clear();
      curLine = innerLine = -1;
      lastWasInlined = false;
      continue;
    }
    std::size_t info = line.find("//## File \"");
    if (info != std::string::npos) {
      // //## File "a.h", line 7 [inlined at "b.cu", line 30 [inlined at ...]]
      std::vector<std::pair<std::string, int>> locs;
      std::size_t pos = info + 9;
      while (true) {
        std::size_t q1 = line.find('"', pos);
        if (q1 == std::string::npos) break;
        std::size_t q2 = line.find('"', q1 + 1);
        std::size_t l = q2 == std::string::npos ? q2 : line.find(", line ", q2);
        if (l == std::string::npos)
          return Error::at(where + ":" + std::to_string(lineNo),
                           "malformed line-info comment '" + trim(line) + "'");
        char *end = nullptr;
        long n = std::strtol(line.c_str() + l + 7, &end, 10);
        if (end == line.c_str() + l + 7)
          return Error::at(where + ":" + std::to_string(lineNo),
                           "bad line number in '" + trim(line) + "'");
        locs.emplace_back(launch::validUtf8(line.substr(q1 + 1, q2 - q1 - 1)), static_cast<int>(n));
        pos = static_cast<std::size_t>(end - line.c_str());
        if (line.find("inlined at", pos) == std::string::npos) break;
      }
      if (locs.empty())
        return Error::at(where + ":" + std::to_string(lineNo),
                         "malformed line-info comment '" + trim(line) + "'");
      bool keepInner = locs.size() == 1 && lastWasInlined && locs[0].first == curFile &&
                       locs[0].second == curLine;
      if (!keepInner) {
        innerFile = locs.front().first;
        innerLine = locs.front().second;
      }
      curFile = locs.back().first;
      curLine = locs.back().second;
      lastWasInlined = locs.size() > 1;
      continue;
    }
    std::string t = trim(line);
    if (!functions.empty() && t.size() > 1 && t.back() == ':' && t.find_first_of(" \t") == std::string::npos &&
        t.compare(0, 2, "//") != 0) {
      pendingLabels.push_back(t.substr(0, t.size() - 1));
      continue;
    }
    if (t.size() < 4 || t.compare(0, 2, "/*") != 0) continue;
    std::size_t close = t.find("*/");
    if (close == std::string::npos) continue;
    std::string pcText = t.substr(2, close - 2);
    if (pcText.empty() || pcText.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      continue; // an encoding line "/* 0x000f... */"
    std::string rest = trim(t.substr(close + 2));
    std::size_t semi = rest.find(';');
    if (semi == std::string::npos)
      return Error::at(where + ":" + std::to_string(lineNo),
                       "instruction without ';' at pc 0x" + pcText + ": '" + rest + "'");
    if (functions.empty())
      return Error::at(where + ":" + std::to_string(lineNo),
                       "instruction at pc 0x" + pcText + " before any function header");
    if (pcText.size() > 16)
      return Error::at(where + ":" + std::to_string(lineNo), "pc 0x" + pcText.substr(0, 20) +
                                                             "... does not fit in 64 bits");
    SassInstruction inst;
    inst.pc = std::stoull(pcText, nullptr, 16);
    inst.text = launch::validUtf8(trim(rest.substr(0, semi + 1))); // results are JSON
    std::istringstream words(rest.substr(0, semi));
    std::string w;
    words >> w;
    if (!w.empty() && w[0] == '@') words >> w; // predicate
    if (w.empty())
      return Error::at(where + ":" + std::to_string(lineNo), "empty instruction at pc 0x" + pcText);
    inst.opcode = w;
    decodeMemoryOpcode(inst.opcode, inst);
    inst.sourceFile = curFile;
    inst.sourceLine = curLine;
    inst.innerFile = innerFile;
    inst.innerLine = innerLine;
    for (auto &l : pendingLabels) functions.back().labels.emplace_back(std::move(l), inst.pc);
    pendingLabels.clear();
    functions.back().instructions.push_back(std::move(inst));
  }
  return functions;
}

Expected<std::vector<SassFunction>> readListing(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Error::at(path, "cannot open SASS listing");
  std::ostringstream ss;
  ss << f.rdbuf();
  return parseListing(ss.str(), path);
}

const SassFunction *findFunction(const std::vector<SassFunction> &functions,
                                 const std::string &mangled) {
  for (const SassFunction &f : functions)
    if (f.name == mangled) return &f;
  return nullptr;
}

std::optional<AddressOperand> parseSassAddress(const std::string &text) {
  // last bracket group: "desc[UR4][R2.64+0x4]" → R2.64 / 4; "[R4+UR4]" → R4+UR4 / 0
  std::size_t close = text.rfind(']');
  if (close == std::string::npos) return std::nullopt;
  std::size_t open = text.rfind('[', close);
  if (open == std::string::npos) return std::nullopt;
  std::string inner = text.substr(open + 1, close - open - 1);
  AddressOperand a;
  std::size_t plus = inner.rfind("+0x");
  std::size_t minus = inner.rfind("-0x");
  std::size_t at = plus != std::string::npos ? plus : minus;
  if (at != std::string::npos) {
    a.base = inner.substr(0, at);
    char *end = nullptr;
    std::string digits = inner.substr(at + 3);
    // Hex digits only (no sign, at most 16): the offset wraps like the hardware's 64-bit add.
    if (digits.empty() || digits.size() > 16 || !std::isxdigit(static_cast<unsigned char>(digits[0])))
      return std::nullopt;
    std::uint64_t v = std::strtoull(digits.c_str(), &end, 16);
    if (*end != '\0') return std::nullopt;
    a.offset = static_cast<std::int64_t>(plus != std::string::npos ? v : 0 - v);
  } else {
    a.base = inner;
  }
  return a;
}

} // namespace warplens::sass
