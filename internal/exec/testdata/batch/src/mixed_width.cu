// mixed widths: u8 and u16 in, u32 and u64 out, signed chars
#include "batch.h"
KERNEL(mixed_width, u32 n, const signed char *c, const u16 *s, u32 *o32,
       u64 *o64) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = c[i];
    o32[i] = (u32)(v * (int)s[i]) ^ (i << 3);
    o64[i] = (u64)(s64)v << 33 | s[i];
  }
}
