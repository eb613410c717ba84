/// \file
/// The CUDA toolchain runner: compile + disassemble + cache (skipped where nvcc is absent),
/// missing tools, nvcc errors, and tool lookup.
#include "sass/SassListing.h"
#include "sass/Toolchain.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace warplens;
using namespace warplens::sass;
namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string &name) { return std::string(WARPLENS_TEST_DATA) + "/fixtures/" + name; }

fs::path freshDir(const std::string &tag) {
  fs::path d = fs::temp_directory_path() / ("warplens-toolchain-test-" + std::to_string(::getpid()) + "-" + tag);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

bool haveDisassembler() { return !findTool("nvdisasm").empty() || !findTool("cuobjdump").empty(); }

} // namespace

TEST(Toolchain, CompilesDisassemblesAndCaches) {
  if (findTool("nvcc").empty()) GTEST_SKIP() << "nvcc not found";
  fs::path cache = freshDir("cache");
  ToolchainOptions opt;
  opt.cacheDir = cache.string();
  auto t0 = std::chrono::steady_clock::now();
  auto first = compile(fixture("merges.cu"), opt);
  auto t1 = std::chrono::steady_clock::now();
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_FALSE(first->cached);
  EXPECT_TRUE(fs::exists(first->ptxPath));
  EXPECT_TRUE(fs::exists(first->cubinPath));
  if (haveDisassembler()) {
    ASSERT_FALSE(first->sassPath.empty());
    if (!findTool("nvdisasm").empty()) {
      EXPECT_EQ(first->sassTool.rfind("nvdisasm 1", 0), 0u) << first->sassTool;
    }
    auto fns = readListing(first->sassPath);
    ASSERT_TRUE(fns.ok()) << fns.error().message;
    const SassFunction *f = findFunction(*fns, "_Z11sharedF32x4Pf");
    ASSERT_NE(f, nullptr);
    bool lds128 = false;
    for (const auto &i : f->instructions) lds128 |= i.opcode == "LDS.128" && i.sourceLine == 10;
    EXPECT_TRUE(lds128);
  }
  auto second = compile(fixture("merges.cu"), opt);
  auto t2 = std::chrono::steady_clock::now();
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(second->cached);
  EXPECT_EQ(second->ptxPath, first->ptxPath);
  EXPECT_EQ(second->sassPath, first->sassPath);
  EXPECT_EQ(second->sassTool, first->sassTool);
  EXPECT_LT(t2 - t1, (t1 - t0) / 4); // no process was run
  opt.nvccFlags = {"-DWARPLENS_UNUSED=1"};
  auto third = compile(fixture("merges.cu"), opt);
  ASSERT_TRUE(third.ok());
  EXPECT_FALSE(third->cached); // flags are part of the key
  EXPECT_NE(third->ptxPath, first->ptxPath);
  fs::remove_all(cache);
}

TEST(Toolchain, PtxInputIsAssembledWithPtxas) {
  if (findTool("ptxas").empty() || !haveDisassembler()) GTEST_SKIP() << "ptxas or disassembler not found";
  fs::path cache = freshDir("ptx");
  ToolchainOptions opt;
  opt.cacheDir = cache.string();
  auto r = compile(fixture("loop_unrolled.ptx"), opt);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->ptxPath, fs::absolute(fixture("loop_unrolled.ptx")).string());
  ASSERT_FALSE(r->sassPath.empty());
  auto fns = readListing(r->sassPath);
  ASSERT_TRUE(fns.ok());
  const SassFunction *f = findFunction(*fns, "_Z10stridedSumPKfPfi");
  ASSERT_NE(f, nullptr);
  int ldg = 0;
  for (const auto &i : f->instructions) ldg += i.opcode == "LDG.E";
  EXPECT_EQ(ldg, 7); // as in fixtures/loop_unrolled.sass: 4x body, 2x and 1x tails
  fs::remove_all(cache);
}

TEST(Toolchain, IncludedHeadersArePartOfTheKey) {
  if (findTool("nvcc").empty()) GTEST_SKIP() << "nvcc not found";
  fs::path dir = freshDir("include");
  std::ofstream(dir / "k.h") << "#define SCALE 2\n";
  std::ofstream(dir / "k.cu") << "#include \"k.h\"\n__global__ void k(int *p) { p[threadIdx.x] = SCALE; }\n";
  ToolchainOptions opt;
  opt.cacheDir = (dir / "cache").string();
  auto a = compile((dir / "k.cu").string(), opt);
  ASSERT_TRUE(a.ok()) << a.error().message;
  std::ofstream(dir / "k.h") << "#define SCALE 3\n";
  auto b = compile((dir / "k.cu").string(), opt);
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(b->cached);
  fs::remove_all(dir);
}

TEST(Toolchain, NvccErrorsCarryItsMessage) {
  if (findTool("nvcc").empty()) GTEST_SKIP() << "nvcc not found";
  fs::path dir = freshDir("bad");
  std::ofstream(dir / "bad.cu") << "__global__ void k() { undeclared_thing = 1; }\n";
  ToolchainOptions opt;
  opt.cacheDir = (dir / "cache").string();
  auto r = compile((dir / "bad.cu").string(), opt);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("bad.cu"), std::string::npos);
  EXPECT_NE(r.error().message.find("undeclared_thing"), std::string::npos) << r.error().message;
  fs::remove_all(dir);
}

TEST(Toolchain, MissingToolsAreReported) {
  fs::path empty = freshDir("empty");
  ToolchainOptions opt;
  opt.cacheDir = (empty / "cache").string();
  opt.toolSearchPath = {empty.string()};
  auto cu = compile(fixture("merges.cu"), opt);
  ASSERT_FALSE(cu.ok());
  EXPECT_NE(cu.error().message.find("nvcc not found: install the CUDA toolkit or pass a .ptx"),
            std::string::npos);
  // a .ptx without ptxas: used as is, with a note
  auto ptx = compile(fixture("merges.ptx"), opt);
  ASSERT_TRUE(ptx.ok()) << ptx.error().message;
  EXPECT_EQ(ptx->ptxPath, fs::absolute(fixture("merges.ptx")).string());
  EXPECT_TRUE(ptx->sassPath.empty());
  ASSERT_FALSE(ptx->notes.empty());
  EXPECT_NE(ptx->notes[0].find("PTX-level"), std::string::npos);
  auto other = compile(fixture("merges.sass"), opt);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("'.sass'"), std::string::npos);
  auto missing = compile("/nonexistent/k.cu", opt);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/k.cu"), std::string::npos);

  std::string nvcc = findTool("nvcc");
  if (!nvcc.empty()) { // nvcc present, no disassembler: PTX only, and it says so
    std::ofstream(empty / "nvcc") << "#!/bin/sh\nexec '" << nvcc << "' \"$@\"\n";
    fs::permissions(empty / "nvcc", fs::perms::owner_all);
    auto noDis = compile(fixture("merges.cu"), opt);
    ASSERT_TRUE(noDis.ok()) << noDis.error().message;
    EXPECT_TRUE(fs::exists(noDis->ptxPath));
    EXPECT_TRUE(noDis->sassPath.empty());
    ASSERT_FALSE(noDis->notes.empty());
    EXPECT_NE(noDis->notes.back().find("predictions are PTX-level"), std::string::npos);
  }
  fs::remove_all(empty);
}

TEST(Toolchain, FindToolLooksOnlyForExecutables) {
  fs::path dir = freshDir("find");
  std::ofstream(dir / "nvdisasm") << "#!/bin/sh\n";
  std::ofstream(dir / "cuobjdump") << "#!/bin/sh\n";
  fs::permissions(dir / "nvdisasm", fs::perms::owner_all);
  fs::permissions(dir / "cuobjdump", fs::perms::owner_read);
  EXPECT_EQ(findTool("nvdisasm", {"/nonexistent", dir.string()}), (dir / "nvdisasm").string());
  EXPECT_EQ(findTool("cuobjdump", {dir.string()}), "");
  EXPECT_EQ(findTool("ptxas", {dir.string()}), "");
  fs::remove_all(dir);
}
