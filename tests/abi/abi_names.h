/* Every name of the OpenSHMEM ABI, from the one routine list (include/shmem/routines.h and
 * routines_x.h), as a table of strings: what libsymmem-shmem must export. */
#ifndef SYMMEM_TEST_ABI_NAMES_H
#define SYMMEM_TEST_ABI_NAMES_H
#include <shmem.h>
#include <shmemx.h>

#define SYMMEM_SHMEM_ALL_FORMS 1
#define SYMMEM_SHMEM_FN(R, NAME, P, CALL) #NAME,
#define SYMMEM_SHMEM_VFN(NAME, P, CALL) #NAME,
static const char *const abi_names[] = {
#include "shmem/routines.h"
#include "shmem/routines_x.h"
};
#undef SYMMEM_SHMEM_FN
#undef SYMMEM_SHMEM_VFN
#undef SYMMEM_SHMEM_ALL_FORMS
#define ABI_NAME_COUNT (sizeof abi_names / sizeof abi_names[0])
#endif
