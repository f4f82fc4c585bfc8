// bitonic_sort: sorts 256 keys per block in shared memory with a bitonic
// network (nested loops with a barrier after every step), carrying a
// payload; keys compared as unsigned, ties broken by the payload.
#include "diff.h"

#define NS 256

__global__ void bitonic_sort(const u32 *keys, u32 *out_keys, int *out_idx) {
  __shared__ u32 k[NS];
  __shared__ int v[NS];
  int t = threadIdx.x;
  int base = blockIdx.x * NS;
  k[t] = keys[base + t];
  v[t] = t;
  __syncthreads();
  for (int size = 2; size <= NS; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      int p = t ^ stride;
      if (p > t) {
        bool up = (t & size) == 0;
        u32 ka = k[t], kb = k[p];
        int va = v[t], vb = v[p];
        bool gt = ka > kb || (ka == kb && va > vb);
        if (gt == up) {
          k[t] = kb; k[p] = ka;
          v[t] = vb; v[p] = va;
        }
      }
      __syncthreads();
    }
  }
  out_keys[base + t] = k[t];
  out_idx[base + t] = v[t];
}

#ifdef DIFF_HOST
DIFF_CASE(bitonic_sort) {
  int nb = 3;
  u32 *keys = c.in<u32>("keys", nb * NS, [&](size_t i) {
    return i % 4 == 0 ? (u32)c.rng.i32(0, 20) : c.rng.u32v(); // duplicates
  });
  u32 *ok = c.out<u32>("out_keys", nb * NS);
  int *oi = c.out<int>("out_idx", nb * NS);
  c.launch({(unsigned)nb, 1, 1}, {NS, 1, 1}, bitonic_sort, keys, ok, oi);
}
#endif
