// trivial.cu: many small launches: one warp that bumps a counter, launched
// `repeat` times per run, so a run measures launch overhead. The counter
// ends at repeat (launches run in order).
#include "bench.h"

KERNEL(trivial, u32 *counter) {
  if (threadIdx.x == 0 && blockIdx.x == 0) counter[0] += 1;
}

#ifdef BENCH_HOST
BENCH(trivial, "launch")(Bench &b, bool small) {
  auto counter = b.buffer<u32>("counter", 1, zero_init(), Check::Exact);
  b.repeat = small ? 100 : 10000;
  b.label = std::to_string(b.repeat) + " launches";
  b.launch<trivial>(dim3(1), dim3(32), counter);
}
#endif
