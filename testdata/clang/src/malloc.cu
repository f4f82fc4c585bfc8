// Device heap: malloc/free, placement of structs, new/delete, memcpy/memset.
#include "cuda_min.h"

struct Node {
  int value;
  Node *next;
};

__device__ void *operator new(size_t n) { return malloc(n); }
__device__ void *operator new[](size_t n) { return malloc(n); }
__device__ void operator delete(void *p) noexcept { free(p); }
__device__ void operator delete(void *p, size_t) noexcept { free(p); }
__device__ void operator delete[](void *p) noexcept { free(p); }

__global__ void linked_list(int *out, int n) {
  Node *head = nullptr;
  for (int i = 0; i < n; ++i) {
    Node *nd = (Node *)malloc(sizeof(Node));
    if (!nd)
      break;
    nd->value = i * (int)threadIdx.x;
    nd->next = head;
    head = nd;
  }
  int s = 0;
  while (head) {
    Node *nx = head->next;
    s += head->value;
    free(head);
    head = nx;
  }
  out[threadIdx.x] = s;
}

__global__ void new_delete(float *out, int n) {
  float *buf = new float[n];
  Node *nd = new Node{3, nullptr};
  for (int i = 0; i < n; ++i)
    buf[i] = i * 0.5f + nd->value;
  out[threadIdx.x] = buf[threadIdx.x % n];
  delete nd;
  delete[] buf;
}

__global__ void mem_builtins(char *dst, const char *src, int n) {
  char local[64];
  __builtin_memset(local, 0x5a, sizeof local);
  __builtin_memcpy(local, src, 32);
  __builtin_memmove(local + 4, local, 16);
  for (int i = 0; i < 64 && i < n; ++i)
    dst[i] = local[i];
  __builtin_memset(dst + 64, 0, n > 64 ? n - 64 : 0);
  __builtin_memcpy(dst + 128, src + 128, n & 127);
}
