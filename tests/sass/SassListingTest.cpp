/// \file
/// SASS listing reader: functions, pcs, opcodes, memory decoding (space/op/width) and line info,
/// checked against the nvdisasm listing kept in fixtures/merges.sass and hand-written snippets.
#include "sass/SassListing.h"

#include <gtest/gtest.h>

using namespace warplens;
using namespace warplens::sass;

namespace {

std::string fixture(const std::string &name) { return std::string(WARPLENS_TEST_DATA) + "/fixtures/" + name; }

std::vector<const SassInstruction *> memoryOf(const SassFunction &f) {
  std::vector<const SassInstruction *> out;
  for (const SassInstruction &i : f.instructions)
    if (i.isMemory) out.push_back(&i);
  return out;
}

} // namespace

TEST(SassListing, ReadsNvdisasmFunctionsPcsAndLines) {
  auto fns = readListing(fixture("merges.sass"));
  ASSERT_TRUE(fns.ok()) << fns.error().message;
  ASSERT_EQ(fns->size(), 6u);
  const SassFunction *f = findFunction(*fns, "_Z11sharedF32x4Pf");
  ASSERT_NE(f, nullptr);
  // 0x000 .. 0x1f0 in steps of 16: 32 instructions (EXIT, BRA and NOP padding included)
  ASSERT_EQ(f->instructions.size(), 32u);
  EXPECT_EQ(f->instructions[0].pc, 0u);
  EXPECT_EQ(f->instructions[0].opcode, "LDC");
  EXPECT_FALSE(f->instructions[0].isMemory); // constant bank load, not an LSU access
  auto mem = memoryOf(*f);
  ASSERT_EQ(mem.size(), 6u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(mem[k]->pc, 0xb0u + 0x10u * k);
    EXPECT_EQ(mem[k]->opcode, "STS");
    EXPECT_EQ(mem[k]->space, model::Space::Shared);
    EXPECT_EQ(mem[k]->op, model::Op::Store);
    EXPECT_EQ(mem[k]->widthBytes, 4u);
    EXPECT_EQ(mem[k]->sourceLine, 5 + k);
  }
  EXPECT_EQ(mem[1]->text, "STS [R5+0x400], R0 ;");
  EXPECT_EQ(mem[4]->pc, 0x100u);
  EXPECT_EQ(mem[4]->opcode, "LDS.128");
  EXPECT_EQ(mem[4]->op, model::Op::Load);
  EXPECT_EQ(mem[4]->widthBytes, 16u);
  EXPECT_EQ(mem[4]->sourceLine, 10);
  EXPECT_EQ(mem[4]->sourceFile, "tests/sass/fixtures/merges.cu");
  EXPECT_EQ(mem[5]->pc, 0x140u);
  EXPECT_EQ(mem[5]->opcode, "STG.E");
  EXPECT_EQ(mem[5]->space, model::Space::Global);
  EXPECT_EQ(mem[5]->sourceLine, 11);
}

TEST(SassListing, DecodesGlobalWidthsAndAtomics) {
  auto fns = readListing(fixture("merges.sass"));
  ASSERT_TRUE(fns.ok());
  auto mem = memoryOf(*findFunction(*fns, "_Z14sharedF64PairsPd"));
  ASSERT_EQ(mem.size(), 3u);
  EXPECT_EQ(mem[0]->opcode, "STS.128");
  EXPECT_EQ(mem[2]->opcode, "STG.E.64");
  EXPECT_EQ(mem[2]->widthBytes, 8u);
  mem = memoryOf(*findFunction(*fns, "_Z19globalAlignedStructPK4QuadPf"));
  EXPECT_EQ(mem[0]->opcode, "LDG.E.128.CONSTANT");
  EXPECT_EQ(mem[0]->widthBytes, 16u);

  auto loop = readListing(fixture("loop.sass"));
  ASSERT_TRUE(loop.ok()) << loop.error().message;
  mem = memoryOf(*findFunction(*loop, "_Z7atomicsPiPfPKf"));
  ASSERT_EQ(mem.size(), 9u);
  EXPECT_EQ(mem[0]->text, "@P0 REDG.E.ADD.STRONG.GPU desc[UR6][R8.64], R11 ;");
  EXPECT_EQ(mem[0]->opcode, "REDG.E.ADD.STRONG.GPU"); // predicate is not the opcode
  EXPECT_EQ(mem[0]->op, model::Op::Reduce);
  EXPECT_EQ(mem[0]->space, model::Space::Global);
  EXPECT_EQ(mem[1]->op, model::Op::Atomic);
  EXPECT_EQ(mem[6]->opcode, "ATOMS.ADD");
  EXPECT_EQ(mem[6]->space, model::Space::Shared);
  // atomicAdd(float*) inlined from sm_20_atomic_functions.hpp:84 at loop.cu:16
  EXPECT_EQ(mem[5]->sourceLine, 16);
  EXPECT_EQ(mem[5]->sourceFile, "tests/sass/fixtures/loop.cu");
  EXPECT_EQ(mem[5]->innerLine, 84);
  EXPECT_NE(mem[5]->innerFile.find("sm_20_atomic_functions.hpp"), std::string::npos);
  EXPECT_EQ(mem[3]->opcode, "LDG.E"); // not inlined: inner == outer
  EXPECT_EQ(mem[3]->innerLine, 16);
  EXPECT_EQ(mem[3]->sourceLine, 16);
}

TEST(SassListing, OpcodeTable) {
  struct Row { const char *opcode; bool memory; model::Space space; model::Op op; unsigned width; };
  using S = model::Space;
  using O = model::Op;
  const Row rows[] = {
      {"LDS.U8", true, S::Shared, O::Load, 1},         {"LDS.S16", true, S::Shared, O::Load, 2},
      {"STS.64", true, S::Shared, O::Store, 8},        {"LDG.E.U16.CONSTANT", true, S::Global, O::Load, 2},
      {"LDG.E.64.STRONG.GPU", true, S::Global, O::Load, 8},
      {"LDSM.16.M88.4", true, S::Shared, O::Load, 16}, {"LDSM.16.MT88.2", true, S::Shared, O::Load, 8},
      {"LDGSTS.E.BYPASS.LTC128B.128", true, S::Global, O::Load, 16},
      {"LDGSTS.E.LTC128B", true, S::Global, O::Load, 4},
      {"ATOMG.E.ADD.F64.RN.STRONG.GPU", true, S::Global, O::Atomic, 8},
      {"ATOM.E.CAS.64.STRONG.GPU", true, S::Generic, O::Atomic, 8},
      {"LDL.LU", true, S::Local, O::Load, 4},          {"STL.128", true, S::Local, O::Store, 16},
      {"LD.E.64", true, S::Generic, O::Load, 8},       {"ST.E.U8", true, S::Generic, O::Store, 1},
      {"LDC.64", false, S::Global, O::Load, 4},        {"ULDC.64", false, S::Global, O::Load, 4},
      {"LDGDEPBAR", false, S::Global, O::Load, 4},     {"BAR.SYNC.DEFER_BLOCKING", false, S::Global, O::Load, 4},
  };
  for (const Row &r : rows) {
    SassInstruction i;
    EXPECT_EQ(decodeMemoryOpcode(r.opcode, i), r.memory) << r.opcode;
    EXPECT_EQ(i.isMemory, r.memory) << r.opcode;
    EXPECT_EQ(i.space, r.space) << r.opcode;
    EXPECT_EQ(i.op, r.op) << r.opcode;
    EXPECT_EQ(i.widthBytes, r.width) << r.opcode;
  }
}

TEST(SassListing, ReadsCuobjdumpFormatWithoutLines) {
  const std::string text = R"SASS(
	code for sm_90
		Function : _Z3fooPf
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;         /* 0x00000a00ff017b82 */
                                                                  /* 0x000fe20000000800 */
        /*0090*/              @!P0 LDG.E.128 R4, desc[UR4][R2.64+0x10] ;  /* 0x0000000402047981 */
                                                                  /* 0x000ea4000c1e1d00 */
		Function : _Z3barv
        /*0000*/                   EXIT ;                         /* 0x000000000000794d */
)SASS";
  auto fns = parseListing(text, "snippet.sass");
  ASSERT_TRUE(fns.ok()) << fns.error().message;
  ASSERT_EQ(fns->size(), 2u);
  EXPECT_EQ((*fns)[0].name, "_Z3fooPf");
  ASSERT_EQ((*fns)[0].instructions.size(), 2u);
  const SassInstruction &ld = (*fns)[0].instructions[1];
  EXPECT_EQ(ld.pc, 0x90u);
  EXPECT_EQ(ld.opcode, "LDG.E.128");
  EXPECT_EQ(ld.text, "@!P0 LDG.E.128 R4, desc[UR4][R2.64+0x10] ;");
  EXPECT_EQ(ld.widthBytes, 16u);
  EXPECT_EQ(ld.sourceLine, -1);
  auto addr = parseSassAddress(ld.text);
  ASSERT_TRUE(addr.has_value());
  EXPECT_EQ(addr->base, "R2.64");
  EXPECT_EQ(addr->offset, 16);
  EXPECT_EQ((*fns)[1].name, "_Z3barv");
  EXPECT_EQ(findFunction(*fns, "_Z3baz"), nullptr);
}

TEST(SassListing, InlinedAtChainsGiveInnermostAndOutermost) {
  const std::string text = "Function : f\n"
                           "  //## File \"a.h\", line 7 inlined at \"b.h\", line 9 inlined at \"c.cu\", line 30\n"
                           "  //## File \"c.cu\", line 30\n"
                           "        /*0000*/ LDS R1, [R2] ;\n"
                           "  //## File \"c.cu\", line 31\n"
                           "        /*0010*/ STS [R2], R1 ;\n";
  auto fns = parseListing(text, "inl.sass");
  ASSERT_TRUE(fns.ok()) << fns.error().message;
  const auto &ins = (*fns)[0].instructions;
  ASSERT_EQ(ins.size(), 2u);
  EXPECT_EQ(ins[0].sourceFile, "c.cu");
  EXPECT_EQ(ins[0].sourceLine, 30);
  EXPECT_EQ(ins[0].innerFile, "a.h");
  EXPECT_EQ(ins[0].innerLine, 7);
  EXPECT_EQ(ins[1].sourceLine, 31);
  EXPECT_EQ(ins[1].innerLine, 31);
}

TEST(SassListing, ErrorsNameFileAndLine) {
  auto noSemi = parseListing("Function : f\n        /*0010*/  LDS R4, [R2]\n", "x.sass");
  ASSERT_FALSE(noSemi.ok());
  EXPECT_NE(noSemi.error().message.find("x.sass:2"), std::string::npos) << noSemi.error().message;
  auto noFunction = parseListing("\n\n  /*0000*/ EXIT ;\n", "y.sass");
  ASSERT_FALSE(noFunction.ok());
  EXPECT_NE(noFunction.error().message.find("y.sass:3"), std::string::npos);
  auto badLine = parseListing("Function : f\n\t//## File \"a.cu\", line x\n", "z.sass");
  ASSERT_FALSE(badLine.ok());
  EXPECT_NE(badLine.error().message.find("z.sass:2"), std::string::npos);
  auto missing = readListing("/nonexistent/listing.sass");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/listing.sass"), std::string::npos);
}
