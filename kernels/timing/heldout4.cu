// Fourth held-out set for the time model, written in session 7 (2026-11-23) by a helper
// ("heldout4") that did NOT look at the time model (simulator/perf, device files, calibration
// notes, time predictions or time validations), before any prediction or measurement of these
// kernels: a blind check that the model's rules carry to kernels nobody tuned it on. Never used
// in a fit. Kernels in the style of sample/tutorial/library code, written from scratch.
// Launches in heldout4.json: memory-bound (float2 complex multiply, u8 LUT through a shared
// table, block-per-row GEMV with a shared tree reduction, ELLPACK SpMV with random columns),
// shared-bound (bitonic sort of 1024 keys per block, Blelloch scan without conflict padding,
// 5x5 box blur through a 20x20 halo tile), compute-bound (Black-Scholes over a volatility sweep,
// f64 midpoint integration of 4/(1+x^2) with a grid-stride loop and an f64 atomicAdd per block,
// integer hash rounds), latency-bound / small grids (thread-per-row GEMV on 8 blocks, small
// ELL SpMV, warp-per-row softmax on 128 blocks) and atomics (warp-aggregated stream compaction
// with ballot/popc and one atomicAdd per warp on a single counter).

// ---------------------------------------------------------------- memory-bound

// Elementwise complex product c = a * b over float2 (interleaved re, im) arrays.
extern "C" __global__ void complex_mul(const float2 *a, const float2 *b, float2 *c, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 x = a[i], y = b[i];
  c[i] = make_float2(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}

// 8-bit image point operation: each byte goes through a 256-entry lookup table (e.g. gamma or
// threshold) staged in shared memory; one uchar4 per thread.
extern "C" __global__ void lut_u8(const uchar4 *in, const unsigned char *lut, uchar4 *out, unsigned n4) {
  __shared__ unsigned char table[256];
  for (unsigned t = threadIdx.x; t < 256; t += blockDim.x) table[t] = lut[t];
  __syncthreads();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  uchar4 p = in[i];
  out[i] = make_uchar4(table[p.x], table[p.y], table[p.z], table[p.w]);
}

// y = A x, row-major A, one block per row: strided partial dot products, then a classic
// shared-memory tree reduction (blockDim a power of two, at most 1024).
extern "C" __global__ void gemv_rowblock(const float *A, const float *x, float *y, int rows, int cols) {
  __shared__ float partial[1024];
  int row = blockIdx.x;
  if (row >= rows) return;
  const float *a = A + (long)row * cols;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += a[c] * x[c];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) y[row] = partial[0];
}

// Sparse y = A x in ELLPACK format (column-major slots, k * rows + row), one thread per row,
// K slots per row; column indices are masked into [0, colMask] (a power of two minus one).
extern "C" __global__ void ell_spmv(const float *vals, const unsigned *cols, const float *x, float *y,
                                    unsigned rows, unsigned K, unsigned colMask) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float s = 0.0f;
  for (unsigned k = 0; k < K; ++k) {
    unsigned idx = k * rows + row;
    s += vals[idx] * x[cols[idx] & colMask];
  }
  y[row] = s;
}

// ---------------------------------------------------------------- shared-memory-bound

// Bitonic sort of 1024 unsigned keys per block, in place, 512 threads each owning one
// compare-exchange per step (sorting-network sample style).
#define BIT_N 1024
extern "C" __global__ void bitonic_sort1024(unsigned *keys) {
  __shared__ unsigned s[BIT_N];
  unsigned *base = keys + (long)blockIdx.x * BIT_N;
  unsigned t = threadIdx.x;
  s[t] = base[t];
  s[t + BIT_N / 2] = base[t + BIT_N / 2];
  __syncthreads();
  for (unsigned size = 2; size <= BIT_N; size <<= 1) {
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      unsigned pos = 2 * t - (t & (stride - 1));
      bool up = (pos & size) == 0;
      unsigned a = s[pos], b = s[pos + stride];
      if ((a > b) == up) {
        s[pos] = b;
        s[pos + stride] = a;
      }
      __syncthreads();
    }
  }
  base[t] = s[t];
  base[t + BIT_N / 2] = s[t + BIT_N / 2];
}

// Work-efficient (Blelloch) exclusive scan of 1024 floats per block, 512 threads, the textbook
// version without the bank-conflict-avoiding padding (up-sweep, clear, down-sweep).
#define SCAN_N 1024
extern "C" __global__ void blelloch_scan(const float *in, float *out) {
  __shared__ float temp[SCAN_N];
  const float *src = in + (long)blockIdx.x * SCAN_N;
  float *dst = out + (long)blockIdx.x * SCAN_N;
  int t = threadIdx.x;
  temp[2 * t] = src[2 * t];
  temp[2 * t + 1] = src[2 * t + 1];
  int offset = 1;
  for (int d = SCAN_N >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (t == 0) temp[SCAN_N - 1] = 0.0f;
  for (int d = 1; d < SCAN_N; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      float v = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += v;
    }
  }
  __syncthreads();
  dst[2 * t] = temp[2 * t];
  dst[2 * t + 1] = temp[2 * t + 1];
}

// 5x5 box blur of a float image: 16x16 block loads a 20x20 tile (2-pixel halo, clamped at the
// borders) into shared memory, then each thread averages its 25 neighbours.
#define BLUR_B 16
#define BLUR_R 2
#define BLUR_T (BLUR_B + 2 * BLUR_R)
extern "C" __global__ void box_blur5(const float *in, float *out, int width, int height) {
  __shared__ float tile[BLUR_T][BLUR_T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * BLUR_B - BLUR_R, y0 = blockIdx.y * BLUR_B - BLUR_R;
  for (int k = ty * BLUR_B + tx; k < BLUR_T * BLUR_T; k += BLUR_B * BLUR_B) {
    int ly = k / BLUR_T, lx = k % BLUR_T;
    int gx = min(max(x0 + lx, 0), width - 1);
    int gy = min(max(y0 + ly, 0), height - 1);
    tile[ly][lx] = in[(long)gy * width + gx];
  }
  __syncthreads();
  int x = blockIdx.x * BLUR_B + tx, y = blockIdx.y * BLUR_B + ty;
  if (x >= width || y >= height) return;
  float s = 0.0f;
#pragma unroll
  for (int dy = 0; dy <= 2 * BLUR_R; ++dy)
#pragma unroll
    for (int dx = 0; dx <= 2 * BLUR_R; ++dx) s += tile[ty + dy][tx + dx];
  out[(long)y * width + x] = s * (1.0f / 25.0f);
}

// ---------------------------------------------------------------- compute-bound

// Cumulative normal distribution, Abramowitz-Stegun polynomial (as in the classic samples).
__device__ __forceinline__ float cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
              A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = RSQRT2PI * expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  return d > 0 ? 1.0f - c : c;
}

// European call/put prices under Black-Scholes, each option priced over a sweep of nvol
// volatilities (v0, v0 + dv, ...); writes the sweep-average prices. Inputs are uniform deviates
// in [-1, 1) mapped to spot 50 +- 40, strike 50 +- 40, expiry 2.5 +- 2.25 years.
extern "C" __global__ void black_scholes_sweep(const float *uS, const float *uX, const float *uT, float *call,
                                               float *put, unsigned n, float r, float v0, float dv, int nvol) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float S = 50.0f + 40.0f * uS[i], X = 50.0f + 40.0f * uX[i], T = 2.5f + 2.25f * uT[i];
  float sqrtT = sqrtf(T), logSX = logf(S / X), disc = X * expf(-r * T);
  float cs = 0.0f, ps = 0.0f;
  for (int k = 0; k < nvol; ++k) {
    float v = v0 + k * dv;
    float d1 = (logSX + (r + 0.5f * v * v) * T) / (v * sqrtT);
    float d2 = d1 - v * sqrtT;
    float n1 = cnd(d1), n2 = cnd(d2);
    cs += S * n1 - disc * n2;
    ps += disc * (1.0f - n2) - S * (1.0f - n1);
  }
  call[i] = cs / nvol;
  put[i] = ps / nvol;
}

// pi = integral_0^1 4 / (1 + x^2) dx by the midpoint rule in double precision: grid-stride loop,
// shared tree reduction per block (blockDim a power of two), one f64 atomicAdd per block.
extern "C" __global__ void pi_midpoint_f64(double *sum, unsigned n) {
  __shared__ double partial[1024];
  double h = 1.0 / n, acc = 0.0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    double x = (i + 0.5) * h;
    acc += 4.0 / (1.0 + x * x);
  }
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, partial[0] * h);
}

// Integer hashing: each thread runs `rounds` rounds of a 32-bit avalanche hash (xor-shift /
// multiply) seeded by its index and counts hashes below a threshold (a Monte Carlo style
// acceptance count).
extern "C" __global__ void hash_rounds(unsigned *out, unsigned n, unsigned rounds, unsigned threshold) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned h = i, hits = 0;
  for (unsigned r = 0; r < rounds; ++r) {
    h ^= r * 0x9e3779b9u;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    hits += h < threshold;
  }
  out[i] = hits;
}

// ---------------------------------------------------------------- latency-bound / small grids

// y = A x, row-major A, one thread per row (the naive first version): each thread walks its own
// row, so a warp's loads touch 32 different lines.
extern "C" __global__ void gemv_thread(const float *A, const float *x, float *y, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float *a = A + (long)row * cols;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += a[c] * x[c];
  y[row] = s;
}

// Row softmax, one warp per row (4 rows per 128-thread block): max pass, sum-of-exp pass, then
// normalising write pass, each with a butterfly shuffle reduction.
extern "C" __global__ void softmax_warp(const float *in, float *out, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;
  const float *r = in + (long)warp * cols;
  float *o = out + (long)warp * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, r[c]);
  for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += expf(r[c] - m);
  for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
  float inv = 1.0f / s;
  for (int c = lane; c < cols; c += 32) o[c] = expf(r[c] - m) * inv;
}

// ---------------------------------------------------------------- atomics

// Stream compaction of the positive values with warp-aggregated atomics: ballot + popc per warp,
// lane 0 reserves space with one atomicAdd on a single global counter, lanes write in order.
extern "C" __global__ void compact_positive(const float *in, float *out, unsigned *count, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  float v = i < n ? in[i] : 0.0f;
  bool keep = i < n && v > 0.0f;
  unsigned mask = __ballot_sync(0xffffffffu, keep);
  unsigned base = 0;
  if (lane == 0 && mask) base = atomicAdd(count, __popc(mask));
  base = __shfl_sync(0xffffffffu, base, 0);
  if (keep) out[base + __popc(mask & ((1u << lane) - 1))] = v;
}
