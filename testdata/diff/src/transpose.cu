// transpose: tiled matrix transpose through a padded 32x33 shared tile,
// with 32x8 blocks each moving a 32x32 tile (4 rows per thread) and a
// matrix whose sides are not multiples of 32; 64-bit elements.
#include "diff.h"

#define TD 32
#define ROWS 8

__global__ void transpose(const double *in, double *out, int w, int h) {
  __shared__ double tile[TD][TD + 1];
  int x = blockIdx.x * TD + threadIdx.x;
  int y = blockIdx.y * TD + threadIdx.y;
  for (int j = 0; j < TD; j += ROWS)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TD + threadIdx.x;
  y = blockIdx.x * TD + threadIdx.y;
  for (int j = 0; j < TD; j += ROWS)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

#ifdef DIFF_HOST
DIFF_CASE(transpose) {
  int w = 75, h = 41;
  double *in = c.in<double>("in", w * h, [&](size_t) { return c.rng.f64(-1e6, 1e6); });
  double *out = c.out<double>("out", w * h);
  c.launch({(unsigned)(w + TD - 1) / TD, (unsigned)(h + TD - 1) / TD, 1}, {TD, ROWS, 1},
           transpose, in, out, w, h);
}
#endif
