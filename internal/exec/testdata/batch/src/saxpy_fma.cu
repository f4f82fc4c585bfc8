// y[i] = fmaf(a, x[i], y[i]); x is const __restrict__ (ld.global.nc)
#include "batch.h"
KERNEL(saxpy_fma, u32 n, float a, const float *__restrict__ x,
       float *__restrict__ y) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaf(a, x[i], y[i]);
}
