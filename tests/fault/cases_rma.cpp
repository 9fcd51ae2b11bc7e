// Fault suite: RMA (contiguous, sized, strided, single-element, put-with-signal, context forms).
// Every routine meets the same edge values; the table below is the routines, the loop the edges.
#include <climits>
#include <cstdint>
#include <cstring>

#include "probe.hpp"

namespace probe {
namespace {

// A contiguous routine: `sym` is the symmetric side (dest of a put, source of a get), `loc` the
// local side.
struct rma {
  const char *name;
  size_t esize;
  bool put;
  void (*call)(void *sym, void *loc, size_t n, int pe);
};

const rma contiguous[] = {
    {"putmem", 1, true, [](void *s, void *l, size_t n, int pe) { shmem_putmem(s, l, n, pe); }},
    {"getmem", 1, false, [](void *s, void *l, size_t n, int pe) { shmem_getmem(l, s, n, pe); }},
    {"putmem_nbi", 1, true, [](void *s, void *l, size_t n, int pe) { shmem_putmem_nbi(s, l, n, pe); }},
    {"long_put", 8, true,
     [](void *s, void *l, size_t n, int pe) { shmem_long_put(static_cast<long *>(s), static_cast<long *>(l), n, pe); }},
    {"long_get", 8, false,
     [](void *s, void *l, size_t n, int pe) { shmem_long_get(static_cast<long *>(l), static_cast<long *>(s), n, pe); }},
    {"int_put_nbi", 4, true,
     [](void *s, void *l, size_t n, int pe) { shmem_int_put_nbi(static_cast<int *>(s), static_cast<int *>(l), n, pe); }},
    {"double_get_nbi", 8, false,
     [](void *s, void *l, size_t n, int pe) {
       shmem_double_get_nbi(static_cast<double *>(l), static_cast<double *>(s), n, pe);
     }},
    {"longdouble_put", sizeof(long double), true,
     [](void *s, void *l, size_t n, int pe) {
       shmem_longdouble_put(static_cast<long double *>(s), static_cast<long double *>(l), n, pe);
     }},
    {"put128", 16, true, [](void *s, void *l, size_t n, int pe) { shmem_put128(s, l, n, pe); }},
    {"get32", 4, false, [](void *s, void *l, size_t n, int pe) { shmem_get32(l, s, n, pe); }},
    {"put16_nbi", 2, true, [](void *s, void *l, size_t n, int pe) { shmem_put16_nbi(s, l, n, pe); }},
    {"ctx_long_put", 8, true,
     [](void *s, void *l, size_t n, int pe) {
       shmem_ctx_long_put(SHMEM_CTX_DEFAULT, static_cast<long *>(s), static_cast<long *>(l), n, pe);
     }},
    {"ctx_getmem", 1, false, [](void *s, void *l, size_t n, int pe) { shmem_ctx_getmem(SHMEM_CTX_DEFAULT, l, s, n, pe); }},
};

char *heap_end() { return static_cast<char *>(symmem_heap_base()) + heap_bytes; }

// Moves n elements between PE 0 and PE 1 and checks every byte on the receiving side.
void transfer_checked(const rma &r, size_t sym_off, size_t n) {
  const size_t bytes = n * r.esize;
  char *sym = cbuf + sym_off;
  static unsigned char local[buf_bytes + 64];
  if (!r.put) {
    if (me == 1) std::memcpy(sym, lsrc, bytes);
    std::memset(local, 0xa5, sizeof local);
  }
  shmem_barrier_all();
  if (me == 0) r.call(sym, r.put ? static_cast<void *>(lsrc) : static_cast<void *>(local), n, 1);
  shmem_barrier_all();
  if (r.put && me == 1) PROBE_CHECK(std::memcmp(sym, lsrc, bytes) == 0);
  if (!r.put && me == 0) PROBE_CHECK(std::memcmp(local, lsrc, bytes) == 0 && local[bytes] == 0xa5);
}

void add_contiguous(std::vector<test_case> &out, const rma &r) {
  const std::string call = reported(r.name);
  const std::string base = std::string("rma.") + r.name + ".";
  const std::string local_arg = r.put ? "source" : "dest";
  auto add = [&](const char *edge, outcome o, std::string pattern, std::function<void()> fn) {
    test_case c;
    c.name = base + edge;
    c.expect = o;
    c.pattern = std::move(pattern);
    c.run = std::move(fn);
    out.push_back(std::move(c));
  };
  const std::string ok = "PE 1 survived";
  add("n0_null", outcome::ok, ok, [r] { if (me == 0) r.call(nullptr, nullptr, 0, 1); });
  add("n1", outcome::ok, ok, [r] { transfer_checked(r, 0, 1); });
  add("whole_buffer", outcome::ok, ok, [r] { transfer_checked(r, 0, buf_bytes / r.esize); });
  add("misaligned", outcome::ok, ok, [r] { transfer_checked(r, 1, 3); });
  add("self", outcome::ok, "PE 0 survived", [r] { if (me == 0) r.call(cbuf, lsrc, 4, 0); });
  add("past_end", outcome::fatal, past_end(call), [r] { if (me == 0) r.call(heap_end() - r.esize, lsrc, 2, 1); });
  add("heap_plus_one", outcome::fatal, past_end(call),
      [r] { if (me == 0) r.call(cbuf, lsrc, heap_bytes / r.esize + 1, 1); });
  if (r.esize > 1) {
    // The wrap points: the byte count is 0 and esize modulo 2^64.
    add("wrap_to_0", outcome::fatal, wraps(call), [r] { if (me == 0) r.call(cbuf, lsrc, SIZE_MAX / r.esize + 1, 1); });
    add("wrap_to_small", outcome::fatal, wraps(call),
        [r] { if (me == 0) r.call(cbuf, lsrc, SIZE_MAX / r.esize + 2, 1); });
  }
  add("minus1", outcome::fatal, r.esize > 1 ? wraps(call) : past_end(call),
      [r] { if (me == 0) r.call(cbuf, lsrc, static_cast<size_t>(-1), 1); });
  add("pe_minus1", outcome::fatal, pe_range(call), [r] { if (me == 0) r.call(cbuf, lsrc, 1, -1); });
  add("pe_npes", outcome::fatal, pe_range(call), [r] { if (me == 0) r.call(cbuf, lsrc, 1, npes); });
  add("pe_int_max", outcome::fatal, pe_range(call), [r] { if (me == 0) r.call(cbuf, lsrc, 1, INT_MAX); });
  add("pe_int_min", outcome::fatal, pe_range(call), [r] { if (me == 0) r.call(cbuf, lsrc, 1, INT_MIN); });
  add("sym_null", outcome::fatal, not_symmetric(call), [r] { if (me == 0) r.call(nullptr, lsrc, 1, 1); });
  add("sym_stack", outcome::fatal, not_symmetric(call), [r] {
    long on_stack[4] = {};
    if (me == 0) r.call(on_stack, lsrc, 1, 1);
  });
  add("local_null", outcome::fatal, is_null(call, local_arg), [r] { if (me == 0) r.call(cbuf, nullptr, 1, 1); });
}

// Strided: element i goes from source[i * sst] to dest[i * dst].
struct strided {
  const char *name;
  size_t esize;
  bool put;
  void (*call)(void *sym, void *loc, ptrdiff_t sym_stride, ptrdiff_t loc_stride, size_t n, int pe);
};

const strided strided_routines[] = {
    {"long_iput", 8, true,
     [](void *s, void *l, ptrdiff_t ss, ptrdiff_t ls, size_t n, int pe) {
       shmem_long_iput(static_cast<long *>(s), static_cast<long *>(l), ss, ls, n, pe);
     }},
    {"iget32", 4, false,
     [](void *s, void *l, ptrdiff_t ss, ptrdiff_t ls, size_t n, int pe) { shmem_iget32(l, s, ls, ss, n, pe); }},
    {"iput128", 16, true,
     [](void *s, void *l, ptrdiff_t ss, ptrdiff_t ls, size_t n, int pe) { shmem_iput128(s, l, ss, ls, n, pe); }},
    {"ctx_char_iget", 1, false,
     [](void *s, void *l, ptrdiff_t ss, ptrdiff_t ls, size_t n, int pe) {
       shmem_ctx_char_iget(SHMEM_CTX_DEFAULT, static_cast<char *>(l), static_cast<char *>(s), ls, ss, n, pe);
     }},
};

void strided_checked(const strided &r) {
  // 5 elements, the symmetric side at stride 3, the local side at stride 2.
  const size_t n = 5, e = r.esize;
  static unsigned char local[4096];
  std::memset(local, 0, sizeof local);
  for (size_t i = 0; i < n * 2 * e; ++i) local[i] = pat(i);
  if (!r.put && me == 1) {
    for (size_t i = 0; i < n; ++i) std::memcpy(cbuf + i * 3 * e, local + i * 2 * e, e);
  }
  if (!r.put) std::memset(local, 0, sizeof local);
  shmem_barrier_all();
  if (me == 0) r.call(cbuf, local, 3, 2, n, 1);
  shmem_barrier_all();
  unsigned char want[4096];
  for (size_t i = 0; i < n * 2 * e; ++i) want[i] = pat(i);
  for (size_t i = 0; i < n; ++i) {
    if (r.put && me == 1) PROBE_CHECK(std::memcmp(cbuf + i * 3 * e, want + i * 2 * e, e) == 0);
    if (!r.put && me == 0) PROBE_CHECK(std::memcmp(local + i * 2 * e, want + i * 2 * e, e) == 0);
  }
  if (r.put && me == 1) PROBE_CHECK(cbuf[e] == 0);  // between the strided elements: untouched
}

void add_strided(std::vector<test_case> &out, const strided &r) {
  const std::string call = reported(r.name);
  const std::string base = std::string("rma.") + r.name + ".";
  auto add = [&](const char *edge, outcome o, std::string pattern, std::function<void()> fn, int np = 2) {
    test_case c;
    c.name = base + edge;
    c.np = np;
    c.expect = o;
    c.pattern = std::move(pattern);
    c.run = std::move(fn);
    out.push_back(std::move(c));
  };
  const std::string positive = "PE 0: " + call + ": strides must be positive";
  add("n0_null", outcome::ok, "PE 1 survived", [r] { if (me == 0) r.call(nullptr, nullptr, 1, 1, 0, 1); });
  add("strides", outcome::ok, "PE 1 survived", [r] { strided_checked(r); });
  add("n1_huge_stride", outcome::ok, "PE 1 survived", [r] { if (me == 0) r.call(cbuf, lsrc, PTRDIFF_MAX, 1, 1, 1); });
  add("sym_stride_0", outcome::fatal, positive, [r] { if (me == 0) r.call(cbuf, lsrc, 0, 1, 2, 1); });
  add("sym_stride_minus1", outcome::fatal, positive, [r] { if (me == 0) r.call(cbuf, lsrc, -1, 1, 2, 1); });
  add("local_stride_0", outcome::fatal, positive, [r] { if (me == 0) r.call(cbuf, lsrc, 1, 0, 2, 1); });
  // 3 elements at stride PTRDIFF_MAX: 2^64 - 1 elements, which wrap once counted in bytes (esize > 1).
  add("stride_wraps", outcome::fatal, r.esize > 1 ? wraps(call) : past_end(call),
      [r] { if (me == 0) r.call(cbuf, lsrc, PTRDIFF_MAX, 1, 3, 1); });
  // (n - 1) * stride + 1 elements is 2^64 / esize + 1: the byte span wraps to esize. Before the
  // check, a put to PE 1 walked on into the heaps of PEs 2 and 3.
  add("span_wraps_small", outcome::fatal, wraps(call), [r] {
    if (me != 0) return;
    if (r.esize > 1) r.call(cbuf, lsrc, 1, 1, SIZE_MAX / r.esize + 2, 1);
    else r.call(cbuf, lsrc, 2, 1, SIZE_MAX / 2 + 2, 1);  // (n - 1) * 2 is 2^64 + 2
  }, 4);
  add("stride_past_end", outcome::fatal, past_end(call),
      [r] { if (me == 0) r.call(cbuf, lsrc, static_cast<ptrdiff_t>(heap_bytes / r.esize), 1, 2, 1); });
  add("pe_minus1", outcome::fatal, pe_range(call), [r] { if (me == 0) r.call(cbuf, lsrc, 1, 1, 1, -1); });
  add("pe_npes", outcome::fatal, pe_range(call), [r] { if (me == 0) r.call(cbuf, lsrc, 1, 1, 1, npes); });
  add("sym_null", outcome::fatal, not_symmetric(call), [r] { if (me == 0) r.call(nullptr, lsrc, 1, 1, 1, 1); });
  add("local_null", outcome::fatal, is_null(call, r.put ? "source" : "dest"),
      [r] { if (me == 0) r.call(cbuf, nullptr, 1, 1, 1, 1); });
}

// Single elements: p and g.
void add_single(std::vector<test_case> &out) {
  auto add = [&](std::string name, outcome o, std::string pattern, std::function<void()> fn) {
    test_case c;
    c.name = "rma." + name;
    c.expect = o;
    c.pattern = std::move(pattern);
    c.run = std::move(fn);
    out.push_back(std::move(c));
  };
  add("long_p.value", outcome::ok, "PE 1 survived", [] {
    if (me == 0) shmem_long_p(lbuf, 42, 1);
    shmem_barrier_all();
    if (me == 1) PROBE_CHECK(lbuf[0] == 42);
  });
  add("long_p.pe_minus1", outcome::fatal, pe_range("long_p"), [] { if (me == 0) shmem_long_p(lbuf, 1, -1); });
  add("long_p.pe_npes", outcome::fatal, pe_range("long_p"), [] { if (me == 0) shmem_long_p(lbuf, 1, npes); });
  add("long_p.null", outcome::fatal, not_symmetric("long_p"), [] { if (me == 0) shmem_long_p(nullptr, 1, 1); });
  add("long_p.stack", outcome::fatal, not_symmetric("long_p"), [] {
    long x = 0;
    if (me == 0) shmem_long_p(&x, 1, 1);
  });
  add("long_p.past_end", outcome::fatal, past_end("long_p"),
      [] { if (me == 0) shmem_long_p(reinterpret_cast<long *>(heap_end() - 4), 1, 1); });
  add("double_g.pe_int_min", outcome::fatal, pe_range("double_g"),
      [] { if (me == 0) (void)shmem_double_g(reinterpret_cast<double *>(lbuf), INT_MIN); });
  add("double_g.null", outcome::fatal, not_symmetric("double_g"), [] { if (me == 0) (void)shmem_double_g(nullptr, 1); });
  add("char_g.last_byte", outcome::ok, "PE 0 survived", [] { if (me == 0) (void)shmem_char_g(heap_end() - 1, 1); });
}

// Put with signal: the data, then the signal word (OpenSHMEM 1.5, 9.8.1).
void add_signal(std::vector<test_case> &out) {
  auto add = [&](std::string name, outcome o, std::string pattern, std::function<void()> fn) {
    test_case c;
    c.name = "rma.putmem_signal." + name;
    c.expect = o;
    c.pattern = std::move(pattern);
    c.run = std::move(fn);
    out.push_back(std::move(c));
  };
  auto sig_at = [](size_t off) { return reinterpret_cast<uint64_t *>(cbuf + buf_bytes - 64 + off); };
  add("value", outcome::ok, "PE 1 survived", [sig_at] {
    if (me == 0) shmem_putmem_signal(cbuf, lsrc, 100, sig_at(0), 7, SHMEM_SIGNAL_SET, 1);
    if (me == 1) {
      shmem_uint64_wait_until(sig_at(0), SHMEM_CMP_EQ, 7);
      PROBE_CHECK(std::memcmp(cbuf, lsrc, 100) == 0);
    }
  });
  add("sig_null", outcome::fatal, not_symmetric("putmem_signal"),
      [] { if (me == 0) shmem_putmem_signal(cbuf, lsrc, 8, nullptr, 1, SHMEM_SIGNAL_SET, 1); });
  add("sig_misaligned", outcome::fatal, "PE 0: putmem_signal: address 0x[0-9a-f]+ is not aligned to 8 bytes",
      [sig_at] { if (me == 0) shmem_putmem_signal(cbuf, lsrc, 8, sig_at(4), 1, SHMEM_SIGNAL_ADD, 1); });
  add("bad_op", outcome::fatal, "PE 0: putmem_signal: sig_op 77 is neither SHMEM_SIGNAL_SET",
      [sig_at] { if (me == 0) shmem_putmem_signal(cbuf, lsrc, 8, sig_at(0), 1, 77, 1); });
  add("pe_npes", outcome::fatal, pe_range("putmem_signal"),
      [sig_at] { if (me == 0) shmem_putmem_signal(cbuf, lsrc, 8, sig_at(0), 1, SHMEM_SIGNAL_SET, npes); });
  add("minus1", outcome::fatal, past_end("putmem_signal"),
      [sig_at] { if (me == 0) shmem_putmem_signal(cbuf, lsrc, SIZE_MAX, sig_at(0), 1, SHMEM_SIGNAL_SET, 1); });
}

}  // namespace

void add_rma(std::vector<test_case> &out) {
  for (const rma &r : contiguous) add_contiguous(out, r);
  for (const strided &r : strided_routines) add_strided(out, r);
  add_single(out);
  add_signal(out);
}

}  // namespace probe
