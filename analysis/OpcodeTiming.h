/// \file
/// Per SASS opcode (sm_90): the execution pipe a warp instruction goes to, the cycles it keeps
/// that pipe of its sub-partition busy, and the cycles until a dependent instruction can issue.
/// One table (OpcodeTiming.cpp), read by the instruction mix (TimePrediction.cpp) and the issue
/// simulation (IssueSim.h).
#pragma once

#include <string_view>

namespace warplens::analysis {

/// Fma: FP32 (and half) arithmetic, either half of the FMA pipe (fmaheavy or fmalite, 16 lanes
/// each). FmaHeavy: integer multiply-add, fmaheavy only. Alu: integer/logic/compare (16 lanes).
/// Fp64: double precision (16 lanes per sub-partition). Xu: the multi-function unit (4 lanes).
/// None: issued without one of these pipes (memory, control, moves, uniform datapath).
enum class Pipe { None, Fma, FmaHeavy, Alu, Fp64, Xu };

struct OpcodeTiming {
  Pipe pipe = Pipe::None;
  int pipeCycles = 0; ///< cycles the pipe takes the warp instruction (0 for None)
  int latency = 4;    ///< cycles from issue until a dependent instruction can issue
};

/// The first table row whose prefix starts `opcode` (full SASS opcode with modifiers, as the
/// listing names it: "IMAD.WIDE.U32", "MUFU.EX2"); unknown opcodes: None, latency 4.
OpcodeTiming opcodeTiming(std::string_view opcode);

inline bool isFmaPipe(std::string_view op) {
  const Pipe p = opcodeTiming(op).pipe;
  return p == Pipe::Fma || p == Pipe::FmaHeavy;
}
inline bool isAluPipe(std::string_view op) { return opcodeTiming(op).pipe == Pipe::Alu; }
inline bool isFp64Pipe(std::string_view op) { return opcodeTiming(op).pipe == Pipe::Fp64; }
inline bool isXuPipe(std::string_view op) { return opcodeTiming(op).pipe == Pipe::Xu; }

} // namespace warplens::analysis
