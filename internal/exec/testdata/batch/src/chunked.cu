// each CTA (of 256 threads) reads its own 1024-word chunk, four words a
// thread a block apart, and writes its 256 sums into its own 512-word
// chunk: accesses consecutive within a CTA, the CTAs apart
#include "batch.h"
KERNEL(chunked, const u32 *in, u32 *out) {
  const u32 *p = in + blockIdx.x * 1024 + threadIdx.x;
  u32 s = p[0] + p[256] * 3 + p[512] * 5 + p[768] * 7;
  out[blockIdx.x * 512 + threadIdx.x] = s;
}
