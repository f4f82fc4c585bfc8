// float4scale.cu: memory: c = s * a over float4 vectors (ld/st.global.v4.f32).
#include "bench.h"
typedef float f4 __attribute__((ext_vector_type(4)));
KERNEL(float4_scale, const f4 *a, f4 *c, u32 n, float s) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] * s;
}
#ifdef BENCH_HOST
BENCH(float4scale, "memory")(Bench &b, bool small) {
  u32 n = small ? 1u << 14 : 1u << 22;
  auto x = b.buffer<float>("a", n, rand_f32(1, -1, 1));
  auto z = b.buffer<float>("c", n, zero_init(), Check::Exact);
  b.label = "n=" + std::to_string(n);
  b.bytes = 8.0 * n;
  b.launch<float4_scale>(dim3(n / 4 / 256), dim3(256), Buf<f4>{x.index,(f4*)x.ptr}, Buf<f4>{z.index,(f4*)z.ptr}, n/4, 1.5f);
}
#endif
