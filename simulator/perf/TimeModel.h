/// \file
/// Time model of one launch: gpu__time_duration.sum predicted as launch overhead + the largest of
/// nine limiter times (DRAM bytes, L2 bytes, L2 store sectors, L1/shared wavefronts, issue, FMA pipe,
/// other (ALU) pipes, exposed latency with too few warps in flight, block launches), each a count
/// times a fitted coefficient (DeviceSpec). Does not model overlap between limiters (the largest wins outright), L1 hit
/// rates (L2 traffic = sectors requested by L1 unless measured), clock changes during a kernel,
/// atomics, tensor cores, FP64 or special-function pipes.
#pragma once

#include "perf/DeviceSpec.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace warplens::perf {

/// Per launch, whole grid. Until the SASS engine fills it from the executed instructions, the
/// pipeline estimates it (source says how).
struct InstructionMix {
  double warpInstructions = 0;    ///< issued warp instructions (smsp__inst_executed.sum)
  double fmaPipeInstructions = 0; ///< FMA-pipe warp instructions (smsp__inst_executed_pipe_fma.sum)
  std::string source;             ///< "measured", "estimated: ...", "sass engine"
};

/// Memory counts of the launch, whole grid (warp-level requests, 32-byte sectors, wavefronts).
struct MemoryCounts {
  double globalLoadRequests = 0, globalStoreRequests = 0;
  double globalLoadSectors = 0, globalStoreSectors = 0;
  double sharedWavefronts = 0;  ///< loads + stores
  double l2ReadSectors = 0;     ///< L1 → L2 read sectors (lts__t_sectors_srcunit_tex_op_read)
  double dramReadBytes = 0, dramWriteBytes = 0;
};

struct LaunchShape {
  std::array<std::uint32_t, 3> grid{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
  unsigned registersPerThread = 0;
  unsigned staticSharedBytes = 0;  ///< as in the cubin (.nv.shared.<kernel>, reserve included)
  unsigned dynamicSharedBytes = 0;
};

struct TimeInputs {
  LaunchShape shape;
  MemoryCounts mem;
  InstructionMix mix;
};

struct Occupancy {
  unsigned warpsPerBlock = 0;
  unsigned blocksPerSm = 0;   ///< resident blocks per SM (0: the block does not fit)
  std::string limitedBy;      ///< warps | blocks | registers | shared
  double waves = 0;           ///< blocks / (blocksPerSm x SMs)
};

/// Each limiter's feature: time (ns) = feature x its coefficient.
struct Features {
  double dramBytes = 0;         ///< × dramNsPerByte
  double l2Bytes = 0;           ///< × l2NsPerByte
  double storeSectors = 0;      ///< global store sectors (L1 → L2 writes) × storeNsPerSector
  double lsuWavefrontNs = 0;    ///< busiest SM's wavefronts / clock (ns per cycle) × lsuCyclesPerWavefront
  double issueInstNs = 0;       ///< busiest sub-partition's warp instructions / clock
  double fmaInstNs = 0;         ///< same for FMA-pipe instructions
  double aluInstNs = 0;         ///< same for the other instructions (ALU, LSU, branch ...)
  double latencyRequests = 0;   ///< global load requests per warp × rounds of resident warps
  double blocksOnBusiestSm = 0; ///< × blockNs
  Occupancy occupancy;
};

inline constexpr const char *kLimiters[] = {"dram", "l2",      "l2 stores", "l1/shared", "issue",
                                            "fma",  "alu",     "latency",   "blocks"};
constexpr std::size_t kLimiterCount = 9;

struct TimePrediction {
  double durationNs = 0;
  double launchNs = 0;                       ///< fixed launch overhead
  std::array<double, kLimiterCount> termsNs{}; ///< per limiter, kLimiters order
  std::string limiter;                       ///< the largest term's name, or "launch"
  double dramBytes = 0;
  double dramBytesPerSecond = 0;             ///< dramBytes / duration
  Occupancy occupancy;
};

Occupancy occupancy(const LaunchShape &shape, const DeviceSpec &device);
Features features(const TimeInputs &in, const DeviceSpec &device);
/// The limiter times of `f` under `c` (kLimiters order).
std::array<double, kLimiterCount> limiterTerms(const Features &f, const Coefficients &c);
TimePrediction predict(const Features &f, const DeviceSpec &device);
TimePrediction predict(const TimeInputs &in, const DeviceSpec &device);
nlohmann::json toJson(const TimePrediction &p, const DeviceSpec &device);

} // namespace warplens::perf
