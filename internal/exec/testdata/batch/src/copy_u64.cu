// out[i] = in[i] over u64, guarded
#include "batch.h"
KERNEL(copy_u64, u32 n, const u64 *in, u64 *out) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
