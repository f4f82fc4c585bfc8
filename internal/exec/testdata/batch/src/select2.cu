// lanes choosing between two buffers: odd threads read b, even ones a,
// and write to one of two outputs by another rule
#include "batch.h"
KERNEL(select2, u32 n, const u32 *a, const u32 *b, u32 *o1, u32 *o2) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const u32 *p = (i & 1) ? b : a;
    u32 *o = (i % 3 == 0) ? o1 : o2;
    o[i] = p[i] * 3u + i;
  }
}
