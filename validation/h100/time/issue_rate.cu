// Issue rate of warps with independent work: cycles per warp instruction (clock64), for 1, 2 and 4
// warps per sub-partition (blocks of 128, 256, 512 threads on one SM).
#include <cstdio>
#define X8(s) s s s s s s s s
#define X64(s) X8(X8(s))
__device__ unsigned long long sink;
template <int K> __global__ void iss(long long *out, float g, float h, unsigned v) {
  float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
  unsigned u0 = threadIdx.x, u1 = u0 + 1, u2 = u0 + 2, u3 = u0 + 3;
  __syncthreads();
  long long t0 = clock64();
  for (int r = 0; r < 16; ++r) {
    if constexpr (K == 0) { X8(asm volatile("fma.rn.f32 %0,%0,%8,%9; fma.rn.f32 %1,%1,%8,%9; fma.rn.f32 %2,%2,%8,%9; fma.rn.f32 %3,%3,%8,%9; fma.rn.f32 %4,%4,%8,%9; fma.rn.f32 %5,%5,%8,%9; fma.rn.f32 %6,%6,%8,%9; fma.rn.f32 %7,%7,%8,%9;" : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3), "+f"(a4), "+f"(a5), "+f"(a6), "+f"(a7) : "f"(g), "f"(h));) }
    if constexpr (K == 1) { X8(asm volatile("fma.rn.f32 %0,%0,%8,%9; prmt.b32 %4,%4,%10,0x5140; fma.rn.f32 %1,%1,%8,%9; prmt.b32 %5,%5,%10,0x5140; fma.rn.f32 %2,%2,%8,%9; prmt.b32 %6,%6,%10,0x5140; fma.rn.f32 %3,%3,%8,%9; prmt.b32 %7,%7,%10,0x5140;" : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3), "+r"(u0), "+r"(u1), "+r"(u2), "+r"(u3) : "f"(g), "f"(h), "r"(v));) }
    if constexpr (K == 2) { X8(asm volatile("fma.rn.f32 %0,%0,%4,%5; fma.rn.f32 %1,%1,%4,%5; fma.rn.f32 %2,%2,%4,%5; fma.rn.f32 %3,%3,%4,%5;" : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3) : "f"(g), "f"(h));) }
  }
  long long t1 = clock64();
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = t1 - t0;
  if (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 == 123.f || (u0 ^ u1 ^ u2 ^ u3) == 123u) sink = 1;
}
int main() {
  long long *o; cudaMalloc(&o, 64 * sizeof(long long));
  const int per[3] = {8 * 8 * 16, 8 * 8 * 16, 4 * 8 * 16};
  const char *names[3] = {"8 independent FFMA chains", "4 FFMA + 4 PRMT chains interleaved", "4 independent FFMA chains"};
  for (int k = 0; k < 3; ++k)
    for (int threads : {32, 128, 256, 512}) {
      long long h[16];
      for (int pass = 0; pass < 2; ++pass) {
        if (k == 0) iss<0><<<1, threads>>>(o, 1.0001f, 0.5f, 3u);
        if (k == 1) iss<1><<<1, threads>>>(o, 1.0001f, 0.5f, 3u);
        if (k == 2) iss<2><<<1, threads>>>(o, 1.0001f, 0.5f, 3u);
        cudaDeviceSynchronize();
      }
      cudaMemcpy(h, o, sizeof(long long) * (threads / 32), cudaMemcpyDeviceToHost);
      long long mx = 0; for (int w = 0; w < threads / 32; ++w) mx = h[w] > mx ? h[w] : mx;
      printf("%-36s %3d warps (%d per sub-partition): %.2f cycles per warp instruction, %.2f per sub-partition instruction\n",
             names[k], threads / 32, threads >= 128 ? threads / 128 : 1, double(mx) / per[k], double(mx) / per[k] / (threads >= 128 ? threads / 128 : 1));
    }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
