/// \file
/// SGEMM seeds, C = A * B with A M x K, B K x N, C M x N, all row-major float. (cuBLAS is the
/// fourth seed: measured-only on the GPU, it has no kernel here.)

extern "C" {

// One thread per output, block 16x16, grid (N/16, M/16): claim B reads coalesced, A reads a
// broadcast per half-warp row; every operand re-read from global K times.
__global__ void sgemmNaive(float *C, const float *A, const float *B, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}

// 16x16 shared tiles, block 16x16, grid (N/16, M/16); M, N, K multiples of 16: claim no bank
// conflicts (As row reads broadcast, Bs row reads consecutive) and 16x fewer global loads.
__global__ void sgemmShared16(float *C, const float *A, const float *B, int M, int N, int K) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty;
  int col = blockIdx.x * 16 + tx;
  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = sum;
}

// 128x128 block tile, BK = 8, 256 threads each computing 8x8 outputs; float4 global loads,
// A stored transposed in shared, double-buffered shared tiles (one barrier per k-step).
// Grid (N/128, M/128); M, N multiples of 128, K a multiple of 8. Claim: 128-bit global loads
// at 16 sectors/request, conflict-free LDS.128 fragment reads.
__global__ void __launch_bounds__(256) sgemm128x128x8(float *C, const float *A, const float *B,
                                                       int M, int N, int K) {
  __shared__ __align__(16) float As[2][8][128]; // [buf][k][m]
  __shared__ __align__(16) float Bs[2][8][128]; // [buf][k][n]
  int t = threadIdx.x;
  int tr = t / 16, tc = t % 16;
  const float *Ablk = A + blockIdx.y * 128 * K;
  const float *Bblk = B + blockIdx.x * 128;
  int aRow = t / 2, aCol = (t % 2) * 4;   // A tile: 128 rows x 8 columns, one float4 per thread
  int bRow = t / 32, bCol = (t % 32) * 4; // B tile: 8 rows x 128 columns, one float4 per thread

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

  float4 ra = *reinterpret_cast<const float4 *>(&Ablk[aRow * K + aCol]);
  float4 rb = *reinterpret_cast<const float4 *>(&Bblk[bRow * N + bCol]);
  As[0][aCol + 0][aRow] = ra.x;
  As[0][aCol + 1][aRow] = ra.y;
  As[0][aCol + 2][aRow] = ra.z;
  As[0][aCol + 3][aRow] = ra.w;
  *reinterpret_cast<float4 *>(&Bs[0][bRow][bCol]) = rb;
  __syncthreads();

  int buf = 0;
  for (int k0 = 0; k0 < K; k0 += 8) {
    bool more = k0 + 8 < K;
    if (more) { // prefetch the next tile into registers while computing this one
      ra = *reinterpret_cast<const float4 *>(&Ablk[aRow * K + k0 + 8 + aCol]);
      rb = *reinterpret_cast<const float4 *>(&Bblk[(k0 + 8 + bRow) * N + bCol]);
    }
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      float4 a0 = *reinterpret_cast<const float4 *>(&As[buf][k][tr * 4]);
      float4 a1 = *reinterpret_cast<const float4 *>(&As[buf][k][tr * 4 + 64]);
      float4 b0 = *reinterpret_cast<const float4 *>(&Bs[buf][k][tc * 4]);
      float4 b1 = *reinterpret_cast<const float4 *>(&Bs[buf][k][tc * 4 + 64]);
      float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
    }
    if (more) {
      As[buf ^ 1][aCol + 0][aRow] = ra.x;
      As[buf ^ 1][aCol + 1][aRow] = ra.y;
      As[buf ^ 1][aCol + 2][aRow] = ra.z;
      As[buf ^ 1][aCol + 3][aRow] = ra.w;
      *reinterpret_cast<float4 *>(&Bs[buf ^ 1][bRow][bCol]) = rb;
    }
    __syncthreads();
    buf ^= 1;
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    int row = blockIdx.y * 128 + (i < 4 ? tr * 4 + i : 64 + tr * 4 + i - 4);
    float *crow = C + row * N + blockIdx.x * 128;
    *reinterpret_cast<float4 *>(&crow[tc * 4]) =
        make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
    *reinterpret_cast<float4 *>(&crow[tc * 4 + 64]) =
        make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
  }
}

} // extern "C"
