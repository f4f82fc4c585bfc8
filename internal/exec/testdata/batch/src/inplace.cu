// in-place update a[i] = a[i]*2+1 (int) and b[i] = b[i]*2+1 (float)
#include "batch.h"
KERNEL(inplace, u32 n, int *a, float *b) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = a[i] * 2 + 1;
    b[i] = b[i] * 2.0f + 1.0f;
  }
}
