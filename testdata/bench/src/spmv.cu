// spmv.cu: sparse matrix-vector product, scalar CSR kernel (one thread
// per row, a serial loop over the row's nonzeros, gathers of x at random
// columns). The suite's fills cannot build a monotone row_ptr, so row r's
// nonzeros start at r * MAXNNZ and there are rowlen[r] (1..16) of them.
#include "bench.h"

#define MAXNNZ 16

KERNEL(spmv_csr_scalar, u32 rows, const u32 *rowlen, const u32 *cols, const float *vals, const float *x, float *y) {
  u32 row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    u32 start = row * MAXNNZ, end = start + rowlen[row];
    float dot = 0.0f;
    for (u32 j = start; j < end; j++) dot += vals[j] * x[cols[j]];
    y[row] = dot;
  }
}

#ifdef BENCH_HOST
BENCH(spmv, "divergent")(Bench &b, bool small) {
  u32 rows = small ? 1u << 12 : 1u << 18;
  auto rowlen = b.buffer<u32>("rowlen", rows, rand_u32(39, MAXNNZ, 1));
  auto cols = b.buffer<u32>("cols", rows * MAXNNZ, rand_u32(40, rows));
  auto vals = b.buffer<float>("vals", rows * MAXNNZ, rand_f32(41, -1, 1));
  auto x = b.buffer<float>("x", rows, rand_f32(42, -1, 1));
  auto y = b.buffer<float>("y", rows, zero_init(), Check::Exact);
  b.label = std::to_string(rows) + " rows, <=16 nnz/row";
  b.bytes = 8.0 * rows + 12.0 * rows * (MAXNNZ + 1) / 2;
  b.launch<spmv_csr_scalar>(dim3(rows / 256), dim3(256), rows, rowlen, cols, vals, x, y);
}
#endif
