// float compare and select: fmaxf, fminf, x > 0 ? x : 0, x > y ? x - y : y/2
#include "batch.h"
KERNEL(relu_max, u32 n, const float *a, const float *b, float *out,
       float *sel) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = a[i], y = b[i];
    float r = x > 0.0f ? x : 0.0f;
    out[i] = fmaxf(x, y) + r - fminf(y, 1.5f);
    sel[i] = x > y ? x - y : y * 0.5f;
  }
}
