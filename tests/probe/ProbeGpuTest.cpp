/// \file
/// GPU test (label gpu): probes a few calibration launches of kernels/micro/micro.json and checks
/// the counts derived by hand from notes/HARDWARE.md (4 warps per launch: 2 blocks x 64 threads).
#include "cupti_probe/Probe.h"
#include "launch/LaunchSpec.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

namespace warplens::probe {
namespace {

std::string microSuite() {
  if (const char *root = std::getenv("WARPLENS_ROOT"))
    return std::string(root) + "/kernels/micro/micro.json";
  return std::string(WARPLENS_TEST_DATA) + "/../../kernels/micro/micro.json";
}

class ProbeGpu : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    auto specs = launch::loadSpecFile(microSuite());
    if (!specs) {
      error_ = specs.error().message;
      return;
    }
    const std::vector<std::string> wanted = {"sh_ld_b4_s1", "sh_ld_b4_s2", "sh_ld_b4_s32",
                                             "sh_st_b4_s3", "sh_ld_b8_s1", "sh_ld_b16_s1",
                                             "gl_ld_b4_s1", "gl_ld_b4_s1_off4", "gl_ld_b16_s1",
                                             "gl_st_b4_s32"};
    std::vector<launch::LaunchSpec> chosen;
    for (const auto &s : specs.value())
      for (const auto &w : wanted)
        if (s.name == w) chosen.push_back(s);
    ProbeOptions opt;
    opt.log = &std::cerr;
    auto results = runSuite(chosen, opt);
    if (!results) {
      error_ = results.error().message;
      return;
    }
    for (auto &r : results.value()) byName_[r.name] = r;
  }

  /// The one executed memory instruction of `space`/`op` in the launch.
  static const launch::InstructionRecord *mem(const std::string &launchName,
                                              const std::string &space, const std::string &op) {
    auto it = byName_.find(launchName);
    if (it == byName_.end()) return nullptr;
    for (const auto &i : it->second.instructions)
      if (i.space == space && i.op == op && i.executed > 0) return &i;
    return nullptr;
  }
  static double metric(const std::string &launchName, const std::string &name) {
    auto it = byName_.find(launchName);
    if (it == byName_.end()) return -1;
    auto m = it->second.metrics.find(name);
    return m == it->second.metrics.end() ? -1 : m->second;
  }
  void SetUp() override {
    ASSERT_TRUE(error_.empty()) << error_;
  }

  static inline std::string error_;
  static inline std::map<std::string, launch::LaunchResult> byName_;
};

// Shared memory, 32-bit, stride S words: S=1 → 1 wavefront per warp, 2 → 2, 32 → 32, 3 → 1.
TEST_F(ProbeGpu, SharedStrideWavefrontsPerInstruction) {
  struct Case { const char *name, *op; std::uint64_t perWarp; };
  for (Case c : {Case{"sh_ld_b4_s1", "ld", 1}, Case{"sh_ld_b4_s2", "ld", 2},
                 Case{"sh_ld_b4_s32", "ld", 32}, Case{"sh_st_b4_s3", "st", 1}}) {
    const auto *i = mem(c.name, "shared", c.op);
    ASSERT_NE(i, nullptr) << c.name;
    EXPECT_EQ(i->executed, 4u) << c.name;
    EXPECT_EQ(i->wavefronts, 4 * c.perWarp) << c.name;
    EXPECT_EQ(i->wavefrontsIdeal, 4u) << c.name;
    // Shared-only kernels: the hardware counter is exact too.
    EXPECT_EQ(metric(c.name, std::string("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_") + c.op + ".sum"),
              4.0 * c.perWarp) << c.name;
  }
}

// 64-bit accesses: 128 bytes per wavefront → 2 per warp; 128-bit: 4 per warp.
TEST_F(ProbeGpu, SharedWideAccesses) {
  const auto *b8 = mem("sh_ld_b8_s1", "shared", "ld");
  ASSERT_NE(b8, nullptr);
  EXPECT_EQ(b8->widthBytes, 8u);
  EXPECT_EQ(b8->wavefronts, 8u);
  const auto *b16 = mem("sh_ld_b16_s1", "shared", "ld");
  ASSERT_NE(b16, nullptr);
  EXPECT_EQ(b16->widthBytes, 16u);
  EXPECT_EQ(b16->wavefronts, 16u);
}

// Global: one request per warp instruction; 32-bit coalesced = 4 sectors, +4 B misaligned = 5,
// float4 = 16, 32-bit stride 32 stores = 32.
TEST_F(ProbeGpu, GlobalSectorsPerRequest) {
  struct Case { const char *name, *op; std::uint64_t sectorsPerWarp, idealPerWarp; };
  for (Case c : {Case{"gl_ld_b4_s1", "ld", 4, 4}, Case{"gl_ld_b4_s1_off4", "ld", 5, 4},
                 Case{"gl_ld_b16_s1", "ld", 16, 16}, Case{"gl_st_b4_s32", "st", 32, 4}}) {
    const auto *i = mem(c.name, "global", c.op);
    ASSERT_NE(i, nullptr) << c.name;
    EXPECT_EQ(i->executed, 4u) << c.name;
    EXPECT_EQ(i->sectors, 4 * c.sectorsPerWarp) << c.name;
    EXPECT_EQ(i->sectorsIdeal, 4 * c.idealPerWarp) << c.name;
    EXPECT_EQ(metric(c.name, std::string("l1tex__t_requests_pipe_lsu_mem_global_op_") + c.op + ".sum"), 4.0)
        << c.name;
    EXPECT_EQ(metric(c.name, std::string("l1tex__t_sectors_pipe_lsu_mem_global_op_") + c.op + ".sum"),
              4.0 * c.sectorsPerWarp) << c.name;
  }
}

// The result carries what the lead needs to file it: device, arch, SASS text.
TEST_F(ProbeGpu, ResultDescribesTheDevice) {
  auto it = byName_.find("gl_ld_b4_s1");
  ASSERT_NE(it, byName_.end());
  EXPECT_EQ(it->second.arch.rfind("sm_", 0), 0u);
  EXPECT_NE(it->second.device.find("driver"), std::string::npos);
  const auto *i = mem("gl_ld_b4_s1", "global", "ld");
  ASSERT_NE(i, nullptr);
  EXPECT_NE(i->sass.find("LDG"), std::string::npos);
}

} // namespace
} // namespace warplens::probe
