// histshared.cu: atomics: a 256-bin histogram privatized in shared memory (shared atomic adds in a grid-stride loop), then one global atomic add per bin and block.
#include "bench.h"
BLOCK_KERNEL(hist_shared, const u32 *keys, u32 *bins, u32 n) {
  SHARED(u32, h, [256]);
  PHASE h[threadIdx.x] = 0; END_PHASE
  SYNC;
  PHASE
    u32 stride = gridDim.x * blockDim.x;
    for (u32 k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride)
      atomic_add(&h[keys[k] & 255u], 1u);
  END_PHASE
  SYNC;
  PHASE atomic_add(&bins[threadIdx.x], h[threadIdx.x]); END_PHASE
}
#ifdef BENCH_HOST
BENCH(histshared, "atomics")(Bench &b, bool small) {
  u32 n = small ? 1u << 14 : 1u << 22;
  auto keys = b.buffer<u32>("keys", n, rand_u32(9));
  auto bins = b.buffer<u32>("bins", 256, zero_init(), Check::Exact);
  b.label = "n=" + std::to_string(n);
  b.bytes = 4.0 * n;
  b.launch<hist_shared>(dim3(small ? 16 : 64), dim3(256), keys, bins, n);
}
#endif
