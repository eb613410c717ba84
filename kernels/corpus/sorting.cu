/// \file
/// Corpus: sorting networks in shared memory, one 1024-key segment per block of 512 threads
/// (CUDA-sample style, written here). Keys are unsigned; every segment is sorted ascending.

#define SORT_N 1024

__device__ __forceinline__ void compareExchange(unsigned &a, unsigned &b, unsigned ascending) {
  if ((a > b) == (ascending != 0)) {
    unsigned t = a;
    a = b;
    b = t;
  }
}

extern "C" {

// Bitonic sort: build bitonic sequences of growing size with alternating directions, then one
// ascending merge of the whole segment. Thread t owns the pair (pos, pos + stride).
__global__ void bitonicSortShared(unsigned *dst, const unsigned *src) {
  __shared__ unsigned s[SORT_N];
  const unsigned t = threadIdx.x;
  src += blockIdx.x * SORT_N;
  dst += blockIdx.x * SORT_N;
  s[t] = src[t];
  s[t + SORT_N / 2] = src[t + SORT_N / 2];
  for (unsigned size = 2; size < SORT_N; size <<= 1) {
    unsigned ascending = (t & (size / 2)) == 0;
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * t - (t & (stride - 1));
      compareExchange(s[pos], s[pos + stride], ascending);
    }
  }
  for (unsigned stride = SORT_N / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * t - (t & (stride - 1));
    compareExchange(s[pos], s[pos + stride], 1);
  }
  __syncthreads();
  dst[t] = s[t];
  dst[t + SORT_N / 2] = s[t + SORT_N / 2];
}

// Batcher's odd-even merge sort: for each merge size, one exchange at distance size/2, then
// exchanges at halving distances between elements whose offset within the stride pair is odd.
__global__ void oddEvenMergeSortShared(unsigned *dst, const unsigned *src) {
  __shared__ unsigned s[SORT_N];
  const unsigned t = threadIdx.x;
  src += blockIdx.x * SORT_N;
  dst += blockIdx.x * SORT_N;
  s[t] = src[t];
  s[t + SORT_N / 2] = src[t + SORT_N / 2];
  for (unsigned size = 2; size <= SORT_N; size <<= 1) {
    unsigned stride = size / 2;
    unsigned offset = t & (stride - 1);
    {
      __syncthreads();
      unsigned pos = 2 * t - (t & (stride - 1));
      compareExchange(s[pos], s[pos + stride], 1);
      stride >>= 1;
    }
    for (; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * t - (t & (stride - 1));
      if (offset >= stride) compareExchange(s[pos - stride], s[pos], 1);
    }
  }
  __syncthreads();
  dst[t] = s[t];
  dst[t + SORT_N / 2] = s[t + SORT_N / 2];
}

} // extern "C"
