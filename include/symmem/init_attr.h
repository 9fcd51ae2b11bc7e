/* symmem: starting a job from an existing MPI communicator or from a unique id.
 *
 * symmem_init() forms the job through the bootstrap chosen by SYMMEM_BOOTSTRAP (docs/bootstraps.md).
 * symmem_init_attr() forms it from what the program hands over instead:
 *
 *   SYMMEM_INIT_WITH_MPI_COMM  attr.mpi_comm points to an MPI_Comm (MPI already initialized). Every
 *                              rank of that communicator must call symmem_init_attr; PE numbers
 *                              are the ranks in that communicator, not in MPI_COMM_WORLD. MPI
 *                              stays usable before, during and after the symmem job.
 *   SYMMEM_INIT_WITH_UNIQUEID  attr.uid_args holds this process's rank, the number of ranks and
 *                              the id that rank 0's process got from symmem_get_uniqueid() and
 *                              passed to the others by any means (a file, MPI_Bcast, a socket).
 *                              Rank 0 MUST be the process that called symmem_get_uniqueid: it
 *                              hosts the job's rendezvous (a TCP listener) until symmem_finalize.
 *
 *   symmem_init_attr_t attr = SYMMEM_INIT_ATTR_INITIALIZER;
 *   attr.mpi_comm = &comm;                           // or symmem_set_attr_uniqueid_args(...)
 *   symmem_init_attr(SYMMEM_INIT_WITH_MPI_COMM, &attr);
 *
 * Both return SYMMEM_SUCCESS or a negative SYMMEM_ERR_* code (the message is in symmem_last_error).
 */
#ifndef SYMMEM_INIT_ATTR_H
#define SYMMEM_INIT_ATTR_H

#include "symmem/symmem.h"

#ifndef SYMMEM_API
#if defined(__GNUC__)
#define SYMMEM_API __attribute__((visibility("default")))
#else
#define SYMMEM_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque and of fixed size: it may be copied, sent and stored as plain bytes. It holds the root's
 * address and port and a random secret; a connection that does not present it is refused. */
#define SYMMEM_UNIQUEID_BYTES 128
typedef struct symmem_uniqueid {
  unsigned char internal[SYMMEM_UNIQUEID_BYTES];
} symmem_uniqueid_t;
#define SYMMEM_UNIQUEID_INITIALIZER {{0}}

enum symmem_init_flags {
  SYMMEM_INIT_WITH_MPI_COMM = 1u << 0,
  SYMMEM_INIT_WITH_UNIQUEID = 1u << 1
};

#define SYMMEM_INIT_ATTR_VERSION 1
typedef struct symmem_init_attr {
  int version;    /* SYMMEM_INIT_ATTR_VERSION (0 is read as the current version) */
  void *mpi_comm; /* SYMMEM_INIT_WITH_MPI_COMM: the address of an MPI_Comm */
  struct {
    int rank;   /* this process's PE number, 0..nranks-1 */
    int nranks; /* number of PEs in the job */
    symmem_uniqueid_t id;
  } uid_args;   /* SYMMEM_INIT_WITH_UNIQUEID */
} symmem_init_attr_t;
#define SYMMEM_INIT_ATTR_INITIALIZER {SYMMEM_INIT_ATTR_VERSION, 0, {-1, 0, SYMMEM_UNIQUEID_INITIALIZER}}

/* Collective over the job that `flags` names; exactly one SYMMEM_INIT_WITH_* flag. */
SYMMEM_API int symmem_init_attr(unsigned flags, symmem_init_attr_t *attr);
/* Creates the job's rendezvous in this process (which becomes rank 0) and writes its id.
 * Each call starts a new rendezvous; an id serves one init..finalize cycle. */
SYMMEM_API int symmem_get_uniqueid(symmem_uniqueid_t *id);
/* Fills attr->uid_args (like nvshmemx_set_attr_uniqueid_args). */
SYMMEM_API int symmem_set_attr_uniqueid_args(int rank, int nranks, const symmem_uniqueid_t *id,
                                             symmem_init_attr_t *attr);

#ifdef __cplusplus
}
#endif

#endif /* SYMMEM_INIT_ATTR_H */
