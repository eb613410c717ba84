/// \file
/// Reader of the facts the SASS engine needs from an sm_90 cubin (ELF64): per kernel the kernel
/// parameters' constant-bank offsets and sizes, static shared bytes, register count, frame/stack
/// size; module constant banks (__constant__ data) and __device__ variables with the relocations
/// that place their addresses in constant bank 4. Does not read code: the engine executes the
/// nvdisasm listing of the same cubin.
#pragma once

#include "util/Expected.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warplens::sassemu {

struct KernelParam {
  std::uint32_t ordinal = 0;
  std::uint32_t offset = 0; ///< from the start of the parameter area (c[0x0][0x210] on sm_90)
  std::uint32_t size = 0;
};

struct CubinKernel {
  std::string name;
  std::vector<KernelParam> params;       ///< sorted by ordinal
  std::uint32_t paramBase = 0x210;       ///< c[0x0] offset of the first parameter
  std::uint32_t paramBytes = 0;
  std::uint32_t sharedBytes = 0;         ///< static shared, the 1 KiB reserved window included
  std::uint32_t registers = 0;
  std::uint32_t frameBytes = 0;          ///< per-thread local frame (spills, local arrays)
  std::uint32_t stackBytes = 0;          ///< min stack size (callee frames included)
  std::uint64_t codeBytes = 0;
  std::array<std::uint32_t, 3> clusterDim{0, 0, 0}; ///< __cluster_dims__ (EIATTR_CTA_PER_CLUSTER), 0 if none
};

/// A module-scope variable in global memory (__device__), with its initial bytes.
struct CubinGlobal {
  std::string name;
  std::vector<std::uint8_t> bytes;
};

/// One 64-bit slot of a constant bank that the loader fills with a variable's address.
struct CubinAddressSlot {
  std::uint32_t bank = 0;
  std::uint32_t offset = 0;
  std::string symbol;
  std::int64_t addend = 0;
  bool lo32 = false, hi32 = false;       ///< 32-bit halves instead of the whole address
};

struct Cubin {
  std::map<std::string, CubinKernel> kernels;
  std::map<std::uint32_t, std::vector<std::uint8_t>> banks; ///< bank number → bytes (2, 3, 4, ...)
  std::vector<CubinGlobal> globals;
  std::vector<CubinAddressSlot> addressSlots;
};

Expected<Cubin> parseCubin(const std::vector<std::uint8_t> &bytes, const std::string &where);
Expected<Cubin> readCubin(const std::string &path);

} // namespace warplens::sassemu
