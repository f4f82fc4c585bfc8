// scattered access: out[i*3] = in[(i*7) % n]
#include "batch.h"
KERNEL(scatter, u32 n, const u32 *in, u32 *out) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i * 3] = in[(i * 7) % n] + i;
}
