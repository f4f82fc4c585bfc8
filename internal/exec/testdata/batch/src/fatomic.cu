// f32 atomics on a few addresses (the order of the adds decides the
// bits: batches keep the warp engine's), after a bounds guard; the
// non-finite inputs are left out (they would make every sum Inf or NaN,
// whatever the order)
#include "batch.h"
KERNEL(fatomic, const float *x, float *sums, u32 n, u32 m) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i] * 0.3f;
  if (!(v - v == 0.0f)) return;
  atomicAdd(&sums[i % m], v);
}
