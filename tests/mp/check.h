/* Tiny self-checking helpers for the multi-process tests: a failed CHECK prints the PE, the file
 * and line and the condition, and ends the job with status 1 (the launcher stops the others). */
#ifndef SYMMEM_TEST_CHECK_H
#define SYMMEM_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <symmem/symmem.h>

static int check_pe(void) { return symmem_initialized() ? symmem_my_pe() : -1; }

#define CHECK(cond)                                                                          \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      fprintf(stderr, "CHECK FAILED on PE %d at %s:%d: %s\n", check_pe(), __FILE__, __LINE__, #cond); \
      fflush(stderr);                                                                        \
      if (symmem_initialized()) symmem_global_exit(1);                                       \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

#define CHECK_EQ_LONG(a, b)                                                                  \
  do {                                                                                       \
    long long check_a_ = (long long)(a), check_b_ = (long long)(b);                          \
    if (check_a_ != check_b_) {                                                              \
      fprintf(stderr, "CHECK FAILED on PE %d at %s:%d: %s == %s (%lld != %lld)\n", check_pe(), __FILE__, \
              __LINE__, #a, #b, check_a_, check_b_);                                         \
      fflush(stderr);                                                                        \
      if (symmem_initialized()) symmem_global_exit(1);                                       \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

/* A deterministic byte pattern that differs per (seed, index): unwritten data shows. */
static inline unsigned char pattern(uint64_t seed, size_t i) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ULL + i * 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 29;
  return (unsigned char)(x ^ (x >> 17));
}

static inline uint64_t fresh_seed(void) {
  /* fresh per run, the same on every PE: derived from the job id the launcher sets */
  const char *job = getenv("SYMMEM_JOB_ID");
  uint64_t s = 1469598103934665603ULL;
  for (const char *p = job ? job : "singleton"; *p; ++p) s = (s ^ (unsigned char)*p) * 1099511628211ULL;
  return s;
}

#endif
