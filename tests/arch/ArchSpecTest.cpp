/// \file
/// Architecture data: the built-in files load, inherit and override as written; bad files give
/// errors naming the file and key; the CLI lists every architecture.
#include "arch/ArchSpec.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace warplens::arch {
namespace {

const std::string kData = std::string(WARPLENS_TEST_DATA) + "/data/";

ArchSpec load(const std::string &name) {
  auto a = loadArch(name);
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message);
  return a.ok() ? a.value() : ArchSpec{};
}

/// Error message of loading `text` as `file`; fails the test if it loads.
std::string errorOf(const std::string &file, const std::string &text) {
  auto a = loadArchText(file, text);
  EXPECT_FALSE(a.ok()) << file << " loaded";
  return a.ok() ? "" : a.error().message;
}

TEST(ArchSpec, ListsEveryArchitectureInOrder) {
  std::vector<std::string> want = {"sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"};
  EXPECT_EQ(listArches(), want);
}

TEST(ArchSpec, Sm90ResolvesThroughTheChain) {
  ArchSpec a = load("sm_90");
  EXPECT_EQ(a.name, "sm_90");
  EXPECT_EQ(a.inherits, "sm_89");
  std::vector<std::string> files = {"sm_90.json", "sm_89.json", "sm_86.json",
                                    "sm_80.json", "sm_75.json", "sm_70.json"};
  EXPECT_EQ(a.files, files);
  EXPECT_EQ(a.warpSize, 32u);
  EXPECT_EQ(a.sectorBytes, 32u);
  EXPECT_EQ(a.lineBytes, 128u);
  EXPECT_TRUE(a.idealCountsDuplicateBytes); // measured (arch/CALIBRATION.md)
  EXPECT_EQ(a.sharedBanks, 32u);
  EXPECT_EQ(a.bankWidthBytes, 4u);
  EXPECT_EQ(a.l2Bytes, 50u * 1024 * 1024); // H100 SXM / H200: 50 MB
  EXPECT_EQ(a.sharedBytesPerSmMax, 228u * 1024);
  EXPECT_EQ(a.sharedBytesPerBlockMax, 227u * 1024);
  EXPECT_EQ(a.sharedRule(4).lanesPerPhase, 32u);
  EXPECT_EQ(a.sharedRule(8).lanesPerPhase, 16u);
  EXPECT_EQ(a.sharedRule(16).lanesPerPhase, 8u);
  EXPECT_FALSE(a.sharedRule(16).mergeAcrossPhases);
  // Calibrated on the H200 micro suite (arch/CALIBRATION.md): 64/128-bit loads pack lane pairs
  // into phases of 32/16 lanes; stores and narrower loads never pack; ideal counts duplicates.
  EXPECT_TRUE(a.sharedIdealCountsDuplicateBytes);
  EXPECT_EQ(a.sharedRule(8, SharedOp::Load).packedLanesPerPhase, 32u);
  EXPECT_EQ(a.sharedRule(8, SharedOp::Load).lanesPerPhase, 16u); // from the width's Any rule
  EXPECT_EQ(a.sharedRule(16, SharedOp::Load).packedLanesPerPhase, 16u);
  EXPECT_EQ(a.sharedRule(16, SharedOp::Load).packLaneXors, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(a.sharedRule(8, SharedOp::Store).packedLanesPerPhase, 0u); // falls back to Any
  EXPECT_EQ(a.sharedRule(8, SharedOp::Store).op, SharedOp::Any);
  EXPECT_EQ(a.sharedRule(4, SharedOp::Load).packedLanesPerPhase, 0u);
  // Every field group carries a citation; sm_90 overrides the global/shared ones with the H200
  // measurements.
  for (const char *g : {"warp", "global", "shared", "capacity"}) EXPECT_FALSE(a.sources[g].empty()) << g;
  EXPECT_NE(a.sources["shared"].find("HARDWARE.md"), std::string::npos);
}

TEST(ArchSpec, ChildrenOverrideOnlyWhatDiffers) {
  ArchSpec v = load("sm_70"), t = load("sm_75"), a = load("sm_80"), ga = load("sm_86"),
           ad = load("sm_89");
  EXPECT_TRUE(v.inherits.empty());
  EXPECT_EQ(v.sharedBytesPerSmMax, 96u * 1024);
  EXPECT_EQ(t.sharedBytesPerSmMax, 64u * 1024);  // overridden by sm_75
  EXPECT_EQ(t.sharedRule(8).lanesPerPhase, 16u); // inherited from sm_70
  EXPECT_FALSE(v.sharedIdealCountsDuplicateBytes); // older arches: unmeasured, old rule kept
  EXPECT_FALSE(ad.idealCountsDuplicateBytes);
  EXPECT_EQ(ad.sharedRule(8, SharedOp::Load).packedLanesPerPhase, 0u);
  EXPECT_EQ(a.l2Bytes, 40u * 1024 * 1024);
  EXPECT_EQ(ga.sharedBytesPerSmMax, 100u * 1024);
  EXPECT_EQ(ad.l2Bytes, 0u);                      // unknown: varies by chip
  EXPECT_EQ(ad.sharedBytesPerSmMax, 100u * 1024); // inherited from sm_86
  EXPECT_EQ(ad.sources["capacity"].find("CUDA C++ Programming Guide"), 0u);
}

TEST(ArchSpec, UnknownNameListsKnownOnes) {
  auto a = loadArch("sm_99");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("sm_99"), std::string::npos);
  EXPECT_NE(a.error().message.find("sm_70, sm_75, sm_80, sm_86, sm_89, sm_90"), std::string::npos);
}

TEST(ArchSpec, TextOverridesMergeDeeply) {
  auto a = loadArchText("t.json", R"({"name": "t", "inherits": "sm_86", "description": "d",
      "shared": {"rules": {"16": {"lanesPerPhase": 16}}, "source": "s"}})");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->sharedRule(16).lanesPerPhase, 16u);
  EXPECT_FALSE(a->sharedRule(16).mergeAcrossPhases); // sibling key kept from sm_70
  EXPECT_EQ(a->sharedRule(8).lanesPerPhase, 16u);
  EXPECT_EQ(a->sources["shared"], "s");
  EXPECT_EQ(a->l2Bytes, 6u * 1024 * 1024); // from sm_86
}

TEST(ArchSpec, BadFilesNameTheFileAndKey) {
  std::string e = errorOf("bad1.json", R"({"name": "b", "inherits": "sm_90", "description": "d",
      "shared": {"bankz": 32, "source": "s"}})");
  EXPECT_NE(e.find("bad1.json"), std::string::npos) << e;
  EXPECT_NE(e.find("'shared.bankz'"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown key"), std::string::npos) << e;

  e = errorOf("bad2.json", R"({"name": "b", "inherits": "sm_90", "description": "d",
      "shared": {"banks": "32", "source": "s"}})");
  EXPECT_NE(e.find("bad2.json: key 'shared.banks': expected an unsigned integer"), std::string::npos) << e;

  e = errorOf("bad3.json", R"({"name": "b", "inherits": "sm_90", "description": "d",
      "shared": {"banks": 24, "source": "s"}})");
  EXPECT_NE(e.find("'shared.banks': 24 is not a power of two"), std::string::npos) << e;

  e = errorOf("bad4.json", R"({"name": "b", "inherits": "sm_90", "description": "d",
      "shared": {"rules": {"8": {"lanesPerPhase": 0}}, "source": "s"}})");
  EXPECT_NE(e.find("'shared.rules.8.lanesPerPhase': 0 is outside 1..32"), std::string::npos) << e;

  e = errorOf("bad10.json", R"({"name": "b", "inherits": "sm_90", "description": "d",
      "shared": {"rules": {"8": {"ld": {"packLaneXors": [1, 32]}}}, "source": "s"}})");
  EXPECT_NE(e.find("'shared.rules.8.ld.packLaneXors': element 32 is outside 1..31"),
            std::string::npos) << e;

  e = errorOf("bad11.json", R"({"name": "b", "inherits": "sm_90", "description": "d",
      "shared": {"rules": {"16": {"ld": {"packLaneXors": 1}}}, "source": "s"}})");
  EXPECT_NE(e.find("'shared.rules.16.ld.packLaneXors': expected a list of unsigned integers"),
            std::string::npos) << e;

  e = errorOf("bad12.json", R"({"name": "b", "inherits": "sm_90", "description": "d",
      "shared": {"rules": {"8": {"ld": {"packedLanesPerPhase": 8}}}, "source": "s"}})");
  EXPECT_NE(e.find("bad12.json: key 'shared.rules.8.ld.packedLanesPerPhase': 8 is smaller than "
                   "lanesPerPhase 16"), std::string::npos) << e;

  e = errorOf("bad13.json", R"({"name": "b", "inherits": "sm_90", "description": "d",
      "shared": {"rules": {"8": {"atom": {"lanesPerPhase": 8}}}, "source": "s"}})");
  EXPECT_NE(e.find("'shared.rules.8.atom.lanesPerPhase': unknown key"), std::string::npos) << e;

  e = errorOf("bad5.json", R"({"name": "b", "inherits": "sm_90", "description": "d",
      "capacity": {"l2Bytes": 5}})");
  EXPECT_NE(e.find("bad5.json: key 'capacity': field group has no \"source\""), std::string::npos) << e;

  e = errorOf("bad6.json", R"({"name": "b", "inherits": "sm_42", "description": "d"})");
  EXPECT_NE(e.find("bad6.json: key 'inherits': unknown architecture 'sm_42'"), std::string::npos) << e;

  e = errorOf("bad7.json", "{\"name\": \"b\",\n \"inherits\": }");
  EXPECT_NE(e.find("bad7.json: invalid JSON at byte"), std::string::npos) << e;

  // A root file (no parent) must define everything.
  e = errorOf("bad8.json", R"({"name": "b", "description": "d",
      "warp": {"size": 32, "source": "s"}})");
  EXPECT_NE(e.find("bad8.json: key 'global.sectorBytes': missing"), std::string::npos) << e;

  e = errorOf("bad9.json", R"({"name": "b", "inherits": "sm_90", "description": "d",
      "global": {"lineBytes": 16, "source": "s"}})");
  EXPECT_NE(e.find("'global.lineBytes': 16 is smaller than global.sectorBytes 32"),
            std::string::npos) << e;
}

TEST(ArchSpec, OpOverridesResolveOverTheWidthRule) {
  // A store override changes only its own field; the load rule of sm_90 is kept.
  auto a = loadArchText("o.json", R"({"name": "o", "inherits": "sm_90", "description": "d",
      "shared": {"rules": {"8": {"lanesPerPhase": 8, "st": {"mergeAcrossPhases": true}}},
      "source": "s"}})");
  ASSERT_TRUE(a.ok()) << a.error().message;
  const SharedWidthRule &st = a->sharedRule(8, SharedOp::Store);
  EXPECT_EQ(st.op, SharedOp::Store);
  EXPECT_TRUE(st.mergeAcrossPhases);
  EXPECT_EQ(st.lanesPerPhase, 8u); // from this file's Any rule for width 8
  const SharedWidthRule &ld = a->sharedRule(8, SharedOp::Load);
  EXPECT_FALSE(ld.mergeAcrossPhases);
  EXPECT_EQ(ld.lanesPerPhase, 8u);
  EXPECT_EQ(ld.packedLanesPerPhase, 32u); // inherited from sm_90
  EXPECT_EQ(a->sharedRule(8).op, SharedOp::Any);
  EXPECT_FALSE(a->sharedRule(8).mergeAcrossPhases);
}

TEST(ArchSpec, FilesOnDiskFindParentsBesideThem) {
  auto a = loadArch(kData + "local_child.json");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->l2Bytes, 1234u);                   // from local_parent.json beside it
  EXPECT_EQ(a->sharedBytesPerSmMax, 164u * 1024); // from built-in sm_80
  EXPECT_EQ(a->sharedRule(8).lanesPerPhase, 32u);
  ASSERT_EQ(a->files.size(), 5u);
  EXPECT_EQ(a->files[2], "sm_80.json");
}

TEST(ArchSpec, InheritanceCycleIsAnError) {
  auto a = loadArchFile(kData + "cycle_a.json");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("cycle"), std::string::npos) << a.error().message;
  EXPECT_NE(a.error().message.find("cycle_b.json"), std::string::npos) << a.error().message;
  auto missing = loadArchFile(kData + "no_such_file.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("no_such_file.json"), std::string::npos);
}

TEST(ArchSpec, CliListsArches) {
  std::string cmd = std::string(WARPLENS_BIN) + " --list-arches";
  FILE *p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[256];
  while (fgets(buf, sizeof buf, p)) out += buf;
  int status = pclose(p);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_NE(out.find("sm_70  -  Volta"), std::string::npos) << out;
  EXPECT_NE(out.find("sm_90  inherits sm_89  Hopper (GH100): H100, H200"), std::string::npos) << out;
}

} // namespace
} // namespace warplens::arch
