// Block symmetry (sassemu/Symmetry.h) on hand-written listings: which blocks become replicas,
// their moves in bytes per block step (derived by hand from the listing), and that the replicas'
// events are exactly the events full execution makes.
#include "launch/LaunchSpec.h"
#include "model/AccessEvent.h"
#include "sass/SassListing.h"
#include "sassemu/Cubin.h"
#include "sassemu/Engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <tuple>

using namespace warplens;

namespace {

struct Replicas {
  std::vector<std::array<std::int64_t, 3>> coef;
  std::array<std::uint32_t, 3> rep;
  std::vector<std::uint32_t> blocks;
};

/// Keeps every event, and expands replicas into the events they stand for.
struct Keeper : model::AccessListener {
  std::vector<model::AccessEvent> *events;
  std::vector<Replicas> *replicas;
  std::mutex *mu;
  void onAccess(const model::AccessEvent &e) override {
    std::lock_guard<std::mutex> l(*mu);
    events->push_back(e);
  }
  void onReplicas(const model::BlockReplicas &r) override {
    {
      std::lock_guard<std::mutex> l(*mu);
      replicas->push_back({r.coef, r.rep, r.blockLinear});
    }
    AccessListener::onReplicas(r); // the default: every moved event through onAccess
  }
};

struct Out {
  std::vector<model::AccessEvent> events;
  std::vector<Replicas> replicas;
  std::string error;
  std::uint64_t replicated = 0, threadInstr = 0, warpInstr = 0;
  std::vector<std::uint64_t> perPc;
  std::vector<std::vector<std::uint32_t>> trace;
};

std::string wrap(const std::string &body) {
  return "//--------------------- .text.k --------------------------\nk:\n.text.k:\n" + body;
}

/// One buffer parameter `out` of `n` ints at c[0x0][0x210].
Out run(const std::string &body, std::array<std::uint32_t, 3> grid, std::uint32_t block, std::uint64_t n,
        bool addressOnly, unsigned threads = 1, std::uint32_t frameBytes = 0) {
  Out o;
  auto fns = sass::parseListing(wrap(body), "sym.sass");
  EXPECT_TRUE(fns.ok());
  const sass::SassFunction *fn = sass::findFunction(*fns, "k");
  sassemu::Cubin c;
  c.kernels["k"].name = "k";
  c.kernels["k"].params.push_back({});
  c.kernels["k"].params[0].offset = 0;
  c.kernels["k"].params[0].size = 8;
  c.kernels["k"].frameBytes = frameBytes;
  launch::LaunchSpec s;
  s.name = "sym";
  s.grid = grid;
  s.block = {block, 1, 1};
  launch::ArgSpec a;
  a.isBuffer = true;
  a.buffer = "out";
  a.type = launch::ScalarType::I32;
  a.count = n;
  a.init = "zero";
  s.args.push_back(a);
  auto bufs = launch::makeBuffers(s);
  EXPECT_TRUE(bufs.ok());
  std::mutex mu;
  emu::EmuOptions eo;
  eo.threads = threads;
  eo.addressOnly = addressOnly;
  auto r = sassemu::runLaunch(*fn, c, s, *bufs, [&] {
    auto k = std::make_unique<Keeper>();
    k->events = &o.events;
    k->replicas = &o.replicas;
    k->mu = &mu;
    return k;
  }, eo, "sym.sass");
  if (!r.ok()) o.error = r.error().message;
  else
    o.replicated = r->stats.replicatedBlocks, o.threadInstr = r->stats.threadInstructions,
    o.warpInstr = r->stats.warpInstructions, o.perPc = r->stats.warpInstrPerPc, o.trace = r->stats.blockTrace;
  return o;
}

/// Events in a canonical order with only what models read.
std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::vector<std::uint64_t>>>
canon(const std::vector<model::AccessEvent> &ev) {
  std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::vector<std::uint64_t>>> v;
  for (const auto &e : ev) {
    std::vector<std::uint64_t> a;
    for (unsigned l = 0; l < 32; ++l)
      if (e.active.test(l)) a.push_back(e.addr[l].value);
    v.emplace_back(e.block, e.warp, e.site, e.active.bits, a);
  }
  std::stable_sort(v.begin(), v.end());
  return v;
}

// out[blockIdx.x * 32 + threadIdx.x] = i: each block stores 128 bytes, one block further on.
const char *kAffine =
    "        /*0000*/                   S2R R0, SR_TID.X ;\n"
    "        /*0010*/                   S2R R3, SR_CTAID.X ;\n"
    "        /*0020*/                   LDC.64 R4, c[0x0][0x210] ;\n"
    "        /*0030*/                   LEA R0, R3, R0, 0x5 ;\n"
    "        /*0040*/                   IMAD.WIDE R4, R0, 0x4, R4 ;\n"
    "        /*0050*/                   STG.E [R4.64], R0 ;\n"
    "        /*0060*/                   EXIT ;\n";

} // namespace

TEST(SassSymmetry, AffineStoresReplicateWithTheHandComputedMove) {
  Out full = run(kAffine, {8, 1, 1}, 32, 256, false);
  Out addr = run(kAffine, {8, 1, 1}, 32, 256, true);
  ASSERT_TRUE(full.error.empty() && addr.error.empty()) << full.error << addr.error;
  EXPECT_TRUE(full.replicas.empty());
  ASSERT_EQ(addr.replicas.size(), 1u); // one worker: block 0 proves, blocks 1..7 are its replicas
  EXPECT_EQ(addr.replicated, 7u);
  const Replicas &r = addr.replicas[0];
  ASSERT_EQ(r.coef.size(), 1u);
  EXPECT_EQ(r.coef[0], (std::array<std::int64_t, 3>{128, 0, 0})); // 32 ints per block step
  EXPECT_EQ(r.rep, (std::array<std::uint32_t, 3>{0, 0, 0}));
  EXPECT_EQ(r.blocks, (std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(full.threadInstr, addr.threadInstr); // 7 instructions x 32 lanes x 8 blocks
  EXPECT_EQ(full.threadInstr, 7u * 32 * 8);
  EXPECT_EQ(canon(full.events), canon(addr.events));
  // Block 5 lane 3 stores out[5 * 32 + 3]: 163 ints past the buffer's base.
  std::uint64_t base = full.events[0].addr[0].value;
  for (const auto &e : full.events) base = std::min(base, e.addr[0].value);
  bool seen = false;
  for (const auto &e : addr.events)
    if (e.block == 5) {
      seen = true;
      EXPECT_EQ(e.addr[3].value, base + 4 * 163);
    }
  EXPECT_TRUE(seen);
}

TEST(SassSymmetry, MovesOfSixtyFourBytesMakeTwoClasses) {
  // out[blockIdx.x * 16 + threadIdx.x], 16 threads: 64 bytes per block step. Blocks an even
  // number of steps apart move by multiples of 128 bytes: block 0 stands for 2, 4, 6 and
  // block 1 (the lowest of the other class) for 3, 5, 7.
  std::string body = kAffine;
  body.replace(body.find("LEA R0, R3, R0, 0x5"), 19, "LEA R0, R3, R0, 0x4");
  Out full = run(body, {8, 1, 1}, 16, 128, false);
  Out addr = run(body, {8, 1, 1}, 16, 128, true);
  ASSERT_TRUE(full.error.empty() && addr.error.empty()) << full.error << addr.error;
  ASSERT_EQ(addr.replicas.size(), 2u);
  EXPECT_EQ(addr.replicas[0].coef[0][0], 64);
  EXPECT_EQ(addr.replicas[0].blocks, (std::vector<std::uint32_t>{2, 4, 6}));
  EXPECT_EQ(addr.replicas[1].rep[0], 1u);
  EXPECT_EQ(addr.replicas[1].blocks, (std::vector<std::uint32_t>{3, 5, 7}));
  EXPECT_EQ(addr.replicated, 6u);
  EXPECT_EQ(canon(full.events), canon(addr.events));
}

TEST(SassSymmetry, AGuardThatDependsOnTheBlockParityIsNotProven) {
  // Only odd blocks store (blockIdx.x & 1): the guard differs between blocks, so every block runs.
  std::string body =
      "        /*0000*/                   S2R R0, SR_TID.X ;\n"
      "        /*0010*/                   S2R R3, SR_CTAID.X ;\n"
      "        /*0020*/                   LDC.64 R4, c[0x0][0x210] ;\n"
      "        /*0030*/                   LOP3.LUT R6, R3, 0x1, RZ, 0xc0, !PT ;\n"
      "        /*0040*/                   ISETP.NE.AND P0, PT, R6, RZ, PT ;\n"
      "        /*0050*/                   LEA R0, R3, R0, 0x5 ;\n"
      "        /*0060*/                   IMAD.WIDE R4, R0, 0x4, R4 ;\n"
      "        /*0070*/               @P0 STG.E [R4.64], R0 ;\n"
      "        /*0080*/                   EXIT ;\n";
  Out full = run(body, {8, 1, 1}, 32, 256, false);
  Out addr = run(body, {8, 1, 1}, 32, 256, true);
  ASSERT_TRUE(full.error.empty() && addr.error.empty()) << full.error << addr.error;
  EXPECT_TRUE(addr.replicas.empty());
  EXPECT_EQ(addr.replicated, 0u);
  EXPECT_EQ(canon(full.events), canon(addr.events));
  unsigned stores = 0;
  for (const auto &e : addr.events) stores += e.active.count() == 32;
  EXPECT_EQ(stores, 4u); // blocks 1, 3, 5, 7
}

TEST(SassSymmetry, AnAccessLeavingItsBufferInSomeBlockIsReportedAsInFullMode) {
  // 7 blocks' worth of buffer for 8 blocks: block 7 writes past the end. The proof's bounds check
  // over the grid fails, so block 7 runs and reports what full execution reports.
  Out full = run(kAffine, {8, 1, 1}, 32, 224, false);
  Out addr = run(kAffine, {8, 1, 1}, 32, 224, true);
  ASSERT_FALSE(full.error.empty());
  EXPECT_EQ(full.error, addr.error);
  EXPECT_NE(full.error.find("block (7,0,0)"), std::string::npos) << full.error;
}

TEST(SassSymmetry, TwoWorkersGiveTheSameEvents) {
  Out one = run(kAffine, {64, 1, 1}, 32, 2048, true, 1);
  Out two = run(kAffine, {64, 1, 1}, 32, 2048, true, 2);
  Out full = run(kAffine, {64, 1, 1}, 32, 2048, false, 2);
  ASSERT_TRUE(one.error.empty() && two.error.empty() && full.error.empty());
  EXPECT_EQ(canon(one.events), canon(full.events));
  EXPECT_EQ(canon(two.events), canon(full.events));
  EXPECT_EQ(one.replicated, 63u);
}

namespace {
// The pointer of kAffine spilled to local memory and loaded back before the store (memory is
// then needed in address-only mode: the loaded value is an address).
std::string spilled(const std::string &between) {
  return "        /*0000*/                   S2R R0, SR_TID.X ;\n"
         "        /*0010*/                   S2R R3, SR_CTAID.X ;\n"
         "        /*0020*/                   LDC.64 R4, c[0x0][0x210] ;\n"
         "        /*0030*/                   LDC R1, c[0x0][0x28] ;\n"
         "        /*0040*/                   IADD3 R1, R1, -0x8, RZ ;\n"
         "        /*0050*/                   LEA R0, R3, R0, 0x5 ;\n"
         "        /*0060*/                   IMAD.WIDE R4, R0, 0x4, R4 ;\n"
         "        /*0070*/                   STL.64 [R1], R4 ;\n" +
         between +
         "        /*0090*/                   MOV R4, RZ ;\n"
         "        /*00a0*/                   LDL.64 R4, [R1] ;\n"
         "        /*00b0*/                   STG.E [R4.64], R0 ;\n"
         "        /*00c0*/                   EXIT ;\n";
}
} // namespace

TEST(SassSymmetry, ASpilledPointerKeepsItsMove) {
  std::string body = spilled("        /*0080*/                   NOP ;\n");
  Out full = run(body, {8, 1, 1}, 32, 256, false, 1, 16);
  Out addr = run(body, {8, 1, 1}, 32, 256, true, 1, 16);
  ASSERT_TRUE(full.error.empty() && addr.error.empty()) << full.error << addr.error;
  ASSERT_EQ(addr.replicas.size(), 1u);
  EXPECT_EQ(addr.replicas[0].coef.size(), 2u); // the local accesses (no move) and the store
  bool moves = false;
  for (const auto &c : addr.replicas[0].coef) moves = moves || c == std::array<std::int64_t, 3>{128, 0, 0};
  EXPECT_TRUE(moves);
  EXPECT_EQ(canon(full.events), canon(addr.events));
}

TEST(SassSymmetry, AByteStoredIntoASpilledWordMakesItOpaque) {
  // Byte 7 of the pointer (0 already: buffers lie below 2^48) is stored over: the same value,
  // but the word's form is no longer tracked, so the store's address is not proven.
  std::string body = spilled("        /*0080*/                   STL.U8 [R1+0x7], RZ ;\n");
  Out full = run(body, {8, 1, 1}, 32, 256, false, 1, 16);
  Out addr = run(body, {8, 1, 1}, 32, 256, true, 1, 16);
  ASSERT_TRUE(full.error.empty() && addr.error.empty()) << full.error << addr.error;
  EXPECT_TRUE(addr.replicas.empty());
  EXPECT_EQ(canon(full.events), canon(addr.events));
}

namespace {
/// Counts replica calls and blocks only (no replay).
struct Counter : model::AccessListener {
  std::uint64_t *calls, *blocks, *events;
  std::mutex *mu;
  void onAccess(const model::AccessEvent &) override {
    std::lock_guard<std::mutex> l(*mu);
    ++*events;
  }
  void onReplicas(const model::BlockReplicas &r) override {
    std::lock_guard<std::mutex> l(*mu);
    ++*calls;
    *blocks += r.blocks.size();
  }
};
} // namespace

TEST(SassSymmetry, ReplicasOfALargeGridComeInBoundedChunks) {
  // out[threadIdx.x] = 0 with one thread per block over 2^21 + 5 blocks: every block stores to
  // the same address (no move), block 0 stands for all others, handed over 2^20 at a time.
  const std::string body =
      "        /*0000*/                   S2R R0, SR_TID.X ;\n"
      "        /*0010*/                   LDC.64 R4, c[0x0][0x210] ;\n"
      "        /*0020*/                   IMAD.WIDE R4, R0, 0x4, R4 ;\n"
      "        /*0030*/                   STG.E [R4.64], RZ ;\n"
      "        /*0040*/                   EXIT ;\n";
  auto fns = sass::parseListing(wrap(body), "big.sass");
  ASSERT_TRUE(fns.ok());
  sassemu::Cubin c;
  c.kernels["k"].name = "k";
  c.kernels["k"].params.push_back({});
  c.kernels["k"].params[0].size = 8;
  launch::LaunchSpec s;
  s.name = "big";
  s.grid = {(1u << 21) + 5, 1, 1};
  s.block = {1, 1, 1};
  launch::ArgSpec a;
  a.isBuffer = true;
  a.buffer = "out";
  a.type = launch::ScalarType::I32;
  a.count = 1;
  a.init = "zero";
  s.args.push_back(a);
  auto bufs = launch::makeBuffers(s);
  ASSERT_TRUE(bufs.ok());
  std::uint64_t calls = 0, blocks = 0, events = 0;
  std::mutex mu;
  emu::EmuOptions eo;
  eo.threads = 1;
  eo.addressOnly = true;
  auto r = sassemu::runLaunch(*sass::findFunction(*fns, "k"), c, s, *bufs, [&] {
    auto k = std::make_unique<Counter>();
    k->calls = &calls, k->blocks = &blocks, k->events = &events, k->mu = &mu;
    return k;
  }, eo, "big.sass");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(events, 1u);                 // block 0's store
  EXPECT_EQ(blocks, (1u << 21) + 4);     // every other block a replica
  EXPECT_EQ(calls, 3u);                  // 2^20 + 2^20 + 4
  EXPECT_EQ(r->stats.threadInstructions, 5ull * ((1u << 21) + 5)); // 5 instructions x 1 thread per block
}

TEST(SassSymmetry, APartialTileBoundsCheckSplitsOffTheEdgeBlocks) {
  // if (i < 200) out[i] = i, i = blockIdx.x * 32 + threadIdx.x, 8 blocks: blocks 0-5 are full
  // (i < 192), block 6 has 8 active lanes, block 7 none. Block 0's comparison i >= 200 is false in
  // every lane and stays so in blocks 1-5 (recorded constraint: 32 b + 31 - 200 < 0, b <= 5):
  // they are its replicas. Block 6 proves again (its lanes split) and stands for no other block;
  // block 7 runs. Every event equals full execution's.
  const std::string body =
      "        /*0000*/                   S2R R0, SR_TID.X ;\n"
      "        /*0010*/                   S2R R3, SR_CTAID.X ;\n"
      "        /*0020*/                   LDC.64 R4, c[0x0][0x210] ;\n"
      "        /*0030*/                   LEA R0, R3, R0, 0x5 ;\n"
      "        /*0040*/                   ISETP.GE.AND P0, PT, R0, 0xc8, PT ;\n"
      "        /*0050*/               @P0 EXIT ;\n"
      "        /*0060*/                   IMAD.WIDE R4, R0, 0x4, R4 ;\n"
      "        /*0070*/                   STG.E [R4.64], R0 ;\n"
      "        /*0080*/                   EXIT ;\n";
  Out full = run(body, {8, 1, 1}, 32, 200, false);
  Out addr = run(body, {8, 1, 1}, 32, 200, true);
  ASSERT_TRUE(full.error.empty() && addr.error.empty()) << full.error << addr.error;
  ASSERT_GE(addr.replicas.size(), 1u);
  EXPECT_EQ(addr.replicas[0].blocks, (std::vector<std::uint32_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(addr.replicated, 5u);
  EXPECT_EQ(canon(full.events), canon(addr.events));
  unsigned lanes = 0;
  for (const auto &e : addr.events) lanes += unsigned(e.active.count());
  EXPECT_EQ(lanes, 200u); // one store per i < 200
}

TEST(SassSymmetry, ASixtyFourBitResultOverwritesAMovingSecondRegister) {
  // out[blockIdx.x * 32 + threadIdx.x] = i through R3 (moving by 32 per block), then
  // IMAD.WIDE R2 = &out[threadIdx.x]: its high word overwrites R3 with a value that is the same
  // in every block. The proof must forget R3's form (a fuzzed listing kept it: a rule error, so
  // nothing was replicated); the second store's address is then the same in every block.
  std::string body =
      "        /*0000*/                   S2R R0, SR_TID.X ;\n"
      "        /*0010*/                   S2R R7, SR_CTAID.X ;\n"
      "        /*0020*/                   LDC.64 R4, c[0x0][0x210] ;\n"
      "        /*0030*/                   LEA R3, R7, R0, 0x5 ;\n"
      "        /*0040*/                   IMAD.WIDE R8, R3, 0x4, R4 ;\n"
      "        /*0050*/                   STG.E [R8.64], R0 ;\n"
      "        /*0060*/                   IMAD.WIDE R2, R0, 0x4, R4 ;\n"
      "        /*0070*/                   STG.E [R2.64], R0 ;\n"
      "        /*0080*/                   EXIT ;\n";
  Out full = run(body, {8, 1, 1}, 32, 256, false);
  Out addr = run(body, {8, 1, 1}, 32, 256, true);
  ASSERT_TRUE(full.error.empty() && addr.error.empty()) << full.error << addr.error;
  EXPECT_EQ(addr.replicated, 7u);
  ASSERT_EQ(addr.replicas.size(), 1u);
  // Per event group: the first store moves 32 ints = 128 bytes per block, the second not at all.
  std::vector<std::array<std::int64_t, 3>> coef = addr.replicas[0].coef;
  std::sort(coef.begin(), coef.end());
  EXPECT_EQ(coef, (std::vector<std::array<std::int64_t, 3>>{{0, 0, 0}, {128, 0, 0}}));
  EXPECT_EQ(canon(full.events), canon(addr.events));
  std::uint64_t base = full.events[0].addr[0].value;
  for (const auto &e : full.events) base = std::min(base, e.addr[0].value);
  unsigned seen = 0;
  for (const auto &e : addr.events)
    if (e.block == 5) {
      ++seen;
      EXPECT_EQ(e.addr[3].value, base + 4 * (e.site == 5 ? 163 : 3)) << "site " << e.site; // site: instruction index
    }
  EXPECT_EQ(seen, 2u);
}

// Per-instruction counts (the time model's instruction mix): every instruction of a straight
// kernel runs once per warp, 8 blocks of one warp: 8 each, whether executed, skipped by
// address-only mode (the two IADD3s only feed the stored value) or counted through replicas.
TEST(SassSymmetry, PerInstructionCountsAreFullExecutionsInEveryMode) {
  const char *body =
      "        /*0000*/                   S2R R0, SR_TID.X ;\n"
      "        /*0010*/                   S2R R3, SR_CTAID.X ;\n"
      "        /*0020*/                   LDC.64 R4, c[0x0][0x210] ;\n"
      "        /*0030*/                   IADD3 R7, R0, 0x1, RZ ;\n"
      "        /*0040*/                   IADD3 R7, R7, 0x1, RZ ;\n"
      "        /*0050*/                   LEA R0, R3, R0, 0x5 ;\n"
      "        /*0060*/                   IMAD.WIDE R4, R0, 0x4, R4 ;\n"
      "        /*0070*/                   STG.E [R4.64], R7 ;\n"
      "        /*0080*/                   EXIT ;\n";
  Out full = run(body, {8, 1, 1}, 32, 256, false);
  Out addr = run(body, {8, 1, 1}, 32, 256, true);
  ASSERT_TRUE(full.error.empty() && addr.error.empty()) << full.error << addr.error;
  EXPECT_EQ(addr.replicated, 7u);
  const std::vector<std::uint64_t> want(9, 8);
  EXPECT_EQ(full.perPc, want);
  EXPECT_EQ(addr.perPc, want);
  EXPECT_EQ(full.warpInstr, 72u);
  EXPECT_EQ(addr.warpInstr, 72u);
}

// Session 10: block 0's trace (RunStats::blockTrace) for the SM trace simulation. Warp 0
// (threads 0-31) passes the guarded EXIT and runs all seven instructions; warp 1 (32-63) leaves
// at the third. Code indices are pc / 16. Address-only mode skips runs of instructions but
// records them the same.
TEST(SassEngine, BlockZeroTraceIsEachWarpsExecutedCodeIndices) {
  const char *body = "        /*0000*/                   S2R R0, SR_TID.X ;\n"
                     "        /*0010*/                   ISETP.GE.AND P0, PT, R0, 0x20, PT ;\n"
                     "        /*0020*/               @P0 EXIT ;\n"
                     "        /*0030*/                   LDC.64 R4, c[0x0][0x210] ;\n"
                     "        /*0040*/                   IMAD.WIDE R4, R0, 0x4, R4 ;\n"
                     "        /*0050*/                   STG.E [R4.64], R0 ;\n"
                     "        /*0060*/                   EXIT ;\n";
  for (bool addressOnly : {false, true}) {
    Out o = run(body, {4, 1, 1}, 64, 64, addressOnly, 2);
    ASSERT_TRUE(o.error.empty()) << o.error;
    ASSERT_EQ(o.trace.size(), 2u);
    EXPECT_EQ(o.trace[0], (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(o.trace[1], (std::vector<std::uint32_t>{0, 1, 2}));
    EXPECT_EQ(o.warpInstr, 4u * (7 + 3)); // four blocks alike
  }
}
