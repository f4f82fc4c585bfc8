// fsqrtdiv.cu: alu-float: x = sqrt(x*x + c) / (x + 1.5) per round in f32 (sqrt.rn.f32 and div.rn.f32, IEEE-rounded).
#include "bench.h"
KERNEL(fsqrtdiv, float *out, u32 rounds, float c) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = (float)i * 0.001f;
  for (u32 r = 0; r < rounds; r++) {
    x = __builtin_sqrtf(x * x + c) / (x + 1.5f);
  }
  out[i] = x;
}
#ifdef BENCH_HOST
BENCH(fsqrtdiv, "alu-float")(Bench &b, bool small) {
  u32 n = small ? 4096 : 65536;
  auto o = b.buffer<float>("out", n, zero_init(), Check::Exact);
  b.label = std::to_string(n) + " threads x " + std::to_string(small ? 16u : 64u) + " rounds";
  b.launch<fsqrtdiv>(dim3(n / 256), dim3(256), o, small ? 16u : 64u, 2.0f);
}
#endif
