/// \file
/// Functional checks (launch::parseCheck, launch::runCheck): CPU references for the seeds'
/// outputs, bit-exact where the kernel is exact, a stated error bound for SGEMM / mat-vec.
#include "launch/Check.h"

#include <cmath>
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
      {"unchanged", {}}};
  return m;
}

Expected<std::uint64_t> uint(const json &o, const std::string &key, const std::string &path,
                             bool required) {
  if (!o.contains(key)) {
    if (required) return bad(path + "." + key, "missing");
    return std::uint64_t(0);
  }
  const json &v = o[key];
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() <= 0))
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
    default: { std::int64_t v = 0; std::memcpy(&v, at(i), size); return static_cast<double>(v); }
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
    std::size_t want = item.kind == "add_of" || item.kind == "sgemm_of" || item.kind == "matvec_of" ? 2
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
