/* symmem: the profiling names of OpenSHMEM (9.14): every routine of <shmem.h> and <shmemx.h> as
 * pNAME: pshmem_NAME, pshmemx_NAME (and
 * pstart_pes, p_my_pe, pshmalloc, ... for the deprecated names without the shmem_ prefix).
 *
 * libsymmem-shmem defines each pshmem_ routine and exports the shmem_ name as a weak alias of it,
 * so a profiling library that defines shmem_putmem (linked before libsymmem-shmem, or through
 * LD_PRELOAD) receives the program's calls and forwards them to pshmem_putmem. */
#ifndef SYMMEM_PSHMEM_H
#define SYMMEM_PSHMEM_H

#include "shmem.h"
#include "shmemx.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SYMMEM_SHMEM_ALL_FORMS 1
#define SYMMEM_SHMEM_FN(R, NAME, P, CALL) SYMMEM_API R p##NAME P;
#define SYMMEM_SHMEM_VFN(NAME, P, CALL) SYMMEM_API void p##NAME P;
#include "shmem/routines.h"
#include "shmem/routines_x.h"
#undef SYMMEM_SHMEM_FN
#undef SYMMEM_SHMEM_VFN
#undef SYMMEM_SHMEM_ALL_FORMS
SYMMEM_API void pshmem_global_exit(int status) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif /* SYMMEM_PSHMEM_H */
