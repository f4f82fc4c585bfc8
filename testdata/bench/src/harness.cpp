// harness.cpp: the native side of the benchmark suite. Linked with every
// src/<k>.cu compiled for the host (-DBENCH_HOST), it
//
//   harness suite              prints the suite manifest (suite.json): every
//                              benchmark's launch at both sizes, with the
//                              checksums of its checked buffers after one
//                              run on freshly filled buffers;
//   harness time [-runs N] [NAME...]
//                              times the full-size benchmarks: one warm-up
//                              run, then N runs, each on freshly filled
//                              buffers (filling is not timed); prints
//                              "name<TAB>label<TAB>median ns per launch<TAB>
//                              min ns<TAB>checksums" per benchmark;
//   harness memcpy [-runs N] [-mib M]
//                              times memcpy of an M MiB buffer (best of N)
//                              and prints "host_memcpy<TAB>MMiB<TAB>ns<TAB>
//                              GB/s", counting bytes read plus written like
//                              the kernels' figures do.
//
// Everything runs on one thread; the ratio in `ptxvm bench` is against
// ptxvm on one worker.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench.h" // with -DBENCH_HOST: the host types and harness.h

std::vector<BenchInfo> &bench_registry() {
  static std::vector<BenchInfo> r;
  return r;
}

// ------------------------------------------------------------ inputs
static u64 splitmix64(u64 z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// Element i of a seeded stream: independent of the buffer's length, so the
// small and full sizes share their prefix.
static u32 gen_u32(u64 seed, u64 i) { return (u32)(splitmix64((seed << 40) ^ i) >> 32); }

static void fill(BufferSpec &b) {
  const Init &in = b.init;
  if (!strcmp(in.kind, "zero")) {
    std::fill(b.data.begin(), b.data.end(), 0);
  } else if (!strcmp(in.kind, "u32")) {
    u32 *p = (u32 *)b.bytes();
    for (size_t i = 0; i < b.count; i++) {
      u32 v = gen_u32(in.seed, i);
      p[i] = (in.mod ? v % in.mod : v) + in.add;
    }
  } else if (!strcmp(in.kind, "f32")) {
    float *p = (float *)b.bytes();
    for (size_t i = 0; i < b.count; i++)
      p[i] = (float)(in.lo + (in.hi - in.lo) * ((double)(gen_u32(in.seed, i) >> 8) * (1.0 / 16777216.0)));
  } else {
    fprintf(stderr, "harness: unknown init %s\n", in.kind);
    exit(1);
  }
}

// ---------------------------------------------------------- checksums
// Exact: a 64-bit FNV-style hash of the bytes as little-endian words (the
// tail zero-padded). Approx (f32): the sum of |x| and a weighted sum, in
// f64. internal/bench/checksum.go computes the same.
static std::string checksum(BufferSpec &b) {
  char s[128];
  size_t n = b.count * b.elem;
  if (b.check == Check::Exact) {
    u64 h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < (n + 7) / 8; i++) {
      u64 w = 0;
      memcpy(&w, b.bytes() + 8 * i, std::min<size_t>(8, n - 8 * i));
      h = (h ^ w) * 0x100000001b3ull;
      h ^= h >> 32;
    }
    snprintf(s, sizeof s, "fnv:%016llx", h);
  } else {
    const float *p = (const float *)b.bytes();
    double abs = 0, weighted = 0;
    for (size_t i = 0; i < b.count; i++) {
      abs += fabs((double)p[i]);
      weighted += (double)p[i] * (1.0 + (double)(i & 7) / 8.0);
    }
    snprintf(s, sizeof s, "sum:%.17g:%.17g", abs, weighted);
  }
  return s;
}

static void run_once(Bench &b) {
  for (u32 r = 0; r < b.repeat; r++) b.launch_once();
}

static std::string checksums(Bench &b) {
  std::string out;
  for (auto &buf : b.buffers) {
    if (buf.check == Check::None) continue;
    if (!out.empty()) out += ",";
    out += buf.name + "=" + checksum(buf);
  }
  return out;
}

static std::string module_of(const char *file) {
  std::string f = file;
  size_t slash = f.find_last_of('/');
  if (slash != std::string::npos) f = f.substr(slash + 1);
  return "ptx/" + f.substr(0, f.rfind('.')) + ".ptx";
}

// Benchmarks in class order, then by name (registration order depends on
// the link).
static std::vector<BenchInfo> ordered() {
  static const char *classes[] = {"alu-int", "alu-float", "memory", "shared", "atomics", "divergent", "launch"};
  auto rank = [](const char *k) {
    for (int i = 0; i < 7; i++)
      if (!strcmp(classes[i], k)) return i;
    fprintf(stderr, "harness: unknown class %s\n", k);
    exit(1);
  };
  std::vector<BenchInfo> v = bench_registry();
  std::sort(v.begin(), v.end(), [&](const BenchInfo &a, const BenchInfo &b) {
    int ra = rank(a.klass), rb = rank(b.klass);
    return ra != rb ? ra < rb : strcmp(a.name, b.name) < 0;
  });
  return v;
}

// ----------------------------------------------------------- manifest
static void print_size(Bench &b, const char *indent) {
  printf("{\n%s  \"label\": \"%s\",\n", indent, b.label.c_str());
  printf("%s  \"grid\": [%u, %u, %u],\n%s  \"block\": [%u, %u, %u],\n", indent, b.grid.x, b.grid.y, b.grid.z, indent,
         b.block.x, b.block.y, b.block.z);
  printf("%s  \"repeat\": %u,\n%s  \"bytes\": %.0f,\n", indent, b.repeat, indent, b.bytes);
  printf("%s  \"params\": [", indent);
  for (size_t i = 0; i < b.params.size(); i++) {
    Param &p = b.params[i];
    if (i) printf(", ");
    if (p.type == "ptr")
      printf("{\"ptr\": \"%s\"}", b.buffers[p.buffer].name.c_str());
    else
      printf("{\"type\": \"%s\", \"bits\": %llu}", p.type.c_str(), p.bits);
  }
  printf("],\n%s  \"buffers\": [\n", indent);
  for (size_t i = 0; i < b.buffers.size(); i++) {
    BufferSpec &s = b.buffers[i];
    printf("%s    {\"name\": \"%s\", \"type\": \"%s\", \"count\": %zu, ", indent, s.name.c_str(), s.type.c_str(), s.count);
    const Init &in = s.init;
    if (!strcmp(in.kind, "zero"))
      printf("\"init\": {\"kind\": \"zero\"}");
    else if (!strcmp(in.kind, "u32"))
      printf("\"init\": {\"kind\": \"u32\", \"seed\": %llu, \"mod\": %u, \"add\": %u}", in.seed, in.mod, in.add);
    else
      printf("\"init\": {\"kind\": \"f32\", \"seed\": %llu, \"lo\": %.17g, \"hi\": %.17g}", in.seed, in.lo, in.hi);
    if (s.check != Check::None) {
      printf(", \"check\": \"%s\", \"expect\": \"%s\"", s.check == Check::Exact ? "exact" : "approx",
             checksum(s).c_str());
      if (s.check == Check::Approx) printf(", \"rtol\": %g", b.rtol);
    }
    printf("}%s\n", i + 1 < b.buffers.size() ? "," : "");
  }
  printf("%s  ]\n%s}", indent, indent);
}

static int cmd_suite() {
  printf("{\n  \"format\": \"ptxvm-bench/1\",\n");
  printf("  \"generated_by\": \"scripts/gen-bench.sh (testdata/bench/src/harness.cpp); do not edit\",\n");
  printf("  \"benchmarks\": [\n");
  std::vector<BenchInfo> v = ordered();
  for (size_t i = 0; i < v.size(); i++) {
    Bench full, small;
    v[i].setup(full, false);
    v[i].setup(small, true);
    for (Bench *b : {&full, &small}) {
      for (auto &buf : b->buffers) fill(buf);
      run_once(*b);
    }
    printf("    {\n      \"name\": \"%s\",\n      \"class\": \"%s\",\n", v[i].name, v[i].klass);
    printf("      \"ptx\": \"%s\",\n      \"kernel\": \"%s\",\n", module_of(v[i].file).c_str(), full.entry.c_str());
    printf("      \"full\": ");
    print_size(full, "      ");
    printf(",\n      \"small\": ");
    print_size(small, "      ");
    printf("\n    }%s\n", i + 1 < v.size() ? "," : "");
  }
  printf("  ]\n}\n");
  return 0;
}

// ------------------------------------------------------------- timing
static double now_ns() {
  return (double)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

static int cmd_time(int runs, std::vector<std::string> names) {
  for (const BenchInfo &info : ordered()) {
    if (!names.empty() && std::find(names.begin(), names.end(), info.name) == names.end()) continue;
    Bench b;
    info.setup(b, false);
    std::vector<double> t;
    for (int r = 0; r <= runs; r++) {
      for (auto &buf : b.buffers) fill(buf);
      double t0 = now_ns();
      run_once(b);
      double dt = (now_ns() - t0) / b.repeat;
      if (r > 0) t.push_back(dt); // run 0 warms up
    }
    std::sort(t.begin(), t.end());
    printf("%s\t%s\t%.0f\t%.0f\t%s\n", info.name, b.label.c_str(), t[t.size() / 2], t[0], checksums(b).c_str());
    fflush(stdout);
  }
  return 0;
}

static int cmd_memcpy(int runs, size_t mib) {
  size_t n = mib << 20;
  char *src = (char *)malloc(n), *dst = (char *)malloc(n);
  memset(src, 1, n);
  memset(dst, 2, n); // touch every page before timing
  double best = 1e300;
  for (int r = 0; r < runs; r++) {
    double t0 = now_ns();
    memcpy(dst, src, n);
    asm volatile("" : : "r"(dst), "r"(src) : "memory"); // the copy is used
    best = std::min(best, now_ns() - t0);
    src[r % n]++; // the next copy is not the same as this one
  }
  printf("host_memcpy\t%zuMiB\t%.0f\t%.2f\n", mib, best, 2.0 * n / best);
  free(src);
  free(dst);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: harness suite | time [-runs N] [NAME...] | memcpy [-runs N] [-mib M]\n");
    return 2;
  }
  std::string cmd = argv[1];
  int runs = cmd == "memcpy" ? 10 : 5;
  size_t mib = 256;
  std::vector<std::string> names;
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    if (a == "-runs" && i + 1 < argc)
      runs = std::max(1, atoi(argv[++i]));
    else if (a == "-mib" && i + 1 < argc)
      mib = (size_t)std::max(1, atoi(argv[++i]));
    else
      names.push_back(a);
  }
  if (cmd == "suite") return cmd_suite();
  if (cmd == "time") return cmd_time(runs, names);
  if (cmd == "memcpy") return cmd_memcpy(runs, mib);
  fprintf(stderr, "harness: unknown command %s\n", cmd.c_str());
  return 2;
}
