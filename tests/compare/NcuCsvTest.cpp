/// \file
/// Nsight Compute CSV import on small hand-written fixtures: the raw page with and without a
/// units row (quoted thousands separators, Mbyte scaling, ==PROF== lines) and the source page
/// (current and older column names, absolute addresses made function-relative).
#include "analysis/compare/NcuCsv.h"

#include <gtest/gtest.h>

using namespace warplens;

namespace {
std::string data(const char *f) { return std::string(WARPLENS_TEST_DATA) + "/data/" + f; }
} // namespace

TEST(NcuCsv, CsvCellsAndNumbers) {
  auto rows = analysis::parseCsv("==PROF== hi\n\"a\",\"b,c\",\"say \"\"x\"\"\"\r\n1,2,\n");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"a", "b,c", "say \"x\""}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(analysis::parseCsvNumber("4,194,304"), 4194304.0);
  EXPECT_EQ(analysis::parseCsvNumber(" 16.78 "), 16.78);
  EXPECT_FALSE(analysis::parseCsvNumber("n/a"));
  EXPECT_FALSE(analysis::parseCsvNumber("-"));
  EXPECT_FALSE(analysis::parseCsvNumber("Global"));
}

TEST(NcuCsv, RawPageWithUnitsRow) {
  auto in = analysis::loadMeasured(data("ncu_raw_units.csv"));
  ASSERT_TRUE(in.ok()) << in.error().message;
  EXPECT_EQ(in->format, "ncu-raw-csv");
  EXPECT_TRUE(in->instructionFields.empty());
  ASSERT_EQ(in->launches.size(), 1u);
  const auto &L = in->launches[0];
  EXPECT_EQ(L.kernel, "transposeNaive(float *, const float *, int)");
  EXPECT_EQ(L.grid, (std::array<std::uint32_t, 3>{64, 256, 1}));
  EXPECT_EQ(L.block, (std::array<std::uint32_t, 3>{32, 8, 1}));
  EXPECT_EQ(L.arch, "sm_90");
  EXPECT_DOUBLE_EQ(L.metrics.at("dram__bytes_read.sum"), 16780000.0); // 16.78 Mbyte
  EXPECT_EQ(L.metrics.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 131072);
  EXPECT_EQ(L.metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 4194304);
  EXPECT_EQ(L.metrics.count("CC"), 0u);
}

TEST(NcuCsv, RawPageWithoutUnitsRowTwoKernels) {
  auto in = analysis::loadMeasured(data("ncu_raw_plain.csv"));
  ASSERT_TRUE(in.ok()) << in.error().message;
  ASSERT_EQ(in->launches.size(), 2u);
  EXPECT_EQ(in->launches[0].metrics.at("dram__bytes_read.sum"), 16777216);
  EXPECT_EQ(in->launches[1].kernel, "transposeShared16(float *, const float *, int)");
  EXPECT_EQ(in->launches[1].metrics.count("dram__bytes_read.sum"), 0u); // n/a
  EXPECT_EQ(in->launches[1].grid, (std::array<std::uint32_t, 3>{128, 128, 1}));
}

TEST(NcuCsv, SourcePageSass) {
  auto in = analysis::loadMeasured(data("ncu_source.csv"));
  ASSERT_TRUE(in.ok()) << in.error().message;
  EXPECT_EQ(in->format, "ncu-source-csv");
  EXPECT_EQ(in->instructionFields,
            (std::set<std::string>{"executed", "sectors", "sectors_ideal", "wavefronts",
                                   "wavefronts_ideal"}));
  ASSERT_EQ(in->launches.size(), 1u);
  const auto &L = in->launches[0];
  EXPECT_EQ(L.kernel, "void transposeNaive(float *, const float *, int)");
  ASSERT_EQ(L.instructions.size(), 2u); // IMAD and EXIT are not memory instructions
  const auto &ld = L.instructions[0];
  EXPECT_EQ(ld.sassPc, std::optional<std::uint64_t>(0x90));
  EXPECT_EQ(ld.sass, "LDG.E R2, desc[UR4][R2.64]");
  EXPECT_EQ(ld.space, "global");
  EXPECT_EQ(ld.op, "ld");
  EXPECT_EQ(ld.widthBytes, 4u);
  EXPECT_EQ(ld.executed, 131072u);
  EXPECT_EQ(ld.threads, 4194304u);
  EXPECT_EQ(ld.sectors, 524288u);
  EXPECT_EQ(ld.sectorsIdeal, 524288u);
  const auto &st = L.instructions[1];
  EXPECT_EQ(st.sassPc, std::optional<std::uint64_t>(0xc0));
  EXPECT_EQ(st.op, "st");
  EXPECT_EQ(st.sectors, 4194304u);
  EXPECT_EQ(L.metrics.at("smsp__sass_sectors_mem_global.sum"), 4718592);
  EXPECT_EQ(L.metrics.at("smsp__sass_inst_executed_op_global_st.sum"), 131072);
}

TEST(NcuCsv, SourcePageOlderColumnNames) {
  auto in = analysis::loadMeasured(data("ncu_source_old.csv"));
  ASSERT_TRUE(in.ok()) << in.error().message;
  EXPECT_EQ(in->instructionFields,
            (std::set<std::string>{"executed", "wavefronts", "wavefronts_ideal"}));
  const auto &L = in->launches[0];
  ASSERT_EQ(L.instructions.size(), 2u);
  EXPECT_EQ(L.instructions[1].sassPc, std::optional<std::uint64_t>(0x130));
  EXPECT_EQ(L.instructions[1].space, "shared");
  EXPECT_EQ(L.instructions[1].wavefronts, 1048576u);
  EXPECT_EQ(L.instructions[1].wavefrontsIdeal, 131072u);
  EXPECT_EQ(L.instructions[1].conflictWaysMax, 8u);
  EXPECT_EQ(L.metrics.count("smsp__sass_sectors_mem_global.sum"), 0u); // no sector columns
}

TEST(NcuCsv, BadInputNamesFileAndLine) {
  auto bad = analysis::parseNcuSourceCsv(
      "\"Address\",\"Source\",\"Instructions Executed\"\n\"0xzz\",\"LDG.E R2, [R2]\",\"1\"\n",
      "page.csv");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("page.csv: line 2: Address '0xzz' is not a number"),
            std::string::npos) << bad.error().message;
  auto noKernel = analysis::parseNcuRawCsv("\"a\",\"b\"\n1,2\n", "raw.csv");
  ASSERT_FALSE(noKernel.ok());
  EXPECT_NE(noKernel.error().message.find("raw.csv: not an Nsight Compute raw CSV"), std::string::npos);
  auto noCols = analysis::parseNcuSourceCsv("\"Address\",\"Source\",\"Samples\"\n", "p.csv");
  ASSERT_FALSE(noCols.ok());
  EXPECT_NE(noCols.error().message.find("p.csv: line 1: source page has none of the columns"),
            std::string::npos);
}

// Real output of Nsight Compute 2025.3.1 on an H200 (driver 580.159.04) for two kernels of
// 1024×1024 floats: transposeNaive (32×8 blocks) and a 16×16 shared-tile transpose; the app's
// own stdout line ("0") and ==PROF== lines are left in. ncu prints each kernel's page twice.
TEST(NcuCsv, RealH200SourcePage) {
  auto in = analysis::loadMeasured(data("ncu_h200_source.csv"));
  ASSERT_TRUE(in.ok()) << in.error().message;
  ASSERT_EQ(in->launches.size(), 2u); // duplicates dropped
  const auto &naive = in->launches[0];
  EXPECT_EQ(naive.kernel, "transposeNaive(float *, const float *, int)");
  ASSERT_EQ(naive.instructions.size(), 2u);
  EXPECT_EQ(naive.instructions[1].sassPc, std::optional<std::uint64_t>(0x100));
  EXPECT_EQ(naive.instructions[1].sectors, 1048576u); // 32 sectors × 32,768 stores
  EXPECT_EQ(naive.instructions[1].sectorsIdeal, 131072u);
  const auto &tile = in->launches[1];
  ASSERT_EQ(tile.instructions.size(), 4u);
  const auto &lds = tile.instructions[2];
  EXPECT_EQ(lds.sassPc, std::optional<std::uint64_t>(0x1b0));
  EXPECT_EQ(lds.space, "shared");
  EXPECT_EQ(lds.wavefronts, 262144u); // 8 per warp: the 16×16 tile is 8-way, not 16-way
  EXPECT_EQ(lds.wavefrontsIdeal, 32768u);
  EXPECT_EQ(tile.metrics.at("smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"), 294912);
  EXPECT_EQ(in->instructionFields.size(), 5u); // union: the naive page has no shared columns
}

TEST(NcuCsv, RealH200RawPage) {
  auto in = analysis::loadMeasured(data("ncu_h200_raw.csv"));
  ASSERT_TRUE(in.ok()) << in.error().message;
  ASSERT_EQ(in->launches.size(), 2u);
  const auto &naive = in->launches[0].metrics;
  EXPECT_EQ(naive.at("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 1048576);
  EXPECT_EQ(naive.at("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 32768);
  EXPECT_EQ(naive.at("dram__bytes_read.sum"), 4198656); // "4,198,656" byte
  // the hardware counter: 266,684 = the exact 262,144 SASS wavefronts + 1.7% arbitration noise
  EXPECT_EQ(in->launches[1].metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 266684);
  EXPECT_EQ(in->launches[1].grid, (std::array<std::uint32_t, 3>{64, 64, 1}));
}
