/// \file
/// `warplens replay` end to end: per-site totals in text and JSON from a written trace (numbers
/// worked out by hand), --arch override, --jsonl, and exit status 2 with a located message for
/// bad input.
#include "trace/TraceWriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>

namespace warplens::trace {
namespace {

namespace fs = std::filesystem;

struct CliRun {
  int status;
  std::string out; ///< stdout and stderr together
};

CliRun warplens(const std::string &args) {
  std::string cmd = std::string(WARPLENS_BIN) + " " + args + " 2>&1";
  FILE *p = popen(cmd.c_str(), "r");
  CliRun r{-1, ""};
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string tempPath(const std::string &name) {
  return (fs::temp_directory_path() / ("warplens_replay_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

/// Site 0: 4 coalesced float loads (4 sectors each); site 1: 2 stride-32-word shared stores
/// (32 wavefronts each); site 2: a float4 shared load, stride 1 (4 wavefronts), once all lanes
/// off (executed, nothing else).
std::string writeTrace() {
  std::string path = tempPath("t.wlt");
  auto w = TraceWriter::create(path, {"sm_90", "demo", {{0, "ld.global.f32"}, {1, "st.shared.f32"}}});
  EXPECT_TRUE(w.ok());
  model::AccessEvent e;
  e.active = LaneMask::all();
  for (unsigned k = 0; k < 4; ++k) {
    e.site = 0, e.space = model::Space::Global, e.op = model::Op::Load, e.widthBytes = 4;
    for (unsigned l = 0; l < 32; ++l) e.addr[l] = ByteAddress{0x10000 + 128 * k + 4 * l};
    (*w)->onAccess(e);
  }
  for (unsigned k = 0; k < 2; ++k) {
    e.site = 1, e.space = model::Space::Shared, e.op = model::Op::Store, e.widthBytes = 4;
    for (unsigned l = 0; l < 32; ++l) e.addr[l] = ByteAddress{128 * l};
    (*w)->onAccess(e);
  }
  e.site = 2, e.space = model::Space::Shared, e.op = model::Op::Load, e.widthBytes = 16;
  for (unsigned l = 0; l < 32; ++l) e.addr[l] = ByteAddress{16 * l};
  (*w)->onAccess(e);
  e.active = LaneMask::none();
  (*w)->onAccess(e);
  (*w)->onEnd();
  return path;
}

TEST(ReplayCli, JsonTotalsPerSite) {
  std::string path = writeTrace();
  CliRun r = warplens("replay " + path + " --format json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["arch"], "sm_90");
  EXPECT_EQ(j["kernel"], "demo");
  EXPECT_EQ(j["events"], 8);
  ASSERT_EQ(j["sites"].size(), 3u);
  const auto &g = j["sites"][0];
  EXPECT_EQ(g["label"], "ld.global.f32");
  EXPECT_EQ(g["executed"], 4);
  EXPECT_EQ(g["requests"], 4);
  EXPECT_EQ(g["sectors"], 16);      // 4 x 4
  EXPECT_EQ(g["sectors_ideal"], 16);
  const auto &s = j["sites"][1];
  EXPECT_EQ(s["op"], "st");
  EXPECT_EQ(s["wavefronts"], 64);   // 2 x 32 (all lanes in bank 0, 32 words)
  EXPECT_EQ(s["wavefronts_ideal"], 2);
  EXPECT_EQ(s["conflict_ways_max"], 32);
  const auto &v = j["sites"][2];
  EXPECT_EQ(v["executed"], 2);
  EXPECT_EQ(v["threads"], 32);
  EXPECT_EQ(v["wavefronts"], 4);    // 4 phases of 8 lanes x 16 bytes, one pass each
  EXPECT_EQ(j["totals"]["executed"], 8);
  EXPECT_EQ(j["totals"]["wavefronts"], 68);
  EXPECT_EQ(j["totals"]["sectors"], 16);
  fs::remove(path);
}

TEST(ReplayCli, TextArchOverrideAndJsonl) {
  std::string path = writeTrace();
  CliRun t = warplens("replay " + path);
  ASSERT_EQ(t.status, 0) << t.out;
  EXPECT_NE(t.out.find("8 warp accesses, arch sm_90 (from the trace)"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("ld.global.f32"), std::string::npos) << t.out;
  CliRun a = warplens("replay " + path + " --arch sm_70");
  ASSERT_EQ(a.status, 0) << a.out;
  EXPECT_NE(a.out.find("arch sm_70 (--arch)"), std::string::npos) << a.out;
  CliRun l = warplens("replay " + path + " --jsonl");
  ASSERT_EQ(l.status, 0) << l.out;
  EXPECT_EQ(std::count(l.out.begin(), l.out.end(), '\n'), 9); // header + 8 events
  CliRun h = warplens("replay --help");
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("--arch"), std::string::npos);
  EXPECT_NE(h.out.find("examples:"), std::string::npos);
  fs::remove(path);
}

TEST(ReplayCli, BadInputExitsTwo) {
  std::string path = writeTrace();
  CliRun noArg = warplens("replay");
  EXPECT_EQ(noArg.status, 2);
  EXPECT_NE(noArg.out.find("missing TRACE"), std::string::npos) << noArg.out;
  CliRun arch = warplens("replay " + path + " --arch sm_12");
  EXPECT_EQ(arch.status, 2);
  EXPECT_NE(arch.out.find("unknown architecture 'sm_12'"), std::string::npos) << arch.out;
  CliRun fmt = warplens("replay " + path + " --format xml");
  EXPECT_EQ(fmt.status, 2);
  EXPECT_NE(fmt.out.find("'xml'"), std::string::npos) << fmt.out;
  CliRun opt = warplens("replay " + path + " --frobnicate");
  EXPECT_EQ(opt.status, 2);
  EXPECT_NE(opt.out.find("frobnicate"), std::string::npos) << opt.out;
  // Truncate the trace inside its last record.
  fs::resize_file(path, fs::file_size(path) - 20);
  CliRun cut = warplens("replay " + path);
  EXPECT_EQ(cut.status, 2);
  EXPECT_NE(cut.out.find(path + ": byte "), std::string::npos) << cut.out;
  EXPECT_NE(cut.out.find("(record 7)"), std::string::npos) << cut.out;
  fs::remove(path);
}

} // namespace
} // namespace warplens::trace
