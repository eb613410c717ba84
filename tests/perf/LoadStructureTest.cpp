/// \file
/// The time model's structural inputs computed by hand: dependent rounds of global loads from a
/// SASS listing (memory-level parallelism) and the L1 reuse / lines-per-request listener.
#include "analysis/L1Reuse.h"
#include "analysis/TimePrediction.h"
#include "sass/SassListing.h"

#include <gtest/gtest.h>

namespace warplens::analysis {
namespace {

sass::SassInstruction ins(std::uint64_t pc, const std::string &text) {
  sass::SassInstruction i;
  i.pc = pc;
  i.text = text;
  std::size_t start = text[0] == '@' ? text.find(' ') + 1 : 0;
  i.opcode = text.substr(start, text.find(' ', start) - start);
  if (i.opcode.rfind("LDG", 0) == 0 || i.opcode.rfind("STG", 0) == 0) {
    i.isMemory = true;
    i.space = model::Space::Global;
    i.op = i.opcode[0] == 'L' ? model::Op::Load : model::Op::Store;
    i.widthBytes = i.opcode.find(".128") != std::string::npos ? 16 : i.opcode.find(".64") != std::string::npos ? 8 : 4;
  }
  return i;
}

launch::InstructionRecord load(std::uint64_t pc, std::uint64_t requests) {
  launch::InstructionRecord r;
  r.sassPc = pc;
  r.space = "global";
  r.op = "ld";
  r.requests = requests;
  return r;
}

TEST(LoadRounds, LoadsBeforeTheFirstUseShareARound) {
  sass::SassFunction fn;
  fn.labels = {{"k", 0}, {".L_x_1", 0x10}};
  fn.instructions = {
      ins(0x00, "MOV R2, c[0x0][0x210] ;"),
      // loop: four independent loads, then their uses; a dependent load (chase) after them.
      ins(0x10, "LDG.E R4, desc[UR4][R2.64] ;"),
      ins(0x20, "LDG.E R5, desc[UR4][R2.64+0x4] ;"),
      ins(0x30, "LDG.E.64 R6, desc[UR4][R2.64+0x8] ;"),
      ins(0x40, "LDG.E R9, desc[UR4][R2.64+0x10] ;"),
      ins(0x50, "FADD R10, R4, R5 ;"),        // reads R4: closes the group of 4
      ins(0x60, "LDG.E R11, desc[UR4][R6.64] ;"), // address from R6/R7 (already closed): new group
      ins(0x70, "IMAD R2, R11, 0x4, R2 ;"),    // reads R11: closes it
      ins(0x80, "@P0 BRA `(.L_x_1) ;"),
      ins(0x90, "EXIT ;"),
  };
  // 100 executions of the loop; the two groups take 100 rounds each, the most requests of
  // their loads (one load of the first group is predicated off half the time).
  std::vector<launch::InstructionRecord> recs = {load(0x10, 100), load(0x20, 100), load(0x30, 50),
                                                 load(0x40, 100), load(0x60, 100)};
  EXPECT_DOUBLE_EQ(loadRoundsOf(fn, recs), 200.0);
  // A load whose pc is not in the listing is its own round per request.
  launch::InstructionRecord other = load(0x1000, 7);
  recs.push_back(other);
  EXPECT_DOUBLE_EQ(loadRoundsOf(fn, recs), 207.0);
  // The 64-bit load writes R6 and R7: a read of R7 closes its group.
  fn.instructions[5] = ins(0x50, "FADD R10, R7, R3 ;");
  recs.pop_back();
  EXPECT_DOUBLE_EQ(loadRoundsOf(fn, recs), 200.0);
  // A label between two loads closes the group (a branch target: another path may enter).
  fn.labels.push_back({".L_x_2", 0x30});
  EXPECT_DOUBLE_EQ(loadRoundsOf(fn, recs), 300.0);
  EXPECT_DOUBLE_EQ(loadRoundsOf(fn, {}), 0.0);
}

TEST(LoadRounds, MissRoundsTakeTheLargestMissShareOfEachGroup) {
  sass::SassFunction fn;
  fn.labels = {{"k", 0}};
  fn.instructions = {
      ins(0x10, "LDG.E R4, desc[UR4][R2.64] ;"),
      ins(0x20, "LDG.E R5, desc[UR4][R2.64+0x4] ;"),
      ins(0x30, "FADD R10, R4, R5 ;"),             // closes group {0x10, 0x20}: 100 rounds
      ins(0x40, "LDG.E R11, desc[UR4][R2.64+0x100] ;"),
      ins(0x50, "FADD R12, R11, R10 ;"),           // closes group {0x40}: 100 rounds
      ins(0x60, "LDG.E R13, desc[UR4][R2.64+0x200] ;"),
      ins(0x70, "EXIT ;"),                         // closes group {0x60}: 40 rounds
  };
  std::vector<launch::InstructionRecord> recs = {load(0x10, 100), load(0x20, 100), load(0x40, 100), load(0x60, 40)};
  // First group: shares 0.25 and 0.5 -> 0.5 x 100; second: 0 (a re-read) -> 0; third: no share
  // known -> counted as missing, 40.
  const std::map<std::uint64_t, double> share = {{0x10, 0.25}, {0x20, 0.5}, {0x40, 0.0}};
  double barrier = -1, missing = -1;
  EXPECT_DOUBLE_EQ(loadRoundsOf(fn, recs, &barrier, &share, &missing), 240.0);
  EXPECT_DOUBLE_EQ(missing, 50.0 + 0.0 + 40.0);
  EXPECT_DOUBLE_EQ(barrier, 0.0);
}


TEST(LoadRounds, BarrierRoundsAreThoseClosedBeforeABarrier) {
  sass::SassFunction fn;
  fn.labels = {{"k", 0}, {".L_x_1", 0xc0}};
  fn.instructions = {
      ins(0x00, "LDG.E R4, desc[UR4][R2.64] ;"),
      ins(0x10, "STS [R1], R4 ;"),                     // reads R4: closes round 1 (100)
      ins(0x20, "BAR.SYNC.DEFER_BLOCKING 0x0 ;"),      // round 1 is barrier-phased
      ins(0x30, "LDS R5, [R1+0x4] ;"),
      ins(0x40, "LDG.E R6, desc[UR4][R2.64+0x100] ;"),
      ins(0x50, "FADD R7, R6, R5 ;"),                  // closes round 2 (100)
      ins(0x60, "LDG.E R8, desc[UR4][R2.64+0x200] ;"),
      ins(0x70, "FADD R9, R8, R7 ;"),                  // closes round 3 (50)
      ins(0x80, "BAR.ARV 0x1, 0x40 ;"),                // arrive only: the warp does not wait
      ins(0x90, "BAR.SYNC.DEFER_BLOCKING 0x0 ;"),      // rounds 2 and 3 are barrier-phased
      ins(0xa0, "STG.E desc[UR4][R2.64], R9 ;"),
      ins(0xb0, "MOV R3, RZ ;"),
      ins(0xc0, "LDG.E R10, desc[UR4][R2.64+0x300] ;"), // loop: round 4 (30), its back-edge
      ins(0xd0, "FADD R3, R10, R3 ;"),
      ins(0xe0, "@P0 BRA `(.L_x_1) ;"),
      ins(0xf0, "BAR.SYNC.DEFER_BLOCKING 0x0 ;"),      // after a back-edge: round 4 is not
      ins(0x100, "EXIT ;"),
  };
  std::vector<launch::InstructionRecord> recs = {load(0x00, 100), load(0x40, 100), load(0x60, 50),
                                                 load(0xc0, 30)};
  double barrier = -1;
  EXPECT_DOUBLE_EQ(loadRoundsOf(fn, recs, &barrier), 280.0);
  EXPECT_DOUBLE_EQ(barrier, 250.0);
  // Without the first two barriers, rounds 1-3 are closed before no barrier but the last, which
  // comes after the loop's back-edge.
  fn.instructions[2] = ins(0x20, "NOP ;");
  fn.instructions[9] = ins(0x90, "NOP ;");
  EXPECT_DOUBLE_EQ(loadRoundsOf(fn, recs, &barrier), 280.0);
  EXPECT_DOUBLE_EQ(barrier, 0.0);
}

model::AccessEvent event(std::uint32_t block, model::Op op, unsigned width, std::uint64_t base,
                         std::uint64_t strideBytes) {
  model::AccessEvent e;
  e.space = model::Space::Global;
  e.op = op;
  e.widthBytes = static_cast<std::uint8_t>(width);
  e.active = LaneMask::all();
  e.block = block;
  for (unsigned l = 0; l < 32; ++l) e.addr[l] = ByteAddress{base + l * strideBytes};
  return e;
}

TEST(InstructionMix, FmaPipeFromBasicBlocksCountedByTheirMemoryInstructions) {
  sass::SassFunction fn;
  fn.labels = {{"k", 0}, {".L_x_1", 0x40}, {".L_x_2", 0xa0}};
  fn.instructions = {
      ins(0x00, "S2R R0, SR_TID.X ;"),
      ins(0x10, "IMAD R2, R0, 0x4, RZ ;"),
      ins(0x20, "LDG.E R4, desc[UR4][R2.64] ;"),
      ins(0x30, "FFMA R5, R4, R4, R4 ;"),      // block A: 4 instructions, 2 FMA-pipe, 10 executions
      ins(0x40, "FFMA R5, R5, R4, R4 ;"),      // block B (loop, no memory instruction): 4, 2 FMA
      ins(0x50, "FFMA R5, R5, R4, R4 ;"),
      ins(0x60, "IADD3 R6, R6, 0x1, RZ ;"),
      ins(0x70, "@P0 BRA `(.L_x_1) ;"),
      ins(0x80, "STG.E desc[UR4][R2.64], R5 ;"), // block C: 2 instructions, 10 executions
      ins(0x90, "EXIT ;"),
      ins(0xa0, "BRA `(.L_x_2) ;"),            // the trailing trap: left out
      ins(0xb0, "NOP ;"),
  };
  launch::InstructionRecord ld = load(0x20, 10), st = load(0x80, 10);
  ld.executed = 10;
  st.executed = 10;
  st.op = "st";
  // 100 loop iterations per warp: 10 x 4 + 10 x 2 + 1000 x 4 = 4060 warp instructions; FMA pipe:
  // 10 x 2 from A, the other 4000 in B's mix (2 of 4) = 2000.
  EXPECT_DOUBLE_EQ(fmaPipeInstructionsOf(fn, {ld, st}, 4060), 2020.0);
  EXPECT_DOUBLE_EQ(fmaPipeInstructionsOf(fn, {}, 4060), -1.0);
}

TEST(L1Reuse, DistinctSectorsPerBlockAndLinesPerRequest) {
  L1ReuseListener a, b;
  // Block 0 reads 128 coalesced bytes twice (4 sectors, 1 line each time): 4 misses.
  a.onAccess(event(0, model::Op::Load, 4, 0, 4));
  a.onAccess(event(0, model::Op::Load, 4, 0, 4));
  // Block 1 reads the same bytes: its own 4 misses (blocks do not share).
  a.onAccess(event(1, model::Op::Load, 4, 0, 4));
  // Block 1, 32 lanes 128 bytes apart: 32 sectors, 32 lines.
  b.onAccess(event(1, model::Op::Load, 4, 4096, 128));
  // A column store: 32 lines, no L1 sectors.
  b.onAccess(event(1, model::Op::Store, 8, 1 << 20, 8192));
  // 16-byte lanes, 16 bytes apart: 512 bytes = 16 sectors, 4 lines.
  b.onAccess(event(2, model::Op::Load, 16, 1 << 22, 16));
  a.merge(b);
  EXPECT_EQ(a.missSectors(), 4u + 4u + 32u + 16u);
  EXPECT_EQ(a.loadLines(), 1u + 1u + 1u + 32u + 4u);
  EXPECT_EQ(a.storeLines(), 32u);
}

TEST(L1Reuse, WavefrontsAreTheBankConflictsOrLinesPerFour) {
  L1ReuseListener l;
  // Per request: max(bank conflict degree, lines / 4), rounded up (session 14: no address stage;
  // ncu counts one data-pipe wavefront per coalesced 4-byte request, l1_lines_1).
  // Coalesced 4-byte lanes: 1 line, no conflict: 1.
  l.onAccess(event(0, model::Op::Load, 4, 0, 4));
  EXPECT_EQ(l.loadWavefronts(), 1u);
  // The same one float further (a stencil's x - 1): 2 lines, words k+1..k+32 in 32 banks: 1.
  l.onAccess(event(0, model::Op::Load, 4, (1 << 15) + 4, 4));
  EXPECT_EQ(l.loadWavefronts(), 1u + 1u);
  // 32 lanes 128 bytes apart: 32 lines, all in bank 0: 32 (l1_lines_32, matvec rows).
  l.onAccess(event(0, model::Op::Load, 4, 1 << 16, 128));
  EXPECT_EQ(l.loadWavefronts(), 2u + 32u);
  // 32 lanes 132 bytes apart: 32 lines, lane l in bank l: no conflict, 32 lines / 4 = 8.
  l.onAccess(event(0, model::Op::Load, 4, 1 << 17, 132));
  EXPECT_EQ(l.loadWavefronts(), 2u + 32u + 8u);
  // 16-byte lanes, coalesced: 512 bytes, 4 words in every bank: 4 (4 lines / 4 = 1).
  l.onAccess(event(0, model::Op::Load, 16, 1 << 18, 16));
  EXPECT_EQ(l.loadWavefronts(), 2u + 32u + 8u + 4u);
  // 8 lines, lanes 4 words apart in each: banks 0, 4, .. 28 hold one word of each line: 8-way
  // (l1_lines_8 without its rotation).
  {
    model::AccessEvent e = event(0, model::Op::Load, 4, 1 << 21, 0);
    for (unsigned k = 0; k < 32; ++k) e.addr[k] = ByteAddress{(1u << 21) + (k % 8) * 128 + (k / 8) * 16};
    l.onAccess(e);
  }
  EXPECT_EQ(l.loadWavefronts(), 2u + 32u + 8u + 4u + 8u);
  // Every lane on one word (broadcast): 1.
  l.onAccess(event(0, model::Op::Load, 4, 1 << 19, 0));
  EXPECT_EQ(l.loadWavefronts(), 2u + 32u + 8u + 4u + 8u + 1u);
  // Stores are not counted here (store lines, above).
  l.onAccess(event(0, model::Op::Store, 4, 1 << 20, 128));
  EXPECT_EQ(l.loadWavefronts(), 55u);
  EXPECT_EQ(l.loadLines(), 1u + 2u + 32u + 32u + 4u + 8u + 1u);
}

TEST(L1Reuse, RegionsAreDistinctKibibytesPerRequest) {
  L1ReuseListener l;
  l.onAccess(event(0, model::Op::Load, 4, 0, 4));         // 128 B: 1 region
  l.onAccess(event(0, model::Op::Load, 4, 1 << 20, 128)); // 32 lines, 4 KiB: 4 regions
  l.onAccess(event(0, model::Op::Load, 4, 1 << 21, 1024)); // lanes 1 KiB apart: 32
  l.onAccess(event(0, model::Op::Load, 4, 1000, 4));      // bytes 1000..1127 cross 1024: 2
  l.onAccess(event(0, model::Op::Store, 4, 1 << 22, 1024)); // stores: not counted
  EXPECT_EQ(l.loadRegions(), 1u + 4u + 32u + 2u);
}

TEST(L1Reuse, ReplicasCountAsTheirMovedEvents) {
  // Block 0 (representative): lanes 8 bytes apart from byte 832 (832..1083: 2 KiB regions, 2
  // lines) and a second group of lanes 132 bytes apart. Replicas 1..7 move the first group by
  // 128 bytes per block (bytes 960..1211: 2 regions, then 1088.. and on: 1; the residue modulo
  // 1 KiB decides) and the second by 4096. onReplicas must give what replaying every moved event
  // gives.
  std::vector<model::AccessEvent> events = {event(0, model::Op::Load, 4, 832, 8),
                                            event(0, model::Op::Load, 4, 1 << 20, 132)};
  std::vector<std::uint32_t> group = {0, 1};
  model::BlockReplicas r;
  r.events = &events;
  r.group = &group;
  r.coef = {{128, 0, 0}, {4096, 0, 0}};
  for (std::uint32_t b = 1; b < 8; ++b) {
    r.blocks.push_back({b, 0, 0});
    r.blockLinear.push_back(b);
  }
  L1ReuseListener fast, replay;
  for (const auto &e : events) fast.onAccess(e), replay.onAccess(e);
  fast.onReplicas(r);
  replay.model::AccessListener::onReplicas(r); // the default: every moved event through onAccess
  EXPECT_EQ(fast.loadRegions(), replay.loadRegions());
  EXPECT_EQ(fast.loadWavefronts(), replay.loadWavefronts());
  EXPECT_EQ(fast.loadLines(), replay.loadLines());
  // By hand: group 0 regions 2 (block 0) + 2, 1, 1, 1, 1, 1, 1; group 1, 32 lanes over bytes
  // 0..4095 of a KiB-aligned span: 4 regions in every block.
  EXPECT_EQ(fast.loadRegions(), 2u + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 8u * 4);
}

TEST(L1Reuse, SectorsManyBlocksReadCountTheirReaders) {
  // Two workers with the launch's one seen-sector map: blocks 0-9 and 10-19 each read the same
  // 128 coalesced bytes (4 sectors, 20 readers each) and 128 bytes of their own (1 reader: left out).
  L1ReuseListener::SeenSectors seen(1u << 24);
  L1ReuseListener a, b;
  a.setSeen(&seen), b.setSeen(&seen);
  for (std::uint32_t blk = 0; blk < 20; ++blk) {
    L1ReuseListener &l = blk < 10 ? a : b;
    l.onAccess(event(blk, model::Op::Load, 4, 0, 4));
    l.onAccess(event(blk, model::Op::Load, 4, 0, 4)); // read again by the block: no new reader
    l.onAccess(event(blk, model::Op::Load, 4, (1u << 20) + blk * 128, 4));
  }
  a.merge(b);
  EXPECT_EQ(a.sharedSectorReaders(), std::vector<double>({20, 20, 20, 20}));
  EXPECT_EQ(a.missSectors(), 20u * 8u); // per block: 4 shared + 4 own
  // 4 SMs: each shared sector saves 20 - 4; its 128 bytes fit any L1 -> 160 - 4 x 16 = 96.
  const std::uint64_t kSm90L1 = 262144; // sm_90's l1BytesPerSm
  perf::LaunchShape shape;
  perf::Occupancy occ;
  occ.blocksPerSm = 1;
  EXPECT_DOUBLE_EQ(crossBlockL1Misses(a, kSm90L1, shape, occ, 4), 160.0 - 64.0);
  // Shared memory leaving 64 of sm_90's 262144 L1 bytes holds half of the 128: 160 - 32.
  shape.staticSharedBytes = 262144 - 64;
  EXPECT_DOUBLE_EQ(crossBlockL1Misses(a, kSm90L1, shape, occ, 4), 160.0 - 32.0);
  // 20 or more SMs: no sector is read by more blocks than SMs.
  EXPECT_DOUBLE_EQ(crossBlockL1Misses(a, kSm90L1, shape, occ, 20), 160.0);
  // Without the seen map nothing is tracked.
  L1ReuseListener none;
  none.onAccess(event(0, model::Op::Load, 4, 0, 4));
  none.onAccess(event(1, model::Op::Load, 4, 0, 4));
  EXPECT_TRUE(none.sharedSectorReaders().empty());
}

TEST(L1Reuse, ReplicasShareTheSectorsOfGroupsTheyMoveAlike) {
  // Representative block 0: group 0 reads a 128-byte table every block reads (coef 0), group 1
  // its own row (moves 4096 bytes per block in x), group 2 a row per blockIdx.y (moves in y only).
  // Replicas: blocks (1..3, 0) and (0..3, 1): 7. By hand: the table's 4 sectors have 8 readers;
  // row y = 0's 4 sectors 4 readers (x = 0..3), row y = 1's 4 sectors 4 readers; own rows 1 each.
  std::vector<model::AccessEvent> events = {event(0, model::Op::Load, 4, 0, 4),
                                            event(0, model::Op::Load, 4, 1 << 20, 4),
                                            event(0, model::Op::Load, 4, 1 << 24, 4)};
  std::vector<std::uint32_t> group = {0, 1, 2};
  model::BlockReplicas r;
  r.events = &events;
  r.group = &group;
  r.coef = {{0, 0, 0}, {4096, 16384, 0}, {0, 4096, 0}};
  for (std::uint32_t y = 0; y < 2; ++y)
    for (std::uint32_t x = 0; x < 4; ++x)
      if (x || y) r.blocks.push_back({x, y, 0}), r.blockLinear.push_back(y * 4 + x);
  r.rep = {0, 0, 0};
  L1ReuseListener::SeenSectors seenFast(1u << 26), seenReplay(1u << 26);
  L1ReuseListener fast, replay;
  fast.setSeen(&seenFast), replay.setSeen(&seenReplay);
  for (const auto &e : events) fast.onAccess(e), replay.onAccess(e);
  fast.onReplicas(r);
  replay.model::AccessListener::onReplicas(r); // every moved event through onAccess
  const std::vector<double> expected = {4, 4, 4, 4, 4, 4, 4, 4, 8, 8, 8, 8};
  EXPECT_EQ(fast.sharedSectorReaders(), expected);
  EXPECT_EQ(replay.sharedSectorReaders(), expected);
}

TEST(L1Reuse, ClosedBlocksStillCount) {
  L1ReuseListener l;
  for (std::uint32_t b = 0; b < L1ReuseListener::kLiveBlocks + 10; ++b) l.onAccess(event(b, model::Op::Load, 4, 0, 4));
  EXPECT_EQ(l.missSectors(), 4u * (L1ReuseListener::kLiveBlocks + 10));
}

TEST(InstructionMix, DependentCyclesOfALoneWarpFromPerInstructionCounts) {
  sass::SassFunction fn;
  fn.labels = {{"k", 0}, {".L_x_1", 0x30}};
  fn.instructions = {
      ins(0x00, "S2R R0, SR_TID.X ;"),        // block A, once per warp
      ins(0x10, "IMAD R2, R0, 0x4, RZ ;"),
      ins(0x20, "FFMA R5, R2, R2, R2 ;"),
      ins(0x30, "FFMA R5, R5, R4, R4 ;"),     // block B: the loop, 100 times per warp
      ins(0x40, "FFMA R5, R5, R4, R4 ;"),
      ins(0x50, "IADD3 R6, R6, 0x1, RZ ;"),
      ins(0x60, "@P0 BRA `(.L_x_1) ;"),
      ins(0x70, "EXIT ;"),
  };
  // 10 warps. Block A: S2R issues, its result 20 cycles later feeds the IMAD, whose result 4
  // later feeds the FFMA: gaps 1 + 20 + 4 = 25 per warp. Block B in its steady state: the first
  // FFMA waits for the second FFMA of the iteration before (2 cycles after the BRA), the second
  // for the first (4), IADD3 and BRA a cycle each: 8 per iteration. EXIT 1.
  std::vector<std::uint64_t> perPc = {10, 10, 10, 1000, 1000, 1000, 1000, 10};
  PerPcMix mix = mixFromCounts(fn, perPc, 4040);
  EXPECT_TRUE(mix.known);
  EXPECT_DOUBLE_EQ(mix.dependentCycles, 10 * 25 + 1000 * 8 + 10 * 1);
  EXPECT_DOUBLE_EQ(mix.fma, 20 + 2000); // IMAD and FFMA of A, the two FFMAs of B
  EXPECT_DOUBLE_EQ(mix.shuffles, 0);
  // Sampled launches: the counts are scaled to the engine's (extrapolated) total.
  EXPECT_DOUBLE_EQ(mixFromCounts(fn, perPc, 8080).dependentCycles, 2.0 * (10 * 25 + 1000 * 8 + 10 * 1));
}

TEST(InstructionMix, BranchesWaitForTheirTargetByDirection) {
  sass::SassFunction fn;
  fn.labels = {{"k", 0}, {".L_x_1", 0x00}, {".L_x_2", 0x40}};
  fn.instructions = {
      ins(0x00, "FFMA R5, R5, R4, R4 ;"),
      ins(0x10, "@P0 BRA `(.L_x_1) ;"), // back edge: 3 cycles
      ins(0x20, "@P1 BRA `(.L_x_2) ;"), // forward: 8
      ins(0x30, "@P1 BRA `(.L_x_9) ;"), // no such label: 0
      ins(0x40, "EXIT ;"),
  };
  EXPECT_EQ(branchResolveCycles(fn, fn.instructions[0]), 0);
  EXPECT_EQ(branchResolveCycles(fn, fn.instructions[1]), kBackwardBranchCycles);
  EXPECT_EQ(branchResolveCycles(fn, fn.instructions[2]), kForwardBranchCycles);
  EXPECT_EQ(branchResolveCycles(fn, fn.instructions[3]), 0);
  EXPECT_EQ(kBackwardBranchCycles, 3);
  EXPECT_EQ(kForwardBranchCycles, 8);
  // One warp, the loop FFMA + BRA 100 times: the FFMA waits for the one before (4 cycles after it)
  // and for the branch (its stall count 1 + 3 after it, 5 after that FFMA): 5 cycles per
  // iteration, where the FFMA chain alone took 4.
  sass::SassFunction loop;
  loop.labels = {{"k", 0}, {".L_x_1", 0x00}};
  loop.instructions = {ins(0x00, "FFMA R5, R5, R4, R4 ;"), ins(0x10, "@P0 BRA `(.L_x_1) ;")};
  PerPcMix mix = mixFromCounts(loop, {100, 100}, 200);
  EXPECT_DOUBLE_EQ(mix.sim[0].cycles, 100.0 * 5);
}

TEST(InstructionMix, ShufflesWriteTheirSecondOperand) {
  sass::SassFunction fn;
  fn.labels = {{"k", 0}, {".L_x_1", 0x00}};
  fn.instructions = {
      ins(0x00, "SHFL.BFLY PT, R3, R2, 0x10, 0x1f ;"), // R3 ready 26 cycles after its issue
      ins(0x10, "FADD R2, R2, R3 ;"),                    // waits for it; R2 feeds the next SHFL
      ins(0x20, "@P0 BRA `(.L_x_1) ;"),
  };
  // Steady state per iteration: SHFL waits for the FADD before (4 after it, 3 after the BRA),
  // FADD 26 after the SHFL (measured, validation/h100/time/latency_chains.txt), BRA 1:
  // 3 + 26 + 1 = 30 cycles; one warp, 50 iterations.
  PerPcMix mix = mixFromCounts(fn, {50, 50, 50}, 150);
  EXPECT_DOUBLE_EQ(mix.dependentCycles, 50.0 * 30);
  EXPECT_DOUBLE_EQ(mix.shuffles, 50);
  EXPECT_DOUBLE_EQ(mix.fma, 50); // the FADD
}

// Session 17: REDUX writes its first operand, a uniform register (it was read as a RED, which
// writes nothing, and uniform registers were not tracked: no instruction ever waited for it).
TEST(InstructionMix, WarpReductionsWriteAUniformRegister) {
  sass::SassFunction fn;
  fn.labels = {{"k", 0}, {".L_x_1", 0x00}};
  fn.instructions = {
      ins(0x00, "REDUX.SUM UR6, R19 ;"),         // waits for the IADD3 before (4 after it)
      ins(0x10, "IMAD.U32 R20, RZ, RZ, UR6 ;"),  // 41 after the REDUX (warp_op_latency.txt)
      ins(0x20, "IADD3 R19, R20, 0x1, RZ ;"),    // 4 after the IMAD
      ins(0x30, "@P0 BRA `(.L_x_1) ;"),
  };
  // One warp, steady state per iteration: REDUX 3 cycles after the BRA (the IADD3 was 1 before
  // it: 4 after the IADD3 is 3 after the BRA), IMAD.U32 41, IADD3 4, BRA 1: 49 cycles; 20 iterations.
  EXPECT_EQ(issueLatency("REDUX.SUM"), 41);
  PerPcMix mix = mixFromCounts(fn, {20, 20, 20, 20}, 80);
  EXPECT_DOUBLE_EQ(mix.dependentCycles, 20.0 * (3 + 41 + 4 + 1));
}

TEST(InstructionMix, FmaPipeInstructionsReadingThreeRegistersStall) {
  sass::SassFunction fn;
  fn.labels = {{"k", 0}};
  fn.instructions = {
      ins(0x00, "FFMA R13, R11, R14, R5 ;"),             // three register reads: a stall
      ins(0x10, "FFMA R15, R11.reuse, R16, R5.reuse ;"), // one read, two from the reuse cache
      ins(0x20, "FFMA R17, R11, R18, 0.5 ;"),            // two reads
      ins(0x30, "IMAD R2, R3, R4, R5 ;"),                // FMA pipe, three reads: a stall
      ins(0x40, "IADD3 R6, R7, R8, R9 ;"),               // three reads, not the FMA pipe
      ins(0x50, "EXIT ;"),
  };
  PerPcMix mix = mixFromCounts(fn, {7, 7, 7, 7, 7, 7}, 42);
  EXPECT_DOUBLE_EQ(mix.operandStalls, 14);
  EXPECT_DOUBLE_EQ(mix.fma, 28);
  EXPECT_DOUBLE_EQ(mix.alu, 7); // IADD3 only: EXIT is not an ALU-pipe instruction
}

TEST(InstructionMix, Fp64AndSpecialFunctionPipes) {
  sass::SassFunction fn;
  fn.labels = {{"k", 0}};
  fn.instructions = {
      ins(0x00, "DFMA R4, R4, R6, R8 ;"),        // FP64
      ins(0x10, "DSETP.GT.AND P0, PT, R4, R6, PT ;"), // FP64
      ins(0x20, "MUFU.RCP64H R11, R5 ;"),        // special-function unit
      ins(0x30, "MUFU.EX2 R12, R12 ;"),          // special-function unit
      ins(0x40, "FFMA R13, R12, 0.5, R12 ;"),    // FMA pipe, neither
      ins(0x50, "F2F.F32.F64 R14, R4 ;"),        // a conversion: the multi-function unit
      ins(0x60, "BAR.SYNC.DEFER_BLOCKING 0x0 ;"), // a block barrier
      ins(0x70, "BAR.ARV 0x1, 0x40 ;"),           // arrive only: not a barrier the warp waits at
      ins(0x80, "EXIT ;"),
  };
  PerPcMix mix = mixFromCounts(fn, {3, 3, 5, 5, 2, 1, 4, 4, 1}, 28);
  EXPECT_DOUBLE_EQ(mix.fp64, 6);
  EXPECT_DOUBLE_EQ(mix.xu, 11);
  EXPECT_DOUBLE_EQ(mix.fma, 2);
  EXPECT_DOUBLE_EQ(mix.barriers, 4);
}

// FP64 operands are register pairs read two registers per cycle: a DFMA of three unreused
// operands holds the issue slot 3 cycles, one reading a reused operand and one register 1, a DMUL
// of two 2 (ncu, H100 2026-11-24: cheb_clenshaw's FP64 pipe 61% busy at 80.5K active cycles per
// sub-partition for 24.8K FP64 and 20.0K other instructions).
TEST(InstructionMix, Fp64OperandPairsTakeIssueCycles) {
  sass::SassFunction fn;
  fn.labels = {{"k", 0}};
  fn.instructions = {
      ins(0x00, "DFMA R4, R6, R8, R10 ;"),     // three pairs: 3 issue cycles
      ins(0x10, "DADD R12, R14.reuse, R16 ;"), // one pair from the register file: 1
      ins(0x20, "DMUL R18, R20, R22 ;"),       // two pairs: 2
      ins(0x30, "EXIT ;"),                     // 1
  };
  PerPcMix mix = mixFromCounts(fn, {10, 10, 10, 10}, 40);
  for (unsigned w : {1u, 16u}) {
    EXPECT_DOUBLE_EQ(mix.sim[w - 1].issue, 10.0 * (3 + 1 + 2 + 1)) << w;
    EXPECT_DOUBLE_EQ(mix.sim[w - 1].fp64, 10.0 * 3 * 2) << w; // the pipe: 2 cycles each
  }
}

TEST(L1Reuse, AtomicsCountLaneOperationsAndTheBusiestLine) {
  L1ReuseListener fast, replay;
  // Block 0: a RED by 32 lanes on one word (byte 4096: 32 serial steps on its unit), one by 32
  // lanes on the 32 words of line 8192 (one step, 32 ops), and one by lanes 4 bytes apart from
  // byte 8256: lanes 0..15 on line 8192's second half and 16..31 on line 8320, both in the unit
  // of 8192 (1 KiB region 8, address bit 8 clear): 2 line requests, 1 step.
  model::AccessEvent same = event(0, model::Op::Reduce, 4, 4096, 0);
  model::AccessEvent line = event(0, model::Op::Reduce, 4, 8192, 4);
  model::AccessEvent split = event(0, model::Op::Reduce, 4, 8256, 4);
  std::vector<model::AccessEvent> events = {same, line, split};
  for (const auto &e : events) fast.onAccess(e), replay.onAccess(e);
  EXPECT_EQ(fast.atomicOps(), 96u);
  EXPECT_EQ(fast.atomicLineRequests(), 4u);
  EXPECT_EQ(fast.hottestLineSteps(), 32u);
  EXPECT_EQ(fast.hottestLineOps(), 32u);
  // Replicas 1..3: the first event does not move (every block hits word 4096), the others move
  // a line per block (lines 8320..8576: units of region 8 with bit 8 clear and set).
  std::vector<std::uint32_t> group = {0, 1, 1};
  model::BlockReplicas r;
  r.events = &events;
  r.group = &group;
  r.coef = {{0, 0, 0}, {128, 0, 0}};
  for (std::uint32_t b = 1; b < 4; ++b) {
    r.blocks.push_back({b, 0, 0});
    r.blockLinear.push_back(b);
  }
  fast.onReplicas(r);
  replay.model::AccessListener::onReplicas(r);
  EXPECT_EQ(fast.atomicOps(), 4u * 96);
  EXPECT_EQ(fast.hottestLineSteps(), 4u * 32);
  EXPECT_EQ(fast.atomicLineRequests(), replay.atomicLineRequests());
  EXPECT_EQ(fast.hottestLineSteps(), replay.hottestLineSteps());
  EXPECT_EQ(fast.hottestLineOps(), replay.hottestLineOps());
  // Another listener's lines merge in: 200 requests of one step each on line 1 MiB.
  L1ReuseListener other;
  other.onAccess(event(5, model::Op::Load, 4, 4096, 0)); // not an atomic
  for (int k = 0; k < 200; ++k) other.onAccess(event(5, model::Op::Atomic, 4, 1 << 20, 4));
  fast.merge(other);
  EXPECT_EQ(fast.atomicOps(), 4u * 96 + 200 * 32);
  // Line 1 MiB: 200 pipelined requests of 4 sector passes (1 lane per word: a chain of 1 step,
  // nominally 1.72 ns, is shorter than 4 x 0.55 + 0.45), 800 x 55 > 128 x 172 of byte 4096's unit.
  EXPECT_EQ(fast.hottestLineSteps(), 0u);
  EXPECT_EQ(fast.hottestLineSectorOps(), 200u * 4);
  EXPECT_EQ(fast.hottestLineOps(), 200u * 32);
  // Eight lines 128 B apart in one KiB: two units of four lines (bit 8 clear: lines 0, 1, 4, 5).
  L1ReuseListener region;
  for (unsigned l = 0; l < 8; ++l) region.onAccess(event(0, model::Op::Reduce, 4, (1 << 20) + 128 * l, 4));
  // Each request: one line, 4 sectors, one lane per word: pipelined, 4 sector passes.
  EXPECT_EQ(region.hottestLineSteps(), 0u);
  EXPECT_EQ(region.hottestLineSectorOps(), 16u);
  EXPECT_EQ(region.hottestLineOps(), 128u);
  EXPECT_EQ(region.hottestLineExtra(), 0u);
  EXPECT_EQ(region.atomicLineRequests(), 8u);
  // One request over lines 0, 1, 4, 5 of a KiB (one unit, 8 lanes each, two on one word in line
  // 4) and lines 2, 3 (the other unit). First unit: 22 lanes on sector 0 of 4 lines, line 4's
  // sector twice (two lanes on one word): 5 sector passes + 3 extra lines (nominally 5 x 0.55 +
  // 4 x 0.45 = 4.55 ns) beat a chain of 2 steps (3.44 ns): pipelined, no steps.
  L1ReuseListener multi;
  model::AccessEvent e = event(0, model::Op::Reduce, 4, 0, 4);
  const unsigned lines[6] = {0, 1, 4, 5, 2, 3};
  for (unsigned l = 0; l < 32; ++l) e.addr[l] = ByteAddress{(1u << 20) + 128 * lines[l % 6] + 4 * (l / 6)};
  e.addr[14] = e.addr[2]; // lane 14 (line 4) on lane 2's word
  multi.onAccess(e);
  EXPECT_EQ(multi.hottestLineSteps(), 0u);
  EXPECT_EQ(multi.hottestLineSectorOps(), 5u);
  EXPECT_EQ(multi.hottestLineOps(), 22u);
  EXPECT_EQ(multi.hottestLineExtra(), 3u);
  EXPECT_EQ(multi.atomicLineRequests(), 6u);
}

} // namespace
TEST(L1Reuse, LoadMissesPerSiteCountRequestsWithANewSector) {
  // Site 3 reads a line twice in block 0 (miss, then hit), then in block 1 (miss); site 5 reads
  // 32 lanes over 4 sectors, half of them read before by site 3 (still a miss: 2 new sectors).
  L1ReuseListener l;
  model::AccessEvent a = event(0, model::Op::Load, 4, 4096, 4);
  a.site = 3;
  l.onAccess(a);
  l.onAccess(a);
  a.block = 1;
  l.onAccess(a);
  model::AccessEvent b = event(0, model::Op::Load, 4, 4096 + 64, 4); // sectors 130..133
  b.site = 5;
  l.onAccess(b);
  ASSERT_GE(l.loadMissesBySite().size(), 6u);
  EXPECT_EQ(l.loadMissesBySite()[3].requests, 3u);
  EXPECT_EQ(l.loadMissesBySite()[3].missing, 2u);
  EXPECT_EQ(l.loadMissesBySite()[5].requests, 1u);
  EXPECT_EQ(l.loadMissesBySite()[5].missing, 1u);
  EXPECT_EQ(l.loadMissesBySite()[4].requests, 0u);
}

TEST(L1Reuse, MissesOfAUnitTheWarpFetchedBeforeWaitForTheL2) {
  // 64-byte DRAM fetch units (2 sectors). Site 1: warp 0's lanes each read their own row (4 KiB
  // apart) 4 bytes at a time, 16 requests over the first 64 bytes: request 0 misses (new units:
  // DRAM), requests 1-7 hit, request 8 misses the second sector of each lane's unit, which request
  // 0 of the same warp fetched (L2 only), requests 9-15 hit.
  L1ReuseListener l(2);
  for (unsigned k = 0; k < 16; ++k) {
    model::AccessEvent e = event(0, model::Op::Load, 4, 4 * k, 4096);
    e.site = 1;
    l.onAccess(e);
  }
  // Site 2: warp 0 reads 32 bytes (one sector, one byte per lane); warp 1 then the next 32 bytes,
  // the other sector of that unit: another warp's fetch, so DRAM (in flight together).
  model::AccessEvent a = event(0, model::Op::Load, 1, 1 << 20, 1);
  a.site = 2;
  l.onAccess(a);
  a.warp = 1;
  for (auto &x : a.addr) x = ByteAddress{x.value + 32};
  l.onAccess(a);
  // Site 3: one coalesced 128-byte request: both sectors of two units at once: DRAM.
  model::AccessEvent c = event(0, model::Op::Load, 4, 1 << 21, 4);
  c.site = 3;
  l.onAccess(c);
  const auto &m = l.loadMissesBySite();
  ASSERT_GE(m.size(), 4u);
  EXPECT_EQ(m[1].requests, 16u);
  EXPECT_EQ(m[1].missing, 2u);
  EXPECT_EQ(m[1].dram, 1u);
  EXPECT_EQ(m[2].requests, 2u);
  EXPECT_EQ(m[2].missing, 2u);
  EXPECT_EQ(m[2].dram, 2u);
  EXPECT_EQ(m[3].missing, 1u);
  EXPECT_EQ(m[3].dram, 1u);
  // With 128-byte units (4 sectors) the same row walk: request 8 is again the warp's own unit;
  // with 32-byte units (1 sector) it is a new unit: DRAM.
  for (unsigned sectors : {4u, 1u}) {
    L1ReuseListener u(sectors);
    for (unsigned k = 0; k < 16; ++k) u.onAccess(event(0, model::Op::Load, 4, 4 * k, 4096));
    EXPECT_EQ(u.loadMissesBySite()[0].missing, 2u);
    EXPECT_EQ(u.loadMissesBySite()[0].dram, sectors == 4 ? 1u : 2u);
  }
}

} // namespace warplens::analysis
