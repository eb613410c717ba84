// Tests of the SASS engine (simulator/sassemu): decoding, SIMT control flow on hand-written
// listings (expected counts derived by hand from the listing), and whole kernels from the
// committed fixture cubin + listing (tests/sassemu/fixtures), with values from the CUDA source.
#include "launch/LaunchSpec.h"
#include "model/AccessEvent.h"
#include "sass/SassListing.h"
#include "sassemu/Cubin.h"
#include "sassemu/Decoder.h"
#include "sassemu/Engine.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <cstring>
#include <map>
#include <mutex>

using namespace warplens;

namespace {

const std::string kFixtures = std::string(WARPLENS_TEST_DATA) + "/fixtures/";

/// Collects every event (all workers append to one vector).
struct Recorder : model::AccessListener {
  std::vector<model::AccessEvent> *out;
  std::mutex *mu;
  void onAccess(const model::AccessEvent &e) override {
    std::lock_guard<std::mutex> l(*mu);
    out->push_back(e);
  }
};

struct RunOut {
  std::vector<model::AccessEvent> events;
  std::vector<launch::HostBuffer> buffers;
  std::string error;
  std::map<std::uint64_t, std::pair<unsigned, unsigned>> perPc() const { // pc → (executions, lanes)
    std::map<std::uint64_t, std::pair<unsigned, unsigned>> m;
    for (const auto &e : events) {
      auto &p = m[std::uint64_t(e.site) * 16];
      ++p.first;
      p.second += unsigned(e.active.count());
    }
    return m;
  }
};

RunOut runListing(const std::string &listing, const std::string &kernel, const sassemu::Cubin &cubin,
               launch::LaunchSpec spec) {
  RunOut r;
  auto fns = sass::parseListing(listing, "test.sass");
  EXPECT_TRUE(fns.ok()) << (fns.ok() ? "" : fns.error().message);
  if (!fns.ok()) return r;
  const sass::SassFunction *fn = sass::findFunction(*fns, kernel);
  EXPECT_NE(fn, nullptr);
  if (!fn) return r;
  auto bufs = launch::makeBuffers(spec);
  EXPECT_TRUE(bufs.ok());
  r.buffers = std::move(*bufs);
  std::mutex mu;
  emu::EmuOptions eo;
  eo.threads = 1;
  auto run = sassemu::runLaunch(*fn, cubin, spec, r.buffers, [&] {
    auto l = std::make_unique<Recorder>();
    l->out = &r.events;
    l->mu = &mu;
    return l;
  }, eo, "test.sass");
  if (!run.ok()) r.error = run.error().message;
  return r;
}

launch::LaunchSpec specOf(std::array<std::uint32_t, 3> grid, std::array<std::uint32_t, 3> block) {
  launch::LaunchSpec s;
  s.name = "t";
  s.grid = grid;
  s.block = block;
  return s;
}

sassemu::Cubin tinyCubin(const std::string &name, std::uint32_t shared) {
  sassemu::Cubin c;
  c.kernels[name].name = name;
  c.kernels[name].sharedBytes = shared;
  return c;
}

std::string wrap(const std::string &body) {
  return "//--------------------- .text.k --------------------------\nk:\n.text.k:\n" + body;
}

} // namespace

TEST(SassDecoder, OperandForms) {
  sassemu::LabelMap labels{{".L_x_11", 0x120}, {"k", 0}};
  auto a = sassemu::decodeText("@!P0 BRA !P1, `(.L_x_11) ;", 0x40, labels);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->guard.kind, sassemu::OpKind::Pred);
  EXPECT_TRUE(a->guard.notp);
  ASSERT_EQ(a->ops.size(), 2u);
  EXPECT_TRUE(a->ops[0].notp);
  EXPECT_EQ(a->ops[1].kind, sassemu::OpKind::Label);
  EXPECT_EQ(a->ops[1].imm, 0x120u);

  auto b = sassemu::decodeText("LDG.E.64 R6, desc[UR4][R6.64+-0x10] ;", 0, labels);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->base, "LDG");
  EXPECT_EQ(b->mods, (std::vector<std::string>{"E", "64"}));
  EXPECT_EQ(b->ops[1].kind, sassemu::OpKind::Mem);
  EXPECT_TRUE(b->ops[1].idxWide);
  EXPECT_EQ(b->ops[1].off, -16);

  auto c = sassemu::decodeText("LDS.U.128 R4, [R2.X4+UR5+0x10] ;", 0, labels);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->ops[1].idxScale, 4);
  EXPECT_TRUE(c->ops[1].hasUidx);
  EXPECT_EQ(c->ops[1].uidx, 5u);
  EXPECT_EQ(c->ops[1].off, 16);

  auto d = sassemu::decodeText("FSETP.GTU.FTZ.AND P0, PT, |R0|, +INF , PT ;", 0, labels);
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->ops[2].abs);
  EXPECT_EQ(d->ops[3].kind, sassemu::OpKind::FImm);
  EXPECT_TRUE(std::isinf(d->ops[3].fimm));

  auto e = sassemu::decodeText("RET.REL.NODEC R2 `(k) ;", 0, labels);
  ASSERT_TRUE(e.ok());
  ASSERT_EQ(e->ops.size(), 2u);
  EXPECT_EQ(e->ops[0].index, 2u);

  auto f = sassemu::decodeText("LDC R13, c[0x3][R13+0x8] ;", 0, labels);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->ops[1].bank, 3u);
  EXPECT_EQ(f->ops[1].off, 8);

  auto bad = sassemu::decodeText("BRA `(.L_nowhere) ;", 0x50, labels);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("pc 0x0050"), std::string::npos);
  EXPECT_NE(bad.error().message.find(".L_nowhere"), std::string::npos);
}

TEST(SassDecoder, DamagedOpcodesAreErrorsNamingThem) {
  // Fuzzed lines the decoder used to take as instructions: the full run then failed on the
  // operand, while address-only mode skipped the unused instruction and reported counts.
  sassemu::LabelMap labels;
  auto a = sassemu::decodeText("ULDC.64UR4, c[0x0][0x208] ;", 0x30, labels);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message,
            "pc 0x0030 `ULDC.64UR4, c[0x0][0x208] ;`: bad character in opcode 'ULDC.64UR4,'");
  auto b = sassemu::decodeText("IMAD.MOV.U3\xff, RZ, RZ, R2 ;", 0x100, labels);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("bad character in opcode 'IMAD.MOV.U3\\xff,'"), std::string::npos)
      << b.error().message;
  auto c = sassemu::decodeText("ULDC. UR5, UR4, 0x18 ;", 0, labels);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("empty modifier in opcode 'ULDC.'"), std::string::npos) << c.error().message;
  auto d = sassemu::decodeText("HMMA.16816.F32.BF16 R4, R8, R12, R4 ;", 0, labels); // digits and capitals
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->mods, (std::vector<std::string>{"16816", "F32", "BF16"}));
}

TEST(SassEngine, UnknownOpcodeIsAnErrorNamingPcAndSource) {
  std::string l = wrap("\t//## File \"x.cu\", line 7\n        /*0000*/                   FOOBAR R0, R1 ;\n"
                       "        /*0010*/                   EXIT ;\n");
  RunOut r = runListing(l, "k", tinyCubin("k", 0x400), specOf({1, 1, 1}, {32, 1, 1}));
  EXPECT_NE(r.error.find("unsupported opcode 'FOOBAR'"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("pc 0x0"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("x.cu:7"), std::string::npos) << r.error;
}

// Divergence and reconvergence: even and odd lanes take different STS, reconverge at BSYNC, and
// the LDS after the join executes once per warp with all 32 lanes. A guarded STS whose predicate
// is false for every lane is still executed (one execution, no lanes).
TEST(SassEngine, DivergenceReconvergesAtBsync) {
  std::string l = wrap(
      "        /*0000*/                   S2R R0, SR_LANEID ;\n"
      "        /*0010*/                   LOP3.LUT P0, RZ, R0, 0x1, RZ, 0xc0, !PT ;\n"
      "        /*0020*/                   IMAD.SHL.U32 R1, R0, 0x4, RZ ;\n"
      "        /*0030*/                   BSSY B0, `(.L_x_0) ;\n"
      "        /*0040*/               @P0 BRA `(.L_x_1) ;\n"
      "        /*0050*/                   STS [R1+0x400], R0 ;\n"
      "        /*0060*/                   BRA `(.L_x_0) ;\n"
      ".L_x_1:\n"
      "        /*0070*/                   STS [R1+0x480], R0 ;\n"
      ".L_x_0:\n"
      "        /*0080*/                   BSYNC B0 ;\n"
      "        /*0090*/                   LDS R2, [R1+0x400] ;\n"
      "        /*00a0*/                   ISETP.GT.AND P1, PT, R0, 0x40, PT ;\n"
      "        /*00b0*/               @P1 STS [R1+0x400], R2 ;\n"
      "        /*00c0*/                   EXIT ;\n");
  RunOut r = runListing(l, "k", tinyCubin("k", 0x400 + 256), specOf({1, 1, 1}, {64, 1, 1}));
  ASSERT_TRUE(r.error.empty()) << r.error;
  auto m = r.perPc();
  EXPECT_EQ(m[0x50], std::make_pair(2u, 32u)); // 2 warps × 16 even lanes
  EXPECT_EQ(m[0x70], std::make_pair(2u, 32u)); // 2 warps × 16 odd lanes
  EXPECT_EQ(m[0x90], std::make_pair(2u, 64u)); // reconverged: one execution per warp
  EXPECT_EQ(m[0xb0], std::make_pair(2u, 0u));  // executed, every lane predicated off
  for (const auto &e : r.events)
    if (e.site * 16 == 0x50) EXPECT_EQ(e.addr[2].value, 8u); // shared offset from the window base
}

// Which side of a divergent branch runs first (CtrlOps.cpp, measured on the H100): the side with
// fewer lanes, the fall-through on a tie; the running group goes on until it blocks at the BSYNC,
// then the group suspended last resumes with every ready group at its pc. A loop that lanes leave
// after R3 trips, through a store before the BSYNC: every group that leaves on its own stores on
// its own. Hand-derived from the listing, one warp:
// lane & 3 (8 lanes each): trip 0: 8 leave, 24 stay: the leavers run first (store 1, then wait);
// trip 1: 8 leave, 16 stay: leavers first (store 2); trip 2: 8 leave, 8 stay: a tie, the loop
// (fall-through) goes on and the leavers wait at the store; trip 3: the last 8 leave together
// (store 3, wait); the waiting group resumes (store 4). Four stores of 8 lanes.
// max(lane / 8, 1) - 1 (16, 8, 8 lanes): trip 0: 16 leave, 16 stay: a tie, the loop goes on;
// trip 1: 8 leave, 8 stay: a tie again; trip 2: the last 8 leave (store 1); then the group
// suspended last (trip 1's 8) resumes merged with trip 0's 16, both at the store (store 2, 24 lanes).
TEST(SassEngine, DivergentLoopExitsRunInTheHardwaresOrder) {
  // R3 (the lane's trips) from 0x10-0x30, then the loop.
  auto listing = [](const std::string &tripsOfLane) {
    return wrap("        /*0000*/                   S2R R0, SR_LANEID ;\n" + tripsOfLane +
                "        /*0040*/                   IMAD.SHL.U32 R1, R0, 0x4, RZ ;\n"
                "        /*0050*/                   MOV R2, RZ ;\n"
                "        /*0060*/                   BSSY B0, `(.L_x_0) ;\n"
                ".L_x_1:\n"
                "        /*0070*/                   ISETP.GE.AND P0, PT, R2, R3, PT ;\n"
                "        /*0080*/               @P0 BRA `(.L_x_2) ;\n"
                "        /*0090*/                   IADD3 R2, R2, 0x1, RZ ;\n"
                "        /*00a0*/                   BRA `(.L_x_1) ;\n"
                ".L_x_2:\n"
                "        /*00b0*/                   STS [R1+0x400], R2 ;\n"
                ".L_x_0:\n"
                "        /*00c0*/                   BSYNC B0 ;\n"
                "        /*00d0*/                   LDS R4, [R1+0x400] ;\n"
                "        /*00e0*/                   EXIT ;\n");
  };
  const std::string quarters = "        /*0010*/                   LOP3.LUT R3, R0, 0x3, RZ, 0xc0, !PT ;\n"
                               "        /*0020*/                   NOP ;\n"
                               "        /*0030*/                   NOP ;\n";
  const std::string halves = "        /*0010*/                   SHF.R.U32.HI R3, RZ, 0x3, R0 ;\n"
                             "        /*0020*/                   VIMNMX R3, R3, 0x1, !PT ;\n"
                             "        /*0030*/                   IADD3 R3, R3, -0x1, RZ ;\n";
  const std::vector<std::pair<std::string, std::vector<unsigned>>> cases = {{quarters, {8, 8, 8, 8}},
                                                                            {halves, {8, 24}}};
  for (const auto &[trips, lanes] : cases) {
    RunOut r = runListing(listing(trips), "k", tinyCubin("k", 0x400 + 128), specOf({1, 1, 1}, {32, 1, 1}));
    ASSERT_TRUE(r.error.empty()) << r.error;
    std::vector<unsigned> got; // lanes of each execution of the store before the BSYNC, in order
    for (const auto &e : r.events)
      if (e.site * 16 == 0xb0) got.push_back(unsigned(e.active.count()));
    EXPECT_EQ(got, lanes);
    auto m = r.perPc();
    EXPECT_EQ(m[0xd0], std::make_pair(1u, 32u)); // reconverged at the BSYNC
  }
}

// VIMNMX3 (sm_90's three-input min/max, nvcc 13's max(max(x, y), z)): !PT max, PT min, .U32
// unsigned. Lane l stores at 4 x max(l, 31 - l, 20), at 4 x min(l, 31 - l, 20), and at
// 4 x min.u32(l - 16, 3, 31 - l) (below lane 16, l - 16 wraps to a large unsigned value).
TEST(SassEngine, ThreeInputMinMax) {
  std::string l = wrap(
      "        /*0000*/                   S2R R0, SR_LANEID ;\n"
      "        /*0010*/                   IADD3 R4, -R0, 0x1f, RZ ;\n"
      "        /*0020*/                   MOV R5, 0x14 ;\n"
      "        /*0030*/                   VIMNMX3 R3, R0, R4, R5, !PT ;\n"
      "        /*0040*/                   IMAD.SHL.U32 R1, R3, 0x4, RZ ;\n"
      "        /*0050*/                   STS [R1+0x400], R0 ;\n"
      "        /*0060*/                   VIMNMX3 R3, R0, R4, R5, PT ;\n"
      "        /*0070*/                   IMAD.SHL.U32 R1, R3, 0x4, RZ ;\n"
      "        /*0080*/                   STS [R1+0x400], R0 ;\n"
      "        /*0090*/                   IADD3 R6, R0, -0x10, RZ ;\n"
      "        /*00a0*/                   MOV R7, 0x3 ;\n"
      "        /*00b0*/                   VIMNMX3.U32 R3, R6, R7, R4, PT ;\n"
      "        /*00c0*/                   IMAD.SHL.U32 R1, R3, 0x4, RZ ;\n"
      "        /*00d0*/                   STS [R1+0x400], R0 ;\n"
      "        /*00e0*/                   EXIT ;\n");
  RunOut r = runListing(l, "k", tinyCubin("k", 0x400 + 256), specOf({1, 1, 1}, {32, 1, 1}));
  ASSERT_TRUE(r.error.empty()) << r.error;
  bool seen[3] = {false, false, false};
  for (const auto &e : r.events) {
    const unsigned pc = unsigned(e.site * 16);
    for (unsigned ln = 0; ln < 32; ++ln) {
      const unsigned other = 31 - ln;
      unsigned want = 0;
      if (pc == 0x50) want = 4u * std::max({ln, other, 20u});
      else if (pc == 0x80) want = 4u * std::min({ln, other, 20u});
      else if (pc == 0xd0) want = 4u * std::min({ln - 16u, 3u, other});
      else continue;
      EXPECT_EQ(e.addr[ln].value, want) << "pc " << pc << " lane " << ln;
    }
    seen[0] |= pc == 0x50, seen[1] |= pc == 0x80, seen[2] |= pc == 0xd0;
  }
  EXPECT_TRUE(seen[0] && seen[1] && seen[2]);
}

// CALL with the return address in a register and RET.REL.NODEC back to it; a partial warp
// (40 threads: the second warp has 8 lanes).
TEST(SassEngine, CallAndReturnThroughRegister) {
  std::string l = wrap(
      "        /*0000*/                   S2R R0, SR_TID.X ;\n"
      "        /*0010*/                   MOV R2, 0x40 ;\n"
      "        /*0020*/                   CALL.REL.NOINC `($sub) ;\n"
      "        /*0030*/                   EXIT ;\n"
      "        /*0040*/                   STS [R4+0x400], R0 ;\n"
      "        /*0050*/                   EXIT ;\n"
      "$sub:\n"
      "        /*0060*/                   IMAD.SHL.U32 R4, R0, 0x4, RZ ;\n"
      "        /*0070*/                   RET.REL.NODEC R2 `(k) ;\n");
  RunOut r = runListing(l, "k", tinyCubin("k", 0x400 + 256), specOf({1, 1, 1}, {40, 1, 1}));
  ASSERT_TRUE(r.error.empty()) << r.error;
  auto m = r.perPc();
  EXPECT_EQ(m[0x40], std::make_pair(2u, 40u));
}

TEST(SassEngine, SharedOutOfBoundsNamesThreadAndPc) {
  std::string l = wrap(
      "        /*0000*/                   S2R R0, SR_TID.X ;\n"
      "        /*0010*/                   IMAD.SHL.U32 R1, R0, 0x4, RZ ;\n"
      "        /*0020*/                   STS [R1+0x400], R0 ;\n"
      "        /*0030*/                   EXIT ;\n");
  RunOut r = runListing(l, "k", tinyCubin("k", 0x400 + 64), specOf({1, 1, 1}, {32, 1, 1}));
  EXPECT_NE(r.error.find("Invalid __shared__ write of size 4 bytes at 0x440"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("thread (16,0,0)"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("pc 0x20"), std::string::npos) << r.error;
}

namespace {

struct Fixture {
  std::vector<sass::SassFunction> fns;
  sassemu::Cubin cubin;
  bool ok = false;
  Fixture() {
    auto f = sass::readListing(kFixtures + "engine_fixture.sass");
    auto c = sassemu::readCubin(kFixtures + "engine_fixture.cubin");
    EXPECT_TRUE(f.ok() && c.ok());
    if (!f.ok() || !c.ok()) return;
    fns = std::move(*f);
    cubin = std::move(*c);
    ok = true;
  }
};

launch::ArgSpec bufArg(const std::string &name, launch::ScalarType t, std::uint64_t count, const std::string &init) {
  launch::ArgSpec a;
  a.isBuffer = true;
  a.buffer = name;
  a.type = t;
  a.count = count;
  a.init = init;
  return a;
}
launch::ArgSpec intArg(std::int64_t v) {
  launch::ArgSpec a;
  a.type = launch::ScalarType::I32;
  a.intValue = v;
  return a;
}

template <class T> std::vector<T> values(const launch::HostBuffer &b) {
  std::vector<T> v(b.bytes.size() / sizeof(T));
  std::memcpy(v.data(), b.bytes.data(), v.size() * sizeof(T));
  return v;
}

RunOut runFixture(const Fixture &fx, const std::string &kernel, launch::LaunchSpec spec) {
  RunOut r;
  const sass::SassFunction *fn = sass::findFunction(fx.fns, kernel);
  EXPECT_NE(fn, nullptr);
  if (!fn) return r;
  r.buffers = *launch::makeBuffers(spec);
  std::mutex mu;
  emu::EmuOptions eo;
  eo.threads = 2;
  auto run = sassemu::runLaunch(*fn, fx.cubin, spec, r.buffers, [&] {
    auto l = std::make_unique<Recorder>();
    l->out = &r.events;
    l->mu = &mu;
    return l;
  }, eo, "engine_fixture.sass");
  if (!run.ok()) r.error = run.error().message;
  return r;
}

} // namespace

TEST(SassCubin, FixtureFacts) {
  Fixture fx;
  ASSERT_TRUE(fx.ok);
  const auto &k = fx.cubin.kernels.at("branchy");
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[0].offset, 0u);
  EXPECT_EQ(k.params[1].offset, 8u);
  EXPECT_EQ(k.params[2].offset, 16u);
  EXPECT_EQ(k.params[2].size, 4u);
  EXPECT_EQ(k.paramBase, 0x210u);
  EXPECT_EQ(fx.cubin.kernels.at("hist16").sharedBytes, 0x400u + 64u); // reserved 1 KiB + 16 uints
  ASSERT_TRUE(fx.cubin.banks.count(3));
  std::int32_t scale[4];
  std::memcpy(scale, fx.cubin.banks.at(3).data(), 16);
  EXPECT_EQ(scale[0], 1);
  EXPECT_EQ(scale[3], 4);
  ASSERT_EQ(fx.cubin.globals.size(), 1u);
  EXPECT_EQ(fx.cubin.globals[0].name, "gCounter");
  ASSERT_EQ(fx.cubin.addressSlots.size(), 1u);
  EXPECT_EQ(fx.cubin.addressSlots[0].bank, 4u);
  EXPECT_EQ(fx.cubin.addressSlots[0].symbol, "gCounter");
  auto bad = sassemu::parseCubin(std::vector<std::uint8_t>(10, 0), "x.cubin");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("x.cubin"), std::string::npos);
}

// branchy: out[t] = odd ? t*kScale[t&3]+7 : t-3 for t < n = 100 (in = iota); grid 2 × 64.
// The load of in[t] runs once per warp with a valid thread: 4 warps, 100 lanes; sectors of a
// 4-byte contiguous warp access in a 512-byte aligned buffer: 4+4+4+1 = 13.
TEST(SassEngine, FixtureBranchyValuesAndCounts) {
  Fixture fx;
  ASSERT_TRUE(fx.ok);
  launch::LaunchSpec s = specOf({2, 1, 1}, {64, 1, 1});
  s.args = {bufArg("out", launch::ScalarType::I32, 128, "zero"), bufArg("in", launch::ScalarType::I32, 128, "iota"),
            intArg(100)};
  RunOut r = runFixture(fx, "branchy", s);
  ASSERT_TRUE(r.error.empty()) << r.error;
  auto out = values<std::int32_t>(r.buffers[0]);
  for (int t = 0; t < 128; ++t) {
    int expect = t >= 100 ? 0 : (t & 1) ? t * (1 + (t & 3)) + 7 : t - 3;
    ASSERT_EQ(out[t], expect) << "t=" << t;
  }
  unsigned loads = 0, loadLanes = 0, stores = 0, storeLanes = 0, reds = 0, redLanes = 0;
  for (const auto &e : r.events) {
    if (e.space != model::Space::Global) continue;
    if (e.op == model::Op::Load) ++loads, loadLanes += e.active.count();
    if (e.op == model::Op::Store) ++stores, storeLanes += e.active.count();
    if (e.op == model::Op::Reduce || e.op == model::Op::Atomic) ++reds, redLanes += e.active.count();
  }
  EXPECT_EQ(loads, 4u);
  EXPECT_EQ(loadLanes, 100u);
  EXPECT_EQ(stores, 4u);
  EXPECT_EQ(storeLanes, 100u);
  EXPECT_EQ(redLanes, 2u); // threadIdx.x == 0 of each block
}

// hist16 over in = iota, n = 1000, grid 2 × 128: bins[k] = 63 for k < 8, 62 otherwise (1000 =
// 62·16 + 8). Each warp of the grid-stride loop (stride 256) runs ceil((1000 - b)/256) = 4
// iterations for its base b ∈ {0, 32, ..., 224}: 8 warps × 4 = 32 shared-atomic executions with
// 1000 lanes in all.
TEST(SassEngine, FixtureSharedAtomicHistogram) {
  Fixture fx;
  ASSERT_TRUE(fx.ok);
  launch::LaunchSpec s = specOf({2, 1, 1}, {128, 1, 1});
  s.args = {bufArg("bins", launch::ScalarType::U32, 16, "zero"), bufArg("in", launch::ScalarType::U32, 1000, "iota"),
            intArg(1000)};
  RunOut r = runFixture(fx, "hist16", s);
  ASSERT_TRUE(r.error.empty()) << r.error;
  auto bins = values<std::uint32_t>(r.buffers[0]);
  for (int k = 0; k < 16; ++k) EXPECT_EQ(bins[k], k < 8 ? 63u : 62u) << "bin " << k;
  unsigned atoms = 0, lanes = 0;
  for (const auto &e : r.events)
    if (e.space == model::Space::Shared && e.op == model::Op::Atomic) ++atoms, lanes += e.active.count();
  EXPECT_EQ(atoms, 32u);
  EXPECT_EQ(lanes, 1000u);
}

// mixed: out[t] = (in[t]*1000003 - 77) / (in[(t+1)%n] | 1) + in[(t + (in[t]&15)) % n], 64-bit.
TEST(SassEngine, FixtureSixtyFourBitDivision) {
  Fixture fx;
  ASSERT_TRUE(fx.ok);
  launch::LaunchSpec s = specOf({1, 1, 1}, {96, 1, 1});
  s.args = {bufArg("out", launch::ScalarType::I64, 96, "zero"), bufArg("in", launch::ScalarType::I32, 96, "random:7"),
            intArg(90)};
  RunOut r = runFixture(fx, "mixed", s);
  ASSERT_TRUE(r.error.empty()) << r.error;
  auto in = values<std::int32_t>(r.buffers[1]);
  auto out = values<std::int64_t>(r.buffers[0]);
  const int n = 90;
  for (int t = 0; t < n; ++t) {
    long long a = (long long)in[t] * 1000003LL - 77;
    long long expect = a / (in[(t + 1) % n] | 1) + in[(t + (in[t] & 15)) % n];
    ASSERT_EQ(out[t], expect) << "t=" << t << " in[t]=" << in[t] << " divisor=" << (in[(t + 1) % n] | 1)
                              << " loc=" << in[(t + (in[t] & 15)) % n];
  }
}
