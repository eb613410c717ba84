/// \file
/// Corpus: tiled matrix multiplication C = A * B (CUDA-sample matrixMul style, written here):
/// A is hA x wA, B is wA x wB, C is hA x wB, all row-major; square BS x BS tiles in shared memory
/// and a fully unrolled inner product. Dimensions multiples of BS; grid (wB / BS, hA / BS).

template <int BS>
__device__ __forceinline__ void matrixMulTile(float *C, const float *A, const float *B, int wA, int wB) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int aBegin = wA * BS * blockIdx.y;
  const int aEnd = aBegin + wA - 1;
  const int aStep = BS;
  const int bBegin = BS * blockIdx.x;
  const int bStep = BS * wB;
  float c = 0.0f;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BS; ++k) c += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[wB * BS * blockIdx.y + BS * blockIdx.x + wB * ty + tx] = c;
}

extern "C" {
__global__ void matrixMulTiled16(float *C, const float *A, const float *B, int wA, int wB) {
  matrixMulTile<16>(C, A, B, wA, wB);
}
__global__ void matrixMulTiled32(float *C, const float *A, const float *B, int wA, int wB) {
  matrixMulTile<32>(C, A, B, wA, wB);
}
} // extern "C"
