// stencil1d: a radius-3 1D stencil with a shared-memory tile plus halo,
// halo cells loaded by the first threads, clamped boundaries, and a block
// size (96) that is not a multiple of the array length.
#include "diff.h"

#define R 3
#define BS 96

__global__ void stencil1d(const float *in, float *out, const float *w, int n) {
  __shared__ float tile[BS + 2 * R];
  int t = threadIdx.x;
  int g = blockIdx.x * BS + t;
  tile[t + R] = in[imin(g, n - 1)];
  if (t < R) {
    tile[t] = in[imax(g - R, 0)];
    tile[t + BS + R] = in[imin(g + BS, n - 1)];
  }
  __syncthreads();
  if (g < n) {
    float s = 0.0f;
    for (int k = -R; k <= R; k++) s += w[k + R] * tile[t + R + k];
    out[g] = s;
  }
}

#ifdef DIFF_HOST
DIFF_CASE(stencil1d) {
  int n = 1000;
  float *in = c.in<float>("in", n, [&](size_t) { return c.rng.f32(-10, 10); });
  float *out = c.out<float>("out", n);
  float *w = c.in<float>("w", 2 * R + 1, [&](size_t i) { return 0.1f * (float)(i + 1); });
  c.launch({(unsigned)(n + BS - 1) / BS, 1, 1}, {BS, 1, 1}, stencil1d, in, out, w, n);
}
#endif
