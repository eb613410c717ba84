// Dependent-chain cost of sm_90's IEEE float division and square root, whose SASS wraps the
// MUFU approximation in BSSY / FCHK / @!P BRA (to the slow path, not taken) / BSYNC, against the
// same chains without the check (__fdividef, x * rsqrtf(x)) and a plain FFMA chain: one warp, REP x
// 64 steps, cycles per step from clock64 (method of latency_chains.cu). Question (session 19): do
// the convergence-barrier pair and the not-taken branch cost cycles the opcode table does not
// have? (heldout11 sturm_bisect, a lone warp per sub-partition doing q = d - x - e / q, runs 15%
// slower than the issue simulation's chain.)
#include <cstdio>
#define REP 16
#define X8(s) s s s s s s s s
#define X64(s) X8(X8(s))
__device__ unsigned long long gsink;
template <int K> __global__ void chain(long long *out, float a, float c) {
  float x = a + threadIdx.x * 1e-3f;
  long long t0 = clock64();
  for (int r = 0; r < REP; ++r) {
    if constexpr (K == 0) { X64(x = c - a / x;) }              // IEEE division: BSSY, FCHK, BRA, BSYNC
    if constexpr (K == 1) { X64(x = c - __fdividef(a, x);) }   // MUFU.RCP + FMUL, no check
    if constexpr (K == 2) { X64(x = sqrtf(x) + c;) }           // IEEE sqrt: MUFU.RSQ, BSSY, BRA, BSYNC
    if constexpr (K == 3) { X64(x = x * rsqrtf(x) + c;) }      // MUFU.RSQ + FFMA, no check
    if constexpr (K == 4) { X64(x = x * a + c;) }              // FFMA (reference, 4 cycles)
    if constexpr (K == 5) { X64(x = (x == 0.0f ? 1e-30f : x) * a + c;) } // FSETP + FSEL + FFMA
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) out[K] = t1 - t0;
  if (x == 123.f) gsink = 1;
}
int main() {
  long long *o;
  cudaMalloc(&o, 16 * sizeof(long long));
  const char *names[] = {"c - a / x (IEEE div)", "c - __fdividef(a, x)", "sqrtf(x) + c (IEEE)", "x * rsqrtf(x) + c",
                         "x * a + c (FFMA)", "(x == 0 ? tiny : x) * a + c"};
  for (int pass = 0; pass < 2; ++pass) {
    chain<0><<<1, 32>>>(o, 0.75f, 2.5f); chain<1><<<1, 32>>>(o, 0.75f, 2.5f); chain<2><<<1, 32>>>(o, 0.75f, 2.5f);
    chain<3><<<1, 32>>>(o, 0.75f, 2.5f); chain<4><<<1, 32>>>(o, 0.999f, 0.001f); chain<5><<<1, 32>>>(o, 0.999f, 0.001f);
    cudaDeviceSynchronize();
  }
  long long h[16];
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 6; ++k) printf("%-32s %8.2f cycles per step\n", names[k], double(h[k]) / (REP * 64));
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
