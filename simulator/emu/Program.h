/// \file
/// The pre-decoded form the emulator executes: one compact DInstr per PTX instruction with
/// register slots, constants and symbol addresses resolved, and a handler chosen at load time.
#pragma once

#include "model/AccessEvent.h"
#include "model/Site.h"
#include "ptx/Module.h"

#include <cstdint>
#include <string>
#include <vector>

namespace warplens::emu {

struct Exec;
struct DInstr;
/// Executes `in` for the lanes in `mask` (guard already applied) of the current warp.
using Handler = void (*)(Exec &x, const DInstr &in, std::uint32_t mask);

constexpr std::uint32_t kNone = 0xffffffffu;
constexpr std::uint32_t kFullMask = 0xffffffffu;

/// Generic-address windows. Global buffers live at kGlobalBase and above.
constexpr std::uint64_t kSharedWindow = 0x0000010000000000ull;
constexpr std::uint64_t kLocalWindow = 0x0000020000000000ull;
constexpr std::uint64_t kConstWindow = 0x0000030000000000ull;
constexpr std::uint64_t kWindowSize = 0x0000000100000000ull;
constexpr std::uint64_t kGlobalBase = 0x00007f0000000000ull;

enum class Flow : std::uint8_t {
  Next,    ///< straight-line: the loop advances pc
  MayStop, ///< memory: may fail (x.stop), else the loop advances pc
  Control  ///< the handler sets pc / mask itself and may yield
};

struct DInstr {
  Handler fn = nullptr;
  std::uint32_t d[4] = {kNone, kNone, kNone, kNone}; ///< destination slots (pred index for preds)
  std::uint32_t a[4] = {kNone, kNone, kNone, kNone}; ///< source slots (pred index for preds)
  std::uint32_t d2 = kNone;      ///< second predicate destination (setp p|q, shfl d|p)
  std::uint32_t base = kNone;    ///< address base slot
  std::int64_t offset = 0;       ///< address offset (symbol address folded in)
  std::uint64_t k = 0;           ///< extra constant (cvta window, prmt selector ...)
  std::uint32_t target = 0;      ///< branch target / callee entry pc
  std::uint32_t guard = kNone;   ///< guarding predicate index
  std::uint32_t site = 0;        ///< AccessEvent site id (module instruction index)
  std::uint32_t src = 0;         ///< index into Program::srcs
  std::uint32_t aux = 0;         ///< call: index into Program::calls
  std::uint32_t skip = kNone;    ///< bra: index into Program::skips (sites it jumps over)
  std::uint8_t negMask = 0;      ///< bit i: source a[i] predicate is negated
  bool guardNeg = false;
  bool base32 = false;           ///< base register is 32-bit
  bool emit = false;             ///< emits AccessEvents
  Flow flow = Flow::Next;
  std::uint8_t width = 4;        ///< element bytes (memory), or type bytes
  std::uint8_t vec = 1;
  bool signExt = false;          ///< ld.s8/s16
  ptx::StateSpace space = ptx::StateSpace::None;
  ptx::Opcode op = ptx::Opcode::Nop;
  ptx::Type type = ptx::Type::None, srcType = ptx::Type::None;
  ptx::Round round = ptx::Round::None;
  ptx::Cmp cmp = ptx::Cmp::None;
  ptx::BoolOp boolOp = ptx::BoolOp::None;
  ptx::AtomOp atomOp = ptx::AtomOp::None;
  ptx::ShflMode shfl = ptx::ShflMode::None;
  ptx::VoteMode vote = ptx::VoteMode::None;
  bool sat = false;
  model::Op memOp = model::Op::Load;
  bool laneSerial = false;       ///< atom/red other than add 1 (model::AccessEvent::laneSerial)
};

/// Where a DInstr came from, for messages.
struct SourceRef {
  const ptx::Instruction *ins = nullptr;
  std::string function;
  std::string source; ///< "file.cu:12" from .loc, empty if none
};

/// A call site: bytes to copy into the callee's params and back from its returns.
struct CallInfo {
  struct Copy {
    std::uint32_t from = 0, to = 0, bytes = 0; ///< offsets in the per-lane param area
  };
  std::vector<Copy> args, rets;
};

/// One global allocation (a launch buffer or a module .global variable).
struct GlobalBuffer {
  std::string name;
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  std::uint8_t *data = nullptr;
};

struct Program {
  std::vector<DInstr> code;
  std::vector<SourceRef> srcs;
  std::vector<CallInfo> calls;
  std::uint32_t numSlots = 0;       ///< 64-bit register slots per lane
  std::uint32_t numPreds = 0;       ///< predicate registers (one 32-bit mask each)
  std::vector<std::pair<std::uint32_t, std::uint64_t>> constants; ///< slot → value
  std::uint32_t specialBase = 0;    ///< first slot of the special registers
  std::uint32_t staticShared = 0;   ///< bytes of static shared memory
  std::uint32_t sharedBytes = 0;    ///< static + dynamic
  std::uint32_t localBytes = 0;     ///< per lane
  std::uint32_t paramBytes = 0;     ///< per lane (call parameters)
  std::vector<std::uint8_t> kernelParams; ///< the launch's .param bytes
  std::vector<std::uint8_t> constBank;    ///< module .const variables
  std::vector<GlobalBuffer> globals;      ///< sorted by base
  std::vector<std::vector<std::uint8_t>> moduleGlobals; ///< storage of module .global variables
  std::vector<model::SiteInfo> sites;
  /// Per forward branch with memory instructions strictly between it and its target (see
  /// findSkippedSites): one skipped-event template per such instruction, in program order.
  struct Skip {
    std::uint32_t pc = 0;       ///< the memory instruction's index in `code`
    model::AccessEvent event;   ///< skipped = true, no lanes; block/warp set when emitted
  };
  std::vector<std::vector<Skip>> skips;
  std::string path;                 ///< PTX path for messages
  std::string kernel;

  /// "file.ptx:45 (ld.global.f32 %f1, [%rd5];), source x.cu:7"
  std::string where(const DInstr &in) const;
};

} // namespace warplens::emu
