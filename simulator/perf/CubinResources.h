/// \file
/// Per-kernel resources read from a cubin (ELF): registers per thread (EIATTR_REGCOUNT in the
/// `.nv.info` section, as cuobjdump -res-usage reports) and static shared memory (the size of
/// `.nv.shared.<kernel>`, which on sm_90 includes the 1 KiB system reserve; cuobjdump's SHARED).
/// Does not read local memory, barriers or max-threads hints.
#pragma once

#include "util/Expected.h"

#include <map>
#include <string>

namespace warplens::perf {

struct KernelResources {
  unsigned registersPerThread = 0;
  unsigned staticSharedBytes = 0;
};

/// Every kernel (mangled name) of the cubin at `path`. Errors name the file and what is wrong.
Expected<std::map<std::string, KernelResources>> readCubinResources(const std::string &path);
/// Same, from the bytes of a cubin (`where` names it in errors).
Expected<std::map<std::string, KernelResources>> parseCubinResources(const std::string &bytes,
                                                                    const std::string &where);

} // namespace warplens::perf
