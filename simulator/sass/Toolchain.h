/// \file
/// Runs the CUDA toolchain for a .cu input: nvcc → .ptx and .cubin (-lineinfo), cuobjdump/nvdisasm
/// → SASS listing. Results are cached by content hash. Missing tools are reported, not fatal:
/// a missing disassembler leaves `sassPath` empty and a note saying predictions are PTX-level.
#pragma once

#include "util/Expected.h"

#include <string>
#include <vector>

namespace warplens::sass {

struct CompileOutput {
  std::string ptxPath;
  std::string cubinPath;            ///< empty when only PTX was given
  std::string sassPath;             ///< SASS listing text file; empty when unavailable
  std::string sassTool;             ///< "cuobjdump 13.2" ...
  std::vector<std::string> notes;   ///< e.g. "nvdisasm not found: SASS grouping off"
};

struct ToolchainOptions {
  std::string arch = "sm_90";
  std::vector<std::string> nvccFlags;
  std::string cacheDir;             ///< default: $WARPLENS_CACHE or ~/.cache/warplens
};

/// .cu → ptx + cubin + SASS listing; .ptx → ptx (+ cubin/SASS via ptxas when available).
Expected<CompileOutput> compile(const std::string &sourcePath, const ToolchainOptions &options);

/// Path of a CUDA tool (nvcc, ptxas, cuobjdump, nvdisasm) or empty: looks at $PATH,
/// /usr/local/cuda/bin and the project's .tools/cuda/bin.
std::string findTool(const std::string &name);

} // namespace warplens::sass
