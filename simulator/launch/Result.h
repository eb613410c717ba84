/// \file
/// The result schema shared by predictions and measurements (SPEC "Result JSON"): per launch,
/// kernel totals under Nsight Compute metric names and one record per memory instruction.
#pragma once

#include "util/Expected.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplens::launch {

struct InstructionRecord {
  std::optional<std::uint64_t> sassPc; ///< byte offset in the function, where known
  std::string sass;                     ///< SASS text where known ("LDS.128 R4, [R2]")
  int ptxLine = -1;                     ///< line in the .ptx, -1 if unknown
  std::string ptx;                      ///< PTX text of the (first) instruction
  std::string sourceFile;
  int sourceLine = -1;
  std::string space; ///< global | shared | local | ...
  std::string op;    ///< ld | st | atom | red
  unsigned widthBytes = 0;
  std::uint64_t executed = 0;
  std::uint64_t threads = 0;
  /// Executions with every lane predicated off (InstructionStats::idle); not in the JSON: the
  /// time model's L1 data-path count only.
  std::uint64_t idle = 0;
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;
  std::uint64_t sectorsIdeal = 0;
  std::uint64_t wavefronts = 0;
  std::uint64_t wavefrontsIdeal = 0;
  /// Wavefronts without bank conflicts (model: phases with an active lane); the hardware counter
  /// l1tex__data_bank_conflicts counts wavefronts − this. 0 = unknown (use wavefrontsIdeal).
  /// JSON "wavefronts_conflict_free", written only where it differs from wavefronts_ideal.
  std::uint64_t wavefrontsConflictFree = 0;
  /// The L1 hardware counter's wavefronts (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*)
  /// where its rule differs from the source view's (`wavefronts`, the SASS metric); 0 = the same
  /// as `wavefronts`. JSON "wavefronts_hw" and "bank_conflicts_hw" (= wavefronts_hw −
  /// wavefronts_conflict_free), written only where they differ (arch/CALIBRATION.md).
  std::uint64_t wavefrontsHw = 0;
  std::uint32_t conflictWaysMax = 0;
  /// Shared by every SASS instruction that ptxas made as a copy of the same PTX access(es)
  /// (unrolled loops: main body + remainder tails). Per-copy counts of a prediction are then
  /// approximate; the sum over the group is exact. Empty for instructions with no copies.
  std::optional<std::uint32_t> copyGroup;
};

struct LaunchResult {
  std::string name;
  std::string kernel;
  std::array<std::uint32_t, 3> grid{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
  std::string arch;
  std::string device;                   ///< measured only
  std::string sassSource;               ///< "cuobjdump 13.0", "none (PTX-level)" ...
  std::string engine;                   ///< "sass" (the cubin's SASS executed) or "ptx" (PTX emulated)
  std::string mode;                     ///< SASS engine: "full" or "address-only" (values not computed)
  std::map<std::string, double> metrics; ///< ncu metric name → value
  std::vector<InstructionRecord> instructions;
  std::optional<bool> checkPassed;      ///< functional check, where one ran
  std::string checkDetail;
  std::vector<std::string> notes;       ///< caveats shown to the user
  /// Why the launch could not be analyzed (suite isolation: the other launches keep their
  /// results); empty when it was. JSON "error".
  std::string error;
  /// Time section (JSON "time"): predicted duration terms and limiter (perf/TimeModel.h) or the
  /// measured duration samples (probe); null when absent. Durations in ns.
  nlohmann::json time;
  /// Sampling (JSON "sampling", null when every block ran): {"blocks": run, "of": grid blocks,
  /// "confidence": 0.95, "ci95": [{"sass_pc", "executed", "requests", "sectors", "wavefronts"}]}:
  /// the counts are extrapolated estimates, each ± its 95% half-width.
  nlohmann::json sampling;
};

/// The hardware counter's wavefronts of a record (wavefrontsHw, else wavefronts).
inline std::uint64_t hardwareWavefronts(const InstructionRecord &r) {
  return r.wavefrontsHw ? r.wavefrontsHw : r.wavefronts;
}
nlohmann::json toJson(const InstructionRecord &r);
nlohmann::json toJson(const LaunchResult &r);
nlohmann::json toJson(const std::vector<LaunchResult> &results); ///< {"launches": [...]}
Expected<LaunchResult> launchResultFromJson(const nlohmann::json &j, const std::string &where);
/// Parses {"launches": [...]} or one launch object; `file` prefixes messages.
Expected<std::vector<LaunchResult>> resultsFromJson(const nlohmann::json &j,
                                                    const std::string &file);
/// Reads {"launches": [...]} (or a single launch object) from a file.
Expected<std::vector<LaunchResult>> loadResults(const std::string &path);

} // namespace warplens::launch
