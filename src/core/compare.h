// symmem: the six OpenSHMEM comparisons (SHMEM_CMP_EQ ... LE), for every host-side wait and test.
#pragma once

#include "common/error.h"
#include "symmem/symmem.h"

namespace symmem::core {

// True when `v cmp value` holds; an unknown comparison ends the job naming the call.
template <typename T>
bool holds(T v, int cmp, T value, const char *call) {
  switch (cmp) {
    case SYMMEM_CMP_EQ: return v == value;
    case SYMMEM_CMP_NE: return v != value;
    case SYMMEM_CMP_GT: return v > value;
    case SYMMEM_CMP_GE: return v >= value;
    case SYMMEM_CMP_LT: return v < value;
    case SYMMEM_CMP_LE: return v <= value;
    default: fatal(call, "comparison %d is not one of SHMEM_CMP_EQ, NE, GT, GE, LT, LE (0..5)", cmp);
  }
}

}  // namespace symmem::core
