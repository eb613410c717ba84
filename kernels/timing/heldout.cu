// Held-out kernels for the time model (issue 12): never used in the fit (simulator/perf), only to
// check its predictions. One memory-bound, one shared-bound, one compute-bound and one
// latency-bound kernel at least; launches in heldout.json.

// 5-point stencil on a rows x cols float grid (memory-bound, neighbours reused through L1/L2).
extern "C" __global__ void stencil5(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= cols - 1 || y >= rows - 1) return;
  int i = y * cols + x;
  out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - cols] + in[i + cols]);
}

// Block sum with a shared-memory tree (256 threads), one partial sum per block.
extern "C" __global__ void reduce_shared(const float *in, float *out, unsigned n) {
  __shared__ float s[256];
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[threadIdx.x] = v;
  __syncthreads();
  for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
    if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

// y = a*x + y with a fixed grid of `gridDim.x` blocks (grid-stride loop).
extern "C" __global__ void saxpy_grid(const float *x, float *y, float a, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}

// Horner evaluation of a degree-`deg` polynomial per element (compute-bound).
extern "C" __global__ void poly_eval(const float *in, float *out, unsigned n, unsigned deg) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i] * 1e-7f, acc = 1.0f;
  for (unsigned k = 0; k < deg; ++k) acc = fmaf(acc, x, 0.999f);
  out[i] = acc;
}

// Column reads of a 32x32 shared tile without padding: 32-way bank conflicts (shared-bound).
extern "C" __global__ void tile_columns(const float *in, float *out, unsigned reps) {
  __shared__ float t[32][32];
  unsigned tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
  const float *src = in + blockIdx.x * 1024;
  for (unsigned r = ty; r < 32; r += blockDim.x / 32) t[r][tx] = src[r * 32 + tx];
  __syncthreads();
  float acc = 0.0f;
  for (unsigned k = 0; k < reps; ++k) acc += t[tx][(ty + k) & 31];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Row sums of a rows x cols matrix, one thread per row (uncoalesced; few warps: latency-bound).
extern "C" __global__ void rowsum_thread(const float *a, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int c = 0; c < cols; ++c) acc += a[(long long)r * cols + c];
  out[r] = acc;
}

// Column sums of a rows x cols matrix, one thread per column (coalesced across lanes, a long
// loop of independent loads per thread; few blocks: latency- and MLP-bound).
extern "C" __global__ void colsum_thread(const float *a, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float acc = 0.0f;
  for (int r = 0; r < rows; ++r) acc += a[(long long)r * cols + c];
  out[c] = acc;
}

// out[i] = in[perm(i)] with a 32-element stride inside 4 KiB tiles (uncoalesced loads that
// hit L1 after the first touch of each tile; coalesced stores).
extern "C" __global__ void tile_gather(const float *in, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned tile = i & ~1023u, j = i & 1023u;
  out[i] = in[tile + ((j & 31u) << 5) + (j >> 5)];
}

// Inclusive scan of each 512-element tile (Hillis-Steele, double-buffered in shared memory): one
// element per thread, a global load, 9 barrier-separated shared rounds, a global store.
extern "C" __global__ void scan_block(const float *in, float *out, unsigned n) {
  __shared__ float buf[2][512];
  const unsigned t = threadIdx.x, i = blockIdx.x * 512 + t;
  unsigned cur = 0;
  buf[0][t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned d = 1; d < 512; d <<= 1) {
    float v = buf[cur][t];
    if (t >= d) v += buf[cur][t - d];
    buf[cur ^ 1][t] = v;
    cur ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = buf[cur][t];
}

// 1-D stencil of radius 4 through a shared tile with halo (256 threads, one output each): a
// global load (plus the halo by 8 threads), a barrier, 9 shared reads, a global store.
extern "C" __global__ void stencil1d_shared(const float *in, float *out, unsigned n) {
  __shared__ float s[256 + 8];
  const unsigned t = threadIdx.x, i = blockIdx.x * 256 + t;
  s[t + 4] = i < n ? in[i] : 0.0f;
  if (t < 4) s[t] = i >= 4 ? in[i - 4] : 0.0f;
  if (t >= 252) s[t + 8] = i + 4 < n ? in[i + 4] : 0.0f;
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < 9; ++k) acc += 0.1f * s[t + k];
  if (i < n) out[i] = acc;
}
