// 8-bit loads and stores
#include "batch.h"
KERNEL(bytes_u8, u32 n, const u8 *in, u8 *out) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (u8)(in[i] * 3 + (in[n - 1 - i] ^ 0x5a));
}
