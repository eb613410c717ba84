/// \file
/// The opcode table of the SASS engine: which family file gives each sm_90 base opcode its
/// semantics. An opcode missing here is reported as unsupported (with pc and source line).
#include "sassemu/Exec.h"

#include <string_view>

namespace warplens::sassemu {

Selector selectorFor(const std::string &base) {
  struct Row { std::string_view op; Selector sel; };
  static const Row rows[] = {
      // integer (uniform forms share the semantics)
      {"IMAD", selectInt}, {"UIMAD", selectInt}, {"IADD3", selectInt}, {"UIADD3", selectInt},
      {"VIADD", selectInt}, {"IADD", selectInt}, {"LEA", selectInt}, {"ULEA", selectInt},
      {"LOP3", selectInt}, {"ULOP3", selectInt}, {"PLOP3", selectInt}, {"UPLOP3", selectInt},
      {"SHF", selectInt}, {"USHF", selectInt}, {"ISETP", selectInt}, {"UISETP", selectInt},
      {"SEL", selectInt}, {"USEL", selectInt}, {"IMNMX", selectInt}, {"VIMNMX", selectInt}, {"VIMNMX3", selectInt},
      {"UIMNMX", selectInt}, {"IABS", selectInt}, {"POPC", selectInt}, {"UPOPC", selectInt},
      {"FLO", selectInt}, {"UFLO", selectInt}, {"BREV", selectInt}, {"UBREV", selectInt},
      {"PRMT", selectInt}, {"UPRMT", selectInt}, {"BMSK", selectInt}, {"UBMSK", selectInt},
      {"SGXT", selectInt}, {"USGXT", selectInt}, {"VABSDIFF", selectInt}, {"VIADDMNMX", selectInt},
      // floating point
      {"FADD", selectFloat}, {"FMUL", selectFloat}, {"FFMA", selectFloat}, {"FMNMX", selectFloat},
      {"FSEL", selectFloat}, {"FSETP", selectFloat}, {"FCHK", selectFloat}, {"MUFU", selectFloat},
      {"HADD2", selectFloat}, {"HMUL2", selectFloat}, {"HFMA2", selectFloat},
      {"DADD", selectFloat}, {"DMUL", selectFloat}, {"DFMA", selectFloat}, {"DSETP", selectFloat},
      {"DMNMX", selectFloat},
      // conversions
      {"I2F", selectConvert}, {"I2FP", selectConvert}, {"F2I", selectConvert}, {"F2IP", selectConvert},
      {"F2F", selectConvert}, {"FRND", selectConvert},
      // data movement
      {"MOV", selectMove}, {"UMOV", selectMove}, {"MOV32I", selectMove}, {"S2R", selectMove},
      {"S2UR", selectMove}, {"CS2R", selectMove}, {"LDC", selectMove}, {"ULDC", selectMove},
      {"R2UR", selectMove}, {"P2R", selectMove}, {"R2P", selectMove}, {"SHFL", selectMove},
      {"VOTE", selectMove}, {"VOTEU", selectMove},
      // memory
      {"LDG", selectMemory}, {"STG", selectMemory}, {"LDS", selectMemory}, {"STS", selectMemory},
      {"LDL", selectMemory}, {"STL", selectMemory}, {"LD", selectMemory}, {"ST", selectMemory},
      {"ATOMS", selectMemory}, {"ATOMG", selectMemory}, {"ATOM", selectMemory},
      {"REDG", selectMemory}, {"RED", selectMemory},
      // control
      {"BRA", selectControl}, {"BRX", selectControl}, {"CALL", selectControl}, {"RET", selectControl},
      {"EXIT", selectControl}, {"KILL", selectControl}, {"BSSY", selectControl}, {"BSYNC", selectControl},
      {"BREAK", selectControl}, {"BMOV", selectControl}, {"WARPSYNC", selectControl}, {"BAR", selectControl},
      {"BPT", selectControl}, {"NOP", selectControl}, {"YIELD", selectControl}, {"DEPBAR", selectControl},
      {"MEMBAR", selectControl}, {"FENCE", selectControl}, {"ERRBAR", selectControl}, {"CCTL", selectControl},
      {"CGAERRBAR", selectControl}, {"NANOSLEEP", selectControl},
      // asynchronous copies and mbarriers
      {"LDGSTS", selectAsync}, {"LDGDEPBAR", selectAsync}, {"SYNCS", selectAsync}, {"ARRIVES", selectAsync},
      // Hopper TMA (bulk and tensor copies) and thread block clusters
      {"UBLKCP", selectAsync}, {"UTMALDG", selectAsync}, {"UTMASTG", selectAsync},
      {"UTMACMDFLUSH", selectAsync}, {"ELECT", selectAsync},
      {"UCGABAR_ARV", selectCluster}, {"UCGABAR_WAIT", selectCluster},
      // warp collectives
      {"REDUX", selectWarp}, {"MATCH", selectWarp}, {"ENDCOLLECTIVE", selectWarp}, {"B2R", selectWarp},
      // tensor cores and packed half conversions
      {"HMMA", selectTensor}, {"LDSM", selectTensor}, {"MOVM", selectTensor}, {"F2FP", selectTensor},
      {"HGMMA", selectTensor}, {"WARPGROUP", selectTensor},
      {"IMMA", selectTensor}, {"STSM", selectTensor},
      // device-side diagnostics
      {"LEPC", selectDiag},
  };
  for (const Row &r : rows)
    if (r.op == base) return r.sel;
  return nullptr;
}

} // namespace warplens::sassemu
