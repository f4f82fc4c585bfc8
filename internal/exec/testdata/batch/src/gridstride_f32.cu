// grid-stride loop over f32: y[i] = x[i] * s + y[i]
#include "batch.h"
KERNEL(gridstride_f32, u32 n, float s, const float *x, float *y) {
  for (u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = x[i] * s + y[i];
}
