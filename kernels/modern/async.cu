/// \file
/// Modern corpus, asynchronous copies (issue 9): cp.async through the CUDA pipeline primitives
/// (LDGSTS, LDGDEPBAR, DEPBAR), a double-buffered cp.async SGEMM tile, cuda::pipeline with
/// cuda::memcpy_async, and cuda::barrier (mbarrier: init, arrive, wait with phase parity), with
/// and without memcpy_async completing on the barrier (ARRIVES). Launch specs: modern.json.
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>

extern "C" {

// Block 256: each thread copies 16 bytes global -> shared with cp.async (LDGSTS.128), the
// block waits for its group and writes the 4 KiB tile back out with coalesced 4-byte stores.
__global__ void cpasyncCopy16(float *out, const float *in, int n) {
  __shared__ __align__(16) float tile[1024];
  int base = blockIdx.x * 1024;
  int t = threadIdx.x;
  if (base + 4 * t + 3 < n) __pipeline_memcpy_async(&tile[4 * t], &in[base + 4 * t], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  for (int k = 0; k < 4; ++k) {
    int i = k * 256 + t;
    if (base + i < n) out[base + i] = tile[i];
  }
}

// Block 16x16, C (M x N) = A (M x K) * B (K x N), row-major, 16x16 tiles staged with 4-byte
// cp.async (LDGSTS.32), two stages: the next tile is in flight while this one is used
// (commit / wait_prior(1)).
__global__ void cpasyncSgemm(float *C, const float *A, const float *B, int M, int N, int K) {
  __shared__ float As[2][16][16];
  __shared__ float Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  int tiles = K / 16;
  __pipeline_memcpy_async(&As[0][ty][tx], &A[row * K + tx], 4);
  __pipeline_memcpy_async(&Bs[0][ty][tx], &B[ty * N + col], 4);
  __pipeline_commit();
  float acc = 0.f;
  for (int t = 0; t < tiles; ++t) {
    int cur = t & 1;
    if (t + 1 < tiles) {
      __pipeline_memcpy_async(&As[cur ^ 1][ty][tx], &A[row * K + (t + 1) * 16 + tx], 4);
      __pipeline_memcpy_async(&Bs[cur ^ 1][ty][tx], &B[((t + 1) * 16 + ty) * N + col], 4);
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    for (int k = 0; k < 16; ++k) acc += As[cur][ty][k] * Bs[cur][k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Block 128: cuda::pipeline (thread scope, 2 stages) streaming float4 chunks through shared
// memory with cuda::memcpy_async; each thread copies its own chunks.
__global__ void pipelineCopy(float4 *out, const float4 *in, int chunksPerThread) {
  __shared__ float4 stage[2][128];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  int t = threadIdx.x;
  int base = blockIdx.x * chunksPerThread * 128;
  for (int s = 0; s < 2 && s < chunksPerThread; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(&stage[s][t], &in[base + s * 128 + t], sizeof(float4), pipe);
    pipe.producer_commit();
  }
  for (int c = 0; c < chunksPerThread; ++c) {
    pipe.consumer_wait();
    float4 v = stage[c & 1][t];
    pipe.consumer_release();
    out[base + c * 128 + t] = v;
    int next = c + 2;
    if (next < chunksPerThread) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[next & 1][t], &in[base + next * 128 + t], sizeof(float4), pipe);
      pipe.producer_commit();
    }
  }
}

// Block 32x8, 32x32 tile transpose where cuda::barrier (an mbarrier in shared memory: init,
// arrive, wait on the phase) replaces __syncthreads; the barrier is used for two phases.
__global__ void barrierTranspose(float *out, const float *in, int rows, int cols) {
  using barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ float tile[32][33];
  __shared__ barrier bar;
  auto block = cooperative_groups::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  bar.arrive_and_wait();
  x = blockIdx.y * 32 + threadIdx.x, y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  barrier::arrival_token tok = bar.arrive();
  bar.wait(std::move(tok));
}

// Block 256: cuda::memcpy_async of one float per thread completing on a cuda::barrier
// (cp.async + cp.async.mbarrier.arrive), then the tile goes back out reversed within the block.
__global__ void barrierMemcpyCopy(float *out, const float *in) {
  using barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ float tile[256];
  __shared__ barrier bar;
  auto block = cooperative_groups::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  int t = threadIdx.x, base = blockIdx.x * 256;
  cuda::memcpy_async(&tile[t], &in[base + t], sizeof(float), bar);
  bar.arrive_and_wait();
  out[base + t] = tile[t];
}

} // extern "C"
