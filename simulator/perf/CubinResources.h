/// \file
/// Per-kernel resources read from a cubin (ELF): registers per thread (EIATTR_REGCOUNT in the
/// `.nv.info` section, as cuobjdump -res-usage reports) and static shared memory (the size of
/// `.nv.shared.<kernel>`, which on sm_90 includes the 1 KiB system reserve; cuobjdump's SHARED).
/// Also the stall counts of the kernel's instructions. Does not read local memory, barriers or
/// max-threads hints.
#pragma once

#include "util/Expected.h"

#include <cstdint>
#include <map>
#include <vector>
#include <string>

namespace warplens::perf {

struct KernelResources {
  unsigned registersPerThread = 0;
  unsigned staticSharedBytes = 0;
  /// Session 8: per instruction (index pc / 16 of `.text.<kernel>`), the stall count of its
  /// control bits (bits 105-108 of the 128-bit sm_70+ encoding): the cycles the compiler makes the
  /// warp wait before its next instruction (fixed-latency dependencies, branch resolution).
  std::vector<std::uint8_t> stalls;
};

/// Every kernel (mangled name) of the cubin at `path`. Errors name the file and what is wrong.
Expected<std::map<std::string, KernelResources>> readCubinResources(const std::string &path);
/// Same, from the bytes of a cubin (`where` names it in errors).
Expected<std::map<std::string, KernelResources>> parseCubinResources(const std::string &bytes,
                                                                    const std::string &where);

} // namespace warplens::perf
