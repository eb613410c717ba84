/// \file
/// Corpus: prefix sums of unsigned words, one independent segment per block (CUDA-sample style,
/// written here). A full-array scan would add the per-block totals in a second pass.

extern "C" {

// Work-efficient (Blelloch) exclusive scan of 2 * blockDim.x elements per block: up-sweep
// reduction tree, clear the root, down-sweep. No padding: the tree levels conflict in shared.
__global__ void scanBlellochExclusive(unsigned *out, const unsigned *in) {
  extern __shared__ unsigned temp[];
  const int t = threadIdx.x;
  const int n = 2 * blockDim.x;
  in += blockIdx.x * n;
  out += blockIdx.x * n;
  temp[2 * t] = in[2 * t];
  temp[2 * t + 1] = in[2 * t + 1];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (t == 0) temp[n - 1] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      unsigned v = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += v;
    }
  }
  __syncthreads();
  out[2 * t] = temp[2 * t];
  out[2 * t + 1] = temp[2 * t + 1];
}

// Inclusive scan of blockDim.x elements per block (blockDim.x a multiple of 32, at most 1024):
// Kogge-Stone inside each warp with shuffles, warp totals through shared memory, scanned by
// warp 0, added back.
__global__ void scanWarpShuffleInclusive(unsigned *out, const unsigned *in) {
  __shared__ unsigned warpSums[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned v = in[i];
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    unsigned u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += u;
  }
  if (lane == 31) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int nWarps = blockDim.x >> 5;
    unsigned s = lane < nWarps ? warpSums[lane] : 0u;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      unsigned u = __shfl_up_sync(0xffffffffu, s, d);
      if (lane >= d) s += u;
    }
    if (lane < nWarps) warpSums[lane] = s;
  }
  __syncthreads();
  if (warp > 0) v += warpSums[warp - 1];
  out[i] = v;
}

} // extern "C"
