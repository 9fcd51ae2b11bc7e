/* Error returns of the team routines: PEs that call a collective with different arguments all get
 * a non-zero return and a message naming every team PE's call (the argument check rides on the
 * team barrier); a bad root or team returns non-zero on every PE; and the team keeps working
 * afterwards. (The messages on stderr are expected.) */
#include "conf.h"

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  long *src = (long *)conf_calloc(64, sizeof(long));
  long *dst = (long *)conf_calloc(64 * (size_t)n, sizeof(long));
  if (n > 1) {
    /* different sizes */
    int rc = shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, me == 0 ? 2 : 3);
    CHECK(rc != 0);
    CHECK(strstr(symmem_last_error(), "collective calls differ") != NULL);
    CHECK(strstr(symmem_last_error(), "team PE") != NULL);
    /* different operations */
    rc = me == 0 ? shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4) : shmem_long_max_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
    CHECK(rc != 0);
    CHECK(strstr(symmem_last_error(), "differ") != NULL);
    /* different collectives on one team */
    rc = me == 0 ? shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, 1) : shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, 1);
    CHECK(rc != 0);
    CHECK(strstr(symmem_last_error(), "alltoall") != NULL && strstr(symmem_last_error(), "fcollect") != NULL);
  }
  shmem_barrier_all();
  CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 8, n) != 0);
  CHECK(strstr(symmem_last_error(), "PE_root") != NULL);
  CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 8, -1) != 0);
  CHECK(shmem_long_sum_reduce(SHMEM_TEAM_INVALID, dst, src, 1) != 0);
  CHECK(shmem_team_sync(SHMEM_TEAM_INVALID) != 0);
  /* the team still works */
  for (int i = 0; i < 4; ++i) src[i] = me * 10 + i;
  CHECK_EQ(shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, 4), 0);
  for (int p = 0; p < n; ++p) for (int i = 0; i < 4; ++i) CHECK_EQ(dst[p * 4 + i], p * 10 + i);
  CHECK_EQ(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4), 0);
  for (int i = 0; i < 4; ++i) CHECK_EQ(dst[i], 10L * n * (n - 1) / 2 + (long)i * n);
  shmem_finalize();
  if (me == 0) printf("conf_errors: %d PEs ok\n", n);
  return 0;
}
