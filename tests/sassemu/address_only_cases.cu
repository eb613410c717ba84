// Kernels whose address arithmetic once broke the address-only slice (Slice.cpp); run by
// tests/sassemu/address_only.sh in both modes. tilefill (session 20): ptxas divides by 70 with
// "IMAD.MOV.U32 R3, RZ, RZ, R0; IMAD.HI R2, R0, -0x15f15f15, R2", whose addend is the pair R2:R3;
// the slice read R2 only, dropped the MOV and counted 2576 LDG sectors where full execution counts 3104.
extern "C" __global__ void tilefill(const unsigned char *in, unsigned char *out, int w) {
  __shared__ unsigned char t[38 * 70];
  for (int i = threadIdx.x + threadIdx.y * blockDim.x; i < 38 * 70; i += blockDim.x * blockDim.y) {
    const int r = i / 70, c = i % 70;
    t[i] = in[(blockIdx.y * 32 + r) * w + blockIdx.x * 64 + c];
  }
  __syncthreads();
  out[(blockIdx.y * 32 + threadIdx.y) * w + blockIdx.x * 64 + threadIdx.x] = t[(threadIdx.y + 3) * 70 + threadIdx.x + 3];
}

// Three-input min/max (session 20: VIMNMX3, which the engine lacked) in the address: a clamp of a
// gathered index, max(max(i, j), k) and min(min(...)).
extern "C" __global__ void clamp3(const int *idx, const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int a = idx[i], b = idx[i + 1], c = idx[i + 2];
  const int hi = max(max(a, b), c), lo = min(min(a, b), c);
  out[i] = in[hi & 4095] + in[lo & 4095];
}
