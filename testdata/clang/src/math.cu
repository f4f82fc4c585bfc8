// Math builtins and integer intrinsics mapped directly to PTX instructions.
#include "cuda_min.h"

__global__ void float_math(float *out, const float *in) {
  int t = threadIdx.x;
  float x = in[t], y = in[t + 1];
  float r = __builtin_sqrtf(x) + __nvvm_rsqrt_approx_f(x) + __nvvm_sqrt_approx_f(y);
  r += __nvvm_sin_approx_f(x) + __nvvm_cos_approx_f(y);
  r += __nvvm_ex2_approx_f(x) + __nvvm_lg2_approx_f(y);
  r += __nvvm_rcp_rn_f(x) + __nvvm_rcp_approx_ftz_f(y) + __nvvm_div_approx_f(x, y);
  r += __nvvm_div_rn_ftz_f(x, y) + __nvvm_div_rz_f(x, y);
  r += __builtin_fminf(x, y) + __builtin_fmaxf(x, y) + __nvvm_fmin_ftz_f(x, y);
#if __CUDA_ARCH__ >= 800
  r += __nvvm_fmax_nan_f(x, y);
#endif
#if __CUDA_ARCH__ >= 860 && PTXVM_PTX >= 72
  r += __nvvm_fmin_xorsign_abs_f(x, y);
#endif
  r += __builtin_floorf(x) + __builtin_ceilf(y) + __builtin_truncf(x) +
       __builtin_rintf(y) + __builtin_roundf(x);
  r += __builtin_fabsf(y) + __builtin_copysignf(x, y);
  r += __nvvm_saturate_f(x) + __nvvm_fma_rn_ftz_f(x, y, r) + __nvvm_fma_rz_f(x, y, r);
  r += __nvvm_add_rm_f(x, y) + __nvvm_mul_rp_ftz_f(x, y);
  r += __nvvm_ex2_approx_ftz_f(r);
  out[t] = r;
}

__global__ void int_math(int *out, const unsigned *in) {
  int t = threadIdx.x;
  unsigned x = in[t], y = in[t + 1];
  int r = __builtin_popcount(x) + __builtin_clz(y | 1) + __builtin_popcountll((u64)x << 20);
  r += __builtin_clzll(((u64)y << 32) | 1) + __builtin_ctz(x | 0x100);
  r += __builtin_bitreverse32(x) + (int)__builtin_bitreverse64((u64)y);
  r += __nvvm_prmt(x, y, 0x3210) ^ __nvvm_prmt(x, y, 0x7531);
  r += __nvvm_mulhi_i(x, y) + __nvvm_mul24_i(x, y) + __nvvm_mul24_ui(x, y);
  r += __nvvm_sad_i(x, y, 3) + __nvvm_sad_ui(x, y, 4);
  r += __builtin_elementwise_min((int)x, (int)y) + __builtin_elementwise_max(x, y);
  r += __builtin_bswap32(x) + (int)__builtin_bswap64((u64)x << 7);
  r += __builtin_rotateleft32(x, y & 31) + __builtin_rotateright32(x, 5);
  r += __builtin_ffs(x);
  out[t] = r;
}

__global__ void fastish(float *out, const float *in) {
  int t = threadIdx.x;
  float x = in[t];
  // With -ffast-math these become approximate, ftz instructions.
  out[t] = 1.0f / x + x / 3.0f + __builtin_sqrtf(x) * x - __nvvm_ex2_approx_f(x * 1.4426950408889634f);
}

__global__ void funnel_shift(unsigned *out, const unsigned *lo, const unsigned *hi) {
  int t = threadIdx.x;
  out[t] = __builtin_elementwise_fshl(hi[t], lo[t], (unsigned)t);
}
