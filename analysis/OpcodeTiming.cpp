/// \file
/// The sm_90 opcode table. Pipe cycles per warp instruction and sub-partition, as measured with
/// the probe and Nsight Compute on an H100 (kernels/timing, 2026-11-23; sm__pipe_*_cycles_active
/// and smsp__inst_executed_pipe_*): FFMA 2 cycles on either FMA half (fma_chains: fmaheavy and
/// fmalite each 84-89% busy at one FFMA per cycle), IMAD 2 on fmaheavy (hash_rounds: 2.0 cycles per
/// fmaheavy instruction), IMAD.WIDE/IMAD.HI 4 (philox: 3.46 per fmaheavy instruction, mostly
/// IMAD.WIDE.U32), ALU 2 (alu_chains 99.7% busy), DFMA 2 (fp64_fma 98.8%), MUFU/POPC/F2I 8
/// (mufu_ex2, popc_chains 98-99%). Latencies: 4 for the fixed-latency pipes. Session 15: dependent
/// chains of one warp timed with clock64 on the H100 (the program and its output:
/// validation/h100/time/latency_chains.{cu,txt}, 2026-11-24 22:48 UTC, driver 580.159.04), in
/// cycles per step: FFMA, IMAD, SHF, PRMT, FMNMX 4.1; DFMA, DADD, DMUL 8.1; MUFU.EX2, RSQ, LG2,
/// RCP64H 17.0; POPC 17.0; IMAD.HI 9.1; IMAD.WIDE's low half feeding an IADD3 12.2 (8 + 4);
/// F2F.F64.F32 + F2F.F32.F64 36.0 and I2F.F64 + F2I.F64 36.0 (18 each); F2I + I2FP 23.1 (F2I 18,
/// I2FP taken as 4, within a cycle); SHFL.IDX 26.0; an L1-hitting LDG chase 51.8 with four 4-cycle
/// address instructions (36, the trace simulation's kL1HitCycles); an LDS chase 34.0 with two (26:
/// the table keeps 30, which the shared-memory columns were fitted with). Before: MUFU 24, POPC and
/// the conversions 8, the wide and high multiplies 4, SHFL 24. Session 17 (validation/h100/time/
/// warp_op_latency.{cu,txt}, 05:10 UTC 2026-11-25): each followed by a 4-cycle add, FLO, BREV, FRND
/// 23.1-23.2 cycles per step as POPC + IADD (23.05), so 17 like POPC (were 8, not measured); REDUX
/// + IADD 47.2, so REDUX 41 (was 24: 47.2 less the add's 6 that POPC + IADD shows); VOTE + LOP3
/// 17.4, so VOTE 13 (was 4). FRND.F64 not measured (8). MATCH.ANY ran 369 cycles per step
/// (data-dependent; not in the table).
/// Global loads 0: their latency is the time model's load-round columns.
#include "analysis/OpcodeTiming.h"

namespace warplens::analysis {

namespace {

struct Row {
  std::string_view prefix;
  OpcodeTiming timing;
};

constexpr Row kTable[] = {
    // Longer opcodes first where a shorter one is their prefix (SHFL / SHF, F2FP / F2F, I2FP / I2F).
    {"SHFL", {Pipe::None, 0, 26}},
    {"F2FP", {Pipe::None, 0, 4}},
    // FMA pipe: integer multiplies on fmaheavy only, the wide/high forms in two passes.
    {"IMAD.WIDE", {Pipe::FmaHeavy, 4, 8}},
    {"IMAD.HI", {Pipe::FmaHeavy, 4, 9}},
    {"IMUL.WIDE", {Pipe::FmaHeavy, 4, 8}},
    {"IMUL.HI", {Pipe::FmaHeavy, 4, 9}},
    {"IMAD", {Pipe::FmaHeavy, 2, 4}},
    {"IMUL", {Pipe::FmaHeavy, 2, 4}},
    {"VIADD", {Pipe::FmaHeavy, 2, 4}}, // hash_rounds: ncu's fmaheavy count is IMAD + VIADD
    {"FFMA", {Pipe::Fma, 2, 4}},
    {"FMUL", {Pipe::Fma, 2, 4}},
    {"FADD", {Pipe::Fma, 2, 4}},
    {"HFMA2", {Pipe::Fma, 2, 4}},
    {"HMUL2", {Pipe::Fma, 2, 4}},
    {"HADD2", {Pipe::Fma, 2, 4}},
    {"FMNMX", {Pipe::Fma, 2, 4}},
    // ALU pipe.
    {"IADD3", {Pipe::Alu, 2, 4}},
    {"IADD", {Pipe::Alu, 2, 4}},
    {"LOP3", {Pipe::Alu, 2, 4}},
    {"LOP", {Pipe::Alu, 2, 4}},
    {"SHF", {Pipe::Alu, 2, 4}},
    {"ISETP", {Pipe::Alu, 2, 4}},
    {"LEA", {Pipe::Alu, 2, 4}},
    {"SEL", {Pipe::Alu, 2, 4}},
    {"IMNMX", {Pipe::Alu, 2, 4}},
    {"FSEL", {Pipe::Alu, 2, 4}},
    {"FSETP", {Pipe::Alu, 2, 4}},
    {"PRMT", {Pipe::Alu, 2, 4}},
    {"IABS", {Pipe::Alu, 2, 4}},
    {"SGXT", {Pipe::Alu, 2, 4}},
    {"BMSK", {Pipe::Alu, 2, 4}},
    {"PLOP3", {Pipe::Alu, 2, 4}},
    {"P2R", {Pipe::Alu, 2, 4}},
    {"R2P", {Pipe::Alu, 2, 4}},
    {"VIMNMX3", {Pipe::Alu, 2, 4}}, // session 20: not measured; taken as VIMNMX
    {"VIMNMX", {Pipe::Alu, 2, 4}},
    {"ISCADD", {Pipe::Alu, 2, 4}},
    // Session 20: FCHK (the IEEE division's range check) reaches the @!P BRA that waits on its
    // predicate 31 cycles after issue (validation/h100/time/fchk_latency.{cu,txt}: c - x / 1.7f,
    // FCHK on the chain, 54.9 cycles per step measured, 45.2 simulated with 4, 54.1 / 56.1 with
    // 30 / 32; the sturm_bisect step then 99.3 against 98.9 measured, the IEEE division chain of
    // div_sqrt_chain.cu 62.2 against 61.5, both not fitted). Its result comes through the short
    // scoreboard (ncu stall sampling: short_sb at the BRA). Its pipe and rate are not measured.
    {"FCHK", {Pipe::Alu, 2, 31}},
    // FP64 pipe.
    {"DFMA", {Pipe::Fp64, 2, 8}},
    {"DADD", {Pipe::Fp64, 2, 8}},
    {"DMUL", {Pipe::Fp64, 2, 8}},
    {"DSETP", {Pipe::Fp64, 2, 8}},
    {"DMNMX", {Pipe::Fp64, 2, 8}},
    // Multi-function unit (I2FP, sm_90's int-to-float, is not on it).
    {"I2FP", {Pipe::None, 0, 4}},
    {"MUFU", {Pipe::Xu, 8, 17}},
    {"POPC", {Pipe::Xu, 8, 17}},
    {"FLO", {Pipe::Xu, 8, 17}},
    {"BREV", {Pipe::Xu, 8, 17}},
    {"F2I", {Pipe::Xu, 8, 18}},
    {"I2F", {Pipe::Xu, 8, 18}},
    {"F2F", {Pipe::Xu, 8, 18}},
    {"FRND.F64", {Pipe::Xu, 8, 8}}, // not measured
    {"FRND", {Pipe::Xu, 8, 17}},
    // Memory, shuffles, special registers, tensor cores: latency only (their throughput is the
    // time model's wavefront and shuffle columns).
    {"LDSM", {Pipe::None, 0, 30}},
    {"LDS", {Pipe::None, 0, 30}},
    {"S2R", {Pipe::None, 0, 20}},
    {"S2UR", {Pipe::None, 0, 20}},
    {"LDGSTS", {Pipe::None, 0, 0}},
    {"LDG", {Pipe::None, 0, 0}},
    {"LDL", {Pipe::None, 0, 0}},
    {"LD.", {Pipe::None, 0, 0}},
    {"ATOM", {Pipe::None, 0, 0}},
    {"REDUX", {Pipe::None, 0, 41}},
    {"VOTE", {Pipe::None, 0, 13}},
    {"HMMA", {Pipe::None, 0, 24}},
    {"IMMA", {Pipe::None, 0, 24}},
};

} // namespace

OpcodeTiming opcodeTiming(std::string_view opcode) {
  for (const Row &r : kTable)
    if (opcode.substr(0, r.prefix.size()) == r.prefix) return r.timing;
  return {};
}

} // namespace warplens::analysis
