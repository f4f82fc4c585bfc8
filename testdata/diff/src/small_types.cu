// small_types: 8- and 16-bit loads and stores, unsigned char saturation
// arithmetic, byte packing into words, signed 16-bit arithmetic with
// promotion, and bool arrays.
#include "diff.h"

__global__ void small_types(const u8 *px, const short *sv, u8 *outb, short *outs, u32 *packed,
                            bool *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  u8 a = px[i], b = px[(i + 1) % n];
  int sum = a + b;
  outb[i] = (u8)(sum > 255 ? 255 : sum);        // saturating add
  outb[n + i] = (u8)(a > b ? a - b : b - a);     // absolute difference
  short s = sv[i];
  outs[i] = (short)(s * 3 / 4);
  outs[n + i] = (short)((s >> 2) ^ (short)a);
  if ((i & 3) == 0) {
    u32 w = 0;
    for (int k = 0; k < 4; k++) w |= (u32)px[(i + k) % n] << (8 * k);
    packed[i / 4] = w;
  }
  flags[i] = s < 0 && a > 128;
}

#ifdef DIFF_HOST
DIFF_CASE(small_types) {
  int n = 250;
  u8 *px = c.in<u8>("px", n, [&](size_t) { return (u8)c.rng.u32v(); });
  short *sv = c.in<short>("sv", n, [&](size_t) { return (short)c.rng.u32v(); });
  u8 *ob = c.out<u8>("outb", 2 * n);
  short *os = c.out<short>("outs", 2 * n);
  u32 *pk = c.out<u32>("packed", (n + 3) / 4);
  bool *fl = c.out<bool>("flags", n);
  c.launch({2, 1, 1}, {128, 1, 1}, small_types, px, sv, ob, os, pk, fl, n);
}
#endif
