// struct_param: kernels taking structs by value (.param .align N .b8 p[N]):
// mixed int/float/double/char fields with padding, a nested struct with an
// array, a 16-byte-aligned vector struct, and an array of structs in
// global memory read field by field.
#include "diff.h"

struct Affine {
  float scale;
  int offset;
  double bias;
  char tag;
  short s;
};

struct Inner { int v[3]; };
struct Outer {
  Inner in;
  u64 mask;
  float w[2];
};

struct __attribute__((aligned(16))) F4 { float x, y, z, w; };

struct Particle { float pos[3]; int id; double mass; };

__global__ void struct_param(Affine a, Outer o, F4 q, const Particle *ps, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Particle p = ps[i];
  double *r = out + i * 6;
  r[0] = (double)(p.pos[0] * a.scale) + a.bias + (double)a.offset;
  r[1] = (double)(a.tag + a.s) * p.mass;
  r[2] = (double)(o.in.v[i % 3] ^ (int)(o.mask >> (i & 31)));
  r[3] = (double)(o.w[0] * p.pos[1] + o.w[1] * p.pos[2]);
  r[4] = (double)(q.x * p.pos[0] + q.y * p.pos[1] + q.z * p.pos[2] + q.w);
  r[5] = (double)p.id * 0.5;
}

struct Pair { int a; float b; };
NOINLINE Pair make_pair(int x, float y) {
  Pair p;
  p.a = x * 2 + 1;
  p.b = y * 0.5f;
  return p;
}

__global__ void struct_return(const int *x, const float *y, Pair *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Pair p = make_pair(x[i], y[i]);
  Pair q = make_pair(p.a, p.b);
  out[i] = q;
}

#ifdef DIFF_HOST
DIFF_CASE(struct_param) {
  int n = 200;
  Affine a;
  memset(&a, 0, sizeof a); // padding bytes are zero in the case file
  a.scale = 1.75f, a.offset = -42, a.bias = 1e-3, a.tag = -7, a.s = 1234;
  Outer o;
  memset(&o, 0, sizeof o);
  o.in.v[0] = 0x1234567, o.in.v[1] = -99, o.in.v[2] = 31337;
  o.mask = 0xdeadbeefcafef00dull, o.w[0] = 0.25f, o.w[1] = -3.0f;
  F4 q = {1.5f, -2.0f, 0.125f, 10.0f};
  Particle *ps = c.in_raw<Particle>("ps", n, [&](size_t i) {
    Particle p;
    memset(&p, 0, sizeof p);
    for (float &v : p.pos) v = c.rng.f32(-100, 100);
    p.id = (int)i * 3 - 100;
    p.mass = c.rng.f64(0.5, 2);
    return p;
  });
  double *out = c.out<double>("out", n * 6);
  c.launch({2, 1, 1}, {128, 1, 1}, struct_param, a, o, q, ps, out, n);
}
DIFF_CASE(struct_return) {
  int n = 150;
  int *x = c.in<int>("x", n, [&](size_t) { return c.rng.i32(-100000, 100000); });
  float *y = c.in<float>("y", n, [&](size_t) { return c.rng.f32(-1, 1); });
  Pair *out = c.out_raw<Pair>("out", n);
  c.launch({1, 1, 1}, {150, 1, 1}, struct_return, x, y, out, n);
}
#endif
