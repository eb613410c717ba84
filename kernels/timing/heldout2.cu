// Second held-out set for the time model (issue 12), written in session 5 AFTER the session-5
// model was committed (601eb35) and before any prediction of these kernels was looked at: a check
// that the model's rules carry to kernels nobody tuned it on. Never used in the fit. Launches in
// heldout2.json: memory-bound (vector add, strided gather, 7-point stencil, grid-stride warp
// reduction), shared-bound (tile row sums through a conflicting shared tile), compute-bound (FMA
// chains) and latency-bound (pointer chasing with few warps).

// c = a + b, four floats per thread (streaming, DRAM-bound).
extern "C" __global__ void vadd4(const float4 *a, const float4 *b, float4 *c, unsigned n4) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  float4 x = a[i], y = b[i];
  c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
}

// out[i] = in[(i * stride) % n]: one float per `stride` floats (wasted sectors).
extern "C" __global__ void gather_stride(const float *in, float *out, unsigned n, unsigned stride) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = in[(unsigned long long)i * stride % n];
}

// 7-point stencil on an nx x ny x nz grid, one point per thread.
extern "C" __global__ void stencil7(const float *in, float *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
  long i = ((long)z * ny + y) * nx + x;
  long sxy = (long)nx * ny;
  out[i] = 0.4f * in[i] + 0.1f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - sxy] + in[i + sxy]);
}

// Grid-stride sum: shuffle reduction per warp, one atomicAdd per warp.
extern "C" __global__ void reduce_warp_atomic(const float *in, float *out, unsigned n) {
  float s = 0.0f;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, s);
}

// Each 32x32 tile: thread (tx, ty) sums row tx of the tile (stride-32 shared reads: 32-way
// conflicts), rows loaded coalesced; `reps` passes over the tile.
extern "C" __global__ void tile_rowsum_conflict(const float *in, float *out, int reps) {
  __shared__ float t[32][32];
  const float *tile = in + (long)blockIdx.x * 1024;
  for (int r = threadIdx.y; r < 32; r += blockDim.y) t[r][threadIdx.x] = tile[r * 32 + threadIdx.x];
  __syncthreads();
  float s = 0.0f;
  for (int k = 0; k < reps; ++k)
    for (int c = threadIdx.y; c < 32; c += blockDim.y) s += t[threadIdx.x][(c + k) & 31];
  out[(long)blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * 32 + threadIdx.x] = s;
}

// Four independent FMA chains of `iters` steps per thread (FMA-pipe bound).
extern "C" __global__ void fma_chains(const float *in, float *out, unsigned n, int iters) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = in[i] * 1e-6f, b = a + 0.25f, c = a + 0.5f, d = a + 0.75f;
  for (int k = 0; k < iters; ++k) {
    a = a * 0.999f + 0.001f;
    b = b * 0.998f + 0.002f;
    c = c * 0.997f + 0.003f;
    d = d * 0.996f + 0.004f;
  }
  out[i] = a + b + c + d;
}

// Pointer chasing: thread t starts at t and follows next[] for `steps` dependent loads.
extern "C" __global__ void chase_threads(const unsigned *next, unsigned *out, int steps) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned p = t;
  for (int k = 0; k < steps; ++k) p = next[p];
  out[t] = p;
}
