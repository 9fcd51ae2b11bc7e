// symmem: what the proxy ring's requests do (net/proxy.h): the runtime's own routines, so a
// request to a PE on another host takes the remote path and one to a node-local PE the mapping.
#include <atomic>

#include "core/remote.h"
#include "core/state.h"
#include "net/net_plugin.h"
#include "net/proxy.h"

namespace symmem::core {
namespace {

template <typename T>
T local_amo(T *at, unsigned op, T v, T c) {
  std::atomic_ref<T> a(*at);
  switch (op) {
    case SYMMEM_NET_AMO_ADD: return a.fetch_add(v);
    case SYMMEM_NET_AMO_SWAP: return a.exchange(v);
    case SYMMEM_NET_AMO_CSWAP: a.compare_exchange_strong(c, v); return c;
    case SYMMEM_NET_AMO_AND: return a.fetch_and(v);
    case SYMMEM_NET_AMO_OR: return a.fetch_or(v);
    case SYMMEM_NET_AMO_XOR: return a.fetch_xor(v);
    default: fatal("proxy", "a proxy request carries the unknown atomic %u", op);
  }
}

class runtime_executor final : public net::proxy_executor {
 public:
  void put(int pe, uint64_t dst, uint64_t src, uint64_t size) override {
    symmem_putmem_nbi(reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src), size, pe);
  }
  void get(int pe, uint64_t dst, uint64_t src, uint64_t size) override {
    symmem_getmem(reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src), size, pe);
  }
  uint64_t amo(int pe, uint64_t dst, unsigned op, unsigned size, uint64_t value, uint64_t compare,
               bool fetch) override {
    void *d = reinterpret_cast<void *>(dst);
    if (size != 4 && size != 8) fatal("proxy", "a proxy atomic of %u bytes (4 or 8 only)", size);
    if (is_remote(pe)) return remote_amo(d, pe, static_cast<int>(op), size, value, compare, fetch, "proxy");
    char *at = translate(d, size, pe, "proxy");
    if (size == 4) {
      return local_amo(reinterpret_cast<uint32_t *>(at), op, static_cast<uint32_t>(value),
                       static_cast<uint32_t>(compare));
    }
    return local_amo(reinterpret_cast<uint64_t *>(at), op, value, compare);
  }
  void fence() override { symmem_fence(); }
  void quiet() override { symmem_quiet(); }
  void progress() override { remote_progress(); }
};

}  // namespace

std::unique_ptr<net::proxy_executor> make_proxy_executor() { return std::make_unique<runtime_executor>(); }

}  // namespace symmem::core
