// 16-bit loads and stores, signed and unsigned
#include "batch.h"
KERNEL(shorts_u16, u32 n, const u16 *in, const short *sin, u16 *out) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = (int)sin[i] * 5 - (int)in[i];
    out[i] = (u16)(v >> 1);
  }
}
