/// \file
/// Execution state of the SASS engine for one worker: the program (decoded instructions, constant
/// banks, buffers), the current warp (R/UR/P/UP/B registers in lane-contiguous layout, SIMT groups
/// of lanes per pc) and its block (shared memory). Operand fetch and write helpers used by every
/// opcode family live here. Does not model timing, scoreboards or the order of independent warps.
#pragma once

#include "sassemu/Instr.h"
#include "model/AccessEvent.h"
#include "launch/LaunchSpec.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace warplens::sassemu {

constexpr std::uint32_t kSharedReserved = 0x400;   ///< sm_90: first 1 KiB of the shared window
constexpr std::uint64_t kSharedWindowHi = 0x100;   ///< SR_SWINHI: generic shared = hi<<32 | addr
constexpr std::uint64_t kLocalWindow = 0x0000020000000000ull; ///< c[0x0][0x20]: generic local base
constexpr std::uint64_t kWindowSize = 0x0000000100000000ull;
/// Addresses the loader gives external functions (vprintf, __assertfail) named in constant
/// bank slots: kExternFnBase + 16 * index into Program::externs (DiagOps.cpp calls them).
constexpr std::uint64_t kExternFnBase = 0xfff0000000000000ull;
/// Generic addresses of the kernel parameters (c[0x0] offset + kParamWindow): sm_90 code finds a
/// __grid_constant__ tensor map there from c[0x0][0x198] (AsyncOps.cpp, TMA).
constexpr std::uint64_t kParamWindow = 0x0000030000000000ull;

struct Buffer {
  std::string name;
  std::uint64_t base = 0, size = 0;
  std::uint8_t *data = nullptr;
};

struct Program {
  std::vector<Instr> code;                  ///< indexed by pc / 16; holes have fn == nullptr
  std::vector<std::uint8_t> cbank[6];       ///< constant banks 0..5 (0: launch + parameters)
  std::vector<Buffer> buffers;              ///< sorted by base
  std::vector<std::vector<std::uint8_t>> moduleGlobals;
  std::vector<std::string> externs;         ///< external functions (kExternFnBase + 16 * i)
  std::uint32_t sharedBytes = 0;            ///< reserved + static + dynamic
  std::uint32_t localBytes = 0;             ///< per thread
  std::uint32_t maxReg = 0;                 ///< highest R index used (+1)
  bool sliced = false;                      ///< address-only mode skips or moves no data (Slice.h)
  /// Serialises global/generic atomics of concurrently running blocks (worker threads).
  mutable std::mutex atomicMutex;
  std::string path;                         ///< listing / cubin path for messages
  std::string kernel;
  std::string where(const Instr &in) const; ///< "pc 0x01a0 `LDS R0, [R0] ;`, source x.cu:12"
  /// The buffer whose bytes include address `a`, or nullptr.
  const Buffer *bufferAt(std::uint64_t a) const;
};

enum class GroupState : std::uint8_t { Run, BsyncWait, WarpsyncWait, BlockBarrier };

struct Group {
  std::uint32_t pc = 0;   ///< instruction index
  std::uint32_t mask = 0;
  GroupState state = GroupState::Run;
  std::uint32_t need = 0; ///< WarpsyncWait: lanes required; BsyncWait: barrier number
};

struct Warp {
  std::uint32_t index = 0;
  std::uint32_t cgaArrivals = 0; ///< cluster-barrier arrivals (ClusterOps.cpp)
  std::uint32_t exited = 0;
  std::uint32_t launched = 0; ///< lanes that exist (partial last warp)
  std::vector<Group> groups;
  bool done = false;
  std::uint64_t executed = 0; ///< warp instructions of the current block (Engine.cpp: per-block counts)
  alignas(64) std::uint32_t r[256][32];
  std::uint32_t ur[64];
  std::uint32_t p[8];
  std::uint8_t up[8];
  std::uint32_t b[16];
  std::vector<std::uint8_t> local;          ///< 32 × localBytes
};

/// The blocks of one thread block cluster, run together by one worker (Engine.cpp runClusters,
/// ClusterOps.cpp): per block rank its shared memory and warps.
struct ClusterState {
  std::uint32_t size = 1;
  std::vector<std::uint8_t *> shared;   ///< by rank
  std::vector<Warp *> warps;            ///< by rank: nWarps warps
  std::uint32_t nWarps = 0;
  std::uint64_t spins = 0;              ///< failed cluster-barrier waits in a row
};

struct Exec {
  const Program *prog = nullptr;
  Warp *w = nullptr;
  Group *g = nullptr;            ///< the executing group
  std::uint8_t *shared = nullptr;
  model::AccessListener *listener = nullptr;
  model::AccessEvent event;
  std::uint32_t blockLinear = 0;
  std::uint32_t block[3] = {0, 0, 0};
  std::uint32_t blockDim[3] = {1, 1, 1};
  bool stop = false;
  bool failed = false;
  bool regroup = false;          ///< a control instruction changed the groups
  std::string error;
  const Buffer *lastBuf = nullptr;
  std::uint64_t printfCount = 0;
  bool yield = false;            ///< a wait did not succeed: let the block's other warps run
  std::uint64_t spins = 0;       ///< failed mbarrier waits since a phase last completed
  std::vector<std::pair<std::uint32_t, std::int64_t>> mbarTx; ///< mbarrier transaction counts (AsyncOps.cpp)
  std::uint32_t mbarBlock = ~0u; ///< the block mbarTx belongs to
  std::vector<std::uint64_t> mbarWaits; ///< warp << 32 | pc of mbarrier try_waits under way
  /// BAR.RED (WarpOps.cpp): per warp of the block the number of reductions it joined, and per
  /// reduction {op, true lanes, lanes}; B2R.RESULT reads its warp's latest.
  std::vector<std::uint32_t> barRedGen;
  std::vector<std::array<std::uint32_t, 3>> barRedAcc;
  std::uint32_t barRedBlock = ~0u;
  ClusterState *cluster = nullptr; ///< the block's cluster, or nullptr outside cluster launches
  std::uint32_t clusterRank = 0;   ///< SR_CgaCtaId
  bool dsmem = false;              ///< resolve(): the shared address was another block's (cluster launches)

  void fail(std::string message) {
    if (!failed) failed = true, error = std::move(message);
    stop = true;
  }
  std::string threadOf(unsigned lane) const;
  std::string blockStr() const;

  // ---- operand access -------------------------------------------------------------------------
  std::uint32_t sreg(SReg id, unsigned lane) const;
  std::uint32_t constRead32(std::uint32_t bank, std::int64_t off, const Instr &in);
  /// Raw 32-bit value of `o` for the lanes in `mask` (no modifiers applied).
  void fetch(const Operand &o, std::uint32_t mask, std::uint32_t *out, const Instr &in) {
    switch (o.kind) {
    case OpKind::Reg:
      if (o.index == kRZ) std::memset(out, 0, 128);
      else std::memcpy(out, w->r[o.index], 128);
      return;
    case OpKind::UReg: {
      std::uint32_t v = o.index == kURZ ? 0 : w->ur[o.index];
      for (int l = 0; l < 32; ++l) out[l] = v;
      return;
    }
    case OpKind::Imm:
      for (int l = 0; l < 32; ++l) out[l] = static_cast<std::uint32_t>(o.imm);
      return;
    case OpKind::FImm: {
      float f = static_cast<float>(o.fimm);
      std::uint32_t v = std::bit_cast<std::uint32_t>(f);
      for (int l = 0; l < 32; ++l) out[l] = v;
      return;
    }
    case OpKind::Const:
      if (o.idxKind == OpKind::Reg) {
        for (int l = 0; l < 32; ++l)
          out[l] = (mask >> l & 1) ? constRead32(o.bank, o.off + (o.idx == kRZ ? 0 : w->r[o.idx][l]), in) : 0;
      } else {
        std::int64_t idx = o.idxKind == OpKind::UReg && o.idx != kURZ ? w->ur[o.idx] : 0;
        std::uint32_t v = constRead32(o.bank, o.off + idx, in);
        for (int l = 0; l < 32; ++l) out[l] = v;
      }
      return;
    case OpKind::SReg:
      for (unsigned l = 0; l < 32; ++l) out[l] = sreg(static_cast<SReg>(o.index), l);
      return;
    case OpKind::Pred: {
      std::uint32_t m = predMask(o);
      for (int l = 0; l < 32; ++l) out[l] = m >> l & 1;
      return;
    }
    case OpKind::UPred: {
      std::uint32_t v = predMask(o) & 1;
      for (int l = 0; l < 32; ++l) out[l] = v;
      return;
    }
    default:
      std::memset(out, 0, 128);
      fail("operand kind not readable in " + prog->where(in));
    }
  }
  /// Integer view: `-R` negates (two's complement), `~R`/`!R` inverts.
  void fetchI(const Operand &o, std::uint32_t mask, std::uint32_t *out, const Instr &in) {
    fetch(o, mask, out, in);
    if (o.neg) for (int l = 0; l < 32; ++l) out[l] = 0u - out[l];
    if (o.notp) for (int l = 0; l < 32; ++l) out[l] = ~out[l];
  }
  /// f32 view: `|R|` clears and `-R` flips the sign bit.
  void fetchF(const Operand &o, std::uint32_t mask, std::uint32_t *out, const Instr &in) {
    fetch(o, mask, out, in);
    if (o.abs) for (int l = 0; l < 32; ++l) out[l] &= 0x7fffffffu;
    if (o.neg) for (int l = 0; l < 32; ++l) out[l] ^= 0x80000000u;
  }
  /// 64-bit value: register pair, uniform pair, constant (8 bytes), or immediate. `asDouble`
  /// makes a floating immediate a double and applies |x| / -x to the sign bit.
  void fetch64(const Operand &o, std::uint32_t mask, std::uint64_t *out, const Instr &in, bool asDouble) {
    if (o.kind == OpKind::Reg) {
      if (o.index == kRZ) for (int l = 0; l < 32; ++l) out[l] = 0;
      else for (int l = 0; l < 32; ++l) out[l] = w->r[o.index][l] | std::uint64_t(w->r[(o.index + 1) & 255][l]) << 32;
    } else if (o.kind == OpKind::UReg) {
      std::uint64_t v = o.index == kURZ ? 0 : (w->ur[o.index] | std::uint64_t(w->ur[(o.index + 1) & 63]) << 32);
      for (int l = 0; l < 32; ++l) out[l] = v;
    } else if (o.kind == OpKind::FImm) {
      std::uint64_t v = asDouble ? std::bit_cast<std::uint64_t>(o.fimm) : std::bit_cast<std::uint32_t>(static_cast<float>(o.fimm));
      for (int l = 0; l < 32; ++l) out[l] = v;
    } else if (o.kind == OpKind::Imm) {
      std::uint64_t v = asDouble ? o.imm << 32 : o.imm;
      for (int l = 0; l < 32; ++l) out[l] = v;
    } else if (o.kind == OpKind::Const) {
      std::uint32_t lo[32], hi[32];
      Operand h = o;
      h.off += 4;
      fetch(o, mask, lo, in);
      fetch(h, mask, hi, in);
      for (int l = 0; l < 32; ++l) out[l] = lo[l] | std::uint64_t(hi[l]) << 32;
    } else {
      std::uint32_t lo[32];
      fetch(o, mask, lo, in);
      for (int l = 0; l < 32; ++l) out[l] = lo[l];
    }
    if (asDouble) {
      if (o.abs) for (int l = 0; l < 32; ++l) out[l] &= ~(1ull << 63);
      if (o.neg) for (int l = 0; l < 32; ++l) out[l] ^= 1ull << 63;
    } else if (o.neg) {
      for (int l = 0; l < 32; ++l) out[l] = 0 - out[l];
    }
  }
  /// Lanes for which predicate operand `o` holds (PT = all, !P inverts; UP = all or none).
  std::uint32_t predMask(const Operand &o) const {
    std::uint32_t m;
    if (o.kind == OpKind::Pred) m = o.index == kPT ? ~0u : w->p[o.index];
    else if (o.kind == OpKind::UPred) m = (o.index == kPT || w->up[o.index]) ? ~0u : 0u;
    else m = ~0u;
    return o.notp ? ~m : m;
  }
  void write(const Operand &d, std::uint32_t mask, const std::uint32_t *v) {
    if (d.kind == OpKind::Reg) {
      if (d.index == kRZ) return;
      std::uint32_t *r = w->r[d.index];
      if (mask == ~0u) std::memcpy(r, v, 128);
      else for (int l = 0; l < 32; ++l) if (mask >> l & 1) r[l] = v[l];
    } else if (d.kind == OpKind::UReg) {
      if (d.index != kURZ && mask) w->ur[d.index] = v[std::countr_zero(mask)];
    }
  }
  void write64(const Operand &d, std::uint32_t mask, const std::uint64_t *v) {
    if (d.kind == OpKind::Reg) {
      if (d.index == kRZ) return;
      std::uint32_t *lo = w->r[d.index], *hi = w->r[(d.index + 1) & 255];
      for (int l = 0; l < 32; ++l)
        if (mask >> l & 1) lo[l] = static_cast<std::uint32_t>(v[l]), hi[l] = static_cast<std::uint32_t>(v[l] >> 32);
    } else if (d.kind == OpKind::UReg) {
      if (d.index == kURZ || !mask) return;
      std::uint64_t x = v[std::countr_zero(mask)];
      w->ur[d.index] = static_cast<std::uint32_t>(x);
      w->ur[(d.index + 1) & 63] = static_cast<std::uint32_t>(x >> 32);
    }
  }
  /// Writes predicate `d` for `mask` lanes from the bits of `v` (PT/UPT discard).
  void writePred(const Operand &d, std::uint32_t mask, std::uint32_t v) {
    if (d.index == kPT) return;
    if (d.kind == OpKind::Pred) w->p[d.index] = (w->p[d.index] & ~mask) | (v & mask);
    else if (d.kind == OpKind::UPred && mask) w->up[d.index] = (v >> std::countr_zero(mask)) & 1;
  }

  // ---- memory ---------------------------------------------------------------------------------
  /// Host pointer for lane `l`'s access, or nullptr after fail() with a compute-sanitizer-style
  /// message. `space` may be Generic: it is resolved and updated.
  std::uint8_t *resolve(const Instr &in, unsigned l, std::uint64_t addr, unsigned bytes,
                        model::Space &space, std::uint64_t &eventAddr);
  void outOfBounds(const Instr &in, unsigned lane, model::Space space, std::uint64_t addr,
                   unsigned bytes, const char *why);
};

/// Lanes' byte address of memory operand `o` (register or uniform base, uniform addend, offset).
inline void addressOf(Exec &x, const Operand &o, std::uint64_t *out) {
  std::uint64_t add = static_cast<std::uint64_t>(o.off);
  if (o.hasUidx && o.uidx != kURZ) add += x.w->ur[o.uidx];
  if (o.idxKind == OpKind::Reg && o.idx != kRZ) {
    const std::uint32_t *lo = x.w->r[o.idx], *hi = x.w->r[(o.idx + 1) & 255];
    if (o.idxWide) for (int l = 0; l < 32; ++l) out[l] = (lo[l] | std::uint64_t(hi[l]) << 32) + add;
    else for (int l = 0; l < 32; ++l) out[l] = std::uint64_t(lo[l]) * o.idxScale + add;
  } else if (o.idxKind == OpKind::UReg && o.idx != kURZ) {
    std::uint64_t b = o.idxWide ? (x.w->ur[o.idx] | std::uint64_t(x.w->ur[(o.idx + 1) & 63]) << 32)
                                : std::uint64_t(x.w->ur[o.idx]) * o.idxScale;
    for (int l = 0; l < 32; ++l) out[l] = b + add;
  } else {
    for (int l = 0; l < 32; ++l) out[l] = add;
  }
}

/// Opcode families (one file each). Each selector sets in.fn (and pre-decoded fields) for the
/// opcodes it owns, or returns an error message naming the unsupported modifier.
std::string selectInt(Instr &in);
std::string selectFloat(Instr &in);
std::string selectDouble(Instr &in);
std::string selectConvert(Instr &in);
std::string selectMove(Instr &in);
std::string selectMemory(Instr &in);
std::string selectControl(Instr &in);
std::string selectAsync(Instr &in);       ///< AsyncOps.cpp: LDGSTS, LDGDEPBAR, SYNCS, ARRIVES
std::string selectWarp(Instr &in);        ///< WarpOps.cpp: REDUX, MATCH, ENDCOLLECTIVE
std::string selectWarpControl(Instr &in); ///< WarpOps.cpp: BRA.DIV, WARPSYNC.COLLECTIVE
std::string selectTensor(Instr &in);      ///< TensorOps.cpp: HMMA, LDSM, MOVM, F2FP
std::string selectDiag(Instr &in);        ///< DiagOps.cpp: CALL.ABS (vprintf, __assertfail), LEPC
std::string selectCluster(Instr &in);     ///< ClusterOps.cpp: UCGABAR_ARV, UCGABAR_WAIT
/// The 128-byte tensor-map parameter of a launch spec "tensor_map" argument over the buffer at
/// `base` (AsyncOps.cpp); an error message, or empty.
std::string encodeTensorMap(const launch::ArgSpec &a, std::uint64_t base, std::uint8_t *dst, std::size_t room);

/// The family selector for a base opcode, or nullptr (OpTable.cpp).
using Selector = std::string (*)(Instr &in);
Selector selectorFor(const std::string &base);

/// True if `in` has modifier `m`.
inline bool hasMod(const Instr &in, const char *m) {
  for (const auto &s : in.mods)
    if (s == m) return true;
  return false;
}

} // namespace warplens::sassemu
