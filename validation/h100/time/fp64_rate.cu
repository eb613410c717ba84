// FP64 pipe rate by operand pattern: DFMA of three register pairs none shared between chains
// (no operand reuse), DFMA with two operands shared by all chains (reuse), DMUL and DADD of two
// pairs; 8 independent chains (two groups of 4), one block on one SM, clock64 per warp (the
// slowest warp), 1, 2, 4 and 8 warps per sub-partition.
#include <cstdio>
#define X8(s) s s s s s s s s
__device__ double sink;
template <int K> __global__ void fp(long long *out, double g) {
  const double t = threadIdx.x;
  double a0 = t, a1 = t + 1, a2 = t + 2, a3 = t + 3, b0 = t + 4, b1 = t + 5, b2 = t + 6, b3 = t + 7;
  const double e = t * 1e-12; // per-thread operands: vector registers, not uniform ones
  double x0 = g + e, x1 = g * 1.5 + e, x2 = g * 1.25 + e, x3 = g * 1.125 + e, y0 = g * 0.5 + e, y1 = g * 0.25 + e, y2 = g * 0.125 + e, y3 = g * 0.0625 + e;
  __syncthreads();
  long long t0 = clock64();
  for (int r = 0; r < 16; ++r) {
    if constexpr (K == 0) { X8(asm volatile("fma.rn.f64 %0,%0,%4,%8; fma.rn.f64 %1,%1,%5,%9; fma.rn.f64 %2,%2,%6,%10; fma.rn.f64 %3,%3,%7,%11;" : "+d"(a0), "+d"(a1), "+d"(a2), "+d"(a3) : "d"(x0), "d"(x1), "d"(x2), "d"(x3), "d"(y0), "d"(y1), "d"(y2), "d"(y3)); asm volatile("fma.rn.f64 %0,%0,%4,%8; fma.rn.f64 %1,%1,%5,%9; fma.rn.f64 %2,%2,%6,%10; fma.rn.f64 %3,%3,%7,%11;" : "+d"(b0), "+d"(b1), "+d"(b2), "+d"(b3) : "d"(x0), "d"(x1), "d"(x2), "d"(x3), "d"(y0), "d"(y1), "d"(y2), "d"(y3));) }
    if constexpr (K == 1) { X8(asm volatile("fma.rn.f64 %0,%0,%4,%5; fma.rn.f64 %1,%1,%4,%5; fma.rn.f64 %2,%2,%4,%5; fma.rn.f64 %3,%3,%4,%5;" : "+d"(a0), "+d"(a1), "+d"(a2), "+d"(a3) : "d"(x0), "d"(y0)); asm volatile("fma.rn.f64 %0,%0,%4,%5; fma.rn.f64 %1,%1,%4,%5; fma.rn.f64 %2,%2,%4,%5; fma.rn.f64 %3,%3,%4,%5;" : "+d"(b0), "+d"(b1), "+d"(b2), "+d"(b3) : "d"(x0), "d"(y0));) }
    if constexpr (K == 2) { X8(asm volatile("mul.rn.f64 %0,%0,%4; mul.rn.f64 %1,%1,%5; mul.rn.f64 %2,%2,%6; mul.rn.f64 %3,%3,%7;" : "+d"(a0), "+d"(a1), "+d"(a2), "+d"(a3) : "d"(x0), "d"(x1), "d"(x2), "d"(x3)); asm volatile("mul.rn.f64 %0,%0,%4; mul.rn.f64 %1,%1,%5; mul.rn.f64 %2,%2,%6; mul.rn.f64 %3,%3,%7;" : "+d"(b0), "+d"(b1), "+d"(b2), "+d"(b3) : "d"(x0), "d"(x1), "d"(x2), "d"(x3));) }
    if constexpr (K == 3) { X8(asm volatile("add.rn.f64 %0,%0,%4; add.rn.f64 %1,%1,%5; add.rn.f64 %2,%2,%6; add.rn.f64 %3,%3,%7;" : "+d"(a0), "+d"(a1), "+d"(a2), "+d"(a3) : "d"(x0), "d"(x1), "d"(x2), "d"(x3)); asm volatile("add.rn.f64 %0,%0,%4; add.rn.f64 %1,%1,%5; add.rn.f64 %2,%2,%6; add.rn.f64 %3,%3,%7;" : "+d"(b0), "+d"(b1), "+d"(b2), "+d"(b3) : "d"(x0), "d"(x1), "d"(x2), "d"(x3));) }
  }
  long long t1 = clock64();
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = t1 - t0;
  if (a0 + a1 + a2 + a3 + b0 + b1 + b2 + b3 == 123.0) sink = 1;
}
int main() {
  long long *o; cudaMalloc(&o, 64 * sizeof(long long));
  const char *names[4] = {"DFMA, 3 unshared register pairs", "DFMA, 2 pairs shared by all chains", "DMUL, 2 unshared pairs", "DADD, 2 unshared pairs"};
  for (int k = 0; k < 4; ++k)
    for (int threads : {128, 256, 512, 1024}) {
      long long h[32];
      for (int pass = 0; pass < 2; ++pass) {
        if (k == 0) fp<0><<<1, threads>>>(o, 0.999);
        if (k == 1) fp<1><<<1, threads>>>(o, 0.999);
        if (k == 2) fp<2><<<1, threads>>>(o, 0.999);
        if (k == 3) fp<3><<<1, threads>>>(o, 0.999);
        cudaDeviceSynchronize();
      }
      cudaMemcpy(h, o, sizeof(long long) * (threads / 32), cudaMemcpyDeviceToHost);
      long long mx = 0; for (int w = 0; w < threads / 32; ++w) mx = h[w] > mx ? h[w] : mx;
      const int per = 8 * 8 * 16; // warp instructions per warp
      printf("%-36s %3d warps (%d per sub-partition): %.2f cycles per warp instruction, %.2f per sub-partition instruction\n",
             names[k], threads / 32, threads / 128, double(mx) / per, double(mx) / per / (threads / 128));
    }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
