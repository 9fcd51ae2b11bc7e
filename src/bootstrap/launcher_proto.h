// symmem: the wire protocol between symmem-run and its PEs.
//
// Transport: a SOCK_STREAM Unix socket in the abstract namespace (no file on disk, nothing to
// leak). The launcher listens on the name in SYMMEM_LAUNCHER_SOCK ('@' stands for the leading NUL).
// Each PE connects once per init..finalize cycle. Every message is a header and a payload:
//
//   struct header { uint32_t type; uint32_t len; }  followed by len payload bytes.
//
// PE -> launcher
//   HELLO     payload hello_msg: rank, pid, protocol version.
//   COLL      payload: this rank's contribution to the next collective (any length, may be 0).
//             Collectives complete in order: the launcher waits for one COLL from every rank,
//             then answers each with COLL_DONE.
//   EXIT      payload int32 status: global_exit; the launcher ends the job with that status.
//   BYE       no payload: the PE finalized; the connection closes next.
// launcher -> PE
//   COLL_DONE payload: size uint32 lengths (one per rank), then every rank's bytes in rank order.
//   ABORT     payload: text saying why the job stops ("PE 3 exited with status 1 before init").
//             The PE prints it with its own prefix and exits.
//
// The launcher owns the job's failure detection: it knows when a PE exits or dies (waitpid) and
// when a collective waits longer than SYMMEM_BOOTSTRAP_TIMEOUT, and names the PEs concerned.
#pragma once

#include <cstdint>

namespace symmem::launcher {

inline constexpr uint32_t protocol_version = 1;

// Environment passed from symmem-run to each PE.
inline constexpr const char *env_sock = "SYMMEM_LAUNCHER_SOCK";   // abstract socket name, '@'-prefixed
inline constexpr const char *env_rank = "SYMMEM_LAUNCHER_RANK";   // 0..n-1
inline constexpr const char *env_size = "SYMMEM_LAUNCHER_SIZE";   // n
inline constexpr const char *env_job = "SYMMEM_JOB_ID";           // random hex, unique per job
// With --hosts: the host name the PE was started on, as the user listed it. It is the PE's host
// identity (topo/topology.cpp): network namespaces share the kernel's host name.
inline constexpr const char *env_host = "SYMMEM_LAUNCHER_HOST";
// When symmem-run binds the PEs: how many CPUs it shared out among them. A PE bound to a block
// of them cannot tell from its own mask whether the host's PEs outnumber its CPUs.
inline constexpr const char *env_cpus = "SYMMEM_LAUNCHER_CPUS";
// How many PEs of the job run on this PE's machine: its host's, or with --hosts every host that is
// the same machine (network namespaces, containers), which a PE's count of its host's PEs misses.
inline constexpr const char *env_machine_pes = "SYMMEM_LAUNCHER_MACHINE_PES";

enum class msg : uint32_t {
  hello = 1,
  coll = 2,
  exit = 3,
  bye = 4,
  coll_done = 100,
  abort = 101,
};

struct header {
  uint32_t type;
  uint32_t len;
};

struct hello_msg {
  uint32_t version;
  int32_t rank;
  int32_t pid;
  int32_t reserved;
};

// Largest payload either side accepts (a collective of 64 KiB per rank at 4096 ranks fits).
inline constexpr uint32_t max_payload = 1u << 30;

}  // namespace symmem::launcher
