// Fault suite: the collective allocation routines. A request the heap cannot hold returns NULL
// on every PE with the out-of-memory message, and nothing else changes: the next allocation
// works and aliases nothing that lives.
#include <cstdint>
#include <cstring>

#include "probe.hpp"

namespace probe {
namespace {

const char *oom(const char *call) {
  static std::string s[8];
  static int at = 0;
  std::string &r = s[at++ % 8];
  r = std::string("PE [01]: ") + call + ": the symmetric heap is out of memory";
  return r.c_str();
}

// After a failed request: two fresh blocks are distinct and keep their bytes.
void no_alias() {
  char *a = static_cast<char *>(shmem_malloc(4096));
  char *b = static_cast<char *>(shmem_malloc(4096));
  PROBE_CHECK(a != nullptr && b != nullptr && (a + 4096 <= b || b + 4096 <= a));
  std::memset(a, 1, 4096);
  std::memset(b, 2, 4096);
  PROBE_CHECK(a[0] == 1 && a[4095] == 1 && b[0] == 2 && b[4095] == 2);
  shmem_free(b);
  shmem_free(a);
}

void expect_null(void *p) {
  PROBE_CHECK(p == nullptr);
  no_alias();
}

}  // namespace

void add_alloc(std::vector<test_case> &out) {
  auto add = [&](std::string name, outcome o, std::string pattern, std::function<void()> fn, std::string env = "") {
    test_case c;
    c.name = "alloc." + name;
    c.expect = o;
    c.pattern = std::move(pattern);
    c.run = std::move(fn);
    c.env = std::move(env);
    out.push_back(std::move(c));
  };
  add("malloc.zero", outcome::ok, "PE 1 survived", [] { expect_null(shmem_malloc(0)); });
  add("malloc.size_max", outcome::ok, oom("malloc"), [] { expect_null(shmem_malloc(SIZE_MAX)); });
  add("malloc.size_max_minus_10", outcome::ok, oom("malloc"), [] { expect_null(shmem_malloc(SIZE_MAX - 10)); });
  add("malloc.size_max_minus_63", outcome::ok, oom("malloc"), [] { expect_null(shmem_malloc(SIZE_MAX - 63)); });
  add("malloc.heap_plus_one", outcome::ok, oom("malloc"), [] { expect_null(shmem_malloc(heap_bytes + 1)); });
  add("malloc.rest_of_heap", outcome::ok, "PE 1 survived", [] {
    // Every byte the user asked for is usable: the heap holds lbuf and exactly this.
    void *p = shmem_malloc(heap_bytes - buf_bytes);
    PROBE_CHECK(p != nullptr);
    shmem_free(p);
  });
  {
    test_case c;  // the heap empty: SIZE_MAX used to wrap to 0 bytes and walk off the granule table
    c.name = "alloc.malloc.size_max_empty_heap";
    c.no_init = true;
    c.pattern = oom("malloc");
    c.run = [] {
      shmem_init();
      PROBE_CHECK(shmem_malloc(SIZE_MAX) == nullptr);
      long *p = static_cast<long *>(shmem_malloc(64));
      PROBE_CHECK(p != nullptr);
      shmem_free(p);
      shmem_finalize();
    };
    out.push_back(c);
  }
  add("malloc_with_hints.size_max", outcome::ok, oom("malloc"),
      [] { expect_null(shmem_malloc_with_hints(SIZE_MAX, SHMEM_MALLOC_ATOMICS_REMOTE)); });
  add("calloc.wrap_to_0", outcome::ok, oom("calloc"),
      [] { expect_null(shmem_calloc(size_t{1} << 32, size_t{1} << 32)); });
  add("calloc.wrap", outcome::ok, oom("calloc"), [] { expect_null(shmem_calloc(SIZE_MAX / 2 + 1, 2)); });
  add("calloc.count_0", outcome::ok, "PE 1 survived", [] { expect_null(shmem_calloc(0, 8)); });
  add("calloc.size_0", outcome::ok, "PE 1 survived", [] { expect_null(shmem_calloc(8, 0)); });
  add("calloc.zeroed", outcome::ok, "PE 1 survived", [] {
    char *p = static_cast<char *>(shmem_malloc(8000));
    std::memset(p, 0xff, 8000);
    shmem_free(p);
    char *q = static_cast<char *>(shmem_calloc(1000, 8));
    for (int i = 0; i < 8000; ++i) PROBE_CHECK(q[i] == 0);
    shmem_free(q);
  });
  add("realloc.size_max", outcome::ok, oom("realloc"), [] {
    char *p = static_cast<char *>(shmem_malloc(64));
    std::memset(p, 7, 64);
    PROBE_CHECK(shmem_realloc(p, SIZE_MAX) == nullptr);
    for (int i = 0; i < 64; ++i) PROBE_CHECK(p[i] == 7);  // the block stays as it was
    no_alias();
    shmem_free(p);
  });
  add("realloc.null_ptr", outcome::ok, "PE 1 survived", [] {
    void *p = shmem_realloc(nullptr, 64);
    PROBE_CHECK(p != nullptr);
    shmem_free(p);
  });
  add("realloc.to_zero", outcome::ok, "PE 1 survived", [] {
    void *p = shmem_malloc(64);
    PROBE_CHECK(shmem_realloc(p, 0) == nullptr);
    no_alias();
  });
  add("realloc.not_heap", outcome::ok, "realloc: 0x[0-9a-f]+ is not in the symmetric heap", [] {
    long x = 0;
    PROBE_CHECK(shmem_realloc(&x, 64) == nullptr);
  });
  // Grown in place with nothing retained: the granules the block keeps must keep their bytes.
  add("realloc.in_place_retain_0", outcome::ok, "PE 1 survived", [] {
    const size_t n = size_t{4} << 20;
    unsigned char *p = static_cast<unsigned char *>(shmem_malloc(n));
    for (size_t i = 0; i < n; ++i) p[i] = pat(i);
    unsigned char *q = static_cast<unsigned char *>(shmem_realloc(p, n + 4096));
    PROBE_CHECK(q == p);
    for (size_t i = 0; i < n; ++i) {
      if (q[i] != pat(i)) PROBE_CHECK(!"realloc in place lost the block's bytes");
    }
    shmem_free(q);
  }, "SYMMEM_HEAP_RETAIN=0");
  add("align.not_pow2", outcome::ok, "align: alignment 24 is not a power of two", [] { expect_null(shmem_align(24, 64)); });
  add("align.zero", outcome::ok, "align: alignment 0 is not a power of two", [] { expect_null(shmem_align(0, 64)); });
  add("align.2_40", outcome::ok, "align: alignment 1099511627776 is larger than the symmetric heap",
      [] { expect_null(shmem_align(size_t{1} << 40, 64)); });
  add("align.size_max", outcome::ok, "align: alignment 9223372036854775808 is larger than the symmetric heap",
      [] { expect_null(shmem_align(size_t{1} << 63, 64)); });
  add("align.4m", outcome::ok, "PE 1 survived", [] {
    // The address is aligned, not only the offset in the heap.
    void *p = shmem_align(size_t{4} << 20, 100);
    PROBE_CHECK(p != nullptr && reinterpret_cast<uintptr_t>(p) % (size_t{4} << 20) == 0);
    shmem_free(p);
  });
  add("align.size_size_max", outcome::ok, oom("align"), [] { expect_null(shmem_align(64, SIZE_MAX)); });
  add("free.null", outcome::ok, "PE 1 survived", [] { shmem_free(nullptr); });
  add("free.not_heap", outcome::ok, "free: 0x[0-9a-f]+ is not in the symmetric heap", [] {
    long x = 0;
    shmem_free(&x);
    no_alias();
  });
  add("free.inside", outcome::ok, "free: 0x[0-9a-f]+ is not the start of a live allocation", [] {
    shmem_free(cbuf + 64);
    no_alias();
  });
  add("free.twice", outcome::ok, "free: 0x[0-9a-f]+ is not the start of a live allocation", [] {
    void *p = shmem_malloc(64);
    shmem_free(p);
    shmem_free(p);
    no_alias();
  });
}

}  // namespace probe
