// Dependent-chain latency of warp-wide and bit opcodes on sm_90 (those the opcode table had not
// measured): one warp, a chain of REP x 64 instructions, each reading the previous one's result;
// cycles per step from clock64. Same method as latency_chains.cu.
#include <cstdio>
#define REP 16
#define X8(s) s s s s s s s s
#define X64(s) X8(X8(s))
__device__ unsigned long long gsink;
template <int K> __global__ void chain(long long *out, unsigned ua, float fa) {
  unsigned u = ua + threadIdx.x;
  float f = fa + threadIdx.x;
  long long t0 = clock64();
  for (int r = 0; r < REP; ++r) {
    if constexpr (K == 0) { X64(u = __reduce_add_sync(0xffffffffu, u);) }           // REDUX.SUM
    if constexpr (K == 1) { X64(u = __reduce_max_sync(0xffffffffu, u) + threadIdx.x;) } // REDUX.MAX + add
    if constexpr (K == 2) { X64(u = __ballot_sync(0xffffffffu, u & 1u) >> (threadIdx.x & 7);) } // VOTE + SHF
    if constexpr (K == 3) { X64(u = __match_any_sync(0xffffffffu, u);) }            // MATCH.ANY
    if constexpr (K == 4) { X64(u = __clz(u) + ua;) }                                // FLO + IADD
    if constexpr (K == 5) { X64(u = __brev(u) + ua;) }                               // BREV + IADD
    if constexpr (K == 6) { X64(f = rintf(f) * 1.5f;) }                              // FRND + FMUL
    if constexpr (K == 7) { X64(u = __popc(u) + u;) }                                // POPC + IADD (reference)
    if constexpr (K == 8) { X64(u = __reduce_and_sync(0xffffffffu, u) + ua;) }       // REDUX.AND + add
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) out[K] = t1 - t0;
  if (u == 123u || f == 123.f) gsink = 1;
}
int main() {
  long long *o;
  cudaMalloc(&o, 16 * sizeof(long long));
  const char *names[] = {"REDUX.SUM", "REDUX.MAX+IADD", "VOTE.ANY+SHF", "MATCH.ANY", "FLO+IADD", "BREV+IADD", "FRND+FMUL",
                         "POPC+IADD", "REDUX.AND+IADD"};
  for (int pass = 0; pass < 2; ++pass) {
    chain<0><<<1, 32>>>(o, 5u, 1.f); chain<1><<<1, 32>>>(o, 5u, 1.f); chain<2><<<1, 32>>>(o, 5u, 1.f);
    chain<3><<<1, 32>>>(o, 5u, 1.f); chain<4><<<1, 32>>>(o, 5u, 1.f); chain<5><<<1, 32>>>(o, 5u, 1.f);
    chain<6><<<1, 32>>>(o, 5u, 1.f); chain<7><<<1, 32>>>(o, 5u, 1.f); chain<8><<<1, 32>>>(o, 5u, 1.f);
    cudaDeviceSynchronize();
  }
  long long h[16];
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 9; ++k) printf("%-30s %8.2f cycles per step\n", names[k], double(h[k]) / (REP * 64));
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
