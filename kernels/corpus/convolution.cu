/// \file
/// Corpus: separable convolution, row and column passes through shared-memory tiles with aprons
/// (CUDA-sample style, written here). Filter radius 8 (17 taps, passed in global memory); pixels
/// outside the image count as zero. out(x, y) = sum_j taps[R - j] * in(x + j, y) (rows) or
/// in(x, y + j) (columns), j = -R..R.

#define KR 8

// Rows: block 16 x 4, each thread computes 8 pixels 16 apart; one 16-pixel halo step per side.
// Width a multiple of 128, height a multiple of 4.
#define ROW_X 16
#define ROW_Y 4
#define ROW_STEPS 8
#define ROW_HALO 1

// Columns: block 16 x 8, each thread computes 8 pixels 8 rows apart; one 8-row halo step per
// side; the tile is stored column-major with one word of padding. Width a multiple of 16,
// height a multiple of 64.
#define COL_X 16
#define COL_Y 8
#define COL_STEPS 8
#define COL_HALO 1

extern "C" {

__global__ void convolutionRows(float *dst, const float *src, const float *__restrict__ taps, int W,
                                int H) {
  __shared__ float tile[ROW_Y][(ROW_STEPS + 2 * ROW_HALO) * ROW_X];
  float k[2 * KR + 1];
#pragma unroll
  for (int j = 0; j < 2 * KR + 1; ++j) k[j] = taps[j];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = (blockIdx.x * ROW_STEPS - ROW_HALO) * ROW_X + tx;
  const int y = blockIdx.y * ROW_Y + ty;
  const float *row = src + (long)y * W;
#pragma unroll
  for (int s = 0; s < ROW_HALO; ++s)
    tile[ty][tx + s * ROW_X] = x0 + s * ROW_X >= 0 ? row[x0 + s * ROW_X] : 0.0f;
#pragma unroll
  for (int s = ROW_HALO; s < ROW_HALO + ROW_STEPS; ++s) tile[ty][tx + s * ROW_X] = row[x0 + s * ROW_X];
#pragma unroll
  for (int s = ROW_HALO + ROW_STEPS; s < ROW_STEPS + 2 * ROW_HALO; ++s)
    tile[ty][tx + s * ROW_X] = x0 + s * ROW_X < W ? row[x0 + s * ROW_X] : 0.0f;
  __syncthreads();
#pragma unroll
  for (int s = ROW_HALO; s < ROW_HALO + ROW_STEPS; ++s) {
    float sum = 0.0f;
#pragma unroll
    for (int j = -KR; j <= KR; ++j) sum += k[KR - j] * tile[ty][tx + s * ROW_X + j];
    dst[(long)y * W + x0 + s * ROW_X] = sum;
  }
}

__global__ void convolutionColumns(float *dst, const float *src, const float *__restrict__ taps,
                                   int W, int H) {
  __shared__ float tile[COL_X][(COL_STEPS + 2 * COL_HALO) * COL_Y + 1];
  float k[2 * KR + 1];
#pragma unroll
  for (int j = 0; j < 2 * KR + 1; ++j) k[j] = taps[j];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * COL_X + tx;
  const int y0 = (blockIdx.y * COL_STEPS - COL_HALO) * COL_Y + ty;
#pragma unroll
  for (int s = 0; s < COL_HALO; ++s)
    tile[tx][ty + s * COL_Y] = y0 + s * COL_Y >= 0 ? src[(long)(y0 + s * COL_Y) * W + x] : 0.0f;
#pragma unroll
  for (int s = COL_HALO; s < COL_HALO + COL_STEPS; ++s)
    tile[tx][ty + s * COL_Y] = src[(long)(y0 + s * COL_Y) * W + x];
#pragma unroll
  for (int s = COL_HALO + COL_STEPS; s < COL_STEPS + 2 * COL_HALO; ++s)
    tile[tx][ty + s * COL_Y] = y0 + s * COL_Y < H ? src[(long)(y0 + s * COL_Y) * W + x] : 0.0f;
  __syncthreads();
#pragma unroll
  for (int s = COL_HALO; s < COL_HALO + COL_STEPS; ++s) {
    float sum = 0.0f;
#pragma unroll
    for (int j = -KR; j <= KR; ++j) sum += k[KR - j] * tile[tx][ty + s * COL_Y + j];
    dst[(long)(y0 + s * COL_Y) * W + x] = sum;
  }
}

} // extern "C"
