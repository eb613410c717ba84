/// \file
/// Modern corpus, device-side diagnostics (issue 9): assert (a passing one runs; a failing one
/// reports thread, block and source line as the GPU does) and printf (formatted to stderr).
/// Launch specs: modern.json (passing) and tests' failing-assert spec.
#include <cassert>
#include <cstdio>

extern "C" {

// Block 256: every input must equal its index (iota), asserted per element, then copied.
__global__ void assertCopy(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(in[i] == i);
    out[i] = in[i];
  }
}

// Block 64: thread 0 of each block prints its block's first and last inputs, then every thread
// copies its element.
__global__ void printfCopy(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) printf("block %d: in[%d] = %.1f, last %f\n", blockIdx.x, i, in[i], in[i + blockDim.x - 1]);
  if (i < n) out[i] = in[i];
}

} // extern "C"
