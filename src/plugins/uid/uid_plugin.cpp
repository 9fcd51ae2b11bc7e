// symmem plugin libsymmem_boot_uid.so: a bootstrap from a unique id over TCP, with no launcher.
//
// symmem_get_uniqueid -> symmem_boot_plugin_uniqueid: this process starts a rendezvous (a TCP
// listener and a thread, uid_server.h) and returns its address and a random secret as the id.
// symmem_init_attr(SYMMEM_INIT_WITH_UNIQUEID) -> symmem_boot_plugin_create with request "uid":
// every rank connects to it (uid_client.h). The rendezvous lives until rank 0 finalizes.
#include <mutex>

#include "plugins/uid/uid_client.h"
#include "plugins/uid/uid_server.h"

namespace symmem::uid {
namespace {

std::mutex g_mutex;
std::vector<std::unique_ptr<rendezvous>> g_roots;  // the rendezvous this process hosts

// An id that never saw a rank is abandoned when the process asks for a new one.
void drop_unused() {
  std::vector<std::unique_ptr<rendezvous>> unused;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (auto &r : g_roots) {
      if (!r->used()) unused.push_back(std::move(r));
    }
    std::erase_if(g_roots, [](const std::unique_ptr<rendezvous> &r) { return r == nullptr; });
  }
  // destroyed here, outside the lock: each stops its thread
}

}  // namespace

rendezvous *find_root(const uint8_t *secret) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto &r : g_roots) {
    if (r->owns(secret)) return r.get();
  }
  return nullptr;
}

void drop_root(rendezvous *r, double limit_s) {
  std::unique_ptr<rendezvous> mine;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (auto &p : g_roots) {
      if (p.get() == r) mine = std::move(p);
    }
    std::erase_if(g_roots, [](const std::unique_ptr<rendezvous> &p) { return p == nullptr; });
  }
  if (mine) mine->finish(limit_s);
}

}  // namespace symmem::uid

using namespace symmem;

SYMMEM_PLUGIN_EXPORT int symmem_boot_plugin_uniqueid(const symmem_boot_host *host, void *id, size_t id_len) {
  if (host == nullptr || host->abi_version != SYMMEM_BOOT_ABI_VERSION || id == nullptr ||
      id_len < sizeof(uid::id_blob)) {
    return SYMMEM_ERR_INVALID_ARGUMENT;
  }
  plugin::reporter rep;
  rep.host = *host;
  uid::drop_unused();
  std::unique_ptr<uid::rendezvous> r;
  uid::id_blob blob{};
  int rc = uid::rendezvous::start(rep, r, blob);
  if (rc != SYMMEM_SUCCESS) return rc;
  std::memcpy(id, &blob, sizeof blob);
  std::lock_guard<std::mutex> lock(uid::g_mutex);
  uid::g_roots.push_back(std::move(r));
  return SYMMEM_SUCCESS;
}

SYMMEM_PLUGIN_EXPORT int symmem_boot_plugin_create(const symmem_boot_host *host, symmem_boot_ops *out) {
  if (host == nullptr || out == nullptr || host->abi_version != SYMMEM_BOOT_ABI_VERSION) {
    return SYMMEM_ERR_BOOTSTRAP;
  }
  if (std::strcmp(host->request, "uid") != 0) {
    if (std::strcmp(host->request, "auto") == 0) return SYMMEM_ERR_UNSUPPORTED;
    return host->fail(SYMMEM_ERR_BOOTSTRAP, "init",
                      "the uid bootstrap starts only from symmem_init_attr(SYMMEM_INIT_WITH_UNIQUEID, ...)");
  }
  return uid::create_client(host, out);
}
