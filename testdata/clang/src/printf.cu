// Device printf with assorted argument types and string contents.
#include "cuda_min.h"

__global__ void hello() { printf("Hello from block %d, thread %d\n", blockIdx.x, threadIdx.x); }

__global__ void many_types(const char *msg, float f, double d, long long ll,
                           unsigned char c, const void *p) {
  printf("int=%d uint=%u hex=%#x\n", -5, 4000000000u, 0xBEEFu);
  printf("float=%f double=%.17g sci=%e\n", f, d, d * 1e300);
  printf("ll=%lld ull=%llu char=%c\n", ll, (unsigned long long)ll, c);
  printf("str=%s ptr=%p pct=%%\n", msg, p);
  printf("escapes: tab\there \"quoted\" back\\slash bell\a nul-free\n");
  printf("utf8: \xc3\xa9\xe2\x82\xac and high bytes \xff\x80\n");
  printf("no args\n");
}

__device__ __noinline__ void log_value(const char *tag, int v) {
  if (v < 0)
    printf("[%s] negative %d\n", tag, v);
  else
    printf("[%s] value %d (%s)\n", tag, v, v % 2 ? "odd" : "even");
}

__global__ void conditional_log(const int *vals, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    log_value("vals", vals[i]);
  int r = printf("%d\n", n);
  if (r < 0)
    printf("printf failed\n");
}
