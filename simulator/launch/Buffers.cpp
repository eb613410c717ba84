/// \file
/// Host buffer initialisation (launch::makeBuffers), shared by the emulator and the probe so both
/// see identical bytes. poison = every byte 0xFF (f32/f64/f16: a negative quiet NaN, integers: -1
/// or the maximum); iota = element i holds i converted to the type (integers wrap); random:SEED =
/// splitmix64(SEED) stream, one draw per element: floats uniform in [-1, 1) on a 2^-23 grid
/// (exact in f32, f64; f16 on a 2^-10 grid), integers the draw's low bits; permutation:SEED = a
/// shuffle of 0..count-1 (Fisher-Yates from the end, j = draw mod (i + 1)); file:PATH = raw bytes.
#include "launch/LaunchSpec.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <utility>

namespace warplens::launch {

namespace {

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

/// float → IEEE half, round to nearest even (values here are small and exact; overflow → inf).
std::uint16_t toHalf(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  std::int32_t exp = static_cast<std::int32_t>((x >> 23) & 0xff) - 127 + 15;
  std::uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return sign | 0x7c00u | (mant ? 0x200u : 0u);
  if (exp >= 31) return sign | 0x7c00u;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant |= 0x800000u;
    unsigned shift = static_cast<unsigned>(14 - exp);
    std::uint32_t half = mant >> shift, rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return sign | static_cast<std::uint16_t>(half);
  }
  std::uint32_t half = (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13);
  std::uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) ++half;
  return sign | static_cast<std::uint16_t>(half);
}

/// Writes `v` (an integer or a real, per `t`) as element `i`.
void store(std::vector<std::uint8_t> &bytes, ScalarType t, std::uint64_t i, std::uint64_t asInt,
           double asReal) {
  std::uint8_t *p = bytes.data() + i * sizeOf(t);
  switch (t) {
  case ScalarType::F32: { float f = static_cast<float>(asReal); std::memcpy(p, &f, 4); break; }
  case ScalarType::F64: std::memcpy(p, &asReal, 8); break;
  case ScalarType::F16: { std::uint16_t h = toHalf(static_cast<float>(asReal)); std::memcpy(p, &h, 2); break; }
  default: std::memcpy(p, &asInt, sizeOf(t)); break; // little-endian: low bytes
  }
}

Status fill(HostBuffer &b, const std::string &init, const std::string &where) {
  const std::uint64_t n = b.count;
  b.bytes.assign(n * sizeOf(b.type), 0);
  if (init == "zero") return {};
  if (init == "poison") {
    std::memset(b.bytes.data(), 0xff, b.bytes.size());
    return {};
  }
  if (init == "iota") {
    for (std::uint64_t i = 0; i < n; ++i) store(b.bytes, b.type, i, i, static_cast<double>(i));
    return {};
  }
  if (init.rfind("random:", 0) == 0) {
    SplitMix64 rng{std::stoull(init.substr(7))};
    double grid = b.type == ScalarType::F16 ? 0x1p-10 : 0x1p-23;
    unsigned bits = b.type == ScalarType::F16 ? 11 : 24;
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t r = rng.next();
      double real = static_cast<double>(r >> (64 - bits)) * grid - 1.0;
      store(b.bytes, b.type, i, r, real);
    }
    return {};
  }
  if (init.rfind("permutation:", 0) == 0) {
    // A shuffle of 0..n-1 (Fisher-Yates from the end, j = draw mod (i + 1)), stored like iota.
    SplitMix64 rng{std::stoull(init.substr(12))};
    std::vector<std::uint64_t> perm(n);
    for (std::uint64_t i = 0; i < n; ++i) perm[i] = i;
    for (std::uint64_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[rng.next() % i]);
    for (std::uint64_t i = 0; i < n; ++i) store(b.bytes, b.type, i, perm[i], static_cast<double>(perm[i]));
    return {};
  }
  if (init.rfind("file:", 0) == 0) {
    std::string path = init.substr(5);
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return Error{where + ": cannot open init file " + path};
    std::uint64_t size = static_cast<std::uint64_t>(in.tellg());
    if (size != b.bytes.size())
      return Error{where + ": init file " + path + " holds " + std::to_string(size) +
                   " bytes, buffer '" + b.name + "' needs " + std::to_string(b.bytes.size())};
    in.seekg(0);
    in.read(reinterpret_cast<char *>(b.bytes.data()), static_cast<std::streamsize>(size));
    return {};
  }
  return Error{where + ": unknown init '" + init + "'"};
}

/// MemAvailable from /proc/meminfo in bytes, or 0 where it cannot be read (no check then).
std::uint64_t availableMemory() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

} // namespace

Expected<std::vector<HostBuffer>> makeBuffers(const LaunchSpec &spec) {
  // The spec parser bounds the sum (8 GiB); here it must also fit in this machine's memory,
  // with a quarter left for the emulator and the rest of the process.
  std::uint64_t total = 0;
  std::map<std::string, bool> counted;
  for (const ArgSpec &a : spec.args)
    if (a.isBuffer && counted.emplace(a.buffer, true).second) total += a.count * sizeOf(a.type);
  if (std::uint64_t avail = availableMemory(); avail && total > avail / 4 * 3)
    return Error{(spec.specFile.empty() ? spec.name : spec.specFile + ": " + spec.name) +
                 ": args: buffers need " + std::to_string(total) + " bytes but only " +
                 std::to_string(avail) + " bytes of memory are available"};
  std::vector<HostBuffer> out;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < spec.args.size(); ++i) {
    const ArgSpec &a = spec.args[i];
    if (!a.isBuffer || index.count(a.buffer)) continue;
    index[a.buffer] = out.size();
    HostBuffer b;
    b.name = a.buffer;
    b.type = a.type;
    b.count = a.count;
    std::string where = spec.specFile.empty() ? spec.name : spec.specFile + ": " + spec.name;
    WL_CHECK(fill(b, a.init, where + ": args[" + std::to_string(i) + "].init"));
    out.push_back(std::move(b));
  }
  return out;
}

} // namespace warplens::launch
