/// \file
/// Device-side diagnostics of the SASS engine: calls to the CUDA runtime's external functions
/// (CALL.ABS.NOINC Rn with Rn holding an address the loader gave an external symbol, see
/// Program::externs) and LEPC (the return point the ABI passes). Supported callees:
///  - vprintf(format R4:R5, argument buffer R6:R7): formatted per calling lane, in lane order,
///    to stderr (WARPLENS_PRINTF=skip counts them in Exec::printfCount instead). Arguments sit
///    in the buffer at their natural alignment (4-byte int/char, 8-byte long, double, pointer).
///  - __assertfail(message R4:R5, file R6:R7, line R8, function R10:R11, char size R12): a
///    failed assert; the launch fails with the GPU's wording: "FILE:LINE: FUNCTION: block:
///    [x,y,z], thread: [x,y,z] Assertion `MESSAGE` failed." plus the pc and source line.
/// Any other external callee is reported by name.
#include "sassemu/Exec.h"

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;
using U64 = std::uint64_t;

std::mutex gPrintMutex;

U64 reg64(Exec &x, unsigned r, unsigned lane) {
  return x.w->r[r][lane] | U64(x.w->r[r + 1][lane]) << 32;
}

/// NUL-terminated string at a global (module constant) address; "(null)" or a note on failure.
std::string cString(Exec &x, U64 addr) {
  if (!addr) return "(null)";
  for (const Buffer &b : x.prog->buffers) {
    if (addr < b.base || addr >= b.base + b.size) continue;
    std::string s;
    for (U64 a = addr; a < b.base + b.size && b.data[a - b.base]; ++a) s.push_back(char(b.data[a - b.base]));
    return s;
  }
  return "(string at unmapped address)";
}

/// Bytes of the lane's argument buffer (a generic local or global address), or nullptr.
const std::uint8_t *argBytes(Exec &x, unsigned lane, U64 addr, unsigned n) {
  if (addr - kLocalWindow < kWindowSize) {
    U64 off = addr - kLocalWindow;
    if (off + n > x.prog->localBytes) return nullptr;
    return x.w->local.data() + std::size_t(lane) * x.prog->localBytes + off;
  }
  for (const Buffer &b : x.prog->buffers)
    if (addr >= b.base && addr + n <= b.base + b.size) return b.data + (addr - b.base);
  return nullptr;
}

std::string formatLane(Exec &x, unsigned lane, const std::string &fmt, U64 args) {
  std::string out;
  U64 off = 0;
  auto take = [&](unsigned n, void *dst) -> bool {
    off = (off + n - 1) / n * n;
    const std::uint8_t *p = argBytes(x, lane, args + off, n);
    if (!p) return false;
    std::memcpy(dst, p, n);
    off += n;
    return true;
  };
  for (std::size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') { out.push_back(fmt[i]); continue; }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') { out.push_back('%'); ++i; continue; }
    std::size_t j = i + 1;
    while (j < fmt.size() && std::strchr("-+ #0", fmt[j])) ++j;
    while (j < fmt.size() && (std::isdigit(static_cast<unsigned char>(fmt[j])) || fmt[j] == '.')) ++j;
    std::string len;
    while (j < fmt.size() && std::strchr("hlLqjzt", fmt[j])) len.push_back(fmt[j++]);
    if (j >= fmt.size()) { out += fmt.substr(i); break; }
    char conv = fmt[j];
    std::string spec = fmt.substr(i, j - i - len.size()); // flags, width, precision
    char buf[512];
    bool wide = len == "l" || len == "ll" || len == "j" || len == "z" || len == "t" || len == "q";
    bool ok = true;
    switch (conv) {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
      long long v = 0;
      if (wide) { std::int64_t t; ok = take(8, &t); v = t; }
      else { std::int32_t t; ok = take(4, &t); v = (conv == 'd' || conv == 'i') ? t : static_cast<long long>(static_cast<U32>(t)); }
      if (len == "h") v = (conv == 'd' || conv == 'i') ? std::int16_t(v) : std::uint16_t(v);
      if (len == "hh") v = (conv == 'd' || conv == 'i') ? std::int8_t(v) : std::uint8_t(v);
      if (conv == 'c') std::snprintf(buf, sizeof buf, (spec + "c").c_str(), int(v));
      else std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), v);
      break;
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
      double v = 0;
      ok = take(8, &v);
      std::snprintf(buf, sizeof buf, (spec + conv).c_str(), v);
      break;
    }
    case 's': {
      U64 p = 0;
      ok = take(8, &p);
      std::snprintf(buf, sizeof buf, (spec + "s").c_str(), cString(x, p).c_str());
      break;
    }
    case 'p': {
      U64 p = 0;
      ok = take(8, &p);
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(p));
      break;
    }
    default:
      std::snprintf(buf, sizeof buf, "%s", fmt.substr(i, j - i + 1).c_str());
    }
    if (!ok) return out + "<printf arguments outside the argument buffer>";
    out += buf;
    i = j;
  }
  return out;
}

/// CALL.ABS.NOINC Rn: an external callee (address from Program::externs) or an error.
void hCallAbs(Exec &x, const Instr &in, U32 m) {
  U32 lanes = m & (in.guard.kind == OpKind::None ? ~0u : x.predMask(in.guard));
  Group &g = *x.g;
  if (!lanes) { ++g.pc; return; }
  unsigned first = unsigned(std::countr_zero(lanes));
  U64 target = reg64(x, in.ops[0].index, first);
  if (target < kExternFnBase || (target - kExternFnBase) / 16 >= x.prog->externs.size()) {
    x.fail("indirect call to an address that is no external function the engine knows (function pointers are "
           "not supported), thread " + x.threadOf(first) + " block " + x.blockStr() + ", " + x.prog->where(in));
    return;
  }
  const std::string &callee = x.prog->externs[(target - kExternFnBase) / 16];
  if (callee == "vprintf") {
    static const bool skip = [] { const char *e = std::getenv("WARPLENS_PRINTF"); return e && std::string(e) == "skip"; }();
    for (unsigned l = 0; l < 32; ++l) {
      if (!(lanes >> l & 1)) continue;
      ++x.printfCount;
      if (skip) continue;
      std::string line = formatLane(x, l, cString(x, reg64(x, 4, l)), reg64(x, 6, l));
      std::lock_guard<std::mutex> lock(gPrintMutex);
      std::fwrite(line.data(), 1, line.size(), stderr);
    }
    for (unsigned l = 0; l < 32; ++l)
      if (lanes >> l & 1) x.w->r[4][l] = 0;
    ++g.pc;
    return;
  }
  if (callee == "__assertfail") {
    std::string msg = cString(x, reg64(x, 4, first)), file = cString(x, reg64(x, 6, first));
    std::string fn = cString(x, reg64(x, 10, first));
    U32 line = x.w->r[8][first];
    x.fail(file + ":" + std::to_string(line) + ": " + fn + ": block: [" + std::to_string(x.block[0]) + "," +
           std::to_string(x.block[1]) + "," + std::to_string(x.block[2]) + "], thread: " + [&] {
             std::string t = x.threadOf(first);
             t.front() = '[', t.back() = ']';
             return t;
           }() + " Assertion `" + msg + "` failed. (" + x.prog->where(in) + ")");
    return;
  }
  x.fail("call to the external function '" + callee + "' is not supported (vprintf and __assertfail are), " +
         x.prog->where(in));
}

/// LEPC Rd, label: the label's address (function-relative byte pc) into Rd:Rd+1.
void hLepc(Exec &x, const Instr &in, U32 m) {
  U64 v[32];
  for (int l = 0; l < 32; ++l) v[l] = in.ops[1].imm;
  x.write64(in.ops[0], m, v);
}

} // namespace

std::string selectDiag(Instr &in) {
  if (in.base == "LEPC") {
    if (in.ops.size() != 2 || in.ops[1].kind != OpKind::Label) return "LEPC form not supported";
    in.fn = hLepc;
    return {};
  }
  if (in.base == "CALL" && !in.ops.empty() && in.ops[0].kind == OpKind::Reg && in.ops[0].index != kRZ) {
    in.control = true;
    in.fn = hCallAbs;
    return {};
  }
  return "not a diagnostics opcode";
}

} // namespace warplens::sassemu
