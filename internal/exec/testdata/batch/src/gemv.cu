// row-per-thread matrix-vector product: a loop with the same trip count
// for every lane (unrolled by clang), a uniform load of x[j]
#include "batch.h"
KERNEL(gemv, const float *A, const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}
