/// \file
/// SASS metric values → InstructionRecords and smsp__sass_*.sum totals (see SassRecords.h).
#include "cupti_probe/SassRecords.h"

#include <cstdio>
#include <cstdlib>

namespace warplens::probe {

namespace {

constexpr const char *kExec = "smsp__sass_inst_executed";
constexpr const char *kThreads = "smsp__sass_thread_inst_executed";
constexpr const char *kThreadsPredOn = "smsp__sass_thread_inst_executed_pred_on";
constexpr const char *kSectors = "smsp__sass_sectors_mem_global";
constexpr const char *kSectorsIdeal = "smsp__sass_sectors_mem_global_ideal";
constexpr const char *kWaves = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared";
constexpr const char *kWavesIdeal = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal";

std::uint64_t get(const std::map<std::string, std::uint64_t> &m, const char *name) {
  auto it = m.find(name);
  return it == m.end() ? 0 : it->second;
}

bool has(const std::map<std::string, std::uint64_t> &m, const char *name) {
  return m.count(name) != 0;
}

} // namespace

std::string opName(model::Op op) {
  switch (op) {
  case model::Op::Load: return "ld";
  case model::Op::Store: return "st";
  case model::Op::Atomic: return "atom";
  case model::Op::Reduce: return "red";
  }
  return "ld";
}

std::string spaceName(model::Space space) {
  switch (space) {
  case model::Space::Global: return "global";
  case model::Space::Shared: return "shared";
  case model::Space::Local: return "local";
  case model::Space::Const: return "const";
  case model::Space::Param: return "param";
  case model::Space::Generic: return "generic";
  }
  return "global";
}

void addSassRecords(const PcValues &values, const sass::SassFunction *listing,
                    launch::LaunchResult &out) {
  std::map<std::string, double> totals;
  std::uint64_t otherExec = 0, otherCount = 0, unmatched = 0;
  std::map<std::uint64_t, const sass::SassInstruction *> byPc;
  if (listing)
    for (const auto &ins : listing->instructions) byPc[ins.pc] = &ins;

  // Every pc with values, plus the listing's memory instructions that have none (never
  // executed, or not patched): those become all-zero records, as the emulator reports them.
  PcValues all = values;
  if (listing)
    for (const auto &ins : listing->instructions)
      if (ins.isMemory) all[ins.pc];
  if (const char *dump = std::getenv("WARPLENS_PC_COUNTS"))
    // A debugging aid: warp instructions executed per SASS instruction ("pc count text"), as the
    // engine writes them under the same variable (analysis/TimePrediction.cpp).
    if (std::FILE *f = std::fopen(dump, "a")) {
      std::fprintf(f, "# %s\n", out.name.c_str());
      for (const auto &[pc, m] : all) {
        auto it = byPc.find(pc);
        std::fprintf(f, "%04llx %llu %s\n", static_cast<unsigned long long>(pc),
                     static_cast<unsigned long long>(get(m, kExec)), it != byPc.end() ? it->second->text.c_str() : "?");
      }
      std::fclose(f);
    }
  for (const auto &[pc, m] : all) {
    const std::uint64_t exec = get(m, kExec);
    totals["smsp__sass_inst_executed.sum"] += static_cast<double>(exec);
    totals["smsp__sass_sectors_mem_global.sum"] += static_cast<double>(get(m, kSectors));
    totals["smsp__sass_sectors_mem_global_ideal.sum"] += static_cast<double>(get(m, kSectorsIdeal));
    totals["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"] += static_cast<double>(get(m, kWaves));
    totals["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum"] +=
        static_cast<double>(get(m, kWavesIdeal));

    launch::InstructionRecord r;
    r.sassPc = pc;
    const sass::SassInstruction *ins = nullptr;
    if (listing) {
      auto it = byPc.find(pc);
      if (it != byPc.end()) ins = it->second;
      else ++unmatched;
    }
    if (ins) {
      if (!ins->isMemory) {
        ++otherCount;
        otherExec += exec;
        continue;
      }
      r.sass = ins->text;
      r.space = spaceName(ins->space);
      r.op = opName(ins->op);
      r.widthBytes = ins->widthBytes;
      r.sourceFile = ins->sourceFile;
      r.sourceLine = ins->sourceLine;
    } else {
      // No listing entry: keep only pcs that evidently touched memory.
      if (get(m, kSectors) == 0 && get(m, kWaves) == 0 && get(m, kSectorsIdeal) == 0 &&
          get(m, kWavesIdeal) == 0) {
        ++otherCount;
        otherExec += exec;
        continue;
      }
      r.space = get(m, kSectors) || get(m, kSectorsIdeal) ? "global" : "shared";
    }
    r.executed = exec;
    r.threads = has(m, kThreadsPredOn) ? get(m, kThreadsPredOn) : get(m, kThreads);
    r.sectors = get(m, kSectors);
    r.sectorsIdeal = get(m, kSectorsIdeal);
    r.wavefronts = get(m, kWaves);
    r.wavefrontsIdeal = get(m, kWavesIdeal);
    // The SASS metrics have no per-instruction request counter: an LSU global instruction issues
    // one request per warp-level execution.
    if (r.space == "global") r.requests = exec;
    if (!r.op.empty() && (r.space == "global" || r.space == "shared" || r.space == "local"))
      totals["smsp__sass_inst_executed_op_" + r.space + "_" + r.op + ".sum"] +=
          static_cast<double>(exec);
    out.instructions.push_back(std::move(r));
  }
  for (const auto &[k, v] : totals) out.metrics[k] = v;
  out.notes.push_back("SASS metrics: " + std::to_string(out.instructions.size()) +
                      " memory instructions; " + std::to_string(otherCount) +
                      " other instructions executed " + std::to_string(otherExec) +
                      " warp-instructions; requests = warp-level executions (no per-instruction "
                      "request counter)");
  if (unmatched > 0)
    out.notes.push_back("SASS metrics: " + std::to_string(unmatched) +
                        " pcs not found in the SASS listing");
}

} // namespace warplens::probe
