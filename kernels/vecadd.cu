/// \file
/// Vector add seed with misaligned pointers: the spec passes a, b and c with "offset_bytes": 4,
/// so every warp's 128 contiguous bytes straddle five 32-byte sectors instead of four.

extern "C" {

// Misaligned vector add, block 256, one element per thread: claim 80% coalescing efficiency,
// 5 sectors per request instead of 4 on every load and store.
__global__ void vecAddMisaligned(float *c, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

} // extern "C"
