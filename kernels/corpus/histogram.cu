/// \file
/// Corpus: shared-memory atomic histograms of a byte stream (CUDA-sample style, written here).
/// The data is a byte buffer the kernels read as 32-bit words or 16-byte vectors.

extern "C" {

// 256 bins, one block-wide histogram in shared memory updated with shared atomics (one per byte),
// merged into the global histogram with one global atomic per bin and block.
// Grid-stride loop over nWords 32-bit words; blockDim.x must be a multiple of 32 (any size).
__global__ void histogram256SharedAtomic(unsigned *hist, const unsigned *data, int nWords) {
  __shared__ unsigned sHist[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) sHist[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nWords; i += blockDim.x * gridDim.x) {
    unsigned w = data[i];
    atomicAdd(&sHist[w & 0xffu], 1u);
    atomicAdd(&sHist[(w >> 8) & 0xffu], 1u);
    atomicAdd(&sHist[(w >> 16) & 0xffu], 1u);
    atomicAdd(&sHist[w >> 24], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&hist[i], sHist[i]);
}

// 64 bins (the top six bits of each byte), 16-byte vector loads, one partial histogram per block
// written to partial[blockIdx.x * 64 + bin] (a second pass would merge them). blockDim.x >= 64.
__global__ void histogram64Partial(unsigned *partial, const uint4 *data, int nVec) {
  __shared__ unsigned sHist[64];
  if (threadIdx.x < 64) sHist[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nVec; i += blockDim.x * gridDim.x) {
    uint4 v = data[i];
    unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int b = 0; b < 32; b += 8) atomicAdd(&sHist[(w[j] >> (b + 2)) & 63u], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 64) partial[blockIdx.x * 64 + threadIdx.x] = sHist[threadIdx.x];
}

} // extern "C"
