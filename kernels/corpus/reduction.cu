/// \file
/// Corpus: sum reductions of floats (CUDA-sample style, written here): a shared-memory tree with
/// interleaved addressing, one with sequential addressing and a shuffled last warp, and a
/// grid-stride warp-shuffle reduction that finishes with one float atomic per warp.

extern "C" {

// One partial sum per block of blockDim.x elements (a power of two). Interleaved addressing:
// thread t adds at index 2*s*t, so active threads stay packed but shared accesses stride.
__global__ void reduceInterleaved(float *partial, const float *in) {
  extern __shared__ float sdata[];
  const unsigned t = threadIdx.x;
  sdata[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * t;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = sdata[0];
}

// One partial sum per block of 2 * blockDim.x elements (blockDim.x a power of two, >= 64): first
// add during the load, sequential addressing down to 32 values, then the last warp shuffles.
__global__ void reduceSequentialShuffle(float *partial, const float *in) {
  extern __shared__ float sdata[];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * (2 * blockDim.x) + t;
  sdata[t] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s >= 32; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t < 32) {
    float v = sdata[t];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (t == 0) partial[blockIdx.x] = v;
  }
}

// Whole-array sum into total[0] (zero before the launch): each thread accumulates a grid-stride
// loop, each warp reduces with xor shuffles, lane 0 adds the warp's sum atomically.
__global__ void reduceWarpShuffleAtomic(float *total, const float *in, int n) {
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, v);
}

} // extern "C"
