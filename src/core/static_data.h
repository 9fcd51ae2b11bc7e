// symmem: the program's global and static variables in the job (init, the miss path of translate,
// finalize). The pages themselves are mem/data_segment's; docs/static-data.md has the design.
#pragma once

#include <cstdint>
#include <vector>

#include "core/state.h"

namespace symmem::core {

// What each PE tells the others about its static data in the init allgather.
struct data_info {
  uint64_t lo;         // first symmetric byte, in the PE's own address space
  uint64_t len;        // 0: none found
  uint64_t signature;  // build id and layout of the executable
  uint32_t shared;     // 1 when its pages are on a memfd that node-local peers can map
  uint32_t pad;
};

// Before the allgather: finds the static data and, in a job of several PEs, moves it onto shared
// memory (SYMMEM_SYMMETRIC_DATA=0 leaves it private).
data_info data_prepare();
// After the allgather: static data is symmetric when every PE runs the same executable.
void data_agree(const std::vector<data_info> &all);
// The descriptor to hand to node-local peers, or -1 (then none is sent: peers know from `shared`).
int data_export_fd();
// Maps node-local PE `pe`'s static data from its descriptor (takes ownership of fd).
status data_map_peer(int pe, int fd);
// Unmaps the peers' static data and makes this PE's private again (finalize, failed init).
void data_teardown();

}  // namespace symmem::core
