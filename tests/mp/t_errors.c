/* Bad input that symmem reports and survives: each case prints a clear message, returns the
 * documented result, and the job goes on (ctest checks the messages through the output).
 * Usage: t_errors <case>. */
#include <shmem.h>

#include "check.h"

static int mismatch_malloc(void) {
  const int me = shmem_my_pe();
  /* PE 0 asks 1024 bytes, the others 2048: every PE gets NULL and the message names both */
  void *p = shmem_malloc(me == 0 ? 1024 : 2048);
  CHECK(p == NULL);
  CHECK(symmem_last_error_code() == SYMMEM_ERR_MISMATCH);
  CHECK(strstr(symmem_last_error(), "malloc(1024 bytes)") != NULL);
  CHECK(strstr(symmem_last_error(), "malloc(2048 bytes)") != NULL);
  /* nothing was lost: the heap is consistent and the next call works */
  long *q = shmem_malloc(sizeof(long));
  CHECK(q != NULL);
  shmem_long_p(q, 42, (me + 1) % shmem_n_pes());
  shmem_barrier_all();
  CHECK_EQ_LONG(*q, 42);
  shmem_free(q);
  return 0;
}

static int mismatch_call(void) {
  const int me = shmem_my_pe();
  void *p = shmem_malloc(64);
  /* PE 0 frees while the others allocate: a different call at the same point */
  if (me == 0) shmem_free(p);
  else CHECK(shmem_malloc(64) == NULL);
  CHECK(symmem_last_error_code() == SYMMEM_ERR_MISMATCH);
  CHECK(strstr(symmem_last_error(), "free(") != NULL);
  CHECK(strstr(symmem_last_error(), "malloc(64 bytes)") != NULL);
  shmem_free(p); /* all PEs now agree: this one works */
  return 0;
}

static int free_not_heap(void) {
  long local = 0;
  shmem_free(&local);
  CHECK(symmem_last_error_code() == SYMMEM_ERR_INVALID_ARGUMENT);
  CHECK(strstr(symmem_last_error(), "not in the symmetric heap") != NULL);
  long *p = shmem_malloc(256);
  shmem_free(p + 1); /* inside a block, not its start */
  CHECK(symmem_last_error_code() == SYMMEM_ERR_INVALID_ARGUMENT);
  shmem_free(p); /* still a live allocation: freeing it works */
  size_t used = 1;
  symmem_heap_usage(&used, NULL);
  CHECK_EQ_LONG(used, 0);
  return 0;
}

static int bad_align(void) {
  CHECK(shmem_align(24, 100) == NULL);
  CHECK(symmem_last_error_code() == SYMMEM_ERR_INVALID_ARGUMENT);
  return 0;
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  shmem_init();
  int rc = 2;
  if (!strcmp(which, "mismatch_malloc")) rc = mismatch_malloc();
  else if (!strcmp(which, "mismatch_call")) rc = mismatch_call();
  else if (!strcmp(which, "free_not_heap")) rc = free_not_heap();
  else if (!strcmp(which, "bad_align")) rc = bad_align();
  else fprintf(stderr, "t_errors: unknown case '%s'\n", which);
  shmem_finalize();
  if (rc == 0 && symmem_initialized() == 0) printf("t_errors %s: ok\n", which);
  return rc;
}
