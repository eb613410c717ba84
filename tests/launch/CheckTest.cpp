/// \file
/// Functional checks on hand-made buffers: correct outputs pass, a deliberately wrong element
/// fails and is named, offsets are honoured, the SGEMM bound is the stated one.
#include "launch/LaunchSpec.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace warplens;
using namespace warplens::launch;
using nlohmann::json;

namespace {

ArgSpec buf(const std::string &name, ScalarType t, std::uint64_t n, std::uint64_t off = 0) {
  ArgSpec a;
  a.isBuffer = true;
  a.buffer = name;
  a.type = t;
  a.count = n;
  a.offsetBytes = off;
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

} // namespace

TEST(Check, NoCheckDoesNotRun) {
  LaunchSpec s;
  auto r = run(s, {}, {});
  EXPECT_FALSE(r.ran);
  EXPECT_TRUE(r.passed);
}

TEST(Check, TransposeExactAndOneWrongElement) {
  LaunchSpec s;
  s.name = "t";
  s.args = {buf("out", ScalarType::F32, 6), buf("in", ScalarType::F32, 6)};
  s.check = json::parse(R"({"out": {"transpose_of": "in", "rows": 2, "cols": 3}})");
  // in = [[0 1 2] [3 4 5]] → out = [[0 3] [1 4] [2 5]]
  auto in = host<float>("in", ScalarType::F32, {0, 1, 2, 3, 4, 5});
  auto good = host<float>("out", ScalarType::F32, {0, 3, 1, 4, 2, 5});
  auto r = run(s, {in}, {good, in});
  EXPECT_TRUE(r.ran);
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.detail, "out: 6 elements bit-exact transpose of in");
  auto wrong = host<float>("out", ScalarType::F32, {0, 3, 1, 4, 5, 2});
  r = run(s, {in}, {wrong, in});
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.detail.find("2 of 6 elements wrong"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("out[4] (row 2, col 0) = 5, expected 2"), std::string::npos) << r.detail;
}

TEST(Check, CopyComparesBitsSoNaNPoisonFails) {
  LaunchSpec s;
  s.args = {buf("out", ScalarType::F64, 3), buf("in", ScalarType::F64, 3)};
  s.check = json::parse(R"({"out": {"copy_of": "in"}})");
  auto in = host<double>("in", ScalarType::F64, {1.5, -0.0, 3});
  EXPECT_TRUE(run(s, {in}, {host<double>("out", ScalarType::F64, {1.5, -0.0, 3}), in}).passed);
  // +0.0 vs -0.0 compare equal as numbers but differ as bits: a copy must be bit-exact.
  EXPECT_FALSE(run(s, {in}, {host<double>("out", ScalarType::F64, {1.5, 0.0, 3}), in}).passed);
  HostBuffer poison{"out", ScalarType::F64, 3, std::vector<std::uint8_t>(24, 0xff)};
  EXPECT_FALSE(run(s, {in}, {poison, in}).passed);
}

TEST(Check, AddHonoursPointerOffsets) {
  // Kernel sees a, b, c from byte 4 on (one element in): c[i] = a[i] + b[i] for i < 3.
  LaunchSpec s;
  s.args = {buf("c", ScalarType::F32, 4, 4), buf("a", ScalarType::F32, 4, 4), buf("b", ScalarType::F32, 4, 4)};
  s.check = json::parse(R"({"c": {"add_of": ["a", "b"], "count": 3}})");
  auto a = host<float>("a", ScalarType::F32, {100, 1, 2, 3});
  auto b = host<float>("b", ScalarType::F32, {100, 0.5f, 0.25f, 0.125f});
  auto c = host<float>("c", ScalarType::F32, {-1, 1.5f, 2.25f, 3.125f});
  auto r = run(s, {a, b}, {c, a, b});
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_EQ(r.detail, "c: 3 elements bit-exact add of inputs");
  auto bad = host<float>("c", ScalarType::F32, {200, 1.5f, 2.25f, 3.0f});
  r = run(s, {a, b}, {bad, a, b});
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.detail.find("1 of 3 elements wrong"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("c[2] = 3, expected 3.125"), std::string::npos) << r.detail;
}

TEST(Check, SumIsLeftToRightInFloat) {
  // (1e8 + 1) + -1e8 in float = 0, not 1: the reference must round like the kernel.
  LaunchSpec s;
  s.args = {buf("out", ScalarType::F32, 1), buf("x", ScalarType::F32, 1), buf("y", ScalarType::F32, 1),
            buf("z", ScalarType::F32, 1)};
  s.check = json::parse(R"({"out": {"sum_of": ["x", "y", "z"]}})");
  std::vector<HostBuffer> in{host<float>("x", ScalarType::F32, {1e8f}), host<float>("y", ScalarType::F32, {1.0f}),
                             host<float>("z", ScalarType::F32, {-1e8f})};
  EXPECT_TRUE(run(s, in, {host<float>("out", ScalarType::F32, {0.0f})}).passed);
  EXPECT_FALSE(run(s, in, {host<float>("out", ScalarType::F32, {1.0f})}).passed);
}

TEST(Check, AosSumPicksFields) {
  LaunchSpec s;
  s.args = {buf("out", ScalarType::F32, 2), buf("p", ScalarType::F32, 6)};
  s.check = json::parse(R"({"out": {"aos_sum_of": "p", "stride": 3, "fields": [0, 2]}})");
  auto p = host<float>("p", ScalarType::F32, {1, 10, 100, 2, 20, 200});
  EXPECT_TRUE(run(s, {p}, {host<float>("out", ScalarType::F32, {101, 202}), p}).passed);
  EXPECT_FALSE(run(s, {p}, {host<float>("out", ScalarType::F32, {111, 202}), p}).passed);
}

TEST(Check, SgemmBoundIsStated) {
  // A 2x2 * B 2x2 (k = 2): default tolerance (k + 2) * 2^-24 of sum|a*b|.
  LaunchSpec s;
  s.args = {buf("C", ScalarType::F32, 4), buf("A", ScalarType::F32, 4), buf("B", ScalarType::F32, 4)};
  s.check = json::parse(R"({"C": {"sgemm_of": ["A", "B"], "m": 2, "n": 2, "k": 2}})");
  auto A = host<float>("A", ScalarType::F32, {1, 2, 3, 4});
  auto B = host<float>("B", ScalarType::F32, {5, 6, 7, 8});
  // C = [[19 22] [43 50]]
  auto r = run(s, {A, B}, {host<float>("C", ScalarType::F32, {19, 22, 43, 50})});
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_NE(r.detail.find("within 2.38e-07 x sum|a*b|"), std::string::npos) << r.detail;
  // 50 has sum|a*b| = 50 → bound 1.2e-5: 50.0001 is outside it.
  EXPECT_FALSE(run(s, {A, B}, {host<float>("C", ScalarType::F32, {19, 22, 43, 50.0001f})}).passed);
}

TEST(Check, SgemmOfSignedIntegersSignExtends) {
  // int8 inputs, int32 output (an IMMA GEMM): -3 is -3, not 253; a negative result is read
  // as negative (it read as 2^32 - 9 before).
  LaunchSpec s;
  s.args = {buf("C", ScalarType::I32, 4), buf("A", ScalarType::I8, 4), buf("B", ScalarType::I8, 4)};
  s.check = json::parse(R"({"C": {"sgemm_of": ["A", "B"], "m": 2, "n": 2, "k": 2, "rel_tol": 1e-12}})");
  auto A = host<std::int8_t>("A", ScalarType::I8, {-3, 2, 1, -128});
  auto B = host<std::int8_t>("B", ScalarType::I8, {1, 127, -3, 4});
  // C = [[-3-6, -381+8], [1+384, 127-512]] = [[-9, -373], [385, -385]]
  auto r = run(s, {A, B}, {host<std::int32_t>("C", ScalarType::I32, {-9, -373, 385, -385})});
  EXPECT_TRUE(r.passed) << r.detail;
  EXPECT_FALSE(run(s, {A, B}, {host<std::int32_t>("C", ScalarType::I32, {-9, -373, 385, -384})}).passed);
}

TEST(Check, MatvecAgainstDoubleReference) {
  LaunchSpec s;
  s.args = {buf("y", ScalarType::F32, 2), buf("A", ScalarType::F32, 6), buf("x", ScalarType::F32, 3)};
  s.check = json::parse(R"({"y": {"matvec_of": ["A", "x"], "rows": 2, "cols": 3}})");
  auto A = host<float>("A", ScalarType::F32, {1, 2, 3, 4, 5, 6});
  auto x = host<float>("x", ScalarType::F32, {1, 0.5f, -1});
  EXPECT_TRUE(run(s, {A, x}, {host<float>("y", ScalarType::F32, {-1, 0.5f})}).passed);
  auto r = run(s, {A, x}, {host<float>("y", ScalarType::F32, {-1, 0.75f})});
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.detail.find("y[1] = 0.75, expected 0.5"), std::string::npos) << r.detail;
}

TEST(Check, TooSmallBufferIsAnError) {
  LaunchSpec s;
  s.name = "t";
  s.args = {buf("out", ScalarType::F32, 4), buf("in", ScalarType::F32, 4)};
  s.check = json::parse(R"({"out": {"transpose_of": "in", "rows": 4, "cols": 4}})");
  auto in = host<float>("in", ScalarType::F32, {0, 1, 2, 3});
  auto out = host<float>("out", ScalarType::F32, {0, 1, 2, 3});
  auto r = runCheck(s, {in}, {out, in});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("buffer 'in' holds 4 elements from its offset, the check needs 16"),
            std::string::npos) << r.error().message;
}
