/// \file
/// Buffer initialisation: each init kind produces the documented bytes.
#include "launch/LaunchSpec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace warplens;
using namespace warplens::launch;

namespace {

LaunchSpec specWith(std::vector<ArgSpec> args) {
  LaunchSpec s;
  s.name = "t";
  s.args = std::move(args);
  return s;
}

ArgSpec buf(const std::string &name, ScalarType t, std::uint64_t n, const std::string &init) {
  ArgSpec a;
  a.isBuffer = true;
  a.buffer = name;
  a.type = t;
  a.count = n;
  a.init = init;
  return a;
}

template <class T> T elem(const HostBuffer &b, std::size_t i) {
  T v;
  std::memcpy(&v, b.bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

} // namespace

TEST(Buffers, OnePerDistinctNameInFirstUseOrder) {
  ArgSpec v;
  v.type = ScalarType::I32;
  auto r = makeBuffers(specWith({buf("b", ScalarType::F32, 3, "zero"), v,
                                 buf("a", ScalarType::F64, 2, "zero"), buf("b", ScalarType::F32, 3, "zero")}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].name, "b");
  EXPECT_EQ((*r)[0].bytes.size(), 12u);
  EXPECT_EQ((*r)[1].name, "a");
  EXPECT_EQ((*r)[1].bytes.size(), 16u);
}

TEST(Buffers, ZeroPoisonIota) {
  auto r = makeBuffers(specWith({buf("z", ScalarType::I32, 5, "zero"), buf("p", ScalarType::F32, 5, "poison"),
                                 buf("i", ScalarType::F32, 5, "iota"), buf("d", ScalarType::F64, 3, "iota"),
                                 buf("u", ScalarType::U8, 300, "iota"), buf("h", ScalarType::F16, 4, "iota")}));
  ASSERT_TRUE(r.ok());
  const auto &b = *r;
  for (int i = 0; i < 5; ++i) EXPECT_EQ(elem<std::int32_t>(b[0], i), 0);
  EXPECT_EQ(elem<std::uint32_t>(b[1], 4), 0xffffffffu);
  EXPECT_TRUE(std::isnan(elem<float>(b[1], 0)));
  EXPECT_EQ(elem<float>(b[2], 4), 4.0f);
  EXPECT_EQ(elem<double>(b[3], 2), 2.0);
  EXPECT_EQ(elem<std::uint8_t>(b[4], 299), 299 % 256); // wraps
  // half: 1.0 = 0x3c00, 2.0 = 0x4000, 3.0 = 0x4200
  EXPECT_EQ(elem<std::uint16_t>(b[5], 1), 0x3c00);
  EXPECT_EQ(elem<std::uint16_t>(b[5], 2), 0x4000);
  EXPECT_EQ(elem<std::uint16_t>(b[5], 3), 0x4200);
}

TEST(Buffers, RandomIsSplitMix64AndDeterministic) {
  auto r = makeBuffers(specWith({buf("a", ScalarType::U64, 2, "random:0"), buf("f", ScalarType::F32, 1000, "random:7"),
                                 buf("g", ScalarType::F32, 1000, "random:7"), buf("h", ScalarType::F32, 1000, "random:8")}));
  ASSERT_TRUE(r.ok());
  // splitmix64 with seed 0: the published first outputs.
  EXPECT_EQ(elem<std::uint64_t>((*r)[0], 0), 0xe220a8397b1dcdafull);
  EXPECT_EQ(elem<std::uint64_t>((*r)[0], 1), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ((*r)[1].bytes, (*r)[2].bytes);
  EXPECT_NE((*r)[1].bytes, (*r)[3].bytes);
  double lo = 1, hi = -1;
  for (int i = 0; i < 1000; ++i) {
    float f = elem<float>((*r)[1], i);
    lo = std::min<double>(lo, f);
    hi = std::max<double>(hi, f);
    EXPECT_EQ(f, std::ldexp(std::round(std::ldexp(f + 1.0, 23)), -23) - 1.0); // on the 2^-23 grid
  }
  EXPECT_GE(lo, -1.0);
  EXPECT_LT(hi, 1.0);
  EXPECT_LT(lo, -0.9);
  EXPECT_GT(hi, 0.9);
}

TEST(Buffers, FileInitReadsRawBytesAndChecksSize) {
  auto path = std::filesystem::temp_directory_path() / "warplens_h4_init.bin";
  {
    std::ofstream f(path, std::ios::binary);
    std::int32_t v[3] = {7, -8, 9};
    f.write(reinterpret_cast<const char *>(v), sizeof v);
  }
  auto r = makeBuffers(specWith({buf("a", ScalarType::I32, 3, "file:" + path.string())}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(elem<std::int32_t>((*r)[0], 1), -8);
  r = makeBuffers(specWith({buf("a", ScalarType::I32, 4, "file:" + path.string())}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("holds 12 bytes, buffer 'a' needs 16"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("args[0].init"), std::string::npos);
}
