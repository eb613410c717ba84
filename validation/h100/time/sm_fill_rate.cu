// Per-SM fill rate of dependent load rounds: each block loads blockDim x W floats per round
// (contiguous, new addresses every round), adds them, and waits at a barrier before the next round
// (the structure of a one-block scan: the sum is stored to shared memory before the barrier, so
// each round's load completes before the next is issued). ns per round against bytes per SM per round, for one block
// (one SM busy) and 132 blocks (one per SM), data fresh from DRAM (1 GiB sweep) or L2-resident
// (a 4 MiB sweep, after a warm pass).
#include <cstdio>
#include <cuda_runtime.h>
template <int W> struct Vec;
template <> struct Vec<1> { using T = float; static __device__ float sum(float v) { return v; } };
template <> struct Vec<2> { using T = float2; static __device__ float sum(float2 v) { return v.x + v.y; } };
template <> struct Vec<4> { using T = float4; static __device__ float sum(float4 v) { return v.x + v.y + v.z + v.w; } };
template <int W>
__global__ void rounds(const typename Vec<W>::T *in, float *out, int nrounds, long long wrapVecs, long long start) {
  __shared__ float sh[1024];
  float s = 0.0f;
  const long long per = blockDim.x;
  for (int r = 0; r < nrounds; ++r) {
    const long long chunk = (long long)r * gridDim.x + blockIdx.x;
    const long long idx = (start + chunk * per + threadIdx.x) & (wrapVecs - 1); // a power of two
    s += Vec<W>::sum(in[idx]);
    sh[threadIdx.x] = s; // the barrier waits for the load: the next round's load comes after it
    __syncthreads();
  }
  if (s == 1234.5f) out[threadIdx.x] = s + sh[(threadIdx.x + 1) % blockDim.x];
}
template <int W> float run(const float *buf, float *out, int grid, int block, int nrounds, long long wrapBytes) {
  using T = typename Vec<W>::T;
  const long long wrap = wrapBytes / sizeof(T);
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  rounds<W><<<grid, block>>>(reinterpret_cast<const T *>(buf), out, nrounds, wrap, 0); // warm (L2 case)
  cudaEventRecord(a); // DRAM case: the other half of the 1 GiB buffer, untouched by the warm pass
  rounds<W><<<grid, block>>>(reinterpret_cast<const T *>(buf), out, nrounds, wrap, wrapBytes >= (1ll << 30) ? wrap / 2 : 0);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms * 1e6f / nrounds;
}
int main() {
  float *buf, *out;
  const long long big = 1ll << 30, small = 4ll << 20;
  cudaMalloc(&buf, big);
  cudaMalloc(&out, 4096 * sizeof(float));
  cudaMemset(buf, 0, big);
  printf("# grid block W(bytes/thread) bytes_per_SM_round data ns_per_round\n");
  for (int grid : {1, 132})
    for (int block : {256, 512, 1024})
      for (int w : {1, 2, 4})
        for (int l2 = 0; l2 < 2; ++l2) {
          const int nr = grid == 1 ? 4096 : 1024;
          const long long wrap = l2 ? small : big;
          float ns = w == 1 ? run<1>(buf, out, grid, block, nr, wrap)
                   : w == 2 ? run<2>(buf, out, grid, block, nr, wrap) : run<4>(buf, out, grid, block, nr, wrap);
          printf("%4d %5d %3d %6d %s %8.1f\n", grid, block, 4 * w, block * 4 * w, l2 ? "L2  " : "DRAM", ns);
        }
  printf("# err %s\n", cudaGetErrorString(cudaGetLastError()));
}
