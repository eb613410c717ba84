// Sixth held-out set for the time model, written in session 8 (2026-11-23) by a helper
// ("heldout6") that did NOT look at the time model (simulator/perf, device files, calibration
// notes, analysis time views, validation, time predictions) before any prediction or measurement
// of these kernels: a blind check that the model's rules carry to kernels nobody tuned it on.
// Never used in a fit. Kernels in the style of sample/tutorial/library code, written from scratch.
// Launches in heldout6.json: memory-bound (Sobel gradient magnitude, interleaved BGR u8 to planar
// normalised float, per-row Welford mean/rstd, a float4 Adam optimiser step), shared-bound (5x5
// convolution with a halo tile, AES T-table rounds with tables in shared memory, the interleaved-
// addressing shared reduction tree), compute-bound (direct Coulomb summation on a grid slice with
// rsqrtf, bitwise CRC-32 per record, f64 Chebyshev series by Clenshaw's recurrence, a naive DFT
// with sincospif and integer phase indexing) and latency-bound / small grids (Collatz stopping
// times on 16 blocks: divergent data-dependent trip counts; a batched Thomas tridiagonal solve,
// one thread per system; a lower-triangular matrix-vector product, one block per row: uneven
// work per block).

// ---------------------------------------------------------------- memory-bound

// Sobel edge magnitude of a w x h float image, borders clamped, one thread per pixel.
extern "C" __global__ void sobel_mag(const float *img, float *mag, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const int xm = max(x - 1, 0), xp = min(x + 1, w - 1);
  const long rm = (long)max(y - 1, 0) * w, rc = (long)y * w, rp = (long)min(y + 1, h - 1) * w;
  const float a = img[rm + xm], b = img[rm + x], c = img[rm + xp];
  const float d = img[rc + xm], f = img[rc + xp];
  const float g = img[rp + xm], hh = img[rp + x], k = img[rp + xp];
  const float gx = (c + 2.0f * f + k) - (a + 2.0f * d + g);
  const float gy = (g + 2.0f * hh + k) - (a + 2.0f * b + c);
  mag[rc + x] = sqrtf(gx * gx + gy * gy);
}

// Image preprocessing for a CNN: interleaved 8-bit BGR (HWC) to planar RGB float (CHW),
// scaled to [0, 1] and normalised with the ImageNet mean / std. One thread per pixel.
extern "C" __global__ void bgr_to_planar_norm(const unsigned char *bgr, float *out, int npix) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= npix) return;
  const unsigned char *p = bgr + 3l * i;
  const float b = p[0] * (1.0f / 255.0f), g = p[1] * (1.0f / 255.0f), r = p[2] * (1.0f / 255.0f);
  out[i] = (r - 0.485f) * (1.0f / 0.229f);
  out[npix + i] = (g - 0.456f) * (1.0f / 0.224f);
  out[2l * npix + i] = (b - 0.406f) * (1.0f / 0.225f);
}

// Per-row mean and reciprocal standard deviation (the statistics pass of a LayerNorm), one
// block per row: Welford's online update per thread, then a pairwise (Chan) merge across the
// warp with shuffles and across warps through shared memory.
__device__ __forceinline__ void welford_merge(float &n, float &m, float &m2, float nb, float mb, float m2b) {
  const float nab = n + nb;
  if (nab == 0.0f) return;
  const float delta = mb - m;
  const float w = nb / nab;
  m += delta * w;
  m2 += m2b + delta * delta * n * w;
  n = nab;
}
extern "C" __global__ void row_welford(const float *x, float *mean, float *rstd, int cols, float eps) {
  __shared__ float sn[32], sm[32], sm2[32];
  const float *r = x + (long)blockIdx.x * cols;
  float n = 0.0f, m = 0.0f, m2 = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = r[c];
    n += 1.0f;
    const float d = v - m;
    m += d / n;
    m2 += d * (v - m);
  }
  for (int off = 16; off > 0; off >>= 1) {
    const float nb = __shfl_xor_sync(0xffffffffu, n, off);
    const float mb = __shfl_xor_sync(0xffffffffu, m, off);
    const float m2b = __shfl_xor_sync(0xffffffffu, m2, off);
    welford_merge(n, m, m2, nb, mb, m2b);
  }
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) {
    sn[warp] = n;
    sm[warp] = m;
    sm2[warp] = m2;
  }
  __syncthreads();
  if (warp == 0) {
    const int nw = blockDim.x >> 5;
    n = lane < nw ? sn[lane] : 0.0f;
    m = lane < nw ? sm[lane] : 0.0f;
    m2 = lane < nw ? sm2[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) {
      const float nb = __shfl_xor_sync(0xffffffffu, n, off);
      const float mb = __shfl_xor_sync(0xffffffffu, m, off);
      const float m2b = __shfl_xor_sync(0xffffffffu, m2, off);
      welford_merge(n, m, m2, nb, mb, m2b);
    }
    if (lane == 0) {
      mean[blockIdx.x] = m;
      rstd[blockIdx.x] = rsqrtf(m2 / n + eps);
    }
  }
}

// One Adam optimiser step over float4 vectors (a fused multi-tensor-apply style kernel):
// m = b1 m + (1-b1) g, v = b2 v + (1-b2) g^2, p -= lr * mhat / (sqrt(vhat) + eps);
// bc1 = 1/(1-b1^t), bc2 = 1/(1-b2^t) passed in. Four streams read, three written.
__device__ __forceinline__ float adam1(float &p, float g, float &m, float &v, float lr, float b1, float b2,
                                       float eps, float bc1, float bc2) {
  m = b1 * m + (1.0f - b1) * g;
  v = b2 * v + (1.0f - b2) * g * g;
  p -= lr * (m * bc1) / (sqrtf(v * bc2) + eps);
  return p;
}
extern "C" __global__ void adam_step_f4(float4 *p, const float4 *g, float4 *m, float4 *v, unsigned n4, float lr,
                                        float b1, float b2, float eps, float bc1, float bc2) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  float4 pp = p[i], gg = g[i], mm = m[i], vv = v[i];
  adam1(pp.x, gg.x, mm.x, vv.x, lr, b1, b2, eps, bc1, bc2);
  adam1(pp.y, gg.y, mm.y, vv.y, lr, b1, b2, eps, bc1, bc2);
  adam1(pp.z, gg.z, mm.z, vv.z, lr, b1, b2, eps, bc1, bc2);
  adam1(pp.w, gg.w, mm.w, vv.w, lr, b1, b2, eps, bc1, bc2);
  p[i] = pp;
  m[i] = mm;
  v[i] = vv;
}

// ---------------------------------------------------------------- shared-memory-bound

// 5x5 convolution (e.g. a Gaussian blur) of a w x h float image (w, h multiples of 16): a 16x16
// output tile per block, the 20x20 input tile with its 2-pixel halo (clamped at the borders) and
// the 25 weights staged in shared memory.
#define GK_T 16
#define GK_R 2
#define GK_S (GK_T + 2 * GK_R)
extern "C" __global__ void conv5x5_halo(const float *in, const float *wts, float *out, int w, int h) {
  __shared__ float tile[GK_S][GK_S];
  __shared__ float k[25];
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * GK_T + tx;
  const int x0 = blockIdx.x * GK_T, y0 = blockIdx.y * GK_T;
  if (t < 25) k[t] = wts[t];
  for (int i = t; i < GK_S * GK_S; i += GK_T * GK_T) {
    const int gx = min(max(x0 - GK_R + i % GK_S, 0), w - 1);
    const int gy = min(max(y0 - GK_R + i / GK_S, 0), h - 1);
    tile[i / GK_S][i % GK_S] = in[(long)gy * w + gx];
  }
  __syncthreads();
  float s = 0.0f;
#pragma unroll
  for (int dy = 0; dy < 5; ++dy)
#pragma unroll
    for (int dx = 0; dx < 5; ++dx) s += k[dy * 5 + dx] * tile[ty + dy][tx + dx];
  out[(long)(y0 + ty) * w + x0 + tx] = s;
}

// AES-128-style encryption with the four 1 KiB T-tables (Te0..Te3) and the 44 round-key words
// in shared memory (OpenSSL's table formulation): one 16-byte block per thread, 9 full rounds of
// 16 table look-ups and a final round masking table bytes. Table contents come from the caller.
extern "C" __global__ void aes_ttable_enc(const uint4 *in, uint4 *out, const unsigned *te, const unsigned *rkey,
                                          unsigned n) {
  __shared__ unsigned T0[256], T1[256], T2[256], T3[256];
  __shared__ unsigned rk[44];
  for (int j = threadIdx.x; j < 256; j += blockDim.x) {
    T0[j] = te[j];
    T1[j] = te[256 + j];
    T2[j] = te[512 + j];
    T3[j] = te[768 + j];
  }
  if (threadIdx.x < 44) rk[threadIdx.x] = rkey[threadIdx.x];
  __syncthreads();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint4 blk = in[i];
  unsigned s0 = blk.x ^ rk[0], s1 = blk.y ^ rk[1], s2 = blk.z ^ rk[2], s3 = blk.w ^ rk[3];
  for (int r = 1; r < 10; ++r) {
    const unsigned t0 = T0[s0 >> 24] ^ T1[(s1 >> 16) & 0xff] ^ T2[(s2 >> 8) & 0xff] ^ T3[s3 & 0xff] ^ rk[4 * r];
    const unsigned t1 = T0[s1 >> 24] ^ T1[(s2 >> 16) & 0xff] ^ T2[(s3 >> 8) & 0xff] ^ T3[s0 & 0xff] ^ rk[4 * r + 1];
    const unsigned t2 = T0[s2 >> 24] ^ T1[(s3 >> 16) & 0xff] ^ T2[(s0 >> 8) & 0xff] ^ T3[s1 & 0xff] ^ rk[4 * r + 2];
    const unsigned t3 = T0[s3 >> 24] ^ T1[(s0 >> 16) & 0xff] ^ T2[(s1 >> 8) & 0xff] ^ T3[s2 & 0xff] ^ rk[4 * r + 3];
    s0 = t0;
    s1 = t1;
    s2 = t2;
    s3 = t3;
  }
  uint4 o;
  o.x = (T2[s0 >> 24] & 0xff000000u) ^ (T3[(s1 >> 16) & 0xff] & 0x00ff0000u) ^ (T0[(s2 >> 8) & 0xff] & 0x0000ff00u) ^
        (T1[s3 & 0xff] & 0x000000ffu) ^ rk[40];
  o.y = (T2[s1 >> 24] & 0xff000000u) ^ (T3[(s2 >> 16) & 0xff] & 0x00ff0000u) ^ (T0[(s3 >> 8) & 0xff] & 0x0000ff00u) ^
        (T1[s0 & 0xff] & 0x000000ffu) ^ rk[41];
  o.z = (T2[s2 >> 24] & 0xff000000u) ^ (T3[(s3 >> 16) & 0xff] & 0x00ff0000u) ^ (T0[(s0 >> 8) & 0xff] & 0x0000ff00u) ^
        (T1[s1 & 0xff] & 0x000000ffu) ^ rk[42];
  o.w = (T2[s3 >> 24] & 0xff000000u) ^ (T3[(s0 >> 16) & 0xff] & 0x00ff0000u) ^ (T0[(s1 >> 8) & 0xff] & 0x0000ff00u) ^
        (T1[s2 & 0xff] & 0x000000ffu) ^ rk[43];
  out[i] = o;
}

// Sum reduction, "interleaved addressing with a strided index" (the second kernel of the
// classic parallel-reduction tutorial): each block loads 2 * blockDim elements (first add on
// load) and halves them in shared memory with index 2*s*tid, which gives growing bank conflicts.
// blockDim.x must be a power of two, at most 512.
extern "C" __global__ void reduce_interleaved(const float *in, float *partial, unsigned n) {
  __shared__ float sdata[512];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * (blockDim.x * 2) + tid;
  float v = 0.0f;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned idx = 2 * s * tid;
    if (idx < blockDim.x) sdata[idx] += sdata[idx + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

// ---------------------------------------------------------------- compute-bound

// Direct Coulomb summation (the molecular-visualisation "electrostatic potential map" kernel):
// one thread per point of a 2-D slice at height z, atoms (x, y, z, q) staged 256 at a time in
// shared memory, potential += q / r with rsqrtf. natoms a multiple of 256, block 16x16.
extern "C" __global__ void coulomb_slice(const float4 *atoms, float *pot, int natoms, int nx, float spacing,
                                         float z) {
  __shared__ float4 sa[256];
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const float gx = x * spacing, gy = y * spacing;
  float e = 0.0f;
  for (int base = 0; base < natoms; base += 256) {
    sa[t] = atoms[base + t];
    __syncthreads();
    for (int j = 0; j < 256; ++j) {
      const float4 a = sa[j];
      const float dx = gx - a.x, dy = gy - a.y, dz = z - a.z;
      e += a.w * rsqrtf(dx * dx + dy * dy + dz * dz);
    }
    __syncthreads();
  }
  pot[(long)y * nx + x] = e;
}

// Bitwise (table-less) CRC-32 (reflected polynomial 0xEDB88320) of fixed-size records, one
// record per thread, consumed as little-endian 32-bit words.
extern "C" __global__ void crc32_records(const unsigned *data, unsigned *crc, unsigned nrec, int words) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nrec) return;
  const unsigned *p = data + (long)i * words;
  unsigned c = 0xffffffffu;
  for (int w = 0; w < words; ++w) {
    c ^= p[w];
    for (int b = 0; b < 32; ++b) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  crc[i] = ~c;
}

// Chebyshev series sum_{k=0}^{deg} c_k T_k(t), t = (2x - a - b) / (b - a), in double precision
// by Clenshaw's recurrence; the coefficients (deg < 256) are staged in shared memory.
extern "C" __global__ void cheb_clenshaw_f64(const double *x, const double *coef, double *y, unsigned n, int deg,
                                             double a, double b) {
  __shared__ double c[256];
  for (int k = threadIdx.x; k <= deg; k += blockDim.x) c[k] = coef[k];
  __syncthreads();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double t = (2.0 * x[i] - a - b) / (b - a);
  const double t2 = 2.0 * t;
  double b1 = 0.0, b2 = 0.0;
  for (int k = deg; k >= 1; --k) {
    const double b0 = fma(t2, b1, c[k] - b2);
    b2 = b1;
    b1 = b0;
  }
  y[i] = fma(t, b1, c[0] - b2);
}

// Naive O(N^2) DFT of a batch of complex signals (nfft a power of two): blockIdx.y picks the
// signal, one thread per output bin; input chunks staged in shared memory; the twiddle phase is
// reduced exactly in integers ((k * n) mod nfft) before sincospif.
extern "C" __global__ void dft_naive_c32(const float2 *x, float2 *X, int nfft) {
  __shared__ float2 buf[256];
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const float2 *s = x + (long)blockIdx.y * nfft;
  const float scale = -2.0f / nfft;
  float re = 0.0f, im = 0.0f;
  for (int base = 0; base < nfft; base += blockDim.x) {
    buf[threadIdx.x] = s[base + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < (int)blockDim.x; ++j) {
      const int ph = (k * (base + j)) & (nfft - 1);
      float sn, cs;
      sincospif(ph * scale, &sn, &cs);
      const float2 v = buf[j];
      re += v.x * cs - v.y * sn;
      im += v.x * sn + v.y * cs;
    }
    __syncthreads();
  }
  X[(long)blockIdx.y * nfft + k] = make_float2(re, im);
}

// ---------------------------------------------------------------- latency-bound / small grids

// Collatz stopping times: each thread walks `per_thread` start values (start + tid + j * threads)
// down to 1 in 64-bit arithmetic and keeps the longest walk. Trip counts depend on the data and
// differ from lane to lane (divergent loop).
extern "C" __global__ void collatz_max_steps(unsigned *steps, unsigned long long start, int per_thread) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long nth = (unsigned long long)gridDim.x * blockDim.x;
  unsigned best = 0;
  for (int j = 0; j < per_thread; ++j) {
    unsigned long long v = start + tid + j * nth;
    unsigned s = 0;
    while (v != 1ull) {
      v = (v & 1ull) ? 3ull * v + 1ull : v >> 1;
      ++s;
    }
    best = max(best, s);
  }
  steps[tid] = best;
}

// Batched tridiagonal solve (Thomas algorithm), one thread per system, systems interleaved
// (element i of system s at i * nsys + s) so each step is coalesced across the warp: forward
// elimination with one division per row, then back substitution.
extern "C" __global__ void thomas_batched(const float *a, const float *b, const float *c, const float *d, float *cp,
                                          float *x, int n, int nsys) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nsys) return;
  float cprev = c[s] / b[s];
  float dprev = d[s] / b[s];
  cp[s] = cprev;
  x[s] = dprev;
  for (int i = 1; i < n; ++i) {
    const long o = (long)i * nsys + s;
    const float ai = a[o];
    const float m = 1.0f / (b[o] - ai * cprev);
    cprev = c[o] * m;
    dprev = (d[o] - ai * dprev) * m;
    cp[o] = cprev;
    x[o] = dprev;
  }
  float xnext = dprev;
  for (int i = n - 2; i >= 0; --i) {
    const long o = (long)i * nsys + s;
    xnext = x[o] - cp[o] * xnext;
    x[o] = xnext;
  }
}

// y = L x for a dense lower-triangular n x n row-major matrix, one block per row: row r reads
// only r + 1 elements, so the work per block grows linearly with blockIdx.x. Shuffle + shared
// block reduction.
extern "C" __global__ void trmv_lower_rows(const float *L, const float *x, float *y, int n) {
  __shared__ float ws[32];
  const int row = blockIdx.x;
  const float *r = L + (long)row * n;
  float s = 0.0f;
  for (int c = threadIdx.x; c <= row; c += blockDim.x) s += r[c] * x[c];
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  if ((threadIdx.x & 31) == 0) ws[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < (blockDim.x >> 5) ? ws[threadIdx.x] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if (threadIdx.x == 0) y[row] = s;
  }
}
