/// \file
/// Copies ptxas made of one PTX access (copy_group): compared by their sums, then by the sums of
/// their source line; the JSON key round-trips; `warplens compare` exits 0 / 1 on such groups.
#include "analysis/compare/Compare.h"
#include "analysis/compare/CompareViews.h"
#include "launch/Result.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <sys/wait.h>

using namespace warplens;
using analysis::CompareOptions;
using analysis::RowVerdict;

namespace {

launch::InstructionRecord ld(std::uint64_t pc, int line, std::uint64_t exec,
                             std::uint64_t sectorsPerExec, std::optional<std::uint32_t> group) {
  launch::InstructionRecord r;
  r.sassPc = pc;
  r.sourceFile = "loop.cu";
  r.sourceLine = line;
  r.space = "global";
  r.op = "ld";
  r.widthBytes = 4;
  r.executed = exec;
  r.requests = exec;
  r.sectors = exec * sectorsPerExec;
  r.sectorsIdeal = exec * 4;
  r.copyGroup = group;
  return r;
}

launch::LaunchResult launchOf(std::vector<launch::InstructionRecord> insns) {
  launch::LaunchResult r;
  r.name = "unrolled";
  r.kernel = "sumLoop";
  r.instructions = std::move(insns);
  return r;
}

// One warp runs a loop of 13 iterations; ptxas unrolled it into a main body of 4 copies
// (3 passes: 12 iterations) and tails of 2 copies (not run: 13 mod 4 = 1) and 1 copy (run once).
// Measured per copy: 3,3,3,3,0,0,1. The round-robin prediction (k mod 7): 2,2,2,2,2,2,1.
const std::array<std::uint64_t, 7> kMeasured{3, 3, 3, 3, 0, 0, 1};
const std::array<std::uint64_t, 7> kRoundRobin{2, 2, 2, 2, 2, 2, 1};

std::vector<launch::InstructionRecord> loop(const std::array<std::uint64_t, 7> &execs,
                                            std::uint64_t sectorsPerExec, std::uint64_t pc0,
                                            std::optional<std::uint32_t> group) {
  std::vector<launch::InstructionRecord> v;
  for (std::size_t i = 0; i < execs.size(); ++i)
    v.push_back(ld(pc0 + 16 * i, 7, execs[i], sectorsPerExec, group));
  return v;
}

} // namespace

TEST(CopyGroupCompare, EqualGroupSumsMatchByGroup) {
  auto rep = analysis::compare({launchOf(loop(kRoundRobin, 4, 0x100, 1))},
                               {launchOf(loop(kMeasured, 4, 0x100, std::nullopt))},
                               CompareOptions{});
  ASSERT_EQ(rep.launches.size(), 1u);
  const auto &l = rep.launches[0];
  EXPECT_TRUE(rep.ok());
  // copy 6 (1 vs 1) is exact at its pc; the other six differ there but the group sums agree:
  // executed 13 = 13, sectors 52 = 52.
  EXPECT_EQ(l.instructionsExact, 1u);
  EXPECT_EQ(l.instructionsByGroup, 6u);
  EXPECT_EQ(l.instructionsByLine, 0u);
  EXPECT_EQ(l.instructionsMismatched, 0u);
  EXPECT_EQ(l.instructions[0].verdict, RowVerdict::GroupOk);
  EXPECT_EQ(l.instructions[6].verdict, RowVerdict::Exact);
  EXPECT_EQ(l.instructions[0].groupSize, 7u);
  for (const auto &f : l.instructions[0].groupFields)
    if (f.field == "executed") EXPECT_EQ(f.predicted, 13u);
    else if (f.field == "sectors") EXPECT_EQ(f.measured, 52u);
  const std::string text = analysis::renderCompareText(rep);
  EXPECT_NE(text.find("group ok"), std::string::npos) << text;
  EXPECT_NE(text.find("c1 Σ7 executed 13"), std::string::npos) << text;
  EXPECT_NE(text.find("instructions exactly matched: 1 of 7 (14.3%); matched by copy-group "
                      "sums: 6, by source-line sums: 0; mismatched: 0"),
            std::string::npos)
      << text;
}

TEST(CopyGroupCompare, DifferentGroupSumsAreAMismatch) {
  auto measured = launchOf(loop(kMeasured, 4, 0x100, std::nullopt));
  measured.instructions[0].sectors += 1; // one of its 3 executions touched 5 sectors
  auto rep = analysis::compare({launchOf(loop(kRoundRobin, 4, 0x100, 1))}, {measured},
                               CompareOptions{});
  const auto &l = rep.launches[0];
  EXPECT_FALSE(rep.ok());
  EXPECT_EQ(l.instructionsExact, 1u);
  EXPECT_EQ(l.instructionsByGroup, 0u);
  EXPECT_EQ(l.instructionsMismatched, 6u);
  EXPECT_EQ(l.instructions[1].verdict, RowVerdict::GroupMismatch);
  const std::string text = analysis::renderCompareText(rep);
  EXPECT_NE(text.find("group MISMATCH"), std::string::npos) << text;
  EXPECT_NE(text.find("sectors 52 vs 53"), std::string::npos) << text;
  EXPECT_NE(analysis::renderCompareMarkdown(rep).find("copy group c1 Σ7 executed 13; sectors 52 vs 53"),
            std::string::npos);
}

TEST(CopyGroupCompare, CopiesGivenToTheWrongAccessMatchBySourceLine) {
  // Two accesses on line 7: a coalesced one (4 sectors) and a scattered one (32 sectors). The
  // prediction put the copies of each in the other's group: group sums differ (52 vs 416
  // sectors), the line's sums agree (468 = 468).
  auto predicted = loop(kRoundRobin, 4, 0x100, 1);
  for (auto &r : loop(kRoundRobin, 32, 0x200, 2)) predicted.push_back(r);
  auto measured = loop(kMeasured, 32, 0x100, std::nullopt);
  for (auto &r : loop(kMeasured, 4, 0x200, std::nullopt)) measured.push_back(r);
  for (auto &r : measured) r.sectorsIdeal = r.executed * 4;
  auto rep = analysis::compare({launchOf(predicted)}, {launchOf(measured)}, CompareOptions{});
  const auto &l = rep.launches[0];
  EXPECT_TRUE(rep.ok());
  // copy 6 of each group: 1 execution on both sides, but 4 vs 32 sectors: not exact.
  EXPECT_EQ(l.instructionsExact, 0u);
  EXPECT_EQ(l.instructionsByLine, 14u);
  EXPECT_EQ(l.instructions[0].verdict, RowVerdict::LineOk);
  EXPECT_EQ(l.instructions[0].groupSize, 14u);
  const std::string text = analysis::renderCompareText(rep);
  EXPECT_NE(text.find("line ok"), std::string::npos) << text;
  EXPECT_NE(text.find("by source-line sums: 14; mismatched: 0"), std::string::npos) << text;

  // A different width on the same line is a different access: no line match.
  for (std::size_t i = 7; i < 14; ++i) predicted[i].widthBytes = 8;
  auto split = analysis::compare({launchOf(predicted)}, {launchOf(measured)}, CompareOptions{});
  EXPECT_FALSE(split.ok());
  EXPECT_EQ(split.launches[0].instructionsMismatched, 14u);
}

TEST(CopyGroupCompare, CopyGroupRoundTripsThroughJson) {
  auto rec = ld(0x100, 7, 3, 4, 5);
  const auto j = launch::toJson(rec);
  EXPECT_EQ(j.at("copy_group"), 5);
  EXPECT_FALSE(launch::toJson(ld(0x100, 7, 3, 4, std::nullopt)).contains("copy_group"));
  auto back = launch::resultsFromJson(launch::toJson(std::vector<launch::LaunchResult>{
                                          launchOf({rec, ld(0x110, 8, 1, 4, std::nullopt)})}),
                                      "t.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ((*back)[0].instructions.size(), 2u);
  EXPECT_EQ((*back)[0].instructions[0].copyGroup, std::optional<std::uint32_t>(5));
  EXPECT_FALSE((*back)[0].instructions[1].copyGroup.has_value());
  nlohmann::json bad = launch::toJson(std::vector<launch::LaunchResult>{launchOf({rec})});
  bad["launches"][0]["instructions"][0]["copy_group"] = "c5";
  auto err = launch::resultsFromJson(bad, "t.json");
  ASSERT_FALSE(err.ok());
  EXPECT_NE(err.error().message.find("copy_group"), std::string::npos) << err.error().message;
}

namespace {

int runCompare(const std::string &measured, std::string *output) {
  const std::string dir = std::string(WARPLENS_TEST_DATA) + "/data/";
  const std::string cmd = std::string(WARPLENS_BIN) + " compare " + dir +
                          "copies_predicted.json " + dir + measured + " 2>&1";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) output->append(buf.data(), n);
  const int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

} // namespace

TEST(CopyGroupCompareCli, GroupOkExitsZeroGroupMismatchExitsOne) {
  std::string ok, bad;
  EXPECT_EQ(runCompare("copies_measured_ok.json", &ok), 0) << ok;
  EXPECT_NE(ok.find("instructions exactly matched: 2 of 8 (25.0%); matched by copy-group sums: 6, "
                    "by source-line sums: 0; mismatched: 0"),
            std::string::npos)
      << ok;
  EXPECT_EQ(runCompare("copies_measured_bad.json", &bad), 1) << bad;
  EXPECT_NE(bad.find("group MISMATCH"), std::string::npos) << bad;
  EXPECT_NE(bad.find("sectors 52 vs 53"), std::string::npos) << bad;
}
