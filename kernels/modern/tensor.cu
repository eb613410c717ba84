/// \file
/// Modern corpus, tensor cores and half precision (issue 9): a WMMA f16 GEMM with f32
/// accumulate (HMMA.16816.F32, LDSM-free fragment loads from global), an mma.sync m16n8k16 tile
/// fed by ldmatrix (LDSM) from shared memory, and half2 arithmetic (HADD2, HFMA2, F2FP).
/// Launch specs: modern.json.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

extern "C" {

// Block 32x4 (4 warps), each warp one 16x16 tile of C (M x N, f32) = A (M x K, f16, row-major)
// * B (K x N, f16, row-major); fragments loaded straight from global memory.
__global__ void wmmaGemmF16(float *C, const half *A, const half *B, int M, int N, int K) {
  int warp = (blockIdx.x * blockDim.y + threadIdx.y);
  int tilesN = N / 16;
  int tm = warp / tilesN, tn = warp % tilesN;
  if (tm * 16 >= M) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + tn * 16, N);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + tm * 16 * N + tn * 16, c, N, wmma::mem_row_major);
}

// Block 32 (one warp per 16x8 tile of C): A (16 x K) and B (K x 8) tiles staged in shared
// memory, A fragments by ldmatrix.x4, B by ldmatrix.x2.trans, mma.sync.m16n8k16 f16 -> f32.
__global__ void mmaLdmatrixGemm(float *C, const half *A, const half *B, int M, int N, int K) {
  __shared__ __align__(16) half As[16][16];
  __shared__ __align__(16) half Bs[16][8];
  int lane = threadIdx.x;
  int tilesN = N / 8;
  int tm = blockIdx.x / tilesN, tn = blockIdx.x % tilesN;
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < K; k += 16) {
    for (int e = lane; e < 256; e += 32) As[e / 16][e % 16] = A[(tm * 16 + e / 16) * K + k + e % 16];
    for (int e = lane; e < 128; e += 32) Bs[e / 8][e % 8] = B[(k + e / 8) * N + tn * 8 + e % 8];
    __syncwarp();
    unsigned a0, a1, a2, a3, b0, b1;
    unsigned aAddr = (unsigned)__cvta_generic_to_shared(&As[lane % 16][(lane / 16) * 8]);
    unsigned bAddr = (unsigned)__cvta_generic_to_shared(&Bs[lane % 16][0]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(aAddr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                 : "=r"(b0), "=r"(b1) : "r"(bAddr));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    __syncwarp();
  }
  int g = lane / 4, t = lane % 4;
  float *c0 = C + (tm * 16 + g) * N + tn * 8 + 2 * t;
  float *c1 = C + (tm * 16 + g + 8) * N + tn * 8 + 2 * t;
  c0[0] = d[0], c0[1] = d[1], c1[0] = d[2], c1[1] = d[3];
}

// out[i] = a[i] + b[i] computed on half2 pairs (HADD2 / HFMA2) and converted back and forth
// (F2FP, HADD2.F32): exact for the small integers the spec feeds in.
__global__ void half2Add(float *out, const float *a, const float *b, int n) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i + 1 >= n) return;
  __half2 x = __floats2half2_rn(a[i], a[i + 1]);
  __half2 y = __floats2half2_rn(b[i], b[i + 1]);
  __half2 one = __float2half2_rn(1.f);
  __half2 s = __hfma2(x, one, y);
  s = __hsub2(__hadd2(s, one), one);
  float2 f = __half22float2(s);
  out[i] = f.x, out[i + 1] = f.y;
}

} // extern "C"
