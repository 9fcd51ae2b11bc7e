#include "topo/topology.h"

#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "bootstrap/launcher_proto.h"

namespace symmem::topo {

// Two PEs can share memory when they can pass each other descriptors over an abstract Unix
// socket: same kernel (boot id) and same network namespace (abstract sockets do not cross
// network namespaces, which otherwise share the host name, /dev/shm and System V IPC).
std::string host_identity(const std::string &override_name) {
  const char *launched_on = std::getenv(launcher::env_host);  // symmem-run --hosts: the host as listed
  if (launched_on != nullptr && *launched_on != '\0') {
    return std::string("host:") + launched_on;
  }
  if (!override_name.empty()) {
    return override_name;
  }
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  struct stat ns {};
  std::string net = ::stat("/proc/self/ns/net", &ns) == 0 ? "/netns:" + std::to_string(ns.st_ino) : "";
  return std::string(name) + "/" + boot_id() + net;
}

std::string boot_id() {
  std::string id;
  std::ifstream f("/proc/sys/kernel/random/boot_id");
  std::getline(f, id);
  return id;
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
