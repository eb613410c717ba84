/// \file
/// Launch specs: the JSON that drives both the emulator and the CUPTI probe (SPEC "Launch spec"),
/// and host-side buffer initialisation shared by both so they see identical data.
#pragma once

#include "util/Expected.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace warplens::launch {

using Dim3 = std::array<std::uint32_t, 3>;

/// Element types a buffer or value may have.
enum class ScalarType { I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64 };
unsigned sizeOf(ScalarType t);
Expected<ScalarType> parseScalarType(const std::string &name, const std::string &where);

struct ArgSpec {
  bool isBuffer = false;
  // buffer
  std::string buffer;     ///< buffer name (several args may name the same buffer)
  std::uint64_t count = 0;
  std::string init = "zero"; ///< zero | poison | iota | random:SEED | permutation:SEED | file:PATH
  std::uint64_t offsetBytes = 0;
  /// "tensor_map": {"dims": [...], "box": [...]} (innermost dimension first): the parameter is a
  /// 128-byte CUtensorMap over this buffer (tiled, packed strides, no swizzle/interleave, zero
  /// fill), made by cuTensorMapEncodeTiled on the GPU and by the SASS engine offline.
  std::vector<std::uint64_t> tensorDims;
  std::vector<std::uint32_t> tensorBox;
  bool isTensorMap() const { return !tensorBox.empty(); }
  // value (also the buffer's element type)
  ScalarType type = ScalarType::I32;
  std::int64_t intValue = 0;
  double floatValue = 0;
};

struct LaunchSpec {
  std::string name;
  std::string source;      ///< absolute path to the .cu or .ptx
  std::string kernel;      ///< demangled, mangled or unique prefix
  Dim3 grid{1, 1, 1};
  Dim3 block{1, 1, 1};
  std::uint32_t dynamicSharedBytes = 0;
  /// "cluster": thread block cluster dims given at launch (cudaLaunchKernelEx's cluster
  /// attribute), {0, 0, 0} when absent (then the kernel's __cluster_dims__, if any, apply).
  Dim3 cluster{0, 0, 0};
  std::vector<ArgSpec> args;
  nlohmann::json check;    ///< the "check" object, empty if none
  std::vector<std::string> nvccFlags;
  std::string specFile;    ///< where it came from (for messages)
};

/// Parse one launch object; `where` prefixes messages ("suite.json: launches[3]").
Expected<LaunchSpec> parseLaunch(const nlohmann::json &j, const std::string &specDir,
                                 const std::string &where);
/// Load a file holding either one launch or {"launches": [...]}.
Expected<std::vector<LaunchSpec>> loadSpecFile(const std::string &path);
/// The same for text read from `path` (relative sources resolve against its folder).
Expected<std::vector<LaunchSpec>> parseSpecText(const std::string &text, const std::string &path);

/// A buffer as host bytes, sized count * sizeof(type), filled per `init`.
struct HostBuffer {
  std::string name;
  ScalarType type = ScalarType::F32;
  std::uint64_t count = 0;
  std::vector<std::uint8_t> bytes;
};
/// One HostBuffer per distinct buffer name, in first-use order.
Expected<std::vector<HostBuffer>> makeBuffers(const LaunchSpec &spec);

/// Functional check of output buffers (the spec's "check" object) against a CPU reference.
struct CheckResult {
  bool ran = false;   ///< false when the spec has no check
  bool passed = true;
  std::string detail; ///< "out: 4194304 elements equal" or first mismatch
};
Expected<CheckResult> runCheck(const LaunchSpec &spec, const std::vector<HostBuffer> &inputs,
                               const std::vector<HostBuffer> &outputs);

} // namespace warplens::launch
