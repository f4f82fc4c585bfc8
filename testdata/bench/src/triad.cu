// triad.cu: memory: STREAM's triad, a = b + s*c over f32 (8 bytes read, 4 written per element).
#include "bench.h"
KERNEL(triad, float *a, const float *b, const float *c, float s, u32 n) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}
#ifdef BENCH_HOST
BENCH(triad, "memory")(Bench &b, bool small) {
  u32 n = small ? 1u << 14 : 1u << 22;
  auto A = b.buffer<float>("a", n, zero_init(), Check::Exact);
  auto B = b.buffer<float>("b", n, rand_f32(2, -1, 1));
  auto C = b.buffer<float>("c", n, rand_f32(3, -1, 1));
  b.label = "n=" + std::to_string(n);
  b.bytes = 12.0 * n;
  b.launch<triad>(dim3(n / 256), dim3(256), A, B, C, 3.0f, n);
}
#endif
