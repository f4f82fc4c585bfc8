// hash.cu: ALU-bound integer work, converged: every thread mixes its index
// through the same number of rounds of a 32-bit hash (murmur3-style
// finaliser plus a rotate-accumulate), so a warp never diverges.
#include "bench.h"

KERNEL(hash_mix, u32 *out, u32 rounds, u32 seed) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  u32 x = i ^ seed;
  u32 y = i * 0x9e3779b9u;
  for (u32 r = 0; r < rounds; r++) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    y += x;
    y = (y << 7) | (y >> 25);
  }
  out[i] = x ^ y;
}

#ifdef BENCH_HOST
BENCH(hash, "alu-int")(Bench &b, bool small) {
  u32 threads = small ? 4096 : 65536, rounds = small ? 64 : 192;
  auto out = b.buffer<u32>("out", threads, zero_init(), Check::Exact);
  b.label = std::to_string(threads) + " threads x " + std::to_string(rounds) + " rounds";
  b.launch<hash_mix>(dim3(threads / 256), dim3(256), out, rounds, 0x1234567u);
}
#endif
