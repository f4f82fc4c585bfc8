// nbody.cu: ALU-bound f32 work with rsqrt.approx: the softened
// gravitational acceleration on each body from every body (all-pairs, one
// thread per body, positions and masses read from global memory).
#include "bench.h"

KERNEL(nbody_accel, const float *px, const float *py, const float *pz, const float *m,
       float *ax, float *ay, float *az, u32 n, float eps2) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = px[i], yi = py[i], zi = pz[i];
  float sx = 0.0f, sy = 0.0f, sz = 0.0f;
  for (u32 j = 0; j < n; j++) {
    float dx = px[j] - xi, dy = py[j] - yi, dz = pz[j] - zi;
    float d2 = dx * dx + dy * dy + dz * dz + eps2;
    float inv = rsqrt_approx(d2);
    float s = m[j] * inv * inv * inv;
    sx += dx * s;
    sy += dy * s;
    sz += dz * s;
  }
  ax[i] = sx;
  ay[i] = sy;
  az[i] = sz;
}

#ifdef BENCH_HOST
BENCH(nbody, "alu-float")(Bench &b, bool small) {
  u32 n = small ? 256 : 2048;
  auto px = b.buffer<float>("px", n, rand_f32(11, -1, 1));
  auto py = b.buffer<float>("py", n, rand_f32(12, -1, 1));
  auto pz = b.buffer<float>("pz", n, rand_f32(13, -1, 1));
  auto m = b.buffer<float>("m", n, rand_f32(14, 0.5, 1.5));
  auto ax = b.buffer<float>("ax", n, zero_init(), Check::Approx);
  auto ay = b.buffer<float>("ay", n, zero_init(), Check::Approx);
  auto az = b.buffer<float>("az", n, zero_init(), Check::Approx);
  b.label = std::to_string(n) + " bodies";
  b.launch<nbody_accel>(dim3(n / 128), dim3(128), px, py, pz, m, ax, ay, az, n, 0.01f);
}
#endif
