// How long FCHK, the range check of sm_90's IEEE float division, takes to its predicate (session
// 20). In an IEEE division the compiler brackets MUFU.RCP and its Newton steps with BSSY / FCHK P0
// / @!P0 BRA (to the slow path, not taken) / BSYNC; the BRA waits for FCHK's predicate. When the
// dividend is the loop-carried value and the divisor is invariant, the reciprocal is hoisted and
// FCHK sits on the chain: x -> FCHK -> BRA -> BSYNC -> FADD -> x, beside x -> FFMA x3 -> FADD.
// One warp, REP x 64 steps, cycles per step from clock64 (method of latency_chains.cu):
//   k0  x = c - x / b         (IEEE division, b invariant: FCHK on the chain)
//   k1  x = c - x * rb        (rb = 1 / b computed once: the chain without the check)
//   k2  x = c - __fdividef(x, b)  (no check)
//   k3  sturm_bisect's inner loop (heldout11): q = d[i] - xm - e2[i] / q, d and e2 in shared memory,
//       128 steps per pass, REP passes (cycles per step: per i)
// The same kernels as a warplens suite (fchk_latency.json, 1x32 launches) give the issue
// simulation's cycles per step (issue_sim_cycles[0] / steps).
#include <cstdio>
#define REP 16
#define X8(s) s s s s s s s s
#define X64(s) X8(X8(s))
__device__ unsigned long long gsink;
extern "C" __global__ void fchk_k0(long long *out, float b, float c) {
  float x = 0.75f + threadIdx.x * 1e-3f;
  long long t0 = clock64();
  for (int r = 0; r < REP; ++r) { X64(x = c - x / 1.7f;) }
  long long t1 = clock64();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (x == 123.f) gsink = 1;
}
extern "C" __global__ void fchk_k1(long long *out, float b, float c) {
  float x = 0.75f + threadIdx.x * 1e-3f;
  const float rb = 1.0f / b;
  long long t0 = clock64();
  for (int r = 0; r < REP; ++r) { X64(x = c - x * rb;) }
  long long t1 = clock64();
  if (threadIdx.x == 0) out[1] = t1 - t0;
  if (x == 123.f) gsink = 1;
}
extern "C" __global__ void fchk_k2(long long *out, float b, float c) {
  float x = 0.75f + threadIdx.x * 1e-3f;
  long long t0 = clock64();
  for (int r = 0; r < REP; ++r) { X64(x = c - __fdividef(x, b);) }
  long long t1 = clock64();
  if (threadIdx.x == 0) out[2] = t1 - t0;
  if (x == 123.f) gsink = 1;
}
extern "C" __global__ void fchk_k3(long long *out, float b, float c) {
  __shared__ float d[128], e2[128];
  const int n = 128;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    d[i] = 1.0f + 0.01f * i;
    e2[i] = i > 0 ? 0.25f + 0.001f * i : 0.0f;
  }
  __syncthreads();
  const float xm = b + threadIdx.x * 1e-3f;
  int cnt = 0;
  long long t0 = clock64();
  for (int r = 0; r < REP; ++r) {
    float q = d[0] - xm - c * r;
    if (q < 0.0f) ++cnt;
    for (int i = 1; i < n; ++i) {
      if (q == 0.0f) q = 1e-30f;
      q = d[i] - xm - e2[i] / q;
      if (q < 0.0f) ++cnt;
    }
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) out[3] = t1 - t0;
  if (cnt == 12345) gsink = 1;
}
int main() {
  long long *o;
  cudaMalloc(&o, 16 * sizeof(long long));
  const char *names[] = {"c - x / b (IEEE div, FCHK on chain)", "c - x * rb (no check)", "c - __fdividef(x, b)",
                         "sturm step q = d - xm - e2 / q"};
  for (int pass = 0; pass < 2; ++pass) {
    fchk_k0<<<1, 32>>>(o, 1.25f, 0.5f); fchk_k1<<<1, 32>>>(o, 1.25f, 0.5f); fchk_k2<<<1, 32>>>(o, 1.25f, 0.5f);
    fchk_k3<<<1, 32>>>(o, 0.5f, 0.001f);
    cudaDeviceSynchronize();
  }
  long long h[16];
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 3; ++k) printf("%-40s %8.2f cycles per step\n", names[k], double(h[k]) / (REP * 64));
  printf("%-40s %8.2f cycles per step\n", names[3], double(h[3]) / (REP * 127));
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
