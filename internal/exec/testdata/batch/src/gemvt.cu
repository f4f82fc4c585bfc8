// column-major matrix-vector product: a uniform loop, loads contiguous
// across lanes
#include "batch.h"
KERNEL(gemvt, const float *A, const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += A[j * m + i] * x[j];
    y[i] = s;
  }
}
