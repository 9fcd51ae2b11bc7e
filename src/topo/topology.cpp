#include "topo/topology.h"

#include <sys/sysinfo.h>
#include <unistd.h>

#include <fstream>

namespace symmem::topo {

std::string host_identity(const std::string &override_name) {
  if (!override_name.empty()) {
    return override_name;
  }
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  std::string boot_id;
  std::ifstream f("/proc/sys/kernel/random/boot_id");
  std::getline(f, boot_id);
  return std::string(name) + "/" + boot_id;
}

uint64_t host_hash(const std::string &override_name) {
  // FNV-1a: stable across processes and builds (std::hash is not promised to be).
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : host_identity(override_name)) {
    h = (h ^ c) * 1099511628211ULL;
  }
  return h;
}

size_t host_memory_bytes() {
  struct sysinfo si {};
  if (::sysinfo(&si) != 0) {
    return 0;
  }
  return (static_cast<size_t>(si.totalram) + si.totalswap) * si.mem_unit;
}

}  // namespace symmem::topo
