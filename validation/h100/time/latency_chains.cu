// Dependent-chain latency of single SASS instructions on sm_90: one warp, a chain of REP x 64
// instructions, each reading the previous one's result; cycles per instruction from clock64.
#include <cstdio>
#include <cstdint>
#define REP 16
#define X8(s) s s s s s s s s
#define X64(s) X8(X8(s))
__device__ unsigned long long gsink;
template <int K> __global__ void chain(long long *out, float fa, double da, unsigned ua, int *tab) {
  __shared__ unsigned sidx[1024];
  for (int i = threadIdx.x; i < 1024; i += 32) sidx[i] = (i * 33 + 1) & 1023;
  __syncwarp();
  float f = fa + threadIdx.x, g = 1.0001f, h = 0.5f;
  double d = da + threadIdx.x, e = 1.000001, c = 0.25;
  unsigned u = ua + threadIdx.x, v = ua * 3u + 1u, w = ua * 7u + 5u;
  unsigned long long q = u;
  long long t0 = clock64();
  for (int r = 0; r < REP; ++r) {
    if constexpr (K == 0) { X64(asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f) : "f"(g), "f"(h));) }
    if constexpr (K == 1) { X64(asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(d) : "d"(e), "d"(c));) }
    if constexpr (K == 2) { X64(asm volatile("add.rn.f64 %0, %0, %1;" : "+d"(d) : "d"(c));) }
    if constexpr (K == 3) { X64(asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(f));) }
    if constexpr (K == 4) { X64(asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(f));) }
    if constexpr (K == 5) { X64(asm volatile("rcp.approx.ftz.f64 %0, %0;" : "+d"(d));) }
    if constexpr (K == 6) { X64(asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(u) : "r"(v), "r"(w));) }
    if constexpr (K == 7) { X64(asm volatile("{.reg .u32 lo; cvt.u32.u64 lo, %0; mad.wide.u32 %0, lo, %1, %0;}" : "+l"(q) : "r"(v));) }
    if constexpr (K == 8) { X64(asm volatile("mad.hi.u32 %0, %0, %1, %2;" : "+r"(u) : "r"(v), "r"(w));) }
    if constexpr (K == 9) { X64(asm volatile("shf.l.wrap.b32 %0, %0, %1, %2;" : "+r"(u) : "r"(v), "r"(w));) }
    if constexpr (K == 10) { X64(asm volatile("prmt.b32 %0, %0, %1, 0x5140;" : "+r"(u) : "r"(v));) }
    if constexpr (K == 11) { X64(asm volatile("popc.b32 %0, %0;" : "+r"(u));) }
    if constexpr (K == 12) { X64(asm volatile("cvt.rzi.s32.f32 %0, %1;" : "=r"(u) : "f"(f)); asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(f) : "r"(u));) }
    if constexpr (K == 13) { X64(asm volatile("cvt.f64.f32 %0, %1;" : "=d"(d) : "f"(f)); asm volatile("cvt.rn.f32.f64 %0, %1;" : "=f"(f) : "d"(d));) }
    if constexpr (K == 14) { X64(u = sidx[u & 1023];) }
    if constexpr (K == 15) { X64(u = __shfl_sync(0xffffffffu, u, (threadIdx.x + 1) & 31);) }
    if constexpr (K == 16) { X64(asm volatile("mul.f64 %0, %0, %1;" : "+d"(d) : "d"(e));) }
    if constexpr (K == 17) { X64(asm volatile("{.reg .pred p; setp.lt.f64 p, %0, %1; selp.f64 %0, %0, %1, p;}" : "+d"(d) : "d"(c));) }
    if constexpr (K == 18) { X64(asm volatile("{.reg .pred p; setp.lt.f32 p, %0, %1; selp.f32 %0, %0, %1, p;}" : "+f"(f) : "f"(g));) }
    if constexpr (K == 19) { X64(u = __ldg(tab + (u & 255));) }
    if constexpr (K == 20) { X64(asm volatile("cvt.rn.f64.u32 %0, %1;" : "=d"(d) : "r"(u)); asm volatile("cvt.rzi.u32.f64 %0, %1;" : "=r"(u) : "d"(d));) }
    if constexpr (K == 21) { X64(asm volatile("lg2.approx.ftz.f32 %0, %0;" : "+f"(f));) }
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) out[K] = t1 - t0;
  if (f == 123.f || d == 123.0 || u == 123u || q == 123ull) gsink = 1;
}
template <int K> void launch(long long *o, int *tab) { chain<K><<<1, 32>>>(o, 1.0f, 1.0, 5u, tab); }
int main() {
  long long *o; int *tab;
  cudaMalloc(&o, 64 * sizeof(long long)); cudaMalloc(&tab, 256 * sizeof(int));
  int h[256]; for (int i = 0; i < 256; ++i) h[i] = (i * 97 + 13) & 255;
  cudaMemcpy(tab, h, sizeof h, cudaMemcpyHostToDevice);
  for (int pass = 0; pass < 2; ++pass) {
    launch<0>(o, tab); launch<1>(o, tab); launch<2>(o, tab); launch<3>(o, tab); launch<4>(o, tab); launch<5>(o, tab);
    launch<6>(o, tab); launch<7>(o, tab); launch<8>(o, tab); launch<9>(o, tab); launch<10>(o, tab); launch<11>(o, tab);
    launch<12>(o, tab); launch<13>(o, tab); launch<14>(o, tab); launch<15>(o, tab); launch<16>(o, tab); launch<17>(o, tab);
    launch<18>(o, tab); launch<19>(o, tab); launch<20>(o, tab); launch<21>(o, tab);
  }
  cudaDeviceSynchronize();
  long long r[64]; cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  const char *names[] = {"FFMA", "DFMA", "DADD", "MUFU.EX2", "MUFU.RSQ", "MUFU.RCP64H(rcp.f64 approx)", "IMAD", "IMAD.WIDE(lo,c chain)",
                         "IMAD.HI", "SHF.L.W", "PRMT", "POPC", "F2I+I2F pair", "F2F.F64.F32+F2F.F32.F64 pair", "LDS chase",
                         "SHFL", "DMUL", "DSETP+FSEL pair", "FSETP+FSEL pair", "LDG L1-hit chase", "I2F.F64+F2I.F64 pair", "MUFU.LG2"};
  for (int k = 0; k < 22; ++k) printf("%-32s %7.2f cycles per step\n", names[k], double(r[k]) / (REP * 64));
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
