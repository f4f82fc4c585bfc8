// Inline PTX assembly: operands of each constraint kind, multi-line
// blocks with scoped registers, predicates, special registers, textures.
#include "cuda_min.h"

__device__ __forceinline__ unsigned bfe(unsigned v, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(v), "r"(pos), "r"(len));
  return r;
}

__device__ __forceinline__ unsigned long long clock64() {
  unsigned long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
  return c;
}

__global__ void simple_asm(unsigned *out, const unsigned *in) {
  unsigned t = threadIdx.x, v = in[t];
  unsigned lane, smid, warpid;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
  unsigned long long t0 = clock64();
  unsigned b = bfe(v, 4, 8);
  unsigned rev;
  asm("brev.b32 %0, %1;" : "=r"(rev) : "r"(v));
  int hibit;
  asm("bfind.u32 %0, %1;" : "=r"(hibit) : "r"(v));
  unsigned long long t1 = clock64();
  out[t] = lane + smid + warpid + b + rev + hibit + (unsigned)(t1 - t0);
}

__global__ void multi_line(float *out, const float *a, const float *b) {
  int t = threadIdx.x;
  float r;
  asm("{\n\t"
      ".reg .f32 tmp1, tmp2;\n\t"
      ".reg .pred p;\n\t"
      "mul.f32 tmp1, %1, %2;\n\t"
      "add.f32 tmp2, %1, %2;\n\t"
      "setp.gt.f32 p, tmp1, tmp2;\n\t"
      "selp.f32 %0, tmp1, tmp2, p;\n\t"
      "}"
      : "=f"(r)
      : "f"(a[t]), "f"(b[t]));
  out[t] = r;
  // Several instructions on one line, and a predicated one.
  int flag;
  asm("{ .reg .pred q; setp.ne.s32 q, %1, 0; selp.s32 %0, 1, 0, q; @q add.s32 %0, %0, 10; }"
      : "=r"(flag)
      : "r"(t & 3));
  out[t + 64] = (float)flag;
}

__global__ void wide_operands(double *d, unsigned long long *u, short *s) {
  int t = threadIdx.x;
  double r;
  asm("fma.rn.f64 %0, %1, %2, %3;" : "=d"(r) : "d"(d[t]), "d"(2.0), "d"(d[t + 1]));
  d[t] = r;
  unsigned long long x;
  asm("add.u64 %0, %1, %2;" : "=l"(x) : "l"(u[t]), "n"(12345));
  u[t] = x;
  short h;
  asm("add.s16 %0, %1, %1;" : "=h"(h) : "h"(s[t]));
  s[t] = h;
  unsigned lo, hi;
  asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(x));
  u[t + 64] = lo ^ hi;
}

__global__ void memory_asm(int *p) {
  int v;
  asm volatile("ld.volatile.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  asm volatile("st.global.wt.s32 [%0+4], %1;" ::"l"(p), "r"(v + 1) : "memory");
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("red.global.add.u32 [%0], 1;" ::"l"(p + 2) : "memory");
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p + 32));
  asm volatile("" ::: "memory"); // compiler barrier only
}

// Texture and surface access through object handles (u64), as the CUDA
// headers do it.
__global__ void tex_surf(float *out, unsigned long long tex, unsigned long long surf,
                         float u, float v) {
  float r, g, b, a;
  asm volatile("tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
               : "=f"(r), "=f"(g), "=f"(b), "=f"(a)
               : "l"(tex), "f"(u), "f"(v));
  int i0, i1, i2, i3;
  asm volatile("tex.1d.v4.s32.s32 {%0, %1, %2, %3}, [%4, {%5}];"
               : "=r"(i0), "=r"(i1), "=r"(i2), "=r"(i3)
               : "l"(tex), "r"((int)threadIdx.x));
  out[threadIdx.x] = r + g + b + a + (float)(i0 + i1 + i2 + i3);
  asm volatile("sust.b.2d.b32.trap [%0, {%1, %2}], {%3};" ::"l"(surf),
               "r"((int)threadIdx.x * 4), "r"((int)blockIdx.x), "r"(i0));
  unsigned q;
  asm volatile("suld.b.2d.b32.clamp {%0}, [%1, {%2, %3}];"
               : "=r"(q)
               : "l"(surf), "r"(4), "r"(0));
  out[threadIdx.x + 64] = (float)q;
}
