/// \file
/// Modern corpus, cp.async with zero fill (issue 9, session 4): the src-size operand (fewer
/// source bytes than the copy size; the rest of the destination is written with zeros) and the
/// ignore-src predicate (nothing read, the whole destination zeroed), as predicated tile loaders
/// use them for ragged edges. Launch specs: modern2.json.
#include <cstdint>

extern "C" {

// One block sums in[0..n) (n need not be a multiple of 4): every thread copies 16-byte chunks of
// the segment into shared memory with cp.async.cg, giving src-size = the bytes left before n
// (16, 12, 8, 4 or 0), so the copy zero-fills the tail of the last chunk and every chunk past
// it. The shared buffer is first filled with NaNs, so a missing zero shows in the sum.
__global__ void zfillSum16(float *out, const float *in, int n) {
  __shared__ __align__(16) float s[1024];
  __shared__ float partial[8];
  int tid = threadIdx.x;
  for (int i = tid; i < 1024; i += blockDim.x) s[i] = __int_as_float(0x7fffffff);
  __syncthreads();
  for (int c = tid; c < 256; c += blockDim.x) {
    int first = 4 * c;
    int left = n - first;
    int bytes = left >= 4 ? 16 : left > 0 ? 4 * left : 0;
    const float *src = in + (bytes ? first : 0);
    unsigned dst = (unsigned)__cvta_generic_to_shared(&s[first]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(dst), "l"(src), "r"(bytes) : "memory");
  }
  asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  float v = 0.f;
  for (int i = tid; i < 1024; i += blockDim.x) v += s[i];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (tid % 32 == 0) partial[tid / 32] = v;
  __syncthreads();
  if (tid == 0) {
    float t = 0.f;
    for (int w = 0; w < (int)blockDim.x / 32; ++w) t += partial[w];
    out[0] = t;
  }
}

// Block b sums its segment in[b * seg .. b * seg + seg) through a shared window of 1024 floats:
// thread i copies element i with a 4-byte cp.async.ca whose ignore-src predicate is set for
// i >= seg (the window's tail becomes zeros without reading past the segment).
__global__ void zfillSumIgnoreSrc(float *out, const float *in, int seg) {
  __shared__ float s[1024];
  __shared__ float partial[32];
  int tid = threadIdx.x;
  const float *base = in + (size_t)blockIdx.x * seg;
  for (int i = tid; i < 1024; i += blockDim.x) s[i] = __int_as_float(0x7fffffff);
  __syncthreads();
  for (int i = tid; i < 1024; i += blockDim.x) {
    unsigned dst = (unsigned)__cvta_generic_to_shared(&s[i]);
    const float *src = base + (i < seg ? i : 0);
    int ignore = i >= seg;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %2, 0;\n\t"
                 "cp.async.ca.shared.global [%0], [%1], 4, p;\n\t}" :: "r"(dst), "l"(src), "r"(ignore) : "memory");
  }
  asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  float v = 0.f;
  for (int i = tid; i < 1024; i += blockDim.x) v += s[i];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (tid % 32 == 0) partial[tid / 32] = v;
  __syncthreads();
  if (tid == 0) {
    float t = 0.f;
    for (int w = 0; w < (int)blockDim.x / 32; ++w) t += partial[w];
    out[blockIdx.x] = t;
  }
}

} // extern "C"
