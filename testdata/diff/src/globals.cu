// globals: module-scope __device__ variables with initializers (an int
// table, a float array, a struct, a string, a pointer-free lookup table of
// 64-bit values), and __constant__ memory read with thread-dependent
// indices (filter coefficients and a polynomial).
#include "diff.h"

__device__ int g_table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
__device__ float g_weights[5] = {0.5f, -1.25f, 2.0f, 0.0625f, -0.75f};
struct Cfg { int shift; float gain; u64 salt; };
__device__ Cfg g_cfg = {5, 1.5f, 0x0123456789abcdefull};
__device__ const char g_msg[] = "ptxvm differential";
__device__ u64 g_primes[6] = {2, 3, 5, 7, 1000000007ull, 998244353ull};
__constant__ float c_coef[9] = {0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f, 0.125f,
                                0.0625f, 0.125f, 0.0625f};
__constant__ double c_poly[4] = {1.0, -0.5, 0.25, -0.125};
__constant__ int c_offsets[4] = {-1, 1, -17, 17};

__global__ void globals(const u32 *in, u32 *out, float *fout, double *dout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  u32 x = in[i];
  out[i * 4] = (u32)g_table[x & 15] << g_cfg.shift;
  out[i * 4 + 1] = (u32)g_msg[x % 18] * (u32)(g_primes[x % 6] % 1000u);
  out[i * 4 + 2] = (u32)((x ^ g_cfg.salt) >> 7);
  int j = i + c_offsets[x & 3];
  out[i * 4 + 3] = (j >= 0 && j < n) ? in[j] : 0u;
  float s = 0.0f;
  for (int k = 0; k < 9; k++) s += c_coef[k] * (float)((x >> (k * 3)) & 7);
  fout[i] = s * g_cfg.gain + g_weights[x % 5];
  double t = (double)(x & 0xffff) / 65536.0, p = 0.0;
  for (int k = 3; k >= 0; k--) p = p * t + c_poly[k];
  dout[i] = p;
}

#ifdef DIFF_HOST
DIFF_CASE(globals) {
  int n = 333;
  u32 *in = c.in<u32>("in", n, [&](size_t) { return c.rng.u32v(); });
  u32 *out = c.out<u32>("out", n * 4);
  float *fout = c.out<float>("fout", n);
  double *dout = c.out<double>("dout", n);
  c.launch({3, 1, 1}, {128, 1, 1}, globals, in, out, fout, dout, n);
}
#endif
