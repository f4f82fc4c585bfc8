// out[i] = in[i] over u32, guarded
#include "batch.h"
KERNEL(copy_u32, u32 n, const u32 *in, u32 *out) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
