/// \file
/// Asynchronous-copy and mbarrier family of the SASS engine (sm_80/sm_90): LDGSTS (cp.async),
/// LDGDEPBAR (cp.async.commit_group), SYNCS.EXCH.64 (mbarrier.init), SYNCS.ARRIVE.TRANS64
/// (mbarrier.arrive, .expect_tx, the A0T1/A1T0 forms cuda::memcpy_async uses),
/// SYNCS.PHASECHK.TRANS64[.TRYWAIT] (test_wait / try_wait, token or parity) and
/// ARRIVES.LDGSTSBAR.64[.TRANSCNT] (cp.async.mbarrier.arrive).
///
/// Model: an LDGSTS copies its bytes when it executes (the engine has no latency), so every
/// commit/wait (LDGDEPBAR, DEPBAR) is already satisfied; a program that reads the destination
/// before waiting is racy on the GPU and reads the new value here. Each LDGSTS emits two events
/// with its own site: the global read (counted as the execution: sectors, requests) and a
/// companion shared write (wavefronts only; AccessEvent::companion).
///
/// mbarrier: the 64-bit word in shared memory holds, as the compiler's own init value shows
/// (lo = (2^20 - count) << 1, hi = (2^20 - count) << 11), the pending-arrival field in lo bits
/// 1..20 counting up to 2^20, the expected count in hi bits 11..30, and the phase in hi bit 31
/// (the bit a parity wait passes in its register, `parity << 31`). An arrival adds one to the
/// pending field per active lane; when it reaches 2^20 and the transaction count is 0 the phase
/// completes: the phase bit flips and pending restarts at the expected count. Transaction counts
/// (A0T1 +1, .TRANSCNT -1, expect_tx +R) live beside the word (Exec::mbarTx). A wait that does
/// not succeed yields the warp (Exec::yield) so the block's other warps can arrive.
///
/// Hopper TMA (sm_90): UBLKCP.S.G (cp.async.bulk global -> shared::cluster, completing its bytes
/// on an mbarrier), UBLKCP.G.S (cp.async.bulk shared -> global, bulk_group), UTMALDG.nD / UTMASTG.nD
/// (cp.async.bulk.tensor tile mode through a tensor map), ELECT and UTMACMDFLUSH. Like LDGSTS they
/// copy when they execute; the commit / wait of a bulk group (DEPBAR.LE SB0) is satisfied at once.
/// Operands as ptxas writes them: the shared address in a uniform register with the mbarrier
/// address in the next one, the byte count in 16-byte units, tensor coordinates in the uniform
/// registers after the shared (load: after the mbarrier) register, and the tensor map's generic
/// address, which points into the kernel's parameters (c[0x0][0x198] holds the generic address of
/// the parameter area, c[0x0][0x210]; the engine lays out its own tensor-map descriptor in the
/// parameter, see encodeTensorMap).
#include "sassemu/Exec.h"
#include "launch/LaunchSpec.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace warplens::sassemu {
namespace {

using U32 = std::uint32_t;
using U64 = std::uint64_t;

constexpr U32 kPendingDone = 1u << 20;
constexpr U64 kSpinLimit = 2000000; ///< failed waits in a row before a deadlock is reported

enum Sub : U32 { kInit, kArrive, kPhaseChk, kLdgstsBar };

/// Resolves one lane's shared address (fails on out-of-bounds like any shared access).
std::uint8_t *sharedPtr(Exec &x, const Instr &in, unsigned lane, U64 addr, unsigned bytes) {
  model::Space sp = model::Space::Shared;
  U64 ev = 0;
  return x.resolve(in, lane, addr, bytes, sp, ev);
}

/// mbarrier instructions execute as shared-memory instructions with no wavefronts (H100 SASS
/// metrics: executed counted, 0 wavefronts): one event with no active lanes.
void emitSync(Exec &x, const Instr &in) {
  model::AccessEvent &e = x.event;
  e.site = in.site;
  e.space = model::Space::Shared;
  e.op = model::Op::Atomic;
  e.widthBytes = in.width;
  e.active = LaneMask{0u};
  e.block = x.blockLinear;
  e.warp = x.w->index;
  e.skipped = false;
  e.companion = false;
  e.laneSerial = false;
  e.minWavefronts = 0;
  if (x.listener) x.listener->onAccess(e);
}

std::int64_t &txOf(Exec &x, U32 offset) {
  if (x.mbarBlock != x.blockLinear) x.mbarTx.clear(), x.mbarWaits.clear(), x.mbarBlock = x.blockLinear;
  for (auto &[off, tx] : x.mbarTx)
    if (off == offset) return tx;
  x.mbarTx.emplace_back(offset, 0);
  return x.mbarTx.back().second;
}

/// Completes the phase if every arrival is in and no transaction is outstanding.
void maybeComplete(Exec &x, std::uint8_t *p, U32 offset) {
  U32 lo, hi;
  std::memcpy(&lo, p, 4);
  std::memcpy(&hi, p + 4, 4);
  U32 pending = (lo >> 1) & 0x1fffff;
  if (pending < kPendingDone || txOf(x, offset) != 0) return;
  U32 expected = (hi >> 11) & 0xfffff;
  lo = (lo & ~(0x1fffffu << 1)) | expected << 1;
  hi ^= 0x80000000u;
  std::memcpy(p, &lo, 4);
  std::memcpy(p + 4, &hi, 4);
  x.spins = 0;
}

/// SYNCS.ARRIVE.TRANS64[.RED][.A1T0|.A0T1] Rd, [addr], Rtx: per active lane, in lane order,
/// `arrivals` arrivals and a transaction-count change; Rd:Rd+1 receive the word before it.
void hArrive(Exec &x, const Instr &in, U32 m) {
  emitSync(x, in);
  const Operand &d = in.ops[0], &mem = in.ops[1];
  U64 addr[32];
  addressOf(x, mem, addr);
  U32 tx[32] = {};
  if (in.ops.size() > 2) x.fetch(in.ops[2], m, tx, in);
  U32 arrivals = in.flags & 1 ? 0 : 1;
  std::int64_t txInc = (in.flags & 2) ? 1 : 0;
  U64 old[32] = {};
  // .RED is the shared::cluster form (mbarrier.arrive...shared::cluster.b64 _, [a]; ptxas gives
  // shared::cta arrivals without it): in a cluster launch the address's rank bits pick the
  // block whose mbarrier receives the arrival (the remote arrive of cluster_remote_arrive_4).
  const bool clusterAddr = (in.flags & 4) && x.cluster;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    std::uint8_t *p = nullptr;
    if (clusterAddr) {
      model::Space sp = model::Space::Generic;
      U64 ev = 0;
      p = x.resolve(in, l, kSharedWindowHi << 32 | (addr[l] & 0xffffffffu), 8, sp, ev);
    } else {
      p = sharedPtr(x, in, l, addr[l], 8);
    }
    if (!p) return;
    std::memcpy(&old[l], p, 8);
    U32 off = static_cast<U32>(addr[l]);
    txOf(x, off) += txInc + static_cast<std::int32_t>(tx[l]);
    U32 lo;
    std::memcpy(&lo, p, 4);
    U32 pending = ((lo >> 1) & 0x1fffff) + arrivals;
    lo = (lo & ~(0x1fffffu << 1)) | (pending & 0x1fffff) << 1;
    std::memcpy(p, &lo, 4);
    maybeComplete(x, p, off);
  }
  x.write64(d, m, old);
}

/// ARRIVES.LDGSTSBAR.64[.TRANSCNT] [addr]: the lane's earlier LDGSTS are complete (they are, at
/// once): .TRANSCNT takes one transaction off, the plain form counts as an arrival.
void hLdgstsBar(Exec &x, const Instr &in, U32 m) {
  emitSync(x, in);
  U64 addr[32];
  addressOf(x, in.ops[0], addr);
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    std::uint8_t *p = sharedPtr(x, in, l, addr[l], 8);
    if (!p) return;
    U32 off = static_cast<U32>(addr[l]);
    if (in.flags & 1) {
      txOf(x, off) -= 1;
    } else {
      U32 lo;
      std::memcpy(&lo, p, 4);
      U32 pending = ((lo >> 1) & 0x1fffff) + 1;
      lo = (lo & ~(0x1fffffu << 1)) | (pending & 0x1fffff) << 1;
      std::memcpy(p, &lo, 4);
    }
    maybeComplete(x, p, off);
  }
}

/// SYNCS.EXCH.64 Rd|URZ, [addr], Rs|URs: mbarrier.init (the word written whole).
void hExch(Exec &x, const Instr &in, U32 m) {
  emitSync(x, in);
  U64 addr[32], v[32];
  addressOf(x, in.ops[1], addr);
  x.fetch64(in.ops[2], m, v, in, false);
  U64 old[32] = {};
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    std::uint8_t *p = sharedPtr(x, in, l, addr[l], 8);
    if (!p) return;
    std::memcpy(&old[l], p, 8);
    std::memcpy(p, &v[l], 8);
    txOf(x, static_cast<U32>(addr[l])) = 0;
  }
  x.write64(in.ops[0], m, old);
}

/// SYNCS.PHASECHK.TRANS64[.TRYWAIT] Pd, [addr], Rphase: true where the phase whose parity is
/// bit 31 of Rphase (a token's high word, or parity << 31) has completed. Returns the lanes done.
U32 phaseDone(Exec &x, const Instr &in, U32 m) {
  U64 addr[32];
  addressOf(x, in.ops[1], addr);
  U32 ph[32];
  x.fetch(in.ops[2], m, ph, in);
  U32 done = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    std::uint8_t *p = sharedPtr(x, in, l, addr[l], 8);
    if (!p) return 0;
    U32 hi;
    std::memcpy(&hi, p + 4, 4);
    if ((hi >> 31) != (ph[l] >> 31)) done |= 1u << l;
  }
  return done;
}

void spin(Exec &x, const Instr &in, U32 waiting) {
  x.yield = true;
  if (++x.spins > kSpinLimit) {
    unsigned l = unsigned(std::countr_zero(waiting));
    x.fail("mbarrier wait never completes (every warp of the block waits; deadlock) by thread " + x.threadOf(l) +
           " block " + x.blockStr() + ", " + x.prog->where(in));
  }
}

/// test_wait (no .TRYWAIT): answers at once; a warp that is not done yields before going on.
void hPhaseChk(Exec &x, const Instr &in, U32 m) {
  emitSync(x, in);
  U32 done = phaseDone(x, in, m);
  x.writePred(in.ops[0], m, done);
  if ((done & m) != m) spin(x, in, m & ~done);
}

/// try_wait (.TRYWAIT, a control instruction here): the hardware suspends the warp until the
/// phase completes (up to a time limit the engine does not model), so the spin loop ptxas puts
/// behind it is not entered: the warp stays on this instruction, yielding, and the instruction
/// counts one execution.
void hTryWait(Exec &x, const Instr &in, U32 m) {
  U32 lanes = m & (in.guard.kind == OpKind::None ? ~0u : x.predMask(in.guard));
  if (x.mbarBlock != x.blockLinear) x.mbarTx.clear(), x.mbarWaits.clear(), x.mbarBlock = x.blockLinear;
  std::uint64_t key = std::uint64_t(x.w->index) << 32 | x.g->pc;
  auto it = std::find(x.mbarWaits.begin(), x.mbarWaits.end(), key);
  bool again = it != x.mbarWaits.end();
  U32 done = lanes ? phaseDone(x, in, lanes) : 0;
  if (x.failed) return;
  if ((done & lanes) != lanes) {
    if (!again) emitSync(x, in), x.mbarWaits.push_back(key);
    spin(x, in, lanes & ~done);
    return; // the pc stays: the warp retries this instruction when it runs again
  }
  if (again) x.mbarWaits.erase(it);
  else emitSync(x, in);
  x.writePred(in.ops[0], lanes, done);
  ++x.g->pc;
}

/// LDGSTS[.E][.BYPASS][.LTC128B][.64|.128][.ZFILL] [shared], [global][, [!]Pv]: cp.async of 4, 8 or
/// 16 bytes. Pv (the ignore-src operand, inverted: ptxas passes "source valid"): lanes where it is
/// false read nothing and write zeros. .ZFILL (cp.async with src-size < cp-size): ptxas adds the
/// number of bytes to zero-fill, cp-size - src-size, to the (aligned) source address, so its low
/// bits say how many of the destination's last bytes are zeros; the rest is copied from the
/// aligned address. Counts: the global read has the reading lanes only (sectors of the aligned
/// address; no lane reads: an execution with no sectors); the shared write has every lane.
void hLdgsts(Exec &x, const Instr &in, U32 m) {
  U64 dst[32], src[32];
  addressOf(x, in.ops[0], dst);
  addressOf(x, in.ops[1], src);
  const U32 valid = in.ops.size() == 3 ? m & x.predMask(in.ops[2]) : m;
  const bool zfill = in.flags & 1;
  std::uint8_t *from[32] = {}, *to[32] = {};
  unsigned bytes[32] = {};
  model::AccessEvent &e = x.event;
  e.site = in.site;
  e.op = model::Op::Load;
  e.space = model::Space::Global;
  e.widthBytes = in.width;
  e.active = LaneMask{valid};
  e.block = x.blockLinear;
  e.warp = x.w->index;
  e.skipped = false;
  e.companion = false;
  e.laneSerial = false;
  e.minWavefronts = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(valid >> l & 1)) continue;
    U64 a = src[l];
    bytes[l] = in.width;
    if (zfill) {
      unsigned z = unsigned(a & (in.width - 1u));
      a -= z, bytes[l] = in.width - z;
    }
    model::Space sp = model::Space::Global;
    U64 ev = 0;
    if (bytes[l]) {
      from[l] = x.resolve(in, l, a, bytes[l], sp, ev);
      if (!from[l]) return;
    } else {
      ev = a;
    }
    e.addr[l] = ByteAddress{ev};
  }
  if (x.listener) x.listener->onAccess(e);
  e.space = model::Space::Shared;
  e.op = model::Op::Store;
  e.active = LaneMask{m};
  e.companion = true;
  // The shared write (measured, H100): at least one wavefront per 128-byte shared line written,
  // plus one per further distinct rotation (shared - global address, the source as the
  // instruction gives it, modulo 128) among the lanes that read; never fewer than the bank
  // wavefronts. Lanes moving one contiguous piece share a rotation (32 x 4 bytes across two
  // global lines: 1; cpasync_sgemm's two 64-byte row pieces into one 128-byte shared row: 2).
  U64 rot[32], sline[32];
  unsigned nRot = 0, nLines = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    model::Space sp = model::Space::Shared;
    U64 ev = 0;
    to[l] = x.resolve(in, l, dst[l], in.width, sp, ev);
    if (!to[l]) { e.companion = false; return; }
    e.addr[l] = ByteAddress{ev};
    bool seen = false;
    for (unsigned k = 0; k < nLines && !seen; ++k) seen = sline[k] == ev >> 7;
    if (!seen) sline[nLines++] = ev >> 7;
    if (!(valid >> l & 1)) continue;
    U64 r = (dst[l] - src[l]) & 127;
    seen = false;
    for (unsigned k = 0; k < nRot && !seen; ++k) seen = rot[k] == r;
    if (!seen) rot[nRot++] = r;
  }
  e.laneSerial = false;
  e.minWavefronts = static_cast<std::uint8_t>(nLines + (nRot ? nRot - 1 : 0));
  if (x.listener) x.listener->onAccess(e);
  // .ZFILL writes the destination twice as wide in wavefronts, ideal included (zfill_sum16_1001:
  // 8 per warp of 32 contiguous 16-byte chunks, ideal 8, where the plain .128 form takes 4).
  e.laneSerial = false;
  e.minWavefronts = 0;
  if (zfill && x.listener) x.listener->onAccess(e);
  e.companion = false;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(m >> l & 1)) continue;
    if (bytes[l]) std::memcpy(to[l], from[l], bytes[l]);
    std::memset(to[l] + bytes[l], 0, in.width - bytes[l]);
  }
}


// ---- Hopper TMA -------------------------------------------------------------------------------

/// The engine's tensor-map descriptor, 128 bytes in the kernel parameters (the GPU's CUtensorMap
/// layout is opaque; kernels only pass its address to the TMA unit).
struct TensorMapDesc {
  U32 magic, rank, elemBytes, pad;
  U64 base;
  U64 dims[5];
  U64 strides[5]; ///< bytes; strides[0] = elemBytes
  U32 box[5];
};
static_assert(sizeof(TensorMapDesc) <= 128);
constexpr U32 kTensorMapMagic = 0x4d544c57; // "WLTM"

U64 ur64(const Exec &x, U32 r) {
  if (r == kURZ) return 0;
  return x.w->ur[r & 63] | U64(x.w->ur[(r + 1) & 63]) << 32;
}
U32 ur32(const Exec &x, U32 r) { return r == kURZ ? 0 : x.w->ur[r & 63]; }

/// Host pointer of `bytes` contiguous bytes at `addr` in `space` (checked at both ends).
std::uint8_t *spanPtr(Exec &x, const Instr &in, U64 addr, U64 bytes, model::Space space) {
  model::Space sp = space;
  U64 ev = 0;
  unsigned n = bytes >= 16 && addr % 16 == 0 && bytes % 16 == 0 ? 16 : 1;
  std::uint8_t *p = x.resolve(in, 0, addr, n, sp, ev);
  if (!p || bytes <= n) return p;
  sp = space;
  std::uint8_t *q = x.resolve(in, 0, addr + bytes - n, n, sp, ev);
  if (!q) return nullptr;
  if (q != p + (bytes - n)) {
    x.fail("bulk copy of " + std::to_string(bytes) + " bytes crosses the end of a buffer in " + x.prog->where(in));
    return nullptr;
  }
  return p;
}

/// complete_tx of `bytes` on the mbarrier at shared address `bar`.
void completeTx(Exec &x, const Instr &in, U32 bar, U64 bytes) {
  std::uint8_t *p = sharedPtr(x, in, 0, bar, 8);
  if (!p) return;
  txOf(x, bar) -= static_cast<std::int64_t>(bytes);
  maybeComplete(x, p, bar);
}

/// One event per TMA instruction: its global side, the bytes it moves as one lane's access
/// (`in.width` is 16: one event lane per 16 bytes would over-count requests). See README
/// "How bulk and tensor copies are counted".
void emitTma(Exec &x, const Instr &in, U64 globalAddr, U64 bytes) {
  model::AccessEvent &e = x.event;
  e.site = in.site;
  e.space = model::Space::Global;
  e.op = in.memOp;
  e.widthBytes = in.width;
  e.active = LaneMask{0u};
  e.block = x.blockLinear;
  e.warp = x.w->index;
  e.skipped = false;
  e.companion = false;
  e.laneSerial = false;
  e.minWavefronts = 0;
  (void)globalAddr;
  (void)bytes;
  if (x.listener) x.listener->onAccess(e);
}

/// UBLKCP.S.G [URs], [URg], URn (global -> shared, complete_tx on the mbarrier in URs+1) and
/// UBLKCP.G.S [URg], [URs], URn (shared -> global). URn counts 16-byte units.
void hBulkCopy(Exec &x, const Instr &in, U32 m) {
  if (!m) return;
  bool toGlobal = in.flags & 1;
  const Operand &d = in.ops[0], &s = in.ops[1];
  U64 bytes = U64(ur32(x, in.ops[2].index)) * 16;
  U32 sh = static_cast<U32>((toGlobal ? ur32(x, s.idx) : ur32(x, d.idx)) + (toGlobal ? s.off : d.off));
  U64 g = (toGlobal ? ur64(x, d.idx) + d.off : ur64(x, s.idx) + s.off);
  emitTma(x, in, g, bytes);
  if (bytes == 0) return;
  std::uint8_t *sp = spanPtr(x, in, sh, bytes, model::Space::Shared);
  if (!sp) return;
  std::uint8_t *gp = spanPtr(x, in, g, bytes, model::Space::Global);
  if (!gp) return;
  if (toGlobal) std::memmove(gp, sp, bytes);
  else std::memmove(sp, gp, bytes), completeTx(x, in, ur32(x, d.idx + 1), bytes);
}

/// UTMALDG.nD [URs], [URt] (box -> shared at URs, complete_tx on the mbarrier in URs+1,
/// coordinates in URs+2..) and UTMASTG.nD [URs], [URt] (shared at URs -> box, coordinates in
/// URs+1..). Tile mode, no swizzle: the box is packed in shared memory, innermost dimension
/// first; box elements outside the tensor read as zero and are not written.
void hTensorCopy(Exec &x, const Instr &in, U32 m) {
  if (!m) return;
  bool store = in.flags & 1;
  U32 rank = in.flags >> 8;
  const Operand &s = in.ops[0], &t = in.ops[1];
  U64 mapAddr = ur64(x, t.idx) + t.off;
  U64 c0off = mapAddr - kParamWindow;
  const auto &c0 = x.prog->cbank[0];
  TensorMapDesc desc{};
  if (mapAddr < kParamWindow || c0off + sizeof desc > c0.size() ||
      (std::memcpy(&desc, c0.data() + c0off, sizeof desc), desc.magic != kTensorMapMagic)) {
    x.fail("the tensor map address 0x" + [&] { char b[24]; std::snprintf(b, sizeof b, "%llx", (unsigned long long)mapAddr); return std::string(b); }() +
           " is not a tensor-map kernel parameter (launch spec \"tensor_map\") in " + x.prog->where(in));
    return;
  }
  if (desc.rank != rank) {
    x.fail(std::to_string(rank) + "D tensor copy through a " + std::to_string(desc.rank) + "D tensor map in " + x.prog->where(in));
    return;
  }
  U32 sh = static_cast<U32>(ur32(x, s.idx) + s.off);
  U32 first = store ? 1 : 2;
  std::int64_t coord[5] = {};
  U64 boxElems = 1;
  for (U32 i = 0; i < rank; ++i) {
    coord[i] = static_cast<std::int32_t>(ur32(x, s.idx + first + i));
    boxElems *= desc.box[i];
  }
  U64 bytes = boxElems * desc.elemBytes;
  U64 gStart = desc.base;
  for (U32 i = 0; i < rank; ++i) gStart += U64(coord[i]) * desc.strides[i];
  emitTma(x, in, gStart, bytes);
  std::uint8_t *sp = spanPtr(x, in, sh, bytes, model::Space::Shared);
  if (!sp) return;
  U64 rowBytes = U64(desc.box[0]) * desc.elemBytes;
  U64 rows = boxElems / desc.box[0];
  for (U64 r = 0; r < rows; ++r) {
    // Coordinates of this box row (dimensions 1..rank-1), then the row's elements.
    U64 rest = r;
    bool inside = true;
    U64 g = desc.base;
    for (U32 i = 1; i < rank; ++i) {
      std::int64_t c = coord[i] + std::int64_t(rest % desc.box[i]);
      rest /= desc.box[i];
      if (c < 0 || U64(c) >= desc.dims[i]) inside = false;
      else g += U64(c) * desc.strides[i];
    }
    std::uint8_t *srow = sp + r * rowBytes;
    for (U32 e = 0; e < desc.box[0]; ++e) {
      std::int64_t c = coord[0] + e;
      std::uint8_t *se = srow + U64(e) * desc.elemBytes;
      if (!inside || c < 0 || U64(c) >= desc.dims[0]) {
        if (!store) std::memset(se, 0, desc.elemBytes);
        continue;
      }
      std::uint8_t *gp = spanPtr(x, in, g + U64(c) * desc.elemBytes, desc.elemBytes, model::Space::Global);
      if (!gp) return;
      if (store) std::memcpy(gp, se, desc.elemBytes);
      else std::memcpy(se, gp, desc.elemBytes);
    }
  }
  if (!store) completeTx(x, in, ur32(x, s.idx + 1), bytes);
}

/// ELECT Pd, URd, Ps: one leader among the lanes with Ps (the lowest); Pd true for it alone,
/// URd its lane number.
void hElect(Exec &x, const Instr &in, U32 m) {
  U32 cand = m & x.predMask(in.ops[2]);
  U32 leader = cand ? (1u << std::countr_zero(cand)) : 0;
  x.writePred(in.ops[0], m, leader);
  if (in.ops[1].kind == OpKind::UReg && in.ops[1].index != kURZ && cand) x.w->ur[in.ops[1].index] = std::countr_zero(cand);
}

void hNone(Exec &, const Instr &, U32) {}

} // namespace

std::string selectAsync(Instr &in) {
  const std::string &b = in.base;
  if (b == "SYNCS" || b == "ARRIVES") { // shared-memory instructions as the probe's listing files them
    in.space = model::Space::Shared;
    in.memOp = model::Op::Atomic;
    in.width = hasMod(in, "64") ? 8 : 4;
    in.emit = true;
  }
  if (b == "LDGSTS") {
    if (in.ops.size() < 2 || in.ops.size() > 3 || in.ops[0].kind != OpKind::Mem || in.ops[1].kind != OpKind::Mem ||
        (in.ops.size() == 3 && in.ops[2].kind != OpKind::Pred))
      return "LDGSTS form with " + std::to_string(in.ops.size()) + " operands is not supported";
    in.width = hasMod(in, "128") ? 16 : hasMod(in, "64") ? 8 : 4;
    in.flags = hasMod(in, "ZFILL") ? 1u : 0u;
    in.space = model::Space::Global;
    in.memOp = model::Op::Load;
    in.emit = true;
    in.fn = hLdgsts;
    return {};
  }
  if (b == "LDGDEPBAR" || b == "UTMACMDFLUSH") { in.fn = hNone; return {}; }
  if (b == "ELECT") {
    if (in.ops.size() != 3 || in.ops[0].kind != OpKind::Pred) return "ELECT form not supported";
    in.fn = hElect;
    return {};
  }
  auto uniMem = [&](std::size_t i) {
    return in.ops.size() > i && in.ops[i].kind == OpKind::Mem && in.ops[i].idxKind == OpKind::UReg && !in.ops[i].hasUidx;
  };
  if (b == "UBLKCP") {
    bool s2g = hasMod(in, "G") && in.mods.size() == 2 && in.mods[0] == "G";
    bool g2s = in.mods.size() == 2 && in.mods[0] == "S" && in.mods[1] == "G";
    if ((!s2g && !g2s) || in.ops.size() != 3 || !uniMem(0) || !uniMem(1) || in.ops[2].kind != OpKind::UReg)
      return "UBLKCP form not supported (only .S.G and .G.S with uniform registers; no multicast)";
    in.flags = s2g ? 1 : 0;
    in.space = model::Space::Global;
    in.memOp = s2g ? model::Op::Store : model::Op::Load;
    in.width = 4;
    in.emit = true;
    in.fn = hBulkCopy;
    return {};
  }
  if (b == "UTMALDG" || b == "UTMASTG") {
    U32 rank = 0;
    for (const std::string &mod : in.mods)
      if (mod.size() == 2 && mod[1] == 'D' && mod[0] >= '1' && mod[0] <= '5') rank = U32(mod[0] - '0');
      else return b + "." + mod + " is not supported (tile mode without multicast, im2col or reductions only)";
    if (!rank || in.ops.size() != 2 || !uniMem(0) || !uniMem(1)) return b + " form not supported";
    in.flags = (b == "UTMASTG" ? 1 : 0) | rank << 8;
    in.space = model::Space::Global;
    in.memOp = b == "UTMASTG" ? model::Op::Store : model::Op::Load;
    in.width = 4;
    in.emit = true;
    in.fn = hTensorCopy;
    return {};
  }
  if (b == "ARRIVES") {
    if (!hasMod(in, "LDGSTSBAR") || in.ops.size() != 1 || in.ops[0].kind != OpKind::Mem)
      return "ARRIVES form not supported";
    in.flags = hasMod(in, "TRANSCNT") ? 1 : 0;
    in.fn = hLdgstsBar;
    return {};
  }
  if (b == "SYNCS") {
    auto mem = [&](std::size_t i) { return in.ops.size() > i && in.ops[i].kind == OpKind::Mem; };
    if (hasMod(in, "EXCH") && hasMod(in, "64") && in.ops.size() == 3 && mem(1)) { in.fn = hExch; return {}; }
    if (hasMod(in, "ARRIVE") && hasMod(in, "TRANS64") && in.ops.size() >= 2 && mem(1)) {
      for (const std::string &mod : in.mods)
        if (mod != "ARRIVE" && mod != "TRANS64" && mod != "RED" && mod != "A1T0" && mod != "A0T1")
          return "SYNCS.ARRIVE form '" + in.opcode + "' is not supported";
      in.flags = (hasMod(in, "A0T1") ? 1 | 2 : 0) | (hasMod(in, "RED") ? 4 : 0);
      in.fn = hArrive;
      return {};
    }
    if (hasMod(in, "PHASECHK") && hasMod(in, "TRANS64") && in.ops.size() == 3 && mem(1) &&
        in.ops[0].kind == OpKind::Pred) {
      if (hasMod(in, "TRYWAIT")) in.control = true, in.fn = hTryWait;
      else in.fn = hPhaseChk;
      return {};
    }
    return "SYNCS form '" + in.opcode + "' is not supported";
  }
  return "not an asynchronous-copy opcode";
}

std::string encodeTensorMap(const launch::ArgSpec &a, std::uint64_t base, std::uint8_t *dst, std::size_t room) {
  if (room < 128) return "a tensor map needs a 128-byte parameter, the kernel's has " + std::to_string(room) + " bytes";
  TensorMapDesc d{};
  d.magic = kTensorMapMagic;
  d.rank = static_cast<U32>(a.tensorDims.size());
  d.elemBytes = launch::sizeOf(a.type);
  d.base = base;
  U64 stride = d.elemBytes;
  for (U32 i = 0; i < d.rank; ++i) {
    d.dims[i] = a.tensorDims[i];
    d.box[i] = a.tensorBox[i];
    d.strides[i] = stride;
    stride *= a.tensorDims[i];
  }
  std::memset(dst, 0, 128);
  std::memcpy(dst, &d, sizeof d);
  return {};
}

} // namespace warplens::sassemu
