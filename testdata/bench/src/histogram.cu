// histogram.cu: atomics, a 256-bin histogram of u32 keys with one global
// atomic add per key (grid-stride loop, uniformly spread keys).
#include "bench.h"

KERNEL(histogram256, const u32 *keys, u32 *bins, u32 n) {
  u32 stride = gridDim.x * blockDim.x;
  for (u32 k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride)
    atomic_add(&bins[keys[k] & 255u], 1u);
}

#ifdef BENCH_HOST
BENCH(histogram, "atomics")(Bench &b, bool small) {
  u32 n = small ? 1u << 14 : 1u << 22;
  auto keys = b.buffer<u32>("keys", n, rand_u32(9));
  auto bins = b.buffer<u32>("bins", 256, zero_init(), Check::Exact);
  b.label = "n=" + std::to_string(n);
  b.bytes = 4.0 * n;
  b.launch<histogram256>(dim3(small ? 16 : 256), dim3(256), keys, bins, n);
}
#endif
