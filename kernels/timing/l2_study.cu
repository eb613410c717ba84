// Session 21 L2 capacity study (not in the fit, not held out: it measures one device figure, the
// capacity the L2 capacity rule of model/DramSectorModel.h works with). Uniform random 4-byte
// gathers from tables of 8 to 128 MiB with nothing else in flight, and gathers from a hot table
// between a 256 MiB stream (as CSR SpMV reads its vector between the values and column indices).
// Indices come from a hash, not from memory: the only other traffic is one store per thread.

__device__ __forceinline__ unsigned l2s_mix(unsigned h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

// `per` gathers per thread from x[0 .. len).
extern "C" __global__ void l2s_gather(const float *x, float *out, unsigned len, unsigned per, unsigned seed) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h = l2s_mix(i ^ seed);
  float acc = 0.f;
  for (unsigned k = 0; k < per; ++k) {
    h = l2s_mix(h + k);
    acc += x[h % len];
  }
  out[i] = acc;
}

// `per` rounds of one float4 of the stream s (a warp: 4 lines, read once) and one gather from
// x[0 .. len).
extern "C" __global__ void l2s_hot_stream(const float4 *s, const float *x, float *out, unsigned len, unsigned per,
                                          unsigned seed) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned threads = gridDim.x * blockDim.x;
  unsigned h = l2s_mix(i ^ seed);
  float acc = 0.f;
  for (unsigned k = 0; k < per; ++k) {
    float4 v = s[(unsigned long long)k * threads + i];
    h = l2s_mix(h + k);
    acc += v.x + v.y + v.z + v.w + x[h % len];
  }
  out[i] = acc;
}
