/// \file
/// The speed suite's transposes (kernels/bench/bench.json): the eight kernels of the classic
/// CUDA-sample matrix-transpose study, written here. TILE_DIM x TILE_DIM tiles, each block of
/// TILE_DIM x BLOCK_ROWS threads loops over its tile; width and height are multiples of
/// TILE_DIM. fineGrained and coarseGrained are the study's deliberately partial transposes
/// (within a tile only, of whole tiles only) that bound the achievable speed.

#define TILE_DIM 32
#define BLOCK_ROWS 8

extern "C" {

__global__ void copySimple(float *odata, const float *idata, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int index = x + width * y;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) odata[index + i * width] = idata[index + i * width];
}

__global__ void copySharedMem(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int index = x + width * y;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) tile[threadIdx.y + i][threadIdx.x] = idata[index + i * width];
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) odata[index + i * width] = tile[threadIdx.y + i][threadIdx.x];
}

__global__ void transposeNaive(float *odata, const float *idata, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int in = x + width * y, out = y + height * x;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) odata[out + i] = idata[in + i * width];
}

__global__ void transposeCoalesced(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int in = x + y * width;
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  int out = x + y * height;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) tile[threadIdx.y + i][threadIdx.x] = idata[in + i * width];
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) odata[out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

__global__ void transposeNoBankConflicts(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int in = x + y * width;
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  int out = x + y * height;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) tile[threadIdx.y + i][threadIdx.x] = idata[in + i * width];
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) odata[out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

// Tiles in diagonal order: consecutive blocks touch different DRAM partitions.
__global__ void transposeDiagonal(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int bx, by;
  if (width == height) {
    by = blockIdx.x;
    bx = (blockIdx.x + blockIdx.y) % gridDim.x;
  } else {
    int bid = blockIdx.x + gridDim.x * blockIdx.y;
    by = bid % gridDim.y;
    bx = ((bid / gridDim.y) + by) % gridDim.x;
  }
  int x = bx * TILE_DIM + threadIdx.x;
  int y = by * TILE_DIM + threadIdx.y;
  int in = x + y * width;
  x = by * TILE_DIM + threadIdx.x;
  y = bx * TILE_DIM + threadIdx.y;
  int out = x + y * height;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) tile[threadIdx.y + i][threadIdx.x] = idata[in + i * width];
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) odata[out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

// Transposes within each tile but leaves the tiles where they are.
__global__ void transposeFineGrained(float *odata, const float *idata, int width, int height) {
  __shared__ float block[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int index = x + y * width;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) block[threadIdx.y + i][threadIdx.x] = idata[index + i * width];
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) odata[index + i * height] = block[threadIdx.x][threadIdx.y + i];
}

// Moves whole tiles to their transposed place without transposing inside them.
__global__ void transposeCoarseGrained(float *odata, const float *idata, int width, int height) {
  __shared__ float block[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int in = x + y * width;
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  int out = x + y * height;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) block[threadIdx.y + i][threadIdx.x] = idata[in + i * width];
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) odata[out + i * height] = block[threadIdx.y + i][threadIdx.x];
}

} // extern "C"
