/* libsymmem-shmem: the OpenSHMEM ABI. Every routine of the list in <shmem/routines.h> becomes a
 * real function pshmem_NAME over libsymmem, and NAME a weak alias of it (OpenSHMEM 9.14: a
 * profiling tool defines NAME and calls pshmem_NAME). The shmem_ names live in this library, not
 * in libsymmem, so a program that uses only the symmem_ API can share a process with another
 * OpenSHMEM library (docs/naming.md). The version script symmem-shmem.map exports these names and
 * nothing else. */
#define SYMMEM_SHMEM_BUILDING_ABI 1
#include <pshmem.h>
#include <shmem.h>
#include <shmemx.h>

/* pshmem_global_exit ends the job: symmem_global_exit does not return. */
#define SYMMEM_ABI_ALIAS(NAME) extern __typeof(p##NAME) NAME __attribute__((weak, alias("p" #NAME)));
#define SYMMEM_SHMEM_FN(R, NAME, P, CALL) \
  R p##NAME P { return CALL; }            \
  SYMMEM_ABI_ALIAS(NAME)
#define SYMMEM_SHMEM_VFN(NAME, P, CALL) \
  void p##NAME P { CALL; }              \
  SYMMEM_ABI_ALIAS(NAME)
#include "shmem/routines.h"
#include "shmem/routines_x.h"
