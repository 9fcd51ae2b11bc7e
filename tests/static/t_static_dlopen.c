/* libsymmem loaded with dlopen after the program started threads (as Python or a plugin host
 * would): init moves the program's globals onto shared memory while a thread keeps writing them.
 * No write may be lost, and the globals are then symmetric. Not linked with libsymmem: argv[1]
 * names the library. */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

enum { SLOTS = 4 << 20 };
static long write_log[SLOTS];
static atomic_int stop;
static long written;
long ring_value;

static void *writer(void *arg) {
  (void)arg;
  long i = 0;
  for (; i < SLOTS && !atomic_load_explicit(&stop, memory_order_relaxed); ++i) {
    write_log[i] = i + 1;
    if ((i & 1023) == 0) sched_yield();
  }
  written = i;
  return NULL;
}

#define FAIL(...) (fprintf(stderr, __VA_ARGS__), exit(1))

int main(int argc, char **argv) {
  if (argc < 2) FAIL("usage: t_static_dlopen LIBSYMMEM\n");
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) FAIL("dlopen: %s\n", dlerror());
  int (*init)(void) = (int (*)(void))dlsym(lib, "symmem_init");
  int (*my_pe)(void) = (int (*)(void))dlsym(lib, "symmem_my_pe");
  int (*n_pes)(void) = (int (*)(void))dlsym(lib, "symmem_n_pes");
  void (*long_p)(long *, long, int) = (void (*)(long *, long, int))dlsym(lib, "symmem_long_p");
  void (*barrier_all)(void) = (void (*)(void))dlsym(lib, "symmem_barrier_all");
  void (*finalize)(void) = (void (*)(void))dlsym(lib, "symmem_finalize");
  if (!init || !my_pe || !n_pes || !long_p || !barrier_all || !finalize) FAIL("dlsym: %s\n", dlerror());
  if (init() != 0) FAIL("symmem_init failed\n");
  atomic_store(&stop, 1);
  pthread_join(t, NULL);
  const int me = my_pe(), n = n_pes();
  for (long i = 0; i < written; ++i) {
    if (write_log[i] != i + 1) FAIL("PE %d: write %ld of %ld was lost during init\n", me, i, written);
  }
  long_p(&ring_value, 100 + me, (me + 1) % n);
  barrier_all();
  if (ring_value != 100 + (me + n - 1) % n) FAIL("PE %d: ring_value %ld\n", me, ring_value);
  finalize();
  printf("PE %d: %ld writes during a dlopen'ed init, none lost; globals symmetric\n", me, written);
  return 0;
}
