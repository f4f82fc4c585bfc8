// intdiv.cu: alu-int: u32 remainder and quotient by runtime divisors in a per-thread recurrence (rem.u32, div.u32).
#include "bench.h"
KERNEL(intdiv, u32 *out, u32 rounds, u32 m, u32 d) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  u32 x = i * 2654435761u + 12345u, acc = 0;
  for (u32 r = 0; r < rounds; r++) {
    acc += x % m + x / d;
    x = x * 1103515245u + 12345u + (acc >> 3);
  }
  out[i] = acc;
}
#ifdef BENCH_HOST
BENCH(intdiv, "alu-int")(Bench &b, bool small) {
  u32 n = small ? 4096 : 65536;
  auto o = b.buffer<u32>("out", n, zero_init(), Check::Exact);
  b.label = std::to_string(n) + " threads x " + std::to_string(small ? 16u : 64u) + " rounds";
  b.launch<intdiv>(dim3(n / 256), dim3(256), o, small ? 16u : 64u, 1000003u, 977u);
}
#endif
