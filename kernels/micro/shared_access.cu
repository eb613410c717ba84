/// \file
/// Shared-memory calibration microbenchmarks: each active lane does ONE load or store of 1, 2, 4,
/// 8 or 16 bytes at element index (lane & (2^p - 1)) * stride + (lane >> p) * groupStride + offset.
// Lanes whose bit in `mask` is clear do nothing. The measured part touches shared memory only:
// loads read (uninitialised) dynamic shared memory and store to global only when the loaded value
// equals `guard` (launches pass a guard no value matches, so this store essentially never runs);
// stores are followed by a read-back to global that runs only when guard == 1 (never in the
// suite), which keeps the stores observable to the compiler. Every warp repeats the same pattern.
// Kernels are extern "C" so the PTX, SASS, emulator and probe agree on the names.
#include <cstdint>

namespace {

__device__ __forceinline__ unsigned fold(unsigned char v) { return v; }
__device__ __forceinline__ unsigned fold(unsigned short v) { return v; }
__device__ __forceinline__ unsigned fold(unsigned v) { return v; }
__device__ __forceinline__ unsigned fold(uint2 v) { return v.x ^ v.y; }
__device__ __forceinline__ unsigned fold(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

template <class T> __device__ __forceinline__ T make(unsigned v);
template <> __device__ __forceinline__ unsigned char make<unsigned char>(unsigned v) {
  return static_cast<unsigned char>(v);
}
template <> __device__ __forceinline__ unsigned short make<unsigned short>(unsigned v) {
  return static_cast<unsigned short>(v);
}
template <> __device__ __forceinline__ unsigned make<unsigned>(unsigned v) { return v; }
template <> __device__ __forceinline__ uint2 make<uint2>(unsigned v) { return make_uint2(v, v + 1); }
template <> __device__ __forceinline__ uint4 make<uint4>(unsigned v) {
  return make_uint4(v, v + 1, v + 2, v + 3);
}

__device__ __forceinline__ unsigned laneIndex(unsigned lane, unsigned stride, unsigned periodShift,
                                              unsigned groupStride, unsigned offset) {
  const unsigned inGroup = lane & ((1u << periodShift) - 1u);
  const unsigned group = lane >> periodShift;
  return inGroup * stride + group * groupStride + offset;
}

extern __shared__ uint4 microShared[];

template <class T>
__device__ __forceinline__ void sharedLoad(unsigned *out, unsigned stride, unsigned periodShift,
                                           unsigned groupStride, unsigned offset, unsigned mask,
                                           unsigned guard) {
  const T *smem = reinterpret_cast<const T *>(microShared);
  const unsigned lane = threadIdx.x & 31u;
  if ((mask >> lane) & 1u) {
    const unsigned v = fold(smem[laneIndex(lane, stride, periodShift, groupStride, offset)]);
    if (v == guard) out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  }
}

template <class T>
__device__ __forceinline__ void sharedStore(unsigned *out, unsigned stride, unsigned periodShift,
                                            unsigned groupStride, unsigned offset, unsigned mask,
                                            unsigned guard) {
  T *smem = reinterpret_cast<T *>(microShared);
  const unsigned lane = threadIdx.x & 31u;
  if ((mask >> lane) & 1u)
    smem[laneIndex(lane, stride, periodShift, groupStride, offset)] = make<T>(threadIdx.x + 1u);
  if (guard == 1u) { // never true in the suite
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = fold(smem[threadIdx.x]);
  }
}

} // namespace

#define MICRO_SHARED(NAME, T)                                                                    \
  __global__ void sh_ld_##NAME(unsigned *out, unsigned stride, unsigned periodShift,             \
                               unsigned groupStride, unsigned offset, unsigned mask,             \
                               unsigned guard) {                                                 \
    sharedLoad<T>(out, stride, periodShift, groupStride, offset, mask, guard);                   \
  }                                                                                              \
  __global__ void sh_st_##NAME(unsigned *out, unsigned stride, unsigned periodShift,             \
                               unsigned groupStride, unsigned offset, unsigned mask,             \
                               unsigned guard) {                                                 \
    sharedStore<T>(out, stride, periodShift, groupStride, offset, mask, guard);                  \
  }

extern "C" {
MICRO_SHARED(b1, unsigned char)
MICRO_SHARED(b2, unsigned short)
MICRO_SHARED(b4, unsigned)
MICRO_SHARED(b8, uint2)
MICRO_SHARED(b16, uint4)
}
