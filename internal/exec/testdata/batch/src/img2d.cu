// 2-D indexing: out[y*w+x] from a 2-D grid of 2-D blocks
#include "batch.h"
KERNEL(img2d, u32 w, u32 h, const float *in, float *out) {
  u32 x = blockIdx.x * blockDim.x + threadIdx.x;
  u32 y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    u32 i = y * w + x;
    out[i] = in[i] * 3.0f + (float)x - (float)y;
  }
}
