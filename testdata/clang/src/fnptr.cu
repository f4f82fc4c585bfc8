// Indirect calls: function pointers, tables of them, C++ virtual calls.
#include "cuda_min.h"

typedef float (*unary_fn)(float);
typedef int (*binop_fn)(int, int);

__device__ float f_square(float x) { return x * x; }
__device__ float f_negate(float x) { return -x; }
__device__ float f_half(float x) { return x * 0.5f; }
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_sub(int a, int b) { return a - b; }
__device__ int op_mul(int a, int b) { return a * b; }

__device__ unary_fn unary_table[3] = {f_square, f_negate, f_half};
__constant__ binop_fn binop_table[] = {op_add, op_sub, op_mul, op_add};

__global__ void apply_unary(float *data, int which) {
  unary_fn f = unary_table[which % 3];
  data[threadIdx.x] = f(data[threadIdx.x]);
}

__global__ void apply_binop(int *out, const int *a, const int *b,
                            const int *sel) {
  int t = threadIdx.x;
  out[t] = binop_table[sel[t] & 3](a[t], b[t]);
}

__device__ __noinline__ int fold(binop_fn f, const int *v, int n, int init) {
  for (int i = 0; i < n; ++i)
    init = f(init, v[i]);
  return init;
}

__global__ void fold_kernel(int *out, const int *v, int n) {
  out[0] = fold(op_add, v, n, 0);
  out[1] = fold(op_mul, v, n, 1);
  out[2] = fold(threadIdx.x & 1 ? op_sub : op_add, v, n, 0);
}

struct Shape {
  __device__ virtual float area() const = 0;
  __device__ virtual const char *name() const { return "shape"; }
  __device__ virtual ~Shape() {}
};
struct Circle : Shape {
  float r;
  __device__ Circle(float r) : r(r) {}
  __device__ float area() const override { return 3.14159265f * r * r; }
  __device__ const char *name() const override { return "circle"; }
};
struct Rect : Shape {
  float w, h;
  __device__ Rect(float w, float h) : w(w), h(h) {}
  __device__ float area() const override { return w * h; }
};

__device__ __noinline__ float measure(const Shape *s) { return s->area(); }

__global__ void virtual_calls(float *out, const char **names) {
  Circle c(threadIdx.x * 0.5f);
  Rect r(2.0f, threadIdx.x);
  const Shape *s = (threadIdx.x & 1) ? (const Shape *)&c : (const Shape *)&r;
  out[threadIdx.x] = measure(s);
  names[threadIdx.x] = s->name();
}
