// symmem: what this host is, for finding node-local PEs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace symmem::topo {

// Identity of this host: SYMMEM_HOSTNAME when set (lets network namespaces act as hosts), else
// the kernel's host name and boot id, so two containers with one host name on different machines
// differ.
std::string host_identity(const std::string &override_name);
uint64_t host_hash(const std::string &override_name);
// Physical memory plus swap in bytes (0 when unknown).
size_t host_memory_bytes();

}  // namespace symmem::topo
