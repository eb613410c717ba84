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
  bool cached = false;              ///< outputs came from the cache, nothing was run
};

struct ToolchainOptions {
  std::string arch = "sm_90";
  std::vector<std::string> nvccFlags;
  std::string cacheDir;             ///< default: $WARPLENS_CACHE or ~/.cache/warplens
  /// When non-empty, tools are looked up only in these folders (tests; reproducible runs).
  std::vector<std::string> toolSearchPath;
};

/// .cu → ptx + cubin + SASS listing; .ptx → ptx (+ cubin/SASS via ptxas when available).
/// The SASS listing comes from `nvdisasm -gi -c` (pc offsets and source lines) or, without
/// nvdisasm, `cuobjdump -sass` (pc offsets only). Cache key: the source bytes, the bytes of the
/// files it includes with `#include "..."` (found next to it or via -I flags, recursively),
/// arch, flags, and the identity (path, size, mtime) of each tool. <...> includes are not keyed.
Expected<CompileOutput> compile(const std::string &sourcePath, const ToolchainOptions &options);

/// Path of a CUDA tool (nvcc, ptxas, cuobjdump, nvdisasm) or empty: looks at $PATH,
/// $WARPLENS_CUDA_TOOLS, $CUDA_HOME/bin, /usr/local/cuda/bin and a `.tools/cuda/bin` found by
/// walking up from the executable's folder and from the current folder.
std::string findTool(const std::string &name);
/// Same, looking only in `folders`.
std::string findTool(const std::string &name, const std::vector<std::string> &folders);

} // namespace warplens::sass
