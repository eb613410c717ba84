/// \file
/// Modern corpus, Hopper warpgroup MMA (issue 9): one warpgroup (128 threads) computes C (64 x 8,
/// f32) = A (64 x 16, f16, row-major) * B (16 x 8, f16, row-major) with wgmma.mma_async
/// m64n8k16 (SASS HGMMA), both operands read from shared memory through matrix descriptors
/// (no swizzle: 8 x 16-byte core matrices, K-major); wgmmaGemmK32 also accumulates over two
/// k-steps with N = 16. Needs sm_90a (nvcc_flags in hopper.json). Launch spec: hopper.json.
#include <cuda_fp16.h>
#include <cstdint>

namespace {

/// A shared-memory matrix descriptor without swizzle: start address, leading-dimension byte
/// offset (between core matrices along K) and stride byte offset (between 8-row groups along
/// M or N), each in 16-byte units.
__device__ uint64_t matrixDescriptor(const void *smem, unsigned lbo, unsigned sbo) {
  uint64_t addr = static_cast<uint64_t>(__cvta_generic_to_shared(smem));
  return ((addr & 0x3ffff) >> 4) | (uint64_t((lbo >> 4) & 0x3fff) << 16) | (uint64_t((sbo >> 4) & 0x3fff) << 32);
}

} // namespace

extern "C" __global__ void wgmmaGemm(float *C, const __half *A, const __half *B) {
  // Core matrix (row group g, k group h) of A at (2 * g + h) * 64 halves: 8 rows of 8 halves.
  __shared__ __align__(128) __half As[64 * 16];
  // B stored N x K (K contiguous, "K-major"): core matrix h (k group) at h * 64 halves.
  __shared__ __align__(128) __half Bs[8 * 16];
  int t = threadIdx.x;
  for (int i = t; i < 64 * 16; i += 128) {
    int m = i / 16, k = i % 16;
    As[((m / 8) * 2 + k / 8) * 64 + (m % 8) * 8 + k % 8] = A[i];
  }
  for (int i = t; i < 16 * 8; i += 128) {
    int k = i / 8, n = i % 8;
    Bs[(k / 8) * 64 + n * 8 + k % 8] = B[i];
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  uint64_t da = matrixDescriptor(As, 128, 256), db = matrixDescriptor(Bs, 128, 256);
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
               " wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "l"(da), "l"(db), "r"(1));
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  // Accumulator fragment: warp w holds rows 16w..16w+15; lane l rows 16w + l/4 (+8), columns
  // 2 (l % 4) and 2 (l % 4) + 1.
  int w = t / 32, l = t % 32;
  int row = 16 * w + l / 4, col = 2 * (l % 4);
  C[row * 8 + col] = d0;
  C[row * 8 + col + 1] = d1;
  C[(row + 8) * 8 + col] = d2;
  C[(row + 8) * 8 + col + 1] = d3;
}

// Two k-steps and N = 16: C (64 x 16, f32) = A (64 x 32) * B (32 x 16), the second wgmma
// accumulating onto the first (scale-d true), descriptors advanced by two core matrices along K.
extern "C" __global__ void wgmmaGemmK32(float *C, const __half *A, const __half *B) {
  __shared__ __align__(128) __half As[64 * 32]; // core matrix (m/8, k/8) at ((m/8) * 4 + k/8) * 64
  __shared__ __align__(128) __half Bs[16 * 32]; // core matrix (n/8, k/8) at ((n/8) * 4 + k/8) * 64
  int t = threadIdx.x;
  for (int i = t; i < 64 * 32; i += 128) {
    int m = i / 32, k = i % 32;
    As[((m / 8) * 4 + k / 8) * 64 + (m % 8) * 8 + k % 8] = A[i];
  }
  for (int i = t; i < 32 * 16; i += 128) {
    int k = i / 16, n = i % 16;
    Bs[((n / 8) * 4 + k / 8) * 64 + (n % 8) * 8 + k % 8] = B[i];
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  float d[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  for (int ks = 0; ks < 2; ++ks) {
    uint64_t da = matrixDescriptor(As + ks * 128, 128, 512), db = matrixDescriptor(Bs + ks * 128, 128, 512);
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %10, 0;\n"
                 " wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "l"(da), "l"(db), "r"(ks));
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  // d[i]: row 16w + l/4 (+8 for i % 4 >= 2), column 8 (i / 4) + 2 (l % 4) + i % 2.
  int w = t / 32, l = t % 32;
  for (int i = 0; i < 8; ++i) {
    int row = 16 * w + l / 4 + (i % 4 >= 2 ? 8 : 0), col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
    C[row * 16 + col] = d[i];
  }
}
