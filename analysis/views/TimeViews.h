/// \file
/// Text of the time section of a result (predicted duration, limiter, bandwidth, occupancy, the
/// limiter terms; or the measured samples) and of what a shared-memory conflict or extra sectors
/// cost in time at a device's fitted rates.
#pragma once

#include "launch/Result.h"

#include <string>

namespace warplens::analysis {

/// "   time:   predicted 12.30 us on h100_sxm, limited by dram ..." lines; "" without a time section.
std::string renderTimeText(const launch::LaunchResult &r, const std::string &indent = "   ");

/// What `wavefronts` shared wavefronts cost one SM at `device`'s fitted rate, and the
/// conflict-free count would, as one sentence; "" when the device cannot be loaded.
std::string conflictCostText(double wavefronts, double idealWavefronts, const std::string &device);
/// Same for `sectors` global sectors: bytes through L2 (and DRAM when cold) at the fitted rates.
std::string sectorCostText(double sectors, double idealSectors, const std::string &device);

} // namespace warplens::analysis
