/// \file
/// Adds the time model's prediction (perf/TimeModel.h) to an analyzed launch: registers and
/// static shared memory from the cubin, the instruction mix estimated from the emulator's warp
/// instruction count and the SASS listing's FMA-pipe share, DRAM bytes from the DRAM model.
/// Writes metrics gpu__time_duration.sum and dram__bytes.sum.per_second and the "time" section.
#pragma once

#include "analysis/Pipeline.h"
#include "launch/LaunchSpec.h"
#include "launch/Result.h"
#include "perf/TimeModel.h"

#include <cstdint>

namespace warplens::model {
class DramSectorModel;
}

namespace warplens::analysis {

/// Never fails the analysis: what cannot be predicted becomes a note on the result.
void addTimePrediction(const launch::LaunchSpec &spec, const AnalyzeOptions &options,
                       std::uint64_t emulatedWarpInstructions, const model::DramSectorModel &dram,
                       launch::LaunchResult &result);

/// The time model's inputs from a result's metrics (predicted or measured: the same ncu names)
/// and the shape; l2 read sectors fall back to global load sectors where not measured.
perf::MemoryCounts memoryCountsFromMetrics(const std::map<std::string, double> &metrics);

} // namespace warplens::analysis
