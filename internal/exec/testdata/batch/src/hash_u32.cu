// integer mixing: xor, shifts, mul.lo, rotate
#include "batch.h"
KERNEL(hash_u32, u32 n, u32 seed, const u32 *in, u32 *out) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    u32 h = in[i] ^ seed ^ (i * 0x9e3779b9u);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    h = (h << 7) | (h >> 25);
    h += (h & 0xff) - (h | 0x1234);
    out[i] = h;
  }
}
