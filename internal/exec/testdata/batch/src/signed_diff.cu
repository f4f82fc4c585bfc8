// signed index math: in[i-1] guarded by i > 0
#include "batch.h"
KERNEL(signed_diff, int n, const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n) out[i] = in[i] - in[i - 1] + (i - 7) / 2;
}
