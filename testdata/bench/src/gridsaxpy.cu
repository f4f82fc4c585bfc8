// gridsaxpy.cu: memory-bound, saxpy written as a grid-stride loop (a
// fixed grid of 256 x 256 threads walks the arrays, each thread stepping
// by the grid's size): every warp runs a loop whose rows lie 256 KB apart.
// The native build runs each thread's loop to the end before the next
// thread, so it strides through memory the same way and is slow for it.
#include "bench.h"

KERNEL(gridsaxpy, u32 n, float a, const float *x, float *y) {
  u32 stride = gridDim.x * blockDim.x;
  for (u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = a * x[i] + y[i];
}

#ifdef BENCH_HOST
BENCH(gridsaxpy, "memory")(Bench &b, bool small) {
  u32 n = small ? 1u << 14 : 1u << 22;
  auto x = b.buffer<float>("x", n, rand_f32(3, -1, 1));
  auto y = b.buffer<float>("y", n, rand_f32(4, -1, 1), Check::Exact);
  b.label = "n=" + std::to_string(n) + ", 256x256 threads";
  b.bytes = 12.0 * n;
  b.launch<gridsaxpy>(dim3(small ? 8 : 256), dim3(256), n, 2.5f, x, y);
}
#endif
