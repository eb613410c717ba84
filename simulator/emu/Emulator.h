/// \file
/// The warp emulator's entry point: runs one kernel launch of a parsed PTX module over host
/// buffers, SIMT per warp, and emits an AccessEvent per warp-level memory instruction.
/// Does not model timing, caches or warp scheduling order beyond what barriers require.
#pragma once

#include "launch/LaunchSpec.h"
#include "model/AccessEvent.h"
#include "model/Site.h"
#include "util/Expected.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace warplens::ptx {
struct Module;
}

namespace warplens::emu {

struct EmuOptions {
  unsigned threads = 0;                        ///< worker threads; 0 = hardware concurrency
  std::uint64_t instructionBudget = 20'000'000'000ull; ///< thread-instructions executed, whole launch (SASS engine: replicas are not executed)
  /// SASS engine: skip what no address, guard or branch depends on (sassemu/Slice.h). Counts are
  /// those of full execution; buffers do not hold the kernel's results.
  bool addressOnly = false;
  /// SASS engine: run only this many blocks, one per equal stratum of the linear block index
  /// (0 = every block). The caller extrapolates (analysis/Pipeline.cpp: sampling).
  std::uint64_t sampleBlocks = 0;
  /// SASS engine, address-only runs: block symmetry may make blocks replicas of a proven one
  /// (sassemu/Symmetry.h). False runs every block (as WARPLENS_SASS_REPLICATE=0 does).
  bool replicate = true;
};

inline constexpr std::uint64_t kMaxBlockWork = std::uint64_t(1) << 22;
/// Session 12: per-block warp-group counts (RunStats::blockGroupWarpInstr) up to this many blocks
/// (32 MB), the block schedule's limit (analysis/BlockSchedule.h).
inline constexpr std::uint64_t kMaxBlockGroups = std::uint64_t(1) << 20;
/// Warp groups of a block: warps i with i mod kWarpGroups = g run on one SM sub-partition.
inline constexpr std::uint32_t kWarpGroups = 4;
/// Session 10: block 0's warp-level trace is kept up to this many warp instructions (16 MB).
inline constexpr std::uint64_t kMaxBlockTrace = std::uint64_t(1) << 22;

struct RunStats {
  std::uint64_t warpInstructions = 0;
  /// SASS engine: warp instructions executed per instruction, indexed by pc / 16 (replicas
  /// included; sampled launches: of the sampled blocks). Empty for the PTX emulator.
  std::vector<std::uint64_t> warpInstrPerPc;
  /// SASS engine, grids run whole (not sampled, no clusters) of up to kMaxBlockWork blocks: warp
  /// instructions executed per block (linear id). Empty otherwise.
  std::vector<std::uint32_t> blockWarpInstr;
  std::vector<std::uint32_t> blockLongestWarp; ///< same: the block's longest warp's instructions
  /// Session 12: the same per warp group (warps i with i mod kWarpGroups = g, which share an SM
  /// sub-partition), kWarpGroups per block (block b's group g at b x kWarpGroups + g), for grids
  /// of up to kMaxBlockGroups blocks; else empty.
  std::vector<std::uint32_t> blockGroupWarpInstr;
  std::vector<std::uint32_t> blockGroupLongestWarp; ///< same: the group's longest warp
  /// SASS engine, session 10: per warp of block 0, the code indices (pc / 16) it executed in
  /// order, for the SM trace simulation (analysis/TraceSim.h). Empty when block 0 was not run
  /// (sampling, clusters) or ran over kMaxBlockTrace warp instructions.
  std::vector<std::vector<std::uint32_t>> blockTrace;
  std::uint64_t threadInstructions = 0;
  std::uint64_t skippedThreadInstructions = 0; ///< of them, skipped by address-only mode
  bool addressOnly = false;                    ///< the run used address-only mode
  std::uint64_t replicatedBlocks = 0;          ///< blocks not run: replicas of a proven block (sassemu/Symmetry.h)
  std::string symmetryRuleError;               ///< a proof rule disagreed with the engine (a bug; "" = none)
  std::vector<std::uint64_t> sampledBlocks;    ///< the blocks run when sampling (linear ids), else empty
  std::vector<std::uint32_t> sampledStratum;   ///< per sampled block: 0 grid edge, 1 interior
  std::uint64_t strataSize[2] = {0, 0};        ///< blocks of the grid in each stratum
  double seconds = 0;
};

/// Creates one listener per worker thread. Each worker's listener sees the events of the warps
/// that worker ran, each warp's events in program order. The caller merges them afterwards.
using ListenerFactory = std::function<std::unique_ptr<model::AccessListener>()>;

struct LaunchRun {
  std::vector<model::SiteInfo> sites;  ///< every memory instruction of the kernel (and callees)
  std::vector<std::unique_ptr<model::AccessListener>> listeners; ///< one per worker used
  RunStats stats;
  std::string kernelMangled;           ///< the .entry name that was run
};

/// Runs `spec` (grid, block, args, dynamic shared) on `module`. `buffers` come from
/// launch::makeBuffers(spec) and hold the results afterwards. Errors: unknown kernel (names the
/// candidates), argument mismatch, out-of-bounds access (kind, address, buffer, thread, block,
/// PTX and source line), budget exhausted, unsupported instruction.
Expected<LaunchRun> runLaunch(const ptx::Module &module, const launch::LaunchSpec &spec,
                              std::vector<launch::HostBuffer> &buffers,
                              const ListenerFactory &makeListener, const EmuOptions &options = {});

} // namespace warplens::emu
