/// \file
/// ELF64 section headers of a cubin → registers and static shared bytes per kernel.
#include "perf/CubinResources.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace warplens::perf {

namespace {

template <typename T> T get(const std::string &b, std::size_t off) {
  T v{};
  std::memcpy(&v, b.data() + off, sizeof v);
  return v;
}

struct Section {
  std::string name;
  std::uint64_t offset = 0, size = 0;
  std::uint32_t link = 0;
};

} // namespace

Expected<std::map<std::string, KernelResources>> parseCubinResources(const std::string &b,
                                                                    const std::string &where) {
  if (b.size() < 64 || b.compare(0, 4, "\x7f" "ELF") != 0)
    return Error{where + ": not an ELF file (no \\x7fELF magic)", 2};
  if (b[4] != 2) return Error{where + ": not a 64-bit ELF (EI_CLASS " + std::to_string(int(b[4])) + ")", 2};
  const auto shoff = get<std::uint64_t>(b, 0x28);
  const auto shentsize = get<std::uint16_t>(b, 0x3A);
  const auto shnum = get<std::uint16_t>(b, 0x3C);
  const auto shstrndx = get<std::uint16_t>(b, 0x3E);
  if (shentsize < 64 || shoff + std::uint64_t(shnum) * shentsize > b.size() || shstrndx >= shnum)
    return Error{where + ": section header table out of the file (shoff " + std::to_string(shoff) +
                     ", " + std::to_string(shnum) + " entries)",
                 2};
  auto header = [&](unsigned i) { return shoff + std::uint64_t(i) * shentsize; };
  const auto strOff = get<std::uint64_t>(b, header(shstrndx) + 0x18);
  const auto strSize = get<std::uint64_t>(b, header(shstrndx) + 0x20);
  if (strOff + strSize > b.size()) return Error{where + ": section name table out of the file", 2};
  std::vector<Section> sections;
  for (unsigned i = 0; i < shnum; ++i) {
    const auto h = header(i);
    const auto nameOff = get<std::uint32_t>(b, h);
    Section s;
    if (nameOff < strSize) s.name = std::string(b.c_str() + strOff + nameOff);
    s.offset = get<std::uint64_t>(b, h + 0x18);
    s.size = get<std::uint64_t>(b, h + 0x20);
    s.link = get<std::uint32_t>(b, h + 0x28);
    if (s.offset + s.size > b.size() && s.name.rfind(".nv.shared", 0) != 0) // NOBITS sections
      return Error{where + ": section " + s.name + " extends past the end of the file", 2};
    sections.push_back(s);
  }
  // Symbol names (for the .nv.info attributes, which refer to functions by symbol index).
  std::vector<std::string> symbols;
  for (const auto &s : sections) {
    if (s.name != ".symtab" || s.link >= sections.size()) continue;
    const Section &names = sections[s.link];
    for (std::uint64_t off = s.offset; off + 24 <= s.offset + s.size; off += 24) {
      auto n = get<std::uint32_t>(b, off);
      symbols.push_back(n < names.size ? std::string(b.c_str() + names.offset + n) : "");
    }
  }
  std::map<std::string, KernelResources> out;
  const std::string text = ".text.", shared = ".nv.shared.";
  for (const auto &s : sections)
    if (s.name.rfind(text, 0) == 0) {
      KernelResources &k = out[s.name.substr(text.size())];
      for (std::uint64_t off = s.offset; off + 16 <= s.offset + s.size && off + 16 <= b.size(); off += 16)
        k.stalls.push_back(static_cast<std::uint8_t>((get<std::uint64_t>(b, off + 8) >> 41) & 0xf));
    }
  // .nv.info: records {u8 format, u8 attribute, ...}; format 4 (EIFMT_SVAL) carries a u16 size
  // and that many bytes; attribute 0x2f (EIATTR_REGCOUNT) = {u32 symbol, u32 registers}.
  for (const auto &s : sections) {
    if (s.name != ".nv.info") continue;
    std::uint64_t p = s.offset, end = s.offset + s.size;
    while (p + 4 <= end) {
      auto format = static_cast<unsigned char>(b[p]);
      auto attr = static_cast<unsigned char>(b[p + 1]);
      if (format != 4) {
        p += 4;
        continue;
      }
      auto size = get<std::uint16_t>(b, p + 2);
      if (attr == 0x2f && size == 8 && p + 12 <= end) {
        auto sym = get<std::uint32_t>(b, p + 4);
        auto regs = get<std::uint32_t>(b, p + 8);
        if (sym < symbols.size()) {
          auto it = out.find(symbols[sym]);
          if (it != out.end()) it->second.registersPerThread = regs;
        }
      }
      p += 4 + size;
    }
  }
  for (const auto &s : sections)
    if (s.name.rfind(shared, 0) == 0) {
      auto it = out.find(s.name.substr(shared.size()));
      if (it != out.end()) it->second.staticSharedBytes = static_cast<unsigned>(s.size);
    }
  if (out.empty()) return Error{where + ": no .text.<kernel> section (not a cubin?)", 2};
  return out;
}

Expected<std::map<std::string, KernelResources>> readCubinResources(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot read the cubin", 2};
  std::ostringstream ss;
  ss << in.rdbuf();
  return parseCubinResources(ss.str(), path);
}

} // namespace warplens::perf
