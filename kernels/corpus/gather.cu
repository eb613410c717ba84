/// \file
/// Corpus: indirect accesses through index arrays (written here): a gather, a scatter through a
/// permutation, and a scatter-add with global atomics into a small table.

extern "C" {

// out[i] = src[idx[i] & mask], mask = (size of src) - 1 with src a power of two.
__global__ void gatherMasked(float *out, const float *src, const unsigned *idx, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = src[idx[i] & mask];
}

// out[perm[i]] = src[i]: perm is a permutation of 0..n-1.
__global__ void scatterPermute(float *out, const float *src, const unsigned *perm, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[perm[i]] = src[i];
}

// table[idx[i] & mask] += vals[i], with a grid-stride loop and global atomics (unsigned: the sum
// does not depend on the order).
__global__ void scatterAddAtomic(unsigned *table, const unsigned *vals, const unsigned *idx,
                                 unsigned mask, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&table[idx[i] & mask], vals[i]);
}

} // extern "C"
