/// \file
/// Random single-instruction shared-memory patterns (issue 10): one warp runs exactly one LDS or
/// STS of 1, 2, 4, 8 or 16 bytes whose per-lane byte offsets and active-lane mask come from a
/// table in global memory. Row `pattern` of `table` holds 33 words: the byte offsets of lanes
/// 0-31 into dynamic shared memory (aligned to the width, below the launch's dynamic size), then
/// the mask (bit n set = lane n accesses). So 10 kernels (ld/st x 5 widths) cover every pattern
/// make_shared_random.py writes, and the launch's shared-memory counters are that one
/// instruction's. Conventions as in shared_access.cu: loads store to global only when the loaded
/// value equals `guard` (launches pass a guard no value matches); stores read back only when
/// guard == 1 (never in the suite). Kernels are extern "C" so every tool agrees on the names.
#include <cstdint>

namespace {

__device__ __forceinline__ unsigned foldR(unsigned char v) { return v; }
__device__ __forceinline__ unsigned foldR(unsigned short v) { return v; }
__device__ __forceinline__ unsigned foldR(unsigned v) { return v; }
__device__ __forceinline__ unsigned foldR(uint2 v) { return v.x ^ v.y; }
__device__ __forceinline__ unsigned foldR(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

template <class T> __device__ __forceinline__ T makeR(unsigned v);
template <> __device__ __forceinline__ unsigned char makeR<unsigned char>(unsigned v) {
  return static_cast<unsigned char>(v);
}
template <> __device__ __forceinline__ unsigned short makeR<unsigned short>(unsigned v) {
  return static_cast<unsigned short>(v);
}
template <> __device__ __forceinline__ unsigned makeR<unsigned>(unsigned v) { return v; }
template <> __device__ __forceinline__ uint2 makeR<uint2>(unsigned v) { return make_uint2(v, v + 1); }
template <> __device__ __forceinline__ uint4 makeR<uint4>(unsigned v) {
  return make_uint4(v, v + 1, v + 2, v + 3);
}

extern __shared__ uint4 randomShared[];

template <class T>
__device__ __forceinline__ void randomLoad(const unsigned *table, unsigned pattern, unsigned *out,
                                           unsigned guard) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned *row = table + pattern * 33u;
  const unsigned mask = row[32];
  if ((mask >> lane) & 1u) {
    const char *base = reinterpret_cast<const char *>(randomShared);
    const unsigned v = foldR(*reinterpret_cast<const T *>(base + row[lane]));
    if (v == guard) out[threadIdx.x] = v;
  }
}

template <class T>
__device__ __forceinline__ void randomStore(const unsigned *table, unsigned pattern, unsigned *out,
                                            unsigned guard) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned *row = table + pattern * 33u;
  const unsigned mask = row[32];
  char *base = reinterpret_cast<char *>(randomShared);
  if ((mask >> lane) & 1u) *reinterpret_cast<T *>(base + row[lane]) = makeR<T>(threadIdx.x + 1u);
  if (guard == 1u) { // never true in the suite
    __syncthreads();
    out[threadIdx.x] = foldR(*reinterpret_cast<const T *>(base + row[lane]));
  }
}

} // namespace

#define RANDOM_SHARED(NAME, T)                                                                   \
  __global__ void shr_ld_##NAME(const unsigned *table, unsigned pattern, unsigned *out,          \
                                unsigned guard) {                                                \
    randomLoad<T>(table, pattern, out, guard);                                                   \
  }                                                                                              \
  __global__ void shr_st_##NAME(const unsigned *table, unsigned pattern, unsigned *out,          \
                                unsigned guard) {                                                \
    randomStore<T>(table, pattern, out, guard);                                                  \
  }

extern "C" {
RANDOM_SHARED(b1, unsigned char)
RANDOM_SHARED(b2, unsigned short)
RANDOM_SHARED(b4, unsigned)
RANDOM_SHARED(b8, uint2)
RANDOM_SHARED(b16, uint4)
}
