// A host file compiled by the C++ compiler (not nvcc) and linked with -lnvshmem_host only, as
// NVSHMEM allows: no GPU work, so it runs on machines without one too. It also makes a team of
// every PE in reverse order from a unique id (nvshmemx_team_init, NVSHMEM 3.4) and uses it.
#include <nvshmem.h>
#include <nvshmemx.h>
#include <stdio.h>

#define CHECK(c)                                                                   \
  do {                                                                             \
    if (!(c)) {                                                                    \
      fprintf(stderr, "host file: PE %d: check failed: %s\n", nvshmem_my_pe(), #c); \
      nvshmem_global_exit(1);                                                      \
    }                                                                              \
  } while (0)

int main() {
  nvshmem_init();
  int me = nvshmem_my_pe(), n = nvshmem_n_pes();
  nvshmem_barrier_all();
  printf("host file: PE %d of %d\n", me, n);

  nvshmemx_team_uniqueid_t *box = (nvshmemx_team_uniqueid_t *)nvshmem_malloc(sizeof *box);
  if (me == 0) {
    nvshmemx_team_uniqueid_t made = 0;
    CHECK(nvshmemx_team_get_uniqueid(&made) == 0);
    for (int p = 0; p < n; ++p) nvshmem_putmem(box, &made, sizeof made, p);
  }
  nvshmem_barrier_all();
  // The heap may be GPU memory, which a host file does not dereference: read it with a get.
  nvshmemx_team_uniqueid_t id = 0;
  nvshmem_getmem(&id, box, sizeof id, me);
  nvshmem_team_config_t config = NVSHMEM_TEAM_CONFIG_INITIALIZER;
  config.uniqueid = id;
  nvshmem_team_t rev = NVSHMEM_TEAM_INVALID;
  CHECK(nvshmemx_team_init(&rev, &config, NVSHMEM_TEAM_CONFIG_MASK_UNIQUEID, n, n - 1 - me) == 0);
  CHECK(rev != NVSHMEM_TEAM_INVALID);
  CHECK(nvshmem_team_my_pe(rev) == n - 1 - me && nvshmem_team_n_pes(rev) == n);
  for (int i = 0; i < n; ++i) CHECK(nvshmem_team_translate_pe(rev, i, NVSHMEM_TEAM_WORLD) == n - 1 - i);
  nvshmem_team_config_t got = NVSHMEM_TEAM_CONFIG_INITIALIZER;
  got.uniqueid = 0;
  nvshmem_team_get_config(rev, &got);
  CHECK(got.uniqueid == id);
  // A split of it with a configuration, as NVSHMEM programs pass one: its first PE alone.
  nvshmem_team_t first = NVSHMEM_TEAM_INVALID;
  nvshmem_team_config_t two = NVSHMEM_TEAM_CONFIG_INITIALIZER;
  two.num_contexts = 2;
  CHECK(nvshmem_team_split_strided(rev, 0, 1, 1, &two, NVSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS, &first) == 0);
  CHECK((first != NVSHMEM_TEAM_INVALID) == (me == n - 1));
  if (first != NVSHMEM_TEAM_INVALID) {
    nvshmem_team_get_config(first, &got);
    CHECK(got.num_contexts == 2 && got.uniqueid == UINT64_MAX);
    nvshmem_team_destroy(first);
  }
  nvshmem_team_destroy(rev);
  nvshmem_barrier_all();
  if (me == 1) printf("host file: team of %d PEs from a unique id ok\n", n);
  nvshmem_free(box);
  nvshmem_finalize();
  return 0;
}
