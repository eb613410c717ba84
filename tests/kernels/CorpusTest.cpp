/// \file
/// The kernel corpus (kernels/corpus/corpus.json and heldout.json) through the offline pipeline
/// with the PTX emulator: every functional check passes, and the counts of a few instructions
/// equal numbers derived by hand below (totals over the SASS copies of one access, so they do not
/// depend on how the grouping pairs PTX accesses with ptxas's copies).
#include "analysis/Pipeline.h"
#include "sass/Toolchain.h"

#include <gtest/gtest.h>

#include <map>

using namespace warplens;
using launch::InstructionRecord;
using launch::LaunchResult;

namespace {

const std::string kCorpus = std::string(WARPLENS_SOURCE_DIR) + "/kernels/corpus";

std::map<std::string, LaunchResult> runSuite(const std::string &file) {
  std::map<std::string, LaunchResult> out;
  auto specs = launch::loadSpecFile(kCorpus + "/" + file);
  EXPECT_TRUE(specs.ok()) << specs.error().message;
  if (!specs.ok()) return out;
  analysis::AnalyzeOptions opt;
  opt.threads = 2;
  opt.engine = "ptx";
  analysis::Pipeline p(opt);
  for (const auto &s : *specs) {
    auto r = p.analyze(s);
    EXPECT_TRUE(r.ok()) << s.name << ": " << r.error().message;
    if (r.ok()) out[s.name] = std::move(*r);
  }
  return out;
}

const std::map<std::string, LaunchResult> &corpus() {
  static std::map<std::string, LaunchResult> results = runSuite("corpus.json");
  return results;
}

bool haveNvcc() { return !sass::findTool("nvcc").empty(); }

const LaunchResult &get(const std::string &name) {
  static LaunchResult empty;
  auto it = corpus().find(name);
  EXPECT_NE(it, corpus().end()) << name;
  return it == corpus().end() ? empty : it->second;
}

/// Sums of the records of one space and op (all SASS copies and PTX-level leftovers together).
struct Totals {
  std::uint64_t records = 0, executed = 0, threads = 0, requests = 0, sectors = 0, sectorsIdeal = 0,
                wavefronts = 0;
};
Totals total(const LaunchResult &r, const std::string &space, const std::string &op) {
  Totals t;
  for (const InstructionRecord &i : r.instructions)
    if (i.space == space && i.op == op) {
      ++t.records;
      t.executed += i.executed, t.threads += i.threads, t.requests += i.requests, t.sectors += i.sectors;
      t.sectorsIdeal += i.sectorsIdeal, t.wavefronts += i.wavefronts;
    }
  return t;
}

#define NEED_NVCC()                                                                                \
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found: the corpus .cu files cannot be compiled"

} // namespace

TEST(Corpus, EveryFunctionalCheckPassesUnderThePtxEmulator) {
  NEED_NVCC();
  ASSERT_EQ(corpus().size(), 21u);
  for (const auto &[name, r] : corpus()) {
    ASSERT_TRUE(r.checkPassed.has_value()) << name;
    EXPECT_TRUE(*r.checkPassed) << name << ": " << r.checkDetail;
  }
}

TEST(Corpus, HeldOutFunctionalChecksPass) {
  NEED_NVCC();
  auto held = runSuite("heldout.json");
  ASSERT_EQ(held.size(), 5u);
  for (const auto &[name, r] : held) {
    ASSERT_TRUE(r.checkPassed.has_value()) << name;
    EXPECT_TRUE(*r.checkPassed) << name << ": " << r.checkDetail;
  }
}

// 256-bin histogram: 2^20 bytes = 262144 words, grid 64 x 256 threads = 16384 threads, so each
// thread reads 16 words: 512 warps x 16 = 8192 warp loads of 32 consecutive words (128 bytes,
// 4 sectors) → 32768 sectors. Every word makes 4 shared atomics: 4 x 8192 = 32768 warp-level
// shared atomics, however ptxas copied them. Merge: 256 bins over 256 threads, one global
// atomic per thread: 64 x 8 = 512 warp reductions of 32 consecutive words → 2048 sectors (op
// "red" once grouped onto REDG; "atom" where no disassembler gave SASS).
TEST(Corpus, Histogram256SharedAtomicCounts) {
  NEED_NVCC();
  const auto &r = get("histogram256_shared_atomic_1M");
  Totals ld = total(r, "global", "ld"), atoms = total(r, "shared", "atom"), red = total(r, "global", "red");
  Totals atom = total(r, "global", "atom");
  red.executed += atom.executed, red.sectors += atom.sectors;
  EXPECT_EQ(ld.executed, 8192u);
  EXPECT_EQ(ld.requests, 8192u);
  EXPECT_EQ(ld.sectors, 32768u);
  EXPECT_EQ(atoms.executed, 32768u);
  EXPECT_EQ(atoms.threads, 1048576u); // one per byte
  EXPECT_EQ(red.executed, 512u);
  EXPECT_EQ(red.sectors, 2048u);
}

// 64-bin histogram: 65536 uint4 over 64 x 128 threads = 8 each: 256 warps x 8 = 2048 LDG.128 of
// 512 contiguous bytes = 16 sectors → 32768; 16 shared atomics per uint4 → 32768 warp atomics.
// Partials: threads < 64 of each block store one word: 2 warps x 64 blocks = 128 stores of
// 128 bytes → 512 sectors.
TEST(Corpus, Histogram64PartialCounts) {
  NEED_NVCC();
  const auto &r = get("histogram64_partial_1M");
  Totals ld = total(r, "global", "ld"), atoms = total(r, "shared", "atom"), st = total(r, "global", "st");
  EXPECT_EQ(ld.requests, 2048u);
  EXPECT_EQ(ld.sectors, 32768u);
  EXPECT_EQ(atoms.executed, 32768u);
  EXPECT_EQ(atoms.threads, 1048576u);
  EXPECT_EQ(st.executed, 128u);
  EXPECT_EQ(st.sectors, 512u);
}

// Interleaved tree reduction, 4096 blocks of 256: one coalesced load per thread (32768 warp
// loads, 4 sectors each → 131072) and one single-lane store per block (4096 sectors).
// Tree step s = 1, 2, ..., 128: threads t < 128 / s read sdata[2 s t] (and + s) and write it.
// ptxas if-converts the step, so all 8 warps execute each of the 8 steps: 4096 x 8 x 8 = 262144
// SASS executions (PTX-level, without a disassembler: only warps with an active lane, 4 + 2 + 6 x 1
// = 12 per block → 49152), with 128 + 64 + ... + 1 = 255 active threads per block → 1044480.
// Wavefronts per block of one of these accesses (word stride 2 s, bank = 2 s t mod 32):
// s=1: 4 warps, 2-way → 8; s=2: 2 warps, 4-way → 8; s=4: 1 warp, 8-way → 8; s=8: 16 lanes on
// 2 banks → 8; s=16: 8 lanes on bank 0 → 8; s=32: 4; s=64: 2; s=128: 1 → 47; x 4096 = 192512.
TEST(Corpus, ReduceInterleavedCounts) {
  NEED_NVCC();
  const auto &r = get("reduce_interleaved_1M");
  Totals ld = total(r, "global", "ld"), st = total(r, "global", "st");
  EXPECT_EQ(ld.requests, 32768u);
  EXPECT_EQ(ld.sectors, 131072u);
  EXPECT_EQ(st.executed, 4096u);
  EXPECT_EQ(st.threads, 4096u);
  EXPECT_EQ(st.sectors, 4096u);
  unsigned treeAccesses = 0;
  for (const InstructionRecord &i : r.instructions) {
    if (i.space != "shared" || i.threads != 1044480u) continue;
    ++treeAccesses;
    EXPECT_EQ(i.executed, i.sass.empty() ? 49152u : 262144u) << i.sass;
    EXPECT_EQ(i.wavefronts, 192512u) << i.sass;
  }
  EXPECT_EQ(treeAccesses, 3u); // two loads and one store per step
}

// Gather: index and output streams are coalesced (32768 warps x 4 sectors = 131072 each); the
// data read through random indices has the same ideal (131072) but nearly 32 sectors per request.
TEST(Corpus, GatherCoalescedStreamsAndScatteredReads) {
  NEED_NVCC();
  const auto &r = get("gather_masked_1M");
  Totals ld = total(r, "global", "ld"), st = total(r, "global", "st");
  EXPECT_EQ(ld.requests, 2u * 32768);
  EXPECT_EQ(ld.sectorsIdeal, 2u * 131072);
  EXPECT_EQ(st.requests, 32768u);
  EXPECT_EQ(st.sectors, 131072u);
  EXPECT_GT(ld.sectors, 131072u + 32768u * 31);
}
