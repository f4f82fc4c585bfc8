// vec_hash: 16-byte vector loads and stores of an aligned float4-like
// struct (ld/st.v4 on the device), 8-byte int2 pairs, and a per-thread
// integer hash / xorshift PRNG whose bits drive float work (bit casts
// between int and float).
#include "diff.h"

struct __attribute__((aligned(16))) V4 { float x, y, z, w; };
struct __attribute__((aligned(8))) I2 { int a, b; };

DEVFN u32 hash32(u32 x) {
  x ^= x >> 16; x *= 0x7feb352du;
  x ^= x >> 15; x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__global__ void vec_hash(const V4 *in, V4 *out, const I2 *pairs, I2 *pout, u32 *bits, int n,
                         u32 seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  V4 v = in[i];
  V4 r;
  r.x = v.y * v.z - v.w;
  r.y = v.x + v.w;
  r.z = v.x * v.x + v.y * v.y;
  r.w = v.z / (v.w + 4.0f);
  out[i] = r;
  I2 p = pairs[i];
  pout[i] = I2{p.b - p.a, p.a ^ p.b};
  u32 s = hash32(seed ^ (u32)i);
  float acc = 0.0f;
  for (int k = 0; k < 8; k++) {
    s ^= s << 13; s ^= s >> 17; s ^= s << 5; // xorshift32
    float u = int_as_float((int)(0x3f800000u | (s >> 9))) - 1.0f; // [0,1)
    acc += u * v.x;
  }
  bits[i * 2] = s;
  bits[i * 2 + 1] = (u32)float_as_int(acc);
}

#ifdef DIFF_HOST
DIFF_CASE(vec_hash) {
  int n = 222;
  V4 *in = c.in_raw<V4>("in", n, [&](size_t) {
    return V4{c.rng.f32(-8, 8), c.rng.f32(-8, 8), c.rng.f32(-8, 8), c.rng.f32(0, 8)};
  });
  V4 *out = c.out_raw<V4>("out", n);
  I2 *pairs = c.in_raw<I2>("pairs", n, [&](size_t) {
    return I2{c.rng.i32(-100000, 100000), c.rng.i32(-100000, 100000)};
  });
  I2 *pout = c.out_raw<I2>("pout", n);
  u32 *bits = c.out<u32>("bits", 2 * n);
  c.launch({2, 1, 1}, {128, 1, 1}, vec_hash, in, out, pairs, pout, bits, n, 0x2545f491u);
}
#endif
