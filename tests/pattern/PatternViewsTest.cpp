/// \file
/// Views of a hand-built pattern report (no model run): the bank diagram places lanes in their
/// bank's column with one row per distinct word, and JSON carries the record fields.
#include "analysis/views/PatternViews.h"

#include <gtest/gtest.h>

using namespace warplens::analysis;

namespace {

/// Three active lanes: lanes 0 and 1 in bank 2 on different words (2-way), lane 2 broadcasts
/// lane 0's word. Hand-set counts: 2 wavefronts, ideal 1.
PatternReport handBuilt() {
  PatternReport r;
  r.options.index = "hand";
  r.options.block = {32, 1, 1};
  r.archName = "sm_test";
  r.warpsPerBlock = 1;
  WarpRecord w;
  w.lanes.resize(32);
  for (unsigned i = 0; i < 32; ++i) w.lanes[i].lane = i;
  auto set = [&](unsigned lane, std::uint64_t word) {
    LaneRecord &l = w.lanes[lane];
    l.active = true;
    l.word = word;
    l.address = word * 4;
    l.index = static_cast<std::int64_t>(word);
    l.bank = static_cast<unsigned>(word % 32);
  };
  set(0, 2);
  set(1, 34);
  set(2, 2);
  w.active = 3;
  w.requests = 1;
  w.wavefronts = 2;
  w.wavefrontsIdeal = 1;
  w.conflictWays = 2;
  r.warps.push_back(w);
  r.totals.warps = 1;
  r.totals.wavefronts = 2;
  r.totals.wavefrontsIdeal = 1;
  r.totals.histogram[2] = 1;
  return r;
}

} // namespace

TEST(PatternViews, BankGridFromLanes) {
  PatternReport r = handBuilt();
  BankGrid g = bankGrid(r, r.warps[0]);
  ASSERT_EQ(g.phases.size(), 1u);
  EXPECT_EQ(g.phases[0].rows, 2u);
  ASSERT_EQ(g.phases[0].banks[2].size(), 2u);
  EXPECT_EQ(g.phases[0].banks[2][0].lanes, (std::vector<unsigned>{0, 2})); // broadcast
  EXPECT_EQ(g.phases[0].banks[2][1].word, 34u);
  std::string d = renderBankDiagram(r, r.warps[0]);
  // row 1: bank 2 shows lane 0 with the broadcast mark; row 2: lane 1
  EXPECT_NE(d.find("w1    .  .  0* .  ."), std::string::npos) << d;
  EXPECT_NE(d.find("w2    .  .  1  .  ."), std::string::npos) << d;
}

TEST(PatternViews, JsonFields) {
  nlohmann::json j = patternToJson(handBuilt());
  EXPECT_EQ(j["arch"], "sm_test");
  EXPECT_EQ(j["warps"][0]["wavefronts"], 2);
  EXPECT_EQ(j["warps"][0]["conflict_ways"], 2);
  EXPECT_EQ(j["warps"][0]["lanes"][1]["bank"], 2);
  EXPECT_EQ(j["warps"][0]["lanes"][1]["address"], 136);
  EXPECT_FALSE(j["warps"][0]["lanes"][3].contains("index")); // inactive lane
  EXPECT_EQ(j["totals"]["wavefronts_ideal"], 1);
}

TEST(PatternViews, TextAllShowsHistogram) {
  PatternReport r = handBuilt();
  r.options.all = true;
  r.totals.histogram = {{1, 3}, {2, 1}};
  std::string t = renderPatternText(r);
  EXPECT_NE(t.find("   1 │######################################## 3 warps"), std::string::npos) << t;
  EXPECT_NE(t.find("   2 │############## 1 warp\n"), std::string::npos) << t;
}
