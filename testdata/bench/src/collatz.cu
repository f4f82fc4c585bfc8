// collatz.cu: divergent control flow: each thread counts the Collatz steps
// of its own random start value, so the lanes of a warp run loops of very
// different trip counts and take different sides of the odd/even branch.
#include "bench.h"

KERNEL(collatz, const u32 *start, u32 *steps, u32 n) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  u64 x = start[i];
  u32 s = 0;
  while (x != 1) {
    if (x & 1)
      x = 3 * x + 1;
    else
      x >>= 1;
    s++;
  }
  steps[i] = s;
}

#ifdef BENCH_HOST
BENCH(collatz, "divergent")(Bench &b, bool small) {
  u32 n = small ? 4096 : 1u << 16;
  auto start = b.buffer<u32>("start", n, rand_u32(10, 1u << 20, 1));
  auto steps = b.buffer<u32>("steps", n, zero_init(), Check::Exact);
  b.label = "n=" + std::to_string(n);
  b.launch<collatz>(dim3(n / 256), dim3(256), start, steps, n);
}
#endif
