// symmem: the guard left where the heap was.
//
// finalize releases the heap's memory but keeps its address range reserved (PROT_NONE, no memory,
// no descriptor). A load or store through a symmetric pointer after finalize then faults inside a
// known range, and the SIGSEGV handler says so ("access to symmetric address ... after
// symmem_finalize") instead of leaving a bare segmentation fault. Faults elsewhere go to the
// handler that was installed before. The next init gives the range back first.
#pragma once

#include <cstddef>
#include <cstdint>

namespace symmem::core::guard {

void arm(uintptr_t base, size_t size);
void disarm();

}  // namespace symmem::core::guard
