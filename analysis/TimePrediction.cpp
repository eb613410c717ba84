/// \file
/// addTimePrediction: cubin resources + instruction-mix estimate + memory counts → TimeModel.
#include "analysis/TimePrediction.h"

#include "analysis/BlockSchedule.h"
#include "analysis/IssueSim.h"
#include "analysis/L1Reuse.h"
#include "analysis/OpcodeTiming.h"
#include "analysis/TraceSim.h"
#include "arch/ArchSpec.h"
#include "model/DramSectorModel.h"
#include "perf/CubinResources.h"
#include "perf/DeviceSpec.h"
#include "sass/SassListing.h"
#include "sass/Toolchain.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <map>
#include <set>

namespace warplens::analysis {

namespace {

double metric(const std::map<std::string, double> &m, const std::string &name) {
  auto it = m.find(name);
  return it == m.end() ? 0.0 : it->second;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

/// S2R of a special register that differs between lanes (SR_TID.X/Y/Z, SR_LANEID, SR_LTMASK and
/// the other lane masks): the L1 data path delivers it, one wavefront per execution (session 19,
/// validation/h100/time/lsu_wavefronts_ncu.sh). S2UR, CS2R and the block-wide registers do not.
bool readsLaneRegister(const sass::SassInstruction &ins) {
  if (ins.opcode != "S2R") return false;
  for (const char *sr : {"SR_TID", "SR_LANEID", "SR_LTMASK", "SR_LEMASK", "SR_GTMASK", "SR_GEMASK", "SR_EQMASK"})
    if (ins.text.find(sr) != std::string::npos) return true;
  return false;
}

/// Registers named in `ops` ("R12" → 12, "R2.64" → 2 and 3; RZ, UR*, P* are not registers here);
/// with prefix "UR", the uniform registers ("UR6" → base + 6; URZ skipped), each as `base` + n.
void registersIn(std::string_view ops, std::vector<int> &out, std::string_view prefix = "R", int base = 0) {
  const std::size_t w = prefix.size();
  for (std::size_t i = 0; i + w <= ops.size(); ++i) {
    if (ops.substr(i, w) != prefix ||
        (i > 0 && (std::isalnum(static_cast<unsigned char>(ops[i - 1])) || ops[i - 1] == '_')))
      continue;
    std::size_t j = i + w;
    int n = 0;
    while (j < ops.size() && std::isdigit(static_cast<unsigned char>(ops[j]))) n = n * 10 + (ops[j++] - '0');
    if (j == i + w) continue;
    out.push_back(base + n);
    if (ops.substr(j, 3) == ".64") out.push_back(base + n + 1);
    i = j - 1;
  }
}

/// Uniform registers UR<n> in an operand list, as 2000 + n (URZ skipped; UR<n>.64 adds n + 1).
void uniformRegistersIn(std::string_view ops, std::vector<int> &out) { registersIn(ops, out, "UR", 2000); }

/// Whether an instruction's first operand is a destination: not for stores, RED (a global
/// reduction, which writes nothing; REDUX, a warp reduction, writes its first operand), branches
/// and EXIT.
bool writesFirstOperand(std::string_view opcode) {
  return !(startsWith(opcode, "ST") || (startsWith(opcode, "RED") && !startsWith(opcode, "REDUX")) ||
           startsWith(opcode, "BRA") || startsWith(opcode, "EXIT"));
}

/// Distinct registers an instruction reads from the register file: R<n> not followed by .reuse
/// (the operand reuse cache serves those), a register named twice read once ("FFMA R10, R10, R10,
/// R11" reads two: heldout3's f32 Mandelbrot ran at 1.10 cycles per instruction, not the 1.23 that
/// counting names gave), RZ and uniform registers not counted.
int registersRead(std::string_view ops) {
  std::set<int> read;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i] != 'R' || (i > 0 && (std::isalnum(static_cast<unsigned char>(ops[i - 1])) || ops[i - 1] == '_')))
      continue;
    std::size_t j = i + 1;
    int n = 0;
    while (j < ops.size() && std::isdigit(static_cast<unsigned char>(ops[j]))) n = n * 10 + (ops[j++] - '0');
    if (j == i + 1) continue;
    if (ops.substr(j, 6) != ".reuse") read.insert(n);
    i = j - 1;
  }
  return static_cast<int>(read.size());
}

/// Predicates named in `ops` ("P3", "!P3" → 1003; PT is not one), as pseudo-registers 1000 + n.
void predicatesIn(std::string_view ops, std::vector<int> &out) {
  for (std::size_t i = 0; i + 1 < ops.size(); ++i) {
    if (ops[i] != 'P' || (i > 0 && (std::isalnum(static_cast<unsigned char>(ops[i - 1])) || ops[i - 1] == '_')))
      continue;
    if (!std::isdigit(static_cast<unsigned char>(ops[i + 1]))) continue;
    if (i + 2 < ops.size() && std::isalnum(static_cast<unsigned char>(ops[i + 2]))) continue;
    out.push_back(1000 + (ops[i + 1] - '0'));
  }
}

} // namespace

double loadRoundsOf(const sass::SassFunction &fn, const std::vector<launch::InstructionRecord> &records,
                    double *barrierRounds, const std::map<std::uint64_t, double> *missShareByPc,
                    double *missRounds) {
  if (barrierRounds) *barrierRounds = 0;
  if (missRounds) *missRounds = 0;
  std::map<std::uint64_t, double> requestsAt;
  double unplaced = 0, any = 0;
  std::set<std::uint64_t> listed;
  for (const auto &i : fn.instructions) listed.insert(i.pc);
  for (const auto &r : records) {
    if (r.space != "global" || r.op != "ld" || r.requests == 0) continue;
    any += static_cast<double>(r.requests);
    if (r.sassPc && listed.count(*r.sassPc)) requestsAt[*r.sassPc] += static_cast<double>(r.requests);
    else unplaced += static_cast<double>(r.requests);
  }
  if (any == 0) return 0;
  std::set<std::uint64_t> labels;
  for (const auto &[name, pc] : fn.labels)
    if (pc != 0) labels.insert(pc);
  double rounds = unplaced, group = 0, groupMiss = 0;
  if (missRounds) *missRounds = unplaced;
  // Rounds closed since the last barrier or loop back-edge: a barrier makes the block wait for
  // all of them; a backward branch means they repeat before any barrier (a grid-stride loop).
  double sinceBarrier = 0;
  std::map<std::string, std::uint64_t, std::less<>> labelPc(fn.labels.begin(), fn.labels.end());
  std::set<int> pending;
  auto close = [&] {
    rounds += group;
    sinceBarrier += group;
    if (missRounds) *missRounds += group * groupMiss;
    group = 0;
    groupMiss = 0;
    pending.clear();
  };
  std::vector<int> regs;
  for (const auto &ins : fn.instructions) {
    if (labels.count(ins.pc)) close();
    std::string_view text = ins.text;
    if (!text.empty() && text[0] == '@') text = text.substr(std::min(text.size(), text.find(' ') + 1));
    std::string_view ops = text.substr(std::min(text.size(), ins.opcode.size()));
    const bool writesFirst = writesFirstOperand(ins.opcode);
    const std::size_t comma = ops.find(',');
    regs.clear();
    registersIn(writesFirst ? (comma == std::string_view::npos ? std::string_view{} : ops.substr(comma)) : ops, regs);
    for (int r : regs)
      if (pending.count(r)) {
        close();
        break;
      }
    const bool globalLoad = ins.isMemory && ins.space == model::Space::Global && ins.op == model::Op::Load &&
                            !startsWith(ins.opcode, "LDGSTS");
    if (globalLoad) {
      auto it = requestsAt.find(ins.pc);
      group = std::max(group, it == requestsAt.end() ? 0.0 : it->second);
      double share = 1.0;
      if (missShareByPc)
        if (auto m = missShareByPc->find(ins.pc); m != missShareByPc->end()) share = m->second;
      if (it != requestsAt.end()) groupMiss = std::max(groupMiss, share);
      regs.clear();
      registersIn(ops.substr(0, comma), regs);
      if (!regs.empty())
        for (unsigned k = 0; k < std::max(1u, ins.widthBytes / 4); ++k) pending.insert(regs.front() + static_cast<int>(k));
    }
    for (const char *p : {"BRA", "BRX", "JMP", "BAR", "EXIT", "RET", "CALL", "BSYNC", "WARPSYNC"})
      if (startsWith(ins.opcode, p)) {
        close();
        break;
      }
    if (startsWith(ins.opcode, "BAR") && !startsWith(ins.opcode, "BAR.ARV")) {
      if (barrierRounds) *barrierRounds += sinceBarrier;
      sinceBarrier = 0;
    }
    if (startsWith(ins.opcode, "BRA")) {
      const std::size_t a = text.find("`("), b = text.find(')', a == std::string_view::npos ? 0 : a);
      if (a != std::string_view::npos && b != std::string_view::npos) {
        auto it = labelPc.find(text.substr(a + 2, b - a - 2));
        if (it != labelPc.end() && it->second <= ins.pc) sinceBarrier = 0;
      }
    }
  }
  close();
  return rounds;
}

double fmaPipeInstructionsOf(const sass::SassFunction &fn, const std::vector<launch::InstructionRecord> &records,
                             double warpInstructions) {
  std::map<std::uint64_t, double> executedAt;
  for (const auto &r : records)
    if (r.sassPc) executedAt[*r.sassPc] = std::max(executedAt[*r.sassPc], static_cast<double>(r.executed));
  std::map<std::string, std::uint64_t, std::less<>> labelPc(fn.labels.begin(), fn.labels.end());
  std::set<std::uint64_t> labels;
  for (const auto &[name, pc] : fn.labels) labels.insert(pc);
  struct Block {
    double n = 0, fma = 0, count = -1;
    bool selfLoop = false;
  };
  std::vector<Block> blocks(1);
  std::uint64_t blockStart = fn.instructions.empty() ? 0 : fn.instructions.front().pc;
  for (std::size_t k = 0; k < fn.instructions.size(); ++k) {
    const auto &ins = fn.instructions[k];
    if (k > 0 && labels.count(ins.pc) && blocks.back().n > 0) {
      blocks.emplace_back();
      blockStart = ins.pc;
    }
    if (ins.opcode.empty() || ins.opcode == "NOP") continue;
    Block &b = blocks.back();
    b.n += 1;
    b.fma += isFmaPipe(ins.opcode) ? 1 : 0;
    if (auto it = executedAt.find(ins.pc); it != executedAt.end()) b.count = std::max(b.count, it->second);
    bool ends = false;
    for (const char *p : {"BRA", "BRX", "JMP", "EXIT", "RET"}) ends = ends || startsWith(ins.opcode, p);
    if (!ends) continue;
    if (startsWith(ins.opcode, "BRA") && b.n == 1) {
      std::string_view text = ins.text;
      const std::size_t a = text.find("`("), e = text.find(')', a == std::string_view::npos ? 0 : a);
      if (a != std::string_view::npos && e != std::string_view::npos) {
        auto it = labelPc.find(text.substr(a + 2, e - a - 2));
        b.selfLoop = it != labelPc.end() && it->second == blockStart;
      }
    }
    blocks.emplace_back();
    blockStart = k + 1 < fn.instructions.size() ? fn.instructions[k + 1].pc : 0;
  }
  double known = 0, fmaKnown = 0, restN = 0, restFma = 0;
  bool any = false;
  for (const Block &b : blocks) {
    if (b.selfLoop || b.n == 0) continue;
    if (b.count >= 0) {
      any = true;
      known += b.n * b.count;
      fmaKnown += b.fma * b.count;
    } else {
      restN += b.n;
      restFma += b.fma;
    }
  }
  if (!any) return -1;
  const double rest = std::max(0.0, warpInstructions - known);
  const double share = restN > 0 ? restFma / restN : (known > 0 ? fmaKnown / known : 0.0);
  return fmaKnown * std::min(1.0, warpInstructions / std::max(known, 1.0)) + rest * share;
}

int issueLatency(std::string_view opcode) { return opcodeTiming(opcode).latency; }

namespace {
/// An instruction's operands: its guard, destinations and sources (as the listing names them).
struct Operands {
  std::string_view guard, dst, src;
};
Operands operandsOf(const sass::SassInstruction &ins) {
  Operands o;
  std::string_view text = ins.text;
  if (!text.empty() && text[0] == '@') {
    o.guard = text.substr(0, text.find(' '));
    text = text.substr(std::min(text.size(), text.find(' ') + 1));
  }
  std::string_view ops = text.substr(std::min(text.size(), ins.opcode.size()));
  const bool writesFirst = writesFirstOperand(ins.opcode);
  // Destinations: the first operand; SHFL writes a predicate first and its register second;
  // xSETP and PLOP3 write the predicates of their first two operands.
  std::size_t comma = ops.find(',');
  o.dst = comma == std::string_view::npos ? std::string_view{} : ops.substr(0, comma);
  o.src = comma == std::string_view::npos ? ops : ops.substr(comma);
  const bool setp = ins.opcode.find("SETP") != std::string::npos || startsWith(ins.opcode, "PLOP3");
  if ((startsWith(ins.opcode, "SHFL") || setp) && comma != std::string_view::npos) {
    const std::size_t second = ops.find(',', comma + 1);
    o.dst = ops.substr(0, second);
    o.src = second == std::string_view::npos ? std::string_view{} : ops.substr(second);
  }
  if (!writesFirst) o.dst = {}, o.src = ops;
  return o;
}
} // namespace

int branchResolveCycles(const sass::SassFunction &fn, const sass::SassInstruction &ins) {
  if (!startsWith(ins.opcode, "BRA")) return 0;
  const auto open = ins.text.find("(."), close = open == std::string::npos ? open : ins.text.find(')', open);
  if (close == std::string::npos) return 0;
  const std::string_view target = std::string_view(ins.text).substr(open + 1, close - open - 1);
  for (const auto &[name, pc] : fn.labels)
    if (name == target) return pc <= ins.pc ? kBackwardBranchCycles : kForwardBranchCycles;
  return 0;
}

SimInstruction simInstructionOf(const sass::SassFunction &fn, const sass::SassInstruction &ins,
                                const std::vector<std::uint8_t> &stalls,
                                const std::map<std::uint64_t, double> &lsuWavefronts, double mioCyclesPerWavefront) {
  SimInstruction si;
  const Operands o = operandsOf(ins);
  si.timing = opcodeTiming(ins.opcode);
  // Registers as R0..R255, predicates as 256 + n, uniform registers as 264 + n (session 17: a
  // REDUX writes a uniform register that the next instruction reads; untracked, its 41-cycle
  // latency never delayed anything).
  std::vector<int> regs;
  auto index = [](int r) { return r >= 2000 ? kUniformRegBase + std::min(r - 2000, kUniformRegs - 1) : r >= 1000 ? 256 + (r - 1000) : r; };
  registersIn(o.dst, regs);
  predicatesIn(o.dst, regs);
  uniformRegistersIn(o.dst, regs);
  for (int r : regs) si.writes.push_back(index(r));
  regs.clear();
  registersIn(o.src, regs);
  predicatesIn(o.src, regs);
  predicatesIn(o.guard, regs);
  uniformRegistersIn(o.src, regs);
  for (int r : regs) si.reads.push_back(index(r));
  if (isFmaPipe(ins.opcode) && registersRead(o.src) >= 3) si.issueCycles = 2;
  // FP64 operands are register pairs: two reads each, at the same two register reads per
  // cycle as the FFMA rule above (a DFMA of three unreused operands, 3 cycles).
  if (isFp64Pipe(ins.opcode)) si.issueCycles = std::max(1, registersRead(o.src));
  if (ins.pc / 16 < stalls.size()) si.stall = std::max(1, int(stalls[ins.pc / 16]));
  si.stall += branchResolveCycles(fn, ins);
  if (auto it = lsuWavefronts.find(ins.pc); it != lsuWavefronts.end() && it->second > 0)
    si.mioCycles = std::max(1, static_cast<int>(std::lround(mioCyclesPerWavefront * it->second)));
  return si;
}

PerPcMix mixFromCounts(const sass::SassFunction &fn, const std::vector<std::uint64_t> &perPc, double warpInstructions,
                       const std::vector<std::uint8_t> &stalls, const std::map<std::uint64_t, double> &lsuWavefronts,
                       double mioCyclesPerWavefront) {
  PerPcMix mix;
  double listed = 0, total = 0;
  for (std::uint64_t c : perPc) total += static_cast<double>(c);
  if (total <= 0) return mix;
  const double scale = warpInstructions > 0 ? warpInstructions / total : 1.0; // sampled launches
  auto countAt = [&](std::uint64_t pc) { return pc / 16 < perPc.size() ? static_cast<double>(perPc[pc / 16]) : 0.0; };
  // Basic blocks: split at labels and after branches/exits, as fmaPipeInstructionsOf does.
  std::set<std::uint64_t> labels;
  for (const auto &[name, pc] : fn.labels) labels.insert(pc);
  std::vector<std::pair<std::size_t, std::size_t>> blocks; // [first, last) into fn.instructions
  std::size_t first = 0;
  for (std::size_t k = 0; k < fn.instructions.size(); ++k) {
    const auto &ins = fn.instructions[k];
    if (k > first && labels.count(ins.pc)) blocks.emplace_back(first, k), first = k;
    bool ends = false;
    for (const char *p : {"BRA", "BRX", "JMP", "EXIT", "RET"}) ends = ends || startsWith(ins.opcode, p);
    if (ends) blocks.emplace_back(first, k + 1), first = k + 1;
  }
  if (first < fn.instructions.size()) blocks.emplace_back(first, fn.instructions.size());
  std::vector<SimInstruction> body;
  for (const auto &[b, e] : blocks) {
    body.clear();
    double execs = 0; // the block's executions (warp level): its most-executed instruction
    // One warp alone, in-order issue: an instruction issues a cycle after the one before, or when
    // its register inputs are ready. Two passes over the block with the ready times carried: the
    // second is the steady state of a loop body (chains from one iteration into the next).
    std::map<int, double> ready;
    double last = 0;
    for (int pass = 0; pass < 2; ++pass)
      for (std::size_t k = b, j = 0; k < e; ++k) {
        const auto &ins = fn.instructions[k];
        if (ins.opcode.empty() || ins.opcode == "NOP") continue;
        const Operands o = operandsOf(ins);
        // The registers, predicates and uniform registers it reads and writes, as the issue
        // simulation indexes them (the second pass reuses the first pass's body[j]).
        if (pass == 0) body.push_back(simInstructionOf(fn, ins, stalls, lsuWavefronts, mioCyclesPerWavefront));
        const SimInstruction &si = body[j++];
        double start = last + 1;
        for (int r : si.reads)
          if (auto it = ready.find(r); it != ready.end()) start = std::max(start, it->second);
        for (int r : si.writes) ready[r] = start + issueLatency(ins.opcode);
        const double gap = start - last;
        last = start;
        if (pass == 0) {
          mix.lsuInSim = mix.lsuInSim || si.mioCycles > 0;
          execs = std::max(execs, countAt(ins.pc));
          continue;
        }
        const double n = countAt(ins.pc);
        listed += n;
        mix.dependentCycles += n * gap;
        if (isFmaPipe(ins.opcode)) {
          mix.fma += n;
          if (registersRead(o.src) >= 3) mix.operandStalls += n;
        }
        if (startsWith(ins.opcode, "SHFL")) mix.shuffles += n;
        if (isAluPipe(ins.opcode)) mix.alu += n;
        if (isFp64Pipe(ins.opcode)) mix.fp64 += n;
        if (isXuPipe(ins.opcode)) mix.xu += n;
        if (startsWith(ins.opcode, "BAR") && !startsWith(ins.opcode, "BAR.ARV")) mix.barriers += n;
      }
    // The sub-partition's cycles for the block's executions, per resident warp count; blocks with
    // under 0.1% of the instructions at a cycle each (no simulation).
    if (execs <= 0 || body.empty()) continue;
    const double work = execs * static_cast<double>(body.size());
    for (unsigned w = 1; w <= kMaxSimWarps; ++w) {
      IssueStats s;
      if (work < 1e-3 * total) s.cycles = s.issue = work;
      else s = simulateIssue(body, w).scaled(execs);
      mix.sim[w - 1] += s;
    }
  }
  mix.dependentCycles += std::max(0.0, total - listed); // callees: a cycle each
  for (IssueStats &s : mix.sim) {
    IssueStats rest;
    rest.cycles = rest.issue = std::max(0.0, total - listed);
    s += rest;
    s = s.scaled(scale);
  }
  mix.dependentCycles *= scale, mix.fma *= scale, mix.shuffles *= scale, mix.operandStalls *= scale;
  mix.alu *= scale, mix.fp64 *= scale, mix.xu *= scale, mix.barriers *= scale;
  mix.known = true;
  return mix;
}

perf::MemoryCounts memoryCountsFromMetrics(const std::map<std::string, double> &m) {
  perf::MemoryCounts c;
  c.globalLoadRequests = metric(m, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  c.globalStoreRequests = metric(m, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
  c.globalLoadSectors = metric(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  c.globalStoreSectors = metric(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
  c.sharedWavefronts = metric(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") +
                       metric(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
  auto l2 = m.find("lts__t_sectors_srcunit_tex_op_read.sum");
  c.l2ReadSectors = l2 != m.end() ? l2->second : c.globalLoadSectors;
  c.dramReadBytes = metric(m, "dram__bytes_read.sum");
  c.dramWriteBytes = metric(m, "dram__bytes_write.sum");
  return c;
}

/// The SM trace simulation (TraceSim.h) of the busiest SM's `perSm` blocks, ns (-1: not run).
double traceSimNs(const sass::SassFunction &fn, const std::vector<std::vector<std::uint32_t>> &trace,
                  const std::vector<std::uint8_t> &stalls, const std::map<std::uint64_t, double> &lsuWf,
                  const std::map<std::uint64_t, double> &missShareByPc,
                  const std::map<std::uint64_t, double> &dramShareByPc, const std::map<std::string, double> &metrics,
                  const L1ReuseListener &reuse, const perf::DeviceSpec &device, unsigned resident, double perSm,
                  double loadRounds) {
  const double ghz = device.smClockHz / 1e9;
  if (fn.instructions.empty() || ghz <= 0) return -1;
  // Where an L1 miss is served: the launch's DRAM share of the L1-missing sectors.
  const double missSectors = static_cast<double>(reuse.missSectors());
  const double m2 = missSectors > 0 ? std::clamp(metric(metrics, "dram__bytes_read.sum") / (32.0 * missSectors), 0.0, 1.0) : 0.0;
  const auto &c = device.coef;
  // DRAM: the fitted round latency with its region (page) term, as the latency column has it.
  const double regions = loadRounds > 0 && reuse.loadRegions() > 0 ? static_cast<double>(reuse.loadRegions()) / loadRounds : 1.0;
  const double dramNs = c.latencyNsPerRequest + c.latencyRegionNs * std::log2(std::max(1.0, regions));
  const double missNs = (1.0 - m2) * c.latencyL2Ns + m2 * dramNs;
  std::vector<TraceInstruction> code(fn.instructions.back().pc / 16 + 1);
  for (const auto &ins : fn.instructions) {
    if (ins.opcode.empty()) continue;
    TraceInstruction &t = code[ins.pc / 16];
    t.sim = simInstructionOf(fn, ins, stalls, {}, 0.0);
    if (auto it = lsuWf.find(ins.pc); it != lsuWf.end()) t.wavefronts = it->second;
    // Shuffles cross the same data path, one warp instruction per cycle per SM (the shuffleNs
    // column's fitted shuffleCycles is 0.99 on the H100: chain_shfl_264x1024_512).
    if (startsWith(ins.opcode, "SHFL")) t.wavefronts += 1.0;
    t.barrier = startsWith(ins.opcode, "BAR") && !startsWith(ins.opcode, "BAR.ARV");
    if (ins.isMemory && ins.space == model::Space::Global && !startsWith(ins.opcode, "LDGSTS") &&
        (ins.op == model::Op::Load || (ins.op == model::Op::Atomic && !t.sim.writes.empty()))) {
      // A load: L1 hit or miss by its own miss share (all miss when unknown), of the misses those
      // whose fetch unit the warp's own earlier request brought at the L2's latency (session 18,
      // L1Reuse.h SiteMisses::dram); an atomic: L2.
      double ns = c.latencyL2Ns;
      if (ins.op == model::Op::Load) {
        double miss = 1.0;
        if (auto it = missShareByPc.find(ins.pc); it != missShareByPc.end()) miss = it->second;
        double dram = miss;
        if (auto it = dramShareByPc.find(ins.pc); it != dramShareByPc.end()) dram = std::min(miss, it->second);
        ns = (1.0 - miss) * kL1HitCycles / ghz + (miss - dram) * c.latencyL2Ns + dram * missNs;
      }
      t.loadLatency = static_cast<int>(std::lround(ghz * ns));
    }
  }
  if (std::getenv("WARPLENS_TRACE_DEBUG")) // what the simulation runs, per instruction
    for (const auto &ins : fn.instructions)
      if (!ins.opcode.empty())
        std::fprintf(stderr, "trace %04llx %-40s lat %d load %d wf %.2f stall %d bar %d\n", (unsigned long long)ins.pc,
                     ins.text.substr(0, 40).c_str(), code[ins.pc / 16].sim.timing.latency, code[ins.pc / 16].loadLatency,
                     code[ins.pc / 16].wavefronts, code[ins.pc / 16].sim.stall, int(code[ins.pc / 16].barrier));
  const TraceSimResult r = simulateSmBlocks(code, trace, resident, perSm, std::max(1u, device.subPartitions),
                                            kBarrierCycles, kTraceBudget);
  return r.ran ? r.cycles / ghz : -1.0;
}

/// L1 → L2 read sectors with the L1 hits across blocks of one SM (session 22): the per-block
/// estimate (L1ReuseListener::missSectors) less, per sector that k blocks read, k - min(k, SMs)
/// (blocks sharing a sector sit on different SMs until more of them than SMs read it), times the
/// share of those widely read sectors (k > SMs) the SM's L1 holds: min(1, L1 bytes the resident
/// blocks' shared memory leaves / their bytes). Measured against lts__t_sectors_srcunit_tex_op_read
/// (H200): rmsnorm_rows, a 16 KiB weight row every block reads, 4.22M L2 read sectors where the
/// per-block estimate had 8.39M.
double crossBlockL1Misses(const L1ReuseListener &reuse, std::uint64_t l1BytesPerSm, const perf::LaunchShape &shape,
                          const perf::Occupancy &occ, unsigned sms) {
  const double perBlock = static_cast<double>(reuse.missSectors());
  const std::vector<double> readers = reuse.sharedSectorReaders();
  if (readers.empty() || sms == 0) return perBlock;
  const double l1 = static_cast<double>(l1BytesPerSm);
  const double sharedPerSm = double(std::max(1u, occ.blocksPerSm)) * (shape.staticSharedBytes + shape.dynamicSharedBytes);
  const double cache = std::max(0.0, l1 - sharedPerSm);
  double saved = 0, wide = 0;
  for (double k : readers)
    if (k > sms) saved += k - sms, wide += 32.0;
  const double held = wide > 0 ? std::min(1.0, cache / wide) : 0.0;
  return std::max(0.0, perBlock - saved * held);
}

void addTimePrediction(const launch::LaunchSpec &spec, const AnalyzeOptions &options,
                       std::uint64_t emulatedWarpInstructions, const model::DramSectorModel &dram,
                       const L1ReuseListener &reuse, launch::LaunchResult &result,
                       const emu::RunStats *engine, const std::map<std::uint64_t, double> &missShareByPc,
                       const std::map<std::uint64_t, double> &dramShareByPc) {
  static const emu::RunStats kNone;
  const emu::RunStats &run = engine ? *engine : kNone;
  const std::vector<std::uint64_t> &warpInstrPerPc = run.warpInstrPerPc;
  const std::vector<std::uint32_t> &blockWarpInstr = run.blockWarpInstr, &blockLongestWarp = run.blockLongestWarp;
  const std::vector<std::vector<std::uint32_t>> &blockTrace = run.blockTrace;
  std::string deviceName = options.device.empty() ? perf::defaultDeviceFor(options.arch) : options.device;
  if (deviceName.empty()) {
    result.notes.push_back("time: no device data for " + options.arch + " (use --device)");
    return;
  }
  auto device = perf::loadDevice(deviceName);
  if (!device) {
    result.notes.push_back("time: " + device.error().message);
    return;
  }
  perf::TimeInputs in;
  in.shape.grid = spec.grid;
  in.shape.block = spec.block;
  in.shape.dynamicSharedBytes = static_cast<unsigned>(spec.dynamicSharedBytes);
  std::string resourcesFrom = "unknown (no cubin): registers and static shared memory left out";
  double fmaShare = 0;
  sass::ToolchainOptions to;
  to.arch = options.arch;
  to.nvccFlags = spec.nvccFlags;
  to.cacheDir = options.cacheDir;
  // Only where the pipeline itself uses the toolchain (sass auto): a given listing or --sass none
  // must give the same result with or without nvcc on the machine.
  Expected<sass::CompileOutput> compiled = Error{"toolchain not used (--sass " + options.sass + ")"};
  if (options.sass == "auto") compiled = sass::compile(spec.source, to);
  std::vector<std::uint8_t> stalls; // per pc / 16: the control bits' stall counts (empty: unknown)
  if (compiled && !compiled->cubinPath.empty()) {
    auto res = perf::readCubinResources(compiled->cubinPath);
    if (res) {
      auto it = res->find(result.kernel);
      if (it != res->end()) {
        in.shape.registersPerThread = it->second.registersPerThread;
        in.shape.staticSharedBytes = it->second.staticSharedBytes;
        stalls = it->second.stalls;
        resourcesFrom = "cubin";
      }
    } else {
      resourcesFrom = res.error().message;
    }
  }
  // The launch's occupancy (its shape and cubin resources are complete here).
  const perf::Occupancy occ = perf::occupancy(in.shape, device.value());
  double loadRounds = 0, barrierRounds = 0, dynamicFma = -1, missRounds = -1, dramRounds = -1, traceNs = -1;
  // L1 data-path wavefronts outside the shared-memory counters (MemoryCounts::dataPathExtraWavefronts):
  // the per-lane special-register reads (-1: not counted per instruction; then one per warp) and
  // the shared-memory executions of no lane.
  double laneRegisterWavefronts = -1, sharedIdle = 0;
  for (const auto &r : result.instructions)
    if (r.space == "shared") sharedIdle += static_cast<double>(r.idle);
  PerPcMix perPc;
  std::string listingPath = compiled ? compiled->sassPath : "";
  if (options.sass != "auto" && options.sass != "none") listingPath = options.sass;
  if (!listingPath.empty()) {
    auto listing = sass::readListing(listingPath);
    if (listing)
      if (const sass::SassFunction *fn = sass::findFunction(*listing, result.kernel)) {
        std::size_t n = 0, fma = 0;
        for (const auto &i : fn->instructions) {
          if (i.opcode.empty() || i.opcode == "NOP") continue;
          ++n;
          fma += isFmaPipe(i.opcode);
        }
        if (n) fmaShare = double(fma) / double(n);
        loadRounds = loadRoundsOf(*fn, result.instructions, &barrierRounds,
                                  missShareByPc.empty() ? nullptr : &missShareByPc, &missRounds);
        // The same rounds counted by the share of requests that wait for DRAM (L1Reuse.h SiteMisses).
        if (!dramShareByPc.empty()) loadRoundsOf(*fn, result.instructions, nullptr, &dramShareByPc, &dramRounds);
        dynamicFma = fmaPipeInstructionsOf(*fn, result.instructions, static_cast<double>(emulatedWarpInstructions));
        if (const char *dump = std::getenv("WARPLENS_PC_COUNTS"); dump && !warpInstrPerPc.empty()) {
          // A debugging aid: warp instructions executed per SASS instruction ("pc count text"),
          // to set beside ncu's per-instruction "Instructions Executed" (source page).
          if (std::FILE *out = std::fopen(dump, "a")) {
            std::fprintf(out, "# %s\n", spec.name.c_str());
            for (const auto &i : fn->instructions)
              if (i.pc / 16 < warpInstrPerPc.size())
                std::fprintf(out, "%04llx %llu %s\n", static_cast<unsigned long long>(i.pc),
                             static_cast<unsigned long long>(warpInstrPerPc[i.pc / 16]), i.text.c_str());
            std::fclose(out);
          }
        }
        if (!warpInstrPerPc.empty()) {
          // L1 data-path wavefronts per execution by pc: shared memory (the L1 counter's rule
          // where it differs), global loads and stores at the launch's wavefronts (loads) and
          // lines (stores) per request (L1Reuse.h), the time model's l1/shared column of sessions 5-8.
          double ldReq = 0, stReq = 0;
          for (const auto &r : result.instructions)
            if (r.space == "global" && r.op == "ld") ldReq += static_cast<double>(r.requests);
            else if (r.space == "global" && r.op == "st") stReq += static_cast<double>(r.requests);
          const double ldWf = ldReq > 0 ? static_cast<double>(reuse.loadWavefronts()) / ldReq : 0.0;
          const double stWf = stReq > 0 ? static_cast<double>(reuse.storeLines()) / stReq : 0.0;
          std::map<std::uint64_t, double> lsuWf;
          for (const auto &r : result.instructions) {
            if (!r.sassPc || r.executed == 0) continue;
            const double exec = static_cast<double>(r.executed);
            if (r.space == "shared") // an execution of no lane takes one wavefront (session 19)
              lsuWf[*r.sassPc] += static_cast<double>((r.wavefrontsHw ? r.wavefrontsHw : r.wavefronts) + r.idle) / exec;
            else if (r.space == "global" && r.op == "ld")
              lsuWf[*r.sassPc] += ldWf * static_cast<double>(r.requests) / exec;
            else if (r.space == "global" && r.op == "st")
              lsuWf[*r.sassPc] += stWf * static_cast<double>(r.requests) / exec;
          }
          // S2R of a per-lane special register (SR_TID.*, SR_LANEID, the lane masks): one data-path
          // wavefront per execution (lsu_wavefronts_ncu.sh: exactly the SR_TID reads in every held-out
          // launch without shared memory, 1D blocks one per warp, 2D two; SR_CTAID and SR_CgaCtaId none).
          laneRegisterWavefronts = 0;
          for (const auto &i : fn->instructions)
            if (readsLaneRegister(i) && i.pc / 16 < warpInstrPerPc.size() && warpInstrPerPc[i.pc / 16] > 0) {
              laneRegisterWavefronts += static_cast<double>(warpInstrPerPc[i.pc / 16]);
              lsuWf[i.pc] += 1.0;
            }
          // The busiest SM's blocks and those resident on it at once; the sub-partitions sharing
          // its L1 data path: its resident warps, at most 4.
          const double gridBlocks = double(spec.grid[0]) * spec.grid[1] * spec.grid[2];
          const double perSm = std::ceil(gridBlocks / device->sms);
          const double resident = std::min<double>(occ.blocksPerSm ? occ.blocksPerSm : 1.0, perSm);
          const double sharing = std::clamp(resident * occ.warpsPerBlock, 1.0, double(std::max(1u, device->subPartitions)));
          // The control bits' stall counts only for the cubin the pipeline compiled itself.
          const std::vector<std::uint8_t> ownStalls = options.sass == "auto" ? stalls : std::vector<std::uint8_t>{};
          perPc = mixFromCounts(*fn, warpInstrPerPc, static_cast<double>(emulatedWarpInstructions), ownStalls, lsuWf,
                                sharing);
          if (!blockTrace.empty())
            traceNs = traceSimNs(*fn, blockTrace, ownStalls, lsuWf, missShareByPc, dramShareByPc, result.metrics, reuse, device.value(),
                                 static_cast<unsigned>(resident), perSm, loadRounds);
        }
      }
  }
  in.mem = memoryCountsFromMetrics(result.metrics);
  in.mem.dataPathExtraWavefronts = sharedIdle + (laneRegisterWavefronts >= 0 ? laneRegisterWavefronts
                                                             : double(spec.grid[0]) * spec.grid[1] * spec.grid[2] *
                                                                   occ.warpsPerBlock);
  const auto archSpec = arch::loadArch(options.arch);
  in.mem.l2ReadSectors =
      crossBlockL1Misses(reuse, archSpec ? archSpec->l1BytesPerSm : 0, in.shape, occ, device->sms);
  in.mem.l2ReadLines = static_cast<double>(reuse.missLines());
  // Re-fetches, and partly written sectors evicted between writes: their fill read (in
  // refetchBytes) and their write-back, each a scattered 32-byte transfer (model/DramSectorModel.h).
  in.mem.dramRefetchBytes = static_cast<double>(dram.refetchBytes() + dram.refillBytes());
  // The read re-fetches at L2 reuse capacities from 16 to 64 MiB (another device's, TimeModel.h
  // atL2Reuse), kept only where there are some.
  in.mem.l2ReuseBytes = dram.reuseCapacity();
  for (double mib = 16; mib <= 64; mib += 2)
    in.mem.refetchCurve.emplace_back(mib * 1048576.0, static_cast<double>(dram.refetchBytesAt(mib * 1048576.0)));
  if (in.mem.refetchCurve.front().second == 0) in.mem.refetchCurve.clear(); // most at the least capacity
  in.mem.globalLoadLines = static_cast<double>(reuse.loadLines());
  in.mem.globalStoreLines = static_cast<double>(reuse.storeLines());
  in.mem.globalLoadWavefronts = static_cast<double>(reuse.loadWavefronts());
  in.mem.globalLoadRegions = static_cast<double>(reuse.loadRegions());
  in.mem.loadRounds = loadRounds;
  in.mem.barrierLoadRounds = barrierRounds;
  in.mem.loadMissRounds = missShareByPc.empty() ? -1.0 : missRounds;
  in.mem.loadDramRounds = dramShareByPc.empty() ? -1.0 : dramRounds;
  // Written data reaches DRAM during the kernel only once the L2 overflows: measured on the H100
  // (dram_wr_b16_s16 family), 16 MB written → 0.07 MB, 64 → 45, 256 → 246; about 0.3 x L2 stays.
  const double written = static_cast<double>(dram.bytesWritten());
  double retained = 0;
  if (archSpec) retained = 0.3 * static_cast<double>(archSpec->l2Bytes);
  in.mem.dramWriteBytes = std::max(0.0, written - retained);
  in.mem.atomicLineRequests = static_cast<double>(reuse.atomicLineRequests());
  in.mem.hottestLineSteps = static_cast<double>(reuse.hottestLineSteps());
  in.mem.hottestLineOps = static_cast<double>(reuse.hottestLineOps());
  in.mem.hottestLineExtra = static_cast<double>(reuse.hottestLineExtra());
  in.mem.hottestLineSectorOps = static_cast<double>(reuse.hottestLineSectorOps());
  {
    // Floating-point atomics (RED/ATOM .F32, .F64, .F16, .BF16) chain at about twice the time of
    // integer ones on one word (atomic_red vs atomic_red_u32: 1.82 vs 0.80 ns per request, H100).
    double fl = 0, all = 0;
    for (const auto &r : result.instructions)
      if (r.space == "global" && (r.op == "atom" || r.op == "red") && r.requests) {
        all += static_cast<double>(r.requests);
        for (const char *t : {".F32", ".F64", ".F16", ".BF16"})
          if (r.sass.find(t) != std::string::npos) {
            fl += static_cast<double>(r.requests);
            break;
          }
      }
    in.mem.atomicFloatShare = all > 0 ? fl / all : 1.0;
  }
  in.mix.warpInstructions = static_cast<double>(emulatedWarpInstructions);
  if (perPc.known) {
    in.mix.fmaPipeInstructions = perPc.fma;
    in.mix.shuffleInstructions = perPc.shuffles;
    in.mix.dependentCycles = perPc.dependentCycles;
    in.mix.operandStalls = perPc.operandStalls;
    in.mix.aluPipeInstructions = perPc.alu;
    in.mix.fp64PipeInstructions = perPc.fp64;
    in.mix.xuPipeInstructions = perPc.xu;
    in.mix.barriers = perPc.barriers;
    in.mix.simCoversLsu = perPc.lsuInSim;
    in.mix.traceNs = traceNs;
    for (const IssueStats &s : perPc.sim) {
      in.mix.simCycles.push_back(s.cycles);
      in.mix.simBound.push_back(s.bound());
    }
    in.mix.source = "warp instructions executed by the SASS engine, per instruction: pipes, shuffles, a lone "
                    "warp's dependent issue cycles and the sub-partition issue simulation (IssueSim.h) of the "
                    "executed basic blocks";
  } else if (dynamicFma >= 0) {
    in.mix.fmaPipeInstructions = dynamicFma;
    in.mix.source = "warp instructions executed by the emulator; FMA pipe from the SASS listing's basic "
                    "blocks, counted by their memory instructions' executions (the rest in the static "
                    "mix of the blocks without memory instructions)";
  } else {
    in.mix.fmaPipeInstructions = in.mix.warpInstructions * fmaShare;
    in.mix.source = "estimated: PTX warp instructions executed by the emulator; FMA pipe = that x "
                    "the static FMA-pipe share of the SASS listing";
  }
  if (!run.blockGroupWarpInstr.empty() && in.mix.simCycles.size() == kMaxSimWarps && in.mix.warpInstructions > 0) {
    // Uneven blocks and warps (BlockSchedule.h): a sub-partition holding n warps issues at the
    // simulation's rate for n warps.
    auto rate = [&](unsigned n) {
      const auto w = static_cast<std::size_t>(std::clamp(n, 1u, kMaxSimWarps));
      return 1.0 / std::max(1e-9, in.mix.simCycles[w - 1] / in.mix.warpInstructions);
    };
    const unsigned sub = std::max(1u, device->subPartitions);
    const double lone = in.mix.simCycles[0] / in.mix.warpInstructions;
    in.mix.blockImbalance = blockImbalance(run.blockGroupWarpInstr, run.blockGroupLongestWarp, occ.warpsPerBlock, device->sms,
                                           occ.blocksPerSm, sub, rate, lone);
    // Pooled: the SM's warps over its sub-partitions as one, n warps issuing at min(sub, n) times
    // the simulation's rate for n / sub warps each.
    auto pooled = [&](unsigned n) { return std::min<double>(sub, n) * rate((n + sub - 1) / sub); };
    in.mix.smBlockImbalance = blockImbalance(run.blockGroupWarpInstr, run.blockGroupLongestWarp, occ.warpsPerBlock,
                                             device->sms, occ.blocksPerSm, 1, pooled, lone);
  }
  if (traceNs > 0 && !blockWarpInstr.empty()) {
    // The trace is block 0's: it stands for the busiest SM's blocks only when its work is the
    // blocks' mean (within 10%), scaled to that mean (trmv's row 0 is one element of 2048).
    double sum = 0;
    for (std::uint32_t w : blockWarpInstr) sum += w;
    const double ratio = blockWarpInstr[0] > 0 ? sum / double(blockWarpInstr.size()) / blockWarpInstr[0] : 0.0;
    in.mix.traceNs = ratio >= 0.9 && ratio <= 1.1 ? traceNs * ratio : -1.0;
  }
  if (!blockLongestWarp.empty()) {
    in.mix.latencyImbalance = latencyImbalance(blockLongestWarp, device->sms, occ.blocksPerSm);
  }
  perf::TimePrediction p = perf::predict(in, device.value());
  result.metrics["gpu__time_duration.sum"] = p.durationNs;
  result.metrics["dram__bytes.sum.per_second"] = p.dramBytesPerSecond;
  nlohmann::json t = perf::toJson(p, device.value());
  t["inputs"] = {{"registers_per_thread", in.shape.registersPerThread},
                 {"static_shared_bytes", in.shape.staticSharedBytes},
                 {"dynamic_shared_bytes", in.shape.dynamicSharedBytes},
                 {"resources_from", resourcesFrom},
                 {"warp_instructions", in.mix.warpInstructions},
                 {"fma_pipe_instructions", in.mix.fmaPipeInstructions},
                 {"shuffle_instructions", in.mix.shuffleInstructions},
                 {"dependent_cycles", in.mix.dependentCycles},
                 {"operand_stalls", in.mix.operandStalls},
                 {"alu_pipe_instructions", in.mix.aluPipeInstructions},
                 {"fp64_pipe_instructions", in.mix.fp64PipeInstructions},
                 {"xu_pipe_instructions", in.mix.xuPipeInstructions},
                 {"atomic_line_requests", in.mem.atomicLineRequests},
                 {"hottest_line_steps", in.mem.hottestLineSteps},
                 {"hottest_line_ops", in.mem.hottestLineOps},
                 {"hottest_line_extra", in.mem.hottestLineExtra},
                 {"hottest_line_sector_ops", in.mem.hottestLineSectorOps},
                 {"atomic_float_share", in.mem.atomicFloatShare},
                 {"barriers", in.mix.barriers},
                 {"issue_sim_cycles", in.mix.simCycles},
                 {"issue_sim_bound", in.mix.simBound},
                 {"block_imbalance", in.mix.blockImbalance},
                 {"sm_block_imbalance", in.mix.smBlockImbalance},
                 {"latency_imbalance", in.mix.latencyImbalance},
                 {"issue_sim_lsu", in.mix.simCoversLsu},
                 {"trace_sim_ns", in.mix.traceNs},
                 {"instruction_mix", in.mix.source},
                 {"dram_read_bytes", in.mem.dramReadBytes},
                 {"dram_refetch_bytes", in.mem.dramRefetchBytes},
                 {"dram_l2_reuse_bytes", in.mem.l2ReuseBytes},
                 {"dram_refetch_curve", in.mem.refetchCurve},
                 {"l1_miss_lines", in.mem.l2ReadLines},
                 {"global_load_requests", in.mem.globalLoadRequests},
                 {"global_load_sectors", in.mem.globalLoadSectors},
                 {"global_store_requests", in.mem.globalStoreRequests},
                 {"global_store_sectors", in.mem.globalStoreSectors},
                 {"shared_wavefronts", in.mem.sharedWavefronts},
                 {"data_path_extra_wavefronts", in.mem.dataPathExtraWavefronts},
                 {"l1_miss_sectors", in.mem.l2ReadSectors},
                 {"load_lines", in.mem.globalLoadLines},
                 {"store_lines", in.mem.globalStoreLines},
                 {"load_wavefronts", in.mem.globalLoadWavefronts},
                 {"load_regions", in.mem.globalLoadRegions},
                 {"load_rounds", in.mem.loadRounds},
                 {"barrier_load_rounds", in.mem.barrierLoadRounds},
                 {"load_miss_rounds", in.mem.loadMissRounds},
                 {"load_dram_rounds", in.mem.loadDramRounds},
                 {"dram_write_bytes", in.mem.dramWriteBytes},
                 {"bytes_written", written}};
  result.time = t;
}

} // namespace warplens::analysis
