// Fifth held-out set for the time model, written in session 7 (2026-11-23) by a helper
// ("heldout5") that did NOT look at the time model (simulator/perf, device files, calibration
// notes, analysis time views, validation, time predictions) before any prediction or measurement
// of these kernels: a blind check that the model's rules carry to kernels nobody tuned it on.
// Never used in a fit. Kernels in the style of sample/tutorial/library code, written from scratch.
// Launches in heldout5.json: memory-bound (tanh-GELU over a large tensor with a grid-stride loop,
// C = A + B^T through 16x16 shared tiles, gather through a permutation index, warp-per-row L2
// normalisation), shared-bound (16x16 tiled SGEMM as in the CUDA samples, 256-bin shared-atomic
// histogram with a global merge, SAD block matching over a 23x23 search window), compute-bound
// (f64 Mandelbrot, Philox4x32-10 Monte Carlo pi with a per-block atomicAdd, 256-bit Hamming
// nearest neighbour with popc, additive sine synthesis with sinf) and latency-bound / small grids
// (dot product on 16 blocks with per-warp atomicAdd, small L2 normalisation, one Jacobi sweep
// of a 512x512 grid).

// ---------------------------------------------------------------- memory-bound

// PyTorch-style activation: y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), grid-stride.
extern "C" __global__ void gelu_tanh_gs(const float *x, float *y, unsigned n) {
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float v = x[i];
    float u = 0.7978845608f * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + tanhf(u));
  }
}

// C = A + B^T for square n x n row-major matrices (n a multiple of 16): the B tile is read
// row-wise into a padded 16x17 shared tile and used column-wise; A and C stay coalesced.
extern "C" __global__ void transpose_add16(const float *A, const float *B, float *C, int n) {
  __shared__ float tile[16][17];
  const int bx = blockIdx.x * 16, by = blockIdx.y * 16;
  const int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = B[(long)(bx + ty) * n + by + tx];
  __syncthreads();
  const long o = (long)(by + ty) * n + bx + tx;
  C[o] = A[o] + tile[tx][ty];
}

// out[i] = in[idx[i]]: an index_select / permutation gather (random 4-byte reads).
extern "C" __global__ void gather_perm(const float *in, const unsigned *idx, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}

// Row-wise L2 normalisation, one warp per row: sum of squares with a shuffle reduction, then a
// second pass over the row scaling by rsqrt.
extern "C" __global__ void row_l2norm(const float *in, float *out, int rows, int cols) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (row >= rows) return;
  const float *r = in + (long)row * cols;
  float *o = out + (long)row * cols;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    float v = r[c];
    s += v * v;
  }
  for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
  const float inv = rsqrtf(s + 1e-12f);
  for (int c = lane; c < cols; c += 32) o[c] = r[c] * inv;
}

// ---------------------------------------------------------------- shared-memory-bound

// C = A B, N x N row-major (N a multiple of 16), the classic 16x16 shared-tile SGEMM.
#define MM_TS 16
extern "C" __global__ void matmul_tiled16(const float *A, const float *B, float *C, int N) {
  __shared__ float As[MM_TS][MM_TS];
  __shared__ float Bs[MM_TS][MM_TS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * MM_TS + ty, col = blockIdx.x * MM_TS + tx;
  float acc = 0.0f;
  for (int t = 0; t < N; t += MM_TS) {
    As[ty][tx] = A[(long)row * N + t + tx];
    Bs[ty][tx] = B[(long)(t + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < MM_TS; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[(long)row * N + col] = acc;
}

// 256-bin byte histogram: per-block bins in shared memory updated with shared atomics inside a
// grid-stride loop over uchar4 words, then one global atomicAdd per bin per block.
extern "C" __global__ void hist256_smem(const uchar4 *data, unsigned n4, unsigned *hist) {
  __shared__ unsigned bins[256];
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
    uchar4 v = data[i];
    atomicAdd(&bins[v.x], 1u);
    atomicAdd(&bins[v.y], 1u);
    atomicAdd(&bins[v.z], 1u);
    atomicAdd(&bins[v.w], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&hist[b], bins[b]);
}

// Full-search block matching (motion estimation): one 256-thread block per 8x8 macroblock of
// the current 8-bit frame, one thread per displacement in [-8, 7]^2; the 23x23 reference search
// window and the macroblock are staged in shared memory as ints; the best (SAD << 8 | index) is
// found with a shared min-reduction.
#define SAD_MB 8
#define SAD_R 8
#define SAD_WIN (SAD_MB + 2 * SAD_R - 1)
extern "C" __global__ void sad_block_match(const unsigned char *cur, const unsigned char *ref, int *best,
                                           int width, int height) {
  __shared__ int blk[SAD_MB * SAD_MB];
  __shared__ int win[SAD_WIN * SAD_WIN];
  __shared__ int red[256];
  const int t = threadIdx.x;
  const int x0 = blockIdx.x * SAD_MB, y0 = blockIdx.y * SAD_MB;
  if (t < SAD_MB * SAD_MB) blk[t] = cur[(y0 + t / SAD_MB) * width + x0 + t % SAD_MB];
  for (int i = t; i < SAD_WIN * SAD_WIN; i += blockDim.x) {
    int gy = min(max(y0 - SAD_R + i / SAD_WIN, 0), height - 1);
    int gx = min(max(x0 - SAD_R + i % SAD_WIN, 0), width - 1);
    win[i] = ref[gy * width + gx];
  }
  __syncthreads();
  const int dx = t & 15, dy = t >> 4;
  int s = 0;
  for (int y = 0; y < SAD_MB; ++y)
    for (int x = 0; x < SAD_MB; ++x) s += abs(blk[y * SAD_MB + x] - win[(dy + y) * SAD_WIN + dx + x]);
  red[t] = (s << 8) | t;
  __syncthreads();
  for (int h = 128; h > 0; h >>= 1) {
    if (t < h) red[t] = min(red[t], red[t + h]);
    __syncthreads();
  }
  if (t == 0) best[blockIdx.y * gridDim.x + blockIdx.x] = red[0];
}

// ---------------------------------------------------------------- compute-bound

// Mandelbrot escape counts in double precision, one thread per pixel.
extern "C" __global__ void mandel_f64(unsigned *iters, int w, int h, double x0, double y0, double step,
                                      int maxIter) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  const double cr = x0 + px * step, ci = y0 + py * step;
  double zr = 0.0, zi = 0.0;
  int k = 0;
  while (k < maxIter && zr * zr + zi * zi <= 4.0) {
    double nr = zr * zr - zi * zi + cr;
    zi = 2.0 * zr * zi + ci;
    zr = nr;
    ++k;
  }
  iters[py * w + px] = k;
}

// Monte Carlo pi with Philox4x32-10 (counter = (thread, sample), key = seed): two points per
// Philox output, a warp/shared reduction of the hit count and one 64-bit atomicAdd per block.
__device__ __forceinline__ uint4 philox4x32_10(uint4 c, uint2 k) {
  for (int r = 0; r < 10; ++r) {
    unsigned hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
    unsigned hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
    c = make_uint4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
    k.x += 0x9E3779B9u;
    k.y += 0xBB67AE85u;
  }
  return c;
}
extern "C" __global__ void philox_mc_pi(unsigned long long *hits, unsigned seed, int samples) {
  __shared__ unsigned warpHits[32];
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned cnt = 0;
  for (int s = 0; s < samples; ++s) {
    uint4 r = philox4x32_10(make_uint4(tid, (unsigned)s, 0u, 0u), make_uint2(seed, 0x12345u));
    float ax = r.x * 2.3283064e-10f, ay = r.y * 2.3283064e-10f;
    float bx = r.z * 2.3283064e-10f, by = r.w * 2.3283064e-10f;
    cnt += (ax * ax + ay * ay <= 1.0f) + (bx * bx + by * by <= 1.0f);
  }
  for (int off = 16; off > 0; off >>= 1) cnt += __shfl_down_sync(0xffffffffu, cnt, off);
  if ((threadIdx.x & 31) == 0) warpHits[threadIdx.x >> 5] = cnt;
  __syncthreads();
  if (threadIdx.x < 32) {
    unsigned v = threadIdx.x < (blockDim.x >> 5) ? warpHits[threadIdx.x] : 0u;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x == 0) atomicAdd(hits, (unsigned long long)v);
  }
}

// Brute-force nearest neighbour of 256-bit binary descriptors (ORB/BRIEF style): each thread
// holds one database descriptor and scans nq query descriptors staged in shared memory, Hamming
// distance by XOR + popc; writes (distance << 16 | best query).
extern "C" __global__ void hamming_nn(const uint4 *db, const uint4 *queries, unsigned *best, unsigned n,
                                      int nq) {
  __shared__ uint4 q[2 * 64];
  for (int i = threadIdx.x; i < 2 * nq; i += blockDim.x) q[i] = queries[i];
  __syncthreads();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint4 a = db[2 * i], b = db[2 * i + 1];
  unsigned bestD = 1000, bestJ = 0;
  for (int j = 0; j < nq; ++j) {
    const uint4 qa = q[2 * j], qb = q[2 * j + 1];
    unsigned d = __popc(a.x ^ qa.x) + __popc(a.y ^ qa.y) + __popc(a.z ^ qa.z) + __popc(a.w ^ qa.w) +
                 __popc(b.x ^ qb.x) + __popc(b.y ^ qb.y) + __popc(b.z ^ qb.z) + __popc(b.w ^ qb.w);
    if (d < bestD) {
      bestD = d;
      bestJ = j;
    }
  }
  best[i] = (bestD << 16) | bestJ;
}

// Additive synthesis: sample i at time i*dt is the sum of `harmonics` sinusoids
// amp[k] * sinf(freq[k] * t + phase[k]) (parameters staged in shared memory; |argument| stays
// small, so sinf takes its fast range reduction).
extern "C" __global__ void additive_synth(const float *amp, const float *freq, const float *phase, float *out,
                                          unsigned n, int harmonics, float dt) {
  __shared__ float a[64], f[64], p[64];
  for (int k = threadIdx.x; k < harmonics; k += blockDim.x) {
    a[k] = amp[k];
    f[k] = freq[k] * 6.2831853f;
    p[k] = phase[k];
  }
  __syncthreads();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float t = i * dt;
  float s = 0.0f;
  for (int k = 0; k < harmonics; ++k) s += a[k] * sinf(f[k] * t + p[k]);
  out[i] = s;
}

// ---------------------------------------------------------------- latency-bound / small grids

// Dot product on a deliberately small grid: grid-stride partial sums, a shuffle reduction, one
// atomicAdd per warp into a single float.
extern "C" __global__ void dot_small_atomic(const float *x, const float *y, float *result, unsigned n) {
  float s = 0.0f;
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) s += x[i] * y[i];
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(result, s);
}

// One Jacobi sweep for the 2-D Poisson problem on an n x n grid (boundary copied through).
extern "C" __global__ void jacobi2d_step(const float *u, const float *f, float *unew, int n, float h2) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  const int o = y * n + x;
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
    unew[o] = u[o];
    return;
  }
  unew[o] = 0.25f * (u[o - 1] + u[o + 1] + u[o - n] + u[o + n] - h2 * f[o]);
}
