// A kernel that does not compile (suite isolation test): the error names this file, line 4 and
// the undeclared token.
extern "C" __global__ void brokenKernel(float *out) {
  out[threadIdx.x] = undeclaredThing;
}
