/// \file
/// The HTML report's structs and builders on hand-built records: diagnoses (sectors per request,
/// efficiency, conflict ways), measured verdicts through compare(), the kernel's source lines,
/// and a page that embeds it all without anything from the network.
#include "analysis/compare/NcuCsv.h"
#include "analysis/views/Report.h"
#include "analysis/views/ReportBuilder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace warplens;
using namespace warplens::analysis;

namespace {

/// Naive transpose store, 64x64 f32, block 32x8: 128 warp stores, lanes 256 bytes apart, so each
/// lane is its own 32-byte sector: 32 sectors per request where 128 bytes need 4.
launch::InstructionRecord naiveStore() {
  launch::InstructionRecord r;
  r.sassPc = 0x110;
  r.sass = "STG.E desc[UR4][R4.64], R3 ;";
  r.sourceFile = "k.cu";
  r.sourceLine = 4;
  r.space = "global";
  r.op = "st";
  r.widthBytes = 4;
  r.executed = r.requests = 128;
  r.threads = 4096;
  r.sectors = 128 * 32;
  r.sectorsIdeal = 128 * 4;
  return r;
}

/// Column read of an unpadded 32x32 float tile: 32 lanes in one bank, 32 wavefronts for 1.
launch::InstructionRecord tileColumnLoad() {
  launch::InstructionRecord r;
  r.sassPc = 0x1a0;
  r.sass = "LDS R5, [R6] ;";
  r.sourceFile = "k.cu";
  r.sourceLine = 5;
  r.space = "shared";
  r.op = "ld";
  r.widthBytes = 4;
  r.executed = 32;
  r.wavefronts = 32 * 32;
  r.wavefrontsIdeal = 32;
  r.conflictWaysMax = 32;
  return r;
}

launch::LaunchResult launchOf(std::vector<launch::InstructionRecord> ins) {
  launch::LaunchResult r;
  r.name = "t";
  r.kernel = "k";
  r.arch = "sm_90";
  r.instructions = std::move(ins);
  return r;
}

} // namespace

TEST(ReportDiagnosis, StridedStoreIsTwelvePointFivePercent) {
  ReportDiagram d;
  d.unit = "sectors";
  d.cost = 32;
  d.laneStride = 256;
  const Diagnosis g = diagnose(naiveStore(), &d);
  EXPECT_EQ(g.severity, 2);
  EXPECT_EQ(g.headline, "store: 32 sectors per request, 12.5% efficient");
  EXPECT_NE(g.fix.find("256 bytes apart"), std::string::npos) << g.fix;
  EXPECT_NE(g.fix.find("transpose through shared memory"), std::string::npos) << g.fix;
  EXPECT_EQ(g.fix.find("per warp"), std::string::npos) << g.fix; // no fixes evaluated: no count
  EXPECT_EQ(wastedSectors(naiveStore()), 128u * 28u);
}

TEST(ReportDiagnosis, MisalignedLoadIsEightyPercent) {
  // vecadd with a 4-byte offset: 32 contiguous floats starting 4 bytes into a sector touch 5
  // sectors for 4.
  launch::InstructionRecord r = naiveStore();
  r.op = "ld";
  r.sectors = 128 * 5;
  r.sectorsIdeal = 128 * 4;
  ReportDiagram d;
  d.unit = "sectors";
  d.cost = 5;
  d.laneStride = 4;
  d.offsetInSector = 4;
  d.fixes = {{"the same pattern moved down 4 bytes to a 32-byte boundary", 4}};
  const Diagnosis g = diagnose(r, &d);
  EXPECT_EQ(g.severity, 1);
  EXPECT_EQ(g.headline, "load: 5 sectors per request, 80.0% efficient");
  EXPECT_NE(g.fix.find("start at byte 4"), std::string::npos) << g.fix;
  EXPECT_NE(g.fix.find("→ 4 sectors per warp instead of 5"), std::string::npos) << g.fix;
}

TEST(ReportDiagnosis, BankConflictNamesWaysAndBestFix) {
  ReportDiagram d;
  d.unit = "wavefronts";
  d.cost = 32;
  d.fixes = {{"pad each 128-byte row by 4 bytes", 1}, {"XOR-swizzle", 1}};
  const Diagnosis g = diagnose(tileColumnLoad(), &d);
  EXPECT_EQ(g.severity, 2);
  EXPECT_EQ(g.headline, "shared load: 32-way bank conflict, 32 wavefronts per request for 1 ideal");
  EXPECT_EQ(g.fix, "pad each 128-byte row by 4 bytes → 1 wavefront per warp instead of 32");
  EXPECT_EQ(wastedWavefronts(tileColumnLoad()), 32u * 31u);
  // without the costliest warp the generic advice stands
  EXPECT_NE(diagnose(tileColumnLoad(), nullptr).fix.find("pad each row"), std::string::npos);
}

TEST(ReportDiagnosis, IdealAccessesSayIdeal) {
  launch::InstructionRecord r = naiveStore();
  r.sectors = r.sectorsIdeal = 128 * 4;
  EXPECT_EQ(diagnose(r, nullptr).severity, 0);
  EXPECT_EQ(diagnose(r, nullptr).headline, "store: 4 sectors per request, 100.0% efficient (ideal)");
  EXPECT_TRUE(diagnose(r, nullptr).fix.empty());
  launch::InstructionRecord s = tileColumnLoad();
  s.wavefronts = s.wavefrontsIdeal = 32;
  s.conflictWaysMax = 1;
  EXPECT_EQ(diagnose(s, nullptr).headline, "shared load: 1 wavefront per request, no bank conflict (ideal)");
}

TEST(ReportBuilder, MeasuredVerdictsPerInstruction) {
  Report rep;
  rep.launches.push_back(reportLaunch(launchOf({naiveStore(), tileColumnLoad()}), nullptr, nullptr, nullptr));
  MeasuredInput m;
  m.format = "warplens-json";
  m.instructionFields = {"executed", "sectors", "sectors_ideal", "wavefronts", "wavefronts_ideal"};
  launch::LaunchResult meas = launchOf({naiveStore(), tileColumnLoad()});
  meas.device = "NVIDIA H200";
  meas.metrics["gpu__time_duration.sum"] = 4500;
  meas.instructions[1].wavefronts += 3; // the hardware saw 3 more wavefronts
  m.launches = {meas};
  addMeasurements(rep, m, "measured.json");
  const ReportLaunch &L = rep.launches.front();
  ASSERT_TRUE(L.measured);
  EXPECT_FALSE(L.measuredOk);
  EXPECT_EQ(L.device, "NVIDIA H200");
  EXPECT_EQ(L.measuredMetrics.at("gpu__time_duration.sum"), 4500);
  ASSERT_EQ(L.instructions.size(), 2u);
  EXPECT_EQ(L.instructions[0].verdict, "ok");
  EXPECT_TRUE(L.instructions[0].ok);
  EXPECT_EQ(L.instructions[1].verdict, "MISMATCH");
  EXPECT_FALSE(L.instructions[1].ok);
  ASSERT_EQ(L.instructions[1].mismatches.size(), 1u);
  EXPECT_EQ(L.instructions[1].mismatches[0], "wavefronts 1024 predicted, 1027 measured");
  ASSERT_TRUE(L.instructions[1].measured);
  EXPECT_EQ(L.instructions[1].measured->wavefronts, 1027u);
}

TEST(ReportBuilder, SourceLinesFromGlobalToClosingBrace) {
  const auto dir = std::filesystem::temp_directory_path() / "warplens_report_test";
  std::filesystem::create_directories(dir);
  {
    std::ofstream f(dir / "k.cu");
    f << "// header\n"                       // 1
         "__global__ void k(float *o) {\n"    // 2
         "  int i = threadIdx.x;\n"           // 3
         "  o[i * 64] = 1;\n"                 // 4
         "  o[i] = 2;\n"                      // 5
         "}\n"                                // 6
         "// after\n";                        // 7
  }
  Report rep;
  rep.launches.push_back(reportLaunch(launchOf({naiveStore(), tileColumnLoad()}), nullptr, nullptr, nullptr));
  addSources(rep, {dir.string()}); // "k.cu" is not in the working directory: found in dir
  const ReportLaunch &L = rep.launches.front();
  ASSERT_FALSE(L.sourceKey.empty());
  EXPECT_EQ(L.firstLine, 2);
  EXPECT_EQ(L.lastLine, 6);
  ASSERT_EQ(rep.sources.at(L.sourceKey).size(), 7u);
  EXPECT_EQ(rep.sources.at(L.sourceKey)[3], "  o[i * 64] = 1;");
  std::filesystem::remove_all(dir);
}

TEST(ReportHtml, SelfContainedPageWithDataEmbedded) {
  Report rep;
  rep.notes = {"a </script><!-- in a note"};
  ReportLaunch L = reportLaunch(launchOf({naiveStore()}), nullptr, nullptr, nullptr);
  ReportDiagram d;
  d.svg = "<svg width='10' height='10'><rect width='5' height='5'/></svg>";
  d.unit = "sectors";
  L.instructions[0].diagram = d;
  rep.launches.push_back(L);
  const std::string html = renderReportHtml(rep);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  std::size_t closes = 0;
  for (auto p = html.find("</script>"); p != std::string::npos; p = html.find("</script>", p + 1)) ++closes;
  EXPECT_EQ(closes, 2u); // the data element and the script: nothing inside the data closes it
  EXPECT_EQ(html.find("<!-- in a note"), std::string::npos);
  const nlohmann::json j = reportToJson(rep);
  const auto &ins = j["launches"][0]["instructions"][0];
  EXPECT_EQ(ins["sectors"], 4096);
  EXPECT_EQ(ins["waste_sectors"], 128 * 28);
  EXPECT_EQ(ins["headline"], "store: 32 sectors per request, 12.5% efficient");
  EXPECT_EQ(ins["diagram"]["svg"], d.svg);
  EXPECT_FALSE(j.contains("measured_file"));
}
