/// \file
/// The decoded form of one sm_90 SASS instruction as the engine executes it: operands with their
/// modifiers, the guard predicate, the chosen semantic handler and its pre-decoded fields.
/// Decoded once per kernel from the nvdisasm text; executed many times.
#pragma once

#include "model/AccessEvent.h"

#include <cstdint>
#include <string>
#include <vector>

namespace warplens::sassemu {

struct Exec;
struct Instr;
/// Executes `in` for the lanes in `mask` (guard applied) of the current warp group.
using Handler = void (*)(Exec &x, const Instr &in, std::uint32_t mask);

constexpr std::uint32_t kRZ = 255;  ///< R255 reads zero
constexpr std::uint32_t kURZ = 63;  ///< UR63 reads zero
constexpr std::uint32_t kPT = 7;    ///< P7 / UP7 read true

enum class OpKind : std::uint8_t {
  None,
  Reg,      ///< R<n>; RZ = 255
  UReg,     ///< UR<n>; URZ = 63
  Pred,     ///< P<n>; PT = 7
  UPred,    ///< UP<n>; UPT = 7
  Imm,      ///< integer immediate (bits in `imm`)
  FImm,     ///< floating immediate (value in `fimm`); width decided by the instruction
  Const,    ///< c[bank][off] with an optional register/uniform index
  Mem,      ///< [base + ureg + off] with optional desc[UR]
  SReg,     ///< SR_* special register (id in `index`)
  Barrier,  ///< convergence barrier B<n>
  Label,    ///< branch/call target (pc in `imm`)
};

/// Special registers the engine knows (S2R / S2UR / CS2R).
enum class SReg : std::uint8_t {
  TidX, TidY, TidZ, CtaidX, CtaidY, CtaidZ, LaneId, CgaCtaId, SwinHi, SwinLo, Clock, ClockLo,
  ClockHi, GlobalTimer, GlobalTimerLo, GlobalTimerHi, EqMask, LtMask, LeMask, GtMask, GeMask,
  VirtualSmId, SmId, WarpId, NWarpId, VirtId, ThreadId, RegAlloc, GridId, Zero,
};

struct Operand {
  OpKind kind = OpKind::None;
  std::uint32_t index = 0;      ///< register / predicate / barrier / special-register number
  bool neg = false;             ///< -R
  bool abs = false;             ///< |R|
  bool notp = false;            ///< !P, ~R
  bool wide = false;            ///< R2.64 (register pair)
  std::uint8_t sel = 0;         ///< .H0/.H1 = 1/2, .B0..B3 = 3..6, .H0_H0/.H1_H1 = 7/8, .F32 = 9
  std::uint64_t imm = 0;        ///< Imm bits, Label pc, Const offset, Mem offset
  double fimm = 0;
  // Const: c[bank][idx + imm]; Mem: [idx(kind idxKind) + uidx + imm]
  std::uint32_t bank = 0;
  OpKind idxKind = OpKind::None; ///< Reg or UReg index inside c[][] / first term inside []
  std::uint32_t idx = 0;
  bool idxWide = false;         ///< [R2.64]
  std::uint8_t idxScale = 1;    ///< [R2.X4] → 4
  bool hasUidx = false;         ///< [R2+UR4]
  std::uint32_t uidx = 0;
  std::int64_t off = 0;         ///< signed offset inside [] or c[][]
};

/// The operands of one instruction. Reading past the last gives an operand of kind None (which
/// the engine's fetch reports as an error naming the instruction), so a handler never reads past
/// the vector when the text gave fewer operands than the opcode takes (sass_decoder fuzz finding:
/// "F2I.TRUNC.NTZ ;" read ops[1] of an empty list). Writes through such a read are discarded.
struct OperandList : std::vector<Operand> {
  const Operand &operator[](std::size_t i) const {
    static const Operand none{};
    return i < size() ? data()[i] : none;
  }
  Operand &operator[](std::size_t i) {
    thread_local Operand scratch;
    if (i < size()) return data()[i];
    scratch = Operand{};
    return scratch;
  }
};

struct Instr {
  std::uint64_t pc = 0;
  std::string text;             ///< the listing text, for messages
  std::string opcode;           ///< "IMAD.WIDE.U32"
  std::string base;             ///< "IMAD"
  std::vector<std::string> mods;///< {"WIDE","U32"}
  Operand guard;                ///< Pred/UPred, or None
  OperandList ops;
  Handler fn = nullptr;
  // Pre-decoded fields filled by the family's selector.
  std::uint32_t sub = 0;        ///< family-specific sub-operation
  std::uint32_t flags = 0;      ///< family-specific flag bits
  std::uint32_t target = 0;     ///< branch/call target as an instruction index
  std::uint8_t width = 4;       ///< memory bytes per lane
  std::uint8_t boolOp = 0;      ///< 0 none, 1 AND, 2 OR, 3 XOR (ISETP/FSETP/...)
  std::uint8_t lut = 0;         ///< LOP3/PLOP3 lookup table
  bool uniform = false;         ///< executes on the uniform datapath (U* opcodes)
  bool control = false;         ///< the handler applies the guard and moves the pc itself
  // Address-only mode (Slice.h)
  bool skip = false;            ///< not executed (counted as executed)
  bool noData = false;          ///< load/store: event and bounds check only, no data moved
  std::uint32_t skipRun = 0;    ///< skipped instructions from here on (0 if not skipped)
  // Memory instructions
  bool emit = false;            ///< emits an AccessEvent
  model::Space space = model::Space::Global;
  model::Op memOp = model::Op::Load;
  std::uint32_t site = 0;       ///< AccessEvent site id
  // Source location (nvdisasm -gi)
  std::string sourceFile;
  int sourceLine = -1;
};

} // namespace warplens::sassemu
