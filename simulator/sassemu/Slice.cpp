/// \file
/// Address-only slicing (Slice.h): which instructions of a decoded kernel can be skipped because
/// nothing that decides an access, a branch or a barrier depends on their results.
///
/// The analysis is deliberately coarse, so that it is safe without a def/use table per opcode:
/// - Only pure register instructions (floating point, integer, conversions, moves: the table
///   kSkippable) may be skipped. Any of their register or predicate operands counts as both read
///   and written (a pair for 64-bit forms), so an instruction is kept as soon as one operand
///   names a needed register, and a kept instruction makes all its operands needed.
/// - Plain loads and stores (LDG/STG/LDS/STS/LDL/STL/LD/ST) are always executed and always emit
///   their event; their address registers and guard are needed. Their data moves only when some
///   needed register is a load's destination ("memory needed"): then every store's data register
///   is needed too and loads and stores move data as in full mode.
/// - Every other instruction is kept with all its operands needed; an instruction that touches
///   memory in another way (atomics, async copies, mbarriers, LDSM, calls to printf/assert)
///   makes memory needed from the start.
/// - Registers are tracked by name over the whole kernel (flow-insensitive), so a register that
///   is an address in one place and an FFMA accumulator in another keeps both: correct, slower.
#include "sassemu/Slice.h"

#include "sassemu/Exec.h"

#include <algorithm>
#include <bitset>
#include <string_view>

namespace warplens::sassemu {
namespace {

constexpr std::string_view kSkippable[] = {
    "FFMA", "FADD", "FMUL", "FMNMX", "FSEL", "FSETP", "MUFU", "HADD2", "HMUL2", "HFMA2", "HSETP2",
    "DADD", "DMUL", "DFMA", "DSETP", "DMNMX", "I2F", "I2FP", "F2I", "F2IP", "F2F", "FRND", "F2FP",
    "IMAD", "IADD3", "VIADD", "IADD", "LEA", "LOP3", "PLOP3", "SHF", "ISETP", "SEL", "IMNMX",
    "VIMNMX", "VIMNMX3", "IABS", "POPC", "FLO", "BREV", "PRMT", "BMSK", "SGXT", "VABSDIFF", "VIADDMNMX",
    "MOV", "MOV32I", "UIMAD", "UIADD3", "ULEA", "ULOP3", "UPLOP3", "USHF", "UISETP", "USEL",
    "UIMNMX", "UPOPC", "UFLO", "UBREV", "UPRMT", "UBMSK", "USGXT", "UMOV", "S2R", "S2UR", "CS2R",
    "LDC", "ULDC"};

/// Kept, with every register they read among their operands and no effect on memory.
constexpr std::string_view kRegisterOnly[] = {
    "R2UR", "SHFL", "VOTE", "VOTEU", "REDUX", "MATCH", "FCHK", "BRA", "BRX", "EXIT", "BAR", "BSSY", "BSYNC", "BREAK", "BMOV",
    "WARPSYNC", "CALL", "RET", "NOP", "YIELD", "MEMBAR", "FENCE", "ERRBAR", "CCTL", "DEPBAR",
    "NANOSLEEP", "KILL", "BPT", "CGAERRBAR", "ENDCOLLECTIVE", "B2R"};

constexpr std::string_view kPlainMemory[] = {"LDG", "STG", "LDS", "STS", "LDL", "STL", "LD", "ST"};

/// Kept with all operands; they make memory needed (their results depend on it).
constexpr std::string_view kAtomics[] = {"ATOMS", "ATOMG", "ATOM", "RED", "REDG"};

template <std::size_t N> bool in(const std::string_view (&set)[N], const std::string &s) {
  for (std::string_view v : set)
    if (v == s) return true;
  return false;
}

/// A set of registers: R0-255 (bits 0-255), UR0-63 (256-319), P0-6 (320-327), UP0-6 (328-335).
using Regs = std::bitset<336>;

unsigned bitOf(OpKind k, unsigned i) {
  switch (k) {
  case OpKind::Reg: return i;
  case OpKind::UReg: return 256 + i;
  case OpKind::Pred: return 320 + i;
  default: return 328 + i; // UPred
  }
}

bool is64(const Instr &in) {
  if (!in.base.empty() && in.base[0] == 'D') return true;
  for (const std::string &m : in.mods)
    if (m.find("64") != std::string::npos || m == "WIDE") return true;
  return false;
}

/// Calls f(bit) for every register the operand names (n registers from its index; RZ, URZ, PT
/// and UPT name none).
template <class F> void regsOf(const Operand &o, unsigned n, F &&f) {
  switch (o.kind) {
  case OpKind::Reg:
    if (o.index != kRZ)
      for (unsigned k = 0; k < (o.wide ? std::max(n, 2u) : n); ++k)
        if (o.index + k < kRZ) f(bitOf(OpKind::Reg, o.index + k));
    break;
  case OpKind::UReg:
    if (o.index != kURZ)
      for (unsigned k = 0; k < (o.wide ? std::max(n, 2u) : n); ++k)
        if (o.index + k < kURZ) f(bitOf(OpKind::UReg, o.index + k));
    break;
  case OpKind::Pred:
  case OpKind::UPred:
    if (o.index != kPT) f(bitOf(o.kind, o.index));
    break;
  case OpKind::Const:
  case OpKind::Mem:
    if (o.idxKind == OpKind::Reg && o.idx != kRZ) {
      f(bitOf(OpKind::Reg, o.idx));
      if (o.idxWide && o.idx + 1 < kRZ) f(bitOf(OpKind::Reg, o.idx + 1));
    } else if (o.idxKind == OpKind::UReg && o.idx != kURZ) {
      f(bitOf(OpKind::UReg, o.idx));
      if (o.idxWide && o.idx + 1 < kURZ) f(bitOf(OpKind::UReg, o.idx + 1));
    }
    if (o.hasUidx && o.uidx != kURZ) f(bitOf(OpKind::UReg, o.uidx));
    break;
  default:
    break;
  }
}

enum class Role : std::uint8_t { Skippable, Load, Store, Kept };

/// What one instruction reads, may write and surely writes, as the liveness below uses them.
struct Effects {
  Regs uses;      ///< when executed (over-approximated: every operand of a Skippable/Kept one)
  Regs dataUses;  ///< stores: the data registers (uses only while memory is needed)
  Regs mayDef;    ///< Skippable: every operand (the instruction is needed if one is live after it)
  Regs kill;      ///< surely written (under-approximated: the first operand, unguarded only)
  Regs loadDefs;  ///< loads: the destination registers
};

Effects effectsOf(const Instr &ins, Role role) {
  Effects e;
  auto add = [](Regs &r) { return [&r](unsigned b) { r.set(b); }; };
  regsOf(ins.guard, 1, add(e.uses));
  const unsigned n = is64(ins) ? 2 : 1;
  if (role == Role::Load || role == Role::Store) {
    unsigned words = ins.width <= 4 ? 1 : ins.width / 4;
    for (const Operand &o : ins.ops) {
      if (o.kind == OpKind::Mem) regsOf(o, 1, add(e.uses));
      else if (role == Role::Load) regsOf(o, words, add(e.loadDefs));
      else regsOf(o, words, add(e.dataUses));
    }
    // An unguarded load writes its destination (in full mode; in address-only mode nothing
    // needed reads it, or memory would be needed).
    if (role == Role::Load && ins.guard.kind == OpKind::None) e.kill = e.loadDefs;
    return e;
  }
  // Registers per operand: 64-bit forms read pairs everywhere (over-approximated), except the
  // WIDE multiply-adds, whose two factors are 32-bit: IMAD.WIDE R2, R10, 0x4, R12 reads R10
  // and R12:R13, not R11.
  const bool wide = (ins.base == "IMAD" || ins.base == "UIMAD") &&
                    hasMod(ins, "WIDE");
  // IMAD.HI's addend is a pair too (IntOps.cpp): "IMAD.HI R2, R0, -0x15f15f15, R2" after
  // "IMAD.MOV.U32 R3, RZ, RZ, R0" reads R3 (ptxas' division by 70; session 20: the address-only
  // slice dropped the MOV and counted 2576 sectors where the full run counts 3104).
  const bool hi = (ins.base == "IMAD" || ins.base == "UIMAD") && hasMod(ins, "HI");
  auto width = [&](std::size_t k) -> unsigned { return wide ? (k == 1 || k == 2 ? 1 : 2) : hi && k == 3 ? 2 : n; };
  for (std::size_t k = 0; k < ins.ops.size(); ++k) regsOf(ins.ops[k], width(k), add(e.uses));
  if (role != Role::Skippable) return e;
  // May be written: the first operand (a pair for 64-bit forms and CS2R), the predicates right
  // after it (IADD3's carries, ISETP's second result) and, when the first is a predicate, the
  // next register too (LOP3.LUT P0, R5, ...).
  const unsigned nd = n == 2 || (ins.base == "CS2R" && ins.mods.empty()) ? 2 : 1;
  if (!ins.ops.empty()) {
    regsOf(ins.ops[0], nd, add(e.mayDef));
    bool predFirst = ins.ops[0].kind == OpKind::Pred || ins.ops[0].kind == OpKind::UPred;
    std::size_t k = 1;
    while (k < ins.ops.size() && (ins.ops[k].kind == OpKind::Pred || ins.ops[k].kind == OpKind::UPred))
      regsOf(ins.ops[k++], 1, add(e.mayDef));
    if (predFirst && k < ins.ops.size()) regsOf(ins.ops[k], nd, add(e.mayDef));
  }
  if (ins.guard.kind == OpKind::None && !ins.ops.empty()) {
    // SASS lists every source explicitly (FFMA R8, R9, R10, R8 reads R8 as its fourth
    // operand), so the destination of an unguarded instruction is written, not read.
    const Operand &d = ins.ops[0];
    // Pairs only where the opcode surely writes two registers; otherwise the first one.
    bool pair = (d.kind == OpKind::Reg || d.kind == OpKind::UReg) &&
                (wide || ins.base == "DADD" || ins.base == "DMUL" || ins.base == "DFMA" ||
                 ((ins.base == "LDC" || ins.base == "ULDC") && hasMod(ins, "64")) ||
                 (ins.base == "CS2R" && ins.mods.empty()));
    if (d.kind == OpKind::Reg || d.kind == OpKind::UReg || d.kind == OpKind::Pred || d.kind == OpKind::UPred) {
      regsOf(d, pair ? 2 : 1, add(e.kill));
      e.uses.reset();
      for (std::size_t k = 1; k < ins.ops.size(); ++k) regsOf(ins.ops[k], width(k), add(e.uses));
      regsOf(ins.guard, 1, add(e.uses));
      // A destination register beyond the sure ones (a 64-bit form's second register) stays a use.
      if (!pair) regsOf(d, n, [&](unsigned b) { if (!e.kill.test(b)) e.uses.set(b); });
    }
  }
  return e;
}

} // namespace

SliceStats sliceForAddresses(std::vector<Instr> &code) {
  SliceStats st;
  const std::size_t n = code.size();
  std::vector<Role> role(n, Role::Kept);
  bool memory = false; // memory needed: data must move
  for (std::size_t i = 0; i < n; ++i) {
    const Instr &ins = code[i];
    if (!ins.fn) continue;
    if (in(kSkippable, ins.base)) role[i] = Role::Skippable;
    else if (in(kPlainMemory, ins.base) && ins.emit && (ins.memOp == model::Op::Load || ins.memOp == model::Op::Store))
      role[i] = ins.memOp == model::Op::Load ? Role::Load : Role::Store;
    else if (in(kAtomics, ins.base)) memory = true;
    else if (!in(kRegisterOnly, ins.base)) {
      // Anything else (tensor cores reading register quads, TMA and HGMMA reading uniform
      // registers their operands do not name, async copies, printf, P2R's PR): no slice.
      st.disabledBy = ins.text;
      return st;
    }
  }
  std::vector<Effects> fx(n);
  for (std::size_t i = 0; i < n; ++i)
    if (code[i].fn) fx[i] = effectsOf(code[i], role[i]);

  // Control flow: the next instruction, label targets; an unguarded BRA only its target, an
  // unguarded EXIT none; RET and BRX (targets in registers) may go anywhere.
  std::vector<std::vector<std::uint32_t>> succ(n);
  bool anywhere = false;
  for (std::size_t i = 0; i < n; ++i) {
    const Instr &ins = code[i];
    if (!ins.fn) continue;
    const bool guarded = ins.guard.kind != OpKind::None;
    if (ins.base == "RET" || ins.base == "BRX") { anywhere = true; continue; }
    if ((ins.base == "EXIT" || ins.base == "KILL") && !guarded) continue;
    bool label = false;
    for (const Operand &o : ins.ops)
      if (o.kind == OpKind::Label && o.imm / 16 < n) succ[i].push_back(std::uint32_t(o.imm / 16)), label = true;
    bool onlyTarget = ins.base == "BRA" && label && !guarded && ins.mods.empty();
    if (!onlyTarget && i + 1 < n) succ[i].push_back(std::uint32_t(i + 1));
  }
  Regs liveAnywhere; // live-in of any instruction: the live-out of RET and BRX

  std::vector<Regs> liveIn(n), liveOut(n);
  std::vector<char> needed(n, 0);
  for (bool again = true; again;) {
    again = false;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = n; i-- > 0;) {
        if (!code[i].fn) continue;
        const Instr &ins = code[i];
        Regs out;
        if (anywhere && (ins.base == "RET" || ins.base == "BRX")) out = liveAnywhere;
        for (std::uint32_t s : succ[i]) out |= liveIn[s];
        const Effects &e = fx[i];
        Regs in = out;
        bool need = role[i] != Role::Skippable || (e.mayDef & out).any();
        if (need) {
          in &= ~e.kill;
          in |= e.uses;
          if (role[i] == Role::Store && memory) in |= e.dataUses;
        }
        needed[i] = need;
        if (in != liveIn[i] || out != liveOut[i]) {
          liveIn[i] = in, liveOut[i] = out, changed = true;
          if (anywhere) liveAnywhere |= in;
        }
      }
    }
    // A live load destination: loaded values are needed, so memory must hold them.
    if (!memory)
      for (std::size_t i = 0; i < n; ++i)
        if (code[i].fn && role[i] == Role::Load && (fx[i].loadDefs & liveOut[i]).any()) {
          memory = again = true;
          st.why = code[i].text;
          break;
        }
  }

  st.memoryNeeded = memory;
  for (std::size_t i = 0; i < n; ++i) {
    Instr &ins = code[i];
    if (!ins.fn) continue;
    ++st.instructions;
    ins.skip = role[i] == Role::Skippable && !needed[i];
    ins.noData = !memory && (role[i] == Role::Load || role[i] == Role::Store);
    st.skipped += ins.skip;
  }
  // Runs of skipped instructions: the engine jumps over a run at once.
  std::uint32_t run = 0;
  for (std::size_t i = n; i-- > 0;) {
    run = code[i].fn && code[i].skip ? run + 1 : 0;
    code[i].skipRun = run;
  }
  return st;
}

} // namespace warplens::sassemu
