// Aggregates: structs and unions by value, returned structs, vector types.
#include "cuda_min.h"

struct Vec3 {
  float x, y, z;
};
struct Particle {
  Vec3 pos, vel;
  int id;
  char tag;
  double mass;
};
struct alignas(16) Quad {
  int a, b, c, d;
};
union Bits {
  float f;
  unsigned u;
  unsigned char bytes[4];
};
struct Flags {
  unsigned kind : 3;
  unsigned live : 1;
  unsigned count : 12;
  signed delta : 8;
};

typedef float float4v __attribute__((ext_vector_type(4)));
typedef int int2v __attribute__((ext_vector_type(2)));
typedef double double2v __attribute__((ext_vector_type(2)));

__device__ __noinline__ Vec3 add3(Vec3 a, Vec3 b) {
  return Vec3{a.x + b.x, a.y + b.y, a.z + b.z};
}

__device__ __noinline__ Particle step(Particle p, float dt) {
  Vec3 d{p.vel.x * dt, p.vel.y * dt, p.vel.z * dt};
  p.pos = add3(p.pos, d);
  p.mass *= 0.999;
  return p;
}

__device__ __noinline__ Quad swizzle(Quad q) { return Quad{q.d, q.c, q.b, q.a}; }

__global__ void integrate(Particle *ps, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    ps[i] = step(ps[i], dt);
}

__global__ void by_value_kernel(Particle p, Quad q, Vec3 *out, Quad *qout) {
  out[threadIdx.x] = add3(p.pos, p.vel);
  qout[threadIdx.x] = swizzle(q);
}

__global__ void unions(unsigned *out, const float *in) {
  Bits b;
  b.f = in[threadIdx.x];
  out[threadIdx.x] = b.u ^ b.bytes[3];
}

__global__ void bitfields(Flags *fl, int *out) {
  Flags f = fl[threadIdx.x];
  f.count += 1;
  f.live = !f.live;
  f.delta -= 3;
  fl[threadIdx.x] = f;
  out[threadIdx.x] = f.kind + f.delta;
}

__device__ __noinline__ float4v scale4(float4v v, float s) { return v * s; }

__global__ void vectors(float4v *out, const float4v *in, int2v *iv,
                        double2v *dv) {
  float4v v = in[threadIdx.x];
  v = scale4(v, 2.0f) + v.wzyx;
  out[threadIdx.x] = v;
  int2v w = iv[threadIdx.x];
  iv[threadIdx.x] = w.yx + 1;
  dv[threadIdx.x] = dv[threadIdx.x] * dv[threadIdx.x + 1];
}

struct Big {
  int arr[40];
};
__device__ __noinline__ int sum_big(Big b) {
  int s = 0;
  for (int i = 0; i < 40; ++i)
    s += b.arr[i];
  return s;
}
__global__ void big_struct(const Big *in, int *out) {
  Big b = in[blockIdx.x];
  b.arr[threadIdx.x % 40] = 0;
  out[threadIdx.x] = sum_big(b);
}
