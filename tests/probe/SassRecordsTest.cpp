/// \file
/// Per-pc SASS metric values → InstructionRecords and smsp__sass_*.sum totals, on hand-built
/// listings (numbers chosen by hand: 4 warps, stride-2 shared loads = 2 wavefronts each).
#ifdef WARPLENS_HAVE_CUPTI
#include "cupti_probe/SassRecords.h"

#include <gtest/gtest.h>

namespace warplens::probe {
namespace {

sass::SassInstruction ins(std::uint64_t pc, const char *text, bool mem, model::Space sp,
                          model::Op op, unsigned width, int line) {
  sass::SassInstruction i;
  i.pc = pc;
  i.text = text;
  i.isMemory = mem;
  i.space = sp;
  i.op = op;
  i.widthBytes = width;
  i.sourceFile = "k.cu";
  i.sourceLine = line;
  return i;
}

sass::SassFunction listing() {
  sass::SassFunction f;
  f.name = "k";
  f.instructions = {
      ins(0x10, "LDS R2, [R2] ;", true, model::Space::Shared, model::Op::Load, 4, 7),
      ins(0x20, "IADD3 R4, R2, 0x1, RZ ;", false, model::Space::Global, model::Op::Load, 4, 8),
      ins(0x30, "STG.E desc[UR4][R2.64], R7 ;", true, model::Space::Global, model::Op::Store, 4, 9),
      ins(0x40, "LDG.E.128 R8, desc[UR4][R2.64] ;", true, model::Space::Global, model::Op::Load, 16, 10),
  };
  return f;
}

TEST(SassRecords, MemoryInstructionsOnlyWithListingText) {
  PcValues v;
  v[0x10] = {{"smsp__sass_inst_executed", 4},
             {"smsp__sass_thread_inst_executed", 128},
             {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared", 8},
             {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal", 4}};
  v[0x20] = {{"smsp__sass_inst_executed", 4}};
  v[0x40] = {{"smsp__sass_inst_executed", 4},
             {"smsp__sass_sectors_mem_global", 64},
             {"smsp__sass_sectors_mem_global_ideal", 64}};
  auto fn = listing();
  launch::LaunchResult r;
  addSassRecords(v, &fn, r);
  ASSERT_EQ(r.instructions.size(), 3u); // LDS, STG (never executed: zeros), LDG.128
  const auto &lds = r.instructions[0];
  EXPECT_EQ(lds.sassPc, 0x10u);
  EXPECT_EQ(lds.sass, "LDS R2, [R2] ;");
  EXPECT_EQ(lds.space, "shared");
  EXPECT_EQ(lds.op, "ld");
  EXPECT_EQ(lds.sourceLine, 7);
  EXPECT_EQ(lds.executed, 4u);
  EXPECT_EQ(lds.threads, 128u);
  EXPECT_EQ(lds.wavefronts, 8u);
  EXPECT_EQ(lds.wavefrontsIdeal, 4u);
  EXPECT_EQ(lds.requests, 0u);
  const auto &stg = r.instructions[1];
  EXPECT_EQ(stg.sassPc, 0x30u);
  EXPECT_EQ(stg.executed, 0u);
  EXPECT_EQ(stg.op, "st");
  const auto &ldg = r.instructions[2];
  EXPECT_EQ(ldg.widthBytes, 16u);
  EXPECT_EQ(ldg.requests, 4u);
  EXPECT_EQ(ldg.sectors, 64u);

  EXPECT_EQ(r.metrics.at("smsp__sass_inst_executed.sum"), 12.0);
  EXPECT_EQ(r.metrics.at("smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"), 8.0);
  EXPECT_EQ(r.metrics.at("smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum"), 4.0);
  EXPECT_EQ(r.metrics.at("smsp__sass_sectors_mem_global.sum"), 64.0);
  EXPECT_EQ(r.metrics.at("smsp__sass_inst_executed_op_shared_ld.sum"), 4.0);
  EXPECT_EQ(r.metrics.at("smsp__sass_inst_executed_op_global_ld.sum"), 4.0);
  EXPECT_EQ(r.metrics.at("smsp__sass_inst_executed_op_global_st.sum"), 0.0);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("1 other instructions executed 4"), std::string::npos);
}

TEST(SassRecords, WithoutListingKeepsPcsThatTouchedMemory) {
  PcValues v;
  v[0x10] = {{"smsp__sass_inst_executed", 4}, {"smsp__sass_sectors_mem_global", 20},
             {"smsp__sass_sectors_mem_global_ideal", 16}};
  v[0x20] = {{"smsp__sass_inst_executed", 4}};
  v[0x30] = {{"smsp__sass_inst_executed", 4}, {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared", 4}};
  launch::LaunchResult r;
  addSassRecords(v, nullptr, r);
  ASSERT_EQ(r.instructions.size(), 2u);
  EXPECT_EQ(r.instructions[0].space, "global");
  EXPECT_EQ(r.instructions[0].sectors, 20u);
  EXPECT_EQ(r.instructions[0].requests, 4u);
  EXPECT_TRUE(r.instructions[0].sass.empty());
  EXPECT_EQ(r.instructions[1].space, "shared");
  EXPECT_EQ(r.instructions[1].wavefronts, 4u);
}

TEST(SassRecords, PcMissingFromListingIsNoted) {
  PcValues v;
  v[0x999] = {{"smsp__sass_inst_executed", 1}};
  auto fn = listing();
  launch::LaunchResult r;
  addSassRecords(v, &fn, r);
  bool noted = false;
  for (const auto &n : r.notes) noted = noted || n.find("1 pcs not found") != std::string::npos;
  EXPECT_TRUE(noted);
}

} // namespace
} // namespace warplens::probe
#endif
