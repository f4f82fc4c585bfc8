// vecadd.cu: memory: c = a + b over f32 (8 bytes read, 4 written per element).
#include "bench.h"
KERNEL(vecadd, const float *a, const float *b, float *c, u32 n) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
#ifdef BENCH_HOST
BENCH(vecadd, "memory")(Bench &b, bool small) {
  u32 n = small ? 1u << 14 : 1u << 22;
  auto x = b.buffer<float>("a", n, rand_f32(1, -1, 1));
  auto y = b.buffer<float>("b", n, rand_f32(2, -1, 1));
  auto z = b.buffer<float>("c", n, zero_init(), Check::Exact);
  b.label = "n=" + std::to_string(n);
  b.bytes = 12.0 * n;
  b.launch<vecadd>(dim3(n / 256), dim3(256), x, y, z, n);
}
#endif
