// templates: C++ function templates as kernels (mangled .entry names),
// instantiated for int, float and double, with a functor template
// parameter, a non-type template parameter and a namespace.
#include "diff.h"

namespace ops {
template <class T> struct AddScaled {
  T k;
  __device__ T operator()(T a, T b) const { return a + b * k; }
};
template <class T> struct MaxAbs {
  __device__ T operator()(T a, T b) const {
    T x = a < 0 ? -a : a, y = b < 0 ? -b : b;
    return x > y ? x : y;
  }
};
} // namespace ops

template <class T, class Op, int UNROLL>
__global__ void combine(const T *a, const T *b, T *out, Op op, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
  for (int u = 0; u < UNROLL; u++) {
    int i = base + u;
    if (i < n) out[i] = op(a[i], b[i]);
  }
}

template __global__ void combine<int, ops::AddScaled<int>, 2>(const int *, const int *, int *,
                                                              ops::AddScaled<int>, int);
template __global__ void combine<float, ops::AddScaled<float>, 1>(const float *, const float *,
                                                                  float *, ops::AddScaled<float>,
                                                                  int);
template __global__ void combine<double, ops::MaxAbs<double>, 4>(const double *, const double *,
                                                                 double *, ops::MaxAbs<double>,
                                                                 int);

#ifdef DIFF_HOST
DIFF_CASE(template_int) {
  int n = 700;
  int *a = c.in<int>("a", n, [&](size_t) { return c.rng.i32(-100000, 100000); });
  int *b = c.in<int>("b", n, [&](size_t) { return c.rng.i32(-100000, 100000); });
  int *out = c.out<int>("out", n);
  c.launch({3, 1, 1}, {128, 1, 1}, combine<int, ops::AddScaled<int>, 2>, a, b, out,
           ops::AddScaled<int>{-3}, n);
}
DIFF_CASE(template_float) {
  int n = 500;
  float *a = c.in<float>("a", n, [&](size_t) { return c.rng.f32(-1, 1); });
  float *b = c.in<float>("b", n, [&](size_t) { return c.rng.f32(-1, 1); });
  float *out = c.out<float>("out", n);
  c.launch({4, 1, 1}, {128, 1, 1}, combine<float, ops::AddScaled<float>, 1>, a, b, out,
           ops::AddScaled<float>{0.3f}, n);
}
DIFF_CASE(template_double) {
  int n = 300;
  double *a = c.in<double>("a", n, [&](size_t) { return c.rng.f64(-1, 1); });
  double *b = c.in<double>("b", n, [&](size_t) { return c.rng.f64(-1, 1); });
  double *out = c.out<double>("out", n);
  c.launch({2, 1, 1}, {40, 1, 1}, combine<double, ops::MaxAbs<double>, 4>, a, b, out,
           ops::MaxAbs<double>{}, n);
}
#endif
