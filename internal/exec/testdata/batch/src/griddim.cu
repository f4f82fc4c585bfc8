// %nctaid: each thread writes gridDim-derived values
#include "batch.h"
KERNEL(griddim, u32 *out) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  u32 total = gridDim.x * blockDim.x;
  out[i] = total - i + gridDim.x * 65536u + gridDim.y;
}
