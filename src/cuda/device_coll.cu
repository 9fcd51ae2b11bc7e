// libsymmem_device_coll.a: strong definitions of the device collectives' out-of-line copies
// (include/symmem/detail/coll_outline.cuh), compiled with separate compilation and at most
// SYMMEM_DEVICE_COLL_REGS registers (CMake). A program built with -rdc and
// -DSYMMEM_DEVICE_OUTLINE_COLLECTIVES whose device link names this archive takes them in place of
// the inline copies of its own files, so a kernel calling a collective keeps that many registers or
// fewer and launches with blocks of 1024 threads.
#define SYMMEM_OUTLINE_LIBRARY 1
#include "symmem/device.cuh"
