/// \file
/// ELF64 reading for Cubin.h: section headers, the symbol table, .nv.info attributes
/// (EIATTR_KPARAM_INFO, _REGCOUNT, _FRAME_SIZE, _MIN_STACK_SIZE, _PARAM_CBANK), .nv.shared.*,
/// .nv.constantN and .rela.nv.constantN. Every read is bounds-checked; a malformed file is an
/// error naming the section.
#include "sassemu/Cubin.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

namespace warplens::sassemu {
namespace {

constexpr std::uint8_t kAttrFrameSize = 0x11, kAttrMinStack = 0x12, kAttrKparamInfo = 0x17,
                       kAttrRegCount = 0x2f, kAttrParamCbank = 0x0a, kAttrCtaPerCluster = 0x3d;
constexpr std::uint32_t kRelaType = 4, kNobitsType = 8, kSymtabType = 2;
constexpr std::uint32_t kRelocAbs64 = 2, kRelocAbs32Lo = 1, kRelocAbs32Hi = 4;

struct Section {
  std::string name;
  std::uint32_t type = 0, link = 0, info = 0;
  std::uint64_t offset = 0, size = 0;
};
struct Symbol {
  std::string name;
  std::uint16_t shndx = 0;
  std::uint64_t value = 0, size = 0;
};

class Reader {
public:
  Reader(const std::vector<std::uint8_t> &b, std::string where) : b_(b), where_(std::move(where)) {}

  template <class T> bool get(std::uint64_t off, T &out) const {
    if (off > b_.size() || b_.size() - off < sizeof(T)) return false;
    std::memcpy(&out, b_.data() + off, sizeof(T));
    return true;
  }
  std::string str(std::uint64_t off, const Section &tab) const {
    if (off >= tab.size || tab.offset + off >= b_.size()) return {};
    const char *s = reinterpret_cast<const char *>(b_.data() + tab.offset + off);
    std::size_t max = std::min<std::uint64_t>(tab.size - off, b_.size() - tab.offset - off);
    return std::string(s, strnlen(s, max));
  }
  bool inFile(const Section &s) const {
    return s.type == kNobitsType || (s.offset <= b_.size() && b_.size() - s.offset >= s.size);
  }
  Error bad(const std::string &what) const { return Error::at(where_, "malformed cubin: " + what); }

  Expected<Cubin> parse() {
    static const std::uint8_t magic[4] = {0x7f, 'E', 'L', 'F'};
    if (b_.size() < 64 || std::memcmp(b_.data(), magic, 4) != 0 || b_[4] != 2)
      return Error::at(where_, "not a 64-bit ELF cubin");
    std::uint64_t shoff = 0;
    std::uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
    get(0x28, shoff);
    get(0x3a, shentsize);
    get(0x3c, shnum);
    get(0x3e, shstrndx);
    if (shentsize < 64 || shstrndx >= shnum) return bad("section header table");
    std::vector<Section> secs(shnum);
    std::vector<std::uint32_t> nameOff(shnum);
    for (std::uint16_t i = 0; i < shnum; ++i) {
      std::uint64_t h = shoff + std::uint64_t(i) * shentsize;
      Section &s = secs[i];
      if (!get(h, nameOff[i]) || !get(h + 4, s.type) || !get(h + 0x18, s.offset) ||
          !get(h + 0x20, s.size) || !get(h + 0x28, s.link) || !get(h + 0x2c, s.info))
        return bad("section header " + std::to_string(i) + " outside the file");
    }
    for (std::uint16_t i = 0; i < shnum; ++i) {
      secs[i].name = str(nameOff[i], secs[shstrndx]);
      if (!inFile(secs[i])) return bad("section '" + secs[i].name + "' outside the file");
    }
    // Symbols
    std::vector<Symbol> syms;
    for (const Section &s : secs) {
      if (s.type != kSymtabType) continue;
      if (s.link >= secs.size()) return bad("symbol table string link");
      for (std::uint64_t k = 0; k + 24 <= s.size; k += 24) {
        std::uint32_t n = 0;
        Symbol sym;
        get(s.offset + k, n);
        get(s.offset + k + 6, sym.shndx);
        get(s.offset + k + 8, sym.value);
        get(s.offset + k + 16, sym.size);
        sym.name = str(n, secs[s.link]);
        syms.push_back(std::move(sym));
      }
    }
    auto symName = [&](std::uint32_t i) { return i < syms.size() ? syms[i].name : std::string(); };

    Cubin c;
    auto kernel = [&](const std::string &name) -> CubinKernel & {
      CubinKernel &k = c.kernels[name];
      k.name = name;
      return k;
    };
    std::map<std::uint16_t, std::string> globalSecOf; // section index → global variable section
    for (std::size_t i = 0; i < secs.size(); ++i) {
      const Section &s = secs[i];
      auto starts = [&](const char *p) { return s.name.rfind(p, 0) == 0; };
      if (starts(".text.")) kernel(s.name.substr(6)).codeBytes = s.size;
      else if (starts(".nv.shared.") && !starts(".nv.shared.reserved"))
        kernel(s.name.substr(11)).sharedBytes = static_cast<std::uint32_t>(s.size);
      else if (starts(".nv.constant") && s.name.find('.', 12) == std::string::npos) {
        std::uint32_t bank = static_cast<std::uint32_t>(std::strtoul(s.name.c_str() + 12, nullptr, 10));
        std::vector<std::uint8_t> bytes(s.size, 0);
        if (s.type != kNobitsType && s.size) std::memcpy(bytes.data(), b_.data() + s.offset, s.size);
        c.banks[bank] = std::move(bytes);
      } else if (s.name == ".nv.global" || s.name == ".nv.global.init") {
        globalSecOf[static_cast<std::uint16_t>(i)] = s.name;
      }
    }
    // __device__ variables: symbols in .nv.global(.init)
    for (const Symbol &sym : syms) {
      auto it = globalSecOf.find(sym.shndx);
      if (it == globalSecOf.end() || sym.name.empty() || sym.name[0] == '.') continue;
      const Section &s = secs[sym.shndx];
      CubinGlobal g{sym.name, std::vector<std::uint8_t>(std::max<std::uint64_t>(sym.size, 1), 0)};
      if (s.type != kNobitsType) {
        if (sym.value > s.size || s.size - sym.value < sym.size) return bad("symbol '" + sym.name + "'");
        if (sym.size) std::memcpy(g.bytes.data(), b_.data() + s.offset + sym.value, sym.size);
      }
      c.globals.push_back(std::move(g));
    }
    // .nv.info attributes
    for (const Section &s : secs) {
      if (s.name.rfind(".nv.info", 0) != 0) continue;
      std::string fn = s.name.size() > 9 ? s.name.substr(9) : std::string();
      for (std::uint64_t p = 0; p + 4 <= s.size;) {
        std::uint8_t fmt = b_[s.offset + p], attr = b_[s.offset + p + 1];
        if (fmt != 4) { p += 4; continue; } // EIFMT_NVAL/BVAL/HVAL: two bytes of value
        std::uint16_t size = 0;
        get(s.offset + p + 2, size);
        std::uint64_t v = s.offset + p + 4;
        if (p + 4 + size > s.size) return bad("attribute list of '" + s.name + "'");
        std::uint32_t a = 0, b = 0, x = 0;
        if (fn.empty() && size >= 8) { // module-level: symbol index, value
          get(v, a);
          get(v + 4, b);
          std::string f = symName(a);
          if (!f.empty() && c.kernels.count(f)) {
            if (attr == kAttrRegCount) kernel(f).registers = b;
            if (attr == kAttrFrameSize) kernel(f).frameBytes = b;
            if (attr == kAttrMinStack) kernel(f).stackBytes = b;
          }
        } else if (!fn.empty() && attr == kAttrKparamInfo && size >= 12) {
          std::uint16_t ordinal = 0, offset = 0;
          get(v + 4, ordinal);
          get(v + 6, offset);
          get(v + 8, x);
          kernel(fn).params.push_back({ordinal, offset, (x >> 18) & 0x3fff});
        } else if (!fn.empty() && attr == kAttrCtaPerCluster && size >= 12) {
          for (int i = 0; i < 3; ++i) get(v + 4 * i, kernel(fn).clusterDim[i]);
        } else if (!fn.empty() && attr == kAttrParamCbank && size >= 8) {
          std::uint16_t off = 0, sz = 0;
          get(v + 4, off);
          get(v + 6, sz);
          kernel(fn).paramBase = off;
          kernel(fn).paramBytes = sz;
        }
        p += 4 + size;
      }
    }
    for (auto &[name, k] : c.kernels)
      std::sort(k.params.begin(), k.params.end(),
                [](const KernelParam &l, const KernelParam &r) { return l.ordinal < r.ordinal; });
    // Relocations into constant banks (addresses of __device__ variables)
    for (const Section &s : secs) {
      if (s.type != kRelaType || s.name.rfind(".rela.nv.constant", 0) != 0) continue;
      std::uint32_t bank = static_cast<std::uint32_t>(std::strtoul(s.name.c_str() + 17, nullptr, 10));
      for (std::uint64_t k = 0; k + 24 <= s.size; k += 24) {
        std::uint64_t off = 0, info = 0;
        std::int64_t add = 0;
        get(s.offset + k, off);
        get(s.offset + k + 8, info);
        get(s.offset + k + 16, add);
        std::uint32_t type = static_cast<std::uint32_t>(info);
        CubinAddressSlot slot{bank, static_cast<std::uint32_t>(off), symName(static_cast<std::uint32_t>(info >> 32)), add};
        if (type == kRelocAbs32Lo) slot.lo32 = true;
        else if (type == kRelocAbs32Hi) slot.hi32 = true;
        else if (type != kRelocAbs64)
          return Error::at(where_, "relocation type " + std::to_string(type) + " in '" + s.name +
                                       "' (symbol '" + slot.symbol + "') is not supported");
        c.addressSlots.push_back(std::move(slot));
      }
    }
    return c;
  }

private:
  const std::vector<std::uint8_t> &b_;
  std::string where_;
};

} // namespace

Expected<Cubin> parseCubin(const std::vector<std::uint8_t> &bytes, const std::string &where) {
  return Reader(bytes, where).parse();
}

Expected<Cubin> readCubin(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Error::at(path, "cannot open cubin");
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return parseCubin(bytes, path);
}

} // namespace warplens::sassemu
