/// \file
/// The input limits of issue 14, each checked by its exact message (file, line, key or token)
/// on an input just past the limit: PTX registers, variable sizes, nesting, loader sums and
/// per-block state, nested if-blocks, JSON depth, trace site tables, expression depth.
#include "emu/Loader.h"
#include "launch/LaunchSpec.h"
#include "ptx/Module.h"
#include "ptx/Parser.h"
#include "trace/TraceReader.h"
#include "analysis/pattern/Expression.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

using namespace warplens;

namespace {

std::string ptxError(const std::string &text) {
  auto m = ptx::parseText(text, "t.ptx");
  return m ? std::string() : m.error().message;
}

const char *kHead = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n";

TEST(Limits, NegativeRegisterCountIsRejected) {
  // Issue 14: this declaration made `warplens suite` run for more than 30 s (the parser added
  // 2^64 - 18 registers, 2.6 GB in 30 s before it was killed).
  EXPECT_EQ(ptxError(std::string(kHead) + "  .reg .b32 %r<-18>;\n  ret;\n}\n"),
            "t.ptx:6: register count -18 is negative");
}

TEST(Limits, RegisterCountAboveLimitIsRejected) {
  EXPECT_EQ(ptxError(std::string(kHead) + "  .reg .b32 %r<131073>;\n  ret;\n}\n"),
            "t.ptx:6: register count 131073 exceeds the limit of 131072 at '131073'");
  // Several declarations together: the function total is bounded too.
  EXPECT_EQ(ptxError(std::string(kHead) + "  .reg .b32 %r<100000>;\n  .reg .b32 %q<40000>;\n}\n"),
            "t.ptx:7: function 'k' declares more than 131072 registers at '%q'");
}

TEST(Limits, VariableSizesAreBounded) {
  EXPECT_EQ(ptxError(std::string(kHead) + "  .shared .f32 s[65537];\n  ret;\n}\n"),
            "t.ptx:6: 262148 bytes of .shared variable exceed the limit of 262144 at 's'");
  EXPECT_EQ(ptxError(std::string(kHead) + "  .local .b8 l[4294967296][2];\n  ret;\n}\n"),
            "t.ptx:6: array of more than 4294967296 elements at '2'");
  EXPECT_EQ(ptxError(".version 8.0\n.global .align 3 .b8 g[4];\n"),
            "t.ptx:2: alignment must be a power of two at '3'");
}

TEST(Limits, InitializerNestingIsBounded) {
  EXPECT_EQ(ptxError(".version 8.0\n.global .b32 g[1] = " + std::string(100, '{') + "1;\n"),
            "t.ptx:2: nesting deeper than 64 levels at '{'");
}

/// Loads entry `k` of `ptx` for one block of `threads` threads; the error message or "".
std::string loadError(const std::string &ptx, std::uint32_t threads) {
  auto m = ptx::parseText(ptx, "t.ptx");
  if (!m) return "parse: " + m.error().message;
  launch::LaunchSpec spec;
  spec.kernel = "k";
  spec.specFile = "t.json";
  spec.block = {threads, 1, 1};
  std::vector<launch::HostBuffer> buffers;
  auto p = emu::loadProgram(**m, *(*m)->findFunction("k"), spec, buffers);
  return p ? std::string() : p.error().message;
}

TEST(Limits, LoaderBoundsSharedSumAndBlockState) {
  EXPECT_EQ(loadError(std::string(kHead) + "  .shared .b8 a[200000];\n  .shared .b8 b[200000];\n  ret;\n}\n", 32),
            "t.ptx: kernel 'k': static shared memory of 400000 bytes exceeds the limit of 262144");
  const std::string local = std::string(kHead) + "  .local .b8 l[524288];\n  ret;\n}\n";
  EXPECT_EQ(loadError(local, 32), ""); // 32 lanes x 512 KiB = 16 MiB of state: fine
  EXPECT_EQ(loadError(local, 1024),
            "t.ptx: kernel 'k': emulator state per block of 1024 threads (registers, local, "
            "parameters, shared) of 537083904 bytes exceeds the limit of 536870912");
}

TEST(Limits, NestedIfBlocksAreBounded) {
  // 800 nested forward branches each over the rest: 800*801/2 = 320400 skipped-site events.
  std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
                    "  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
                    "  ld.param.u64 %rd1, [p];\n  setp.eq.u32 %p1, %r1, 0;\n";
  for (int i = 0; i < 800; ++i) ptx += "  @%p1 bra END;\n  ld.global.u32 %r1, [%rd1];\n";
  ptx += "END:\n  ret;\n}\n";
  auto m = ptx::parseText(ptx, "t.ptx");
  ASSERT_TRUE(m) << m.error().message;
  launch::LaunchSpec spec;
  spec.kernel = "k";
  spec.specFile = "t.json";
  spec.block = {32, 1, 1};
  launch::ArgSpec buf;
  buf.isBuffer = true;
  buf.buffer = "b";
  buf.count = 4;
  spec.args.push_back(buf);
  auto buffers = launch::makeBuffers(spec);
  ASSERT_TRUE(buffers);
  auto p = emu::loadProgram(**m, *(*m)->findFunction("k"), spec, *buffers);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message, "t.ptx: kernel 'k': forward branches jump over more than 262144 "
                               "memory instructions in total (deeply nested if-blocks)");
}

TEST(Limits, JsonDepthIsBounded) {
  auto s = launch::parseSpecText("{\"launches\":\n" + std::string(70, '[') + std::string(70, ']') + "}",
                                 "s.json");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "s.json:2: JSON nested deeper than 64 levels");
}

// fuzz_launch_spec (device campaign, 2026-11-23): 0 passed the positive-integer check (nlohmann
// stores 0 as unsigned) and sgemm_of with n = 0 indexed an empty vector in runCheck.
TEST(Limits, CheckDimensionsArePositive) {
  auto s = launch::parseSpecText(
      R"({"name": "a", "source": "loop.ptx", "kernel": "k", "grid": [1], "block": [32],
          "args": [{"buffer": "c", "type": "f32", "count": 16}, {"buffer": "a", "type": "f32", "count": 16},
                   {"buffer": "b", "type": "f32", "count": 16}],
          "check": {"c": {"sgemm_of": ["a", "b"], "m": 2, "n": 0, "k": 4}}})",
      std::string(WARPLENS_TEST_DATA) + "/ptx_loader/s.json"); // next to an existing loop.ptx
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("check.c.n: expected a positive integer, got 0"), std::string::npos)
      << s.error().message;
}

// fuzz_ptx_loader (device campaign, 2026-11-23): a setp into a 32-bit register wrote a predicate
// slot numbered like the register slot (heap-buffer-overflow in writePred).
TEST(Limits, PredicateDestinationsArePredicates) {
  const std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
                          "mov.u32 %r1, %tid.x;\nsetp.gt.s32 %r2, %r1, 0;\nret;\n}\n";
  auto m = ptx::parseText(ptx, "t.ptx");
  ASSERT_TRUE(m) << m.error().message;
  launch::LaunchSpec spec;
  spec.name = spec.kernel = "k";
  spec.block = {32, 1, 1};
  launch::ArgSpec a;
  a.isBuffer = true, a.buffer = "b", a.type = launch::ScalarType::U8, a.count = 8;
  spec.args = {a};
  auto buffers = launch::makeBuffers(spec);
  ASSERT_TRUE(buffers);
  auto p = emu::loadProgram(**m, *(*m)->findFunction("k"), spec, *buffers);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("destination must be a predicate register in 'setp.gt.s32"), std::string::npos)
      << p.error().message;
}

TEST(Limits, TraceSiteTableIsBounded) {
  std::string t("WLTRACE\0", 8);
  auto u32 = [&](std::uint32_t v) { t.append(reinterpret_cast<const char *>(&v), 4); };
  auto str = [&](const std::string &x) {
    std::uint16_t n = static_cast<std::uint16_t>(x.size());
    t.append(reinterpret_cast<const char *>(&n), 2);
    t += x;
  };
  u32(1);
  str("sm_90");
  str("k");
  u32((1u << 24) + 1);
  std::FILE *f = ::fmemopen(t.data(), t.size(), "rb");
  ASSERT_NE(f, nullptr);
  auto r = trace::TraceReader::open(f, "t.wlt");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "t.wlt: byte 22: site table of 16777217 entries exceeds the limit of 16777216");
}

TEST(Limits, ExpressionDepthIsBounded) {
  analysis::Scope scope;
  auto deep = analysis::Expression::compile(std::string(70, '(') + "tx" + std::string(70, ')'), scope, "--index");
  ASSERT_FALSE(deep);
  EXPECT_EQ(deep.error().message.substr(0, deep.error().message.find('\n')),
            "--index: expression nested deeper than 64 levels at column 65");
  std::string chain = "tx";
  for (int i = 0; i < 300; ++i) chain += "+tx";
  auto longChain = analysis::Expression::compile(chain, scope, "--index");
  ASSERT_FALSE(longChain);
  EXPECT_EQ(longChain.error().message.substr(0, longChain.error().message.find('\n')),
            "--index: expression nested deeper than 256 levels at column 1");
  auto fine = analysis::Expression::compile("tx*33 + ty", scope, "--index");
  EXPECT_TRUE(fine);
}

} // namespace
