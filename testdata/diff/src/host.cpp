// host.cpp: runs a differential kernel on the host and writes its case
// files (format ptxvm-case/1). Linked with one kernel source compiled as
// plain C++ (-DDIFF_HOST); see ../README.md.
//
// Usage: <prog> OUTDIR PTX...   (PTX paths relative to OUTDIR)
//
// Execution model: the blocks of the grid run one after another in linear
// order (x fastest). The threads of a block are coroutines (ucontext), each
// with its own stack, run one at a time in linear thread order (x, then y,
// then z). __syncthreads() switches back to the scheduler; when every
// thread of the block has reached the barrier, all are resumed again in
// order. A block whose threads do not all reach the same barrier (some
// exit while others wait) is reported as an error: the suite's kernels
// use barriers only in uniform control flow. Function-scope statics stand
// in for __shared__ arrays (one block at a time uses them) and a per-launch
// buffer for dynamic shared memory. Because threads run one at a time,
// integer atomics are plain read-modify-writes and give the same final
// values as any device order.
#include "diff.h"

#include <dlfcn.h>
#include <ucontext.h>

#include <cstdio>
#include <cstdlib>
#include <map>

uint3 threadIdx, blockIdx;
dim3 blockDim, gridDim;
void *diff_dynamic_shared;
u64 diff_warp_slots[1024];

namespace {

enum State { RUNNABLE, AT_BARRIER, DONE };
struct Thread {
  ucontext_t ctx;
  State state;
  uint3 tid;
};
const size_t kStack = 256 * 1024;
ucontext_t sched;
std::vector<Thread> threads;
std::vector<char *> stacks;
size_t cur;
const std::function<void()> *body;

void trampoline() {
  (*body)();
  threads[cur].state = DONE;
  // returning resumes uc_link (the scheduler)
}

void die(const char *msg) {
  fprintf(stderr, "diff host: %s\n", msg);
  exit(1);
}

std::string b64(const std::vector<unsigned char> &v) {
  static const char *t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string s;
  size_t i = 0;
  for (; i + 2 < v.size(); i += 3) {
    u32 x = (v[i] << 16) | (v[i + 1] << 8) | v[i + 2];
    s += t[x >> 18], s += t[(x >> 12) & 63], s += t[(x >> 6) & 63], s += t[x & 63];
  }
  if (i + 1 == v.size()) {
    u32 x = v[i] << 16;
    s += t[x >> 18], s += t[(x >> 12) & 63], s += "==";
  } else if (i + 2 == v.size()) {
    u32 x = (v[i] << 16) | (v[i + 1] << 8);
    s += t[x >> 18], s += t[(x >> 12) & 63], s += t[(x >> 6) & 63], s += '=';
  }
  return s;
}

u64 fnv(const std::string &s) {
  u64 h = 1469598103934665603ull;
  for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
  return h;
}

std::vector<std::pair<std::string, void (*)(Case &)>> &registry() {
  static std::vector<std::pair<std::string, void (*)(Case &)>> r;
  return r;
}

} // namespace

void __syncthreads() {
  threads[cur].state = AT_BARRIER;
  swapcontext(&threads[cur].ctx, &sched);
}

CaseReg::CaseReg(const char *name, void (*fn)(Case &)) { registry().push_back({name, fn}); }

void Case::reseed(const char *bufname) { rng.seed(fnv(name + "/" + bufname)); }

HostBuf *Case::alloc(const char *n, const char *type, size_t elem, size_t count, bool input) {
  for (HostBuf *b : bufs)
    if (b->name == n) die("duplicate buffer name");
  HostBuf *b = new HostBuf;
  b->name = n, b->type = type, b->elem = elem, b->count = count, b->input = input;
  // 256 bytes of slack: a pointer one past the end still names this buffer.
  b->mem.assign(elem * count, 0);
  b->mem.reserve(elem * count + 256);
  bufs.push_back(b);
  return b;
}

std::string Case::symbol_name(void *fn) {
  Dl_info info;
  if (!dladdr(fn, &info) || !info.dli_sname) die("kernel symbol not found (link with -rdynamic)");
  return info.dli_sname;
}

void Case::param_ptr(const void *p) {
  const unsigned char *q = (const unsigned char *)p;
  for (HostBuf *b : bufs) {
    const unsigned char *base = b->mem.data();
    if (q >= base && q <= base + b->mem.size()) {
      char s[256];
      snprintf(s, sizeof s, "{\"kind\": \"ptr\", \"buffer\": \"%s\", \"offset\": %zu}",
               b->name.c_str(), (size_t)(q - base));
      params_json += (params_json.empty() ? "" : ",\n    ") + std::string(s);
      return;
    }
  }
  die("pointer parameter outside every buffer");
}

void Case::param_scalar(const char *kind, const char *value, u64 bits, int bytes) {
  char s[256];
  snprintf(s, sizeof s, "{\"kind\": \"%s\", \"value\": %s, \"bits\": \"0x%0*llx\"}", kind, value,
           bytes * 2, (unsigned long long)bits);
  params_json += (params_json.empty() ? "" : ",\n    ") + std::string(s);
}

void Case::param_bytes(const void *p, size_t size, size_t align) {
  std::vector<unsigned char> v((const unsigned char *)p, (const unsigned char *)p + size);
  char s[128];
  snprintf(s, sizeof s, "{\"kind\": \"bytes\", \"size\": %zu, \"align\": %zu, \"data_b64\": \"", size,
           align);
  params_json += (params_json.empty() ? "" : ",\n    ") + std::string(s) + b64(v) + "\"}";
}

void Case::run_kernel(const std::function<void()> &fn) {
  size_t nthreads = (size_t)block.x * block.y * block.z;
  if (nthreads == 0 || nthreads > 1024) die("bad block size");
  gridDim = grid;
  blockDim = block;
  std::vector<unsigned char> dyn(dyn_shared + 16);
  diff_dynamic_shared = dyn.data();
  body = &fn;
  threads.assign(nthreads, Thread{});
  while (stacks.size() < nthreads) stacks.push_back((char *)malloc(kStack));
  for (unsigned bz = 0; bz < grid.z; bz++)
    for (unsigned by = 0; by < grid.y; by++)
      for (unsigned bx = 0; bx < grid.x; bx++) {
        blockIdx = {bx, by, bz};
        size_t t = 0;
        for (unsigned z = 0; z < block.z; z++)
          for (unsigned y = 0; y < block.y; y++)
            for (unsigned x = 0; x < block.x; x++, t++) {
              Thread &th = threads[t];
              th.tid = {x, y, z};
              th.state = RUNNABLE;
              getcontext(&th.ctx);
              th.ctx.uc_stack.ss_sp = stacks[t];
              th.ctx.uc_stack.ss_size = kStack;
              th.ctx.uc_link = &sched;
              makecontext(&th.ctx, trampoline, 0);
            }
        for (;;) {
          for (cur = 0; cur < nthreads; cur++) {
            if (threads[cur].state == DONE) continue;
            threads[cur].state = RUNNABLE;
            threadIdx = threads[cur].tid;
            swapcontext(&sched, &threads[cur].ctx);
          }
          size_t done = 0;
          for (auto &th : threads) done += th.state == DONE;
          if (done == nthreads) break;
          if (done != 0) die("some threads exited while others wait at a barrier");
        }
      }
}

int main(int argc, char **argv) {
  if (argc < 3) die("usage: prog OUTDIR PTX...");
  std::string outdir = argv[1];
  for (auto &[name, fn] : registry()) {
    Case c;
    c.name = name;
    fn(c);
    if (!c.launched) die("case without launch");
    std::string path = outdir + "/" + name + ".json";
    FILE *f = fopen(path.c_str(), "w");
    if (!f) die("cannot write case file");
    fprintf(f, "{\n  \"format\": \"ptxvm-case/1\",\n  \"case\": \"%s\",\n  \"ptx\": [", name.c_str());
    for (int i = 2; i < argc; i++) fprintf(f, "%s\"%s\"", i > 2 ? ", " : "", argv[i]);
    fprintf(f, "],\n  \"kernel\": \"%s\",\n", c.kernel.c_str());
    fprintf(f, "  \"grid\": [%u, %u, %u],\n  \"block\": [%u, %u, %u],\n", c.grid.x, c.grid.y,
            c.grid.z, c.block.x, c.block.y, c.block.z);
    fprintf(f, "  \"dynamic_shared_bytes\": %zu,\n", c.dyn_shared);
    fprintf(f, "  \"params\": [\n    %s\n  ],\n  \"buffers\": [", c.params_json.c_str());
    for (size_t i = 0; i < c.bufs.size(); i++) {
      HostBuf *b = c.bufs[i];
      fprintf(f, "%s\n    {\"name\": \"%s\", \"type\": \"%s\", \"count\": %zu", i ? "," : "",
              b->name.c_str(), b->type.c_str(), b->count);
      if (b->input) {
        if (b->mem != b->init) die("kernel wrote an input buffer");
        fprintf(f, ", \"output\": false,\n     \"init_b64\": \"%s\"}", b64(b->init).c_str());
      } else {
        fprintf(f, ",\n     \"init_b64\": \"%s\",\n     \"expected_b64\": \"%s\",\n"
                   "     \"compare\": {\"mode\": \"exact\"}}",
                b64(b->init).c_str(), b64(b->mem).c_str());
      }
    }
    fprintf(f, "\n  ]\n}\n");
    fclose(f);
    printf("%s %s\n", name.c_str(), c.kernel.c_str());
  }
  return 0;
}
