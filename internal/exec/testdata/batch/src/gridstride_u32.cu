// grid-stride loop over u32
#include "batch.h"
KERNEL(gridstride_u32, u32 n, const u32 *in, u32 *out) {
  for (u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = (in[i] ^ (i * 2654435761u)) + (in[i] >> 3);
}
