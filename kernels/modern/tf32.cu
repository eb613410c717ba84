/// \file
/// Modern corpus, tensor cores beyond f16 (issue 9, session 4): tf32 WMMA and mma.sync with f32
/// accumulate (HMMA.1684.F32.TF32 / HMMA.1688.F32.TF32), ldmatrix on 32-bit elements, stmatrix
/// (STSM) for an f16 epilogue, and int8 mma.sync (IMMA). Launch specs: modern2.json.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

extern "C" {

// Block 32x4 (4 warps), each warp one 16x16 tile of C (M x N, f32) = A (M x K) * B (K x N),
// both f32 row-major, through tf32 fragments m16n16k8; every element is rounded to tf32 with
// __float_to_tf32 after the load, as the CUDA programming guide does it. Cref is the GPU's
// recorded C for these inputs; only the launch's check reads it.
__global__ void wmmaGemmTf32(float *C, const float *A, const float *B, int M, int N, int K,
                             const float *Cref) {
  (void)Cref;
  int warp = blockIdx.x * blockDim.y + threadIdx.y;
  int tilesN = N / 16;
  int tm = warp / tilesN, tn = warp % tilesN;
  if (tm * 16 >= M) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
  wmma::fill_fragment(c, 0.f);
  for (int k = 0; k < K; k += 8) {
    wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + tn * 16, N);
    for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);
    for (int i = 0; i < b.num_elements; ++i) b.x[i] = wmma::__float_to_tf32(b.x[i]);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + tm * 16 * N + tn * 16, c, N, wmma::mem_row_major);
}

// One warp per 16x8 tile of C = A * B (f32, row-major). Per k-step of 8 the warp stages A's
// 16x8 slice and B's 8x8 slice, transposed (Bt[n][k]), in shared memory, and loads the tf32
// fragments with ldmatrix: a 16-bit 8x8 matrix is an 8x4 matrix of 32-bit elements, so lane l
// receives element (l / 4, l % 4) of each, which is the m16n8k8 tf32 fragment order. The f32
// bits go to the tensor core unconverted (no cvt.rna.tf32.f32): what the hardware does with the
// low 13 mantissa bits decides the result. Cref is the GPU's recorded C for these inputs; only
// the launch's check reads it.
__global__ void mmaTf32Ldmatrix(float *C, const float *A, const float *B, int M, int N, int K,
                                const float *Cref) {
  (void)Cref;
  __shared__ __align__(16) float As[16][8];
  __shared__ __align__(16) float Bt[8][8];
  int lane = threadIdx.x;
  int tilesN = N / 8;
  int tm = blockIdx.x / tilesN, tn = blockIdx.x % tilesN;
  if (tm * 16 >= M) return;
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < K; k += 8) {
    for (int e = lane; e < 128; e += 32) As[e / 8][e % 8] = A[(tm * 16 + e / 8) * K + k + e % 8];
    for (int e = lane; e < 64; e += 32) Bt[e % 8][e / 8] = B[(k + e / 8) * N + tn * 8 + e % 8];
    __syncwarp();
    int mat = lane / 8, r = lane % 8;
    unsigned aAddr = (unsigned)__cvta_generic_to_shared(&As[(mat & 1) * 8 + r][(mat >> 1) * 4]);
    unsigned bAddr = (unsigned)__cvta_generic_to_shared(&Bt[r][(mat & 1) * 4]);
    unsigned a0, a1, a2, a3, b0, b1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(aAddr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(bAddr));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
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

// One warp per 16x16 tile of C (f16, row-major) = A * B (f16 inputs, row-major), two
// mma.sync.m16n8k16 per k-step with f32 accumulate; the epilogue packs the accumulators to
// half2 and writes the four 8x8 quadrants with one stmatrix.x4 into a shared tile, which the
// warp then copies to global memory in 16-byte rows.
__global__ void mmaStmatrixF16(half *C, const half *A, const half *B, int M, int N, int K) {
  __shared__ __align__(16) half As[16][16];
  __shared__ __align__(16) half Bs[16][16];
  __shared__ __align__(16) half Cs[16][16];
  int lane = threadIdx.x;
  int tilesN = N / 16;
  int tm = blockIdx.x / tilesN, tn = blockIdx.x % tilesN;
  if (tm * 16 >= M) return;
  float d[2][4] = {};
  for (int k = 0; k < K; k += 16) {
    for (int e = lane; e < 256; e += 32) {
      As[e / 16][e % 16] = A[(tm * 16 + e / 16) * K + k + e % 16];
      Bs[e / 16][e % 16] = B[(k + e / 16) * N + tn * 16 + e % 16];
    }
    __syncwarp();
    unsigned a[4], b[4];
    unsigned aAddr = (unsigned)__cvta_generic_to_shared(&As[lane % 16][(lane / 16) * 8]);
    unsigned bAddr = (unsigned)__cvta_generic_to_shared(&Bs[lane % 16][(lane / 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(aAddr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3]) : "r"(bAddr));
    for (int h = 0; h < 2; ++h)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                   "{%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(d[h][0]), "+f"(d[h][1]), "+f"(d[h][2]), "+f"(d[h][3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2 * h]), "r"(b[2 * h + 1]));
    __syncwarp();
  }
  // Quadrants: 0 = rows 0-7 / cols 0-7 (d[0][0..1]), 1 = rows 8-15 / cols 0-7 (d[0][2..3]),
  // 2 = rows 0-7 / cols 8-15, 3 = rows 8-15 / cols 8-15; lanes 8q..8q+7 address quadrant q's rows.
  unsigned q[4];
  for (int h = 0; h < 2; ++h) {
    __half2 lo = __floats2half2_rn(d[h][0], d[h][1]), hi = __floats2half2_rn(d[h][2], d[h][3]);
    q[2 * h] = *reinterpret_cast<unsigned *>(&lo);
    q[2 * h + 1] = *reinterpret_cast<unsigned *>(&hi);
  }
  int quad = lane / 8;
  unsigned cAddr = (unsigned)__cvta_generic_to_shared(&Cs[(quad & 1) * 8 + lane % 8][(quad >> 1) * 8]);
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
               :: "r"(cAddr), "r"(q[0]), "r"(q[1]), "r"(q[2]), "r"(q[3]) : "memory");
  __syncwarp();
  // 16 rows x 32 bytes: lane l copies half a row (16 bytes).
  const uint4 *src = reinterpret_cast<const uint4 *>(&Cs[lane / 2][(lane % 2) * 8]);
  *reinterpret_cast<uint4 *>(C + (tm * 16 + lane / 2) * N + tn * 16 + (lane % 2) * 8) = *src;
}

// One warp per 16x8 tile of C (i32, row-major) = A (M x K, i8, row-major) * B (K x N, i8,
// row-major) with mma.sync.m16n8k32 s8 x s8 -> s32. A's fragment registers are 4 consecutive
// bytes of a row, loaded as one word; B's are 4 consecutive k of one column, gathered bytewise.
__global__ void immaGemmS8(int *C, const signed char *A, const signed char *B, int M, int N, int K) {
  int lane = threadIdx.x;
  int tilesN = N / 8;
  int tm = blockIdx.x / tilesN, tn = blockIdx.x % tilesN;
  if (tm * 16 >= M) return;
  int g = lane / 4, t = lane % 4;
  int d[4] = {0, 0, 0, 0};
  for (int k = 0; k < K; k += 32) {
    const signed char *arow0 = A + (tm * 16 + g) * K + k, *arow1 = arow0 + 8 * K;
    unsigned a0 = *reinterpret_cast<const unsigned *>(arow0 + 4 * t);
    unsigned a1 = *reinterpret_cast<const unsigned *>(arow1 + 4 * t);
    unsigned a2 = *reinterpret_cast<const unsigned *>(arow0 + 16 + 4 * t);
    unsigned a3 = *reinterpret_cast<const unsigned *>(arow1 + 16 + 4 * t);
    unsigned b[2];
    for (int h = 0; h < 2; ++h) {
      unsigned w = 0;
      for (int i = 0; i < 4; ++i)
        w |= unsigned((unsigned char)B[(k + 16 * h + 4 * t + i) * N + tn * 8 + g]) << (8 * i);
      b[h] = w;
    }
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b[0]), "r"(b[1]));
  }
  int *c0 = C + (tm * 16 + g) * N + tn * 8 + 2 * t;
  int *c1 = C + (tm * 16 + g + 8) * N + tn * 8 + 2 * t;
  c0[0] = d[0], c0[1] = d[1], c1[0] = d[2], c1[1] = d[3];
}

} // extern "C"
