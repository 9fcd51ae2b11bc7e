/* Prints the heap size after init; with T_EXPECT_BYTES set, checks it holds that many bytes
 * (rounded up to the 2 MiB granule). */
#include <symmem/symmem.h>

#include "check.h"

int main(void) {
  if (symmem_init() != SYMMEM_SUCCESS) return 1;
  size_t size = symmem_heap_size();
  const char *want = getenv("T_EXPECT_BYTES");
  if (want) {
    unsigned long long w = strtoull(want, NULL, 10);
    CHECK(size >= w && size < w + (2u << 20));
  }
  if (symmem_my_pe() == 0) printf("heap %zu bytes\n", size);
  symmem_finalize();
  return 0;
}
