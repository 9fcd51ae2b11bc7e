// symmem: malloc_with_hints and pcontrol.
#include <cstdarg>

#include "core/state.h"

extern "C" {

// Hints tell where the memory will be used (atomics, signals); with every peer mapped by load/store
// there is nothing to place differently, so known hints are accepted and the allocation is malloc's.
void *symmem_malloc_with_hints(size_t size, long hints) {
  if (hints & ~(SYMMEM_MALLOC_ATOMICS_REMOTE | SYMMEM_MALLOC_SIGNAL_REMOTE)) {
    symmem::warn("malloc_with_hints: unknown hints %#lx ignored", hints);
  }
  return symmem_malloc(size);
}

// Profiling control (OpenSHMEM 1.5, 9.15): symmem has no profiling levels; the call is accepted.
void symmem_pcontrol(int level, ...) { (void)level; }

}  // extern "C"
