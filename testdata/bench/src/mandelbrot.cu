// mandelbrot.cu: ALU-bound f32 work. Each thread iterates z = z^2 + c for
// one pixel until |z| > 2 or max_iter; neighbouring pixels mostly agree,
// so warps diverge only along the set's boundary.
#include "bench.h"

KERNEL(mandelbrot, u32 *out, u32 width, u32 height, float x0, float y0, float step, u32 max_iter) {
  u32 px = blockIdx.x * blockDim.x + threadIdx.x;
  u32 py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  float cx = x0 + (float)px * step, cy = y0 + (float)py * step;
  float zx = 0.0f, zy = 0.0f;
  u32 n = 0;
  while (n < max_iter) {
    float x2 = zx * zx, y2 = zy * zy;
    if (x2 + y2 > 4.0f) break;
    zy = 2.0f * zx * zy + cy;
    zx = x2 - y2 + cx;
    n++;
  }
  out[py * width + px] = n;
}

#ifdef BENCH_HOST
BENCH(mandelbrot, "alu-float")(Bench &b, bool small) {
  u32 side = small ? 64 : 256, iters = small ? 64 : 256;
  auto out = b.buffer<u32>("out", side * side, zero_init(), Check::Exact);
  b.label = std::to_string(side) + "x" + std::to_string(side) + " max " + std::to_string(iters);
  b.launch<mandelbrot>(dim3(side / 32, side / 8), dim3(32, 8), out, side, side, -2.0f, -1.5f, 3.0f / (float)side, iters);
}
#endif
