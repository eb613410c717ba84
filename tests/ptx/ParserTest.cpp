/// \file
/// PTX parser tests: module directives, parameters with attributes, register ranges, shared /
/// local / global / const variables, .file/.loc (incl. inlined_at), labels, guards, vector and
/// address operands, calls, and errors that name the file, line and token.
#include "ptx/Module.h"
#include "ptx/Parser.h"

#include <gtest/gtest.h>

using namespace warplens;
using namespace warplens::ptx;

namespace {

const char *kModule = R"(//
// header comment
.version 9.0
.target sm_90
.address_size 64

.extern .shared .align 16 .b8 dyn[];
.global .align 4 .u32 counter = 7;
.const .align 4 .b8 table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

.func (.param .b32 func_retval0) helper(
	.param .b32 helper_param_0
)
{
	.reg .f32 	%f<3>;
	ld.param.f32 	%f1, [helper_param_0];
	add.f32 	%f2, %f1, 0f3F800000;
	st.param.f32 	[func_retval0+0], %f2;
	ret;
}

.visible .entry kern(
	.param .u64 .ptr .global .align 16 kern_param_0,
	.param .align 8 .b8 kern_param_1[16],
	.param .u32 kern_param_2
)
.maxntid 256, 1, 1
{
	.local .align 8 .b8 	__local_depot0[32];
	.reg .pred 	%p<3>;
	.reg .b32 	%r<12>;
	.reg .f32 	%f<6>;
	.reg .b64 	%rd<5>, %SP;
	.shared .align 4 .b8 tile[4224];
	.loc	1 10 3
	ld.param.u64 	%rd1, [kern_param_0];
	mov.u32 	%r1, tile;
	.loc	2 397 9, function_name $L__info_string0, inlined_at 1 27 3
	ld.shared.v4.f32 	{%f1, %f2, %f3, %f4}, [%r1+-16];
	@!%p1 bra 	$L__BB0_2;
	st.global.f32 	[%rd1+8], %f1;
$L__BB0_2:
	{ // callseq 0, 0
	.param .b32 param0;
	st.param.f32 	[param0+0], %f1;
	.param .b32 retval0;
	call.uni (retval0), 
	helper, 
	(
	param0
	);
	ld.param.f32 	%f5, [retval0+0];
	} // callseq 0
	shfl.sync.bfly.b32 	%r2|%p2, %r1, 1, 31, -1;
	ret;
}
	.file	1 "/src/kern.cu"
	.file	2 "/usr/local/cuda/include/sm_30_intrinsics.hpp", 1700000000, 1234
)";

} // namespace

TEST(Parser, ModuleDirectivesAndVariables) {
  auto r = parseText(kModule, "m.ptx");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Module &m = **r;
  EXPECT_EQ(m.version, "9.0");
  EXPECT_EQ(m.target, "sm_90");
  EXPECT_EQ(m.addressSize, 64);
  ASSERT_EQ(m.globals.size(), 3u);
  EXPECT_TRUE(m.globals[0].isExtern);
  EXPECT_EQ(m.globals[0].space, StateSpace::Shared);
  EXPECT_EQ(m.globals[0].align, 16u);
  EXPECT_EQ(m.globals[0].sizeBytes, 0u);
  EXPECT_EQ(m.globals[1].space, StateSpace::Global);
  ASSERT_EQ(m.globals[1].init.size(), 4u);
  EXPECT_EQ(m.globals[1].init[0], 7);
  EXPECT_EQ(m.globals[2].sizeBytes, 8u);
  EXPECT_EQ(m.globals[2].init[7], 8);
  EXPECT_EQ(m.fileName(1), "/src/kern.cu");
  EXPECT_EQ(m.fileName(2), "/usr/local/cuda/include/sm_30_intrinsics.hpp");
  EXPECT_EQ(entryNames(m), std::vector<std::string>{"kern"});
}

TEST(Parser, FunctionsParamsRegistersAndLocals) {
  auto r = parseText(kModule, "m.ptx");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Module &m = **r;
  const Function *h = m.findFunction("helper");
  ASSERT_NE(h, nullptr);
  EXPECT_FALSE(h->isEntry);
  ASSERT_EQ(h->returns.size(), 1u);
  EXPECT_EQ(h->returns[0].name, "func_retval0");
  const Function *k = m.findFunction("kern");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->isEntry);
  ASSERT_EQ(k->params.size(), 3u);
  EXPECT_TRUE(k->params[0].isPtr);
  EXPECT_EQ(k->params[0].align, 16u);
  EXPECT_EQ(k->params[0].sizeBytes, 8u);
  EXPECT_EQ(k->params[1].sizeBytes, 16u);
  EXPECT_EQ(k->params[1].align, 8u);
  EXPECT_EQ(k->params[2].sizeBytes, 4u);
  // %p<3> + %r<12> + %f<6> + %rd<5> + %SP = 3 + 12 + 6 + 5 + 1
  EXPECT_EQ(k->regs.size(), 27u);
  EXPECT_EQ(k->regs[k->regIndex.at("%p2")].type, Type::Pred);
  EXPECT_EQ(k->regs[k->regIndex.at("%SP")].type, Type::B64);
  EXPECT_EQ(k->regIndex.count("%r12"), 0u);
  // locals: depot, tile and the two call-site params
  ASSERT_EQ(k->locals.size(), 4u);
  EXPECT_EQ(k->locals[0].space, StateSpace::Local);
  EXPECT_EQ(k->locals[0].sizeBytes, 32u);
  EXPECT_EQ(k->locals[1].name, "tile");
  EXPECT_EQ(k->locals[1].sizeBytes, 4224u);
}

TEST(Parser, InstructionsOperandsAndLineInfo) {
  auto r = parseText(kModule, "m.ptx");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Function &k = *(*r)->findFunction("kern");
  ASSERT_EQ(k.instructions.size(), 10u);
  const Instruction &ld = k.instructions[0];
  EXPECT_EQ(ld.op, Opcode::Ld);
  EXPECT_EQ(ld.space, StateSpace::Param);
  EXPECT_EQ(ld.ptxLine, 36);
  EXPECT_EQ(ld.locFile, 1);
  EXPECT_EQ(ld.locLine, 10);
  EXPECT_EQ(ld.text, "ld.param.u64 %rd1, [kern_param_0];");
  const Instruction &mov = k.instructions[1];
  EXPECT_EQ(mov.operands[1].kind, OperandKind::Symbol);
  const Instruction &v4 = k.instructions[2];
  EXPECT_EQ(v4.vec, 4);
  EXPECT_EQ(v4.type, Type::F32);
  EXPECT_EQ(v4.space, StateSpace::Shared);
  ASSERT_EQ(v4.operands[0].kind, OperandKind::Vector);
  EXPECT_EQ(v4.operands[0].elems.size(), 4u);
  EXPECT_EQ(v4.operands[1].kind, OperandKind::Address);
  EXPECT_EQ(v4.operands[1].offset, -16);
  EXPECT_EQ(v4.locFile, 2);
  EXPECT_EQ(v4.locLine, 397);
  EXPECT_EQ(v4.outerFile, 1);
  EXPECT_EQ(v4.outerLine, 27);
  const Instruction &bra = k.instructions[3];
  EXPECT_EQ(bra.op, Opcode::Bra);
  EXPECT_TRUE(bra.guardNeg);
  EXPECT_EQ(bra.guard, k.regIndex.at("%p1"));
  EXPECT_EQ(bra.target, 5); // the label sits before the st.param of the call sequence
  EXPECT_EQ(k.labels.at("$L__BB0_2"), 5);
  const Instruction &st = k.instructions[4];
  EXPECT_EQ(st.operands[0].offset, 8);
  EXPECT_EQ(st.operands[0].reg, k.regIndex.at("%rd1"));
  const Instruction &call = k.instructions[6];
  EXPECT_EQ(call.op, Opcode::Call);
  EXPECT_TRUE(call.uni);
  ASSERT_EQ(call.operands.size(), 3u);
  EXPECT_EQ(call.operands[0].kind, OperandKind::List);
  EXPECT_EQ(call.operands[1].symbol, "helper");
  EXPECT_EQ(call.operands[2].elems[0].symbol, "param0");
  const Instruction &shfl = k.instructions[8];
  EXPECT_EQ(shfl.shfl, ShflMode::Bfly);
  ASSERT_EQ(shfl.operands[0].elems.size(), 1u);
  EXPECT_EQ(shfl.operands[0].elems[0].reg, k.regIndex.at("%p2"));
  EXPECT_EQ(shfl.operands[4].kind, OperandKind::Imm);
  EXPECT_EQ(static_cast<std::int64_t>(shfl.operands[4].imm), -1);
}

TEST(Parser, OpcodeModifiers) {
  const char *src = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
  .reg .pred %p<3>;
  .reg .b32 %r<5>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<3>;
  setp.gtu.or.f32 %p1, %f1, %f2, %p2;
  cvt.rzi.sat.s32.f32 %r1, %f1;
  mul.wide.s32 %rd1, %r1, 4;
  ld.global.nc.L1::no_allocate.v2.u32 {%r1, %r2}, [%rd1];
  ld.volatile.shared::cta.u32 %r3, [%r1];
  atom.global.cas.b32 %r1, [%rd1], %r2, %r3;
  red.shared.add.f32 [%r1], %f1;
  cvta.to.global.u64 %rd2, %rd1;
  vote.sync.ballot.b32 %r4, !%p1, -1;
  bar.sync 0;
  barrier.sync.aligned 1, 64;
  bar.warp.sync -1;
  membar.gl;
  fence.acq_rel.gpu;
  ret;
}
)";
  auto r = parseText(src, "mods.ptx");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto &in = (*r)->functions[0].instructions;
  EXPECT_EQ(in[0].cmp, Cmp::Gtu);
  EXPECT_EQ(in[0].boolOp, BoolOp::Or);
  EXPECT_EQ(in[1].round, Round::Rzi);
  EXPECT_TRUE(in[1].sat);
  EXPECT_EQ(in[1].type, Type::S32);
  EXPECT_EQ(in[1].srcType, Type::F32);
  EXPECT_EQ(in[2].mulMode, MulMode::Wide);
  EXPECT_EQ(in[3].space, StateSpace::Global);
  EXPECT_EQ(in[3].vec, 2);
  EXPECT_EQ(in[4].space, StateSpace::Shared);
  EXPECT_EQ(in[5].atomOp, AtomOp::Cas);
  EXPECT_EQ(in[6].op, Opcode::Red);
  EXPECT_EQ(in[6].type, Type::F32);
  EXPECT_TRUE(in[7].toSpace);
  EXPECT_TRUE(in[8].operands[1].negate);
  EXPECT_EQ(in[9].op, Opcode::Bar);
  EXPECT_EQ(in[10].op, Opcode::Bar);
  EXPECT_EQ(in[11].op, Opcode::BarWarp);
  EXPECT_EQ(in[12].op, Opcode::Membar);
  EXPECT_EQ(in[13].op, Opcode::Membar);
}

TEST(Parser, ErrorsNameFileLineAndToken) {
  auto err = [](const std::string &body) {
    std::string src = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                      "  .reg .b32 %r<4>;\n" + body + "\n}\n";
    auto r = parseText(src, "bad.ptx");
    return r.ok() ? std::string("parsed") : r.error().message;
  };
  // line 7 is the first body line
  EXPECT_EQ(err("  tex.2d.v4.f32.f32 {%r1, %r1, %r1, %r1}, [t, {%r1, %r1}];"),
            "bad.ptx:7: unsupported PTX instruction 'tex.2d.v4.f32.f32'");
  EXPECT_EQ(err("  mov.u32 %r1, %r9;"), "bad.ptx:7: unknown register at '%r9'");
  EXPECT_EQ(err("  mov.u32 %r1, 1\n  ret;"), "bad.ptx:8: expected ',' or ';' after operand of 'mov.u32' at 'ret'");
  EXPECT_EQ(err("  add.cc.u32 %r1, %r1, 1;"), "bad.ptx:7: unsupported carry form 'add.cc.u32' (.cc/addc)");
  EXPECT_EQ(err("  ld.global.zz.u32 %r1, [%r2];"), "bad.ptx:7: unsupported modifier '.zz' in 'ld.global.zz.u32'");
  EXPECT_EQ(err("  bra $nowhere;"), "bad.ptx:7: unknown label '$nowhere'");
  EXPECT_EQ(err("  .maxwidget 3;"), "bad.ptx:7: unsupported directive at '.maxwidget'");
  EXPECT_EQ(err("  mov.u32 %r1, undefinedSym;"), "bad.ptx:7: unknown symbol 'undefinedSym' in 'mov.u32 %r1, undefinedSym;'");
  auto r = parseText(".version 9.0\n.blah 3\n", "top.ptx");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "top.ptx:2: unsupported directive at '.blah'");
  auto f = parseFile("/nonexistent/x.ptx");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().message, "/nonexistent/x.ptx: cannot open PTX file");
}

TEST(Parser, ParsesEveryNvccFixture) {
  for (const char *name : {"transpose.ptx", "sgemm.ptx", "misc.ptx"}) {
    auto r = parseFile(std::string(WARPLENS_TEST_DATA) + "/../emu/fixtures/" + name);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_FALSE(entryNames(**r).empty());
  }
}
