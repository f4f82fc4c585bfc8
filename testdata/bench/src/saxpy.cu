// saxpy.cu: memory-bound, y = a*x + y over f32 (8 bytes read, 4 written
// per element).
#include "bench.h"

KERNEL(saxpy, u32 n, float a, const float *x, float *y) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

#ifdef BENCH_HOST
BENCH(saxpy, "memory")(Bench &b, bool small) {
  u32 n = small ? 1u << 14 : 1u << 22;
  auto x = b.buffer<float>("x", n, rand_f32(1, -1, 1));
  auto y = b.buffer<float>("y", n, rand_f32(2, -1, 1), Check::Exact);
  b.label = "n=" + std::to_string(n);
  b.bytes = 12.0 * n;
  b.launch<saxpy>(dim3(n / 256), dim3(256), n, 2.5f, x, y);
}
#endif
