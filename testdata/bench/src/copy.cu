// copy.cu: memory-bound, out[i] = in[i] over u32.
#include "bench.h"

KERNEL(copy_u32, const u32 *in, u32 *out, u32 n) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

#ifdef BENCH_HOST
BENCH(copy, "memory")(Bench &b, bool small) {
  u32 n = small ? 1u << 14 : 1u << 22;
  auto in = b.buffer<u32>("in", n, rand_u32(3));
  auto out = b.buffer<u32>("out", n, zero_init(), Check::Exact);
  b.label = "n=" + std::to_string(n);
  b.bytes = 8.0 * n;
  b.launch<copy_u32>(dim3(n / 256), dim3(256), in, out, n);
}
#endif
