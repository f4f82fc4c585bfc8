// double precision: fma, div, sqrt, compare
#include "batch.h"
KERNEL(dmath, u32 n, double a, const double *x, double *out) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = x[i];
    double r = fma(v, a, 1.0) / (fabs(v) + 3.0) + sqrt(fabs(v));
    out[i] = v < 0.0 ? -r : r * 0.5;
  }
}
