// Tenth held-out set for the time model, written in session 10 (2026-11-24) by a helper
// ("heldout10") that did NOT look at the time model (simulator/perf, simulator/model, device files,
// calibration notes, analysis time views, validation, time predictions) before any prediction or
// measurement of these kernels: a blind check that the model's rules carry to kernels nobody tuned
// it on. Never used in a fit. Kernels in the style of sample/tutorial/library code, written from
// scratch.
// Launches in heldout10.json: memory-bound (GPT-J style rotary embedding on f16 pairs, Caffe-style
// 3x3 im2col, a fused conjugate-gradient x/r update with r.r in f64, a vLLM-style paged KV-cache
// write), shared-bound (a JPEG 8x8 DCT/quantise/IDCT round trip, the min-plus phase of blocked
// Floyd-Warshall on 32x32 tiles, 64x64 tile integral images with a naive row scan), compute-bound
// (a tiny 8-32-32-4 ReLU MLP with weights in shared memory, Miller-Rabin primality with 64-bit
// mulmod, great-circle nearest neighbour with sinf/asinf, quintic B-spline evaluation by de Boor
// in f64) and latency-bound / few warps (a DFA scanning per-thread text chunks, a tanh RNN over
// 256 steps with one 2-warp block per sequence, one-block power iteration).

#include <cuda_fp16.h>

// ---------------------------------------------------------------- memory-bound

// Rotary position embedding, GPT-J (interleaved) layout, in place on q[tok][head][dim] halves:
// pair (2i, 2i+1) of each head is rotated by the angle cached for (pos[tok], i). One __half2 per
// thread, block (half_dim, heads_per_block), grid (nheads / heads_per_block, ntok).
extern "C" __global__ void rope_gptj_h2(__half2 *q, const float *cos_cache, const float *sin_cache, const int *pos,
                                        int nheads, int half_dim) {
  const int tok = blockIdx.y;
  const int head = blockIdx.x * blockDim.y + threadIdx.y;
  const int i = threadIdx.x;
  if (head >= nheads || i >= half_dim) return;
  const long cidx = (long)pos[tok] * half_dim + i;
  const float c = cos_cache[cidx], s = sin_cache[cidx];
  __half2 *qp = q + ((long)tok * nheads + head) * half_dim + i;
  const float2 v = __half22float2(*qp);
  *qp = __floats2half2_rn(v.x * c - v.y * s, v.x * s + v.y * c);
}

// im2col for a 3x3 convolution with stride 1 (Caffe's im2col_gpu_kernel, specialised): one thread
// per (channel, output row, output column), writing its 9 column entries, grid-stride loop.
extern "C" __global__ void im2col3x3_f32(int n, const float *im, int height, int width, int pad, int h_out, int w_out,
                                         float *col) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n; index += blockDim.x * gridDim.x) {
    const int w_o = index % w_out;
    const int h_idx = index / w_out;
    const int h_o = h_idx % h_out;
    const int c = h_idx / h_out;
    const int h_in = h_o - pad, w_in = w_o - pad;
    float *dst = col + ((long)c * 9 * h_out + h_o) * w_out + w_o;
    const float *src = im + ((long)c * height + h_in) * width + w_in;
#pragma unroll
    for (int i = 0; i < 3; ++i)
#pragma unroll
      for (int j = 0; j < 3; ++j) {
        const int h = h_in + i, w = w_in + j;
        *dst = (h >= 0 && w >= 0 && h < height && w < width) ? src[i * width + j] : 0.0f;
        dst += h_out * w_out;
      }
  }
}

// Conjugate gradient, fused vector update: x += alpha p, r -= alpha Ap, and the new r.r summed
// into *rr (block reduction, one double atomicAdd per block). Grid-stride loop, 64-bit length.
extern "C" __global__ void cg_xr_update_f64(double *x, double *r, const double *p, const double *Ap, double alpha,
                                            long n, double *rr) {
  __shared__ double part[32];
  double s = 0.0;
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)blockDim.x * gridDim.x) {
    x[i] += alpha * p[i];
    const double ri = r[i] - alpha * Ap[i];
    r[i] = ri;
    s += ri * ri;
  }
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) part[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < (int)(blockDim.x >> 5) ? part[lane] : 0.0;
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0) atomicAdd(rr, s);
  }
}

// Paged KV cache write (vLLM reshape_and_cache style) for f16 keys/values seen as 16-bit words:
// key_cache[block][head][hd/8][block_size][8] (16-byte chunks), value_cache[block][head][hd][block_size].
// One block per token; its slot comes from slot_mapping (negative = padding, skipped).
extern "C" __global__ void reshape_and_cache_u16(const uint4 *key, const unsigned short *value, uint4 *key_cache,
                                                 unsigned short *value_cache, const int *slot_mapping, int nheads,
                                                 int hd, int block_size) {
  const int tok = blockIdx.x;
  const int slot = slot_mapping[tok];
  if (slot < 0) return;
  const int blk = slot / block_size, off = slot % block_size;
  const int xs = hd / 8;  // 16-byte chunks per head
  const int nvec = nheads * xs;
  for (int i = threadIdx.x; i < nvec; i += blockDim.x) {
    const int head = i / xs, x = i % xs;
    key_cache[(((long)blk * nheads + head) * xs + x) * block_size + off] = key[(long)tok * nvec + i];
  }
  const int n = nheads * hd;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const int head = i / hd, d = i % hd;
    value_cache[(((long)blk * nheads + head) * hd + d) * block_size + off] = value[(long)tok * n + i];
  }
}

// ---------------------------------------------------------------- shared-memory-bound

// JPEG-style round trip of 8x8 blocks of an 8-bit image: level shift, separable DCT-II (rows then
// columns, the 8x8 cosine matrix in shared memory), quantise/dequantise with a 64-entry table,
// separable inverse DCT, clamp. The quantisation table comes as the 64 bytes of a JPEG DQT segment
// (natural order, 0 treated as 1). Block 32x8 threads = four 8x8 blocks side by side.
extern "C" __global__ void jpeg_dct8_roundtrip(const unsigned char *img, unsigned char *out,
                                               const unsigned char *dqt, int width) {
  __shared__ float cs[8][8];  // cs[u][k] = c(u) cos((2k + 1) u pi / 16)
  __shared__ float qt[64];
  __shared__ float a[8][32], b[8][32];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 32 + tx;
  if (tid < 64) {
    const int u = tid >> 3, k = tid & 7;
    cs[u][k] = (u == 0 ? 0.35355339f : 0.5f) * cosf((2 * k + 1) * u * 3.14159265f / 16.0f);
    qt[tid] = (float)max(1, (int)dqt[tid]);
  }
  const int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
  a[ty][tx] = (float)img[(long)y * width + x] - 128.0f;
  __syncthreads();
  const int bx = tx & ~7, u = tx & 7;
  // forward, rows: b[y][u] = sum_k cs[u][k] a[y][k]
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += cs[u][k] * a[ty][bx + k];
  b[ty][tx] = s;
  __syncthreads();
  // forward, columns: coefficient (v = ty, u)
  s = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += cs[ty][k] * b[k][tx];
  const float qq = qt[ty * 8 + u];
  s = rintf(s / qq) * qq;
  a[ty][tx] = s;
  __syncthreads();
  // inverse, columns
  s = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += cs[k][ty] * a[k][tx];
  b[ty][tx] = s;
  __syncthreads();
  // inverse, rows
  s = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += cs[k][u] * b[ty][bx + k];
  out[(long)y * width + x] = (unsigned char)fminf(fmaxf(s + 128.5f, 0.0f), 255.0f);
}

// Blocked Floyd-Warshall, phase 3 of round r: every 32x32 tile (i, j) off row r and column r is
// relaxed through the pivot tiles, d[i][j] = min(d[i][j], d[i][k] + d[k][j]) for the 32 k of
// tile r; both pivot tiles staged in shared memory. Integer distances, row-major n x n.
extern "C" __global__ void fw_minplus_tile32(int *d, int n, int r) {
  if (blockIdx.x == r || blockIdx.y == r) return;
  __shared__ int rowk[32][32];  // d[i-tile][r-tile]
  __shared__ int colk[32][32];  // d[r-tile][j-tile]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * 32 + ty, j = blockIdx.x * 32 + tx, k0 = r * 32;
  rowk[ty][tx] = d[(long)i * n + k0 + tx];
  colk[ty][tx] = d[(long)(k0 + ty) * n + j];
  int best = d[(long)i * n + j];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < 32; ++k) best = min(best, rowk[ty][k] + colk[k][tx]);
  d[(long)i * n + j] = best;
}

// Integral image (summed-area table) of each 64x64 tile of an 8-bit image, 64 threads per tile:
// load the tile column-wise, each thread scans one row in place, then each thread scans one column
// and writes the 32-bit sums. First stage of a multi-pass full-image SAT.
extern "C" __global__ void sat_tile64(const unsigned char *img, unsigned *sat, int width) {
  __shared__ unsigned s[64][64];
  const int t = threadIdx.x;
  const int x0 = blockIdx.x * 64, y0 = blockIdx.y * 64;
  for (int r = 0; r < 64; ++r) s[r][t] = img[(long)(y0 + r) * width + x0 + t];
  __syncthreads();
  unsigned acc = 0;
  for (int c = 0; c < 64; ++c) {
    acc += s[t][c];
    s[t][c] = acc;
  }
  __syncthreads();
  acc = 0;
  for (int r = 0; r < 64; ++r) {
    acc += s[r][t];
    sat[(long)(y0 + r) * width + x0 + t] = acc;
  }
}

// ---------------------------------------------------------------- compute-bound

// Tiny fully fused MLP (8 -> 32 -> 32 -> 4, ReLU), one sample per thread, the 1476 parameters
// (w1, b1, w2, b2, w3, b3 row-major, concatenated) staged in shared memory.
#define MLP_IN 8
#define MLP_H 32
#define MLP_OUT 4
#define MLP_NPARAM (MLP_H * MLP_IN + MLP_H + MLP_H * MLP_H + MLP_H + MLP_OUT * MLP_H + MLP_OUT)
extern "C" __global__ void tiny_mlp3_relu(const float4 *x, const float *params, float4 *y, int n) {
  __shared__ __align__(16) float p[MLP_NPARAM];
  for (int k = threadIdx.x; k < MLP_NPARAM; k += blockDim.x) p[k] = params[k];
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float *w1 = p, *b1 = w1 + MLP_H * MLP_IN, *w2 = b1 + MLP_H, *b2 = w2 + MLP_H * MLP_H, *w3 = b2 + MLP_H,
              *b3 = w3 + MLP_OUT * MLP_H;
  const float4 x0 = x[2 * i], x1 = x[2 * i + 1];
  const float in[MLP_IN] = {x0.x, x0.y, x0.z, x0.w, x1.x, x1.y, x1.z, x1.w};
  float h1[MLP_H], h2[MLP_H], o[MLP_OUT];
#pragma unroll
  for (int j = 0; j < MLP_H; ++j) {
    float s = b1[j];
#pragma unroll
    for (int k = 0; k < MLP_IN; ++k) s += w1[j * MLP_IN + k] * in[k];
    h1[j] = fmaxf(s, 0.0f);
  }
#pragma unroll
  for (int j = 0; j < MLP_H; ++j) {
    float s = b2[j];
#pragma unroll
    for (int k = 0; k < MLP_H; ++k) s += w2[j * MLP_H + k] * h1[k];
    h2[j] = fmaxf(s, 0.0f);
  }
#pragma unroll
  for (int j = 0; j < MLP_OUT; ++j) {
    float s = b3[j];
#pragma unroll
    for (int k = 0; k < MLP_H; ++k) s += w3[j * MLP_H + k] * h2[k];
    o[j] = s;
  }
  y[i] = make_float4(o[0], o[1], o[2], o[3]);
}

// Deterministic Miller-Rabin for 32-bit n (bases 2, 7, 61) on the odd numbers base + 2i, with the
// textbook 64-bit product modulo n; flags per number and a prime count (ballot + one atomic per warp).
__device__ __forceinline__ unsigned mulmod32(unsigned a, unsigned b, unsigned m) {
  return (unsigned)((unsigned long long)a * b % m);
}
__device__ unsigned powmod32(unsigned a, unsigned e, unsigned m) {
  unsigned r = 1;
  while (e) {
    if (e & 1u) r = mulmod32(r, a, m);
    a = mulmod32(a, a, m);
    e >>= 1;
  }
  return r;
}
__device__ bool strong_probable_prime(unsigned n, unsigned a) {
  unsigned d = n - 1;
  int s = 0;
  while ((d & 1u) == 0) {
    d >>= 1;
    ++s;
  }
  unsigned x = powmod32(a % n, d, n);
  if (x == 1 || x == n - 1) return true;
  for (int k = 1; k < s; ++k) {
    x = mulmod32(x, x, n);
    if (x == n - 1) return true;
  }
  return false;
}
extern "C" __global__ void miller_rabin_u32(unsigned base, int count, unsigned *is_prime, unsigned *nprimes) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool prime = false;
  if (i < count) {
    const unsigned n = base + 2u * (unsigned)i;
    prime = strong_probable_prime(n, 2) && strong_probable_prime(n, 7) && strong_probable_prime(n, 61);
    is_prime[i] = prime;
  }
  const unsigned votes = __ballot_sync(0xffffffffu, prime);
  if ((threadIdx.x & 31) == 0 && votes) atomicAdd(nprimes, __popc(votes));
}

// Nearest point by great-circle (haversine) distance: each thread one query (lat, lon in radians),
// all points streamed through shared memory in tiles of blockDim.x (with cos(lat) precomputed per
// tile); writes the distance in km and the index of the nearest point.
extern "C" __global__ void haversine_nearest(const float2 *queries, int nq, const float2 *pts, int np, float *dist,
                                             int *nearest) {
  extern __shared__ float tile[];  // lat[blockDim.x], lon[blockDim.x], coslat[blockDim.x]
  float *lat_s = tile, *lon_s = tile + blockDim.x, *cos_s = tile + 2 * blockDim.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float2 me = i < nq ? queries[i] : make_float2(0.0f, 0.0f);
  const float cme = cosf(me.x);
  float best = 3.0e38f;
  int bi = -1;
  for (int base = 0; base < np; base += blockDim.x) {
    const int jj = base + threadIdx.x;
    const float2 pt = jj < np ? pts[jj] : make_float2(0.0f, 0.0f);
    lat_s[threadIdx.x] = pt.x;
    lon_s[threadIdx.x] = pt.y;
    cos_s[threadIdx.x] = cosf(pt.x);
    __syncthreads();
    const int m = min((int)blockDim.x, np - base);
    for (int j = 0; j < m; ++j) {
      const float sl = sinf(0.5f * (lat_s[j] - me.x));
      const float so = sinf(0.5f * (lon_s[j] - me.y));
      const float h = fminf(sl * sl + cme * cos_s[j] * so * so, 1.0f);
      const float dd = 2.0f * asinf(sqrtf(h));
      if (dd < best) {
        best = dd;
        bi = base + j;
      }
    }
    __syncthreads();
  }
  if (i < nq) {
    dist[i] = 6371.0f * best;
    nearest[i] = bi;
  }
}

// Quintic B-spline curve in 3-D evaluated by de Boor's algorithm in double precision at n uniformly
// spaced parameters over the valid knot range (knot span by binary search; knots nondecreasing,
// ncp + 6 of them); one point per thread, written as three floats for rendering.
#define BS_P 5
extern "C" __global__ void deboor_quintic_f64(const double *knots, const double *cpx, const double *cpy,
                                              const double *cpz, int ncp, int n, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double t0 = knots[BS_P], t1 = knots[ncp];
  const double t = t0 + (t1 - t0) * ((double)i + 0.5) / (double)n;
  int lo = BS_P, hi = ncp;  // find k with knots[k] <= t < knots[k + 1]
  while (hi - lo > 1) {
    const int mid = (lo + hi) >> 1;
    if (knots[mid] <= t) lo = mid;
    else hi = mid;
  }
  const int k = lo;
  double dx[BS_P + 1], dy[BS_P + 1], dz[BS_P + 1];
#pragma unroll
  for (int j = 0; j <= BS_P; ++j) {
    dx[j] = cpx[j + k - BS_P];
    dy[j] = cpy[j + k - BS_P];
    dz[j] = cpz[j + k - BS_P];
  }
#pragma unroll
  for (int r = 1; r <= BS_P; ++r)
#pragma unroll
    for (int j = BS_P; j >= r; --j) {
      const double kl = knots[j + k - BS_P];
      const double alpha = (t - kl) / (knots[j + 1 + k - r] - kl);
      dx[j] = (1.0 - alpha) * dx[j - 1] + alpha * dx[j];
      dy[j] = (1.0 - alpha) * dy[j - 1] + alpha * dy[j];
      dz[j] = (1.0 - alpha) * dz[j - 1] + alpha * dz[j];
    }
  out[3 * i + 0] = (float)dx[BS_P];
  out[3 * i + 1] = (float)dy[BS_P];
  out[3 * i + 2] = (float)dz[BS_P];
}

// ---------------------------------------------------------------- latency-bound / few warps

// DFA scan: each thread runs a table-driven automaton (delta[state][byte], states masked to
// nstates - 1) over its own contiguous chunk of the text and counts the bytes after which the
// state is accepting (state < accept_below).
extern "C" __global__ void dfa_count_chunks(const unsigned char *text, int chunk, const int *delta, int state_mask,
                                            int accept_below, unsigned *counts) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = text + (long)t * chunk;
  int s = 0;
  unsigned hits = 0;
  for (int i = 0; i < chunk; ++i) {
    s = delta[s * 256 + p[i]] & state_mask;
    hits += s < accept_below;
  }
  counts[t] = hits;
}

// Elman RNN forward, h_t = tanh(xW_t + W_hh h_{t-1}), hidden size 64, one 64-thread block per
// sequence; the input projection xW (batch x T x 64) was computed beforehand by a GEMM. W_hh^T is
// kept in shared memory, the hidden state in shared memory, two barriers per step.
#define RNN_H 64
extern "C" __global__ void rnn_tanh_seq(const float *xw, const float *whh_t, const float *h0, float *hs, int T) {
  __shared__ float W[RNN_H][RNN_H];  // W[k][j] = W_hh[j][k]
  __shared__ float h[RNN_H];
  const int j = threadIdx.x, b = blockIdx.x;
  for (int k = 0; k < RNN_H; ++k) W[k][j] = whh_t[k * RNN_H + j];
  h[j] = h0[b * RNN_H + j];
  __syncthreads();
  for (int t = 0; t < T; ++t) {
    const long o = ((long)b * T + t) * RNN_H + j;
    float acc = xw[o];
#pragma unroll 16
    for (int k = 0; k < RNN_H; ++k) acc += W[k][j] * h[k];
    const float hn = tanhf(acc);
    __syncthreads();
    h[j] = hn;
    hs[o] = hn;
    __syncthreads();
  }
}

// Power iteration for the dominant eigenvalue of a dense 128 x 128 matrix, one block: warps take
// rows (lanes stride the columns, shuffle sum), then the vector is normalised by a block reduction;
// writes the final vector and ||A v||.
#define PI_N 128
extern "C" __global__ void power_iter_one_block(const float *__restrict__ A, float *v_out, float *lambda_out,
                                                int iters) {
  __shared__ float v[PI_N], y[PI_N], red[32];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, nwarps = blockDim.x >> 5;
  if (tid < PI_N) v[tid] = rsqrtf((float)PI_N);
  __syncthreads();
  float norm = 0.0f;
  for (int it = 0; it < iters; ++it) {
    for (int row = warp; row < PI_N; row += nwarps) {
      float s = 0.0f;
      for (int c = lane; c < PI_N; c += 32) s += A[row * PI_N + c] * v[c];
      for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
      if (lane == 0) y[row] = s;
    }
    __syncthreads();
    float q = tid < PI_N ? y[tid] * y[tid] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) q += __shfl_xor_sync(0xffffffffu, q, off);
    if (lane == 0) red[warp] = q;
    __syncthreads();
    if (warp == 0) {
      q = lane < nwarps ? red[lane] : 0.0f;
      for (int off = 16; off > 0; off >>= 1) q += __shfl_xor_sync(0xffffffffu, q, off);
      if (lane == 0) red[0] = sqrtf(q);
    }
    __syncthreads();
    norm = red[0];
    if (tid < PI_N) v[tid] = y[tid] / norm;
    __syncthreads();
  }
  if (tid < PI_N) v_out[tid] = v[tid];
  if (tid == 0) *lambda_out = norm;
}
