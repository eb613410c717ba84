/// \file
/// Held-out corpus (kernels/corpus/heldout.json): kernels written here and used for nothing but
/// reporting, so that exactness measured on them is not the result of tuning on them.

extern "C" {

// 256-bin byte histogram with one sub-histogram per warp in shared memory (fewer collisions per
// bin than one per block), summed over warps and added to the global histogram.
// blockDim.x a multiple of 32, at most 8 warps.
__global__ void histogram256PerWarp(unsigned *hist, const unsigned *data, int nWords) {
  __shared__ unsigned sHist[8][256];
  const int warp = threadIdx.x >> 5, nWarps = blockDim.x >> 5;
  for (int i = threadIdx.x; i < nWarps * 256; i += blockDim.x) sHist[i / 256][i % 256] = 0;
  __syncthreads();
  unsigned *mine = sHist[warp];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nWords; i += blockDim.x * gridDim.x) {
    unsigned w = data[i];
#pragma unroll
    for (int b = 0; b < 32; b += 8) atomicAdd(&mine[(w >> b) & 0xffu], 1u);
  }
  __syncthreads();
  for (int bin = threadIdx.x; bin < 256; bin += blockDim.x) {
    unsigned s = 0;
    for (int w = 0; w < nWarps; ++w) s += sHist[w][bin];
    atomicAdd(&hist[bin], s);
  }
}

// Blelloch exclusive scan of 1024 unsigned per block of 512 threads, with one padding word per
// 32 (index + index / 32) so the tree levels spread over the banks.
#define PAD(i) ((i) + ((i) >> 5))
__global__ void scanBlellochPadded(unsigned *out, const unsigned *in) {
  __shared__ unsigned temp[PAD(1024)];
  const int t = threadIdx.x, n = 1024;
  in += blockIdx.x * n;
  out += blockIdx.x * n;
  int ia = t, ib = t + n / 2;
  temp[PAD(ia)] = in[ia];
  temp[PAD(ib)] = in[ib];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      temp[PAD(bi)] += temp[PAD(ai)];
    }
    offset *= 2;
  }
  if (t == 0) temp[PAD(n - 1)] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      unsigned v = temp[PAD(ai)];
      temp[PAD(ai)] = temp[PAD(bi)];
      temp[PAD(bi)] += v;
    }
  }
  __syncthreads();
  out[ia] = temp[PAD(ia)];
  out[ib] = temp[PAD(ib)];
}

// Double-precision partial sums, 4 elements per thread loaded up front (block 256, segment 1024),
// unrolled tree, and a warp-synchronous finish on volatile shared memory.
__global__ void __launch_bounds__(256) reduceUnrolledF64(double *partial, const double *in) {
  __shared__ double sdata[256];
  const unsigned t = threadIdx.x;
  const double *p = in + blockIdx.x * 1024 + t;
  sdata[t] = (p[0] + p[256]) + (p[512] + p[768]);
  __syncthreads();
  if (t < 128) sdata[t] += sdata[t + 128];
  __syncthreads();
  if (t < 64) sdata[t] += sdata[t + 64];
  __syncthreads();
  if (t < 32) {
    volatile double *v = sdata;
    v[t] += v[t + 32]; __syncwarp();
    v[t] += v[t + 16]; __syncwarp();
    v[t] += v[t + 8];  __syncwarp();
    v[t] += v[t + 4];  __syncwarp();
    v[t] += v[t + 2];  __syncwarp();
    v[t] += v[t + 1];  __syncwarp();
  }
  if (t == 0) partial[blockIdx.x] = sdata[0];
}

// Rank sort of 256 floats per block of 256 threads, descending: each thread counts the keys that
// must precede its own (greater, or equal with a lower index) and writes its key there.
__global__ void rankSortDescending(float *dst, const float *src) {
  __shared__ float s[256];
  const int t = threadIdx.x;
  src += blockIdx.x * 256;
  dst += blockIdx.x * 256;
  float key = src[t];
  s[t] = key;
  __syncthreads();
  int rank = 0;
  for (int j = 0; j < 256; ++j) {
    float o = s[j];
    rank += (o > key) || (o == key && j < t);
  }
  dst[rank] = key;
}

// Radius-2 star stencil (9 points: the centre and two neighbours each way on both axes) from
// global memory; interior points only (2 <= x < W-2, 2 <= y < H-2), the border is not written.
__global__ void star9Global(float *out, const float *in, int W, int H) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 2 || y < 2 || x >= W - 2 || y >= H - 2) return;
  const int c = y * W + x;
  float v = 0.5f * in[c];
  v += 0.25f * (in[c - 1] + in[c + 1] + in[c - W] + in[c + W]);
  v -= 0.125f * (in[c - 2] + in[c + 2] + in[c - 2 * W] + in[c + 2 * W]);
  out[c] = v;
}

} // extern "C"
