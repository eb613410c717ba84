/// \file
/// One GPU's data for the time model, loaded from simulator/arch/data/devices/<name>.json
/// (embedded at build time): SM count, clock, occupancy limits, and the coefficients fitted by
/// `warplens fit` (perf/TimeFit.h) with their provenance. Chosen with `--device`.
#pragma once

#include "util/Expected.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace warplens::perf {

/// The fitted coefficients (all >= 0). Each limiter's time is its feature (TimeModel.h) times its
/// coefficient; the duration is launchNs + the largest limiter time.
struct Coefficients {
  double launchNs = 0;        ///< fixed cost of a launch (ns)
  double fillNs = 0;          ///< added when the launch loads from global memory: the first
                              ///< round trip that no limiter overlaps (pipeline fill and drain)
  double blockNs = 0;         ///< per block launched on the busiest SM (ns)
  double dramNsPerByte = 0;   ///< 1 / DRAM bandwidth (ns per byte read or written)
  double l2NsPerByte = 0;     ///< 1 / L2 bandwidth
  double dramRefetchNsPerByte = 0; ///< per DRAM byte re-fetched after L2 eviction (session 8)
  double l2NsPerLine = 0;     ///< per L1 → L2 load request line (session 8)
  double storeNsPerSector = 0; ///< per global store sector written into L2 (partial or whole)
  double lsuCyclesPerWavefront = 0; ///< L1/shared data-path cycles per wavefront, per SM
  double latencyNsPerRequest = 0;   ///< exposed DRAM latency per dependent load round of one warp
  double latencyL2Ns = 0;           ///< same when the round's loads hit L2
  double latencyL1Ns = 0;           ///< same when they hit L1
  double roundNs = 0;               ///< fixed cost per round of resident blocks (latency limiter)
  double storeNsPerLine = 0;        ///< per L1 → L2 store transaction (128-byte line of a request)
  double barrierNsPerByte = 0;      ///< per DRAM byte read in barrier-phased load rounds (latency limiter)
  double barrierLsuCycles = 0;      ///< per wavefront of a barrier-phased block, on its critical path
  double barrierIssueCycles = 0;    ///< per warp instruction of a barrier-phased block, same
  double latencyRegionNs = 0;       ///< per DRAM load round and doubling of its 1 KiB regions
  double writeLoadedLatencyNs = 0;  ///< the same per U x write share of the DRAM bytes
  double loadedLatencyNs = 0;       ///< per DRAM load round x U / (1 - U), U = DRAM bytes /
                                    ///< (duration x datasheet peak): queueing in the memory system
  double shuffleCycles = 0;         ///< SM cycles per warp shuffle (MIO, beside the wavefronts)
  double atomicNsPerRequest = 0;    ///< per global atomic line request (throughput)
  double atomicStepNs = 0;          ///< per serial step on the busiest atomic line
  double atomicOpNs = 0;            ///< per lane operation on the busiest atomic line
  double atomicLineNs = 0;          ///< per extra line of a request on the busiest atomic unit
  double atomicSectorNs = 0;        ///< per sector pass on the busiest atomic unit (session 7)
  double warpLaunchNs = 0;          ///< per warp of a block per wave of resident blocks (session 7)
  double atomicIntStepNs = 0;       ///< per chained step of an integer atomic on the busiest unit (session 7)
  double barrierWaveNs = 0;         ///< per barrier per warp per round of resident blocks (session 7)
  double atomicTailStepNs = 0;      ///< per float step at a warp's end on the busiest line, on the
                                    ///< loads' critical path (latency limiter; session 16)
  double computeScale = 0;          ///< per cycle of the issue simulation (session 8; 1: the opcode
                                    ///< table of analysis/OpcodeTiming.cpp is right)
};

struct DeviceSpec {
  std::string name;        ///< "h100_sxm"
  std::string description; ///< "NVIDIA H100 80GB HBM3 (SXM5)"
  std::string arch;        ///< "sm_90"
  unsigned sms = 0;
  double smClockHz = 0;    ///< as it ran under the probe (sm__cycles_elapsed.avg.per_second)
  double dramPeakBytesPerSecond = 0; ///< datasheet: the "% of peak" column and the DRAM utilisation
  /// Session 21: the L2 bytes a launch's reads can reuse, as the L2 capacity rule of
  /// model/DramSectorModel.h counts them (distinct 128-byte lines, fully associative LRU): uniform
  /// random gathers from 8 to 128 MiB tables (kernels/timing/l2_study.json) fit 30 MiB on the H100
  /// and 35 MiB on the H200, not the 50 MB of the whitepaper. 0: the arch's l2Bytes.
  double l2ReuseBytes = 0;
                                     ///< of the loaded-latency term
  unsigned subPartitions = 4;
  unsigned maxWarpsPerSm = 64;
  unsigned maxBlocksPerSm = 32;
  unsigned maxThreadsPerBlock = 1024;
  unsigned registersPerSm = 65536;
  unsigned registerAllocUnit = 256;   ///< registers per warp are allocated in these units
  unsigned sharedBytesPerSm = 233472;
  unsigned sharedAllocUnit = 128;
  unsigned sharedReservedPerBlock = 1024; ///< added when the cubin has no .nv.shared section
  /// How limiters overlap: 0 = the largest wins outright; p > 0 = their p-norm (limiters of
  /// comparable size add partly). Chosen on the fit set (CALIBRATION.md), not fitted by NNLS.
  double overlapP = 0;
  /// Session 9: the norm of the latency term with the warps' own work (combineTerms' q); 0 = overlapP.
  double overlapLatencyP = 0;
  Coefficients coef;
  std::string fitted;      ///< where the coefficients come from (fit command, data, date)
  std::string source;      ///< citations for the hardware fields
  nlohmann::json fit;      ///< the fit's record (residuals, launches), kept as written
};

/// Built-in device by name ("h100_sxm", "h200"), or a path ending in ".json".
Expected<DeviceSpec> loadDevice(std::string_view nameOrPath);
Expected<DeviceSpec> parseDevice(const nlohmann::json &j, const std::string &where);
nlohmann::json toJson(const DeviceSpec &d);
std::vector<std::string> listDevices();
/// The default device of an architecture ("sm_90" → "h100_sxm"), or "" when none.
std::string defaultDeviceFor(std::string_view arch);

} // namespace warplens::perf
