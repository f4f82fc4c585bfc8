// c[i] = a[i] + b[i] over f32
#include "batch.h"
KERNEL(vecadd_f32, u32 n, const float *a, const float *b, float *c) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
