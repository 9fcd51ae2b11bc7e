// symmem: one-sided RMA. To node-local peers through the direct mapping: every call is the address
// translation (a range check and a table load) and a memcpy or a single load/store: no system
// call, no lock, no allocation; such puts and gets complete before they return. To PEs on other
// hosts through the network transport, on translate's out-of-line slow path (core/remote.h): the
// _nbi forms return once posted and complete at quiet.
#include <atomic>
#include <cstring>
#include <type_traits>

#include "common/checked.h"
#include "core/copy_once.h"
#include "core/remote.h"
#include "core/state.h"
#include "ctx/ctx.h"

namespace symmem::core {
namespace {

template <typename T>
inline void store_one(T *at, T v) {
  if constexpr (std::is_arithmetic_v<T> && sizeof(T) <= 8) {
    std::atomic_ref<T>(*at).store(v, std::memory_order_relaxed);
  } else {
    std::memcpy(at, &v, sizeof v);
  }
}

template <typename T>
inline T load_one(const T *at) {
  if constexpr (std::is_arithmetic_v<T> && sizeof(T) <= 8) {
    return std::atomic_ref<T>(*const_cast<T *>(at)).load(std::memory_order_relaxed);
  } else {
    T v;
    std::memcpy(&v, at, sizeof v);
    return v;
  }
}

// The miss paths: static data (mapped, host memory), or a PE on another host. Out of line and
// taking plain arguments, so the heap path keeps no value across a call (no frame, no stores).
// Beside a GPU heap the local buffer may be GPU memory: the memory kind's copy (the copy engine),
// for static data too.
void copy_bytes(void *to, const void *from, size_t n) { g.heap->copy(to, from, n); }

[[gnu::noinline]] void put_miss(void *dest, const void *src, size_t n, int pe, const char *call, bool nbi,
                                symmem_ctx_s *ctx) {
  if (char *d = translate_data(dest, n, pe)) {
    if (SYMMEM_LIKELY(g.heap_on_cpu)) {
      copy_once(d, src, n);  // into a peer's memory: see core/copy_once.h
    } else {
      copy_bytes(d, src, n);
    }
  } else if (is_remote(pe)) {
    remote_put(dest, src, n, pe, nbi, call, ctx);
  } else {
    bad_target(dest, n, pe, call);
  }
}

[[gnu::noinline]] void get_miss(void *dest, const void *src, size_t n, int pe, const char *call, bool nbi,
                                symmem_ctx_s *ctx) {
  if (const char *s = translate_data(src, n, pe)) {
    copy_bytes(dest, s, n);
  } else if (is_remote(pe)) {
    remote_get(dest, src, n, pe, nbi, call, ctx);
  } else {
    bad_target(src, n, pe, call);
  }
}

// A transfer of nothing (the call still needs init), or a NULL local buffer: out of line, so the
// hot path is one unlikely branch for both.
[[gnu::noinline]] void empty_or_null(size_t n, const char *arg, const char *call) {
  require_init(call);
  if (n != 0) {
    fatal(call, "%s is NULL; pass the address of a local buffer of %zu bytes", arg, n);
  }
}

// ctx: the context of a ctx_ routine (nullptr for the others); it matters on the miss path only.
// Always inline: with the ctx_ forms as callers too, GCC would otherwise share one out-of-line
// copy, a jump more on the hot path of every put.
[[gnu::always_inline]] inline void put_bytes(void *dest, const void *src, size_t n, int pe, const char *call,
                                             bool nbi = false, symmem_ctx_s *ctx = nullptr) {
  if (SYMMEM_UNLIKELY(n == 0 || src == nullptr)) {
    return empty_or_null(n, "source", call);
  }
  if (char *d = translate_hit(dest, n, pe); SYMMEM_LIKELY(d != nullptr)) {
    if (SYMMEM_LIKELY(g.heap_on_cpu)) {
      copy_once(d, src, n);  // not memcpy: see core/copy_once.h
    } else {
      g.heap->copy(d, src, n);
    }
    return;
  }
  put_miss(dest, src, n, pe, call, nbi, ctx);
}

[[gnu::always_inline]] inline void get_bytes(void *dest, const void *src, size_t n, int pe, const char *call,
                                             bool nbi = false, symmem_ctx_s *ctx = nullptr) {
  if (SYMMEM_UNLIKELY(n == 0 || dest == nullptr)) {
    return empty_or_null(n, "dest", call);
  }
  if (const char *s = translate_hit(src, n, pe); SYMMEM_LIKELY(s != nullptr)) {
    if (SYMMEM_LIKELY(g.heap_on_cpu)) {
      std::memcpy(dest, s, n);
    } else {
      g.heap->copy(dest, s, n);
    }
    return;
  }
  get_miss(dest, src, n, pe, call, nbi, ctx);
}

// One element to or from a GPU heap (the copy engine), out of line: the host path keeps no frame.
template <typename T>
[[gnu::noinline]] void copy_out(char *at, T v) {
  g.heap->copy(at, &v, sizeof v);
}
template <typename T>
[[gnu::noinline]] T copy_in(const char *at) {
  T v;
  g.heap->copy(&v, at, sizeof v);
  return v;
}

// One element: static data (CPU memory) or a remote PE.
template <typename T>
[[gnu::noinline]] void p_miss(T *dest, T value, int pe, const char *call, symmem_ctx_s *ctx) {
  if (char *d = translate_data(dest, sizeof(T), pe)) {
    store_one(reinterpret_cast<T *>(d), value);
  } else if (is_remote(pe)) {
    remote_put(dest, &value, sizeof(T), pe, false, call, ctx);
  } else {
    bad_target(dest, sizeof(T), pe, call);
  }
}
template <typename T>
[[gnu::noinline]] T g_miss(const T *source, int pe, const char *call, symmem_ctx_s *ctx) {
  if (const char *s = translate_data(source, sizeof(T), pe)) {
    return load_one(reinterpret_cast<const T *>(s));
  }
  if (!is_remote(pe)) {
    bad_target(source, sizeof(T), pe, call);
  }
  T v;
  remote_get(&v, source, sizeof(T), pe, false, call, ctx);
  return v;
}

template <typename T>
[[gnu::always_inline]] inline void p_one(T *dest, T value, int pe, const char *call, symmem_ctx_s *ctx = nullptr) {
  if (char *d = translate_hit(dest, sizeof(T), pe); SYMMEM_LIKELY(d != nullptr)) {
    if (SYMMEM_LIKELY(g.heap_on_cpu)) {
      store_one(reinterpret_cast<T *>(d), value);
    } else {
      copy_out(d, value);
    }
    return;
  }
  p_miss(dest, value, pe, call, ctx);
}

template <typename T>
[[gnu::always_inline]] inline T g_one(const T *source, int pe, const char *call, symmem_ctx_s *ctx = nullptr) {
  if (const char *s = translate_hit(source, sizeof(T), pe); SYMMEM_LIKELY(s != nullptr)) {
    return SYMMEM_LIKELY(g.heap_on_cpu) ? load_one(reinterpret_cast<const T *>(s)) : copy_in<T>(s);
  }
  return g_miss(source, pe, call, ctx);
}

// Strided transfers: element i goes from src[i*sst] to dest[i*dst]; strides count elements.
template <size_t B>
struct elem {
  unsigned char bytes[B];
};

template <typename E>
void iput_elems(E *dest, const E *src, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe, const char *call,
                symmem_ctx_s *ctx = nullptr) {
  if (n == 0 || src == nullptr) {
    return empty_or_null(n, "source", call);
  }
  if (dst < 1 || sst < 1) {
    fatal(call, "strides must be positive (dest stride %td, source stride %td)", dst, sst);
  }
  const size_t span = strided_span(n, static_cast<size_t>(dst), sizeof(E), call);
  if (SYMMEM_UNLIKELY(g.remote) && is_remote(pe)) {
    for (size_t i = 0; i < n; ++i) {
      remote_put(dest + i * static_cast<size_t>(dst), src + i * static_cast<size_t>(sst), sizeof(E), pe, false, call, ctx);
    }
    return;
  }
  E *d = reinterpret_cast<E *>(translate(dest, span, pe, call));
  for (size_t i = 0; i < n; ++i) {
    E *to = d + i * static_cast<size_t>(dst);
    const E *from = src + i * static_cast<size_t>(sst);
    if (SYMMEM_LIKELY(g.heap_on_cpu)) {
      *to = *from;
    } else {
      g.heap->copy(to, from, sizeof(E));  // GPU heap: one copy per element (correct, not fast)
    }
  }
}

template <typename E>
void iget_elems(E *dest, const E *src, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe, const char *call,
                symmem_ctx_s *ctx = nullptr) {
  if (n == 0 || dest == nullptr) {
    return empty_or_null(n, "dest", call);
  }
  if (dst < 1 || sst < 1) {
    fatal(call, "strides must be positive (dest stride %td, source stride %td)", dst, sst);
  }
  const size_t span = strided_span(n, static_cast<size_t>(sst), sizeof(E), call);
  if (SYMMEM_UNLIKELY(g.remote) && is_remote(pe)) {  // posted together, completed together
    for (size_t i = 0; i < n; ++i) {
      remote_get(dest + i * static_cast<size_t>(dst), src + i * static_cast<size_t>(sst), sizeof(E), pe, true, call, ctx);
    }
    remote_quiet(call, ctx);
    return;
  }
  const E *s = reinterpret_cast<const E *>(translate(src, span, pe, call));
  for (size_t i = 0; i < n; ++i) {
    E *to = dest + i * static_cast<size_t>(dst);
    const E *from = s + i * static_cast<size_t>(sst);
    if (SYMMEM_LIKELY(g.heap_on_cpu)) {
      *to = *from;
    } else {
      g.heap->copy(to, from, sizeof(E));
    }
  }
}

// Block-strided transfers (OpenSHMEM 1.6 ibput/ibget): nblocks blocks of bsize elements of esize
// bytes; block i from src + i * sst elements to dest + i * tst. Every size is counted without
// wrapping, and on this host the whole strided span on the peer is checked before a byte moves.
size_t block_span(size_t nblocks, ptrdiff_t stride, size_t bsize, size_t esize, const char *call) {
  size_t last = 0, elems = 0;
  if (SYMMEM_UNLIKELY(__builtin_mul_overflow(nblocks - 1, static_cast<size_t>(stride), &last) ||
                      __builtin_add_overflow(last, bsize, &elems))) {
    size_overflow(call, nblocks - 1, static_cast<size_t>(stride), "(blocks - 1) times the stride, plus a block");
  }
  return bytes_of(elems, esize, call, "the block-strided span times the element size");
}

void ib_transfer(bool put, void *dest, const void *src, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks,
                 size_t esize, int pe, const char *call, symmem_ctx_s *ctx) {
  const size_t block = bytes_of(bsize, esize, call);
  const size_t n = bytes_of(block, nblocks, call, "the block size times the block count");
  if (n == 0 || (put ? src : static_cast<const void *>(dest)) == nullptr) {
    return empty_or_null(n, put ? "source" : "dest", call);
  }
  if (tst < static_cast<ptrdiff_t>(bsize) || sst < static_cast<ptrdiff_t>(bsize)) {
    fatal(call, "the strides must be at least the block size (dest stride %td, source stride %td, block %zu elements)",
          tst, sst, bsize);
  }
  const size_t tstep = static_cast<size_t>(tst) * esize;  // no wrap: within the spans checked below
  const size_t sstep = static_cast<size_t>(sst) * esize;
  char *d = static_cast<char *>(dest);
  const char *s = static_cast<const char *>(src);
  const size_t tspan = block_span(nblocks, tst, bsize, esize, call);
  const size_t sspan = block_span(nblocks, sst, bsize, esize, call);
  if (SYMMEM_UNLIKELY(g.remote) && is_remote(pe)) {
    for (size_t i = 0; i < nblocks; ++i, d += tstep, s += sstep) {
      if (put) {
        remote_put(d, s, block, pe, false, call, ctx);
      } else {
        remote_get(d, s, block, pe, true, call, ctx);  // posted together, completed together
      }
    }
    if (!put) remote_quiet(call, ctx);
    return;
  }
  if (put) {
    d = translate(dest, tspan, pe, call);
  } else {
    s = translate(src, sspan, pe, call);
  }
  for (size_t i = 0; i < nblocks; ++i, d += tstep, s += sstep) {
    if (SYMMEM_LIKELY(g.heap_on_cpu)) {
      std::memcpy(d, s, block);
    } else {
      g.heap->copy(d, s, block);
    }
  }
}

}  // namespace
}  // namespace symmem::core

using namespace symmem::core;
using symmem::bytes_of;

extern "C" {

// Every routine twice: the default context's, and the ctx_ form, which maps the PE through its
// context's team and hands the context to the miss path (its worker carries remote operations).
#define SYMMEM_CTXW(pe) symmem::ctx::world_pe(c, pe)

void symmem_putmem(void *dest, const void *source, size_t nelems, int pe) { put_bytes(dest, source, nelems, pe, "putmem"); }
void symmem_getmem(void *dest, const void *source, size_t nelems, int pe) { get_bytes(dest, source, nelems, pe, "getmem"); }
void symmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe) {
  put_bytes(dest, source, nelems, pe, "putmem_nbi", true);
}
void symmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe) {
  get_bytes(dest, source, nelems, pe, "getmem_nbi", true);
}
void symmem_ctx_putmem(symmem_ctx_t c, void *dest, const void *source, size_t nelems, int pe) {
  put_bytes(dest, source, nelems, SYMMEM_CTXW(pe), "ctx_putmem", false, c);
}
void symmem_ctx_getmem(symmem_ctx_t c, void *dest, const void *source, size_t nelems, int pe) {
  get_bytes(dest, source, nelems, SYMMEM_CTXW(pe), "ctx_getmem", false, c);
}
void symmem_ctx_putmem_nbi(symmem_ctx_t c, void *dest, const void *source, size_t nelems, int pe) {
  put_bytes(dest, source, nelems, SYMMEM_CTXW(pe), "ctx_putmem_nbi", true, c);
}
void symmem_ctx_getmem_nbi(symmem_ctx_t c, void *dest, const void *source, size_t nelems, int pe) {
  get_bytes(dest, source, nelems, SYMMEM_CTXW(pe), "ctx_getmem_nbi", true, c);
}

// P: nothing or ctx_; CP: the context parameter; W(pe): the world PE; C: the context (nullptr).
#define SYMMEM_DEF_RMA1(T, N, P, CP, W, C)                                                           \
  void symmem_##P##N##_put(CP T *dest, const T *source, size_t nelems, int pe) {                     \
    put_bytes(dest, source, bytes_of(nelems, sizeof(T), #P #N "_put"), W(pe), #P #N "_put", false, C); \
  }                                                                                                  \
  void symmem_##P##N##_get(CP T *dest, const T *source, size_t nelems, int pe) {                     \
    get_bytes(dest, source, bytes_of(nelems, sizeof(T), #P #N "_get"), W(pe), #P #N "_get", false, C); \
  }                                                                                                  \
  void symmem_##P##N##_put_nbi(CP T *dest, const T *source, size_t nelems, int pe) {                 \
    put_bytes(dest, source, bytes_of(nelems, sizeof(T), #P #N "_put_nbi"), W(pe), #P #N "_put_nbi", true, C); \
  }                                                                                                  \
  void symmem_##P##N##_get_nbi(CP T *dest, const T *source, size_t nelems, int pe) {                 \
    get_bytes(dest, source, bytes_of(nelems, sizeof(T), #P #N "_get_nbi"), W(pe), #P #N "_get_nbi", true, C); \
  }                                                                                                  \
  void symmem_##P##N##_p(CP T *dest, T value, int pe) { p_one(dest, value, W(pe), #P #N "_p", C); }  \
  T symmem_##P##N##_g(CP const T *source, int pe) { return g_one(source, W(pe), #P #N "_g", C); }    \
  void symmem_##P##N##_iput(CP T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { \
    iput_elems(dest, source, dst, sst, nelems, W(pe), #P #N "_iput", C);                             \
  }                                                                                                  \
  void symmem_##P##N##_iget(CP T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { \
    iget_elems(dest, source, dst, sst, nelems, W(pe), #P #N "_iget", C);                             \
  }
#define SYMMEM_NOCTX(pe) pe
#define SYMMEM_DEF_RMA(T, N)                                                                         \
  SYMMEM_DEF_RMA1(T, N, , , SYMMEM_NOCTX, nullptr)                                                   \
  SYMMEM_DEF_RMA1(T, N, ctx_, symmem_ctx_t c SYMMEM_COMMA, SYMMEM_CTXW, c)
#define SYMMEM_COMMA ,
SYMMEM_RMA_TYPES(SYMMEM_DEF_RMA)
#undef SYMMEM_DEF_RMA
#undef SYMMEM_DEF_RMA1

#define SYMMEM_DEF_RMA_SIZED1(B, P, CP, W, C)                                                        \
  void symmem_##P##put##B(CP void *dest, const void *source, size_t nelems, int pe) {                \
    put_bytes(dest, source, bytes_of(nelems, B / 8, #P "put" #B), W(pe), #P "put" #B, false, C);     \
  }                                                                                                  \
  void symmem_##P##get##B(CP void *dest, const void *source, size_t nelems, int pe) {                \
    get_bytes(dest, source, bytes_of(nelems, B / 8, #P "get" #B), W(pe), #P "get" #B, false, C);     \
  }                                                                                                  \
  void symmem_##P##put##B##_nbi(CP void *dest, const void *source, size_t nelems, int pe) {          \
    put_bytes(dest, source, bytes_of(nelems, B / 8, #P "put" #B "_nbi"), W(pe), #P "put" #B "_nbi", true, C); \
  }                                                                                                  \
  void symmem_##P##get##B##_nbi(CP void *dest, const void *source, size_t nelems, int pe) {          \
    get_bytes(dest, source, bytes_of(nelems, B / 8, #P "get" #B "_nbi"), W(pe), #P "get" #B "_nbi", true, C); \
  }                                                                                                  \
  void symmem_##P##iput##B(CP void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { \
    using E = elem<B / 8>;                                                                           \
    iput_elems(static_cast<E *>(dest), static_cast<const E *>(source), dst, sst, nelems, W(pe), #P "iput" #B, C); \
  }                                                                                                  \
  void symmem_##P##iget##B(CP void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { \
    using E = elem<B / 8>;                                                                           \
    iget_elems(static_cast<E *>(dest), static_cast<const E *>(source), dst, sst, nelems, W(pe), #P "iget" #B, C); \
  }
#define SYMMEM_DEF_RMA_SIZED(B)                                                                      \
  SYMMEM_DEF_RMA_SIZED1(B, , , SYMMEM_NOCTX, nullptr)                                                \
  SYMMEM_DEF_RMA_SIZED1(B, ctx_, symmem_ctx_t c SYMMEM_COMMA, SYMMEM_CTXW, c)
SYMMEM_RMA_SIZES(SYMMEM_DEF_RMA_SIZED)
#undef SYMMEM_DEF_RMA_SIZED
#undef SYMMEM_DEF_RMA_SIZED1
#undef SYMMEM_NOCTX
#undef SYMMEM_COMMA

void symmem_ibput_sized(void *dest, const void *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks,
                        size_t esize, int pe) {
  ib_transfer(true, dest, source, tst, sst, bsize, nblocks, esize, pe, "ibput", nullptr);
}
void symmem_ibget_sized(void *dest, const void *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks,
                        size_t esize, int pe) {
  ib_transfer(false, dest, source, tst, sst, bsize, nblocks, esize, pe, "ibget", nullptr);
}
void symmem_ctx_ibput_sized(symmem_ctx_t c, void *dest, const void *source, ptrdiff_t tst, ptrdiff_t sst,
                            size_t bsize, size_t nblocks, size_t esize, int pe) {
  ib_transfer(true, dest, source, tst, sst, bsize, nblocks, esize, SYMMEM_CTXW(pe), "ctx_ibput", c);
}
void symmem_ctx_ibget_sized(symmem_ctx_t c, void *dest, const void *source, ptrdiff_t tst, ptrdiff_t sst,
                            size_t bsize, size_t nblocks, size_t esize, int pe) {
  ib_transfer(false, dest, source, tst, sst, bsize, nblocks, esize, SYMMEM_CTXW(pe), "ctx_ibget", c);
}
#undef SYMMEM_CTXW

}  // extern "C"
