// Eighth held-out set for the time model, written in session 9 (2026-11-24) by a helper
// ("heldout8") that did NOT look at the time model (simulator/perf, simulator/model, device files,
// calibration notes, analysis time views, validation, time predictions) before any prediction or
// measurement of these kernels: a blind check that the model's rules carry to kernels nobody tuned
// it on. Never used in a fit. Kernels in the style of sample/tutorial/library code, written from
// scratch.
// Launches in heldout8.json: memory-bound (mean-pooled embedding bags gathered through an index
// array, bilinear image downscaling, per-row softmax cross-entropy loss, array-of-structures to
// structure-of-arrays conversion of 7-float particles), shared-bound (batched 3-D transpose through
// an UNPADDED 32x32 tile, Hann-windowed STFT power spectrum by a radix-2 shared-memory FFT,
// edit distance of short DNA strings along anti-diagonals in shared memory), compute-bound (a
// sphere ray tracer with shadow rays, SipHash-2-4 of 64-bit keys, f64 Lennard-Jones pair forces
// split over j-chunks, Knuth's Poisson sampler with divergent trip counts) and latency-bound /
// small grids (a single-block prefix sum over 1M floats, biquad IIR filters run serially over time
// on 4 blocks, binary searches in a 64 MiB sorted array by 8 warps).

// ---------------------------------------------------------------- memory-bound

// Mean-pooled embedding bags (an "EmbeddingBag(mode=mean)" forward): bag g averages the table rows
// idx[g*bag .. g*bag+bag) (indices masked to the table size). Block 16 x 16: x over the 16 float4
// of a 64-float row, y over bags.
extern "C" __global__ void embedding_bag_mean(const float4 *table, const unsigned *idx, float4 *out, unsigned row_mask,
                                              int bag, int nbags, int d4) {
  const int f = threadIdx.x;
  const int g = blockIdx.x * blockDim.y + threadIdx.y;
  if (g >= nbags || f >= d4) return;
  const unsigned *ix = idx + (long)g * bag;
  float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int k = 0; k < bag; ++k) {
    const unsigned r = ix[k] & row_mask;
    const float4 v = table[(long)r * d4 + f];
    s.x += v.x;
    s.y += v.y;
    s.z += v.z;
    s.w += v.w;
  }
  const float inv = 1.0f / (float)bag;
  out[(long)g * d4 + f] = make_float4(s.x * inv, s.y * inv, s.z * inv, s.w * inv);
}

// Bilinear resize of a single-channel f32 image (half-pixel centres, edge clamped), one thread per
// output pixel, 2-D grid. sx, sy = source size / destination size.
extern "C" __global__ void resize_bilinear_f32(const float *src, int sw, int sh, float *dst, int dw, int dh, float sx,
                                               float sy) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dw || y >= dh) return;
  const float fx = fmaxf((x + 0.5f) * sx - 0.5f, 0.0f), fy = fmaxf((y + 0.5f) * sy - 0.5f, 0.0f);
  const int x0 = min((int)fx, sw - 1), y0 = min((int)fy, sh - 1);
  const int x1 = min(x0 + 1, sw - 1), y1 = min(y0 + 1, sh - 1);
  const float ax = fx - (float)x0, ay = fy - (float)y0;
  const float *r0 = src + (long)y0 * sw, *r1 = src + (long)y1 * sw;
  const float a = r0[x0], b = r0[x1], c = r1[x0], d = r1[x1];
  const float top = a + ax * (b - a), bot = c + ax * (d - c);
  dst[(long)y * dw + x] = top + ay * (bot - top);
}

// Softmax cross-entropy loss per row: loss[r] = logsumexp(logits[r, :]) - logits[r, label_r]
// (label_r = labels[r] mod cols). One block per row, online (max, sum) per thread, merged with
// warp shuffles and then across warps through shared memory.
__device__ __forceinline__ void lse_merge(float &m, float &s, float m2, float s2) {
  if (s2 == 0.0f) return;
  if (s == 0.0f) {
    m = m2;
    s = s2;
    return;
  }
  const float mm = fmaxf(m, m2);
  s = s * __expf(m - mm) + s2 * __expf(m2 - mm);
  m = mm;
}
extern "C" __global__ void cross_entropy_rows(const float *logits, const unsigned *labels, float *loss, int cols) {
  __shared__ float sm[32], ss[32];
  const int row = blockIdx.x;
  const float *x = logits + (long)row * cols;
  float m = __int_as_float(0xff800000), s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = x[c];
    const float mn = fmaxf(m, v);
    s = s * __expf(m - mn) + __expf(v - mn);
    m = mn;
  }
  for (int off = 16; off > 0; off >>= 1) {
    const float m2 = __shfl_xor_sync(0xffffffffu, m, off), s2 = __shfl_xor_sync(0xffffffffu, s, off);
    lse_merge(m, s, m2, s2);
  }
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nw = blockDim.x >> 5;
  if (lane == 0) {
    sm[warp] = m;
    ss[warp] = s;
  }
  __syncthreads();
  if (warp == 0) {
    m = lane < nw ? sm[lane] : 0.0f;
    s = lane < nw ? ss[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) {
      const float m2 = __shfl_xor_sync(0xffffffffu, m, off), s2 = __shfl_xor_sync(0xffffffffu, s, off);
      lse_merge(m, s, m2, s2);
    }
    if (lane == 0) loss[row] = m + logf(s) - x[labels[row] % (unsigned)cols];
  }
}

// Array-of-structures to structure-of-arrays: particle i is 7 consecutive floats (x, y, z, vx, vy,
// vz, mass; a 28-byte stride between threads); field f goes to soa[f * n + i].
extern "C" __global__ void aos7_to_soa(const float *aos, float *soa, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float *p = aos + 7l * i;
#pragma unroll
  for (int f = 0; f < 7; ++f) soa[(long)f * n + i] = p[f];
}

// ---------------------------------------------------------------- shared-memory-bound

// Batched transpose out[b][x][y] = in[b][y][x] of B planes of H x W floats (H, W multiples of 32)
// through a 32x32 shared tile WITHOUT padding (the "coalesced but bank-conflicted" textbook
// version): column reads of the tile hit one bank 32 ways. Block 32 x 8, blockIdx.z = plane.
#define TP_T 32
#define TP_R 8
extern "C" __global__ void transpose_bhw_nopad(const float *in, float *out, int H, int W) {
  __shared__ float tile[TP_T][TP_T];
  const long plane = (long)H * W;
  const float *src = in + blockIdx.z * plane;
  float *dst = out + blockIdx.z * plane;
  int x = blockIdx.x * TP_T + threadIdx.x, y = blockIdx.y * TP_T + threadIdx.y;
#pragma unroll
  for (int r = 0; r < TP_T; r += TP_R) tile[threadIdx.y + r][threadIdx.x] = src[(long)(y + r) * W + x];
  __syncthreads();
  x = blockIdx.y * TP_T + threadIdx.x;
  y = blockIdx.x * TP_T + threadIdx.y;
#pragma unroll
  for (int r = 0; r < TP_T; r += TP_R) dst[(long)(y + r) * H + x] = tile[threadIdx.x][threadIdx.y + r];
}

// Short-time Fourier transform power spectrum: frame f = sig[f*hop .. f*hop + 1024) times a Hann
// window, 1024-point complex FFT (iterative radix-2 decimation in time: bit-reversed load, 10
// barrier-separated butterfly stages, twiddles from a 512-entry shared table built per block),
// |X_k|^2 for k = 0..512 out. One block of 512 threads per frame, one butterfly per thread per stage.
#define FFT_N 1024
#define FFT_LOG 10
extern "C" __global__ void stft_power_hann1024(const float *sig, float *power, int hop) {
  __shared__ float2 buf[FFT_N];
  __shared__ float2 tw[FFT_N / 2];
  const int t = threadIdx.x;
  const float *frame = sig + (long)blockIdx.x * hop;
  float sn, cs;
  sincospif(-(float)t / (float)(FFT_N / 2), &sn, &cs);
  tw[t] = make_float2(cs, sn);
  for (int k = t; k < FFT_N; k += FFT_N / 2) {
    const float w = 0.5f - 0.5f * __cosf(6.28318531f * (float)k / (float)FFT_N);
    buf[__brev(k) >> (32 - FFT_LOG)] = make_float2(w * frame[k], 0.0f);
  }
  __syncthreads();
  for (int h = 1; h < FFT_N; h <<= 1) {
    const int j = t & (h - 1);
    const int i0 = ((t - j) << 1) + j, i1 = i0 + h;
    const float2 w = tw[j * (FFT_N / 2 / h)];
    const float2 a = buf[i0], b = buf[i1];
    const float bx = b.x * w.x - b.y * w.y, by = b.x * w.y + b.y * w.x;
    buf[i0] = make_float2(a.x + bx, a.y + by);
    buf[i1] = make_float2(a.x - bx, a.y - by);
    __syncthreads();
  }
  float *out = power + (long)blockIdx.x * (FFT_N / 2 + 1);
  for (int k = t; k <= FFT_N / 2; k += FFT_N / 2) {
    const float2 v = buf[k];
    out[k] = v.x * v.x + v.y * v.y;
  }
}

// Levenshtein distance of string pairs of 128 nucleotides (bytes, letter = low 2 bits), one pair
// per block of 128 threads: thread i owns DP row i+1 and the 255 anti-diagonals are swept with a
// barrier each, the last two diagonals and the current one kept in three shared rows.
#define ED_L 128
extern "C" __global__ void edit_distance_wavefront(const unsigned char *A, const unsigned char *B, int *dist) {
  __shared__ int diag[3][ED_L];
  __shared__ unsigned char sb[ED_L];
  const int i = threadIdx.x;
  const unsigned char ai = A[(long)blockIdx.x * ED_L + i] & 3u;
  sb[i] = B[(long)blockIdx.x * ED_L + i] & 3u;
  __syncthreads();
  for (int d = 0; d < 2 * ED_L - 1; ++d) {
    const int j = d - i;
    if (j >= 0 && j < ED_L) {
      const int *p1 = diag[(d + 2) % 3], *p2 = diag[(d + 1) % 3];
      const int up = i > 0 ? p1[i - 1] : j + 1;
      const int left = j > 0 ? p1[i] : i + 1;
      const int ul = (i > 0 && j > 0) ? p2[i - 1] : (i == 0 ? j : i);
      diag[d % 3][i] = min(min(up, left) + 1, ul + (ai != sb[j] ? 1 : 0));
    }
    __syncthreads();
  }
  if (i == ED_L - 1) dist[blockIdx.x] = diag[(2 * ED_L - 2) % 3][i];
}

// ---------------------------------------------------------------- compute-bound

// Ray tracer: pinhole camera at the origin looking down +z, nsph spheres (centre and radius mapped
// from [-1, 1) inputs), nearest hit over all spheres, then for hit pixels a shadow ray towards a
// point light over all spheres, Lambert + Phong (powf) shading and exponential fog. Grey image.
extern "C" __global__ void raytrace_spheres(const float4 *sph, int nsph, float *img, int w, int h, float lx, float ly,
                                            float lz) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  float dx = 2.0f * (px + 0.5f) / w - 1.0f, dy = (1.0f - 2.0f * (py + 0.5f) / h) * h / w, dz = 1.5f;
  const float inv = rsqrtf(dx * dx + dy * dy + dz * dz);
  dx *= inv;
  dy *= inv;
  dz *= inv;
  float tbest = 1e30f;
  int hit = -1;
  for (int k = 0; k < nsph; ++k) {
    const float4 s = sph[k];
    const float cx = 6.0f * s.x, cy = 6.0f * s.y, cz = 14.0f + 6.0f * s.z, r = 0.6f + 0.4f * s.w;
    const float b = dx * cx + dy * cy + dz * cz;
    const float disc = b * b - (cx * cx + cy * cy + cz * cz - r * r);
    if (disc > 0.0f) {
      const float t = b - sqrtf(disc);
      if (t > 1e-3f && t < tbest) {
        tbest = t;
        hit = k;
      }
    }
  }
  float col = 0.2f + 0.3f * dy;
  if (hit >= 0) {
    const float4 s = sph[hit];
    const float cx = 6.0f * s.x, cy = 6.0f * s.y, cz = 14.0f + 6.0f * s.z, r = 0.6f + 0.4f * s.w;
    const float Px = tbest * dx, Py = tbest * dy, Pz = tbest * dz;
    const float nx = (Px - cx) / r, ny = (Py - cy) / r, nz = (Pz - cz) / r;
    float Lx = lx - Px, Ly = ly - Py, Lz = lz - Pz;
    const float ldist = sqrtf(Lx * Lx + Ly * Ly + Lz * Lz);
    Lx /= ldist;
    Ly /= ldist;
    Lz /= ldist;
    bool shadow = false;
    for (int k = 0; k < nsph; ++k) {
      const float4 q = sph[k];
      const float ox = Px - 6.0f * q.x, oy = Py - 6.0f * q.y, oz = Pz - (14.0f + 6.0f * q.z), rq = 0.6f + 0.4f * q.w;
      const float b = ox * Lx + oy * Ly + oz * Lz;
      const float disc = b * b - (ox * ox + oy * oy + oz * oz - rq * rq);
      if (disc > 0.0f) {
        const float t = -b - sqrtf(disc);
        shadow |= (t > 1e-3f && t < ldist);
      }
    }
    const float ndl = nx * Lx + ny * Ly + nz * Lz;
    const float diff = fmaxf(ndl, 0.0f);
    const float Rx = 2.0f * ndl * nx - Lx, Ry = 2.0f * ndl * ny - Ly, Rz = 2.0f * ndl * nz - Lz;
    const float spec = powf(fmaxf(-(Rx * dx + Ry * dy + Rz * dz), 0.0f), 32.0f);
    col = 0.1f + (shadow ? 0.0f : 0.8f * diff + 0.5f * spec);
    col = col * expf(-0.02f * tbest) + (0.2f + 0.3f * dy) * (1.0f - expf(-0.02f * tbest));
  }
  img[(long)py * w + px] = col;
}

// SipHash-2-4 of one 64-bit key per thread (8-byte message: one compression block plus the
// length block, then the finalisation), 128-bit secret (k0, k1) passed by value.
__device__ __forceinline__ unsigned long long rotl64(unsigned long long x, int b) {
  return (x << b) | (x >> (64 - b));
}
#define SIPROUND                                                                                                       \
  do {                                                                                                                 \
    v0 += v1;                                                                                                          \
    v1 = rotl64(v1, 13);                                                                                               \
    v1 ^= v0;                                                                                                          \
    v0 = rotl64(v0, 32);                                                                                               \
    v2 += v3;                                                                                                          \
    v3 = rotl64(v3, 16);                                                                                               \
    v3 ^= v2;                                                                                                          \
    v0 += v3;                                                                                                          \
    v3 = rotl64(v3, 21);                                                                                               \
    v3 ^= v0;                                                                                                          \
    v2 += v1;                                                                                                          \
    v1 = rotl64(v1, 17);                                                                                               \
    v1 ^= v2;                                                                                                          \
    v2 = rotl64(v2, 32);                                                                                               \
  } while (0)
extern "C" __global__ void siphash24_u64(const unsigned long long *keys, unsigned long long *hashes, unsigned n,
                                         unsigned long long k0, unsigned long long k1) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned long long m = keys[i];
  unsigned long long v0 = k0 ^ 0x736f6d6570736575ull, v1 = k1 ^ 0x646f72616e646f6dull;
  unsigned long long v2 = k0 ^ 0x6c7967656e657261ull, v3 = k1 ^ 0x7465646279746573ull;
  v3 ^= m;
  SIPROUND;
  SIPROUND;
  v0 ^= m;
  const unsigned long long last = 8ull << 56;
  v3 ^= last;
  SIPROUND;
  SIPROUND;
  v0 ^= last;
  v2 ^= 0xffull;
  SIPROUND;
  SIPROUND;
  SIPROUND;
  SIPROUND;
  hashes[i] = v0 ^ v1 ^ v2 ^ v3;
}

// Lennard-Jones forces in double precision, all pairs, with the j loop split over blockIdx.y in
// chunks of jchunk particles (partial forces added with f64 atomics). Positions are box * inputs
// (SoA); F_i += 24 eps / r^2 (2 (s/r)^12 - (s/r)^6) r_ij, one f64 division per pair.
extern "C" __global__ void lj_forces_f64(const double *x, const double *y, const double *z, double *fx, double *fy,
                                         double *fz, int n, int jchunk, double box, double eps, double sig2) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int j0 = blockIdx.y * jchunk, j1 = min(j0 + jchunk, n);
  const double xi = x[i], yi = y[i], zi = z[i];
  double ax = 0.0, ay = 0.0, az = 0.0;
  for (int j = j0; j < j1; ++j) {
    if (j == i) continue;
    const double dx = box * (xi - x[j]), dy = box * (yi - y[j]), dz = box * (zi - z[j]);
    const double r2 = dx * dx + dy * dy + dz * dz;
    const double ir2 = 1.0 / r2;
    const double sr2 = sig2 * ir2, sr6 = sr2 * sr2 * sr2;
    const double f = 24.0 * eps * ir2 * sr6 * (2.0 * sr6 - 1.0);
    ax += f * dx;
    ay += f * dy;
    az += f * dz;
  }
  atomicAdd(&fx[i], ax);
  atomicAdd(&fy[i], ay);
  atomicAdd(&fz[i], az);
}

// Poisson variates by Knuth's multiplication method (multiply uniforms until the product drops
// below e^-lambda), lambda = 20 (rate + 1) in [0, 40) per thread, nsamp draws summed; xorshift32
// stream per thread. Trip counts are the variates themselves: strongly divergent inside a warp.
extern "C" __global__ void poisson_knuth(const float *rate, unsigned *counts, unsigned n, int nsamp, unsigned seed) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float L = __expf(-20.0f * (rate[i] + 1.0f));
  unsigned s = ((i + 1u) * 0x9e3779b9u) ^ seed;
  s |= 1u;
  unsigned total = 0;
  for (int q = 0; q < nsamp; ++q) {
    int k = -1;
    float p = 1.0f;
    do {
      s ^= s << 13;
      s ^= s >> 17;
      s ^= s << 5;
      p *= (float)(s >> 8) * 5.9604645e-8f;
      ++k;
    } while (p > L);
    total += (unsigned)k;
  }
  counts[i] = total;
}

// ---------------------------------------------------------------- latency-bound / small grids

// Inclusive prefix sum of n4 float4 (4 n4 floats) by ONE block: chunks of blockDim.x float4, a
// serial scan of the 4 values in registers, a warp shuffle scan, warp totals scanned by warp 0
// through shared memory, and a running carry from chunk to chunk (three barriers per chunk).
extern "C" __global__ void prefix_sum_one_block(const float4 *in, float4 *out, int n4) {
  __shared__ float wsum[32];
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  float carry = 0.0f;
  for (int base = 0; base < n4; base += blockDim.x) {
    const int k = base + t;
    float4 v = k < n4 ? in[k] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    v.y += v.x;
    v.z += v.y;
    v.w += v.z;
    float s = v.w;
    for (int off = 1; off < 32; off <<= 1) {
      const float o = __shfl_up_sync(0xffffffffu, s, off);
      if (lane >= off) s += o;
    }
    if (lane == 31) wsum[warp] = s;
    __syncthreads();
    if (warp == 0) {
      float ws = lane < nw ? wsum[lane] : 0.0f;
      for (int off = 1; off < 32; off <<= 1) {
        const float o = __shfl_up_sync(0xffffffffu, ws, off);
        if (lane >= off) ws += o;
      }
      if (lane < nw) wsum[lane] = ws;
    }
    __syncthreads();
    const float excl = carry + (warp > 0 ? wsum[warp - 1] : 0.0f) + (s - v.w);
    if (k < n4) out[k] = make_float4(v.x + excl, v.y + excl, v.z + excl, v.w + excl);
    carry += wsum[nw - 1];
    __syncthreads();
  }
}

// Biquad IIR filter (direct form I) applied to nch channels, one thread per channel, run serially
// over T time steps (samples interleaved: x[t * nch + c], so each step is coalesced across the
// warp); each output depends on the two previous ones. Meant for a handful of blocks.
extern "C" __global__ void iir_biquad_channels(const float *x, float *y, int nch, int T, float b0, float b1, float b2,
                                               float a1, float a2) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nch) return;
  float x1 = 0.0f, x2 = 0.0f, y1 = 0.0f, y2 = 0.0f;
  for (int t = 0; t < T; ++t) {
    const float xt = x[(long)t * nch + c];
    const float yt = b0 * xt + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = xt;
    y2 = y1;
    y1 = yt;
    y[(long)t * nch + c] = yt;
  }
}

// Lower-bound binary searches (branch-free halving form) in a sorted u32 array of n elements:
// each thread answers qpt queries one after the other (query k of thread t at q[k * nthreads + t],
// masked by qmask); every probe's address depends on the previous probe's value. Few warps.
extern "C" __global__ void lower_bound_queries(const unsigned *sorted, unsigned n, const unsigned *q, unsigned *pos,
                                               int qpt, unsigned qmask) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
  for (int k = 0; k < qpt; ++k) {
    const unsigned key = q[(long)k * nt + t] & qmask;
    unsigned base = 0, len = n;
    while (len > 1) {
      const unsigned half = len >> 1;
      if (sorted[base + half - 1] < key) base += half;
      len -= half;
    }
    pos[(long)k * nt + t] = base + (sorted[base] < key ? 1u : 0u);
  }
}
