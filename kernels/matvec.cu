/// \file
/// Matrix-vector product seeds (y = A x, A rows x cols row-major) and the array-of-structs vs
/// struct-of-arrays read seeds.

extern "C" {

// One thread per row, block 256: claim uncoalesced - lanes read A with a stride of `cols` floats,
// 32 sectors per request on A (x is a broadcast: 1 sector).
__global__ void matvecThreadPerRow(float *y, const float *A, const float *x, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int j = 0; j < cols; ++j) sum += A[row * cols + j] * x[j];
  y[row] = sum;
}

// One warp per row (block 256 = 8 rows), lanes stride over the row, __shfl_down_sync reduction:
// claim coalesced, 4 sectors per request on A and x.
__global__ void matvecWarpPerRow(float *y, const float *A, const float *x, int rows, int cols) {
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int j = lane; j < cols; j += 32) sum += A[row * cols + j] * x[j];
  for (int off = 16; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off);
  if (lane == 0) y[row] = sum;
}

struct Point3 {
  float x, y, z;
};

// Array of structs (12-byte Point3), block 256: claim each field read is strided by 12 bytes,
// 12 sectors per request for 4 useful (33% efficiency).
__global__ void sumAoS(float *out, const Point3 *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = p[i].x + p[i].y + p[i].z;
}

// Struct of arrays, block 256: claim every read and the store coalesced, 4 sectors per request.
__global__ void sumSoA(float *out, const float *x, const float *y, const float *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i] + z[i];
}

} // extern "C"
