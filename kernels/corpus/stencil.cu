/// \file
/// Corpus: 2D stencils on a W x H float grid, row-major (written here). Interior points get the
/// weighted sum; boundary points are copied (Jacobi) or left untouched (3x3 Gaussian).

#define TX 32
#define TY 8

extern "C" {

// 5-point Jacobi step through a shared tile with a one-point halo: out = 0.5 c + 0.125 (n+s+e+w).
// Block 32 x 8, grid (W/32, H/8); W, H multiples of the block. Boundary points: out = in.
__global__ void jacobi5Shared(float *out, const float *in, int W, int H) {
  __shared__ float tile[TY + 2][TX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * TX + tx, y = blockIdx.y * TY + ty;
  tile[ty + 1][tx + 1] = in[y * W + x];
  if (tx == 0) tile[ty + 1][0] = x > 0 ? in[y * W + x - 1] : 0.0f;
  if (tx == TX - 1) tile[ty + 1][TX + 1] = x < W - 1 ? in[y * W + x + 1] : 0.0f;
  if (ty == 0) tile[0][tx + 1] = y > 0 ? in[(y - 1) * W + x] : 0.0f;
  if (ty == TY - 1) tile[TY + 1][tx + 1] = y < H - 1 ? in[(y + 1) * W + x] : 0.0f;
  __syncthreads();
  float c = tile[ty + 1][tx + 1];
  if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
    out[y * W + x] = c;
    return;
  }
  float nsew = tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2];
  out[y * W + x] = 0.5f * c + 0.125f * nsew;
}

// 3x3 Gaussian (1 2 1 / 2 4 2 / 1 2 1, divided by 16) straight from global memory; one thread
// per pixel, grid covers W x H; boundary pixels are not written.
__global__ void gauss3x3Global(float *out, const float *in, int W, int H) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) return;
  const float *p = in + (y - 1) * W + x;
  float top = p[-1] + 2.0f * p[0] + p[1];
  p += W;
  float mid = p[-1] + 2.0f * p[0] + p[1];
  p += W;
  float bot = p[-1] + 2.0f * p[0] + p[1];
  out[y * W + x] = (top + 2.0f * mid + bot) * 0.0625f;
}

} // extern "C"
