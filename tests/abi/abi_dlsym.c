/* The OpenSHMEM ABI as a dynamic loader sees it: every routine of the list, and its pshmem_ twin,
 * is found by dlsym in libsymmem-shmem (and, in a program linked with it, through RTLD_DEFAULT);
 * libsymmem itself exports none of them, so it can share a process with another OpenSHMEM library.
 * With --names it prints the list, one a line (the autoconf-style link probe is written from it). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "abi_names.h"

static int check_handle(void *h, const char *lib) {
  int missing = 0;
  char pname[256];
  for (size_t i = 0; i < ABI_NAME_COUNT; ++i) {
    snprintf(pname, sizeof pname, "p%s", abi_names[i]);
    if (!dlsym(h, abi_names[i])) fprintf(stderr, "%s: %s not found\n", lib, abi_names[i]), ++missing;
    if (!dlsym(h, pname)) fprintf(stderr, "%s: %s not found\n", lib, pname), ++missing;
  }
  return missing;
}

/* A reference that keeps libsymmem-shmem linked where the linker drops unused libraries. */
void (*volatile abi_keep)(void) = shmem_barrier_all;

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--names") == 0) {
    for (size_t i = 0; i < ABI_NAME_COUNT; ++i) printf("%s\n", abi_names[i]);
    return 0;
  }
  int bad = 0;
  void *abi = dlopen("libsymmem-shmem.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!abi) return fprintf(stderr, "dlopen libsymmem-shmem: %s\n", dlerror()), 1;
  bad += check_handle(abi, "libsymmem-shmem");
  /* This program links libsymmem-shmem (it calls shmem_my_pe below): the global scope has them. */
  bad += check_handle(RTLD_DEFAULT, "global scope");
  void *core = dlopen("libsymmem.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!core) return fprintf(stderr, "dlopen libsymmem: %s\n", dlerror()), 1;
  for (size_t i = 0; i < ABI_NAME_COUNT; ++i) {
    /* dlsym on a handle searches that library and its dependencies only. */
    if (dlsym(core, abi_names[i])) fprintf(stderr, "libsymmem exports %s\n", abi_names[i]), ++bad;
  }
  if (!dlsym(core, "symmem_barrier_all")) fprintf(stderr, "libsymmem lacks symmem_barrier_all\n"), ++bad;
  if (bad) return fprintf(stderr, "abi_dlsym: %d problems\n", bad), 1;
  printf("abi_dlsym: %zu routines and their pshmem_ names found\n", ABI_NAME_COUNT);
  return 0;
}
