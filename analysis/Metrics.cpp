/// \file
/// Kernel totals under Nsight Compute metric names, summed from per-instruction records.
/// Not modelled here: L2/DRAM traffic (dram__*, lts__*), which needs a cache model, not records.
#include "analysis/Metrics.h"

namespace warplens::analysis {

namespace {

/// The op suffix Nsight Compute uses: ld, st, atom, red (anything else is filed as ld).
std::string opSuffix(const std::string &op) {
  if (op == "st" || op == "atom" || op == "red") return op;
  return "ld";
}

} // namespace

// Assumptions, stated once:
// - global: one record's `requests` are L1TEX t-stage requests and `sectors` its t-stage sectors;
//   the SASS-metric totals smsp__sass_sectors_mem_global(_ideal) cover every global op (ld, st,
//   atom, red), as the CUPTI SASS metric does.
// - local: filed under the _mem_local_ names (hardware keeps them apart from global); not added
//   to smsp__sass_sectors_mem_global.
// - shared: two truths. smsp__sass_*wavefronts* sum the records' wavefronts (the source view);
//   l1tex__data_* sum wavefrontsHw (the hardware rule) and bank conflicts = wavefrontsHw −
//   conflict-free wavefronts (SharedModel.h). The hardware counter
//   l1tex__data_bank_conflicts_* also counts arbitration with other L1 traffic; a prediction
//   cannot, so it is the conflict-free lower bound of that counter.
// - atomics/reductions: their own _op_atom / _op_red names, emitted only when such records exist.
/// A generic-address opcode (LD, ST, ATOM, RED): the SASS op counters file it as generic even when
/// its lanes reach shared memory (H100: clusterSegmentSum's LD.E of a block's own shared memory
/// through cluster.map_shared_rank has its wavefronts in the shared totals but is not in
/// smsp__sass_inst_executed_op_shared_ld).
static bool genericOpcode(const std::string &sass) {
  std::size_t b = sass.find_first_not_of(' ');
  if (b != std::string::npos && sass[b] == '@') b = sass.find(' ', b), b = b == std::string::npos ? b : sass.find_first_not_of(' ', b);
  if (b == std::string::npos) return false;
  std::size_t e = sass.find_first_of(". ;", b);
  const std::string base = sass.substr(b, e == std::string::npos ? std::string::npos : e - b);
  return base == "LD" || base == "ST" || base == "ATOM" || base == "RED";
}

std::map<std::string, double> totalsFromInstructions(
    const std::vector<launch::InstructionRecord> &instructions) {
  std::map<std::string, double> m;
  // The core set is always present (zeros included) so a comparison sees e.g. a kernel the
  // model thinks has no shared stores.
  for (const char *op : {"ld", "st"}) {
    const std::string o = op;
    m["l1tex__t_requests_pipe_lsu_mem_global_op_" + o + ".sum"] = 0;
    m["l1tex__t_sectors_pipe_lsu_mem_global_op_" + o + ".sum"] = 0;
    m["smsp__sass_inst_executed_op_global_" + o + ".sum"] = 0;
    m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + o + ".sum"] = 0;
    m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + o + ".sum"] = 0;
    m["smsp__sass_inst_executed_op_shared_" + o + ".sum"] = 0;
  }
  m["smsp__sass_sectors_mem_global.sum"] = 0;
  m["smsp__sass_sectors_mem_global_ideal.sum"] = 0;
  m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"] = 0;
  m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum"] = 0;

  for (const auto &r : instructions) {
    const std::string o = opSuffix(r.op);
    const double exec = static_cast<double>(r.executed);
    if (r.space == "global" || r.space == "local") {
      const std::string sp = r.space;
      m["l1tex__t_requests_pipe_lsu_mem_" + sp + "_op_" + o + ".sum"] += r.requests;
      m["l1tex__t_sectors_pipe_lsu_mem_" + sp + "_op_" + o + ".sum"] += r.sectors;
      m["smsp__sass_inst_executed_op_" + sp + "_" + o + ".sum"] += exec;
      if (sp == "global") {
        m["smsp__sass_sectors_mem_global.sum"] += r.sectors;
        m["smsp__sass_sectors_mem_global_ideal.sum"] += r.sectorsIdeal;
        // LDGSTS: a global read whose shared write has wavefronts; the SASS metric counts them.
        m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"] += r.wavefronts;
        m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum"] += r.wavefrontsIdeal;
      }
    } else if (r.space == "shared" && r.sass.find("HGMMA") != std::string::npos) {
      // Warpgroup MMA operand reads (H100): in the SASS metrics, not in the LSU hardware counters.
      m["smsp__sass_inst_executed_op_shared_" + o + ".sum"] += exec;
      m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"] += r.wavefronts;
      m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum"] += r.wavefrontsIdeal;
    } else if (r.space == "shared") {
      // Two truths (arch/CALIBRATION.md): the l1tex__ hardware counters follow the hardware
      // rule (wavefrontsHw), the smsp__sass_ source-view metrics the record's wavefronts.
      const std::uint64_t hw = launch::hardwareWavefronts(r);
      m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + o + ".sum"] += hw;
      // The hardware counter's baseline is the conflict-free wavefronts (SharedModel.h); it
      // differs from the SASS ideal for packed 64/128-bit loads with conflicts (sm_90 measured).
      const std::uint64_t base =
          r.wavefrontsConflictFree ? r.wavefrontsConflictFree : r.wavefrontsIdeal;
      const double conflicts = hw > base ? static_cast<double>(hw - base) : 0.0;
      m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + o + ".sum"] += conflicts;
      if (!genericOpcode(r.sass)) m["smsp__sass_inst_executed_op_shared_" + o + ".sum"] += exec;
      m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"] += r.wavefronts;
      m["smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum"] += r.wavefrontsIdeal;
    }
    // Other spaces (param, const, generic without resolution) carry no modelled cost.
  }
  return m;
}

const std::vector<std::pair<std::string, std::string>> &metricCatalog() {
  static const std::vector<std::pair<std::string, std::string>> catalog = {
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
       "global load requests (one per warp-level LDG with an active lane)"},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "global store requests"},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "global atomic requests (if any)"},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "global reduction requests (if any)"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
       "32-byte sectors touched by global loads (distinct per request)"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "32-byte sectors touched by global stores"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "sectors touched by global atomics"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "sectors touched by global reductions"},
      {"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "local (spill) load requests (if any)"},
      {"l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", "local (spill) store requests (if any)"},
      {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "sectors touched by local loads"},
      {"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", "sectors touched by local stores"},
      {"smsp__sass_sectors_mem_global.sum",
       "SASS metric: global sectors of all ops (exact target of the model)"},
      {"smsp__sass_sectors_mem_global_ideal.sum",
       "SASS metric: sectors a perfectly coalesced access of the same bytes would need"},
      {"smsp__sass_inst_executed_op_global_ld.sum", "warp-level global load instructions executed"},
      {"smsp__sass_inst_executed_op_global_st.sum", "warp-level global store instructions executed"},
      {"smsp__sass_inst_executed_op_global_atom.sum", "warp-level global atomics executed"},
      {"smsp__sass_inst_executed_op_global_red.sum", "warp-level global reductions executed"},
      {"smsp__sass_inst_executed_op_local_ld.sum", "warp-level local loads executed"},
      {"smsp__sass_inst_executed_op_local_st.sum", "warp-level local stores executed"},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
       "shared load wavefronts (passes through the 32 banks)"},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared store wavefronts"},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", "shared atomic wavefronts"},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
       "shared load bank conflicts = wavefronts - ideal (hardware adds arbitration noise)"},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
       "shared store bank conflicts = wavefronts - ideal"},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
       "shared atomic bank conflicts = wavefronts - ideal"},
      {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum",
       "SASS metric: shared wavefronts of all ops (exact target of the model)"},
      {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum",
       "SASS metric: wavefronts without bank conflicts for the same accesses"},
      {"smsp__sass_inst_executed_op_shared_ld.sum", "warp-level shared load instructions executed"},
      {"smsp__sass_inst_executed_op_shared_st.sum", "warp-level shared store instructions executed"},
      {"smsp__sass_inst_executed_op_shared_atom.sum", "warp-level shared atomics executed"},
  };
  return catalog;
}

} // namespace warplens::analysis
