// divergent_chase.cu: how long a warp waits for one load request whose 32 lanes fall in k
// distinct 128-byte lines, by where the lines are (L1, L2, DRAM), and with how many warps load at
// once. Session 18, for the latency limiter of divergent gathers (heldout9 forest_infer: about 14
// lines per request, measured 1.85x the prediction; heldout4 gemv_thread: 32 lines per request,
// 0.75x).
//
// Each lane follows its own chain: at every step the lanes form k groups of 32/k, group g on line
// (t*k + g) mod M, lane-in-group w on word w of it (4-byte words, 32/k of them per line: each
// line's lanes share its sectors as a coalesced request would); the word holds the index of the
// next step's word, so the next load waits for this one. One warp per SM sub-partition or one
// warp alone; clock64 around 2048 dependent steps after a warm-up pass (L1 and L2 cases), or
// fresh lines (DRAM case: the footprint is larger than the L2 and each line is read once).
//
// Build and run on the GPU machine: nvcc -O3 -arch=sm_90 -o /tmp/dc divergent_chase.cu && /tmp/dc
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e = (x);                                                                           \
    if (e != cudaSuccess) {                                                                        \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));                    \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

// mode 0: plain loads (L1 allocates); 1: ld.global.cg (L2 only).
template <int Mode>
__global__ void chase(const unsigned *__restrict__ next, int k, int steps, int warm, unsigned stride,
                      unsigned long long *cycles, unsigned *sink) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int per = 32 / k;
  // Each warp starts on its own part of the table, `stride` lines from the previous warp's.
  unsigned i = ((unsigned)(lane / per) + (blockIdx.x * (blockDim.x / 32) + warp) * stride) * 32u + (unsigned)(lane % per);
  unsigned j = i;
  for (int s = 0; s < warm; ++s) j = Mode ? __ldcg(next + j) : next[j];
  i = j;
  __syncwarp();
  const unsigned long long t0 = clock64();
  for (int s = 0; s < steps; ++s) i = Mode ? __ldcg(next + i) : next[i];
  const unsigned long long t1 = clock64();
  if (lane == 0) cycles[blockIdx.x * (blockDim.x / 32) + warp] = t1 - t0;
  if (i == 0xffffffffu) sink[0] = i;
}

int main() {
  int dev = 0;
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, dev));
  int clockKhz = 0;
  CK(cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, dev));
  printf("# %s, %d SMs, clock attribute %d kHz\n", p.name, p.multiProcessorCount, clockKhz);
  printf("# where, k lines per request, warps per block, blocks, steps, SM cycles per dependent step (clock64, mean over warps), kernel time (events)\n");
  // Per warp: a region of R lines that its chain goes round (L1: 192 lines, 24 KiB, four warps of
  // an SM 96 KiB; L2: 256 lines with ld.cg, 528 warps 17 MiB), the warps `stride` lines apart. DRAM:
  // no region (lines read once), warps 16384 lines (2 MiB) apart, L2 flushed before.
  struct Case {
    const char *where;
    unsigned long long region, stride;
    int mode, warmPasses;
  };
  const Case cases[] = {{"L1", 192, 1024, 0, 1}, {"L2", 256, 1024, 1, 1}, {"DRAM", 0, 16384, 1, 0}};
  const int ks[] = {1, 2, 4, 8, 16, 32};
  const int shapes[][2] = {{1, 1}, {4, 1}, {4, 132}}; // warps per block, blocks
  unsigned *d_next = nullptr;
  unsigned long long *d_cyc = nullptr;
  unsigned *d_sink = nullptr;
  CK(cudaMalloc(&d_cyc, 132 * 32 * sizeof(unsigned long long)));
  CK(cudaMalloc(&d_sink, 4));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (const Case &c : cases) {
    for (int k : ks) {
      // Chains: next[x*32 + w] = ((x + k) mod M)*32 + w within each region of R lines (regions
      // keep warps apart; the L1 case's region is small, so its warm-up pass brings all of it).
      const unsigned long long M = 132ull * 4 * c.stride + 64;
      const unsigned long long R = c.region ? c.region : M;
      std::vector<unsigned> h(M * 32, 0);
      for (unsigned long long x = 0; x < M; ++x) {
        const unsigned long long base = x / R * R, nx = base + (x - base + k) % R;
        for (int w = 0; w < 32; ++w) h[x * 32 + w] = (unsigned)(nx * 32 + w);
      }
      CK(cudaMalloc(&d_next, M * 32 * sizeof(unsigned)));
      CK(cudaMemcpy(d_next, h.data(), M * 32 * sizeof(unsigned), cudaMemcpyHostToDevice));
      for (auto &s : shapes) {
        const int wpb = s[0], blocks = s[1];
        // L1 and L2: a warm-up pass round the region, then 2048 steps. DRAM: 512 steps of fresh
        // lines (k x 512 <= 16384: no line read twice).
        const int steps = c.where[0] == 'D' ? 512 : 2048;
        const int warm = c.warmPasses ? int((R + k - 1) / k) : 0;
        // DRAM case: flush L2 by touching another 256 MiB.
        if (c.where[0] == 'D') {
          void *flush;
          CK(cudaMalloc(&flush, 256u << 20));
          CK(cudaMemset(flush, 1, 256u << 20));
          CK(cudaFree(flush));
        }
        float ms = 0;
        CK(cudaEventRecord(e0));
        if (c.mode)
          chase<1><<<blocks, 32 * wpb>>>(d_next, k, steps, warm, (unsigned)c.stride, d_cyc, d_sink);
        else
          chase<0><<<blocks, 32 * wpb>>>(d_next, k, steps, warm, (unsigned)c.stride, d_cyc, d_sink);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        std::vector<unsigned long long> cyc(blocks * wpb);
        CK(cudaMemcpy(cyc.data(), d_cyc, cyc.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
        double mean = 0;
        for (auto v : cyc) mean += double(v);
        mean /= cyc.size();
        printf("%-4s k=%2d warps_per_block=%d blocks=%3d steps=%4d cycles_per_step=%8.1f kernel_ms=%.4f\n", c.where, k,
               wpb, blocks, steps, mean / steps, ms);
      }
      CK(cudaFree(d_next));
    }
  }
  return 0;
}
