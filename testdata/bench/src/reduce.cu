// reduce.cu: shared memory and barriers, a block sum of u32: each thread
// adds 8 elements (strided by the block, so warps read contiguously), then
// a tree over 256 shared slots with a barrier per level; one partial sum
// per block.
#include "bench.h"

#define RBLOCK 256
#define PER 8

BLOCK_KERNEL(reduce_sum, const u32 *in, u32 *partial) {
  SHARED(u32, buf, [RBLOCK]);
  PHASE
    const u32 *p = in + blockIdx.x * RBLOCK * PER + threadIdx.x;
    u32 s = 0;
    for (u32 k = 0; k < PER; k++) s += p[k * RBLOCK];
    buf[threadIdx.x] = s;
  END_PHASE
  SYNC;
  for (u32 w = RBLOCK / 2; w > 0; w >>= 1) {
    PHASE
      if (threadIdx.x < w) buf[threadIdx.x] += buf[threadIdx.x + w];
    END_PHASE
    SYNC;
  }
  PHASE
    if (threadIdx.x == 0) partial[blockIdx.x] = buf[0];
  END_PHASE
}

#ifdef BENCH_HOST
BENCH(reduce, "shared")(Bench &b, bool small) {
  u32 n = small ? 1u << 15 : 1u << 23, blocks = n / (RBLOCK * PER);
  auto in = b.buffer<u32>("in", n, rand_u32(7));
  auto partial = b.buffer<u32>("partial", blocks, zero_init(), Check::Exact);
  b.label = "n=" + std::to_string(n);
  b.bytes = 4.0 * n + 4.0 * blocks;
  b.launch<reduce_sum>(dim3(blocks), dim3(RBLOCK), in, partial);
}
#endif
