/// \file
/// Static description of one memory-instruction site (a PTX instruction, or a SASS instruction
/// after grouping): what the per-site statistics are reported against.
#pragma once

#include "model/AccessEvent.h"

#include <cstdint>
#include <optional>
#include <string>

namespace warplens::model {

struct SiteInfo {
  std::uint32_t site = 0;      ///< the id carried by AccessEvent::site
  int ptxLine = -1;            ///< 1-based line in the .ptx file
  std::string ptxText;         ///< "ld.shared.f32 %f1, [%r5];"
  std::string sourceFile;      ///< from .loc/.file, empty if none
  int sourceLine = -1;
  Space space = Space::Global; ///< the declared space (Generic resolved per event)
  Op op = Op::Load;
  unsigned widthBytes = 4;     ///< per-lane bytes, vector included (ld.v4.f32 → 16)
  std::optional<std::uint64_t> sassPc; ///< set once grouped into a SASS instruction
  std::string sassText;
};

} // namespace warplens::model
