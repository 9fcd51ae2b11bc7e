// symmem: handing memory descriptors to node-local peers.
//
// Each PE listens on an abstract Unix socket (no file on disk) named from its pid and a random
// nonce that travel in the bootstrap allgather. Descriptors cross with SCM_RIGHTS; both ends check
// SO_PEERCRED (the pid announced for that rank, and our own uid), so a stranger cannot inject or
// steal a heap. The names are visible to every user (/proc/net/unix): a connection from anyone
// but a PE of this job is refused before anything is read from it, logged, and ignored, and every
// connect and read runs under the exchange's deadline, so a stranger can neither fail nor stall
// init. The listener lives from init to finalize: the GPU heap hands over new granules at
// collective allocation time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/error.h"

namespace symmem::mem {

struct fd_peer {
  int rank;
  int32_t pid;
  uint64_t nonce;
};

// A peer's connection accepted during one exchange that belongs to the next: a peer that has
// finished an exchange may start the next one (the next collective allocation) while this PE is
// still in it. Kept, with its hello read or not, for the next exchange.
struct fd_early {
  int fd;
  int32_t pid;
  bool hello_read;
};

class fd_exchange {
 public:
  fd_exchange() = default;
  fd_exchange(const fd_exchange &) = delete;
  fd_exchange &operator=(const fd_exchange &) = delete;
  ~fd_exchange() { close(); }

  // Opens the listener; call before the allgather that publishes (pid, nonce).
  status listen(uint64_t nonce, const char *call);
  // Sends `mine` to every peer and receives each peer's descriptors (out[i] for peers[i]; empty
  // for this PE). Collective among `peers`, which lists every node-local PE, this one included.
  // Bounded by timeout_s (0: no limit).
  status exchange(int my_rank, const std::vector<fd_peer> &peers, const std::vector<int> &mine,
                  std::vector<std::vector<int>> &out, double timeout_s, const char *call);
  void close();

 private:
  int listen_fd_ = -1;
  uint32_t round_ = 0;              // exchanges made; every PE makes the same sequence of them
  std::vector<fd_early> early_;     // connections for the next exchange
};

std::string fd_socket_name(int32_t pid, uint64_t nonce);

}  // namespace symmem::mem
