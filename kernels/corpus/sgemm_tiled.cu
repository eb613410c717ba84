/// \file
/// Corpus: SGEMM C = A * B in the style of the popular step-by-step SGEMM tutorials (written
/// here): A M x K, B K x N, C M x N, row-major floats; one 64 x 64 block tile per block,
/// grid (N / 64, M / 64); M, N multiples of 64, K a multiple of the tile depth.

extern "C" {

// 1D register blocking: BK = 8, each of 512 threads computes 8 outputs of one column (TM = 8),
// reusing one B value from shared across the 8 A values.
__global__ void __launch_bounds__(512) sgemm1DBlocktiling(float *C, const float *A, const float *B,
                                                           int M, int N, int K) {
  constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int t = threadIdx.x;
  const int tCol = t % BN, tRow = t / BN;
  const int aCol = t % BK, aRow = t / BK;
  const int bCol = t % BN, bRow = t / BN;
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM] = {0.0f};
  for (int k0 = 0; k0 < K; k0 += BK) {
    As[aRow * BK + aCol] = A[aRow * K + aCol];
    Bs[bRow * BN + bCol] = B[bRow * N + bCol];
    __syncthreads();
    A += BK;
    B += BK * N;
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float b = Bs[k * BN + tCol];
#pragma unroll
      for (int m = 0; m < TM; ++m) acc[m] += As[(tRow * TM + m) * BK + k] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int m = 0; m < TM; ++m) C[(tRow * TM + m) * N + tCol] = acc[m];
}

// 2D register blocking: BK = 8, each of 256 threads computes a 4 x 4 sub-tile from 4 A and 4 B
// values held in registers per k; scalar loads, two of A and two of B per thread and k-step.
__global__ void __launch_bounds__(256) sgemm2DBlocktiling(float *C, const float *A, const float *B,
                                                           int M, int N, int K) {
  constexpr int BM = 64, BN = 64, BK = 8, TM = 4, TN = 4, THREADS = 256;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int t = threadIdx.x;
  const int tCol = t % (BN / TN), tRow = t / (BN / TN);
  const int aCol = t % BK, aRow = t / BK;   // 32 rows per pass
  const int bCol = t % BN, bRow = t / BN;   // 4 rows per pass
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {{0.0f}};
  float regM[TM], regN[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int o = 0; o < BM; o += THREADS / BK) As[(aRow + o) * BK + aCol] = A[(aRow + o) * K + aCol];
#pragma unroll
    for (int o = 0; o < BK; o += THREADS / BN) Bs[(bRow + o) * BN + bCol] = B[(bRow + o) * N + bCol];
    __syncthreads();
    A += BK;
    B += BK * N;
#pragma unroll
    for (int k = 0; k < BK; ++k) {
#pragma unroll
      for (int i = 0; i < TM; ++i) regM[i] = As[(tRow * TM + i) * BK + k];
#pragma unroll
      for (int j = 0; j < TN; ++j) regN[j] = Bs[k * BN + tCol * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += regM[i] * regN[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) C[(tRow * TM + i) * N + tCol * TN + j] = acc[i][j];
}

// 2D register blocking with float4: BK = 16, 256 threads, 4 x 4 outputs each. One float4 of A
// per thread, stored transposed (As[k][m]) so fragments read as float4; one float4 of B per
// thread stored as is; results written as float4 rows. K a multiple of 16.
__global__ void __launch_bounds__(256) sgemmVectorized(float *C, const float *A, const float *B,
                                                        int M, int N, int K) {
  constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;
  __shared__ __align__(16) float As[BK * BM];
  __shared__ __align__(16) float Bs[BK * BN];
  const int t = threadIdx.x;
  const int tCol = t % (BN / TN), tRow = t / (BN / TN);
  const int aRow = t / (BK / 4), aCol = (t % (BK / 4)) * 4; // 64 rows x 4 float4
  const int bRow = t / (BN / 4), bCol = (t % (BN / 4)) * 4; // 16 rows x 16 float4
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {{0.0f}};
  for (int k0 = 0; k0 < K; k0 += BK) {
    float4 a = *reinterpret_cast<const float4 *>(&A[aRow * K + aCol]);
    As[(aCol + 0) * BM + aRow] = a.x;
    As[(aCol + 1) * BM + aRow] = a.y;
    As[(aCol + 2) * BM + aRow] = a.z;
    As[(aCol + 3) * BM + aRow] = a.w;
    *reinterpret_cast<float4 *>(&Bs[bRow * BN + bCol]) =
        *reinterpret_cast<const float4 *>(&B[bRow * N + bCol]);
    __syncthreads();
    A += BK;
    B += BK * N;
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float4 m4 = *reinterpret_cast<const float4 *>(&As[k * BM + tRow * TM]);
      float4 n4 = *reinterpret_cast<const float4 *>(&Bs[k * BN + tCol * TN]);
      float regM[TM] = {m4.x, m4.y, m4.z, m4.w};
      float regN[TN] = {n4.x, n4.y, n4.z, n4.w};
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += regM[i] * regN[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
    *reinterpret_cast<float4 *>(&C[(tRow * TM + i) * N + tCol * TN]) =
        make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
}

} // extern "C"
