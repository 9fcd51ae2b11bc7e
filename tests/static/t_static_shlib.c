/* A global of a shared library, and a thread-local variable of one, are not symmetric: RMA on them
 * ends with a message that says what they are (the program's own globals are symmetric, and so is
 * a library's global that the program names directly: a copy relocation puts it in the program). */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

long *t_static_lib_global_addr(void);
long *t_static_lib_tls_addr(void);
long program_global;

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "global";
  shmem_init();
  int next = (shmem_my_pe() + 1) % shmem_n_pes();
  if (shmem_addr_accessible(&program_global, next) != 1 || shmem_addr_accessible(t_static_lib_global_addr(), next) != 0) {
    fprintf(stderr, "PE %d: wrong addr_accessible\n", shmem_my_pe());
    return 3;
  }
  long v = 1;
  if (strcmp(mode, "global") == 0) shmem_long_atomic_add(t_static_lib_global_addr(), 1, next);
  else shmem_long_put(t_static_lib_tls_addr(), &v, 1, next);
  fprintf(stderr, "PE %d: %s: no error\n", shmem_my_pe(), mode);
  shmem_global_exit(2);
  return 2;
}
