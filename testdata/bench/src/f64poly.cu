// f64poly.cu: alu-float: a cubic polynomial and a division in f64 per round, per-thread recurrence (div.rn.f64, f64 mul/add).
#include "bench.h"
KERNEL(f64poly, float *out, u32 rounds) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = (double)i * 1e-5, acc = 0;
  for (u32 r = 0; r < rounds; r++) {
    double p = ((0.5 * x - 1.25) * x + 0.75) * x + 0.1;
    acc += p / (1.0 + x * x);
    x = x * 0.999 + 1e-3;
  }
  out[i] = (float)acc;
}
#ifdef BENCH_HOST
BENCH(f64poly, "alu-float")(Bench &b, bool small) {
  u32 n = small ? 4096 : 65536;
  auto o = b.buffer<float>("out", n, zero_init(), Check::Exact);
  b.label = std::to_string(n) + " threads x " + std::to_string(small ? 16u : 64u) + " rounds";
  b.launch<f64poly>(dim3(n / 256), dim3(256), o, small ? 16u : 64u);
}
#endif
