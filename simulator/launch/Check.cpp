/// \file
/// Functional checks (launch::parseCheck, launch::runCheck): CPU references for the seeds'
/// outputs, bit-exact where the kernel is exact, a stated error bound for SGEMM / mat-vec.
#include "launch/Check.h"

#include <cmath>
#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

namespace warplens::launch {

using nlohmann::json;

namespace {

Error bad(const std::string &path, const std::string &what) { return Error{path + ": " + what}; }

const std::map<std::string, std::set<std::string>> &kindParams() {
  static const std::map<std::string, std::set<std::string>> m{
      {"copy_of", {"count"}},
      {"transpose_of", {"rows", "cols"}},
      {"add_of", {"count"}},
      {"sum_of", {"count"}},
      {"aos_sum_of", {"stride", "fields", "count"}},
      {"sgemm_of", {"m", "n", "k", "rel_tol"}},
      {"matvec_of", {"rows", "cols", "rel_tol"}},
      {"unchanged", {}},
      {"histogram_of", {"bins", "shift", "partials"}},
      {"sorted_blocks_of", {"segment", "descending"}},
      {"scan_of", {"inclusive", "segment", "rel_tol"}},
      {"reduce_sum_of", {"segment", "rel_tol"}},
      {"convolution_of", {"width", "height", "radius", "axis", "rel_tol"}},
      {"stencil_of", {"width", "height", "points", "boundary", "rel_tol"}},
      {"gather_of", {"mask", "count"}},
      {"scatter_of", {"mask", "count"}},
      {"scatter_add_of", {"mask", "count", "rel_tol"}}};
  return m;
}

Expected<std::uint64_t> uint(const json &o, const std::string &key, const std::string &path,
                             bool required) {
  if (!o.contains(key)) {
    if (required) return bad(path + "." + key, "missing");
    return std::uint64_t(0);
  }
  const json &v = o[key];
  // 0 is unsigned to nlohmann::json: it passed here, and sgemm_of with "n": 0 indexed an empty
  // vector (fuzz_launch_spec UBSan finding). Keys where 0 is allowed use uintOrZero.
  if (!v.is_number_integer() || (v.is_number_unsigned() ? v.get<std::uint64_t>() == 0 : v.get<std::int64_t>() <= 0))
    return bad(path + "." + key, "expected a positive integer, got " + v.dump());
  return v.get<std::uint64_t>();
}

/// A buffer as the kernel sees it: bytes from the first argument's offset_bytes.
struct View {
  const HostBuffer *buf = nullptr;
  std::uint64_t offset = 0;
  std::uint64_t count = 0; ///< elements from the offset
  unsigned size = 4;

  const std::uint8_t *at(std::uint64_t i) const { return buf->bytes.data() + offset + i * size; }
  double real(std::uint64_t i) const {
    switch (buf->type) {
    case ScalarType::F32: { float f; std::memcpy(&f, at(i), 4); return f; }
    case ScalarType::F64: { double d; std::memcpy(&d, at(i), 8); return d; }
    case ScalarType::F16: { // IEEE half (wmma/mma inputs): sign, 5-bit exponent, 10-bit mantissa
      std::uint16_t h;
      std::memcpy(&h, at(i), 2);
      int e = (h >> 10) & 31, f = h & 0x3ff;
      double v = e == 0 ? std::ldexp(double(f), -24) : e == 31 ? (f ? NAN : INFINITY) : std::ldexp(double(f | 0x400), e - 25);
      return (h & 0x8000) ? -v : v;
    }
    default: { // integers: signed types sign-extended from their width (i8 -3 is -3, not 253)
      std::uint64_t v = 0;
      std::memcpy(&v, at(i), size);
      bool sgn = buf->type == ScalarType::I8 || buf->type == ScalarType::I16 || buf->type == ScalarType::I32 ||
                 buf->type == ScalarType::I64;
      if (sgn && size < 8) {
        unsigned shift = 64 - 8 * size;
        return static_cast<double>(static_cast<std::int64_t>(v << shift) >> shift);
      }
      return sgn ? static_cast<double>(static_cast<std::int64_t>(v)) : static_cast<double>(v);
    }
    }
  }
  bool sameBits(std::uint64_t i, const void *p) const { return std::memcmp(at(i), p, size) == 0; }
};

Expected<View> viewOf(const std::string &name, const LaunchSpec &spec,
                      const std::vector<HostBuffer> &bufs, const std::string &path) {
  for (const HostBuffer &b : bufs) {
    if (b.name != name) continue;
    View v{&b, 0, 0, sizeOf(b.type)};
    for (const ArgSpec &a : spec.args)
      if (a.isBuffer && a.buffer == name) {
        v.offset = a.offsetBytes;
        break;
      }
    if (v.offset > b.bytes.size()) return bad(path, "offset past the end of buffer '" + name + "'");
    v.count = (b.bytes.size() - v.offset) / v.size;
    return v;
  }
  return bad(path, "no buffer named '" + name + "' was given to the check");
}

std::string show(const View &v, std::uint64_t i) {
  std::ostringstream os;
  os.precision(9);
  os << v.real(i);
  return os.str();
}

/// Sum of a list of values in the element type, left to right (what the kernel computes).
void sumInType(ScalarType t, const std::vector<const std::uint8_t *> &terms, std::uint8_t *out) {
  if (t == ScalarType::F32) {
    float s = 0;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      float f;
      std::memcpy(&f, terms[i], 4);
      s = i == 0 ? f : s + f;
    }
    std::memcpy(out, &s, 4);
  } else if (t == ScalarType::F64) {
    double s = 0;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      double f;
      std::memcpy(&f, terms[i], 8);
      s = i == 0 ? f : s + f;
    }
    std::memcpy(out, &s, 8);
  } else {
    std::uint64_t s = 0;
    unsigned n = sizeOf(t);
    for (const std::uint8_t *p : terms) {
      std::uint64_t v = 0;
      std::memcpy(&v, p, n);
      s += v;
    }
    std::memcpy(out, &s, n);
  }
}

struct Outcome {
  std::uint64_t checked = 0, wrong = 0;
  std::string first;
  void mismatch(const std::string &what) {
    if (wrong++ == 0) first = what;
  }
};

Expected<std::uint64_t> uintOrZero(const json &o, const std::string &key, const std::string &path) {
  if (!o.contains(key)) return std::uint64_t(0);
  const json &v = o[key];
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0))
    return bad(path + "." + key, "expected a non-negative integer, got " + v.dump());
  return v.get<std::uint64_t>();
}

Expected<bool> boolean(const json &o, const std::string &key, const std::string &path, bool required) {
  if (!o.contains(key)) {
    if (required) return bad(path + "." + key, "missing (expected true or false)");
    return false;
  }
  if (!o[key].is_boolean()) return bad(path + "." + key, "expected true or false, got " + o[key].dump());
  return o[key].get<bool>();
}

Expected<std::string> oneOf(const json &o, const std::string &key, const std::string &path,
                            const std::set<std::string> &allowed) {
  std::string list;
  for (const std::string &a : allowed) list += (list.empty() ? "" : " or ") + ("\"" + a + "\"");
  if (!o.contains(key)) return bad(path + "." + key, "missing (expected " + list + ")");
  const json &v = o[key];
  if (!v.is_string() || !allowed.count(v.get<std::string>()))
    return bad(path + "." + key, "expected " + list + ", got " + v.dump());
  return v.get<std::string>();
}

/// The parameters of the corpus kinds (histogram_of ... scatter_add_of); other kinds ignore them.
Status parseCorpusParams(const json &o, const std::string &path, CheckItem &item) {
  const std::string &k = item.kind;
  if (k == "histogram_of") {
    WL_TRY(bins, uint(o, "bins", path, true));
    WL_TRY(shift, uintOrZero(o, "shift", path));
    WL_TRY(partials, uint(o, "partials", path, false));
    if (bins == 0 || bins > (1u << 24)) return bad(path + ".bins", "expected 1 to 16777216 bins, got " + std::to_string(bins));
    if (shift >= 64) return bad(path + ".shift", "expected a shift below 64, got " + std::to_string(shift));
    item.bins = bins, item.shift = shift, item.partials = partials ? partials : 1;
  }
  if (k == "sorted_blocks_of" || k == "scan_of" || k == "reduce_sum_of") {
    WL_TRY(segment, uint(o, "segment", path, false));
    if (o.contains("segment") && segment == 0) return bad(path + ".segment", "expected a positive integer, got 0");
    item.segment = segment;
  }
  if (k == "sorted_blocks_of") {
    WL_TRY(d, boolean(o, "descending", path, false));
    item.descending = d;
  }
  if (k == "scan_of") {
    WL_TRY(inc, boolean(o, "inclusive", path, true));
    item.inclusive = inc;
  }
  if (k == "convolution_of" || k == "stencil_of") {
    WL_TRY(w, uint(o, "width", path, true));
    WL_TRY(h, uint(o, "height", path, true));
    item.width = w, item.height = h;
  }
  if (k == "convolution_of") {
    WL_TRY(r, uint(o, "radius", path, true));
    WL_TRY(axis, oneOf(o, "axis", path, {"rows", "cols"}));
    item.radius = r, item.axis = axis;
  }
  if (k == "stencil_of") {
    WL_TRY(boundary, oneOf(o, "boundary", path, {"copy", "unchanged"}));
    item.boundary = boundary;
    const json &pts = o.contains("points") ? o["points"] : json();
    if (!pts.is_array() || pts.empty())
      return bad(path + ".points", "expected a non-empty array of [dx, dy, weight]");
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const json &p = pts[i];
      if (!p.is_array() || p.size() != 3 || !p[0].is_number_integer() || !p[1].is_number_integer() ||
          !p[2].is_number())
        return bad(path + ".points[" + std::to_string(i) + "]", "expected [dx, dy, weight] (integers, number), got " + p.dump());
      item.points.push_back({p[0].get<std::int64_t>(), p[1].get<std::int64_t>(), p[2].get<double>()});
    }
  }
  if (k == "gather_of" || k == "scatter_of" || k == "scatter_add_of") {
    if (o.contains("mask")) {
      WL_TRY(mask, uint(o, "mask", path, true));
      if (mask == 0) return bad(path + ".mask", "expected a positive integer, got 0");
      item.hasMask = true, item.mask = mask;
    }
  }
  return {};
}

bool isFloatType(ScalarType t) { return t == ScalarType::F16 || t == ScalarType::F32 || t == ScalarType::F64; }
bool isSignedType(ScalarType t) {
  return t == ScalarType::I8 || t == ScalarType::I16 || t == ScalarType::I32 || t == ScalarType::I64;
}
/// Unit roundoff of a float type (the bound of one rounding, relative).
double roundoff(ScalarType t) { return t == ScalarType::F64 ? 0x1p-53 : t == ScalarType::F16 ? 0x1p-11 : 0x1p-24; }
std::uint64_t lowMask(unsigned size) { return size >= 8 ? ~std::uint64_t(0) : (std::uint64_t(1) << (8 * size)) - 1; }

std::uint64_t bitsAt(const View &v, std::uint64_t i) {
  std::uint64_t x = 0;
  std::memcpy(&x, v.at(i), v.size);
  return x;
}
std::int64_t signedAt(const View &v, std::uint64_t i) {
  std::uint64_t x = bitsAt(v, i);
  unsigned bits = 8 * v.size;
  if (bits < 64 && (x >> (bits - 1)) & 1) x |= ~lowMask(v.size);
  return static_cast<std::int64_t>(x);
}
/// Numeric value as a double (floats by value incl. f16, integers by signedness).
double valueAt(const View &v, std::uint64_t i) {
  if (v.buf->type == ScalarType::F16) {
    std::uint16_t h;
    std::memcpy(&h, v.at(i), 2);
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double mag = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -mag : mag;
  }
  if (isFloatType(v.buf->type)) return v.real(i);
  return isSignedType(v.buf->type) ? double(signedAt(v, i)) : double(bitsAt(v, i));
}
std::string showBits(const View &v, std::uint64_t i) {
  if (isFloatType(v.buf->type)) {
    std::ostringstream os;
    os.precision(9);
    os << valueAt(v, i);
    return os.str();
  }
  return isSignedType(v.buf->type) ? std::to_string(signedAt(v, i)) : std::to_string(bitsAt(v, i));
}
std::string showInt(const View &v, std::uint64_t x) {
  x &= lowMask(v.size);
  if (isSignedType(v.buf->type)) {
    std::int64_t s = static_cast<std::int64_t>(x);
    if (v.size < 8 && (x >> (8 * v.size - 1)) & 1) s = static_cast<std::int64_t>(x | ~lowMask(v.size));
    return std::to_string(s);
  }
  return std::to_string(x);
}

/// A reference value: an exact integer (modulo the element width) or a real with an error bound.
struct Ref {
  std::uint64_t exact = 0; ///< integer outputs
  double value = 0, bound = 0;
};
/// Compares out[i] with `ref`; integer outputs bit-exact modulo 2^bits, float ones within bound.
void expectAt(const View &out, std::uint64_t i, const Ref &ref, const std::string &where, Outcome &r) {
  ++r.checked;
  if (!isFloatType(out.buf->type)) {
    if ((bitsAt(out, i) & lowMask(out.size)) != (ref.exact & lowMask(out.size)))
      r.mismatch("[" + std::to_string(i) + "]" + where + " = " + showBits(out, i) + ", expected " +
                 showInt(out, ref.exact));
    return;
  }
  double got = valueAt(out, i);
  if (!(std::fabs(got - ref.value) <= ref.bound)) {
    std::ostringstream os;
    os.precision(9);
    os << "[" << i << "]" << where << " = " << got << ", expected " << ref.value << " +- " << ref.bound;
    r.mismatch(os.str());
  }
}

/// Running sum of elements of `in` for a reference (integer: wrapping; float: double + magnitude).
struct Sum {
  std::uint64_t exact = 0;
  double value = 0, mag = 0;
  std::uint64_t terms = 0;
  void add(const View &in, std::uint64_t i) {
    exact += bitsAt(in, i);
    double v = valueAt(in, i);
    value += v, mag += std::fabs(v), ++terms;
  }
  Ref ref(ScalarType t, double relTol) const {
    double tol = relTol > 0 ? relTol : double(terms + 2) * roundoff(t);
    return Ref{exact, value, tol * mag};
  }
};

std::string tolText(double relTol, const std::string &terms) {
  if (relTol > 0) {
    std::ostringstream os;
    os.precision(3);
    os << relTol;
    return "within " + os.str() + " x sum|terms| of a double reference";
  }
  return "within (" + terms + " + 2) u x sum|terms| of a double reference";
}

/// Runs a corpus kind (histogram_of ... scatter_add_of). `initial` is the output before the launch.
Status runCorpusKind(const CheckItem &c, const View &out, const View &initial, const std::vector<View> &ops,
                     const std::string &path, Outcome &r, std::string &what) {
  auto needs = [&](const View &v, std::uint64_t n, const std::string &name) -> Status {
    if (v.count < n)
      return bad(path, "buffer '" + name + "' holds " + std::to_string(v.count) +
                           " elements from its offset, the check needs " + std::to_string(n));
    return {};
  };
  auto needInt = [&](const View &v, const std::string &name) -> Status {
    if (isFloatType(v.buf->type)) return bad(path, "buffer '" + name + "' must hold integers for a " + c.kind + " check");
    return {};
  };
  auto sameType = [&](const View &v, const std::string &name) -> Status {
    if (v.buf->type != out.buf->type)
      return bad(path, "buffer '" + name + "' has a different element type than '" + c.output + "'");
    return {};
  };
  const ScalarType ot = out.buf->type;
  const std::string in0 = c.operands.empty() ? std::string() : c.operands[0];
  if (c.kind == "histogram_of") {
    const View &data = ops[0];
    WL_CHECK(needInt(data, in0));
    WL_CHECK(needInt(out, c.output));
    WL_CHECK(needs(out, c.bins * c.partials, c.output));
    std::vector<std::uint64_t> want(c.bins, 0);
    for (std::uint64_t i = 0; i < data.count; ++i) ++want[((bitsAt(data, i) & lowMask(data.size)) >> c.shift) % c.bins];
    for (std::uint64_t b = 0; b < c.bins; ++b) {
      std::uint64_t got = 0;
      for (std::uint64_t p = 0; p < c.partials; ++p) got += bitsAt(out, p * c.bins + b);
      ++r.checked;
      if ((got & lowMask(out.size)) != (want[b] & lowMask(out.size)))
        r.mismatch(" bin " + std::to_string(b) + (c.partials > 1 ? " (summed over partials)" : "") + " = " +
                   std::to_string(got & lowMask(out.size)) + ", expected " + std::to_string(want[b]));
    }
    what = std::to_string(c.bins) + "-bin histogram of " + in0 + " (bits >> " + std::to_string(c.shift) +
           (c.partials > 1 ? ", " + std::to_string(c.partials) + " partials" : std::string()) + "), exact";
    return {};
  }
  if (c.kind == "sorted_blocks_of") {
    const View &in = ops[0];
    WL_CHECK(sameType(in, in0));
    std::uint64_t seg = c.segment ? c.segment : in.count;
    if (seg == 0) return bad(path, "buffer '" + in0 + "' is empty");
    std::uint64_t nseg = in.count / seg;
    WL_CHECK(needs(in, seg, in0));
    WL_CHECK(needs(out, nseg * seg, c.output));
    std::vector<std::uint64_t> idx(seg);
    ScalarType t = in.buf->type;
    auto less = [&](std::uint64_t a, std::uint64_t b) {
      if (isFloatType(t)) return valueAt(in, a) < valueAt(in, b);
      if (isSignedType(t)) return signedAt(in, a) < signedAt(in, b);
      return bitsAt(in, a) < bitsAt(in, b);
    };
    for (std::uint64_t s = 0; s < nseg; ++s) {
      for (std::uint64_t i = 0; i < seg; ++i) idx[i] = s * seg + i;
      if (c.descending) std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return less(b, a); });
      else std::stable_sort(idx.begin(), idx.end(), less);
      for (std::uint64_t i = 0; i < seg; ++i, ++r.checked)
        if (!out.sameBits(s * seg + i, in.at(idx[i])))
          r.mismatch("[" + std::to_string(s * seg + i) + "] (segment " + std::to_string(s) + ", rank " +
                     std::to_string(i) + ") = " + showBits(out, s * seg + i) + ", expected " + showBits(in, idx[i]));
    }
    what = std::string(c.descending ? "descending" : "ascending") + " sort of " + in0 + " in segments of " +
           std::to_string(seg) + ", bit-exact";
    return {};
  }
  if (c.kind == "scan_of" || c.kind == "reduce_sum_of") {
    const View &in = ops[0];
    if (isFloatType(in.buf->type) != isFloatType(ot))
      return bad(path, "buffers '" + in0 + "' and '" + c.output + "' must both be integers or both floats");
    std::uint64_t seg = c.segment ? c.segment : in.count;
    if (seg == 0) return bad(path, "buffer '" + in0 + "' is empty");
    std::uint64_t nseg = in.count / seg;
    WL_CHECK(needs(in, seg, in0));
    bool scan = c.kind == "scan_of";
    WL_CHECK(needs(out, scan ? nseg * seg : nseg, c.output));
    for (std::uint64_t s = 0; s < nseg; ++s) {
      Sum sum;
      for (std::uint64_t i = 0; i < seg; ++i) {
        std::uint64_t e = s * seg + i;
        if (scan && !c.inclusive) expectAt(out, e, sum.ref(ot, c.relTol), "", r);
        sum.add(in, e);
        if (scan && c.inclusive) expectAt(out, e, sum.ref(ot, c.relTol), "", r);
      }
      if (!scan) expectAt(out, s, sum.ref(ot, c.relTol), " (segment " + std::to_string(s) + ")", r);
    }
    std::string exactness = isFloatType(ot) ? tolText(c.relTol, "terms") : "exact";
    what = scan ? std::string(c.inclusive ? "inclusive" : "exclusive") + " scan of " + in0 + " in segments of " +
                      std::to_string(seg) + ", " + exactness
                : "sums of " + in0 + " over segments of " + std::to_string(seg) + ", " + exactness;
    return {};
  }
  if (c.kind == "convolution_of" || c.kind == "stencil_of") {
    const View &in = ops[0];
    if (!isFloatType(ot) || in.buf->type != ot)
      return bad(path, "buffers '" + in0 + "' and '" + c.output + "' must be floats of one type");
    std::uint64_t W = c.width, H = c.height;
    WL_CHECK(needs(in, W * H, in0));
    WL_CHECK(needs(out, W * H, c.output));
    std::vector<CheckItem::Point> pts = c.points;
    std::vector<double> taps;
    if (c.kind == "convolution_of") {
      const View &tv = ops[1];
      if (!isFloatType(tv.buf->type)) return bad(path, "buffer '" + c.operands[1] + "' must hold floats");
      WL_CHECK(needs(tv, 2 * c.radius + 1, c.operands[1]));
      std::int64_t R = static_cast<std::int64_t>(c.radius);
      for (std::int64_t j = -R; j <= R; ++j) {
        double w = valueAt(tv, static_cast<std::uint64_t>(R - j));
        pts.push_back(c.axis == "rows" ? CheckItem::Point{j, 0, w} : CheckItem::Point{0, j, w});
      }
    }
    std::int64_t x0 = 0, x1 = 0, y0 = 0, y1 = 0; // point extents (stencil interior)
    for (const auto &p : pts) x0 = std::min(x0, p.dx), x1 = std::max(x1, p.dx), y0 = std::min(y0, p.dy), y1 = std::max(y1, p.dy);
    bool conv = c.kind == "convolution_of";
    double tol = c.relTol > 0 ? c.relTol : double(pts.size() + 2) * roundoff(ot);
    for (std::int64_t y = 0; y < std::int64_t(H); ++y)
      for (std::int64_t x = 0; x < std::int64_t(W); ++x) {
        std::uint64_t e = std::uint64_t(y) * W + std::uint64_t(x);
        std::string at = " (x " + std::to_string(x) + ", y " + std::to_string(y) + ")";
        bool interior = x + x0 >= 0 && x + x1 < std::int64_t(W) && y + y0 >= 0 && y + y1 < std::int64_t(H);
        if (!conv && !interior) {
          const View &ref = c.boundary == "copy" ? in : initial;
          ++r.checked;
          if (!out.sameBits(e, ref.at(e)))
            r.mismatch("[" + std::to_string(e) + "]" + at + " (boundary) = " + showBits(out, e) + ", expected " +
                       (c.boundary == "copy" ? "a copy of " + in0 : std::string("its initial value")) + " " +
                       showBits(ref, e));
          continue;
        }
        double v = 0, mag = 0;
        for (const auto &p : pts) {
          std::int64_t xx = x + p.dx, yy = y + p.dy;
          if (xx < 0 || yy < 0 || xx >= std::int64_t(W) || yy >= std::int64_t(H)) continue; // zero outside
          double t = p.w * valueAt(in, std::uint64_t(yy) * W + std::uint64_t(xx));
          v += t, mag += std::fabs(t);
        }
        expectAt(out, e, Ref{0, v, tol * mag}, at, r);
      }
    if (conv) what = std::to_string(2 * c.radius + 1) + "-tap " + (c.axis == "rows" ? "row" : "column") +
                     " convolution of " + in0 + " (zero outside), " + tolText(c.relTol, "taps");
    else what = std::to_string(pts.size()) + "-point stencil of " + in0 + ", boundary " +
                (c.boundary == "copy" ? "copied" : "unchanged") + ", " + tolText(c.relTol, "points");
    return {};
  }
  // gather_of, scatter_of, scatter_add_of: operands src, idx.
  const View &src = ops[0], &idx = ops[1];
  WL_CHECK(needInt(idx, c.operands[1]));
  if (src.size != out.size || isFloatType(src.buf->type) != isFloatType(ot))
    return bad(path, "buffers '" + in0 + "' and '" + c.output + "' must have the same element type");
  bool gather = c.kind == "gather_of";
  std::uint64_t n = c.count ? c.count : std::min(gather ? out.count : src.count, idx.count);
  WL_CHECK(needs(idx, n, c.operands[1]));
  WL_CHECK(needs(gather ? out : src, n, gather ? c.output : in0));
  auto target = [&](std::uint64_t i) {
    std::uint64_t j = bitsAt(idx, i) & lowMask(idx.size);
    return c.hasMask ? j & c.mask : j;
  };
  std::string m = c.hasMask ? " & " + std::to_string(c.mask) : std::string();
  if (gather) {
    for (std::uint64_t i = 0; i < n; ++i, ++r.checked) {
      std::uint64_t j = target(i);
      if (j >= src.count) {
        r.mismatch("[" + std::to_string(i) + "]: index " + std::to_string(j) + " is past the end of '" + in0 + "'");
        continue;
      }
      if (!out.sameBits(i, src.at(j)))
        r.mismatch("[" + std::to_string(i) + "] = " + showBits(out, i) + ", expected " + in0 + "[" +
                   std::to_string(j) + "] = " + showBits(src, j));
    }
    what = "gather " + in0 + "[" + c.operands[1] + "[i]" + m + "], bit-exact";
    return {};
  }
  std::vector<std::int64_t> writer(out.count, -1);
  std::multimap<std::uint64_t, std::uint64_t> extra; // colliding writers after the first
  std::vector<Sum> sums(c.kind == "scatter_add_of" ? out.count : 0);
  std::uint64_t outside = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t j = target(i);
    if (j >= out.count) {
      if (outside++ == 0)
        r.mismatch(": " + c.operands[1] + "[" + std::to_string(i) + "] names element " + std::to_string(j) +
                   ", past the end of '" + c.output + "'");
      continue;
    }
    if (!sums.empty()) {
      if (writer[j] < 0) sums[j].add(initial, j);
      sums[j].add(src, i);
    }
    if (writer[j] < 0) writer[j] = std::int64_t(i);
    else extra.emplace(j, i);
  }
  for (std::uint64_t j = 0; j < out.count; ++j) {
    if (writer[j] < 0) {
      ++r.checked;
      if (!out.sameBits(j, initial.at(j)))
        r.mismatch("[" + std::to_string(j) + "] = " + showBits(out, j) + ", no index names it: expected its initial value " +
                   showBits(initial, j));
      continue;
    }
    if (!sums.empty()) {
      expectAt(out, j, sums[j].ref(ot, c.relTol), "", r);
      continue;
    }
    ++r.checked;
    bool ok = out.sameBits(j, src.at(std::uint64_t(writer[j])));
    auto range = extra.equal_range(j);
    for (auto it = range.first; !ok && it != range.second; ++it) ok = out.sameBits(j, src.at(it->second));
    if (!ok)
      r.mismatch("[" + std::to_string(j) + "] = " + showBits(out, j) + ", expected " + in0 + "[" +
                 std::to_string(writer[j]) + "] = " + showBits(src, std::uint64_t(writer[j])) +
                 (range.first != range.second ? " (or another colliding source)" : ""));
  }
  what = c.kind == "scatter_of"
             ? "scatter " + c.output + "[" + c.operands[1] + "[i]" + m + "] = " + in0 + "[i], bit-exact"
             : "scatter-add of " + in0 + " at " + c.operands[1] + "[i]" + m + ", " +
                   (isFloatType(ot) ? tolText(c.relTol, "terms") : std::string("exact"));
  return {};
}

bool isCorpusKind(const std::string &k) {
  static const std::set<std::string> s{"histogram_of", "sorted_blocks_of", "scan_of",   "reduce_sum_of", "convolution_of",
                                       "stencil_of",   "gather_of",        "scatter_of", "scatter_add_of"};
  return s.count(k) > 0;
}

} // namespace

Expected<std::vector<CheckItem>> parseCheck(const json &check, const std::vector<ArgSpec> &args,
                                            const std::string &where) {
  if (!check.is_object()) return bad(where, "expected an object {\"OUTPUT\": {\"KIND\": ...}}");
  std::set<std::string> buffers;
  for (const ArgSpec &a : args)
    if (a.isBuffer) buffers.insert(a.buffer);
  auto needBuffer = [&](const json &v, const std::string &path) -> Expected<std::string> {
    if (!v.is_string()) return bad(path, "expected a buffer name, got " + v.dump());
    std::string n = v.get<std::string>();
    if (!buffers.count(n)) return bad(path, "no buffer argument named '" + n + "'");
    return n;
  };
  std::vector<CheckItem> items;
  for (auto it = check.begin(); it != check.end(); ++it) {
    std::string path = where + "." + it.key();
    CheckItem item;
    WL_TRY(out, needBuffer(json(it.key()), path));
    item.output = out;
    const json &o = it.value();
    if (!o.is_object()) return bad(path, "expected an object such as {\"copy_of\": \"in\"}");
    for (auto k = o.begin(); k != o.end(); ++k) {
      if (kindParams().count(k.key())) {
        if (!item.kind.empty()) return bad(path + "." + k.key(), "a second check kind (one per output)");
        item.kind = k.key();
      }
    }
    if (item.kind.empty()) {
      std::string kinds;
      for (const auto &[k, _] : kindParams()) kinds += (kinds.empty() ? "" : ", ") + k;
      return bad(path, "no check kind (expected one of " + kinds + ")");
    }
    const auto &params = kindParams().at(item.kind);
    for (auto k = o.begin(); k != o.end(); ++k)
      if (k.key() != item.kind && !params.count(k.key()))
        return bad(path + "." + k.key(), "unknown key for a " + item.kind + " check");
    const json &operand = o[item.kind];
    std::string opath = path + "." + item.kind;
    if (item.kind == "unchanged") {
      if (operand != json(true)) return bad(opath, "expected true");
    } else if (operand.is_array()) {
      for (std::size_t i = 0; i < operand.size(); ++i) {
        WL_TRY(n, needBuffer(operand[i], opath + "[" + std::to_string(i) + "]"));
        item.operands.push_back(n);
      }
    } else {
      WL_TRY(n, needBuffer(operand, opath));
      item.operands.push_back(n);
    }
    std::size_t want = item.kind == "add_of" || item.kind == "sgemm_of" || item.kind == "matvec_of" ||
                               item.kind == "convolution_of" || item.kind == "gather_of" ||
                               item.kind == "scatter_of" || item.kind == "scatter_add_of"
                           ? 2
                       : item.kind == "unchanged" ? 0
                       : item.kind == "sum_of"    ? item.operands.size()
                                                  : 1;
    if (item.operands.size() != want || (item.kind == "sum_of" && want == 0))
      return bad(opath, "expected " + (want ? std::to_string(want) : std::string("at least 1")) +
                            " buffer name(s)");
    bool gemm = item.kind == "sgemm_of";
    bool mv = item.kind == "matvec_of";
    bool tr = item.kind == "transpose_of";
    WL_TRY(rows, uint(o, "rows", path, tr || mv));
    WL_TRY(cols, uint(o, "cols", path, tr || mv));
    WL_TRY(m, uint(o, "m", path, gemm));
    WL_TRY(n, uint(o, "n", path, gemm));
    WL_TRY(k, uint(o, "k", path, gemm));
    WL_TRY(stride, uint(o, "stride", path, item.kind == "aos_sum_of"));
    WL_TRY(count, uint(o, "count", path, false));
    item.rows = rows, item.cols = cols, item.m = m, item.n = n, item.k = k, item.stride = stride;
    item.count = count;
    if (item.kind == "aos_sum_of") {
      const json &f = o.contains("fields") ? o["fields"] : json();
      if (!f.is_array() || f.empty()) return bad(path + ".fields", "expected a non-empty array of field indices");
      for (const json &x : f) {
        if (!x.is_number_unsigned() || x.get<std::uint64_t>() >= stride)
          return bad(path + ".fields", "expected indices below stride " + std::to_string(stride) + ", got " + x.dump());
        item.fields.push_back(x.get<std::uint64_t>());
      }
    }
    WL_CHECK(parseCorpusParams(o, path, item));
    if (o.contains("rel_tol")) {
      if (!o["rel_tol"].is_number() || o["rel_tol"].get<double>() <= 0)
        return bad(path + ".rel_tol", "expected a positive number");
      item.relTol = o["rel_tol"].get<double>();
    }
    items.push_back(std::move(item));
  }
  return items;
}

Expected<CheckResult> runCheck(const LaunchSpec &spec, const std::vector<HostBuffer> &inputs,
                               const std::vector<HostBuffer> &outputs) {
  CheckResult result;
  if (spec.check.is_null() || spec.check.empty()) return result;
  std::string where = (spec.specFile.empty() ? spec.name : spec.specFile + ": " + spec.name) + ": check";
  WL_TRY(items, parseCheck(spec.check, spec.args, where));
  result.ran = true;
  std::vector<std::string> details;
  for (const CheckItem &c : items) {
    std::string path = where + "." + c.output;
    WL_TRY(out, viewOf(c.output, spec, outputs, path));
    std::vector<View> ops;
    for (const std::string &name : c.operands) {
      WL_TRY(v, viewOf(name, spec, inputs, path + "." + c.kind));
      ops.push_back(v);
    }
    auto needs = [&](const View &v, std::uint64_t n, const std::string &name) -> Status {
      if (v.count < n)
        return bad(path, "buffer '" + name + "' holds " + std::to_string(v.count) +
                             " elements from its offset, the check needs " + std::to_string(n));
      return {};
    };
    Outcome r;
    std::string what;
    if (c.kind == "unchanged") {
      WL_TRY(orig, viewOf(c.output, spec, inputs, path));
      for (std::uint64_t i = 0; i < out.count; ++i, ++r.checked)
        if (!out.sameBits(i, orig.at(i)))
          r.mismatch("[" + std::to_string(i) + "] = " + show(out, i) + ", was " + show(orig, i));
      what = "unchanged";
    } else if (c.kind == "copy_of" || c.kind == "add_of" || c.kind == "sum_of" ||
               c.kind == "aos_sum_of") {
      std::uint64_t n = c.count;
      if (!n) {
        n = out.count;
        if (c.kind == "aos_sum_of") n = std::min(n, ops[0].count / c.stride);
        else for (const View &v : ops) n = std::min(n, v.count);
      }
      WL_CHECK(needs(out, n, c.output));
      for (std::size_t o = 0; o < ops.size(); ++o)
        WL_CHECK(needs(ops[o], c.kind == "aos_sum_of" ? n * c.stride : n, c.operands[o]));
      for (const View &v : ops)
        if (v.buf->type != out.buf->type)
          return bad(path, "buffer '" + v.buf->name + "' has a different element type than '" + c.output + "'");
      std::vector<std::uint8_t> expect(out.size);
      std::vector<const std::uint8_t *> terms;
      for (std::uint64_t i = 0; i < n; ++i, ++r.checked) {
        terms.clear();
        if (c.kind == "aos_sum_of")
          for (std::uint64_t f : c.fields) terms.push_back(ops[0].at(i * c.stride + f));
        else
          for (const View &v : ops) terms.push_back(v.at(i));
        sumInType(out.buf->type, terms, expect.data());
        if (!out.sameBits(i, expect.data())) {
          double ev = 0;
          if (out.buf->type == ScalarType::F32) { float f; std::memcpy(&f, expect.data(), 4); ev = f; }
          else if (out.buf->type == ScalarType::F64) std::memcpy(&ev, expect.data(), 8);
          else { std::int64_t v = 0; std::memcpy(&v, expect.data(), out.size); ev = double(v); }
          std::ostringstream os;
          os.precision(9);
          os << "[" << i << "] = " << show(out, i) << ", expected " << ev;
          r.mismatch(os.str());
        }
      }
      what = c.kind == "copy_of" ? "bit-exact copy of " + c.operands[0]
                                 : "bit-exact " + c.kind.substr(0, c.kind.size() - 3) + " of inputs";
    } else if (c.kind == "transpose_of") {
      const View &in = ops[0];
      WL_CHECK(needs(in, c.rows * c.cols, c.operands[0]));
      WL_CHECK(needs(out, c.rows * c.cols, c.output));
      if (in.size != out.size) return bad(path, "input and output element sizes differ");
      for (std::uint64_t rr = 0; rr < c.rows; ++rr)
        for (std::uint64_t cc = 0; cc < c.cols; ++cc, ++r.checked)
          if (!out.sameBits(cc * c.rows + rr, in.at(rr * c.cols + cc)))
            r.mismatch("[" + std::to_string(cc * c.rows + rr) + "] (row " + std::to_string(cc) +
                       ", col " + std::to_string(rr) + ") = " + show(out, cc * c.rows + rr) +
                       ", expected " + show(in, rr * c.cols + cc));
      what = "bit-exact transpose of " + c.operands[0];
    } else if (isCorpusKind(c.kind)) {
      // The output's value before the launch: only stencil_of "unchanged" and the scatters read it.
      bool needsInitial = (c.kind == "stencil_of" && c.boundary == "unchanged") || c.kind == "scatter_of" ||
                          c.kind == "scatter_add_of";
      View initial;
      if (needsInitial) {
        WL_TRY(v, viewOf(c.output, spec, inputs, path));
        initial = v;
      }
      WL_CHECK(runCorpusKind(c, out, initial, ops, path, r, what));
    } else { // sgemm_of, matvec_of: out (m x n) = A (m x k) * B (k x n); matvec has n = 1
      bool gemm = c.kind == "sgemm_of";
      std::uint64_t m = gemm ? c.m : c.rows, n = gemm ? c.n : 1, k = gemm ? c.k : c.cols;
      WL_CHECK(needs(ops[0], m * k, c.operands[0]));
      WL_CHECK(needs(ops[1], k * n, c.operands[1]));
      WL_CHECK(needs(out, m * n, c.output));
      double tol = c.relTol > 0 ? c.relTol : double(k + 2) * 0x1p-24;
      std::vector<double> a(m * k), b(k * n);
      for (std::uint64_t i = 0; i < m * k; ++i) a[i] = ops[0].real(i);
      for (std::uint64_t i = 0; i < k * n; ++i) b[i] = ops[1].real(i);
      std::vector<double> ref(m * n, 0.0), mag(m * n, 0.0);
      for (std::uint64_t i = 0; i < m; ++i)
        for (std::uint64_t p = 0; p < k; ++p) {
          double av = a[i * k + p];
          const double *brow = &b[p * n];
          double *rrow = &ref[i * n], *mrow = &mag[i * n];
          for (std::uint64_t j = 0; j < n; ++j) {
            rrow[j] += av * brow[j];
            mrow[j] += std::fabs(av * brow[j]);
          }
        }
      for (std::uint64_t i = 0; i < m * n; ++i, ++r.checked) {
        double got = out.real(i);
        if (!(std::fabs(got - ref[i]) <= tol * mag[i])) {
          std::ostringstream os;
          os.precision(9);
          os << "[" << i << "] = " << got << ", expected " << ref[i] << " +- " << tol * mag[i];
          r.mismatch(os.str());
        }
      }
      std::ostringstream os;
      os.precision(3);
      os << "within " << tol << " x sum|a*b| of a double reference";
      what = os.str();
    }
    std::ostringstream d;
    if (r.wrong == 0) {
      d << c.output << ": " << r.checked << " elements " << what;
    } else {
      result.passed = false;
      d << c.output << ": " << r.wrong << " of " << r.checked << " elements wrong (" << what
        << "), first " << c.output << r.first;
    }
    details.push_back(d.str());
  }
  for (std::size_t i = 0; i < details.size(); ++i)
    result.detail += (i ? "; " : "") + details[i];
  return result;
}

} // namespace warplens::launch
