// Session 22 shared-atomic study (not in the fit, not held out: it measures how long an ATOMS
// takes on the SM's shared-memory path when lanes of a warp, or warps of a block, hit the same
// word). Every thread keeps eight word indices in registers and adds to them `iters` times, so
// the loop is eight ATOMS and a compare-and-branch per eight: the shared path, not issue, bounds it.
//
// Word index of slot j (a warp's base keeps warps apart unless `share`):
//   nbins == 0: base + (lane / mult) * stride      (mult lanes per word; stride 32: one bank)
//   nbins  > 0: base + hash(seed, thread, j) % nbins (random bins, as a histogram or k-means)

__device__ __forceinline__ unsigned as_mix(unsigned h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

template <bool kInc>
__device__ __forceinline__ void as_body(unsigned *out, unsigned iters, unsigned mult, unsigned stride, unsigned nbins,
                                        unsigned share, unsigned seed) {
  __shared__ unsigned s[8192];
  for (unsigned i = threadIdx.x; i < 8192; i += blockDim.x) s[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned base = share ? 0u : warp * 1024u;
  unsigned a[8];
#pragma unroll
  for (int j = 0; j < 8; ++j)
    a[j] = base + (nbins == 0 ? (lane / mult) * stride : as_mix(seed ^ (threadIdx.x * 8u + j)) % nbins);
  const unsigned v = threadIdx.x | 1u;
  for (unsigned it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      if (kInc)
        atomicAdd(&s[a[j] & 8191u], 1u);
      else
        atomicAdd(&s[a[j] & 8191u], v);
    }
  }
  __syncthreads();
  unsigned acc = 0;
  for (unsigned i = threadIdx.x; i < 8192; i += blockDim.x) acc += s[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// atomicAdd(&s[w], v) with v not a constant: ATOMS.ADD.
extern "C" __global__ void atoms_add(unsigned *out, unsigned iters, unsigned mult, unsigned stride, unsigned nbins,
                                     unsigned share, unsigned seed) {
  as_body<false>(out, iters, mult, stride, nbins, share, seed);
}

// atomicAdd(&s[w], 1): ptxas' ATOMS.POPC.INC (one increment by the count of lanes per word).
extern "C" __global__ void atoms_inc(unsigned *out, unsigned iters, unsigned mult, unsigned stride, unsigned nbins,
                                     unsigned share, unsigned seed) {
  as_body<true>(out, iters, mult, stride, nbins, share, seed);
}
