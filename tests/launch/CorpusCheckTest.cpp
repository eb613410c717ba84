/// \file
/// The functional checks added for the kernel corpus (kernels/corpus): histogram_of,
/// sorted_blocks_of, scan_of, reduce_sum_of, convolution_of, stencil_of, gather_of, scatter_of,
/// scatter_add_of, and the permutation:SEED init. Every expected value is worked out by hand in
/// the comments; a deliberately wrong element fails and is named; bad specs name the key.
#include "launch/Check.h"
#include "launch/LaunchSpec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

using namespace warplens;
using namespace warplens::launch;
using nlohmann::json;

namespace {

ArgSpec buf(const std::string &name, ScalarType t, std::uint64_t n) {
  ArgSpec a;
  a.isBuffer = true;
  a.buffer = name;
  a.type = t;
  a.count = n;
  return a;
}

template <class T> HostBuffer host(const std::string &name, ScalarType t, std::vector<T> v) {
  HostBuffer b{name, t, v.size(), {}};
  b.bytes.resize(v.size() * sizeof(T));
  std::memcpy(b.bytes.data(), v.data(), b.bytes.size());
  return b;
}

CheckResult run(const LaunchSpec &s, const std::vector<HostBuffer> &in, const std::vector<HostBuffer> &out) {
  auto r = runCheck(s, in, out);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? *r : CheckResult{};
}

LaunchSpec spec(std::vector<ArgSpec> args, const char *check) {
  LaunchSpec s;
  s.name = "t";
  s.args = std::move(args);
  s.check = json::parse(check);
  return s;
}

bool has(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

} // namespace

TEST(CorpusCheck, HistogramOfBytesWithShiftAndPartials) {
  // data 0 1 1 255 4 5; bins 4, shift 0: bin = v % 4 → 0 1 1 3 0 1 → counts 2 3 0 1.
  auto data = host<std::uint8_t>("data", ScalarType::U8, {0, 1, 1, 255, 4, 5});
  auto s = spec({buf("h", ScalarType::U32, 4), buf("data", ScalarType::U8, 6)},
                R"({"h": {"histogram_of": "data", "bins": 4}})");
  auto r = run(s, {data}, {host<std::uint32_t>("h", ScalarType::U32, {2, 3, 0, 1}), data});
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.detail, "h: 4 elements 4-bin histogram of data (bits >> 0), exact");
  r = run(s, {data}, {host<std::uint32_t>("h", ScalarType::U32, {2, 2, 1, 1}), data});
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(has(r.detail, "2 of 4 elements wrong")) << r.detail;
  EXPECT_TRUE(has(r.detail, "h bin 1 = 2, expected 3")) << r.detail;
  // bins 64, shift 2: (v >> 2) % 64 → 0 0 0 63 1 1 → bin0 3, bin1 2, bin63 1; split over 2
  // partials [p * 64 + b] any way that sums to it.
  std::vector<std::uint32_t> parts(128, 0);
  parts[0] = 1, parts[64] = 2, parts[1] = 2, parts[127] = 1;
  auto s2 = spec({buf("h", ScalarType::U32, 128), buf("data", ScalarType::U8, 6)},
                 R"({"h": {"histogram_of": "data", "bins": 64, "shift": 2, "partials": 2}})");
  r = run(s2, {data}, {host<std::uint32_t>("h", ScalarType::U32, parts), data});
  EXPECT_TRUE(r.passed) << r.detail;
  parts[64] = 3;
  r = run(s2, {data}, {host<std::uint32_t>("h", ScalarType::U32, parts), data});
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(has(r.detail, "h bin 0 (summed over partials) = 4, expected 3")) << r.detail;
}

TEST(CorpusCheck, SortedBlocksBySignednessAndDirection) {
  // i32 segments [3 -1 2] [0 5 -7] → [-1 2 3] [-7 0 5]; as unsigned -1 would sort last.
  auto in = host<std::int32_t>("in", ScalarType::I32, {3, -1, 2, 0, 5, -7});
  auto s = spec({buf("out", ScalarType::I32, 6), buf("in", ScalarType::I32, 6)},
                R"({"out": {"sorted_blocks_of": "in", "segment": 3}})");
  auto r = run(s, {in}, {host<std::int32_t>("out", ScalarType::I32, {-1, 2, 3, -7, 0, 5}), in});
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.detail, "out: 6 elements ascending sort of in in segments of 3, bit-exact");
  r = run(s, {in}, {host<std::int32_t>("out", ScalarType::I32, {-1, 2, 3, -7, 5, 0}), in});
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(has(r.detail, "out[4] (segment 1, rank 1) = 5, expected 0")) << r.detail;
  auto uin = host<std::uint32_t>("in", ScalarType::U32, {3, 0xffffffffu, 2});
  auto us = spec({buf("out", ScalarType::U32, 3), buf("in", ScalarType::U32, 3)},
                 R"({"out": {"sorted_blocks_of": "in"}})");
  EXPECT_TRUE(run(us, {uin}, {host<std::uint32_t>("out", ScalarType::U32, {2, 3, 0xffffffffu})}).passed);
  // floats descending by value: 0.5 -2 1.25 → 1.25 0.5 -2.
  auto fin = host<float>("in", ScalarType::F32, {0.5f, -2.0f, 1.25f});
  auto fs = spec({buf("out", ScalarType::F32, 3), buf("in", ScalarType::F32, 3)},
                 R"({"out": {"sorted_blocks_of": "in", "descending": true}})");
  EXPECT_TRUE(run(fs, {fin}, {host<float>("out", ScalarType::F32, {1.25f, 0.5f, -2.0f})}).passed);
  EXPECT_FALSE(run(fs, {fin}, {host<float>("out", ScalarType::F32, {-2.0f, 0.5f, 1.25f})}).passed);
}

TEST(CorpusCheck, ScanInclusiveExclusivePerSegmentAndWrapping) {
  // u32 1 2 3 4 in segments of 2: inclusive 1 3 | 3 7, exclusive 0 1 | 0 3.
  auto in = host<std::uint32_t>("in", ScalarType::U32, {1, 2, 3, 4});
  auto inc = spec({buf("out", ScalarType::U32, 4), buf("in", ScalarType::U32, 4)},
                  R"({"out": {"scan_of": "in", "inclusive": true, "segment": 2}})");
  auto exc = spec({buf("out", ScalarType::U32, 4), buf("in", ScalarType::U32, 4)},
                  R"({"out": {"scan_of": "in", "inclusive": false, "segment": 2}})");
  auto r = run(inc, {in}, {host<std::uint32_t>("out", ScalarType::U32, {1, 3, 3, 7})});
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.detail, "out: 4 elements inclusive scan of in in segments of 2, exact");
  EXPECT_TRUE(run(exc, {in}, {host<std::uint32_t>("out", ScalarType::U32, {0, 1, 0, 3})}).passed);
  r = run(exc, {in}, {host<std::uint32_t>("out", ScalarType::U32, {0, 1, 3, 6})}); // not restarted
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(has(r.detail, "out[2] = 3, expected 0")) << r.detail;
  // u8 200 + 100 = 300 wraps to 44 in the element type.
  auto b = host<std::uint8_t>("in", ScalarType::U8, {200, 100});
  auto s8 = spec({buf("out", ScalarType::U8, 2), buf("in", ScalarType::U8, 2)},
                 R"({"out": {"scan_of": "in", "inclusive": true}})");
  EXPECT_TRUE(run(s8, {b}, {host<std::uint8_t>("out", ScalarType::U8, {200, 44})}).passed);
  // f32 0.5 0.25 1 → 0.5 0.75 1.75; element 2 bound (3 + 2) * 2^-24 * 1.75 ≈ 5.2e-7.
  auto f = host<float>("in", ScalarType::F32, {0.5f, 0.25f, 1.0f});
  auto sf = spec({buf("out", ScalarType::F32, 3), buf("in", ScalarType::F32, 3)},
                 R"({"out": {"scan_of": "in", "inclusive": true}})");
  EXPECT_TRUE(run(sf, {f}, {host<float>("out", ScalarType::F32, {0.5f, 0.75f, 1.75f})}).passed);
  r = run(sf, {f}, {host<float>("out", ScalarType::F32, {0.5f, 0.75f, 1.7502f})});
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(has(r.detail, "out[2] = 1.75020003, expected 1.75 +- 5.2")) << r.detail;
}

TEST(CorpusCheck, ReduceSumPerSegmentAndWhole) {
  // 1..6 in segments of 3 → 6, 15; whole → 21.
  auto in = host<float>("in", ScalarType::F32, {1, 2, 3, 4, 5, 6});
  auto s = spec({buf("p", ScalarType::F32, 2), buf("in", ScalarType::F32, 6)},
                R"({"p": {"reduce_sum_of": "in", "segment": 3}})");
  auto r = run(s, {in}, {host<float>("p", ScalarType::F32, {6, 15})});
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.detail, "p: 2 elements sums of in over segments of 3, within (terms + 2) u x sum|terms| of a double reference");
  r = run(s, {in}, {host<float>("p", ScalarType::F32, {6, 14})});
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(has(r.detail, "p[1] (segment 1) = 14, expected 15")) << r.detail;
  auto w = spec({buf("t", ScalarType::F32, 1), buf("in", ScalarType::F32, 6)},
                R"({"t": {"reduce_sum_of": "in", "rel_tol": 0.01}})");
  // bound 0.01 * 21 = 0.21: 21.2 passes, 21.3 does not.
  EXPECT_TRUE(run(w, {in}, {host<float>("t", ScalarType::F32, {21.2f})}).passed);
  EXPECT_FALSE(run(w, {in}, {host<float>("t", ScalarType::F32, {21.3f})}).passed);
  // i32 partial sums wrap like the kernel's adds: 2^31 - 1 + 1 = -2^31.
  auto ii = host<std::int32_t>("in", ScalarType::I32, {2147483647, 1});
  auto si = spec({buf("t", ScalarType::I32, 1), buf("in", ScalarType::I32, 2)}, R"({"t": {"reduce_sum_of": "in"}})");
  EXPECT_TRUE(run(si, {ii}, {host<std::int32_t>("t", ScalarType::I32, {-2147483647 - 1})}).passed);
}

TEST(CorpusCheck, ConvolutionRowsAndColumnsZeroOutside) {
  // in 3 x 2 = [1 2 3; 4 5 6], taps 1 10 100, radius 1: out = 100 in(-1) + 10 in(0) + 1 in(+1).
  // Rows: 12 123 230 | 45 456 560. Columns: 14 25 36 | 140 250 360.
  auto in = host<float>("in", ScalarType::F32, {1, 2, 3, 4, 5, 6});
  auto taps = host<float>("taps", ScalarType::F32, {1, 10, 100});
  std::vector<ArgSpec> args{buf("out", ScalarType::F32, 6), buf("in", ScalarType::F32, 6), buf("taps", ScalarType::F32, 3)};
  auto rows = spec(args, R"({"out": {"convolution_of": ["in", "taps"], "width": 3, "height": 2, "radius": 1, "axis": "rows"}})");
  auto cols = spec(args, R"({"out": {"convolution_of": ["in", "taps"], "width": 3, "height": 2, "radius": 1, "axis": "cols"}})");
  auto r = run(rows, {in, taps}, {host<float>("out", ScalarType::F32, {12, 123, 230, 45, 456, 560})});
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.detail, "out: 6 elements 3-tap row convolution of in (zero outside), within (taps + 2) u x sum|terms| of a double reference");
  EXPECT_TRUE(run(cols, {in, taps}, {host<float>("out", ScalarType::F32, {14, 25, 36, 140, 250, 360})}).passed);
  r = run(cols, {in, taps}, {host<float>("out", ScalarType::F32, {12, 123, 230, 45, 456, 560})});
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(has(r.detail, "out[0] (x 0, y 0) = 12, expected 14")) << r.detail;
}

TEST(CorpusCheck, StencilInteriorAndBoundary) {
  // 3 x 3 grid 1..9, points (0,0) w 1 and (+1,0) w 2: interior x in {0, 1} (x + 1 < 3), every y.
  // Row 0: 1 + 4 = 5, 2 + 6 = 8, boundary 3; row 1: 14 17 | 6; row 2: 23 26 | 9.
  auto in = host<float>("in", ScalarType::F32, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  std::vector<ArgSpec> args{buf("out", ScalarType::F32, 9), buf("in", ScalarType::F32, 9)};
  auto copy = spec(args, R"({"out": {"stencil_of": "in", "width": 3, "height": 3, "points": [[0, 0, 1], [1, 0, 2]], "boundary": "copy"}})");
  auto good = host<float>("out", ScalarType::F32, {5, 8, 3, 14, 17, 6, 23, 26, 9});
  auto r = run(copy, {in}, {good});
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.detail, "out: 9 elements 2-point stencil of in, boundary copied, within (points + 2) u x sum|terms| of a double reference");
  // "unchanged": the boundary column must keep the output's initial values (-1 here).
  auto keep = spec(args, R"({"out": {"stencil_of": "in", "width": 3, "height": 3, "points": [[0, 0, 1], [1, 0, 2]], "boundary": "unchanged"}})");
  auto init = host<float>("out", ScalarType::F32, std::vector<float>(9, -1.0f));
  EXPECT_TRUE(run(keep, {in, init}, {host<float>("out", ScalarType::F32, {5, 8, -1, 14, 17, -1, 23, 26, -1})}).passed);
  r = run(keep, {in, init}, {good});
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(has(r.detail, "3 of 9 elements wrong")) << r.detail;
  EXPECT_TRUE(has(r.detail, "out[2] (x 2, y 0) (boundary) = 3, expected its initial value -1")) << r.detail;
}

TEST(CorpusCheck, GatherScatterAndScatterAdd) {
  // gather: src 10 20 30 40, idx 3 5 0 with mask 3 → 40 20 10.
  auto src = host<float>("src", ScalarType::F32, {10, 20, 30, 40});
  auto idx = host<std::uint32_t>("idx", ScalarType::U32, {3, 5, 0});
  auto g = spec({buf("out", ScalarType::F32, 3), buf("src", ScalarType::F32, 4), buf("idx", ScalarType::U32, 3)},
                R"({"out": {"gather_of": ["src", "idx"], "mask": 3}})");
  auto r = run(g, {src, idx}, {host<float>("out", ScalarType::F32, {40, 20, 10})});
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.detail, "out: 3 elements gather src[idx[i] & 3], bit-exact");
  r = run(g, {src, idx}, {host<float>("out", ScalarType::F32, {40, 40, 10})});
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(has(r.detail, "out[1] = 40, expected src[1] = 20")) << r.detail;
  // scatter: src 1 2 3 to idx 2 0 1 over out 9 9 9 9 → 2 3 1 9 (element 3 untouched).
  auto s3 = host<float>("src", ScalarType::F32, {1, 2, 3});
  auto perm = host<std::uint32_t>("idx", ScalarType::U32, {2, 0, 1});
  auto o9 = host<float>("out", ScalarType::F32, {9, 9, 9, 9});
  auto sc = spec({buf("out", ScalarType::F32, 4), buf("src", ScalarType::F32, 3), buf("idx", ScalarType::U32, 3)},
                 R"({"out": {"scatter_of": ["src", "idx"]}})");
  EXPECT_TRUE(run(sc, {o9, s3, perm}, {host<float>("out", ScalarType::F32, {2, 3, 1, 9})}).passed);
  r = run(sc, {o9, s3, perm}, {host<float>("out", ScalarType::F32, {2, 3, 1, 0})});
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(has(r.detail, "out[3] = 0, no index names it: expected its initial value 9")) << r.detail;
  // Colliding indices 1 1 0: element 1 may hold either 1 or 2, not 3.
  auto coll = host<std::uint32_t>("idx", ScalarType::U32, {1, 1, 0});
  EXPECT_TRUE(run(sc, {o9, s3, coll}, {host<float>("out", ScalarType::F32, {3, 2, 9, 9})}).passed);
  EXPECT_TRUE(run(sc, {o9, s3, coll}, {host<float>("out", ScalarType::F32, {3, 1, 9, 9})}).passed);
  EXPECT_FALSE(run(sc, {o9, s3, coll}, {host<float>("out", ScalarType::F32, {3, 3, 9, 9})}).passed);
  // scatter-add: vals 1 2 3 4 at idx 1 1 0 5 & 3 = 1 1 0 1 onto 10 20 30 40 → 13 27 30 40.
  auto vals = host<std::uint32_t>("vals", ScalarType::U32, {1, 2, 3, 4});
  auto ix = host<std::uint32_t>("idx", ScalarType::U32, {1, 1, 0, 5});
  auto t0 = host<std::uint32_t>("t", ScalarType::U32, {10, 20, 30, 40});
  auto sa = spec({buf("t", ScalarType::U32, 4), buf("vals", ScalarType::U32, 4), buf("idx", ScalarType::U32, 4)},
                 R"({"t": {"scatter_add_of": ["vals", "idx"], "mask": 3}})");
  r = run(sa, {t0, vals, ix}, {host<std::uint32_t>("t", ScalarType::U32, {13, 27, 30, 40})});
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.detail, "t: 4 elements scatter-add of vals at idx[i] & 3, exact");
  r = run(sa, {t0, vals, ix}, {host<std::uint32_t>("t", ScalarType::U32, {13, 23, 30, 40})});
  EXPECT_FALSE(r.passed);
  EXPECT_TRUE(has(r.detail, "t[1] = 23, expected 27")) << r.detail;
}

TEST(CorpusCheck, BadSpecsNameTheKey) {
  std::vector<ArgSpec> args{buf("out", ScalarType::U32, 4), buf("in", ScalarType::U32, 4), buf("i", ScalarType::U32, 4)};
  const std::pair<const char *, const char *> cases[] = {
      {R"({"out": {"histogram_of": "in"}})", "w.out.bins: missing"},
      {R"({"out": {"histogram_of": "in", "bins": 4, "shift": -1}})", "w.out.shift: expected a non-negative integer"},
      {R"({"out": {"histogram_of": "in", "bins": 4, "shift": 64}})", "w.out.shift: expected a shift below 64"},
      {R"({"out": {"histogram_of": "in", "bins": 4, "segment": 2}})", "w.out.segment: unknown key for a histogram_of check"},
      {R"({"out": {"sorted_blocks_of": "in", "descending": "yes"}})", "w.out.descending: expected true or false"},
      {R"({"out": {"scan_of": "in"}})", "w.out.inclusive: missing"},
      {R"({"out": {"scan_of": "in", "inclusive": true, "segment": 0}})", "w.out.segment: expected a positive integer"},
      {R"({"out": {"reduce_sum_of": "nope"}})", "w.out.reduce_sum_of: no buffer argument named 'nope'"},
      {R"({"out": {"convolution_of": ["in", "i"], "width": 2, "height": 2, "radius": 1, "axis": "diag"}})",
       R"(w.out.axis: expected "cols" or "rows", got "diag")"},
      {R"({"out": {"convolution_of": "in", "width": 2, "height": 2, "radius": 1, "axis": "rows"}})",
       "w.out.convolution_of: expected 2 buffer name(s)"},
      {R"({"out": {"stencil_of": "in", "width": 2, "height": 2, "boundary": "copy", "points": [[0, 0, 1], [1, 0]]}})",
       "w.out.points[1]: expected [dx, dy, weight]"},
      {R"({"out": {"stencil_of": "in", "width": 2, "height": 2, "points": [[0, 0, 1]]}})", "w.out.boundary: missing"},
      {R"({"out": {"gather_of": ["in", "i"], "mask": 0}})", "w.out.mask: expected a positive integer"},
      {R"({"out": {"scatter_of": ["in"]}})", "w.out.scatter_of: expected 2 buffer name(s)"},
  };
  for (const auto &[check, want] : cases) {
    auto r = parseCheck(json::parse(check), args, "w");
    ASSERT_FALSE(r.ok()) << check;
    EXPECT_TRUE(has(r.error().message, want)) << check << " gave: " << r.error().message;
  }
  // Type mismatches are caught when the check runs, naming the buffer.
  auto s = spec({buf("out", ScalarType::F32, 2), buf("in", ScalarType::F32, 2)},
                R"({"out": {"histogram_of": "in", "bins": 2}})");
  auto f = host<float>("in", ScalarType::F32, {1, 2});
  auto r = runCheck(s, {f}, {host<float>("out", ScalarType::F32, {0, 0}), f});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(has(r.error().message, "buffer 'in' must hold integers for a histogram_of check")) << r.error().message;
}

TEST(CorpusCheck, PermutationInitIsASeededShuffle) {
  // Seed 0, n = 3: draws 0xe220a8397b1dcdaf (mod 3 = 1) and 0x6e789e6aa1b965f4 (mod 2 = 0):
  // [0 1 2] → swap(2, 1) → [0 2 1] → swap(1, 0) → [2 0 1].
  LaunchSpec s;
  s.name = "t";
  ArgSpec a = buf("p", ScalarType::U32, 3);
  a.init = "permutation:0";
  ArgSpec big = buf("q", ScalarType::U32, 1000);
  big.init = "permutation:5";
  s.args = {a, big};
  auto r = makeBuffers(s);
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::vector<std::uint32_t> p(3), q(1000);
  std::memcpy(p.data(), (*r)[0].bytes.data(), 12);
  std::memcpy(q.data(), (*r)[1].bytes.data(), 4000);
  EXPECT_EQ(p, (std::vector<std::uint32_t>{2, 0, 1}));
  std::vector<std::uint32_t> sorted = q;
  std::sort(sorted.begin(), sorted.end());
  for (std::uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(sorted[i], i);
  EXPECT_NE(q, sorted); // shuffled
  // The spec parser accepts it and names a bad seed.
  json j = {{"name", "x"}, {"source", "vecadd.ptx"}, {"kernel", "k"}, {"grid", {1}}, {"block", {1}},
            {"args", {{{"buffer", "p"}, {"type", "u32"}, {"count", 4}, {"init", "permutation:x"}}}}};
  auto bad = parseLaunch(j, std::string(WARPLENS_TEST_DATA) + "/../kernels", "s.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(has(bad.error().message, "args[0].init: permutation seed must be a decimal integer")) << bad.error().message;
}
