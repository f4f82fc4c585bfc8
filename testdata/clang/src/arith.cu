// Integer and single-precision arithmetic, comparisons and conversions.
#include "cuda_min.h"

__global__ void int_ops(int *out, const int *a, const int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = a[i], y = b[i] | 1;
  int r = x + y;
  r ^= x - y;
  r += x * y;
  r += x / y;
  r += x % y;
  r += x << (y & 31);
  r += x >> (y & 7);
  r += (x & y) | (~x);
  r += x < y ? x : y;
  r += x > y ? x : -y;
  r += __builtin_abs(x);
  out[i] = r;
}

__global__ void uint_ops(unsigned *out, const unsigned *a, const unsigned *b) {
  unsigned i = threadIdx.x;
  unsigned x = a[i], y = b[i] | 1u;
  unsigned r = x / y + x % y;
  r += x >> 3;
  r += (unsigned)(((u64)x * (u64)y) >> 32); // mul.hi
  r += __nvvm_mulhi_ui(x, y);
  r += x >= y;
  r = (r << 7) | (r >> 25); // rotate
  out[i] = r;
}

__global__ void long_ops(long long *out, const long long *a, const long long *b) {
  int i = threadIdx.x;
  long long x = a[i], y = b[i] | 1;
  long long r = x * y + x / y - x % y;
  r ^= (long long)((unsigned long long)x >> 13);
  r += x >> 40;
  r += __nvvm_mulhi_ll(x, y);
  r += (int)x * (long long)(int)y; // mul.wide.s32
  out[i] = r;
}

__global__ void small_ints(short *s, unsigned char *c, signed char *sc) {
  int i = threadIdx.x;
  short v = s[i];
  v = (short)(v * 3 + 7);
  s[i] = v >> 1;
  c[i] = (unsigned char)(c[i] + 200);
  sc[i] = (signed char)(sc[i] / 3);
}

__global__ void float_ops(float *out, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = a[i], y = b[i];
  float r = x + y;
  r -= x * y;
  r += x / y;
  r += __builtin_fmaf(x, y, r);
  r += -x;
  r = r < 0.0f ? -r : r;
  r += x == y ? 1.0f : 0.5f;
  r += (x != x) ? 0.0f : 2.0f; // NaN test
  r += 1.0e-30f * 3.4e38f;
  r += 0x1.fffffep+127f;
  r += __builtin_inff();
  out[i] = r;
}

__global__ void conversions(float *f, int *i, unsigned *u, long long *l,
                            double *d) {
  int t = threadIdx.x;
  float x = f[t];
  i[t] = (int)x;
  u[t] = (unsigned)x;
  l[t] = (long long)x;
  d[t] = (double)x + (double)i[t];
  f[t] = (float)u[t] + (float)l[t] + (float)d[t];
  f[t + 1] = __nvvm_f2i_rn(x) + __nvvm_i2f_rz(t);
}

__global__ void predicates(int *out, const float *a, int n) {
  int i = threadIdx.x;
  bool p = a[i] > 0.0f;
  bool q = (i & 1) != 0;
  bool r = (p && !q) || (n == i);
  out[i] = r ? 42 : -1;
  out[i + n] = (a[i] >= 1.5f) + (a[i] <= -2.0f) + __builtin_isnan(a[i]);
}
