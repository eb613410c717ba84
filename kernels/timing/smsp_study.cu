// Session 14 sub-partition study (not in the fit): does a warp's place in its block fix the SM
// sub-partition it runs on (warp slot mod 4, the rule of session 12), so that blocks whose warp 0
// always does the most work load one sub-partition? Every block has 4 warps (or 8); warp w runs
// `heavy` rounds of 8 independent FMA chains when w mod 4 == hot, else `light` rounds. `hot` is 0
// (every block's heavy warp at the same place), or the block's index mod 4 (rotating: even under
// the rule). Grids of 8448 blocks (64 per SM), 16 resident per SM: issue-bound.
extern "C" __global__ void smsp_skew(float *out, unsigned heavy, unsigned light, unsigned rotate) {
  const unsigned warp = threadIdx.x >> 5;
  const unsigned hot = rotate ? blockIdx.x & 3u : 0u;
  const unsigned rounds = (warp & 3u) == hot ? heavy : light;
  float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6,
        a7 = a0 + 7;
  const float m = 0.999f, c = 0.001f;
  for (unsigned r = 0; r < rounds; ++r) {
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      a0 = a0 * m + c, a1 = a1 * m + c, a2 = a2 * m + c, a3 = a3 * m + c;
      a4 = a4 * m + c, a5 = a5 * m + c, a6 = a6 * m + c, a7 = a7 * m + c;
    }
  }
  const float s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
  if (s == -1.0f) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// The same work as smsp_skew, and each warp's lane 0 records where it ran: block, warp in block,
// %smid, %warpid (its warp slot on the SM) and the SM clock at its start and end (6 words per warp).
extern "C" __global__ void smsp_map(unsigned *rec, unsigned heavy, unsigned light, unsigned rotate) {
  unsigned t0, smid, wslot;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t0));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(wslot));
  const unsigned warp = threadIdx.x >> 5;
  const unsigned hot = rotate ? blockIdx.x & 3u : 0u;
  const unsigned rounds = (warp & 3u) == hot ? heavy : light;
  float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6,
        a7 = a0 + 7;
  const float m = 0.999f, c = 0.001f;
  for (unsigned r = 0; r < rounds; ++r) {
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      a0 = a0 * m + c, a1 = a1 * m + c, a2 = a2 * m + c, a3 = a3 * m + c;
      a4 = a4 * m + c, a5 = a5 * m + c, a6 = a6 * m + c, a7 = a7 * m + c;
    }
  }
  const float s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
  unsigned t1;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t1));
  if ((threadIdx.x & 31u) == 0) {
    unsigned *r = rec + 6ull * (blockIdx.x * (blockDim.x >> 5) + warp);
    r[0] = blockIdx.x, r[1] = warp, r[2] = smid, r[3] = wslot, r[4] = t0, r[5] = t1 + (s == -1.0f);
  }
}
