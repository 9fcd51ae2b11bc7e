// symmem: what this host is, for finding node-local PEs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace symmem::topo {

// Identity of this host, for finding the PEs that map each other's memory: the host name
// symmem-run --hosts started this PE on; else SYMMEM_HOSTNAME when set; else the kernel's host
// name, boot id and network namespace, so two containers with one host name on different
// machines differ, and so do two network namespaces of one machine (they cannot pass descriptors
// to each other over abstract sockets).
std::string host_identity(const std::string &override_name);
// The running kernel's boot id (the same in every network namespace and container of it); "" when
// unknown.
std::string boot_id();
uint64_t host_hash(const std::string &override_name);
// Physical memory plus swap in bytes (0 when unknown).
size_t host_memory_bytes();

}  // namespace symmem::topo
