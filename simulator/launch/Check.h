/// \file
/// Functional checks of a launch's outputs (the spec's "check" object), parsed once at load time
/// so a bad check is a bad-input error before anything runs. runCheck (LaunchSpec.h) executes them.
#pragma once

#include "launch/LaunchSpec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace warplens::launch {

/// One entry of "check": {"OUT": {"KIND": OPERANDS, params...}}.
/// Kinds (operands are buffer names; every buffer is seen as the kernel sees it, i.e. from the
/// offset_bytes of the first argument that names it; inputs are the values before the launch):
///  - copy_of: "in" [, count]                      out[i] == in[i], bit-exact
///  - transpose_of: "in", rows, cols                 out[c*rows + r] == in[r*cols + c], bit-exact
///  - add_of / sum_of: ["a", "b", ...] [, count]     out[i] == a[i] + b[i] + ... (element type,
///                                                   left to right), bit-exact
///  - aos_sum_of: "p", stride, fields [, count]      out[i] == sum of p[i*stride + f], f in fields
///  - sgemm_of: ["A", "B"], m, n, k [, rel_tol]      C (m x n) vs double reference of A (m x k) *
///                                                   B (k x n), all row-major
///  - matvec_of: ["A", "x"], rows, cols [, rel_tol]  y (rows) vs double reference of A * x
///  - unchanged: true                                the buffer equals its initial value
/// sgemm_of/matvec_of accept |got - ref| <= rel_tol * sum_k |a*b| with rel_tol defaulting to
/// (k + 2) * 2^-24 (the worst-case bound of float summation of k products, any order, FMA or not).
struct CheckItem {
  std::string output;
  std::string kind;
  std::vector<std::string> operands;
  std::uint64_t rows = 0, cols = 0, m = 0, n = 0, k = 0, stride = 0;
  std::uint64_t count = 0; ///< 0 = all elements the views hold
  std::vector<std::uint64_t> fields;
  double relTol = 0;       ///< 0 = default bound
};

/// Parses and validates `check` against the spec's buffers; `where` prefixes messages.
Expected<std::vector<CheckItem>> parseCheck(const nlohmann::json &check,
                                            const std::vector<ArgSpec> &args,
                                            const std::string &where);

} // namespace warplens::launch
