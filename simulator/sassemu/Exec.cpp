/// \file
/// Out-of-line parts of Exec (Exec.h): special registers, constant-bank reads, address
/// resolution over the global/shared/local windows and compute-sanitizer-style error messages.
#include "sassemu/Exec.h"

#include <algorithm>

namespace warplens::sassemu {
namespace {

std::string hex(std::uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

const char *spaceName(model::Space s) {
  switch (s) {
  case model::Space::Shared: return "__shared__";
  case model::Space::Local: return "__local__";
  default: return "__global__";
  }
}

} // namespace

std::string Exec::threadOf(unsigned lane) const {
  std::uint32_t t = w->index * 32 + lane;
  std::uint32_t x = t % blockDim[0], y = (t / blockDim[0]) % blockDim[1], z = t / (blockDim[0] * blockDim[1]);
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

std::string Exec::blockStr() const {
  return "(" + std::to_string(block[0]) + "," + std::to_string(block[1]) + "," + std::to_string(block[2]) + ")";
}

std::uint32_t Exec::sreg(SReg id, unsigned lane) const {
  std::uint32_t t = w->index * 32 + lane;
  switch (id) {
  case SReg::TidX: return t % blockDim[0];
  case SReg::TidY: return (t / blockDim[0]) % blockDim[1];
  case SReg::TidZ: return t / (blockDim[0] * blockDim[1]);
  case SReg::ThreadId: return (t % blockDim[0]) | ((t / blockDim[0]) % blockDim[1]) << 16 | (t / (blockDim[0] * blockDim[1])) << 26;
  case SReg::CtaidX: return block[0];
  case SReg::CtaidY: return block[1];
  case SReg::CtaidZ: return block[2];
  case SReg::LaneId: return lane;
  case SReg::WarpId: return w->index;
  case SReg::SwinHi: return static_cast<std::uint32_t>(kSharedWindowHi);
  case SReg::EqMask: return 1u << lane;
  case SReg::LtMask: return (1u << lane) - 1;
  case SReg::LeMask: return lane == 31 ? ~0u : (2u << lane) - 1;
  case SReg::GtMask: return lane == 31 ? 0u : ~((2u << lane) - 1);
  case SReg::GeMask: return ~((1u << lane) - 1);
  case SReg::CgaCtaId: return clusterRank;
  default: return 0; // clocks, SM ids: 0
  }
}

std::uint32_t Exec::constRead32(std::uint32_t bank, std::int64_t off, const Instr &in) {
  const std::vector<std::uint8_t> *b = bank < 6 ? &prog->cbank[bank] : nullptr;
  if (!b || off < 0 || std::uint64_t(off) + 4 > b->size()) {
    fail("read of c[" + hex(bank) + "][" + hex(static_cast<std::uint64_t>(off)) + "] outside the constant bank (" +
         std::to_string(b ? b->size() : 0) + " bytes) in " + prog->where(in));
    return 0;
  }
  std::uint32_t v;
  std::memcpy(&v, b->data() + off, 4);
  return v;
}

void Exec::outOfBounds(const Instr &in, unsigned lane, model::Space space, std::uint64_t addr, unsigned bytes,
                       const char *why) {
  std::string msg = std::string(why ? why : "Invalid ") + spaceName(space) + " " +
                    (in.memOp == model::Op::Store ? "write" : in.memOp == model::Op::Load ? "read" : "atomic") +
                    " of size " + std::to_string(bytes) + " bytes at " + hex(addr);
  if (!why) {
    if (space == model::Space::Global) {
      const Buffer *near = nullptr;
      std::uint64_t best = ~0ull;
      for (const Buffer &b : prog->buffers) {
        std::uint64_t d = addr < b.base ? b.base - addr : (addr >= b.base + b.size ? addr - (b.base + b.size) + 1 : 0);
        if (d < best) best = d, near = &b;
      }
      if (near) {
        msg += addr < near->base ? " (" + std::to_string(near->base - addr) + " bytes before"
                                 : " (" + std::to_string(addr - near->base - near->size) + " bytes after the end of";
        msg += " the nearest buffer '" + near->name + "' [" + hex(near->base) + ", " + hex(near->base + near->size) +
               "), " + std::to_string(near->size) + " bytes)";
      }
    } else if (space == model::Space::Shared) {
      msg += " (shared memory of the block is " + std::to_string(prog->sharedBytes - kSharedReserved) +
             " bytes from " + hex(kSharedReserved) + ")";
    } else {
      msg += " (local memory per thread is " + std::to_string(prog->localBytes) + " bytes)";
    }
  }
  msg += ", thread " + threadOf(lane) + " block " + blockStr() + ", " + prog->where(in);
  fail(std::move(msg));
}

const Buffer *Program::bufferAt(std::uint64_t a) const {
  auto it = std::upper_bound(buffers.begin(), buffers.end(), a,
                             [](std::uint64_t v, const Buffer &buf) { return v < buf.base; });
  return it != buffers.begin() && a - (it - 1)->base < (it - 1)->size ? &*(it - 1) : nullptr;
}

std::uint8_t *Exec::resolve(const Instr &in, unsigned l, std::uint64_t a, unsigned n, model::Space &space,
                            std::uint64_t &ev) {
  using model::Space;
  const bool generic = space == Space::Generic;
  if (space == Space::Generic) {
    if ((a >> 32) == kSharedWindowHi) space = Space::Shared, a &= 0xffffffffu;
    else if (a - kLocalWindow < kWindowSize) space = Space::Local, a -= kLocalWindow;
    else space = Space::Global;
  }
  if (a & (n - 1)) {
    outOfBounds(in, l, space, a, n, "Misaligned ");
    return nullptr;
  }
  switch (space) {
  case Space::Shared: {
    a &= 0xffffffffu;
    std::uint8_t *base = shared;
    if (cluster) { // bits 24.. hold a block's rank in its cluster (ClusterOps.cpp)
      dsmem = false;
      if (generic) { // shared::cluster through the generic window: that block's shared memory
        if ((a >> 24) >= cluster->size) { outOfBounds(in, l, space, a, n, "Invalid distributed "); return nullptr; }
        base = cluster->shared[a >> 24];
        dsmem = (a >> 24) != clusterRank;
      }
      a &= 0xffffffu; // shared::cta instructions (LDS, STS, ...) address the block's own
    }
    if (a < kSharedReserved || a + n > prog->sharedBytes) { outOfBounds(in, l, space, a, n, nullptr); return nullptr; }
    ev = a - kSharedReserved;
    return base + a;
  }
  case Space::Local:
    a &= 0xffffffffu;
    if (a + n > prog->localBytes) { outOfBounds(in, l, space, a, n, nullptr); return nullptr; }
    ev = a;
    return w->local.data() + std::size_t(l) * prog->localBytes + a;
  default: {
    ev = a;
    const Buffer *b = lastBuf;
    if (b && a - b->base < b->size && a - b->base + n <= b->size) return b->data + (a - b->base);
    if (const Buffer *f = prog->bufferAt(a); f && a - f->base + n <= f->size) {
      lastBuf = f;
      return f->data + (a - f->base);
    }
    outOfBounds(in, l, Space::Global, a, n, nullptr);
    return nullptr;
  }
  }
}

} // namespace warplens::sassemu
