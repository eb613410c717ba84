// Dependent chains through IEEE float division and square root (the compiler's MUFU + Newton +
// FCHK / range-check sequences with their slow-path branches), one warp, as in a Sturm-count
// recurrence (q = d - e / q) and sphere tracing (sqrtf). Kernel durations over n steps give cycles
// per step (clock64 is not used, so `warplens analyze` can run the same kernels).
#include <cstdio>
extern "C" __global__ void div_chain(float *out, float a, float b, int n) {
  float q = 1.5f + threadIdx.x * 1e-3f;
  for (int i = 0; i < n; ++i) q = a - b / q;
  out[threadIdx.x] = q;
}
extern "C" __global__ void fdividef_chain(float *out, float a, float b, int n) {
  float q = 1.5f + threadIdx.x * 1e-3f;
  for (int i = 0; i < n; ++i) q = a - __fdividef(b, q);
  out[threadIdx.x] = q;
}
extern "C" __global__ void sqrt_chain(float *out, float a, float b, int n) {
  float q = 1.5f + threadIdx.x * 1e-3f;
  for (int i = 0; i < n; ++i) q = sqrtf(q * b + a);
  out[threadIdx.x] = q;
}
extern "C" __global__ void fma_chain(float *out, float a, float b, int n) {
  float q = 1.5f + threadIdx.x * 1e-3f;
  for (int i = 0; i < n; ++i) q = q * b + a;
  out[threadIdx.x] = q;
}
#ifndef WARPLENS_NO_MAIN
int main() {
  float *o;
  cudaMalloc(&o, 32 * sizeof(float));
  int clk = 0;
  cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0); // kHz (the maximum; clocks not locked)
  const int n = 200000;
  const char *names[] = {"q = a - b / q", "q = a - __fdividef(b, q)", "q = sqrtf(q * b + a)", "q = q * b + a"};
  for (int k = 0; k < 4; ++k) {
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    float ms = 0;
    for (int pass = 0; pass < 2; ++pass) {
      cudaEventRecord(e0);
      if (k == 0) div_chain<<<1, 32>>>(o, 3.0f, 2.0f, n);
      if (k == 1) fdividef_chain<<<1, 32>>>(o, 3.0f, 2.0f, n);
      if (k == 2) sqrt_chain<<<1, 32>>>(o, 0.5f, 0.75f, n);
      if (k == 3) fma_chain<<<1, 32>>>(o, 0.5f, 0.75f, n);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      cudaEventElapsedTime(&ms, e0, e1);
    }
    printf("%-28s %8.2f ns per step, %6.1f cycles at %d MHz\n", names[k], ms * 1e6 / n, ms * 1e6 / n * clk / 1e6, clk / 1000);
  }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
#endif
