/* The bootstrap tests' shared pieces: checks and the workload every bootstrap must carry.
 *
 * The workload: every PE checks which PEs share its host (same host identity <=> a non-NULL
 * symmem_ptr), that every PE is accessible (PEs on other hosts through the network transport),
 * writes its PE number into every PE's heap (stores into mapped memory, RMA over the network),
 * and checks what it received after a barrier. Barriers between hosts go over the network. */
#ifndef SYMMEM_TEST_BOOT_COMMON_H
#define SYMMEM_TEST_BOOT_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <symmem/init_attr.h>
#include <symmem/symmem.h>

#define BCHECK(cond)                                                                              \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      fprintf(stderr, "CHECK FAILED on PE %d at %s:%d: %s\n", symmem_initialized() ? symmem_my_pe() : -1, \
              __FILE__, __LINE__, #cond);                                                         \
      fflush(stderr);                                                                             \
      if (symmem_initialized()) symmem_global_exit(1);                                            \
      exit(1);                                                                                    \
    }                                                                                             \
  } while (0)

/* host_of(pe) < 0: every PE on one host; else PEs p and q share a host iff host_of(p) == host_of(q). */
typedef int (*boot_host_fn)(int pe, int n);

static int boot_host_split2(int pe, int n) {
  (void)n;
  return pe % 2;
}

/* SYMMEM_HOSTNAME for a PE whose number the process knows before init. */
static void boot_set_hostname(int host) {
  char name[32];
  snprintf(name, sizeof name, "boot-test-host-%d", host);
  setenv("SYMMEM_HOSTNAME", name, 1);
}

static void boot_workload(const char *expect_boot, boot_host_fn host_of) {
  const int n = symmem_n_pes();
  const int me = symmem_my_pe();
  BCHECK(me >= 0 && me < n);
  if (expect_boot != NULL && strcmp(expect_boot, symmem_bootstrap_name()) != 0) {
    fprintf(stderr, "PE %d: bootstrap is %s, expected %s\n", me, symmem_bootstrap_name(), expect_boot);
    BCHECK(0);
  }
  long *slots = (long *)symmem_calloc((size_t)n, sizeof(long));
  BCHECK(slots != NULL);
  int mapped = 0;
  for (int p = 0; p < n; ++p) {
    int same = host_of == NULL || host_of(p, n) == host_of(me, n);
    BCHECK(symmem_pe_accessible(p) == 1);
    BCHECK((symmem_ptr(slots, p) != NULL) == same);
    long v = me + 1;
    symmem_putmem(&slots[me], &v, sizeof v, p);
    mapped += same;
  }
  symmem_barrier_all();
  for (int p = 0; p < n; ++p) BCHECK(slots[p] == p + 1);
  symmem_barrier_all();
  symmem_free(slots);
  printf("PE %d of %d ok: bootstrap %s, %d PEs mapped, %d reached\n", me, n, symmem_bootstrap_name(), mapped, n);
  fflush(stdout);
}

#endif
