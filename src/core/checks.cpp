#include "core/checks.h"

namespace symmem::core {

void misaligned(const void *addr, size_t align, const char *call) {
  fatal(call, "address %p is not aligned to %zu bytes; atomics, waits, signals and locks need naturally aligned "
              "objects (as from symmem_malloc)", addr, align);
}

void null_argument(const char *arg, const char *call) { fatal(call, "%s is NULL", arg); }

}  // namespace symmem::core
