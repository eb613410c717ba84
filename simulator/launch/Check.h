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
///  - histogram_of: "data", bins [, shift, partials]  out[p*bins + b], summed over p < partials
///                                                   (default 1), == number of data elements v
///                                                   (unsigned, the data's element size) with
///                                                   (v >> shift) % bins == b; exact
///  - sorted_blocks_of: "in" [, segment, descending] each segment of `segment` elements (default
///                                                   all) holds the input segment's elements
///                                                   sorted (ascending unless descending: true),
///                                                   bit-exact; integers by signedness, floats by value
///  - scan_of: "in", inclusive [, segment, rel_tol]  prefix sums restarting every `segment`
///                                                   elements; inclusive: true | false (exclusive:
///                                                   0 first); integers exact modulo 2^bits
///  - reduce_sum_of: "in" [, segment, rel_tol]       out[j] == sum of in[j*segment ..
///                                                   (j+1)*segment); segment defaults to all of in
///  - convolution_of: ["in", "taps"], width, height, radius, axis [, rel_tol]
///                                                   out(x,y) = sum_{j=-R..R} taps[R-j] *
///                                                   in(x+j, y) (axis "rows") or in(x, y+j)
///                                                   ("cols"); pixels outside the image are 0
///  - stencil_of: "in", width, height, points, boundary [, rel_tol]
///                                                   points [[dx, dy, w], ...]: where every point
///                                                   is inside the grid out = sum w*in(x+dx,y+dy);
///                                                   elsewhere boundary "copy" (out = in, bit-exact)
///                                                   or "unchanged" (out keeps its initial value)
///  - gather_of: ["src", "idx"] [, mask, count]       out[i] == src[idx[i] & mask], bit-exact
///  - scatter_of: ["src", "idx"] [, mask, count]      out[idx[i] & mask] == src[i] (where indices
///                                                   collide, any of their values); elements no
///                                                   index names keep their initial value
///  - scatter_add_of: ["src", "idx"] [, mask, count, rel_tol]
///                                                   out[j] == initial out[j] + sum of src[i] with
///                                                   idx[i] & mask == j (integers exact mod 2^bits)
/// Float results of scan_of, reduce_sum_of, convolution_of, stencil_of and scatter_add_of are
/// compared with a double reference: |got - ref| <= rel_tol * sum|terms|, rel_tol defaulting to
/// (number of terms + 2) * u (u = 2^-24 for f32, 2^-53 for f64, 2^-11 for f16).
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
  // histogram_of, sorted_blocks_of, scan_of, reduce_sum_of, convolution_of, stencil_of,
  // gather_of, scatter_of, scatter_add_of
  std::uint64_t bins = 0, shift = 0, partials = 1, segment = 0; ///< segment 0 = all
  std::uint64_t width = 0, height = 0, radius = 0;
  bool inclusive = false, descending = false;
  std::string axis;        ///< "rows" | "cols"
  std::string boundary;    ///< "copy" | "unchanged"
  struct Point {
    std::int64_t dx = 0, dy = 0;
    double w = 0;
  };
  std::vector<Point> points;
  bool hasMask = false;
  std::uint64_t mask = 0;
};

/// Parses and validates `check` against the spec's buffers; `where` prefixes messages.
Expected<std::vector<CheckItem>> parseCheck(const nlohmann::json &check,
                                            const std::vector<ArgSpec> &args,
                                            const std::string &where);

} // namespace warplens::launch
