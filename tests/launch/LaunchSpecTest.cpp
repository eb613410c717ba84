/// \file
/// Launch spec parsing: the happy path on the bundled suites, and every bad key, type and absurd
/// size rejected with a message naming the key path.
#include "launch/LaunchSpec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace warplens;
using namespace warplens::launch;
using nlohmann::json;

namespace {

const std::string kKernels = std::string(WARPLENS_SOURCE_DIR) + "/kernels";

json good() {
  return json::parse(R"({"name": "t", "source": "transpose.cu", "kernel": "transposeNaive_f32",
    "grid": [2, 8, 1], "block": [32, 8, 1],
    "args": [{"buffer": "out", "type": "f32", "count": 4096, "init": "poison"},
             {"buffer": "in", "type": "f32", "count": 4096, "init": "iota"},
             {"value": 64, "type": "i32"}, {"value": 64, "type": "i32"}],
    "check": {"out": {"transpose_of": "in", "rows": 64, "cols": 64}}})");
}

/// Parses `j` and returns the error message ("" if it parsed).
std::string errorOf(const json &j) {
  auto r = parseLaunch(j, kKernels, "s.json: launches[3]");
  return r.ok() ? std::string() : r.error().message;
}

} // namespace

TEST(LaunchSpec, ParsesAllFields) {
  json j = good();
  j["dynamic_shared_bytes"] = 1024;
  j["nvcc_flags"] = {"-DX=1"};
  j["args"][1]["offset_bytes"] = 4;
  auto r = parseLaunch(j, kKernels, "s.json");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->name, "t");
  EXPECT_EQ(r->source, kKernels + "/transpose.cu");
  EXPECT_EQ(r->grid, (Dim3{2, 8, 1}));
  EXPECT_EQ(r->block, (Dim3{32, 8, 1}));
  EXPECT_EQ(r->dynamicSharedBytes, 1024u);
  ASSERT_EQ(r->args.size(), 4u);
  EXPECT_TRUE(r->args[0].isBuffer);
  EXPECT_EQ(r->args[0].init, "poison");
  EXPECT_EQ(r->args[1].offsetBytes, 4u);
  EXPECT_FALSE(r->args[2].isBuffer);
  EXPECT_EQ(r->args[2].intValue, 64);
  EXPECT_EQ(r->args[2].type, ScalarType::I32);
  EXPECT_EQ(r->nvccFlags, std::vector<std::string>{"-DX=1"});
  EXPECT_FALSE(r->check.empty());
}

TEST(LaunchSpec, ShortDimsArePaddedWithOnes) {
  json j = good();
  j["grid"] = {4};
  auto r = parseLaunch(j, kKernels, "s.json");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->grid, (Dim3{4, 1, 1}));
}

TEST(LaunchSpec, BundledSuitesLoad) {
  for (const char *f : {"seeds.json", "seeds_small.json"}) {
    auto r = loadSpecFile(kKernels + "/" + f);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->size(), 28u) << f;
    for (const LaunchSpec &s : *r) EXPECT_FALSE(s.check.empty()) << s.name;
  }
}

struct BadCase {
  const char *patch; // top-level keys replaced in good()
  const char *mustContain;
};

TEST(LaunchSpec, BadInputNamesTheKey) {
  const BadCase cases[] = {
      {R"({"gird": [1,1,1]})", "launches[3].gird: unknown key"},
      {R"({"grid": [0,1,1]})", "launches[3].grid: expected an array of 1 to 3 positive integers"},
      {R"({"grid": "64"})", "launches[3].grid: expected an array"},
      {R"({"grid": [1,1,1,1]})", "launches[3].grid"},
      {R"({"block": [32, 8.5, 1]})", "launches[3].block: expected an array"},
      {R"({"block": [64, 32, 1]})", "launches[3].block: 2048 threads per block"},
      {R"({"grid": [2147483647, 2, 1]})", "launches[3].grid: "},
      {R"({"grid": [1, 70000, 1]})", "launches[3].grid: y and z"},
      {R"({"kernel": 5})", "launches[3].kernel: expected a string"},
      {R"({"source": "nope.cu"})", "launches[3].source: file not found"},
      {R"({"dynamic_shared_bytes": -1})", "launches[3].dynamic_shared_bytes"},
      {R"({"dynamic_shared_bytes": 1000000})", "launches[3].dynamic_shared_bytes"},
      {R"({"nvcc_flags": "-O3"})", "launches[3].nvcc_flags: expected an array"},
      {R"({"args": {"a": 1}})", "launches[3].args: expected an array"},
      {R"({"check": {"nothere": {"copy_of": "in"}}})", "launches[3].check.nothere: no buffer"},
      {R"({"check": {"out": {"copy_of": "missing"}}})", "launches[3].check.out.copy_of: no buffer"},
      {R"({"check": {"out": {"flip_of": "in"}}})", "launches[3].check.out: no check kind"},
      {R"({"check": {"out": {"transpose_of": "in", "rows": 64}}})", "launches[3].check.out.cols: missing"},
      {R"({"check": {"out": {"copy_of": "in", "rows": 2}}})", "launches[3].check.out.rows: unknown key"},
  };
  for (const BadCase &c : cases) {
    json j = good();
    json patch = json::parse(c.patch);
    for (auto it = patch.begin(); it != patch.end(); ++it) j[it.key()] = it.value();
    std::string msg = errorOf(j);
    EXPECT_NE(msg.find(c.mustContain), std::string::npos) << c.patch << " gave: '" << msg << "'";
    EXPECT_EQ(msg.rfind("s.json: launches[3]", 0), 0u) << msg;
  }
  json j = good();
  j.erase("block");
  EXPECT_NE(errorOf(j).find("launches[3].block: missing"), std::string::npos);
}

TEST(LaunchSpec, BadArgumentsNameTheArgument) {
  const std::pair<json, const char *> cases[] = {
      {json::parse(R"({"buffer": "out", "type": "f33", "count": 4096})"), "args[0].type: unknown type 'f33'"},
      {json::parse(R"({"buffer": "out", "type": "f32"})"), "args[0].count: missing"},
      {json::parse(R"({"buffer": "out", "type": "f32", "count": -5})"), "args[0].count: expected a positive integer"},
      {json::parse(R"({"buffer": "out", "type": "f32", "count": 4096, "init": "ones"})"), "args[0].init: unknown init 'ones'"},
      {json::parse(R"({"buffer": "out", "type": "f32", "count": 4096, "init": "random:x"})"), "args[0].init: random seed"},
      {json::parse(R"({"buffer": "out", "type": "f32", "count": 4096, "init": "file:none.bin"})"), "args[0].init: file not found"},
      {json::parse(R"({"buffer": "out", "type": "f32", "count": 4096, "size": 3})"), "args[0].size: unknown key"},
      {json::parse(R"({"buffer": "out", "type": "f32", "count": 4096, "offset_bytes": 16384})"), "args[0].offset_bytes"},
      {json::parse(R"({"buffer": "out", "type": "f64", "count": 3000000000})"), "args[0].count: 3000000000 elements exceed"},
      {json::parse(R"({"value": 1.5, "type": "i32"})"), "args[0].value: expected an integer"},
      {json::parse(R"({"value": 300, "type": "u8"})"), "args[0].value: 300 does not fit in u8"},
      {json::parse(R"({"value": -1, "type": "u32"})"), "args[0].value: -1 does not fit in u32"},
      {json::parse(R"({"value": 1})"), "args[0].type: missing"},
      {json::parse(R"({"type": "i32"})"), "args[0]: expected a \"buffer\" or a \"value\""},
  };
  for (const auto &[arg, want] : cases) {
    json j = good();
    j["args"][0] = arg;
    j.erase("check");
    std::string msg = errorOf(j);
    EXPECT_NE(msg.find(want), std::string::npos) << arg.dump() << " gave: '" << msg << "'";
  }
}

TEST(LaunchSpec, TotalBufferBytesBounded) {
  json j = good();
  j.erase("check");
  j["args"] = json::parse(R"([{"buffer": "a", "type": "f64", "count": 700000000},
                              {"buffer": "b", "type": "f64", "count": 700000000}])");
  EXPECT_NE(errorOf(j).find("launches[3].args: 11200000000 bytes of buffers exceed"), std::string::npos)
      << errorOf(j);
}

TEST(LaunchSpec, SuiteFileErrorsNameFileAndIndex) {
  auto dir = std::filesystem::temp_directory_path() / "warplens_h4_spec";
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string &name, const std::string &text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  std::ofstream(dir / "k.cu") << "// empty\n";
  std::string p = write("bad.json", R"({"launches": [
    {"source": "k.cu", "kernel": "a", "grid": [1], "block": [32]},
    {"source": "k.cu", "kernel": "b", "grid": [1], "block": [32], "args": [{"buffer": "x"}]}]})");
  auto r = loadSpecFile(p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, p + ": launches[1].args[0].type: missing (e.g. \"f32\", \"i32\")");
  std::string dup = write("dup.json", R"({"launches": [
    {"source": "k.cu", "kernel": "a", "grid": [1], "block": [32]},
    {"source": "k.cu", "kernel": "a", "grid": [1], "block": [32]}]})");
  r = loadSpecFile(dup);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("launches[1].name: duplicate launch name 'a'"), std::string::npos);
  std::string syntax = write("syntax.json", "{\"launches\": [\n  {\"source\": }]}");
  r = loadSpecFile(syntax);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("line 2"), std::string::npos) << r.error().message;
  r = loadSpecFile((dir / "missing.json").string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("missing.json: cannot open"), std::string::npos);
  std::string single = write("one.json", R"({"source": "k.cu", "kernel": "a", "grid": [1], "block": [32], "bogus": 1})");
  r = loadSpecFile(single);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind(single + ": bogus: unknown key", 0), 0u) << r.error().message;
}

// "tensor_map" on a buffer argument (Hopper TMA): dims and box innermost first, within
// cuTensorMapEncodeTiled's limits; every violation names the key.
TEST(LaunchSpec, TensorMapArgument) {
  json j = good();
  j["args"][1]["tensor_map"] = json::parse(R"({"dims": [64, 64], "box": [32, 16]})");
  auto r = parseLaunch(j, kKernels, "s.json: launches[3]");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->args[1].isTensorMap());
  EXPECT_FALSE(r->args[0].isTensorMap());
  EXPECT_TRUE(r->args[1].isBuffer);
  EXPECT_EQ(r->args[1].tensorDims, (std::vector<std::uint64_t>{64, 64}));
  EXPECT_EQ(r->args[1].tensorBox, (std::vector<std::uint32_t>{32, 16}));

  const std::pair<const char *, const char *> cases[] = {
      {R"({"dims": [64, 64], "box": [32]})", "args[1].tensor_map.box: has 1 dimensions, dims has 2"},
      {R"({"dims": [64, 64]})", "args[1].tensor_map.box: expected an array of 1 to 5"},
      {R"({"dims": [1,1,1,1,1,1], "box": [1,1,1,1,1,1]})", "args[1].tensor_map.dims: expected an array of 1 to 5"},
      {R"({"dims": [64, 64], "box": [3, 32]})", "args[1].tensor_map.box[0]: the box's inner row (12 bytes) must be a multiple of 16"},
      {R"({"dims": [64, 64], "box": [32, 300]})", "args[1].tensor_map.box[1]: 300 must be at most 256"},
      {R"({"dims": [64, 64], "box": [128, 32]})", "args[1].tensor_map.box[0]: 128 must be at most 256 and at most dims[0]"},
      {R"({"dims": [10, 64], "box": [8, 8]})", "args[1].tensor_map.dims[0]: the packed stride of the next dimension (40 bytes)"},
      {R"({"dims": [64, 65], "box": [32, 32]})", "args[1].tensor_map.dims[1]: the tensor has more elements than the buffer's 4096"},
      {R"({"dims": [64, 64], "box": [32, 32], "swizzle": 128})", "args[1].tensor_map.swizzle: unknown key"},
      {R"([64, 64])", "args[1].tensor_map: expected an object"},
  };
  for (const auto &[map, want] : cases) {
    json k = good();
    k["args"][1]["tensor_map"] = json::parse(map);
    std::string msg = errorOf(k);
    EXPECT_NE(msg.find(want), std::string::npos) << map << " gave: '" << msg << "'";
  }
}

// "cluster" (thread block clusters sized at launch): 1 to 3 positive dims padded with ones, the
// grid a multiple of them, at most 8 blocks (the portable size); absent = {0, 0, 0}.
TEST(LaunchSpec, ClusterDims) {
  json j = good();
  auto plain = parseLaunch(j, kKernels, "s.json: launches[3]");
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_EQ(plain->cluster, (launch::Dim3{0, 0, 0}));
  j["cluster"] = json::parse("[2, 4]");
  auto r = parseLaunch(j, kKernels, "s.json: launches[3]");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->cluster, (launch::Dim3{2, 4, 1}));
  const std::pair<const char *, const char *> cases[] = {
      {"[3]", "launches[3].cluster: grid [2, 8, 1] is not a multiple of the cluster dims [3, 1, 1]"},
      {"[2, 8]", "launches[3].cluster: 16 blocks per cluster (at most 8, the portable size)"},
      {"[0]", "launches[3].cluster: expected an array of 1 to 3 positive integers"},
      {"2", "launches[3].cluster: expected an array of 1 to 3 positive integers"},
  };
  for (const auto &[dims, want] : cases) {
    json k = good();
    k["cluster"] = json::parse(dims);
    std::string msg = errorOf(k);
    EXPECT_NE(msg.find(want), std::string::npos) << dims << " gave: '" << msg << "'";
  }
}
