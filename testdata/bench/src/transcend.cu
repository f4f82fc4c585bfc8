// transcend.cu: ALU-bound f32 work dominated by the fast-math
// transcendentals (ex2.approx and sin.approx, what __expf-style intrinsics
// compile to): every thread iterates a damped oscillator-like recurrence.
#include "bench.h"

KERNEL(transcend, float *out, u32 rounds) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = (float)(i & 1023) * (1.0f / 1024.0f), acc = 0.0f;
  for (u32 r = 0; r < rounds; r++) {
    acc += ex2_approx(-x) * sin_approx(x * 6.0f + acc * 0.001f);
    x = x * 0.999f + 0.001f;
  }
  out[i] = acc;
}

#ifdef BENCH_HOST
BENCH(transcend, "alu-float")(Bench &b, bool small) {
  u32 threads = small ? 4096 : 65536, rounds = small ? 16 : 64;
  auto out = b.buffer<float>("out", threads, zero_init(), Check::Approx);
  b.label = std::to_string(threads) + " threads x " + std::to_string(rounds) + " rounds";
  b.launch<transcend>(dim3(threads / 256), dim3(256), out, rounds);
}
#endif
