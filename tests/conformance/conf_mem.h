/* Where the conformance tests keep their symmetric buffers: in the symmetric heap (shmem_malloc),
 * or, when the program runs with CONF_MEMORY=static, in a global array of the program, which is a
 * symmetric data object as well (OpenSHMEM 1.5, section 3.2). The suite runs every program both
 * ways. The static pool is carved in call order, so every PE gets the same offsets, and each call
 * synchronises like the heap routine it stands for (shmem_malloc and shmem_free imply a barrier). */
#ifndef SYMMEM_CONF_MEM_H
#define SYMMEM_CONF_MEM_H

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CONF_POOL_BYTES = 8 << 20 };
__attribute__((aligned(4096), unused)) static unsigned char conf_pool[CONF_POOL_BYTES];
__attribute__((unused)) static size_t conf_pool_used;

static inline int conf_static(void) {
  static int mode = -1;
  if (mode < 0) {
    const char *m = getenv("CONF_MEMORY");
    mode = m != NULL && strcmp(m, "static") == 0;
  }
  return mode;
}

static inline void *conf_malloc(size_t n) {
  if (!conf_static()) return shmem_malloc(n);
  shmem_barrier_all();
  size_t at = (conf_pool_used + 63) & ~(size_t)63;
  if (n == 0) return NULL;
  if (at > CONF_POOL_BYTES || n > CONF_POOL_BYTES - at) {
    fprintf(stderr, "PE %d: conf_malloc(%zu): the static pool (%d bytes) is full\n", shmem_my_pe(), n, CONF_POOL_BYTES);
    shmem_global_exit(1);
  }
  conf_pool_used = at + n;
  return conf_pool + at;
}

static inline void *conf_calloc(size_t count, size_t size) {
  if (!conf_static()) return shmem_calloc(count, size);
  void *p = conf_malloc(count * size);
  if (p != NULL) memset(p, 0, count * size);
  shmem_barrier_all(); /* every PE's copy is zero before anyone writes into it */
  return p;
}

static inline void conf_free(void *p) {
  if (!conf_static()) shmem_free(p);
  else shmem_barrier_all();
}

#endif
