// Must NOT compile: an NVSHMEM name symmem does not support fails with a message, not at link time.
#include <nvshmem.h>

int main() {
  int *p = (int *)nvshmem_malloc(sizeof(int));
  nvshmemx_buffer_register(p, sizeof(int));
  return 0;
}
