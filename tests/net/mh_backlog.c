/* Puts posted faster than the link carries them: a small put across hosts returns before the
 * network took its copy (it travels as one answered message), so without a bound the sender's
 * memory grows by what it posted. PE 0 streams MIB MiB of 4 KiB puts, then 64 KiB ones, to the
 * first PE of the other host with no quiet in between, and must grow by less than 64 MiB (peak
 * resident memory, VmHWM); the target then checks that the last round of puts landed in its
 * poisoned buffer.
 *
 *   mh_backlog [MIB]      (default 256) */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW (1L << 20) /* the target's buffer: each round of puts covers it once */

/* AddressSanitizer keeps freed memory in quarantine: the peak says nothing there. */
#if defined(__SANITIZE_ADDRESS__)
static const int sanitized = 1;
#else
static const int sanitized = 0;
#endif

static long peak_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  while (f != NULL && fgets(line, sizeof line, f) != NULL)
    if (strncmp(line, "VmHWM:", 6) == 0) v = atol(line + 6);
  if (f != NULL) fclose(f);
  return v;
}

static void fill(unsigned char *p, long n, long round) { memset(p, (int)((round * 13 + 1) & 0xff), (size_t)n); }

int main(int argc, char **argv) {
  shmem_init();
  const long total = (argc > 1 ? atol(argv[1]) : 256) << 20;
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const char *per_env = getenv("CONF_PES_PER_HOST");
  const int target = per_env != NULL ? atoi(per_env) % n : n - 1; /* the first PE of the second host */
  unsigned char *dest = shmem_malloc(WINDOW);
  unsigned char *src = malloc(WINDOW);
  if (dest == NULL || src == NULL || target == 0) {
    fprintf(stderr, "PE %d: setup failed (target PE %d)\n", me, target);
    shmem_global_exit(1);
  }
  const long sizes[] = {4096, 65536};
  for (int k = 0; k < 2; ++k) {
    const long size = sizes[k];
    const long rounds = total / WINDOW;
    memset(dest, 0xee, WINDOW); /* poison: an unwritten byte shows */
    shmem_barrier_all();
    if (me == 0) {
      const long before = peak_kib();
      for (long r = 0; r < rounds; ++r) {
        fill(src, WINDOW, r); /* the source changes at once: a put must have taken its copy */
        for (long at = 0; at < WINDOW; at += size) shmem_putmem(dest + at, src + at, (size_t)size, target);
      }
      const long grew = peak_kib() - before;
      shmem_quiet();
      printf("PE 0: %ld MiB in %ld-byte puts: peak memory grew by %ld KiB\n", total >> 20, size, grew);
      if (before < 0 || (grew > 64L * 1024 && !sanitized)) {
        fprintf(stderr, "PE 0: %ld-byte puts: peak memory grew by %ld KiB (at most 65536 wanted)\n", size, grew);
        shmem_global_exit(1);
      }
    }
    shmem_barrier_all();
    if (me == target) {
      fill(src, WINDOW, rounds - 1);
      for (long i = 0; i < WINDOW; ++i) {
        if (dest[i] != src[i]) {
          fprintf(stderr, "PE %d: %ld-byte puts: byte %ld is %#x, want %#x\n", me, size, i, dest[i], src[i]);
          shmem_global_exit(1);
        }
      }
    }
  }
  shmem_barrier_all();
  free(src);
  shmem_free(dest);
  if (me == 0) printf("mh_backlog: %d PEs ok\n", n);
  shmem_finalize();
  return 0;
}
