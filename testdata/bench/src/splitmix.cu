// splitmix.cu: alu-int: splitmix64 rounds per thread (u64 add, shift, xor, mul.lo).
#include "bench.h"
KERNEL(splitmix, u32 *out, u32 rounds) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  u64 s = i, acc = 0;
  for (u32 r = 0; r < rounds; r++) {
    s += 0x9E3779B97F4A7C15ull;
    u64 z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    acc ^= z ^ (z >> 31);
  }
  out[i] = (u32)acc ^ (u32)(acc >> 32);
}
#ifdef BENCH_HOST
BENCH(splitmix, "alu-int")(Bench &b, bool small) {
  u32 n = small ? 4096 : 65536;
  auto o = b.buffer<u32>("out", n, zero_init(), Check::Exact);
  b.label = std::to_string(n) + " threads x " + std::to_string(small ? 16u : 128u) + " rounds";
  b.launch<splitmix>(dim3(n / 256), dim3(256), o, small ? 16u : 128u);
}
#endif
