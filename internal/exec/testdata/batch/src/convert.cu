// conversions: f32 -> s32, s32 -> f32, u32 -> f64, f64 -> f32, division
#include "batch.h"
KERNEL(convert, u32 n, const float *x, const int *k, int *oi, float *of,
       double *od) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    oi[i] = (int)(x[i] * 100.0f);
    of[i] = (float)k[i] / 3.0f + (float)(double)x[i];
    od[i] = (double)i * 0.5 + (double)k[i];
  }
}
