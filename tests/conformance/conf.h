/* Helpers for the OpenSHMEM 1.5 conformance tests: every test is a self-checking C program built
 * against <shmem.h> alone. A failed CHECK names the PE, the line and the values, and ends the job
 * with status 1. Destinations are poisoned before every operation and sources carry fresh data,
 * so a byte that was not written, or written twice, shows. */
#ifndef SYMMEM_CONF_H
#define SYMMEM_CONF_H

#include <shmem.h>
#include <stdint.h>

#include "conf_mem.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                              \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      fprintf(stderr, "CHECK FAILED on PE %d at %s:%d: %s\n", shmem_my_pe(), __FILE__, __LINE__, #cond); \
      fflush(stderr);                                                                            \
      shmem_global_exit(1);                                                                      \
    }                                                                                            \
  } while (0)

#define CHECK_EQ(a, b)                                                                           \
  do {                                                                                           \
    long long ca_ = (long long)(a), cb_ = (long long)(b);                                        \
    if (ca_ != cb_) {                                                                            \
      fprintf(stderr, "CHECK FAILED on PE %d at %s:%d: %s == %s (%lld != %lld)\n", shmem_my_pe(), \
              __FILE__, __LINE__, #a, #b, ca_, cb_);                                             \
      fflush(stderr);                                                                            \
      shmem_global_exit(1);                                                                      \
    }                                                                                            \
  } while (0)

#define POISON 0xA5

/* Which PEs share a host: CONF_PES_PER_HOST=k says PEs r and q do when r / k == q / k (the
 * multi-host suite runs k PEs per emulated host); unset: one host. */
static inline int conf_per_host(void) {
  const char *v = getenv("CONF_PES_PER_HOST");
  return v != NULL && atoi(v) > 0 ? atoi(v) : 1 << 30;
}
static inline int conf_same_host(int p, int q) { return p / conf_per_host() == q / conf_per_host(); }
/* The PEs of this PE's host, and this PE's index among them. */
static inline int conf_host_pes(int me, int n) {
  int c = 0;
  for (int p = 0; p < n; ++p) c += conf_same_host(p, me);
  return c;
}
static inline int conf_host_index(int me) {
  int c = 0;
  for (int p = 0; p < me; ++p) c += conf_same_host(p, me);
  return c;
}

/* Fresh data per run and per (seed, index), the same on every PE. */
static inline unsigned char pat(uint64_t seed, size_t i) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ULL + (i + 1) * 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 29;
  x *= 0x94D049BB133111EBULL;
  return (unsigned char)(x ^ (x >> 31));
}

static inline uint64_t conf_seed(void) {
  const char *job = getenv("SYMMEM_JOB_ID");
  uint64_t s = 1469598103934665603ULL;
  for (const char *p = job ? job : "singleton"; *p; ++p) s = (s ^ (unsigned char)*p) * 1099511628211ULL;
  return s;
}

static inline void fill(void *buf, size_t n, uint64_t seed) {
  for (size_t i = 0; i < n; ++i) ((unsigned char *)buf)[i] = pat(seed, i);
}

/* Checks n bytes against the pattern; names the first wrong byte. */
static inline void expect_bytes(const void *buf, size_t n, uint64_t seed, const char *what, int line) {
  for (size_t i = 0; i < n; ++i) {
    unsigned char got = ((const unsigned char *)buf)[i];
    if (got != pat(seed, i)) {
      fprintf(stderr, "CHECK FAILED on PE %d at line %d: %s: byte %zu of %zu is %#x, expected %#x\n",
              shmem_my_pe(), line, what, i, n, got, pat(seed, i));
      fflush(stderr);
      shmem_global_exit(1);
    }
  }
}
#define EXPECT_BYTES(buf, n, seed, what) expect_bytes(buf, n, seed, what, __LINE__)

static inline void expect_poison(const void *buf, size_t n, const char *what, int line) {
  for (size_t i = 0; i < n; ++i) {
    if (((const unsigned char *)buf)[i] != POISON) {
      fprintf(stderr, "CHECK FAILED on PE %d at line %d: %s: byte %zu was written\n", shmem_my_pe(), line, what, i);
      fflush(stderr);
      shmem_global_exit(1);
    }
  }
}
#define EXPECT_POISON(buf, n, what) expect_poison(buf, n, what, __LINE__)

#endif
