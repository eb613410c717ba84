/// \file
/// compare() on hand-built results: exact match, a field mismatch, tolerances (shared counters
/// 15% upward against the wavefront total, dram -10%/+15% plus 64 KiB), unmatched instructions and launches.
#include "analysis/compare/Compare.h"
#include "analysis/compare/CompareViews.h"

#include <gtest/gtest.h>

using namespace warplens;
using analysis::CompareOptions;

namespace {

launch::InstructionRecord insn(std::optional<std::uint64_t> pc, int line, const char *space,
                               const char *op, std::uint64_t exec, std::uint64_t sec,
                               std::uint64_t ideal, std::uint64_t wf = 0, std::uint64_t wfi = 0) {
  launch::InstructionRecord r;
  r.sassPc = pc;
  r.sourceLine = line;
  r.space = space;
  r.op = op;
  r.executed = exec;
  r.requests = exec;
  r.sectors = sec;
  r.sectorsIdeal = ideal;
  r.wavefronts = wf;
  r.wavefrontsIdeal = wfi;
  return r;
}

launch::LaunchResult tile() {
  launch::LaunchResult r;
  r.name = "transpose_shared_16x16_f32";
  r.kernel = "transposeShared16";
  r.instructions = {insn(0x100, 30, "shared", "st", 131072, 0, 0, 131072, 131072),
                    insn(0x130, 32, "shared", "ld", 131072, 0, 0, 1048576, 131072),
                    insn(0x150, 33, "global", "st", 131072, 524288, 524288)};
  r.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 1048576;
  r.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = 917504;
  r.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] = 524288;
  r.metrics["dram__bytes_read.sum"] = 16777216;
  return r;
}

const analysis::MetricRow *row(const analysis::LaunchComparison &l, const std::string &m) {
  for (const auto &r : l.metrics)
    if (r.metric == m) return &r;
  return nullptr;
}

} // namespace

TEST(Compare, IdenticalResultsMatchExactly) {
  auto rep = analysis::compare({tile()}, {tile()}, CompareOptions{});
  ASSERT_EQ(rep.launches.size(), 1u);
  EXPECT_TRUE(rep.ok());
  EXPECT_EQ(rep.launches[0].instructionsMatched, 3u);
  EXPECT_EQ(rep.launches[0].instructionsExact, 3u);
  EXPECT_EQ(rep.instructionsExact(), 3u);
  EXPECT_EQ(rep.instructionsTotal(), 3u);
  for (const auto &r : rep.launches[0].instructions) EXPECT_EQ(r.matchedBy, "pc");
}

TEST(Compare, OneFieldOffIsAMismatchNamedInTheViews) {
  auto measured = tile();
  measured.instructions[1].wavefronts = 2097152; // 16-way instead of 8-way
  auto rep = analysis::compare({tile()}, {measured}, CompareOptions{});
  EXPECT_FALSE(rep.ok());
  const auto &l = rep.launches[0];
  EXPECT_EQ(l.instructionsExact, 2u);
  EXPECT_FALSE(l.instructions[1].ok);
  for (const auto &f : l.instructions[1].fields)
    EXPECT_EQ(f.ok, f.field != "wavefronts") << f.field;
  const auto text = analysis::renderCompareText(rep);
  EXPECT_NE(text.find("1048576 vs 2097152"), std::string::npos) << text;
  EXPECT_NE(text.find("== transpose_shared_16x16_f32  kernel transposeShared16: MISMATCH"),
            std::string::npos);
  const auto md = analysis::renderCompareMarkdown(rep);
  EXPECT_NE(md.find("wavefronts 1048576 vs 2097152. Explanation: _to be written_"),
            std::string::npos) << md;
  const auto j = analysis::compareToJson(rep);
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["launches"][0]["instructions"][1]["fields"]["wavefronts"]["measured"], 2097152);
}

TEST(Compare, ToleranceDefaults) {
  CompareOptions o;
  EXPECT_EQ(o.toleranceFor("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum").above, 0);
  EXPECT_EQ(o.toleranceFor("smsp__sass_sectors_mem_global.sum").above, 0);
  EXPECT_EQ(o.toleranceFor("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum").above, 0.15);
  EXPECT_EQ(o.toleranceFor("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum").below, 0);
  EXPECT_EQ(o.toleranceFor("dram__bytes_read.sum").below, 0.10);
  EXPECT_EQ(o.toleranceFor("dram__bytes_read.sum").above, 0.15);
  EXPECT_EQ(o.toleranceFor("dram__bytes_read.sum").absolute, 65536);
  EXPECT_EQ(analysis::formatTolerance({0.1, 0.15, 65536}), "-10%/+15% +/-65536");
  o.overrides["l1tex__data_*"] = 0.2;
  o.overrides["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 0.01;
  EXPECT_EQ(o.toleranceFor("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum").below, 0.2);
  EXPECT_EQ(o.toleranceFor("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum").above, 0.01);
  EXPECT_EQ(analysis::formatTolerance({0, 0.05}), "+5%");
  EXPECT_EQ(analysis::formatTolerance({0.1, 0.1}), "±10%");
}

TEST(Compare, HardwareNoiseWithinToleranceButNotBeyond) {
  auto measured = tile();
  // +4% shared wavefronts; conflicts +41,943 = 4% of the 1,048,576 predicted wavefronts (the
  // base for the conflict counter), although 4.6% of the 917,504 predicted conflicts.
  measured.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 1090519;
  measured.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = 959447;
  measured.metrics["dram__bytes_read.sum"] = 16777216 * 1.09;
  auto rep = analysis::compare({tile()}, {measured}, CompareOptions{});
  EXPECT_TRUE(rep.ok()) << analysis::renderCompareText(rep);
  const auto *conf = row(rep.launches[0], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
  ASSERT_NE(conf, nullptr);
  EXPECT_EQ(conf->excess, 41943);

  // shared counters below the prediction are not noise: mismatch
  auto low = tile();
  low.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 1048575;
  EXPECT_FALSE(analysis::compare({tile()}, {low}, CompareOptions{}).ok());
  // dram: 16,777,216 x 1.15 + 65,536 = 19,359,334 is the upper edge; one byte more is a mismatch
  auto dramEdge = tile();
  dramEdge.metrics["dram__bytes_read.sum"] = 19359334;
  EXPECT_TRUE(analysis::compare({tile()}, {dramEdge}, CompareOptions{}).ok());
  dramEdge.metrics["dram__bytes_read.sum"] = 19359335;
  EXPECT_FALSE(analysis::compare({tile()}, {dramEdge}, CompareOptions{}).ok());
  // 16% over: beyond the 15% (1,048,576 x 1.16 = 1,216,348)
  auto high = tile();
  high.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 1216348;
  EXPECT_FALSE(analysis::compare({tile()}, {high}, CompareOptions{}).ok());
  // a global sector counter one off: mismatch; with --tolerance it passes
  auto sec = tile();
  sec.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] = 524289;
  EXPECT_FALSE(analysis::compare({tile()}, {sec}, CompareOptions{}).ok());
  CompareOptions loose;
  loose.overrides["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] = 0.001;
  EXPECT_TRUE(analysis::compare({tile()}, {sec}, loose).ok());
}

TEST(Compare, MetricOnOneSideOnlyIsListedNotFailed) {
  auto measured = tile();
  measured.metrics["sm__cycles_elapsed.avg"] = 12345;
  measured.metrics.erase("dram__bytes_read.sum");
  auto rep = analysis::compare({tile()}, {measured}, CompareOptions{});
  EXPECT_TRUE(rep.ok());
  // a measured metric the model cannot produce is left out; a predicted one ncu lacks is listed
  EXPECT_EQ(row(rep.launches[0], "sm__cycles_elapsed.avg"), nullptr);
  EXPECT_EQ(rep.launches[0].measuredOnlyIgnored, 1u);
  const auto *dram = row(rep.launches[0], "dram__bytes_read.sum");
  ASSERT_NE(dram, nullptr);
  EXPECT_FALSE(dram->compared);
  EXPECT_EQ(dram->predicted, 16777216.0);
  // a catalog metric the model did not emit counts as predicted 0
  measured.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"] = 5;
  EXPECT_FALSE(analysis::compare({tile()}, {measured}, CompareOptions{}).ok());
}

TEST(Compare, UnmatchedInstructionsAndSourceFallback) {
  auto pred = tile();
  auto meas = tile();
  // the model saw four scalar LDS where ptxas emitted one LDS.128: no pcs on the predicted side
  for (auto &i : pred.instructions) i.sassPc.reset();
  pred.instructions.push_back(insn(std::nullopt, 32, "shared", "ld", 131072, 0, 0, 131072, 131072));
  // a measured instruction that never ran is not a mismatch
  meas.instructions.push_back(insn(0x400, 90, "global", "ld", 0, 0, 0));
  auto rep = analysis::compare({pred}, {meas}, CompareOptions{});
  const auto &l = rep.launches[0];
  EXPECT_EQ(l.instructionsMatched, 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(l.instructions[i].matchedBy, "source");
  EXPECT_EQ(l.unmatchedPredicted, 1u);
  EXPECT_EQ(l.unmatchedMeasured, 0u);
  EXPECT_FALSE(l.ok);
  EXPECT_EQ(rep.instructionsTotal(), 4u);
  EXPECT_NE(analysis::renderCompareText(rep).find("predicted only"), std::string::npos);
}

TEST(Compare, LaunchMatchingByNameThenKernelAndOnly) {
  auto a = tile();
  auto b = tile();
  b.name = "transpose_naive";
  b.kernel = "transposeNaive";
  auto mb = b;
  mb.name = "void transposeNaive(float *, const float *, int)"; // as an ncu CSV names it
  mb.kernel = mb.name;
  auto extra = tile();
  extra.name = "cublas_sgemm";
  extra.kernel = "sm90_xmma_gemm";
  auto rep = analysis::compare({a, b}, {mb, extra, a}, CompareOptions{});
  ASSERT_EQ(rep.launches.size(), 2u);
  EXPECT_EQ(rep.launches[0].name, "transpose_shared_16x16_f32");
  EXPECT_EQ(rep.launches[1].name, "transpose_naive");
  EXPECT_EQ(rep.onlyMeasured, std::vector<std::string>{"cublas_sgemm"});
  CompareOptions only;
  only.only = "transpose_naive";
  auto one = analysis::compare({a, b}, {mb, a}, only);
  ASSERT_EQ(one.launches.size(), 1u);
  EXPECT_EQ(one.launches[0].name, "transpose_naive");
  auto none = analysis::compare({a}, {extra}, CompareOptions{});
  EXPECT_TRUE(none.launches.empty());
  EXPECT_EQ(none.onlyPredicted, std::vector<std::string>{"transpose_shared_16x16_f32"});
}

TEST(Compare, ClaimsTableVerdicts) {
  auto rep = analysis::compare({tile()}, {tile()}, CompareOptions{});
  nlohmann::json claims = {{"transpose_shared_16x16_f32", "16-way bank conflicts"},
                           {"vecadd_offset1", "80% coalescing"}};
  const auto md = analysis::renderClaimsMarkdown(rep, claims);
  // measured LDS: 1,048,576 / 131,072 = 8-way, so the seed's 16-way claim does not hold
  EXPECT_NE(md.find("| transpose_shared_16x16_f32 | 16-way bank conflicts | shared max 8.00-way; "
                    "global min eff 100.0%, max 4.00 sectors/req | shared max 8.00-way; global min "
                    "eff 100.0%, max 4.00 sectors/req | does not hold |"),
            std::string::npos) << md;
  EXPECT_NE(md.find("1 further claim(s) concern launches not in this comparison."),
            std::string::npos);
  // a claim for the 2048 size applies to the same seed at another size
  auto small = tile();
  small.name = "transpose_shared_16x16_f32_64";
  auto rep2 = analysis::compare({small}, {small}, CompareOptions{});
  nlohmann::json claims2 = {{"transpose_shared_16x16_f32_2048", "8-way"}};
  EXPECT_NE(analysis::renderClaimsMarkdown(rep2, claims2)
                .find("| transpose_shared_16x16_f32_64 | 8-way | "),
            std::string::npos);
  EXPECT_NE(analysis::renderClaimsMarkdown(rep2, claims2).find("| holds |"), std::string::npos);
}
