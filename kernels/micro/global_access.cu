/// \file
/// Global-memory calibration microbenchmarks: each active lane does ONE load or store of 1, 2, 4,
/// 8 or 16 bytes at element index warp * warpStride + (lane & (2^p - 1)) * stride + (lane >> p) * groupStride.
// Lanes whose bit in `mask` is clear do nothing. Misalignment comes from the spec's offset_bytes
// on the pointer argument. Loads write to global only when the loaded value equals `guard`
// (launches pass a guard no buffer value matches), so the measured traffic is the one access.
// Warps use disjoint ranges (warpStride) so L2/DRAM counts are not shared between warps.
#include <cstdint>

namespace {

__device__ __forceinline__ unsigned foldG(unsigned char v) { return v; }
__device__ __forceinline__ unsigned foldG(unsigned short v) { return v; }
__device__ __forceinline__ unsigned foldG(unsigned v) { return v; }
__device__ __forceinline__ unsigned foldG(uint2 v) { return v.x ^ v.y; }
__device__ __forceinline__ unsigned foldG(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

template <class T> __device__ __forceinline__ T makeG(unsigned v);
template <> __device__ __forceinline__ unsigned char makeG<unsigned char>(unsigned v) {
  return static_cast<unsigned char>(v);
}
template <> __device__ __forceinline__ unsigned short makeG<unsigned short>(unsigned v) {
  return static_cast<unsigned short>(v);
}
template <> __device__ __forceinline__ unsigned makeG<unsigned>(unsigned v) { return v; }
template <> __device__ __forceinline__ uint2 makeG<uint2>(unsigned v) { return make_uint2(v, v + 1); }
template <> __device__ __forceinline__ uint4 makeG<uint4>(unsigned v) {
  return make_uint4(v, v + 1, v + 2, v + 3);
}

__device__ __forceinline__ unsigned globalIndex(unsigned stride, unsigned periodShift,
                                                unsigned groupStride, unsigned warpStride) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = tid >> 5;
  return warp * warpStride + (lane & ((1u << periodShift) - 1u)) * stride +
         (lane >> periodShift) * groupStride;
}

template <class T>
__device__ __forceinline__ void globalLoad(const T *in, unsigned *out, unsigned stride,
                                           unsigned periodShift, unsigned groupStride,
                                           unsigned warpStride, unsigned mask, unsigned guard) {
  const unsigned lane = threadIdx.x & 31u;
  if ((mask >> lane) & 1u) {
    const unsigned v = foldG(in[globalIndex(stride, periodShift, groupStride, warpStride)]);
    if (v == guard) out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  }
}

template <class T>
__device__ __forceinline__ void globalStore(T *dst, unsigned stride, unsigned periodShift,
                                            unsigned groupStride, unsigned warpStride,
                                            unsigned mask) {
  const unsigned lane = threadIdx.x & 31u;
  if ((mask >> lane) & 1u)
    dst[globalIndex(stride, periodShift, groupStride, warpStride)] =
        makeG<T>(blockIdx.x * blockDim.x + threadIdx.x + 1u);
}

} // namespace

#define MICRO_GLOBAL(NAME, T)                                                                    \
  __global__ void gl_ld_##NAME(const T *in, unsigned *out, unsigned stride, unsigned periodShift, \
                               unsigned groupStride, unsigned warpStride, unsigned mask,         \
                               unsigned guard) {                                                 \
    globalLoad<T>(in, out, stride, periodShift, groupStride, warpStride, mask, guard);           \
  }                                                                                              \
  __global__ void gl_st_##NAME(T *dst, unsigned stride, unsigned periodShift,                    \
                               unsigned groupStride, unsigned warpStride, unsigned mask) {       \
    globalStore<T>(dst, stride, periodShift, groupStride, warpStride, mask);                     \
  }

extern "C" {
MICRO_GLOBAL(b1, unsigned char)
MICRO_GLOBAL(b2, unsigned short)
MICRO_GLOBAL(b4, unsigned)
MICRO_GLOBAL(b8, uint2)
MICRO_GLOBAL(b16, uint4)
}
