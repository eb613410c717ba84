// Ninth held-out set for the time model, written in session 9 (2026-11-24) by a helper
// ("heldout9") that did NOT look at the time model (simulator/perf, simulator/model, device files,
// calibration notes, analysis time views, validation, time predictions) before any prediction or
// measurement of these kernels: a blind check that the model's rules carry to kernels nobody tuned
// it on. Never used in a fit. Kernels in the style of sample/tutorial/library code, written from
// scratch.
// Launches in heldout9.json: memory-bound (an RMSNorm forward with the row held in registers, a
// 3-D 27-point stencil, group-wise int4 weight dequantisation, an embedding-table gradient by
// float atomics), shared-bound (a 64x64-tile SGEMM with 4x4 register blocking, a 64x64-bin joint
// histogram privatised in shared memory, a block-local 1-bit split radix sort), compute-bound
// (a Newton fractal for z^3 - 1 in complex f64, Monte Carlo call pricing with Box-Muller normals,
// Euclid's gcd with 32-bit remainders, a Gaussian kernel density estimate over shared tiles) and
// latency-bound / small grids (one-warp Cholesky of 64x64 matrices, a persistent single-block heat
// solver per plate, random-forest inference walking complete trees).

// ---------------------------------------------------------------- memory-bound

// RMSNorm forward (LLaMA style): y = x * rsqrt(mean(x^2) + eps) * w, one 256-thread block per row
// of n4 float4 (n4 <= 4 * 256); the row stays in registers between the reduction and the scaling.
#define RMS_PER 4
extern "C" __global__ void rmsnorm_rows_f4(const float4 *x, const float4 *w, float4 *y, int n4, float eps) {
  __shared__ float part[32];
  const float4 *xr = x + (long)blockIdx.x * n4;
  float4 *yr = y + (long)blockIdx.x * n4;
  float4 v[RMS_PER];
  float ss = 0.0f;
#pragma unroll
  for (int k = 0; k < RMS_PER; ++k) {
    const int c = threadIdx.x + k * blockDim.x;
    v[k] = c < n4 ? xr[c] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    ss += v[k].x * v[k].x + v[k].y * v[k].y + v[k].z * v[k].z + v[k].w * v[k].w;
  }
  for (int off = 16; off > 0; off >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, off);
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) part[warp] = ss;
  __syncthreads();
  if (warp == 0) {
    ss = lane < (int)(blockDim.x >> 5) ? part[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, off);
    if (lane == 0) part[0] = rsqrtf(ss / (float)(4 * n4) + eps);
  }
  __syncthreads();
  const float r = part[0];
#pragma unroll
  for (int k = 0; k < RMS_PER; ++k) {
    const int c = threadIdx.x + k * blockDim.x;
    if (c < n4) {
      const float4 g = w[c];
      yr[c] = make_float4(v[k].x * r * g.x, v[k].y * r * g.y, v[k].z * r * g.z, v[k].w * r * g.w);
    }
  }
}

// 27-point 3-D stencil (centre, 6 faces, 12 edges, 8 corners with weights c0..c3) on an
// nx x ny x nz f32 grid (fewer than 2^31 points, int indexing), one point per thread on a 3-D grid
// of 32x8x1 blocks; boundary points are copied through.
extern "C" __global__ void stencil27_3d(const float *in, float *out, int nx, int ny, int nz, float c0, float c1,
                                        float c2, float c3) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  const int sy = nx, sz = nx * ny;  // int indexing: grids up to 2^31 points
  const int i = z * sz + y * sy + x;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    out[i] = in[i];
    return;
  }
  float f = 0.0f, e = 0.0f, k = 0.0f;
#pragma unroll
  for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
      for (int dx = -1; dx <= 1; ++dx) {
        const int m = (dx != 0) + (dy != 0) + (dz != 0);
        if (m == 0) continue;
        const float v = in[i + dz * sz + dy * sy + dx];
        if (m == 1) f += v;
        else if (m == 2) e += v;
        else k += v;
      }
  out[i] = c0 * in[i] + c1 * f + c2 * e + c3 * k;
}

// Group-wise int4 weight dequantisation (GPTQ/AWQ-like storage without zero-point tensor): each
// u32 packs 8 unsigned nibbles, value = (q - 8) * scale[group], groups of `group` consecutive
// weights; one packed word per thread, two float4 stores.
extern "C" __global__ void dequant_int4_group(const unsigned *packed, const float *scale, float4 *out, int nwords,
                                              int group_shift) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nwords) return;
  const unsigned q = packed[i];
  const float s = scale[(i * 8) >> group_shift];
  float v[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) v[k] = (float)((int)((q >> (4 * k)) & 15u) - 8) * s;
  out[2 * i] = make_float4(v[0], v[1], v[2], v[3]);
  out[2 * i + 1] = make_float4(v[4], v[5], v[6], v[7]);
}

// Embedding backward: grad_table[idx[t] & row_mask, :] += grad_out[t, :] with float atomicAdd
// (results unused), block dim x 4 (x over the d features, y over tokens).
extern "C" __global__ void embedding_grad_atomic(const float *grad_out, const unsigned *idx, float *grad_table,
                                                 unsigned row_mask, int ntok, int d) {
  const int f = threadIdx.x;
  const int t = blockIdx.x * blockDim.y + threadIdx.y;
  if (t >= ntok || f >= d) return;
  const unsigned r = idx[t] & row_mask;
  atomicAdd(grad_table + (long)r * d + f, grad_out[(long)t * d + f]);
}

// ---------------------------------------------------------------- shared-memory-bound

// C = A B (row-major, M x K times K x N; M, N multiples of 64, K of 16), 64x64 tile of C per
// 16x16-thread block, 4x4 outputs per thread in registers, k-slices of 16: A's slice is stored
// transposed (As[k][m]) so both operands are read as float4 from shared memory.
#define GB_M 64
#define GB_N 64
#define GB_K 16
extern "C" __global__ void sgemm_reg4x4(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ __align__(16) float As[GB_K][GB_M];
  __shared__ __align__(16) float Bs[GB_K][GB_N];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int row0 = blockIdx.y * GB_M, col0 = blockIdx.x * GB_N;
  float acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;
  // A slice 64 x 16: thread loads row (tid >> 2), float4 column (tid & 3).
  const int ar = tid >> 2, ac = (tid & 3) * 4;
  // B slice 16 x 64: thread loads row (tid >> 4), float4 column (tid & 15).
  const int br = tid >> 4, bc = (tid & 15) * 4;
  for (int k0 = 0; k0 < K; k0 += GB_K) {
    const float4 a = *reinterpret_cast<const float4 *>(A + (long)(row0 + ar) * K + k0 + ac);
    const float4 b = *reinterpret_cast<const float4 *>(B + (long)(k0 + br) * N + col0 + bc);
    As[ac + 0][ar] = a.x;
    As[ac + 1][ar] = a.y;
    As[ac + 2][ar] = a.z;
    As[ac + 3][ar] = a.w;
    *reinterpret_cast<float4 *>(&Bs[br][bc]) = b;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < GB_K; ++k) {
      const float4 av = *reinterpret_cast<const float4 *>(&As[k][ty * 4]);
      const float4 bv = *reinterpret_cast<const float4 *>(&Bs[k][tx * 4]);
      const float ar4[4] = {av.x, av.y, av.z, av.w}, bc4[4] = {bv.x, bv.y, bv.z, bv.w};
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(ar4[i], bc4[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
    *reinterpret_cast<float4 *>(C + (long)(row0 + ty * 4 + i) * N + col0 + tx * 4) =
        make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
}

// Joint (2-D) histogram of two 8-bit images quantised to 64 levels each (the first step of a
// mutual-information registration metric): 4096 u32 bins privatised per block in shared memory
// (16 KiB), grid-stride loop over uchar4 words of both images with shared atomics, then the
// block's partial histogram is written out (merged by a later kernel, not part of this launch).
#define JH_BINS 4096
extern "C" __global__ void joint_hist64_partial(const uchar4 *a, const uchar4 *b, unsigned *partial, int nwords) {
  __shared__ unsigned h[JH_BINS];
  for (int k = threadIdx.x; k < JH_BINS; k += blockDim.x) h[k] = 0u;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += gridDim.x * blockDim.x) {
    const uchar4 p = a[i], q = b[i];
    atomicAdd(&h[((p.x >> 2) << 6) | (q.x >> 2)], 1u);
    atomicAdd(&h[((p.y >> 2) << 6) | (q.y >> 2)], 1u);
    atomicAdd(&h[((p.z >> 2) << 6) | (q.z >> 2)], 1u);
    atomicAdd(&h[((p.w >> 2) << 6) | (q.w >> 2)], 1u);
  }
  __syncthreads();
  unsigned *dst = partial + (long)blockIdx.x * JH_BINS;
  for (int k = threadIdx.x; k < JH_BINS; k += blockDim.x) dst[k] = h[k];
}

// Block-local LSD radix sort of 1024 u32 keys per 256-thread block by 32 one-bit "split" passes
// (the textbook split primitive): each thread owns 4 consecutive keys, counts its zeros, a
// block-wide exclusive scan (warp shuffles + 8 warp totals in shared memory) gives every key its
// destination, keys are scattered in shared memory and read back for the next bit.
#define RS_T 256
#define RS_PER 4
extern "C" __global__ void radix_split_sort1024(const unsigned *in, unsigned *out) {
  __shared__ unsigned keys[RS_T * RS_PER];
  __shared__ int wsum[RS_T / 32];
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const unsigned *src = in + (long)blockIdx.x * RS_T * RS_PER;
  for (int k = t; k < RS_T * RS_PER; k += RS_T) keys[k] = src[k];
  __syncthreads();
  for (int bit = 0; bit < 32; ++bit) {
    unsigned v[RS_PER];
    int zeros = 0;
#pragma unroll
    for (int k = 0; k < RS_PER; ++k) {
      v[k] = keys[t * RS_PER + k];
      zeros += ((v[k] >> bit) & 1u) == 0u;
    }
    int incl = zeros;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      const int n = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= off) incl += n;
    }
    if (lane == 31) wsum[warp] = incl;
    __syncthreads();
    int before = 0, total = 0;
#pragma unroll
    for (int w = 0; w < RS_T / 32; ++w) {
      const int s = wsum[w];
      before += w < warp ? s : 0;
      total += s;
    }
    int zpos = before + incl - zeros;       // zeros of earlier keys in the block
    int opos = total + t * RS_PER - zpos;   // ones go after all zeros, in order
#pragma unroll
    for (int k = 0; k < RS_PER; ++k) {
      if (((v[k] >> bit) & 1u) == 0u) keys[zpos++] = v[k];
      else keys[opos++] = v[k];
    }
    // keys[] is overwritten only after every thread has read its keys: the barrier above
    // (after the wsum store) separates this pass's reads from its writes.
    __syncthreads();
  }
  unsigned *dst = out + (long)blockIdx.x * RS_T * RS_PER;
  for (int k = t; k < RS_T * RS_PER; k += RS_T) dst[k] = keys[k];
}

// ---------------------------------------------------------------- compute-bound

// Newton fractal for p(z) = z^3 - 1 in complex double: z <- z - (z^3 - 1) / (3 z^2) until
// |z^3 - 1| < tol or maxit; out = root index (0..2, or 3 if not converged) * 256 + iterations.
// One pixel per thread over [-2, 2] x [-2, 2] shifted by half a pixel (z = 0 is never hit).
extern "C" __global__ void newton_fractal_c64(unsigned *out, int w, int h, int maxit, double tol2) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  double zr = -2.0 + 4.0 * (px + 0.5) / w, zi = -2.0 + 4.0 * (py + 0.5) / h;
  int it = 0;
  for (; it < maxit; ++it) {
    const double z2r = zr * zr - zi * zi, z2i = 2.0 * zr * zi;
    const double fr = z2r * zr - z2i * zi - 1.0, fi = z2r * zi + z2i * zr;
    if (fr * fr + fi * fi < tol2) break;
    const double dr = 3.0 * z2r, di = 3.0 * z2i;
    const double inv = 1.0 / (dr * dr + di * di);
    zr -= (fr * dr + fi * di) * inv;
    zi -= (fi * dr - fr * di) * inv;
  }
  int root = 3;
  if (it < maxit) root = zr > 0.0 ? 0 : (zi > 0.0 ? 1 : 2);
  out[(long)py * w + px] = (unsigned)(root * 256 + it);
}

// Monte Carlo price of a European call under geometric Brownian motion: every thread draws
// `pairs` pairs of uniforms from its own xorshift32 stream, turns each pair into two normals by
// Box-Muller (logf, sqrtf, sincospif) and sums both discounted-free payoffs max(S_T - K, 0);
// per-warp sums are added to one global accumulator.
extern "C" __global__ void mc_call_boxmuller(float *sum, int pairs, float s0, float strike, float drift,
                                             float volsqrt) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = tid * 2654435761u + 0x9e3779b9u;
  s ^= s >> 16;
  s *= 0x7feb352du;
  s ^= s >> 15;
  if (s == 0u) s = 1u;
  float acc = 0.0f;
  for (int p = 0; p < pairs; ++p) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    const float u1 = ((s >> 8) + 1u) * (1.0f / 16777217.0f);
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    const float u2 = (s >> 8) * (1.0f / 16777216.0f);
    const float r = sqrtf(-2.0f * logf(u1));
    float sn, cs;
    sincospif(2.0f * u2, &sn, &cs);
    const float st1 = s0 * expf(drift + volsqrt * r * cs);
    const float st2 = s0 * expf(drift + volsqrt * r * sn);
    acc += fmaxf(st1 - strike, 0.0f) + fmaxf(st2 - strike, 0.0f);
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, acc);
}

// Greatest common divisor of pairs of 32-bit unsigned integers by Euclid's algorithm with the
// hardware-less 32-bit remainder (a data-dependent, divergent loop of u32 % u32).
extern "C" __global__ void gcd_euclid_u32(const unsigned *a, const unsigned *b, unsigned *g, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i] | 1u, y = b[i];
  while (y != 0u) {
    const unsigned r = x % y;
    x = y;
    y = r;
  }
  g[i] = x;
}

// Gaussian kernel density estimate in 3-D: dens[q] = sum_j exp(-|q - p_j|^2 * inv2h2) over all
// data points, data tiled through shared memory (256 float4 points per tile), one query per thread.
#define KDE_TILE 256
extern "C" __global__ void kde_gauss3_tile(const float4 *query, const float4 *pts, float *dens, int nq, int np,
                                           float inv2h2) {
  __shared__ float4 tile[KDE_TILE];
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 me = query[q < nq ? q : 0];
  float acc = 0.0f;
  for (int j0 = 0; j0 < np; j0 += KDE_TILE) {
    for (int k = threadIdx.x; k < KDE_TILE; k += blockDim.x) tile[k] = pts[j0 + k];
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < KDE_TILE; ++k) {
      const float4 p = tile[k];
      const float dx = me.x - p.x, dy = me.y - p.y, dz = me.z - p.z;
      acc += expf(-(dx * dx + dy * dy + dz * dz) * inv2h2);
    }
    __syncthreads();
  }
  if (q < nq) dens[q] = acc;
}

// ---------------------------------------------------------------- latency-bound / small grids

// In-place Cholesky factorisation (A = L L^T, lower triangle) of `per_warp` consecutive 64x64
// SPD matrices per one-warp block: the lower triangle of the input plus 64 on the diagonal is
// loaded into padded shared memory, then a right-looking column loop (sqrt, column scale,
// trailing update) with lane l owning rows l and l + 32; L is written back.
#define CH_N 64
extern "C" __global__ void cholesky64_warp(const float *A, float *L, int per_warp) {
  __shared__ float a[CH_N][CH_N + 1];
  const int lane = threadIdx.x;
  for (int m = 0; m < per_warp; ++m) {
    const long base = ((long)blockIdx.x * per_warp + m) * CH_N * CH_N;
    for (int i = 0; i < CH_N; ++i) {
      for (int j = lane; j < CH_N; j += 32) {
        const float v = A[base + (long)(i >= j ? i : j) * CH_N + (i >= j ? j : i)];
        a[i][j] = v + (i == j ? (float)CH_N : 0.0f);
      }
    }
    __syncwarp();
    for (int k = 0; k < CH_N; ++k) {
      const float d = sqrtf(a[k][k]);
      const float inv = 1.0f / d;
      __syncwarp();
      for (int i = lane; i < CH_N; i += 32) {
        if (i > k) a[i][k] *= inv;
        else if (i == k) a[k][k] = d;
      }
      __syncwarp();
      for (int i = lane; i < CH_N; i += 32) {
        if (i <= k) continue;
        const float lik = a[i][k];
        for (int j = k + 1; j <= i; ++j) a[i][j] -= lik * a[j][k];
      }
      __syncwarp();
    }
    for (int i = 0; i < CH_N; ++i)
      for (int j = lane; j < CH_N; j += 32) L[base + (long)i * CH_N + j] = j <= i ? a[i][j] : 0.0f;
    __syncwarp();
  }
}

// Explicit heat equation on a 32x32 plate held in shared memory, one persistent 256-thread block
// per plate running `steps` Jacobi-style time steps (fixed boundary, 4 points per thread, two
// shared buffers and one barrier per step); the final plate is written out.
#define HP_N 32
extern "C" __global__ void heat_plate_persistent(const float *init, float *out, int steps, float alpha) {
  __shared__ float u[2][HP_N][HP_N];
  const int t = threadIdx.x;
  const float *src = init + (long)blockIdx.x * HP_N * HP_N;
  for (int k = t; k < HP_N * HP_N; k += blockDim.x) u[0][k / HP_N][k % HP_N] = src[k];
  __syncthreads();
  int cur = 0;
  for (int s = 0; s < steps; ++s) {
    for (int k = t; k < HP_N * HP_N; k += blockDim.x) {
      const int y = k / HP_N, x = k % HP_N;
      float v = u[cur][y][x];
      if (x > 0 && y > 0 && x < HP_N - 1 && y < HP_N - 1)
        v += alpha * (u[cur][y - 1][x] + u[cur][y + 1][x] + u[cur][y][x - 1] + u[cur][y][x + 1] - 4.0f * v);
      u[cur ^ 1][y][x] = v;
    }
    cur ^= 1;
    __syncthreads();
  }
  float *dst = out + (long)blockIdx.x * HP_N * HP_N;
  for (int k = t; k < HP_N * HP_N; k += blockDim.x) dst[k] = u[cur][k / HP_N][k % HP_N];
}

// Random-forest inference with complete trees of depth `depth` stored level by level (node n has
// children 2n+1, 2n+2; feature index masked to nfeat - 1, threshold f32), leaves in a separate
// array; one sample (a row of nfeat floats) per thread, summing the leaf values of all trees.
extern "C" __global__ void forest_infer_complete(const float *x, const unsigned *feat, const float *thr,
                                                 const float *leaf, float *out, int nsamples, int nfeat, int ntrees,
                                                 int depth) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nsamples) return;
  const float *row = x + (long)s * nfeat;
  const int inner = (1 << depth) - 1;
  float acc = 0.0f;
  for (int t = 0; t < ntrees; ++t) {
    const unsigned *tf = feat + (long)t * inner;
    const float *tt = thr + (long)t * inner;
    int n = 0;
    for (int d = 0; d < depth; ++d) {
      const unsigned f = tf[n] & (unsigned)(nfeat - 1);
      n = 2 * n + 1 + (row[f] > tt[n] ? 1 : 0);
    }
    acc += leaf[(long)t * (inner + 1) + (n - inner)];
  }
  out[s] = acc;
}
