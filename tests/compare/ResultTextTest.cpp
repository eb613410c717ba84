/// \file
/// Text and HTML views on hand-built results: header lines, one aligned row per instruction
/// (80% efficiency for the misaligned vector add: 128 ideal of 160 sectors), totals lines.
#include "analysis/views/ResultViews.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace warplens;

namespace {

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream is(text);
  for (std::string l; std::getline(is, l);) out.push_back(l);
  return out;
}

std::vector<std::string> words(const std::string &line) {
  std::vector<std::string> out;
  std::istringstream is(line);
  for (std::string w; is >> w;) out.push_back(w);
  return out;
}

launch::LaunchResult vecadd() {
  launch::LaunchResult r;
  r.name = "vecadd_offset1";
  r.kernel = "vecAdd";
  r.grid = {4, 1, 1};
  r.block = {256, 1, 1};
  r.arch = "sm_90";
  r.checkPassed = true;
  r.notes = {"PTX-level: no SASS listing"};
  launch::InstructionRecord ld;
  ld.sassPc = 0x90;
  ld.sass = "LDG.E R2, desc[UR4][R2.64]";
  ld.sourceFile = "/src/kernels/vecadd.cu";
  ld.sourceLine = 7;
  ld.space = "global";
  ld.op = "ld";
  ld.widthBytes = 4;
  ld.executed = 32; // 4 blocks × 8 warps
  ld.requests = 32;
  ld.sectors = 160; // 5 per request (misaligned by one float)
  ld.sectorsIdeal = 128;
  launch::InstructionRecord sts;
  sts.ptxLine = 52;
  sts.ptx = "st.shared.f32 [%r4], %f1;";
  sts.space = "shared";
  sts.op = "st";
  sts.widthBytes = 4;
  sts.executed = 32;
  sts.wavefronts = 512; // 16-way
  sts.wavefrontsIdeal = 32;
  sts.conflictWaysMax = 16;
  r.instructions = {ld, sts};
  r.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 160;
  r.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] = 512;
  return r;
}

} // namespace

TEST(ResultText, HeaderRowsAndTotals) {
  const auto text = analysis::renderResultsText({vecadd()});
  const auto L = lines(text);
  ASSERT_GE(L.size(), 9u) << text;
  EXPECT_EQ(L[0], "== vecadd_offset1  kernel vecAdd  grid 4,1,1  block 256,1,1  arch sm_90");
  EXPECT_EQ(L[1], "   check:  passed");
  EXPECT_EQ(L[2], "   note:   PTX-level: no SASS listing");
  EXPECT_EQ(words(L[4]), (std::vector<std::string>{"pc", "instruction", "source", "space", "op",
                                                   "width", "executed", "requests", "sectors",
                                                   "ideal", "eff%", "wavefronts", "ideal", "ways"}));
  EXPECT_EQ(words(L[5]),
            (std::vector<std::string>{"0x0090", "LDG.E", "R2,", "desc[UR4][R2.64]", "vecadd.cu:7",
                                      "global", "ld", "4", "32", "32", "160", "128", "80.0", "-",
                                      "-", "-"}));
  EXPECT_EQ(words(L[6]),
            (std::vector<std::string>{"ptx:52", "st.shared.f32", "[%r4],", "%f1;", "-", "shared",
                                      "st", "4", "32", "-", "-", "-", "-", "512", "32", "16"}));
  // numbers are right-aligned under their header: "eff%" ends where "80.0" ends
  EXPECT_EQ(L[4].find("eff%") + 4, L[5].find("80.0") + 4);
  EXPECT_EQ(L[4].find("ways") + 4, L[6].size());
  EXPECT_EQ(L[8], "  totals (Nsight Compute metric names)");
  EXPECT_EQ(words(L[10]), (std::vector<std::string>{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "512"}));
  EXPECT_EQ(words(L[11]), (std::vector<std::string>{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "160"}));
  for (const auto &l : L) EXPECT_TRUE(l.empty() || l.back() != ' ') << "trailing blank: " << l;
}

TEST(ResultText, FailedCheckAndDevice) {
  auto r = vecadd();
  r.checkPassed = false;
  r.checkDetail = "out[3] = 7, expected 6";
  r.device = "NVIDIA H200";
  r.notes.clear();
  const auto L = lines(analysis::renderResultsText({r, r}));
  EXPECT_EQ(L[1], "   device: NVIDIA H200");
  EXPECT_EQ(L[2], "   check:  FAILED (out[3] = 7, expected 6)");
  int headers = 0;
  for (const auto &l : L) headers += l.rfind("== vecadd_offset1", 0) == 0;
  EXPECT_EQ(headers, 2);
}

TEST(ResultHtml, SelfContainedWithEmbeddedJson) {
  auto r = vecadd();
  r.notes = {"a </script> in a note"};
  const auto html = analysis::renderResultsHtml({r});
  EXPECT_NE(html.find("<!DOCTYPE html>"), std::string::npos);
  EXPECT_NE(html.find("\"sectors_ideal\":128"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  // the note cannot close the data element early
  EXPECT_NE(html.find("a <\\/script> in a note"), std::string::npos);
  std::size_t closes = 0;
  for (std::size_t p = html.find("</script>"); p != std::string::npos; p = html.find("</script>", p + 1))
    ++closes;
  EXPECT_EQ(closes, 2u);
}
