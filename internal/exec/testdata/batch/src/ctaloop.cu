// a loop whose trip count differs between CTAs, alike within each
#include "batch.h"
KERNEL(ctaloop, u32 *out, u32 n) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  u32 acc = i;
  for (u32 j = 0; j < (blockIdx.x % 5) + n; j++) acc = acc * 1664525u + j;
  out[i] = acc;
}
