// C++ templates, namespaces, operators, lambdas: long mangled names,
// weak (linkonce) functions, extern "C" kernels.
#include "cuda_min.h"

namespace ptxvm {
namespace detail {

template <typename T> struct Complex {
  T re, im;
  __device__ Complex operator*(const Complex &o) const {
    return {re * o.re - im * o.im, re * o.im + im * o.re};
  }
  __device__ Complex operator+(const Complex &o) const {
    return {re + o.re, im + o.im};
  }
  __device__ T norm2() const { return re * re + im * im; }
};

template <typename T, int N> struct Array {
  T data[N];
  __device__ T &operator[](int i) { return data[i]; }
  __device__ constexpr int size() const { return N; }
};

template <typename T> __device__ __noinline__ T max_of(const T *p, int n) {
  T m = p[0];
  for (int i = 1; i < n; ++i)
    m = p[i] > m ? p[i] : m;
  return m;
}

template <typename T, typename F> __device__ T reduce(const T *p, int n, T init, F f) {
  for (int i = 0; i < n; ++i)
    init = f(init, p[i]);
  return init;
}

} // namespace detail

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) scale_kernel(T *out, const T *in, T s) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  out[i] = in[i] * s + detail::max_of(in, 4);
}

template <typename T>
__global__ void mandel(int *iters, detail::Complex<T> origin, T step, int w) {
  detail::Complex<T> c{origin.re + step * (T)(threadIdx.x), origin.im + step * (T)(blockIdx.x)};
  detail::Complex<T> z{0, 0};
  int k = 0;
  while (k < 256 && z.norm2() < (T)4) {
    z = z * z + c;
    ++k;
  }
  iters[blockIdx.x * w + threadIdx.x] = k;
}

template <typename... Ts> __device__ __noinline__ int count_args(Ts... ts) {
  return (0 + ... + (int)ts);
}

} // namespace ptxvm

template __global__ void ptxvm::scale_kernel<float, 128>(float *, const float *, float);
template __global__ void ptxvm::scale_kernel<double, 256>(double *, const double *, double);
template __global__ void ptxvm::scale_kernel<int, 64>(int *, const int *, int);
template __global__ void ptxvm::scale_kernel<unsigned short, 32>(unsigned short *, const unsigned short *, unsigned short);
template __global__ void ptxvm::mandel<float>(int *, ptxvm::detail::Complex<float>, float, int);
template __global__ void ptxvm::mandel<double>(int *, ptxvm::detail::Complex<double>, double, int);

__global__ void lambdas(int *out, const int *in, int n) {
  int bias = threadIdx.x;
  auto add = [bias](int a, int b) { return a + b + bias; };
  auto mx = [](int a, int b) { return a > b ? a : b; };
  out[threadIdx.x] = ptxvm::detail::reduce(in, n, 0, add) +
                     ptxvm::detail::reduce(in, n, -1, mx) +
                     ptxvm::count_args(1, 2.0f, 'c', 4LL);
  ptxvm::detail::Array<short, 5> arr{};
  arr[threadIdx.x % 5] = 3;
  out[threadIdx.x + n] = arr.size() + arr[1];
}

extern "C" __global__ void plain_c_name(float *p) { p[threadIdx.x] += 1.0f; }
extern "C" __device__ __noinline__ int c_helper(int x) { return x * 7; }
extern "C" __global__ void calls_c_helper(int *p) { p[threadIdx.x] = c_helper(p[threadIdx.x]); }
