// 64-bit index math (size_t), 64-bit bound
#include "batch.h"
KERNEL(index64, size_t n, const u64 *in, u64 *out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 0x100000001b3ull + (i << 40) - (in[n - 1 - i] >> 3);
}
