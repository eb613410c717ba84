// Third held-out set for the time model, written in session 6 (2026-11-23) by a helper
// ("heldout3") that did NOT look at the time model (simulator/perf, device files, time
// predictions or time validations), before any prediction or measurement of these kernels: a
// blind check that the model's rules carry to kernels nobody tuned it on. Never used in a fit.
// Kernels in the style of published sample/tutorial code. Launches in heldout3.json: memory-bound
// (3-read triad, RGB->gray over uchar3 pixels on a 2D grid, AoS particle drift), shared-bound
// (padded f64 tile transpose, 1D convolution through a shared tile), compute-bound (restricted
// N-body with rsqrtf, fixed-count Mandelbrot, Horner chain with ILP 1), latency-bound / small
// grids (linked-list walk by 4 warps, single-block shuffle reduction, Horner chain with 128
// blocks) and atomics (global 256-bin histogram).

// d = a * b + s * c: three streams read, one written (STREAM-like, DRAM-bound).
extern "C" __global__ void triad3(const float *a, const float *b, const float *c, float *d, float s, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = a[i] * b[i] + s * c[i];
}

// RGB (uchar3, 3-byte pixels) to 8-bit luma on a 2D grid, one pixel per thread.
extern "C" __global__ void rgb_to_gray(const uchar3 *rgb, unsigned char *gray, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  long idx = (long)y * width + x;
  uchar3 p = rgb[idx];
  gray[idx] = (unsigned char)(0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
}

// Array-of-structs particles (28-byte records): position += velocity * dt, in place.
struct Particle {
  float x, y, z;
  float vx, vy, vz;
  float mass;
};
extern "C" __global__ void aos_drift(Particle *p, unsigned n, float dt) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  p[i].x += p[i].vx * dt;
  p[i].y += p[i].vy * dt;
  p[i].z += p[i].vz * dt;
}

// Out-of-place transpose of a rows x cols matrix of doubles through a padded 32x33 shared tile
// (block 32x8, each thread moves 4 elements).
#define TDIM 32
#define TROWS 8
extern "C" __global__ void transpose_f64(const double *in, double *out, int rows, int cols) {
  __shared__ double tile[TDIM][TDIM + 1];
  int x = blockIdx.x * TDIM + threadIdx.x;
  int y = blockIdx.y * TDIM + threadIdx.y;
  for (int j = 0; j < TDIM; j += TROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(long)(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TDIM + threadIdx.x;
  y = blockIdx.x * TDIM + threadIdx.y;
  for (int j = 0; j < TDIM; j += TROWS)
    if (x < rows && y + j < cols) out[(long)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// 1D convolution, radius 32 (65 taps): input tile plus halos and the weights staged in shared
// memory, one output per thread (block of 256).
#define CONV_R 32
#define CONV_B 256
extern "C" __global__ void conv1d_shared(const float *in, const float *w, float *out, int n) {
  __shared__ float tile[CONV_B + 2 * CONV_R];
  __shared__ float sw[2 * CONV_R + 1];
  int t = threadIdx.x;
  int i = blockIdx.x * CONV_B + t;
  tile[t + CONV_R] = i < n ? in[i] : 0.0f;
  if (t < CONV_R) {
    int l = i - CONV_R, r = i + CONV_B;
    tile[t] = l >= 0 && l < n ? in[l] : 0.0f;
    tile[t + CONV_B + CONV_R] = r < n ? in[r] : 0.0f;
  }
  if (t < 2 * CONV_R + 1) sw[t] = w[t];
  __syncthreads();
  if (i >= n) return;
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 2 * CONV_R + 1; ++k) s += sw[k] * tile[t + k];
  out[i] = s;
}

// Restricted N-body: each of n bodies (float4: x, y, z, mass) accumulates the softened
// acceleration from the first m bodies, read through shared tiles of 256 bodies (rsqrtf).
#define NB_TILE 256
extern "C" __global__ void nbody_accel(const float4 *pos, float4 *acc, int n, int m, float eps2) {
  __shared__ float4 shpos[NB_TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 pi = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < m; base += NB_TILE) {
    for (int t = threadIdx.x; t < NB_TILE; t += blockDim.x) {
      int j = base + t;
      shpos[t] = j < m && j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < NB_TILE; ++k) {
      float4 pj = shpos[k];
      float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
      float d2 = dx * dx + dy * dy + dz * dz + eps2;
      float inv = rsqrtf(d2);
      float f = pj.w * inv * inv * inv;
      ax += f * dx;
      ay += f * dy;
      az += f * dz;
    }
    __syncthreads();
  }
  if (i < n) acc[i] = make_float4(ax, ay, az, 0.0f);
}

// Mandelbrot with a fixed iteration count (no early exit): counts the iterations spent inside
// |z| <= 2; one pixel per thread on a 2D grid.
extern "C" __global__ void mandel_fixed(unsigned *count, int width, int height, float x0, float y0, float step,
                                        int iters) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  float cx = x0 + px * step, cy = y0 + py * step;
  float x = 0.0f, y = 0.0f;
  unsigned inside = 0;
  for (int k = 0; k < iters; ++k) {
    float x2 = x * x, y2 = y * y;
    inside += (x2 + y2 <= 4.0f) ? 1u : 0u;
    y = 2.0f * x * y + cy;
    x = x2 - y2 + cx;
  }
  count[(long)py * width + px] = inside;
}

// Degree-15 polynomial by Horner's rule applied `reps` times (x <- p(x)): one dependent FMA chain
// per thread (ILP 1). Coefficients coef[k] / 256 keep |p(x)| < 1 on [-1, 1].
extern "C" __global__ void horner_chain(const float *xin, const float *coef, float *out, unsigned n, int reps) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float c[16];
#pragma unroll
  for (int k = 0; k < 16; ++k) c[k] = coef[k] * (1.0f / 256.0f);
  float x = xin[i] / (float)n;
  for (int r = 0; r < reps; ++r) {
    float y = c[15];
#pragma unroll
    for (int k = 14; k >= 0; --k) y = fmaf(y, x, c[k]);
    x = y;
  }
  out[i] = x;
}

// Linked-list walk: each thread follows `steps` nodes {next, value} from its own start node,
// summing values; next indices are masked to the table (mask = nodes - 1, a power of two).
struct ListNode {
  unsigned next;
  unsigned value;
};
extern "C" __global__ void list_walk(const ListNode *nodes, unsigned *out, unsigned mask, int steps) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned p = (t * 2654435761u) & mask;
  unsigned s = 0;
  for (int k = 0; k < steps; ++k) {
    ListNode nd = nodes[p];
    s += nd.value;
    p = nd.next & mask;
  }
  out[t] = s;
}

// Single-block sum of n4 float4s: strided loop, warp shuffles, shared partials, one result.
extern "C" __global__ void block_reduce_shfl(const float4 *in, float *out, unsigned n4) {
  __shared__ float partial[32];
  float s = 0.0f;
  for (unsigned i = threadIdx.x; i < n4; i += blockDim.x) {
    float4 v = in[i];
    s += (v.x + v.y) + (v.z + v.w);
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) partial[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < (blockDim.x + 31) / 32 ? partial[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) out[0] = s;
  }
}

// 256-bin byte histogram straight into global memory: four atomicAdds per thread (uchar4).
extern "C" __global__ void hist256_global(const uchar4 *data, unsigned *bins, unsigned n4) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  uchar4 v = data[i];
  atomicAdd(&bins[v.x], 1u);
  atomicAdd(&bins[v.y], 1u);
  atomicAdd(&bins[v.z], 1u);
  atomicAdd(&bins[v.w], 1u);
}
