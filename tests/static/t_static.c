/* Global and static variables as symmetric data objects (OpenSHMEM 1.5, 3.2), kept the way real
 * programs keep them: result flags, counters, pSync/pWrk arrays and work buffers declared at file
 * scope or static in a function, never allocated. Every routine family runs on them, and the
 * pitfalls of moving the program's pages onto shared memory are exercised by mode:
 *   t_static [ops]   RMA, AMO, signals, waits, locks, collectives, shmem_ptr on globals
 *   t_static ctor    a constructor's thread writes globals all through init: no write is lost
 *   t_static fork    fork after init: the child gets a private copy; peers' stores during fork stay
 *   t_static brk     the brk heap after .bss stays private (run it also with ASLR off)
 *   t_static reloc   copy-relocated libc variables (environ, stdout, optind) stay per process
 *   t_static tls|stack|rodata|disabled   a clear error for what is not symmetric
 * (a shared library's globals: t_static_shlib.c)
 * Destinations are poisoned before each step and every byte is checked. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <shmem.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../mp/check.h"

enum { BIG = 1 << 20, NTYPED = 64 };

/* .data: initialised before main; must survive the move. */
int initialized_array[8] = {11, 12, 13, 14, 15, 16, 17, 18};
double initialized_double = 2.5;
/* .bss */
long counter;
long lock_counter;
long lock_var;
int flag;
uint64_t sig;
static unsigned char big[BIG];
static unsigned char local_src[BIG];
static double dvals[NTYPED];
static long lvals[NTYPED];
static int ivals[NTYPED];
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long psync2[SHMEM_BCAST_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];
static long red_src[256], red_dst[256];
static long coll_src[64], coll_dst[64 * 8 * 4];
const long read_only_table[4] = {1, 2, 3, 4};

static int me, npes, next_pe, prev_pe;

/* ---- ops ------------------------------------------------------------------------------------ */

static void check_initial_values(void) {
  for (int i = 0; i < 8; ++i) CHECK_EQ_LONG(initialized_array[i], 11 + i);
  CHECK(initialized_double == 2.5);
  shmem_barrier_all();
  /* Read a peer's initial data: the same program, so the same values. */
  int got[8];
  shmem_int_get(got, initialized_array, 8, next_pe);
  for (int i = 0; i < 8; ++i) CHECK_EQ_LONG(got[i], 11 + i);
  CHECK(shmem_double_g(&initialized_double, next_pe) == 2.5);
}

static void ring_putmem_getmem(uint64_t seed) {
  static unsigned char back[BIG];
  for (size_t len = 1; len <= BIG; len = len * 5 + 3) {
    memset(big, 0xA5, BIG);
    for (size_t i = 0; i < len; ++i) local_src[i] = pattern(seed + (uint64_t)me, i);
    shmem_barrier_all();
    if (len % 2) shmem_putmem(big, local_src, len, next_pe);
    else shmem_putmem_nbi(big, local_src, len, next_pe), shmem_quiet();
    shmem_barrier_all();
    for (size_t i = 0; i < len; ++i) CHECK(big[i] == pattern(seed + (uint64_t)prev_pe, i));
    for (size_t i = len; i < BIG; ++i) CHECK(big[i] == 0xA5);
    memset(back, 0x5A, len);
    if (len % 3) shmem_getmem(back, big, len, next_pe);
    else shmem_getmem_nbi(back, big, len, next_pe), shmem_quiet();
    for (size_t i = 0; i < len; ++i) CHECK(back[i] == pattern(seed + (uint64_t)me, i));
    shmem_barrier_all();
  }
}

static void typed_and_strided(void) {
  for (int i = 0; i < NTYPED; ++i) dvals[i] = -1.0, lvals[i] = -1, ivals[i] = -1;
  shmem_barrier_all();
  shmem_double_p(&dvals[0], 0.25 + me, next_pe);
  shmem_long_p(&lvals[0], 1000L + me, next_pe);
  long src[8];
  for (int i = 0; i < 8; ++i) src[i] = me * 100 + i;
  shmem_long_iput(&lvals[10], src, 3, 1, 8, next_pe);
  shmem_long_put(&lvals[40], src, 8, next_pe);
  shmem_int_put_nbi(&ivals[0], (int[]){me, me + 1, me + 2}, 3, next_pe);
  shmem_put64(&lvals[50], src, 4, next_pe);
  shmem_quiet();
  shmem_barrier_all();
  CHECK(dvals[0] == 0.25 + prev_pe);
  CHECK_EQ_LONG(lvals[0], 1000 + prev_pe);
  for (int i = 0; i < 8; ++i) {
    CHECK_EQ_LONG(lvals[10 + 3 * i], prev_pe * 100 + i);
    CHECK_EQ_LONG(lvals[40 + i], prev_pe * 100 + i);
  }
  for (int i = 0; i < 4; ++i) CHECK_EQ_LONG(lvals[50 + i], prev_pe * 100 + i);
  CHECK_EQ_LONG(lvals[11], -1);
  for (int i = 0; i < 3; ++i) CHECK_EQ_LONG(ivals[i], prev_pe + i);
  CHECK_EQ_LONG(shmem_long_g(&lvals[0], next_pe), 1000 + me);
  long back[8];
  shmem_long_iget(back, &lvals[10], 1, 3, 8, next_pe);
  for (int i = 0; i < 8; ++i) CHECK_EQ_LONG(back[i], me * 100 + i);
  shmem_barrier_all();
}

static void atomics(void) {
  static int ival;
  static unsigned long long ullval;
  static float fval;
  static uint32_t bits;
  counter = 0, ival = 0, ullval = 0, bits = 0;
  shmem_barrier_all();
  for (int i = 0; i < 100; ++i) shmem_long_atomic_fetch_add(&counter, 1, 0);
  shmem_int_atomic_inc(&ival, 0);
  shmem_ulonglong_atomic_add(&ullval, 3, 0);
  shmem_uint32_atomic_or(&bits, 1u << (me % 32), 0);
  shmem_barrier_all();
  if (me == 0) {
    CHECK_EQ_LONG(counter, 100L * npes);
    CHECK_EQ_LONG(ival, npes);
    CHECK_EQ_LONG(ullval, 3L * npes);
  }
  CHECK_EQ_LONG(shmem_long_atomic_fetch(&counter, 0), 100L * npes);
  uint32_t want = 0;
  for (int p = 0; p < npes; ++p) want |= 1u << (p % 32);
  CHECK_EQ_LONG(shmem_uint32_atomic_fetch(&bits, 0), want);
  shmem_barrier_all();
  /* compare-and-swap ring: each PE claims its next PE's word once */
  shmem_float_atomic_set(&fval, 1.5f, next_pe);
  CHECK_EQ_LONG(shmem_long_atomic_compare_swap(&lvals[1], -1, me, next_pe), -1);
  shmem_barrier_all();
  CHECK(fval == 1.5f);
  CHECK_EQ_LONG(lvals[1], prev_pe);
  shmem_barrier_all();
  CHECK_EQ_LONG(shmem_long_atomic_swap(&lvals[1], 7, next_pe), me);
  shmem_barrier_all();
}

static void waits_and_signals(uint64_t seed) {
  flag = 0, sig = 0;
  shmem_barrier_all();
  shmem_int_atomic_set(&flag, me + 1, next_pe);
  shmem_int_wait_until(&flag, SHMEM_CMP_EQ, prev_pe + 1);
  CHECK_EQ_LONG(shmem_int_test(&flag, SHMEM_CMP_EQ, prev_pe + 1), 1);
  shmem_barrier_all();
  memset(big, 0xA5, 4096);
  for (size_t i = 0; i < 4096; ++i) local_src[i] = pattern(seed ^ 77, i);
  shmem_barrier_all();
  shmem_putmem_signal(big, local_src, 4096, &sig, 9, SHMEM_SIGNAL_SET, next_pe);
  CHECK_EQ_LONG(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 9), 9);
  for (size_t i = 0; i < 4096; ++i) CHECK(big[i] == pattern(seed ^ 77, i));
  shmem_barrier_all();
  shmem_putmem_signal_nbi(big, local_src, 8, &sig, 5, SHMEM_SIGNAL_ADD, next_pe);
  shmem_quiet();
  CHECK_EQ_LONG(shmem_signal_wait_until(&sig, SHMEM_CMP_GE, 14), 14);
  shmem_barrier_all();
}

static void locks(void) {
  lock_counter = 0;
  shmem_barrier_all();
  for (int i = 0; i < 50; ++i) {
    shmem_set_lock(&lock_var);
    long v = shmem_long_g(&lock_counter, 0); /* a non-atomic read-modify-write under the lock */
    shmem_long_p(&lock_counter, v + 1, 0);
    shmem_quiet();
    shmem_clear_lock(&lock_var);
  }
  shmem_barrier_all();
  CHECK_EQ_LONG(shmem_long_g(&lock_counter, 0), 50L * npes);
  shmem_barrier_all();
}

static void collectives(void) {
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i) psync2[i] = SHMEM_SYNC_VALUE;
  for (int i = 0; i < 256; ++i) red_src[i] = me + i, red_dst[i] = -1;
  shmem_barrier_all();
  shmem_long_sum_to_all(red_dst, red_src, 256, 0, 0, npes, pwrk, psync); /* deprecated: static pSync/pWrk */
  for (int i = 0; i < 256; ++i) CHECK_EQ_LONG(red_dst[i], (long)npes * i + (long)npes * (npes - 1) / 2);
  shmem_barrier_all();
  for (int i = 0; i < 64; ++i) coll_src[i] = me * 1000 + i, coll_dst[i] = -1;
  shmem_broadcast64(coll_dst, coll_src, 64, 0, 0, 0, npes, psync2);
  if (me != 0) for (int i = 0; i < 64; ++i) CHECK_EQ_LONG(coll_dst[i], i);
  shmem_barrier_all();
  CHECK_EQ_LONG(shmem_long_max_reduce(SHMEM_TEAM_WORLD, red_dst, red_src, 256), 0);
  for (int i = 0; i < 256; ++i) CHECK_EQ_LONG(red_dst[i], npes - 1 + i);
  memset(coll_dst, 0xA5, sizeof coll_dst);
  CHECK_EQ_LONG(shmem_long_fcollect(SHMEM_TEAM_WORLD, coll_dst, coll_src, 4), 0);
  for (int p = 0; p < npes; ++p) for (int i = 0; i < 4; ++i) CHECK_EQ_LONG(coll_dst[p * 4 + i], p * 1000 + i);
  for (int i = 0; i < 64; ++i) coll_src[i] = me * 1000 + i;
  CHECK_EQ_LONG(shmem_long_alltoall(SHMEM_TEAM_WORLD, coll_dst, coll_src, 2), 0);
  for (int p = 0; p < npes; ++p) for (int i = 0; i < 2; ++i) CHECK_EQ_LONG(coll_dst[p * 2 + i], p * 1000 + me * 2 + i);
  shmem_barrier_all();
}

/* A static variable inside a function is a symmetric data object too. */
static long *function_static(void) {
  static long inside = 0;
  return &inside;
}

static void pointers_and_accessibility(void) {
  long stack_var = 0;
  long *heap_var = malloc(sizeof(long));
  CHECK_EQ_LONG(shmem_addr_accessible(&counter, next_pe), 1);
  CHECK_EQ_LONG(shmem_addr_accessible(big + BIG - 1, next_pe), 1);
  CHECK_EQ_LONG(shmem_addr_accessible(&stack_var, next_pe), 0);
  CHECK_EQ_LONG(shmem_addr_accessible(heap_var, next_pe), 0);
  long *peer = shmem_ptr(function_static(), next_pe);
  CHECK(peer != NULL);
  if (next_pe != me) CHECK(peer != function_static());
  *peer = 4242 + me; /* a plain store into the next PE's static */
  shmem_barrier_all();
  CHECK_EQ_LONG(*function_static(), 4242 + prev_pe);
  free(heap_var);
  shmem_barrier_all();
}

static void run_ops(void) {
  uint64_t seed = fresh_seed();
  check_initial_values();
  ring_putmem_getmem(seed);
  typed_and_strided();
  atomics();
  waits_and_signals(seed);
  locks();
  collectives();
  pointers_and_accessibility();
}

/* ---- ctor: a thread that a constructor started writes globals all through init --------------- */

enum { LOG_SLOTS = 4 << 20 };
static long write_log[LOG_SLOTS]; /* 32 MiB of .bss, written once each, in order */
static atomic_int stop_writer;
static long written;
static long set_by_constructor;
static pthread_t writer;

static void *writer_main(void *arg) {
  (void)arg;
  long i = 0;
  for (; i < LOG_SLOTS && !atomic_load_explicit(&stop_writer, memory_order_relaxed); ++i) {
    write_log[i] = i + 1;
    if ((i & 1023) == 0) sched_yield(); /* spread the writes over init */
  }
  written = i;
  return NULL;
}

__attribute__((constructor)) static void start_writer(void) {
  set_by_constructor = 31337;
  const char *mode = getenv("T_STATIC_MODE");
  if (mode != NULL && strcmp(mode, "ctor") == 0) pthread_create(&writer, NULL, writer_main, NULL);
}

static void run_ctor(void) {
  atomic_store(&stop_writer, 1);
  pthread_join(writer, NULL);
  CHECK_EQ_LONG(set_by_constructor, 31337);
  for (long i = 0; i < written; ++i) {
    if (write_log[i] != i + 1) {
      fprintf(stderr, "PE %d: write %ld of %ld by the constructor's thread was lost (holds %ld)\n", me, i, written,
              write_log[i]);
      CHECK(0);
    }
  }
  CHECK_EQ_LONG(shmem_long_g(&set_by_constructor, next_pe), 31337);
  printf("PE %d: the constructor's thread wrote %ld globals during init, none lost\n", me, written);
}

/* ---- fork ----------------------------------------------------------------------------------- */

long fork_value = 1;
long fork_hits;

static void run_fork(void) {
  enum { FORKS = 25, HITS = 3000 };
  fork_hits = 0;
  shmem_barrier_all();
  if (me == 0) {
    for (int f = 0; f < FORKS; ++f) {
      pid_t pid = fork();
      CHECK(pid >= 0);
      if (pid == 0) {
        int ok = fork_value == 1;
        fork_value = 2;          /* the parent must not see this */
        setenv("T_FORK_CHILD", "1", 1);
        memset(big, 0x77, BIG);  /* nor this */
        _exit(ok ? 0 : 3);
      }
      int status = 0;
      CHECK(waitpid(pid, &status, 0) == pid);
      CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
      CHECK_EQ_LONG(fork_value, 1);
      CHECK(getenv("T_FORK_CHILD") == NULL);
      CHECK(big[0] != 0x77 && big[BIG - 1] != 0x77);
    }
  } else {
    /* The peers increment PE 0's counter while it forks: none of their stores may be lost. */
    for (int i = 0; i < HITS; ++i) shmem_long_atomic_inc(&fork_hits, 0);
  }
  shmem_barrier_all();
  if (me == 0) CHECK_EQ_LONG(fork_hits, (long)HITS * (npes - 1));
  /* After the forks, PE 0's globals are still shared both ways. */
  if (me == 0) fork_value = 5;
  shmem_barrier_all();
  CHECK_EQ_LONG(shmem_long_g(&fork_value, 0), 5);
  shmem_barrier_all();
  if (me == npes - 1) shmem_long_p(&fork_value, 6, 0);
  shmem_barrier_all();
  if (me == 0) CHECK_EQ_LONG(fork_value, 6);
}

/* ---- brk: glibc's main arena grows right after .bss; it must stay private -------------------- */

extern char end; /* the linker's end of .bss */

/* Where the kernel started the brk heap: field 47 (start_brk) of /proc/self/stat. */
static uintptr_t start_brk(void) {
  char buf[4096];
  FILE *f = fopen("/proc/self/stat", "r");
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) fclose(f);
  buf[n] = 0;
  char *p = strrchr(buf, ')');
  unsigned long v = 0;
  for (int field = 2; p != NULL && field < 47; ++field) p = strchr(p + 1, ' ');
  if (p != NULL) v = strtoul(p + 1, NULL, 10);
  return (uintptr_t)v;
}

static void run_brk(void) {
  const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  const uintptr_t bss_end = ((uintptr_t)&end + page - 1) & ~(page - 1);
  if (start_brk() == bss_end) printf("PE %d: the brk heap starts right after .bss\n", me);
  char *m = malloc(1000); /* from the brk heap */
  CHECK(m != NULL);
  memset(m, 'a' + me, 1000);
  CHECK_EQ_LONG(shmem_addr_accessible(m, next_pe), 0);
  big[BIG - 1] = (unsigned char)me; /* the last byte of .bss before the break */
  shmem_barrier_all();
  for (int i = 0; i < 1000; ++i) CHECK(m[i] == 'a' + me);
  CHECK_EQ_LONG(shmem_uchar_g(&big[BIG - 1], next_pe), next_pe);
  char *more = malloc(4 << 20); /* the arena may grow by brk or mmap */
  CHECK(more != NULL);
  memset(more, me, 4 << 20);
  shmem_barrier_all();
  for (int i = 0; i < (4 << 20); i += 4096) CHECK(more[i] == me);
  free(more);
  free(m);
}

/* ---- reloc: variables of libc that copy relocations place in the program's .bss -------------- */

extern char **environ;

static void run_reloc(void) {
  printf("PE %d: environ %p stdout %p optind %p\n", me, (void *)&environ, (void *)&stdout, (void *)&optind);
  if (me == 1) {
    CHECK(setenv("T_ONLY_ON_PE1", "yes", 1) == 0);
    optind = 42;
  }
  shmem_barrier_all();
  CHECK((getenv("T_ONLY_ON_PE1") != NULL) == (me == 1));
  CHECK_EQ_LONG(optind, me == 1 ? 42 : 1);
  CHECK(environ != NULL && environ[0] != NULL);
  CHECK(fprintf(stdout, "PE %d: stdout works\n", me) > 0);
  fflush(stdout);
  shmem_barrier_all();
}

/* ---- what is not symmetric ------------------------------------------------------------------ */

static __thread long tls_var;

static void run_error(const char *mode) {
  long stack_var = 0;
  long v = 1;
  if (strcmp(mode, "tls") == 0) shmem_long_put(&tls_var, &v, 1, next_pe);
  if (strcmp(mode, "stack") == 0) shmem_long_put(&stack_var, &v, 1, next_pe);
  if (strcmp(mode, "rodata") == 0) shmem_long_get(&v, read_only_table, 1, next_pe);
  if (strcmp(mode, "disabled") == 0) shmem_long_p(&counter, 1, next_pe);
  fprintf(stderr, "PE %d: %s: no error\n", me, mode);
  shmem_global_exit(2);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "ops";
  shmem_init();
  me = shmem_my_pe(), npes = shmem_n_pes();
  next_pe = (me + 1) % npes, prev_pe = (me + npes - 1) % npes;
  if (strcmp(mode, "ops") == 0) run_ops();
  else if (strcmp(mode, "ctor") == 0) run_ctor();
  else if (strcmp(mode, "fork") == 0) run_fork();
  else if (strcmp(mode, "brk") == 0) run_brk();
  else if (strcmp(mode, "reloc") == 0) run_reloc();
  else run_error(mode);
  shmem_finalize();
  if (me == 0) printf("t_static %s: %d PEs ok\n", mode, npes);
  return 0;
}
