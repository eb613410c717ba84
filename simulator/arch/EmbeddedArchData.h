/// \file
/// The architecture data files (simulator/arch/data/*.json) compiled into the binary by
/// ArchData.cmake; internal to the arch module (use loadArch / listArches).
#pragma once

#include <cstddef>

namespace warplens::arch::detail {

struct EmbeddedArchFile {
  const char *fileName; ///< "sm_90.json"
  const char *text;     ///< the file's JSON text
};

extern const EmbeddedArchFile kEmbeddedArchFiles[];
extern const std::size_t kEmbeddedArchFileCount;

} // namespace warplens::arch::detail
