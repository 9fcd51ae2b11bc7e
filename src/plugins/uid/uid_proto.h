// symmem uid plugin: the unique id and the wire protocol between the ranks and the rendezvous.
//
// The rendezvous ("root") is a TCP listener and a thread in the process that called
// symmem_get_uniqueid (rank 0). Every rank, rank 0 included, connects to it once per
// init..finalize cycle; the root relays allgathers in a star (fine for a bootstrap: a few
// exchanges of tens of bytes per rank at init, and the collectives that cross hosts).
//
// Every message is a header and a payload; integers in network byte order:
//   struct header { uint32 type; uint32 len; }   then len bytes.
// rank -> root
//   HELLO  hello_msg. Must be the first message, within auth_window_s of connecting, and carry the
//          id's secret; otherwise the root logs the peer's address and closes the connection.
//   COLL   uint32 timeout_ms (0: none), then this rank's bytes. One collective at a time: the root
//          answers every rank once all nranks have sent theirs.
//   EXIT   uint32 status, then text: this rank ends the job (global_exit, fatal).
//   BYE    no payload: this rank finalized.
// root -> rank
//   COLL_DONE  nranks uint32 lengths, then every rank's bytes in rank order.
//   ABORT      uint32 kind, uint32 status, then text naming who failed and how. The root closes
//              every connection after sending it: the job is over.
#pragma once

#include <cstddef>
#include <cstdint>

namespace symmem::uid {

inline constexpr uint32_t protocol_version = 1;
inline constexpr size_t secret_bytes = 16;
inline constexpr uint32_t max_payload = 64u << 20;
inline constexpr double auth_window_s = 10;  // a connection must present the secret this fast

// The opaque symmem_uniqueid_t, 128 bytes.
struct id_blob {
  char magic[4];     // "SYMU"
  uint8_t version;   // protocol_version
  uint8_t family;    // 4: IPv4
  uint16_t port;     // network order
  uint8_t addr[16];  // IPv4 address in the first 4 bytes, network order
  uint8_t secret[secret_bytes];
  uint32_t root_pid;  // network order; for messages only
  uint8_t reserved[84];
};
static_assert(sizeof(id_blob) == 128, "the id is SYMMEM_UNIQUEID_BYTES long");

enum class msg : uint32_t {
  hello = 1,
  coll = 2,
  exit = 3,
  bye = 4,
  coll_done = 100,
  abort = 101,
};

enum class abort_kind : uint32_t {
  timeout = 1,    // a rank did not arrive in time
  peer_gone = 2,  // a rank's connection dropped before finalize
  exit = 3,       // a rank ended the job on purpose: the others exit with its status
  error = 4,      // the ranks disagree (job size, duplicate rank, protocol)
};

struct header {
  uint32_t type;
  uint32_t len;
};

struct hello_msg {
  char magic[4];  // "SYMH"
  uint32_t version;
  uint8_t secret[secret_bytes];
  uint32_t rank;
  uint32_t nranks;
  uint32_t pid;
  uint32_t reserved;
};

}  // namespace symmem::uid
