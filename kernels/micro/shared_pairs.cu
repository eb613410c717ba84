/// \file
/// Shared-memory calibration for lane-pair packing of 8- and 16-byte accesses: each active lane
/// accesses element (lane & ~ignore) * stride + offset, so lanes that differ only in the `ignore`
/// bits share an address (ignore = 2: lane n and n^2 match; 1: n and n^1; 16: n and n^16).
// Same conventions as shared_access.cu: loads store to global only when the loaded value equals
// `guard` (never, in the suite); stores read back only when guard == 1 (never). Kernels are
// extern "C" so the PTX, SASS, emulator and probe agree on the names.
#include <cstdint>

namespace {

__device__ __forceinline__ unsigned foldPair(uint2 v) { return v.x ^ v.y; }
__device__ __forceinline__ unsigned foldPair(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }
template <class T> __device__ __forceinline__ T makePair(unsigned v);
template <> __device__ __forceinline__ uint2 makePair<uint2>(unsigned v) { return make_uint2(v, v + 1); }
template <> __device__ __forceinline__ uint4 makePair<uint4>(unsigned v) {
  return make_uint4(v, v + 1, v + 2, v + 3);
}

extern __shared__ uint4 pairShared[];

template <class T>
__device__ __forceinline__ void pairLoad(unsigned *out, unsigned stride, unsigned ignore,
                                         unsigned offset, unsigned mask, unsigned guard) {
  const T *smem = reinterpret_cast<const T *>(pairShared);
  const unsigned lane = threadIdx.x & 31u;
  if ((mask >> lane) & 1u) {
    const unsigned v = foldPair(smem[(lane & ~ignore) * stride + offset]);
    if (v == guard) out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  }
}

template <class T>
__device__ __forceinline__ void pairStore(unsigned *out, unsigned stride, unsigned ignore,
                                          unsigned offset, unsigned mask, unsigned guard) {
  T *smem = reinterpret_cast<T *>(pairShared);
  const unsigned lane = threadIdx.x & 31u;
  if ((mask >> lane) & 1u) smem[(lane & ~ignore) * stride + offset] = makePair<T>(threadIdx.x + 1u);
  if (guard == 1u) { // never true in the suite
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = foldPair(smem[threadIdx.x]);
  }
}

} // namespace

#define MICRO_PAIRS(NAME, T)                                                                     \
  __global__ void shp_ld_##NAME(unsigned *out, unsigned stride, unsigned ignore,                 \
                                unsigned offset, unsigned mask, unsigned guard) {                \
    pairLoad<T>(out, stride, ignore, offset, mask, guard);                                       \
  }                                                                                              \
  __global__ void shp_st_##NAME(unsigned *out, unsigned stride, unsigned ignore,                 \
                                unsigned offset, unsigned mask, unsigned guard) {                \
    pairStore<T>(out, stride, ignore, offset, mask, guard);                                      \
  }

extern "C" {
MICRO_PAIRS(b8, uint2)
MICRO_PAIRS(b16, uint4)
}
