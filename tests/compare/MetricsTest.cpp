/// \file
/// Kernel totals from hand-built records; the expected numbers are worked out by hand from the
/// 2048×2048 naive transpose (131,072 warps; loads 4 sectors, stores 32) and a 16×16 shared tile.
#include "analysis/Metrics.h"

#include <gtest/gtest.h>

using namespace warplens;

namespace {

launch::InstructionRecord rec(const char *space, const char *op, std::uint64_t executed,
                              std::uint64_t sectors, std::uint64_t ideal, std::uint64_t wf = 0,
                              std::uint64_t wfIdeal = 0) {
  launch::InstructionRecord r;
  r.space = space;
  r.op = op;
  r.executed = executed;
  r.requests = std::string(space) == "shared" ? 0 : executed;
  r.sectors = sectors;
  r.sectorsIdeal = ideal;
  r.wavefronts = wf;
  r.wavefrontsIdeal = wfIdeal;
  return r;
}

} // namespace

TEST(Metrics, TransposeTotalsUnderNcuNames) {
  // 64×256 blocks of 32×8 threads = 16,384 blocks × 8 warps = 131,072 warp instructions each.
  const std::vector<launch::InstructionRecord> v = {
      rec("global", "ld", 131072, 4 * 131072, 4 * 131072),
      rec("global", "st", 131072, 32 * 131072, 4 * 131072),
      // shared tile: write 1 wavefront per warp, read 8 (8-way conflict)
      rec("shared", "st", 131072, 0, 0, 131072, 131072),
      rec("shared", "ld", 131072, 0, 0, 8 * 131072, 131072),
      // 10 global atomics touching one sector each, 3 local spills of 4 sectors
      rec("global", "atom", 10, 10, 10),
      rec("local", "st", 3, 12, 12),
  };
  auto m = analysis::totalsFromInstructions(v);
  EXPECT_EQ(m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 131072);
  EXPECT_EQ(m["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"], 131072);
  EXPECT_EQ(m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 524288);
  EXPECT_EQ(m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"], 4194304);
  EXPECT_EQ(m["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"], 10);
  EXPECT_EQ(m["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"], 10);
  // SASS metric: every global op (ld 524,288 + st 4,194,304 + atom 10); local excluded
  EXPECT_EQ(m["smsp__sass_sectors_mem_global.sum"], 4718602);
  EXPECT_EQ(m["smsp__sass_sectors_mem_global_ideal.sum"], 1048586);
  EXPECT_EQ(m["smsp__sass_inst_executed_op_global_ld.sum"], 131072);
  EXPECT_EQ(m["smsp__sass_inst_executed_op_global_atom.sum"], 10);
  EXPECT_EQ(m["l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"], 12);
  EXPECT_EQ(m["smsp__sass_inst_executed_op_local_st.sum"], 3);
  // shared: conflicts = wavefronts − ideal = 1,048,576 − 131,072
  EXPECT_EQ(m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], 1048576);
  EXPECT_EQ(m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"], 131072);
  EXPECT_EQ(m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"], 917504);
  EXPECT_EQ(m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"], 0);
  EXPECT_EQ(m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"], 1179648);
  EXPECT_EQ(m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum"], 262144);
  EXPECT_EQ(m["smsp__sass_inst_executed_op_shared_ld.sum"], 131072);
  EXPECT_EQ(m["smsp__sass_inst_executed_op_shared_st.sum"], 131072);
}

TEST(Metrics, CoreSetPresentEvenWhenZeroAndRareOpsOnlyWhenUsed) {
  auto m = analysis::totalsFromInstructions({});
  EXPECT_EQ(m.count("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 1u);
  EXPECT_EQ(m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"], 0);
  EXPECT_EQ(m.count("smsp__sass_sectors_mem_global.sum"), 1u);
  EXPECT_EQ(m.count("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"), 0u);
  EXPECT_EQ(m.count("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"), 0u);
}

TEST(Metrics, CatalogDescribesEveryProducedName) {
  const std::vector<launch::InstructionRecord> v = {
      rec("global", "ld", 1, 4, 4), rec("global", "st", 1, 4, 4), rec("global", "atom", 1, 1, 1),
      rec("global", "red", 1, 1, 1), rec("local", "ld", 1, 4, 4), rec("local", "st", 1, 4, 4),
      rec("shared", "ld", 1, 0, 0, 2, 1), rec("shared", "st", 1, 0, 0, 1, 1),
      rec("shared", "atom", 1, 0, 0, 1, 1)};
  const auto &cat = analysis::metricCatalog();
  for (const auto &[name, value] : analysis::totalsFromInstructions(v)) {
    bool found = false;
    for (const auto &[n, d] : cat) found = found || (n == name && !d.empty());
    EXPECT_TRUE(found) << name;
  }
}

TEST(Metrics, GenericOpcodesReachingSharedAreNotSharedOps) {
  // cluster_runtime_sum_2 (H100): 16 LDS.128 executions and 16 of a generic LD.E through
  // cluster.map_shared_rank, 8 of them on the block's own shared memory (1 wavefront each).
  // smsp__sass_inst_executed_op_shared_ld counts the LDS only (16); the wavefronts count both.
  auto lds = rec("shared", "ld", 16, 0, 0, 16, 16);
  lds.sass = "LDS.128 R4, [UR5] ;";
  auto ld = rec("shared", "ld", 16, 0, 0, 8, 8);
  ld.sass = "@!P1 LD.E R4, desc[UR8][R4.64] ;";
  auto m = analysis::totalsFromInstructions({lds, ld});
  EXPECT_EQ(m["smsp__sass_inst_executed_op_shared_ld.sum"], 16);
  EXPECT_EQ(m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], 24);
  EXPECT_EQ(m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"], 24);
  // LDSM / ATOMS are shared opcodes, ATOM / ST generic
  for (const char *s : {"LDSM.16.M88.4 R16, [R4] ;", "ATOMS.ADD R0, [R2], R3 ;"}) {
    auto r = rec("shared", "ld", 3, 0, 0, 3, 3);
    r.sass = s;
    EXPECT_EQ(analysis::totalsFromInstructions({r})["smsp__sass_inst_executed_op_shared_ld.sum"], 3) << s;
  }
  for (const char *s : {"ATOM.E.ADD.STRONG.GPU PT, R0, [R2.64], R3 ;", "ST.E [R2.64], R3 ;"}) {
    auto r = rec("shared", "ld", 3, 0, 0, 3, 3);
    r.sass = s;
    EXPECT_EQ(analysis::totalsFromInstructions({r})["smsp__sass_inst_executed_op_shared_ld.sum"], 0) << s;
  }
}
