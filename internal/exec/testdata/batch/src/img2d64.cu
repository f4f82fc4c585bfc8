// 2-D indexing of f64: out[y*w+x] from a 2-D grid of 2-D blocks
#include "batch.h"
KERNEL(img2d64, u32 w, u32 h, const double *in, double *out) {
  u32 x = blockIdx.x * blockDim.x + threadIdx.x;
  u32 y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    u32 i = y * w + x;
    out[i] = in[i] * 3.0 + (double)x - (double)y;
  }
}
