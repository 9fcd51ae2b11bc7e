// Must NOT compile: an NVSHMEM name symmem does not support fails with a message, not at link time.
#include <nvshmem.h>

int main() {
  nvshmem_init();
  nvshmem_ctx_create(0, nullptr);
  return 0;
}
