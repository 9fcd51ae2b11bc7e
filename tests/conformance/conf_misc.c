/* The rest of the 1.5 setup and memory routines: info_get_version / info_get_name and the version
 * constants, malloc_with_hints, calloc, align, realloc, pcontrol, pe_accessible, addr_accessible,
 * shmem_ptr, and init/finalize/initialized-style queries through shmem_query_thread. */
#include "conf.h"

/* Programs written from Open MPI's examples check the spec version under OSHMEM's name. */
#if !defined(OSHMEM_SPEC_VERSION) || OSHMEM_SPEC_VERSION != SHMEM_MAJOR_VERSION * 10000 + SHMEM_MINOR_VERSION * 100
#error OSHMEM_SPEC_VERSION is missing or wrong
#endif

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  int major = 0, minor = 0;
  shmem_info_get_version(&major, &minor);
  CHECK_EQ(major, SHMEM_MAJOR_VERSION);
  CHECK_EQ(minor, SHMEM_MINOR_VERSION);
  CHECK_EQ(major, 1);
  CHECK_EQ(minor, 5);
  char name[SHMEM_MAX_NAME_LEN];
  shmem_info_get_name(name);
  CHECK(strlen(name) > 0 && strlen(name) < SHMEM_MAX_NAME_LEN);
  CHECK(strlen(SHMEM_VENDOR_STRING) > 0);
  const long hints[] = {0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE,
                        SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE};
  for (int k = 0; k < 4; ++k) {
    long *p = (long *)shmem_malloc_with_hints(1024, hints[k]);
    CHECK(p != NULL);
    p[0] = me;
    shmem_barrier_all();
    CHECK_EQ(shmem_long_atomic_fetch_add(p, 1, (me + 1) % n), (me + 1) % n + (k == 99));
    shmem_barrier_all();
    shmem_free(p);
  }
  CHECK(shmem_malloc_with_hints(0, 0) == NULL);
  unsigned char *z = (unsigned char *)shmem_calloc(100, 3);
  for (int i = 0; i < 300; ++i) CHECK_EQ(z[i], 0);
  shmem_pcontrol(0);
  shmem_pcontrol(1);
  shmem_pcontrol(2, "extra");
  long *a = (long *)conf_calloc(4, sizeof(long)); /* heap, or a global (CONF_MEMORY=static) */
  long local = 0;
  for (int p = 0; p < n; ++p) {
    CHECK_EQ(shmem_pe_accessible(p), 1);
    CHECK_EQ(shmem_addr_accessible(z, p), 1);
    CHECK_EQ(shmem_addr_accessible(a, p), 1);
    CHECK_EQ(shmem_addr_accessible(&local, p), 0); /* a stack variable is not symmetric */
    CHECK((shmem_ptr(z, p) != NULL) == conf_same_host(me, p)); /* mapped: only on this PE's host */
    CHECK((shmem_ptr(a, p) != NULL) == conf_same_host(me, p));
  }
  CHECK(shmem_ptr(z, me) == z);
  CHECK(shmem_ptr(a, me) == a);
  /* A plain store through shmem_ptr lands in the next PE's copy (a put when it is on another host). */
  long *next = (long *)shmem_ptr(&a[1], (me + 1) % n);
  if (next != NULL) *next = 100 + me;
  else shmem_long_p(&a[1], 100 + me, (me + 1) % n);
  shmem_barrier_all();
  CHECK_EQ(a[1], 100 + (me + n - 1) % n);
  conf_free(a);
  shmem_free(z);
  shmem_finalize();
  if (me == 0) printf("conf_misc: %d PEs ok\n", n);
  return 0;
}
