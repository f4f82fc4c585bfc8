// a tiled matrix product: shared tiles, barriers in a loop over the tiles
// (every thread of a CTA runs the same number of iterations)
#include "batch.h"
#define T 8
KERNEL(tiled, const float *A, const float *B, float *C, u32 n) {
  __attribute__((shared)) float As[T][T];
  __attribute__((shared)) float Bs[T][T];
  u32 tx = threadIdx.x, ty = threadIdx.y;
  u32 row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float s = 0.0f;
  for (u32 t = 0; t < n / T; t++) {
    As[ty][tx] = A[row * n + t * T + tx];
    Bs[ty][tx] = B[(t * T + ty) * n + col];
    __syncthreads();
    for (u32 k = 0; k < T; k++) s = fmaf(As[ty][k], Bs[k][tx], s);
    __syncthreads();
  }
  C[row * n + col] = s;
}
