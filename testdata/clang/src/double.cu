// Double precision: arithmetic, fma, division, sqrt, conversions, bit casts.
#include "cuda_min.h"

__global__ void daxpy(double *y, const double *x, double a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __builtin_fma(a, x[i], y[i]);
}

__global__ void dops(double *out, const double *a, const double *b) {
  int t = threadIdx.x;
  double x = a[t], y = b[t];
  double r = x / y + __builtin_sqrt(__builtin_fabs(x));
  r += x * y - (x + y);
  r += __builtin_fmin(x, y) + __builtin_fmax(x, y);
  r += __builtin_floor(x) + __builtin_ceil(y) + __builtin_trunc(x) + __builtin_rint(y);
  r += __builtin_copysign(1.0, y);
  r += __nvvm_rcp_rn_d(y) + __nvvm_rcp_rz_d(x) + __nvvm_div_rm_d(x, y) +
       __nvvm_sqrt_rp_d(x * x) + __nvvm_fma_rz_d(x, y, r) + __nvvm_add_rm_d(x, y) +
       __nvvm_mul_rp_d(x, y);
  r += __nvvm_rcp_approx_ftz_d(y) + __nvvm_rsqrt_approx_d(x * x + 1.0);
  out[t] = r;
}

__global__ void dconv(long long *l, unsigned long long *u, int *i, float *f,
                      double *d) {
  int t = threadIdx.x;
  double x = d[t];
  l[t] = (long long)x;
  u[t] = (unsigned long long)x;
  i[t] = __nvvm_d2i_rn(x) + __nvvm_d2i_rm(x) + __nvvm_d2i_rp(x);
  f[t] = (float)x + __nvvm_d2f_rz(x);
  d[t] = (double)l[t] + (double)u[t] + __nvvm_ll2d_rn(l[t]) + __nvvm_ull2d_rz(u[t]);
  long long bits = __builtin_bit_cast(long long, x);
  l[t + 64] = bits ^ (long long)__nvvm_d2i_hi(x) ^ __nvvm_d2i_lo(x);
  d[t + 64] = __nvvm_lohi_i2d(__nvvm_d2i_lo(x), __nvvm_d2i_hi(x) ^ (int)0x80000000);
}

__global__ void dconsts(double *out) {
  out[0] = 0.0;
  out[1] = -0.0;
  out[2] = 1.0 / 3.0;
  out[3] = 1.7976931348623157e308;
  out[4] = 4.9406564584124654e-324;
  out[5] = __builtin_inf();
  out[6] = -__builtin_inf();
  out[7] = __builtin_nan("");
  out[8] = 6.02214076e23;
}

__global__ void dcompare(int *out, const double *a, const double *b) {
  int t = threadIdx.x;
  double x = a[t], y = b[t];
  out[t] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 |
           (x == y) << 4 | (x != y) << 5 | __builtin_isunordered(x, y) << 6 |
           __builtin_isinf(x) << 7 | __builtin_isfinite(y) << 8;
}

__global__ void dreduce(double *out, const double *in, int n) {
  double s = 0.0, c = 0.0; // Kahan summation
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    double y = in[i] - c;
    double t = s + y;
    c = (t - s) - y;
    s = t;
  }
  out[threadIdx.x] = s;
}
