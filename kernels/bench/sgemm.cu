/// \file
/// The speed suite's SGEMMs (kernels/bench/bench.json): twelve kernels in the style of the
/// popular step-by-step SGEMM tutorials, C = alpha * A * B + beta * C with A M x K, B K x N and
/// C M x N, all row-major float, written here. Every kernel assumes M, N and K are multiples of
/// its tile sizes (the suite runs 1024^3). They exist to time warplens on the kernels people
/// write while learning, not to be fast.

// 1. Naive: one thread per output, threadIdx.x walks rows (so a warp reads 32 rows of A and
// writes a column of C: uncoalesced). Block 32x32, grid (M/32, N/32).
extern "C" __global__ void sgemm01Naive(int M, int N, int K, float alpha, const float *A, const float *B,
                             float beta, float *C) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    float tmp = 0.0f;
    for (int i = 0; i < K; ++i) tmp += A[x * K + i] * B[i * N + y];
    C[x * N + y] = alpha * tmp + beta * C[x * N + y];
  }
}

// 2. Global-memory coalescing: 1-D blocks of 1024 threads, consecutive threads take consecutive
// columns. Grid (M/32, N/32).
extern "C" __global__ void sgemm02Coalesced(int M, int N, int K, float alpha, const float *A, const float *B,
                                 float beta, float *C) {
  const int row = blockIdx.x * 32 + threadIdx.x / 32;
  const int col = blockIdx.y * 32 + threadIdx.x % 32;
  if (row < M && col < N) {
    float tmp = 0.0f;
    for (int i = 0; i < K; ++i) tmp += A[row * K + i] * B[i * N + col];
    C[row * N + col] = alpha * tmp + beta * C[row * N + col];
  }
}

// 3. Shared-memory cache blocking, 32x32 tiles, 1024 threads. Grid (M/32, N/32).
extern "C" __global__ void sgemm03SharedBlocking(int M, int N, int K, float alpha, const float *A,
                                      const float *B, float beta, float *C) {
  constexpr int BS = 32;
  __shared__ float As[BS * BS];
  __shared__ float Bs[BS * BS];
  const int cRow = blockIdx.x, cCol = blockIdx.y;
  const int tRow = threadIdx.x / BS, tCol = threadIdx.x % BS;
  A += cRow * BS * K;
  B += cCol * BS;
  C += cRow * BS * N + cCol * BS;
  float tmp = 0.0f;
  for (int bk = 0; bk < K; bk += BS) {
    As[tRow * BS + tCol] = A[tRow * K + tCol];
    Bs[tRow * BS + tCol] = B[tRow * N + tCol];
    __syncthreads();
    A += BS;
    B += BS * N;
    for (int d = 0; d < BS; ++d) tmp += As[tRow * BS + d] * Bs[d * BS + tCol];
    __syncthreads();
  }
  C[tRow * N + tCol] = alpha * tmp + beta * C[tRow * N + tCol];
}

// 4. 1-D block tiling: BM = BN = 64, BK = 8, each thread computes TM = 8 outputs of a column.
// 512 threads, grid (N/64, M/64).
extern "C" __global__ void __launch_bounds__(512) sgemm04Blocktile1D(int M, int N, int K, float alpha,
                                                           const float *A, const float *B,
                                                           float beta, float *C) {
  constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int threadCol = threadIdx.x % BN, threadRow = threadIdx.x / BN;
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;
  const int innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;
  float res[TM] = {0.0f};
  for (int bk = 0; bk < K; bk += BK) {
    As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];
    Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int d = 0; d < BK; ++d) {
      const float b = Bs[d * BN + threadCol];
      for (int r = 0; r < TM; ++r) res[r] += As[(threadRow * TM + r) * BK + d] * b;
    }
    __syncthreads();
  }
  for (int r = 0; r < TM; ++r)
    C[(threadRow * TM + r) * N + threadCol] = alpha * res[r] + beta * C[(threadRow * TM + r) * N + threadCol];
}

// 5./9. 2-D block tiling: each thread computes TM x TN outputs from register fragments.
// Block (BM * BN) / (TM * TN) threads, grid (N/BN, M/BM).
template <int BM, int BN, int BK, int TM, int TN>
__device__ void blocktile2D(int M, int N, int K, float alpha, const float *A, const float *B,
                            float beta, float *C) {
  constexpr int NT = (BM * BN) / (TM * TN);
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int threadCol = threadIdx.x % (BN / TN), threadRow = threadIdx.x / (BN / TN);
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;
  constexpr int strideA = NT / BK;
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;
  constexpr int strideB = NT / BN;
  float res[TM * TN] = {0.0f};
  float regM[TM], regN[TN];
  for (int bk = 0; bk < K; bk += BK) {
    for (int o = 0; o < BM; o += strideA) As[(innerRowA + o) * BK + innerColA] = A[(innerRowA + o) * K + innerColA];
    for (int o = 0; o < BK; o += strideB) Bs[(innerRowB + o) * BN + innerColB] = B[(innerRowB + o) * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int d = 0; d < BK; ++d) {
      for (int i = 0; i < TM; ++i) regM[i] = As[(threadRow * TM + i) * BK + d];
      for (int i = 0; i < TN; ++i) regN[i] = Bs[d * BN + threadCol * TN + i];
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n) res[m * TN + n] += regM[m] * regN[n];
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n) {
      float &c = C[(threadRow * TM + m) * N + threadCol * TN + n];
      c = alpha * res[m * TN + n] + beta * c;
    }
}

extern "C" __global__ void __launch_bounds__(256) sgemm05Blocktile2D(int M, int N, int K, float alpha, const float *A,
                                                           const float *B, float beta, float *C) {
  blocktile2D<128, 128, 8, 8, 8>(M, N, K, alpha, A, B, beta, C);
}

// 6./7./8. Vectorised: float4 global loads, A stored transposed in shared memory so that the
// fragment reads are float4 too; float4 stores of C. PAD words of padding per row of the
// transposed A tile (0, or 4 in kernel 8).
template <int BM, int BN, int BK, int TM, int TN, int PAD>
__device__ void vectorized(int M, int N, int K, float alpha, const float *A, const float *B,
                           float beta, float *C) {
  __shared__ __align__(16) float As[BK * (BM + PAD)];
  __shared__ __align__(16) float Bs[BK * BN];
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int threadCol = threadIdx.x % (BN / TN), threadRow = threadIdx.x / (BN / TN);
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
  const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);
  float res[TM * TN] = {0.0f};
  float regM[TM], regN[TN];
  for (int bk = 0; bk < K; bk += BK) {
    float4 t = reinterpret_cast<const float4 *>(&A[innerRowA * K + innerColA * 4])[0];
    As[(innerColA * 4 + 0) * (BM + PAD) + innerRowA] = t.x;
    As[(innerColA * 4 + 1) * (BM + PAD) + innerRowA] = t.y;
    As[(innerColA * 4 + 2) * (BM + PAD) + innerRowA] = t.z;
    As[(innerColA * 4 + 3) * (BM + PAD) + innerRowA] = t.w;
    reinterpret_cast<float4 *>(&Bs[innerRowB * BN + innerColB * 4])[0] =
        reinterpret_cast<const float4 *>(&B[innerRowB * N + innerColB * 4])[0];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int d = 0; d < BK; ++d) {
      for (int i = 0; i < TM; i += 4) {
        float4 a = reinterpret_cast<const float4 *>(&As[d * (BM + PAD) + threadRow * TM + i])[0];
        regM[i] = a.x, regM[i + 1] = a.y, regM[i + 2] = a.z, regM[i + 3] = a.w;
      }
      for (int i = 0; i < TN; i += 4) {
        float4 b = reinterpret_cast<const float4 *>(&Bs[d * BN + threadCol * TN + i])[0];
        regN[i] = b.x, regN[i + 1] = b.y, regN[i + 2] = b.z, regN[i + 3] = b.w;
      }
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n) res[m * TN + n] += regM[m] * regN[n];
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; n += 4) {
      float4 *p = reinterpret_cast<float4 *>(&C[(threadRow * TM + m) * N + threadCol * TN + n]);
      float4 c = p[0];
      c.x = alpha * res[m * TN + n] + beta * c.x;
      c.y = alpha * res[m * TN + n + 1] + beta * c.y;
      c.z = alpha * res[m * TN + n + 2] + beta * c.z;
      c.w = alpha * res[m * TN + n + 3] + beta * c.w;
      p[0] = c;
    }
}

extern "C" __global__ void __launch_bounds__(256) sgemm06Vectorized(int M, int N, int K, float alpha, const float *A,
                                                          const float *B, float beta, float *C) {
  vectorized<128, 128, 8, 8, 8, 0>(M, N, K, alpha, A, B, beta, C);
}

// 7. Vectorised 64x64 tiles with BK = 16 and 4x4 outputs per thread.
extern "C" __global__ void __launch_bounds__(256) sgemm07Vectorized64(int M, int N, int K, float alpha, const float *A,
                                                            const float *B, float beta, float *C) {
  vectorized<64, 64, 16, 4, 4, 0>(M, N, K, alpha, A, B, beta, C);
}

// 8. Vectorised with a padded transposed A tile (4 words per row) against its store conflicts.
extern "C" __global__ void __launch_bounds__(256) sgemm08VectorizedPadded(int M, int N, int K, float alpha, const float *A,
                                                                const float *B, float beta, float *C) {
  vectorized<128, 128, 8, 8, 8, 4>(M, N, K, alpha, A, B, beta, C);
}

// 9. 2-D block tiling with "autotuned" sizes: BM = 64, BN = 128, BK = 16, 8x8 per thread, 128 threads.
extern "C" __global__ void __launch_bounds__(128) sgemm09Autotuned(int M, int N, int K, float alpha, const float *A,
                                                         const float *B, float beta, float *C) {
  blocktile2D<64, 128, 16, 8, 8>(M, N, K, alpha, A, B, beta, C);
}

// 10./11. Warp tiling: the block tile splits into warp tiles (WM x WN), each warp iterates
// WNITER sub-tiles of 8x4 per thread. 128 threads, BM = BN = 128, BK = 16, WM = WN = 64.
// DB = true double-buffers the shared tiles (one barrier per k-step).
template <bool DB>
__device__ void warptile(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                         float *C) {
  constexpr int BM = 128, BN = 128, BK = 16, WM = 64, WN = 64, WNITER = 4, TM = 8, TN = 4, NT = 128;
  constexpr int WMITER = (WM * WN) / (32 * TM * TN * WNITER); // 1
  constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;      // 64, 16
  constexpr int NBUF = DB ? 2 : 1;
  __shared__ __align__(16) float As[NBUF][BK * BM];
  __shared__ __align__(16) float Bs[NBUF][BK * BN];
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int warpIdx = threadIdx.x / 32;
  const int warpCol = warpIdx % (BN / WN), warpRow = warpIdx / (BN / WN);
  const int lane = threadIdx.x % 32;
  const int threadColInWarp = lane % (WSUBN / TN), threadRowInWarp = lane / (WSUBN / TN);
  A += cRow * BM * K;
  B += cCol * BN;
  C += (cRow * BM + warpRow * WM) * N + cCol * BN + warpCol * WN;
  const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
  constexpr int rowStrideA = (NT * 4) / BK;
  const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);
  constexpr int rowStrideB = NT / (BN / 4);
  float res[WMITER * TM * WNITER * TN] = {0.0f};
  float regM[WMITER * TM], regN[WNITER * TN];

  auto loadTile = [&](int buf, const float *a, const float *b) {
    for (int o = 0; o + rowStrideA <= BM; o += rowStrideA) {
      float4 t = reinterpret_cast<const float4 *>(&a[(innerRowA + o) * K + innerColA * 4])[0];
      As[buf][(innerColA * 4 + 0) * BM + innerRowA + o] = t.x;
      As[buf][(innerColA * 4 + 1) * BM + innerRowA + o] = t.y;
      As[buf][(innerColA * 4 + 2) * BM + innerRowA + o] = t.z;
      As[buf][(innerColA * 4 + 3) * BM + innerRowA + o] = t.w;
    }
    for (int o = 0; o + rowStrideB <= BK; o += rowStrideB)
      reinterpret_cast<float4 *>(&Bs[buf][(innerRowB + o) * BN + innerColB * 4])[0] =
          reinterpret_cast<const float4 *>(&b[(innerRowB + o) * N + innerColB * 4])[0];
  };
  auto compute = [&](int buf) {
    for (int d = 0; d < BK; ++d) {
      for (int wm = 0; wm < WMITER; ++wm)
        for (int i = 0; i < TM; ++i)
          regM[wm * TM + i] = As[buf][d * BM + warpRow * WM + wm * WSUBM + threadRowInWarp * TM + i];
      for (int wn = 0; wn < WNITER; ++wn)
        for (int i = 0; i < TN; ++i)
          regN[wn * TN + i] = Bs[buf][d * BN + warpCol * WN + wn * WSUBN + threadColInWarp * TN + i];
      for (int wm = 0; wm < WMITER; ++wm)
        for (int wn = 0; wn < WNITER; ++wn)
          for (int m = 0; m < TM; ++m)
            for (int n = 0; n < TN; ++n)
              res[(wm * TM + m) * (WNITER * TN) + wn * TN + n] += regM[wm * TM + m] * regN[wn * TN + n];
    }
  };

  if (DB) {
    int buf = 0;
    loadTile(0, A, B);
    __syncthreads();
    for (int bk = 0; bk < K; bk += BK) {
      if (bk + BK < K) loadTile(buf ^ 1, A + BK, B + BK * N);
      compute(buf);
      __syncthreads();
      A += BK;
      B += BK * N;
      buf ^= 1;
    }
  } else {
    for (int bk = 0; bk < K; bk += BK) {
      loadTile(0, A, B);
      __syncthreads();
      compute(0);
      A += BK;
      B += BK * N;
      __syncthreads();
    }
  }
  for (int wm = 0; wm < WMITER; ++wm)
    for (int wn = 0; wn < WNITER; ++wn) {
      float *Cw = C + (wm * WSUBM) * N + wn * WSUBN;
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; n += 4) {
          float4 *p = reinterpret_cast<float4 *>(&Cw[(threadRowInWarp * TM + m) * N + threadColInWarp * TN + n]);
          float4 c = p[0];
          const int i = (wm * TM + m) * (WNITER * TN) + wn * TN + n;
          c.x = alpha * res[i] + beta * c.x;
          c.y = alpha * res[i + 1] + beta * c.y;
          c.z = alpha * res[i + 2] + beta * c.z;
          c.w = alpha * res[i + 3] + beta * c.w;
          p[0] = c;
        }
    }
}

extern "C" __global__ void __launch_bounds__(128) sgemm10Warptiling(int M, int N, int K, float alpha, const float *A,
                                                          const float *B, float beta, float *C) {
  warptile<false>(M, N, K, alpha, A, B, beta, C);
}

extern "C" __global__ void __launch_bounds__(128) sgemm11DoubleBuffered(int M, int N, int K, float alpha, const float *A,
                                                              const float *B, float beta, float *C) {
  warptile<true>(M, N, K, alpha, A, B, beta, C);
}

// 12. 16x16 shared tiles with a 2-D block of 16x16 threads (the textbook tiled matrix multiply).
extern "C" __global__ void sgemm12Tiled16(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                               float *C) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = alpha * sum + beta * C[row * N + col];
}

