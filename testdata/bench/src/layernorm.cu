// layernorm.cu: layer normalisation, one block of 256 threads per row of
// 1024 f32: shared-memory sum reductions for the mean and the variance,
// then (x - mean) * rsqrtf(var + eps) * gamma + beta. Checked with a
// tolerance (rsqrt.approx on the device).
#include "bench.h"

#define LN_COLS 1024
#define LN_BLOCK 256

BLOCK_KERNEL(layernorm_rows, const float *in, const float *gamma, const float *beta, float *out, float eps) {
  SHARED(float, red, [LN_BLOCK]);
  PER_THREAD(float, mean);
  PHASE
    const float *x = in + (u64)blockIdx.x * LN_COLS;
    float s = 0.0f;
    for (u32 c = threadIdx.x; c < LN_COLS; c += LN_BLOCK) s += x[c];
    red[threadIdx.x] = s;
  END_PHASE
  SYNC;
  for (u32 s = LN_BLOCK / 2; s > 0; s >>= 1) {
    PHASE
      if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    END_PHASE
    SYNC;
  }
  PHASE
    L(mean) = red[0] / (float)LN_COLS;
  END_PHASE
  SYNC;
  PHASE
    const float *x = in + (u64)blockIdx.x * LN_COLS;
    float s = 0.0f;
    for (u32 c = threadIdx.x; c < LN_COLS; c += LN_BLOCK) {
      float d = x[c] - L(mean);
      s += d * d;
    }
    red[threadIdx.x] = s;
  END_PHASE
  SYNC;
  for (u32 s = LN_BLOCK / 2; s > 0; s >>= 1) {
    PHASE
      if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    END_PHASE
    SYNC;
  }
  PHASE
    const float *x = in + (u64)blockIdx.x * LN_COLS;
    float *y = out + (u64)blockIdx.x * LN_COLS;
    float r = rsqrt_approx(red[0] / (float)LN_COLS + eps);
    for (u32 c = threadIdx.x; c < LN_COLS; c += LN_BLOCK) y[c] = (x[c] - L(mean)) * r * gamma[c] + beta[c];
  END_PHASE
}

#ifdef BENCH_HOST
BENCH(layernorm, "shared")(Bench &b, bool small) {
  u32 rows = small ? 32 : 4096;
  auto in = b.buffer<float>("in", rows * LN_COLS, rand_f32(25, -2, 3));
  auto gamma = b.buffer<float>("gamma", LN_COLS, rand_f32(26, 0.5, 1.5));
  auto beta = b.buffer<float>("beta", LN_COLS, rand_f32(27, -0.5, 0.5));
  auto out = b.buffer<float>("out", rows * LN_COLS, zero_init(), Check::Approx);
  b.label = std::to_string(rows) + " rows x " + std::to_string(LN_COLS);
  b.bytes = 12.0 * rows * LN_COLS;
  b.launch<layernorm_rows>(dim3(rows), dim3(LN_BLOCK), in, gamma, beta, out, 1e-5f);
}
#endif
