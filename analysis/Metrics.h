/// \file
/// Kernel totals under Nsight Compute metric names, computed from per-instruction records
/// (the predicted side; the probe fills the same names from hardware).
#pragma once

#include "launch/Result.h"

#include <map>
#include <string>
#include <vector>

namespace warplens::analysis {

/// e.g. l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum, smsp__sass_sectors_mem_global_ideal.sum,
/// l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum, smsp__sass_inst_executed_op_shared_ld.sum
std::map<std::string, double> totalsFromInstructions(
    const std::vector<launch::InstructionRecord> &instructions);

/// The metric names totalsFromInstructions produces, with one-line descriptions (for --help/docs).
const std::vector<std::pair<std::string, std::string>> &metricCatalog();

} // namespace warplens::analysis
