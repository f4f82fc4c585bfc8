// the canonical reduction: a grid-stride loop accumulating per thread (its
// lanes leave it for the code after it, not for the exit), a warp shuffle
// tree, one atomic add per warp
#include "batch.h"
DEVFN u32 shfl_down(u32 v, u32 d) { return (u32)__nvvm_shfl_sync_down_i32(0xffffffffu, (int)v, (int)d, 31); }
KERNEL(gsreduce, const u32 *in, u32 *total, u32 n) {
  u32 stride = gridDim.x * blockDim.x;
  u32 s = 0;
  for (u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) s += in[i];
  for (u32 d = 16; d > 0; d >>= 1) s += shfl_down(s, d);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, s);
}
