// dyn_shared: dynamic shared memory (extern __shared__, size given at
// launch) used through two typed views: floats reversed within the block,
// and an int area after them used for a neighbour exchange.
#include "diff.h"

__global__ void dyn_shared(const float *in, float *out, int *iout, int n) {
  DYN_SHARED(float, smem);
  int t = threadIdx.x, nt = blockDim.x;
  int *ism = (int *)(smem + nt);
  int g = blockIdx.x * nt + t;
  smem[t] = g < n ? in[g] : -1.0f;
  ism[t] = g * 7 + 1;
  __syncthreads();
  if (g < n) {
    out[g] = smem[nt - 1 - t] * 2.0f;
    iout[g] = ism[(t + 1) % nt] - ism[t];
  }
}

#ifdef DIFF_HOST
DIFF_CASE(dyn_shared) {
  int n = 500, nt = 160;
  float *in = c.in<float>("in", n, [&](size_t) { return c.rng.f32(-5, 5); });
  float *out = c.out<float>("out", n);
  int *iout = c.out<int>("iout", n);
  c.launch_dyn({(unsigned)(n + nt - 1) / nt, 1, 1}, {(unsigned)nt, 1, 1}, nt * 8, dyn_shared, in,
               out, iout, n);
}
#endif
