// Issue rate of the wide and high integer multiplies (IMAD.WIDE.U32, IMAD.HI.U32) against IMAD and
// a mix with LOP3: independent chains, one block on one SM, clock64 per warp (the slowest warp),
// 1, 2, 4 and 8 warps per sub-partition.
#include <cstdio>
#define X8(s) s s s s s s s s
__device__ unsigned long long sink;
template <int K> __global__ void wm(long long *out, unsigned c, unsigned e) {
  unsigned u0 = threadIdx.x, u1 = u0 + 1, u2 = u0 + 2, u3 = u0 + 3, u4 = u0 + 4, u5 = u0 + 5, u6 = u0 + 6, u7 = u0 + 7;
  unsigned long long d0 = u0, d1 = u1, d2 = u2, d3 = u3, d4 = u4, d5 = u5, d6 = u6, d7 = u7;
  __syncthreads();
  long long t0 = clock64();
  for (int r = 0; r < 16; ++r) {
    if constexpr (K == 0) { X8(asm volatile("{.reg .b32 l,h; .reg .b64 d; mul.wide.u32 d,%0,%8; mov.b64 {l,h},d; xor.b32 %0,l,h;} {.reg .b32 l,h; .reg .b64 d; mul.wide.u32 d,%1,%8; mov.b64 {l,h},d; xor.b32 %1,l,h;} {.reg .b32 l,h; .reg .b64 d; mul.wide.u32 d,%2,%8; mov.b64 {l,h},d; xor.b32 %2,l,h;} {.reg .b32 l,h; .reg .b64 d; mul.wide.u32 d,%3,%8; mov.b64 {l,h},d; xor.b32 %3,l,h;} {.reg .b32 l,h; .reg .b64 d; mul.wide.u32 d,%4,%8; mov.b64 {l,h},d; xor.b32 %4,l,h;} {.reg .b32 l,h; .reg .b64 d; mul.wide.u32 d,%5,%8; mov.b64 {l,h},d; xor.b32 %5,l,h;} {.reg .b32 l,h; .reg .b64 d; mul.wide.u32 d,%6,%8; mov.b64 {l,h},d; xor.b32 %6,l,h;} {.reg .b32 l,h; .reg .b64 d; mul.wide.u32 d,%7,%8; mov.b64 {l,h},d; xor.b32 %7,l,h;}" : "+r"(u0), "+r"(u1), "+r"(u2), "+r"(u3), "+r"(u4), "+r"(u5), "+r"(u6), "+r"(u7) : "r"(c), "r"(e));) }
    if constexpr (K == 1) { X8(asm volatile("mad.hi.u32 %0,%0,%8,%9; mad.hi.u32 %1,%1,%8,%9; mad.hi.u32 %2,%2,%8,%9; mad.hi.u32 %3,%3,%8,%9; mad.hi.u32 %4,%4,%8,%9; mad.hi.u32 %5,%5,%8,%9; mad.hi.u32 %6,%6,%8,%9; mad.hi.u32 %7,%7,%8,%9;" : "+r"(u0), "+r"(u1), "+r"(u2), "+r"(u3), "+r"(u4), "+r"(u5), "+r"(u6), "+r"(u7) : "r"(c), "r"(e));) }
    if constexpr (K == 2) { X8(asm volatile("{.reg .b32 t; mad.lo.u32 t,%0,%8,%9; xor.b32 %0,t,%9;} {.reg .b32 t; mad.lo.u32 t,%1,%8,%9; xor.b32 %1,t,%9;} {.reg .b32 t; mad.lo.u32 t,%2,%8,%9; xor.b32 %2,t,%9;} {.reg .b32 t; mad.lo.u32 t,%3,%8,%9; xor.b32 %3,t,%9;} {.reg .b32 t; mad.lo.u32 t,%4,%8,%9; xor.b32 %4,t,%9;} {.reg .b32 t; mad.lo.u32 t,%5,%8,%9; xor.b32 %5,t,%9;} {.reg .b32 t; mad.lo.u32 t,%6,%8,%9; xor.b32 %6,t,%9;} {.reg .b32 t; mad.lo.u32 t,%7,%8,%9; xor.b32 %7,t,%9;}" : "+r"(u0), "+r"(u1), "+r"(u2), "+r"(u3), "+r"(u4), "+r"(u5), "+r"(u6), "+r"(u7) : "r"(c), "r"(e));) }
    if constexpr (K == 3) { X8(asm volatile("mad.lo.u32 %0,%0,%8,%9; mad.lo.u32 %1,%1,%8,%9; mad.lo.u32 %2,%2,%8,%9; mad.lo.u32 %3,%3,%8,%9; mad.lo.u32 %4,%4,%8,%9; mad.lo.u32 %5,%5,%8,%9; mad.lo.u32 %6,%6,%8,%9; mad.lo.u32 %7,%7,%8,%9;" : "+r"(u0), "+r"(u1), "+r"(u2), "+r"(u3), "+r"(u4), "+r"(u5), "+r"(u6), "+r"(u7) : "r"(c), "r"(e));) }
  }
  long long t1 = clock64();
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = t1 - t0;
  if ((d0 ^ d1 ^ d2 ^ d3 ^ d4 ^ d5 ^ d6 ^ d7) == 123ull || (u0 ^ u1 ^ u2 ^ u3 ^ u4 ^ u5 ^ u6 ^ u7) == 123u) sink = 1;
}
int main() {
  long long *o; cudaMalloc(&o, 64 * sizeof(long long));
  const char *names[4] = {"8 chains of IMAD.WIDE.U32 + LOP3", "8 independent IMAD.HI.U32 chains", "8 chains of IMAD + LOP3", "8 independent IMAD chains"};
  for (int k = 0; k < 4; ++k)
    for (int threads : {128, 256, 512, 1024}) {
      long long h[32];
      for (int pass = 0; pass < 2; ++pass) {
        if (k == 0) wm<0><<<1, threads>>>(o, 2654435761u, 7u);
        if (k == 1) wm<1><<<1, threads>>>(o, 2654435761u, 7u);
        if (k == 2) wm<2><<<1, threads>>>(o, 2654435761u, 7u);
        if (k == 3) wm<3><<<1, threads>>>(o, 2654435761u, 7u);
        cudaDeviceSynchronize();
      }
      cudaMemcpy(h, o, sizeof(long long) * (threads / 32), cudaMemcpyDeviceToHost);
      long long mx = 0; for (int w = 0; w < threads / 32; ++w) mx = h[w] > mx ? h[w] : mx;
      const int per = (k == 0 || k == 2 ? 2 : 1) * 8 * 8 * 16; // warp instructions per warp
      printf("%-36s %3d warps (%d per sub-partition): %.2f cycles per warp instruction, %.2f per sub-partition instruction\n",
             names[k], threads / 32, threads / 128, double(mx) / per, double(mx) / per / (threads / 128));
    }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
