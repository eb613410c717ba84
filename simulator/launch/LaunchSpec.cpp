/// \file
/// Launch spec parsing (SPEC "Launch spec"): strict keys and types, sizes bounded, every error
/// naming the file and the key path ("seeds.json: launches[3].grid: ...").
#include "launch/LaunchSpec.h"

#include "launch/Check.h"
#include "launch/JsonText.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace warplens::launch {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::uint64_t kMaxBufferBytes = 8ull << 30; // all buffers of one launch together
constexpr std::uint64_t kMaxThreads = 1ull << 31;     // grid x block
constexpr std::uint64_t kMaxDynamicShared = 256u << 10;

/// "file.json: launches[3]" + "grid" → "file.json: launches[3].grid"; "file.json" + "grid" →
/// "file.json: grid".
std::string keyPath(const std::string &where, const std::string &key) {
  if (where.empty()) return key;
  if (where.find(": ") != std::string::npos) return where + "." + key;
  return where + ": " + key;
}

Error bad(const std::string &path, const std::string &what) { return Error{path + ": " + what}; }

Expected<std::uint64_t> positiveInt(const json &v, const std::string &path, bool allowZero = false) {
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0))
    return bad(path, std::string("expected a ") + (allowZero ? "non-negative" : "positive") +
                         " integer, got " + shortDump(v));
  std::uint64_t x = v.get<std::uint64_t>();
  if (!allowZero && x == 0) return bad(path, "expected a positive integer, got 0");
  return x;
}

Expected<Dim3> parseDim3(const json &v, const std::string &path) {
  const std::string what = "expected an array of 1 to 3 positive integers, got ";
  if (!v.is_array() || v.empty() || v.size() > 3) return bad(path, what + shortDump(v));
  Dim3 d{1, 1, 1};
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number_integer() || v[i].get<std::int64_t>() <= 0 ||
        v[i].get<std::int64_t>() > std::numeric_limits<std::uint32_t>::max())
      return bad(path, what + shortDump(v));
    d[i] = v[i].get<std::uint32_t>();
  }
  return d;
}

Expected<std::string> str(const json &v, const std::string &path) {
  if (!v.is_string()) return bad(path, "expected a string, got " + shortDump(v));
  return v.get<std::string>();
}

bool isFloat(ScalarType t) {
  return t == ScalarType::F16 || t == ScalarType::F32 || t == ScalarType::F64;
}

Expected<std::string> parseInit(const std::string &init, const std::string &specDir,
                                const std::string &path) {
  if (init == "zero" || init == "poison" || init == "iota") return init;
  for (const char *kind : {"random:", "permutation:"}) {
    std::string k = kind;
    if (init.rfind(k, 0) != 0) continue;
    std::string seed = init.substr(k.size());
    if (seed.empty() || seed.find_first_not_of("0123456789") != std::string::npos ||
        seed.size() > 19)
      return bad(path, k.substr(0, k.size() - 1) + " seed must be a decimal integer, got '" + init + "'");
    return init;
  }
  if (init.rfind("file:", 0) == 0) {
    fs::path p = init.substr(5);
    if (p.empty()) return bad(path, "file: needs a path");
    if (p.is_relative()) p = fs::path(specDir) / p;
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) return bad(path, "file not found: " + p.string());
    return "file:" + fs::absolute(p).lexically_normal().string();
  }
  return bad(path, "unknown init '" + init + "' (expected zero, poison, iota, random:SEED, permutation:SEED or file:PATH)");
}

/// "tensor_map": {"dims": [d0, ...], "box": [b0, ...]} of a buffer argument (cuTensorMapEncodeTiled's
/// limits: rank 1..5, box 1..256 per dimension, 16-byte multiples for the box's inner row and the
/// packed global strides, 16-byte aligned start, the tensor inside the buffer).
Status parseTensorMap(const json &t, ArgSpec &arg, const std::string &path) {
  if (!t.is_object()) return bad(path, "expected an object {\"dims\": [...], \"box\": [...]}, got " + shortDump(t));
  for (auto it = t.begin(); it != t.end(); ++it)
    if (it.key() != "dims" && it.key() != "box")
      return bad(keyPath(path, it.key()), "unknown key in a tensor map (allowed: dims, box)");
  for (const char *k : {"dims", "box"})
    if (!t.contains(k) || !t[k].is_array() || t[k].empty() || t[k].size() > 5)
      return bad(keyPath(path, k), "expected an array of 1 to 5 positive integers (innermost first)");
  if (t["dims"].size() != t["box"].size())
    return bad(keyPath(path, "box"), "has " + std::to_string(t["box"].size()) + " dimensions, dims has " +
                                         std::to_string(t["dims"].size()));
  unsigned e = sizeOf(arg.type);
  std::uint64_t elems = 1;
  for (std::size_t i = 0; i < t["dims"].size(); ++i) {
    std::string dp = keyPath(path, "dims") + "[" + std::to_string(i) + "]";
    std::string bp = keyPath(path, "box") + "[" + std::to_string(i) + "]";
    WL_TRY(d, positiveInt(t["dims"][i], dp));
    WL_TRY(b, positiveInt(t["box"][i], bp));
    if (d > (1ull << 32)) return bad(dp, std::to_string(d) + " exceeds 2^32");
    if (b > 256 || b > d) return bad(bp, std::to_string(b) + " must be at most 256 and at most dims[" + std::to_string(i) + "]");
    if (i == 0 && (b * e) % 16) return bad(bp, "the box's inner row (" + std::to_string(b * e) + " bytes) must be a multiple of 16 bytes");
    if (i + 1 < t["dims"].size() && (elems * d * e) % 16)
      return bad(dp, "the packed stride of the next dimension (" + std::to_string(elems * d * e) + " bytes) must be a multiple of 16");
    elems *= d;
    if (elems > arg.count) return bad(dp, "the tensor has more elements than the buffer's " + std::to_string(arg.count));
    arg.tensorDims.push_back(d);
    arg.tensorBox.push_back(static_cast<std::uint32_t>(b));
  }
  if (arg.offsetBytes % 16) return bad(path, "the buffer's offset_bytes must be a multiple of 16 for a tensor map");
  if (arg.offsetBytes + elems * e > arg.count * e)
    return bad(keyPath(path, "dims"), "the tensor runs past the end of the buffer");
  if (arg.type == ScalarType::I8 || arg.type == ScalarType::I16)
    return bad(path, "tensor maps take u8, u16, i32, u32, i64, u64, f16, f32 or f64 elements");
  return {};
}

Expected<ArgSpec> parseArg(const json &a, const std::string &specDir, const std::string &path) {
  if (!a.is_object()) return bad(path, "expected an object {buffer,...} or {value,...}, got " + shortDump(a));
  ArgSpec arg;
  bool isBuffer = a.contains("buffer");
  if (!isBuffer && !a.contains("value"))
    return bad(path, "expected a \"buffer\" or a \"value\" key");
  static const std::set<std::string> bufferKeys{"buffer", "type", "count", "init", "offset_bytes", "tensor_map"};
  static const std::set<std::string> valueKeys{"value", "type"};
  for (auto it = a.begin(); it != a.end(); ++it) {
    const auto &allowed = isBuffer ? bufferKeys : valueKeys;
    if (!allowed.count(it.key()))
      return bad(keyPath(path, it.key()),
                 std::string("unknown key in a ") + (isBuffer ? "buffer" : "value") +
                     " argument (allowed: " +
                     (isBuffer ? "buffer, type, count, init, offset_bytes, tensor_map" : "value, type") + ")");
  }
  if (!a.contains("type")) return bad(keyPath(path, "type"), "missing (e.g. \"f32\", \"i32\")");
  WL_TRY(typeName, str(a["type"], keyPath(path, "type")));
  WL_TRY(type, parseScalarType(typeName, keyPath(path, "type")));
  arg.type = type;
  if (isBuffer) {
    arg.isBuffer = true;
    WL_TRY(name, str(a["buffer"], keyPath(path, "buffer")));
    if (name.empty()) return bad(keyPath(path, "buffer"), "empty buffer name");
    arg.buffer = name;
    if (!a.contains("count")) return bad(keyPath(path, "count"), "missing element count");
    WL_TRY(count, positiveInt(a["count"], keyPath(path, "count")));
    if (count > kMaxBufferBytes / sizeOf(type))
      return bad(keyPath(path, "count"), std::to_string(count) + " elements exceed the " +
                                             std::to_string(kMaxBufferBytes >> 30) + " GiB limit");
    arg.count = count;
    if (a.contains("init")) {
      WL_TRY(init, str(a["init"], keyPath(path, "init")));
      WL_TRY(resolved, parseInit(init, specDir, keyPath(path, "init")));
      arg.init = resolved;
    }
    if (a.contains("offset_bytes")) {
      WL_TRY(off, positiveInt(a["offset_bytes"], keyPath(path, "offset_bytes"), true));
      if (off >= count * sizeOf(type))
        return bad(keyPath(path, "offset_bytes"), std::to_string(off) +
                                                      " is not inside the buffer (" +
                                                      std::to_string(count * sizeOf(type)) + " bytes)");
      arg.offsetBytes = off;
    }
    if (a.contains("tensor_map")) WL_CHECK(parseTensorMap(a["tensor_map"], arg, keyPath(path, "tensor_map")));
    return arg;
  }
  const json &v = a["value"];
  const std::string vpath = keyPath(path, "value");
  if (isFloat(type)) {
    if (!v.is_number()) return bad(vpath, "expected a number, got " + shortDump(v));
    arg.floatValue = v.get<double>();
    // Only where the conversion is defined (-1.5e21 for an f64 was UB: fuzz_launch_spec UBSan).
    if (std::fabs(arg.floatValue) < 0x1p63) arg.intValue = static_cast<std::int64_t>(arg.floatValue);
    return arg;
  }
  if (!v.is_number_integer()) return bad(vpath, "expected an integer for type " + typeName + ", got " + shortDump(v));
  unsigned bits = sizeOf(type) * 8;
  bool isSigned = type == ScalarType::I8 || type == ScalarType::I16 || type == ScalarType::I32 ||
                  type == ScalarType::I64;
  if (v.is_number_unsigned()) {
    std::uint64_t u = v.get<std::uint64_t>();
    std::uint64_t max = bits == 64 ? (isSigned ? (1ull << 63) - 1 : ~0ull)
                                   : (isSigned ? (1ull << (bits - 1)) - 1 : (1ull << bits) - 1);
    if (u > max) return bad(vpath, shortDump(v) + " does not fit in " + typeName);
    arg.intValue = static_cast<std::int64_t>(u);
  } else {
    std::int64_t s = v.get<std::int64_t>();
    std::int64_t min = !isSigned ? 0 : bits == 64 ? std::numeric_limits<std::int64_t>::min()
                                                  : -(std::int64_t(1) << (bits - 1));
    if (s < min) return bad(vpath, shortDump(v) + " does not fit in " + typeName);
    arg.intValue = s;
  }
  arg.floatValue = static_cast<double>(arg.intValue);
  return arg;
}

} // namespace

unsigned sizeOf(ScalarType t) {
  switch (t) {
  case ScalarType::I8: case ScalarType::U8: return 1;
  case ScalarType::I16: case ScalarType::U16: case ScalarType::F16: return 2;
  case ScalarType::I32: case ScalarType::U32: case ScalarType::F32: return 4;
  case ScalarType::I64: case ScalarType::U64: case ScalarType::F64: return 8;
  }
  return 4;
}

Expected<ScalarType> parseScalarType(const std::string &name, const std::string &where) {
  static const std::map<std::string, ScalarType> names{
      {"i8", ScalarType::I8},   {"u8", ScalarType::U8},   {"i16", ScalarType::I16},
      {"u16", ScalarType::U16}, {"i32", ScalarType::I32}, {"u32", ScalarType::U32},
      {"i64", ScalarType::I64}, {"u64", ScalarType::U64}, {"f16", ScalarType::F16},
      {"f32", ScalarType::F32}, {"f64", ScalarType::F64}};
  auto it = names.find(name);
  if (it == names.end())
    return Error::at(where, "unknown type '" + name + "' (expected i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64)");
  return it->second;
}

Expected<LaunchSpec> parseLaunch(const json &j, const std::string &specDir, const std::string &where) {
  if (!j.is_object()) return Error::at(where, "expected a launch object, got " + shortDump(j));
  static const std::set<std::string> keys{"name", "source", "kernel", "grid", "block", "cluster",
                                          "dynamic_shared_bytes", "args", "check", "nvcc_flags",
                                          "description"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!keys.count(it.key()))
      return bad(keyPath(where, it.key()),
                 "unknown key (allowed: name, source, kernel, grid, block, cluster, dynamic_shared_bytes, "
                 "args, check, nvcc_flags, description)");
  for (const char *req : {"source", "kernel", "grid", "block"})
    if (!j.contains(req)) return bad(keyPath(where, req), "missing required key");

  LaunchSpec s;
  s.specFile = where;
  WL_TRY(kernel, str(j["kernel"], keyPath(where, "kernel")));
  if (kernel.empty()) return bad(keyPath(where, "kernel"), "empty kernel name");
  s.kernel = kernel;
  s.name = kernel;
  if (j.contains("name")) {
    WL_TRY(name, str(j["name"], keyPath(where, "name")));
    s.name = name;
  }
  WL_TRY(source, str(j["source"], keyPath(where, "source")));
  fs::path src = source;
  if (src.is_relative()) src = fs::path(specDir) / src;
  std::error_code ec;
  if (!fs::is_regular_file(src, ec))
    return bad(keyPath(where, "source"), "file not found: " + src.string());
  s.source = fs::absolute(src).lexically_normal().string();

  WL_TRY(grid, parseDim3(j["grid"], keyPath(where, "grid")));
  WL_TRY(block, parseDim3(j["block"], keyPath(where, "block")));
  s.grid = grid;
  s.block = block;
  std::uint64_t blockThreads = std::uint64_t(block[0]) * block[1] * block[2];
  if (blockThreads > 1024 || block[2] > 64)
    return bad(keyPath(where, "block"), std::to_string(blockThreads) +
                                            " threads per block (at most 1024, z at most 64)");
  if (grid[1] > 65535 || grid[2] > 65535)
    return bad(keyPath(where, "grid"), "y and z must be at most 65535");
  std::uint64_t blocks = std::uint64_t(grid[0]) * grid[1] * grid[2];
  if (blocks > kMaxThreads || blocks * blockThreads > kMaxThreads)
    return bad(keyPath(where, "grid"), std::to_string(blocks) + " blocks x " +
                                           std::to_string(blockThreads) +
                                           " threads exceed 2^31 threads");
  if (j.contains("cluster")) { // thread block clusters at launch (sm_90): portable sizes only
    WL_TRY(cluster, parseDim3(j["cluster"], keyPath(where, "cluster")));
    std::uint64_t size = std::uint64_t(cluster[0]) * cluster[1] * cluster[2];
    if (size > 8)
      return bad(keyPath(where, "cluster"), std::to_string(size) + " blocks per cluster (at most 8, the portable size)");
    for (int d = 0; d < 3; ++d)
      if (grid[d] % cluster[d])
        return bad(keyPath(where, "cluster"), "grid [" + std::to_string(grid[0]) + ", " + std::to_string(grid[1]) + ", " +
                                                  std::to_string(grid[2]) + "] is not a multiple of the cluster dims [" +
                                                  std::to_string(cluster[0]) + ", " + std::to_string(cluster[1]) + ", " +
                                                  std::to_string(cluster[2]) + "]");
    s.cluster = cluster;
  }
  if (j.contains("dynamic_shared_bytes")) {
    WL_TRY(dyn, positiveInt(j["dynamic_shared_bytes"], keyPath(where, "dynamic_shared_bytes"), true));
    if (dyn > kMaxDynamicShared)
      return bad(keyPath(where, "dynamic_shared_bytes"), std::to_string(dyn) + " bytes (at most 256 KiB)");
    s.dynamicSharedBytes = static_cast<std::uint32_t>(dyn);
  }
  if (j.contains("args")) {
    const json &args = j["args"];
    if (!args.is_array()) return bad(keyPath(where, "args"), "expected an array of arguments");
    std::map<std::string, const ArgSpec *> seen;
    std::uint64_t totalBytes = 0;
    for (std::size_t i = 0; i < args.size(); ++i) {
      std::string path = keyPath(where, "args[" + std::to_string(i) + "]");
      WL_TRY(arg, parseArg(args[i], specDir, path));
      s.args.push_back(arg);
    }
    for (std::size_t i = 0; i < s.args.size(); ++i) {
      const ArgSpec &a = s.args[i];
      if (!a.isBuffer) continue;
      auto [it, fresh] = seen.emplace(a.buffer, &a);
      if (fresh) {
        totalBytes += a.count * sizeOf(a.type);
        continue;
      }
      const ArgSpec &first = *it->second;
      if (first.type != a.type || first.count != a.count || first.init != a.init)
        return bad(keyPath(where, "args[" + std::to_string(i) + "]"),
                   "buffer '" + a.buffer + "' named again with a different type, count or init");
    }
    if (totalBytes > kMaxBufferBytes)
      return bad(keyPath(where, "args"), std::to_string(totalBytes) +
                                             " bytes of buffers exceed the 8 GiB limit");
  }
  if (j.contains("nvcc_flags")) {
    const json &f = j["nvcc_flags"];
    if (!f.is_array()) return bad(keyPath(where, "nvcc_flags"), "expected an array of strings");
    for (std::size_t i = 0; i < f.size(); ++i) {
      WL_TRY(flag, str(f[i], keyPath(where, "nvcc_flags[" + std::to_string(i) + "]")));
      s.nvccFlags.push_back(flag);
    }
  }
  if (j.contains("check")) {
    WL_TRY(items, parseCheck(j["check"], s.args, keyPath(where, "check")));
    (void)items;
    s.check = j["check"];
  }
  return s;
}

Expected<std::vector<LaunchSpec>> loadSpecFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open file"};
  std::stringstream ss;
  ss << in.rdbuf();
  return parseSpecText(ss.str(), path);
}

Expected<std::vector<LaunchSpec>> parseSpecText(const std::string &text, const std::string &path) {
  WL_TRY(j, parseJsonText(text, path));
  std::string dir = fs::absolute(fs::path(path)).parent_path().string();
  std::vector<LaunchSpec> out;
  if (j.is_object() && j.contains("launches")) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.key() != "launches" && it.key() != "description")
        return Error{path + ": " + it.key() + ": unknown key in a suite (allowed: launches, description)"};
    const json &ls = j["launches"];
    if (!ls.is_array()) return Error{path + ": launches: expected an array of launch objects"};
    std::set<std::string> names;
    for (std::size_t i = 0; i < ls.size(); ++i) {
      std::string where = path + ": launches[" + std::to_string(i) + "]";
      WL_TRY(spec, parseLaunch(ls[i], dir, where));
      if (!names.insert(spec.name).second)
        return Error{where + ".name: duplicate launch name '" + spec.name + "'"};
      spec.specFile = path;
      out.push_back(std::move(spec));
    }
    return out;
  }
  WL_TRY(spec, parseLaunch(j, dir, path));
  spec.specFile = path;
  out.push_back(std::move(spec));
  return out;
}

} // namespace warplens::launch
