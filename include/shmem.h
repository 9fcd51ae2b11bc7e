/* symmem: OpenSHMEM 1.5 compatibility header.
 *
 * A program written to OpenSHMEM compiles against this header unchanged (build it with symmemcc or
 * symmemc++, which link libsymmem-shmem). Every shmem_ routine is a real function of
 * libsymmem-shmem, with a pshmem_ twin for profiling tools (<pshmem.h>), so autoconf probes, dlsym
 * and interposing tools work as with any OpenSHMEM library; libsymmem itself keeps the symmem_
 * prefix, so a program that uses only <symmem/symmem.h> can share a process with another
 * OpenSHMEM or NVSHMEM library (docs/naming.md).
 *
 * Define SYMMEM_SHMEM_INLINE before including it to get every routine as a static inline wrapper
 * over libsymmem instead: nothing is exported and libsymmem-shmem is not needed, but profiling
 * tools cannot see the calls.
 *
 * Generic (type-deduced) routines come as C11 _Generic macros in C and as overloads in C++.
 */
#ifndef SYMMEM_SHMEM_H
#define SYMMEM_SHMEM_H

#include <stdio.h>
#include <stdlib.h>

#include "symmem/symmem.h"

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
/* The spec version as Open MPI's <shmem.h> spells it (10500 for 1.5): OSHMEM's own examples and
 * programs written from them refuse to build without it ("#error This application uses API 1.2
 * and up"). Only the spec version: no OSHMEM_MAJOR_VERSION, which would claim to be OSHMEM. */
#define OSHMEM_SPEC_VERSION (SHMEM_MAJOR_VERSION * 10000 + SHMEM_MINOR_VERSION * 100)
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "symmem " SYMMEM_VERSION_STRING
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE SYMMEM_THREAD_SINGLE
#define SHMEM_THREAD_FUNNELED SYMMEM_THREAD_FUNNELED
#define SHMEM_THREAD_SERIALIZED SYMMEM_THREAD_SERIALIZED
#define SHMEM_THREAD_MULTIPLE SYMMEM_THREAD_MULTIPLE

#define SHMEM_CMP_EQ SYMMEM_CMP_EQ
#define SHMEM_CMP_NE SYMMEM_CMP_NE
#define SHMEM_CMP_GT SYMMEM_CMP_GT
#define SHMEM_CMP_GE SYMMEM_CMP_GE
#define SHMEM_CMP_LT SYMMEM_CMP_LT
#define SHMEM_CMP_LE SYMMEM_CMP_LE
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

/* ---- types and constants --------------------------------------------------------------------- */
typedef symmem_team_t shmem_team_t;
typedef symmem_team_config_t shmem_team_config_t;
typedef symmem_ctx_t shmem_ctx_t;
typedef symmem_ctx_session_config_t shmem_ctx_session_config_t;
#define SHMEM_CTX_SESSION_BATCH SYMMEM_CTX_SESSION_BATCH
#define SHMEM_CTX_SESSION_TOTAL_OPS SYMMEM_CTX_SESSION_TOTAL_OPS

#define SHMEM_TEAM_WORLD symmem_team_world
#define SHMEM_TEAM_SHARED symmem_team_shared
#define SHMEM_TEAM_INVALID SYMMEM_TEAM_INVALID
#define SHMEM_TEAM_NUM_CONTEXTS SYMMEM_TEAM_NUM_CONTEXTS
#define SHMEM_CTX_DEFAULT symmem_ctx_default
#define SHMEM_CTX_INVALID SYMMEM_CTX_INVALID
#define SHMEM_CTX_SERIALIZED SYMMEM_CTX_SERIALIZED
#define SHMEM_CTX_PRIVATE SYMMEM_CTX_PRIVATE
#define SHMEM_CTX_NOSTORE SYMMEM_CTX_NOSTORE
#define SHMEM_SIGNAL_SET SYMMEM_SIGNAL_SET
#define SHMEM_SIGNAL_ADD SYMMEM_SIGNAL_ADD
#define SHMEM_MALLOC_ATOMICS_REMOTE SYMMEM_MALLOC_ATOMICS_REMOTE
#define SHMEM_MALLOC_SIGNAL_REMOTE SYMMEM_MALLOC_SIGNAL_REMOTE

#define SHMEM_SYNC_VALUE SYMMEM_SYNC_VALUE
#define SHMEM_SYNC_SIZE SYMMEM_SYNC_SIZE
#define SHMEM_BCAST_SYNC_SIZE SYMMEM_SYNC_SIZE
#define SHMEM_BARRIER_SYNC_SIZE SYMMEM_SYNC_SIZE
#define SHMEM_REDUCE_SYNC_SIZE SYMMEM_SYNC_SIZE
#define SHMEM_COLLECT_SYNC_SIZE SYMMEM_SYNC_SIZE
#define SHMEM_ALLTOALL_SYNC_SIZE SYMMEM_SYNC_SIZE
#define SHMEM_ALLTOALLS_SYNC_SIZE SYMMEM_SYNC_SIZE
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE SYMMEM_REDUCE_MIN_WRKDATA_SIZE
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_SYNC_SIZE SHMEM_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_ALLTOALLS_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

#ifdef __cplusplus
#define SYMMEM_SHI inline
#else
#define SYMMEM_SHI static inline
#endif

/* shmem_init has no way to report failure: a failed init has printed why; the PE then exits.
 * A second shmem_init while initialized is reported and otherwise ignored. */
SYMMEM_SHI void symmem_shmem_exit_unless_started(int rc) {
  if (rc != SYMMEM_SUCCESS && rc != SYMMEM_ERR_ALREADY_INITIALIZED) {
    fflush(stdout);
    exit(1);
  }
}
SYMMEM_SHI void symmem_shmem_init_or_exit(void) { symmem_shmem_exit_unless_started(symmem_init()); }

/* The untyped 1.0 shmem_wait/shmem_wait_until on long: functions only where they are not the
 * generic routines (C before C11), and always inside the library that exports them. */
#if (!defined(__cplusplus) && !(defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L)) || \
    defined(SYMMEM_SHMEM_BUILDING_ABI)
#define SYMMEM_SHMEM_UNTYPED_FORMS 1
#else
#define SYMMEM_SHMEM_UNTYPED_FORMS 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- every routine, from the one list ----------------------------------------------------------- */
#include "shmem/declare.h"
#include "shmem/routines.h"
#undef SYMMEM_SHMEM_FN
#undef SYMMEM_SHMEM_VFN

#ifndef SYMMEM_SHMEM_INLINE
SYMMEM_API void shmem_global_exit(int status) __attribute__((noreturn));
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#include "shmem/generic.h"
#include "shmem/generic_deprecated.h"

#endif /* SYMMEM_SHMEM_H */
