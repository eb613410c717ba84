// Session 13 store study 3 (not in the fit): what stops the L1 from merging a warp's consecutive
// partial-sector stores? Every kernel writes both floats of an 8-byte struct per thread (one store
// each; st_s2_f2 in store_study2.cu merges all of them), with one thing changed between or about
// the two stores. `off` (0) and `flag` (0) are kernel arguments so the compiler cannot fold them.

// Reference: the two stores back to back.
extern "C" __global__ void st3_plain(float *out, unsigned n, unsigned off, unsigned flag) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *p = out + (unsigned long long)i * 2 + off;
  p[0] = float(i);
  p[1] = float(i + 1);
}

// A branch between them (never taken: flag is 0); the trap keeps it between the stores.
extern "C" __global__ void st3_branch(float *out, unsigned n, unsigned off, unsigned flag) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *p = out + (unsigned long long)i * 2 + off;
  p[0] = float(i);
  if (flag == 7) __trap();
  p[1] = float(i + 1);
}

// The second store through another base register (q = p + flag + 1, flag = 0).
extern "C" __global__ void st3_twobase(float *out, unsigned n, unsigned off, unsigned flag) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *p = out + (unsigned long long)i * 2 + off;
  float *q = out + (unsigned long long)i * 2 + off + flag + 1;
  p[0] = float(i);
  q[0] = float(i + 1);
}

// The second field first.
extern "C" __global__ void st3_reverse(float *out, unsigned n, unsigned off, unsigned flag) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *p = out + (unsigned long long)i * 2 + off;
  p[1] = float(i + 1);
  p[0] = float(i);
}

// __syncwarp() between them.
extern "C" __global__ void st3_syncwarp(float *out, unsigned n, unsigned off, unsigned flag) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *p = out + (unsigned long long)i * 2 + off;
  p[0] = float(i);
  __syncwarp();
  p[1] = float(i + 1);
}

// A global load of another array between them.
extern "C" __global__ void st3_load(float *out, const float *in, unsigned n, unsigned off, unsigned flag) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *p = out + (unsigned long long)i * 2 + off;
  p[0] = float(i);
  float v = in[i];
  p[1] = v;
}

// A second, unrelated store (a coalesced array) between them.
extern "C" __global__ void st3_other(float *out, float *other, unsigned n, unsigned off, unsigned flag) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *p = out + (unsigned long long)i * 2 + off;
  p[0] = float(i);
  other[i] = 1.0f;
  p[1] = float(i + 1);
}

// A global load between them whose value neither store needs (written to another array after).
extern "C" __global__ void st3_loadfree(float *out, const float *in, float *other, unsigned n, unsigned off,
                                        unsigned flag) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *p = out + (unsigned long long)i * 2 + off;
  p[0] = float(i);
  float v = in[i];
  p[1] = float(i + 1);
  other[i] = v;
}
