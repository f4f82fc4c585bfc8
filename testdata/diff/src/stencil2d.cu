// stencil2d: a 5-point Jacobi step on a 2D grid with a (16+2)x(16+2)
// shared tile: interior cells loaded by every thread, halo rows and
// columns by the edge threads, clamped boundaries, then two iterations in
// one launch (barriers between them, the tile updated in place).
#include "diff.h"

#define B2 16

__global__ void stencil2d(const float *in, float *out, int w, int h, float alpha) {
  __shared__ float t[B2 + 2][B2 + 2];
  __shared__ float u[B2][B2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * B2 + tx, y = blockIdx.y * B2 + ty;
  int cx = imin(x, w - 1), cy = imin(y, h - 1);
  t[ty + 1][tx + 1] = in[cy * w + cx];
  if (tx == 0) t[ty + 1][0] = in[cy * w + imax(cx - 1, 0)];
  if (tx == B2 - 1) t[ty + 1][B2 + 1] = in[cy * w + imin(cx + 1, w - 1)];
  if (ty == 0) t[0][tx + 1] = in[imax(cy - 1, 0) * w + cx];
  if (ty == B2 - 1) t[B2 + 1][tx + 1] = in[imin(cy + 1, h - 1) * w + cx];
  __syncthreads();
  for (int it = 0; it < 2; it++) {
    float c = t[ty + 1][tx + 1];
    float lap = t[ty + 1][tx] + t[ty + 1][tx + 2] + t[ty][tx + 1] + t[ty + 2][tx + 1] - 4.0f * c;
    u[ty][tx] = c + alpha * lap;
    __syncthreads();
    t[ty + 1][tx + 1] = u[ty][tx];
    __syncthreads();
  }
  if (x < w && y < h) out[y * w + x] = t[ty + 1][tx + 1];
}

#ifdef DIFF_HOST
DIFF_CASE(stencil2d) {
  int w = 50, h = 37;
  float *in = c.in<float>("in", w * h, [&](size_t) { return c.rng.f32(0, 100); });
  float *out = c.out<float>("out", w * h);
  c.launch({4, 3, 1}, {B2, B2, 1}, stencil2d, in, out, w, h, 0.2f);
}
#endif
