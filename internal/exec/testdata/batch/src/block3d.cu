// 3-D block and grid: every thread writes its coordinates, packed
#include "batch.h"
KERNEL(block3d, u32 *out) {
  u32 bx = blockDim.x, by = blockDim.y, bz = blockDim.z;
  u32 cta = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  u32 t = (threadIdx.z * by + threadIdx.y) * bx + threadIdx.x;
  u32 g = cta * (bx * by * bz) + t;
  out[g] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16 |
           (blockIdx.x + blockIdx.y + blockIdx.z) << 24;
}
