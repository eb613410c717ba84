// Session 13 store study (not in the fit): which partly written sectors does the L1 merge before
// the L2? st_sS_fF writes F of the S floats of a struct per thread, each with its own 4-byte store,
// back to back (the offset `off` is a kernel argument so the compiler cannot prove 8- or 16-byte
// alignment and keeps the stores scalar). Grid-stride, so a small grid runs few warps per SM.
// st16_sS_fF: the same with 2-byte stores of unsigned short (Bayer-like rows of 3 channels).
// st_sep_sS_fF: the F stores separated by a dependent multiply-add chain (the stores do not reach
// the L1 back to back).

#define ST_STRUCT(S, F)                                                                           \
  extern "C" __global__ void st_s##S##_f##F(float *out, unsigned n, unsigned off) {               \
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) { \
      float *p = out + (unsigned long long)i * S + off;                                           \
      _Pragma("unroll") for (int j = 0; j < F; ++j) p[j] = float(i + j);                          \
    }                                                                                             \
  }

ST_STRUCT(1, 1)
ST_STRUCT(2, 2)
ST_STRUCT(3, 3)
ST_STRUCT(4, 2)
ST_STRUCT(4, 4)
ST_STRUCT(5, 5)
ST_STRUCT(6, 6)
ST_STRUCT(7, 3)
ST_STRUCT(7, 7)
ST_STRUCT(8, 2)
ST_STRUCT(8, 4)
ST_STRUCT(8, 8)
ST_STRUCT(12, 12)
ST_STRUCT(16, 4)
ST_STRUCT(16, 16)

#define ST16_STRUCT(S, F)                                                                         \
  extern "C" __global__ void st16_s##S##_f##F(unsigned short *out, unsigned n, unsigned off) {    \
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) { \
      unsigned short *p = out + (unsigned long long)i * S + off;                                  \
      _Pragma("unroll") for (int j = 0; j < F; ++j) p[j] = (unsigned short)(i + j);               \
    }                                                                                             \
  }

ST16_STRUCT(3, 3)
ST16_STRUCT(2, 2)
ST16_STRUCT(4, 4)

#define ST_SEP(S, F)                                                                              \
  extern "C" __global__ void st_sep_s##S##_f##F(float *out, unsigned n, unsigned off, float a) {  \
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) { \
      float *p = out + (unsigned long long)i * S + off;                                           \
      float v = float(i);                                                                         \
      _Pragma("unroll") for (int j = 0; j < F; ++j) {                                             \
        _Pragma("unroll") for (int r = 0; r < 8; ++r) v = v * a + 1.0f;                           \
        p[j] = v;                                                                                 \
      }                                                                                           \
    }                                                                                             \
  }

ST_SEP(4, 4)
ST_SEP(3, 3)
