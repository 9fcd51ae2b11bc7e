// symmem: the network transport, as the library uses it (over a plugin: net_plugin.h).
//
// The plugin posts; this layer waits. Every blocking form here posts through the plugin and, when
// the operation did not complete at once, waits in the library's one bounded wait loop
// (core::spin_wait), progressing the transport, so that its limit, its message and the job's
// teardown apply to network waits as to every other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bootstrap/bootstrap.h"
#include "common/error.h"
#include "net/net_plugin.h"

namespace symmem::net {

struct packed_key {
  unsigned char bytes[SYMMEM_NET_KEY_MAX];
  uint32_t len = 0;
};

// What the library does for staged operations that reach this PE (net_plugin.h: stage_*).
struct stage_hooks {
  int (*store)(void *ctx, uint64_t addr, const void *src, size_t len) = nullptr;
  int (*load)(void *ctx, void *dst, uint64_t addr, size_t len) = nullptr;
  int (*amo)(void *ctx, uint64_t addr, int op, unsigned size, uint64_t value, uint64_t compare, uint64_t *old) = nullptr;
  int (*signal)(void *ctx, uint64_t addr, int op, uint64_t value) = nullptr;
  void (*batch)(void *ctx, int done) = nullptr;
};

class transport {
 public:
  transport(const transport &) = delete;
  transport &operator=(const transport &) = delete;
  ~transport();

  // Loads libsymmem_net_<name>.so and creates the transport of this job. `remote` (the PEs on
  // other hosts) only serves the message when the plugin or its library is missing.
  static status open(const std::string &name, boot::bootstrap &boot, bool thread_multiple,
                     const std::vector<int> &remote, const stage_hooks &stage, std::unique_ptr<transport> &out);

  // Collective: endpoints to the PEs in `remote` (may be empty on some PEs).
  status connect(const std::vector<int> &remote, const char *call);
  std::string route(int pe) const;
  // How route lines name the transport: "UCX".
  const char *label() const { return std::string_view(ops_.name) == "ucx" ? "UCX" : ops_.name; }
  const char *description() const { return ops_.description != nullptr ? ops_.description : ops_.name; }
  void *default_worker() const { return ops_.default_worker; }

  status register_memory(void *addr, size_t len, void *&handle, packed_key &key, const char *call);
  void deregister_memory(void *handle);
  status set_key(int pe, uint32_t region, const void *key, size_t len, const char *call);
  bool key_known(int pe, uint32_t region) const;

  // nbi: return once posted (complete at the next quiet); else put returns when `src` may be
  // reused, get when `dst` holds the data.
  status put(void *w, int pe, uint32_t region, uint64_t raddr, const void *src, size_t len, bool nbi,
             const char *call);
  status get(void *w, int pe, uint32_t region, uint64_t raddr, void *dst, size_t len, bool nbi, const char *call);
  // GPU memory (net_plugin.h, mem_kinds): whether the transport reaches this PE's GPU memory itself;
  // then GPU memory registers for remote access, and puts and gets take GPU buffers as they are.
  bool reaches_gpu() const {
    return (ops_.mem_kinds & (1u << SYMMEM_NET_MEM_GPU)) != 0 && ops_.mem_register_kind != nullptr &&
           ops_.put_kind != nullptr && ops_.get_kind != nullptr;
  }
  status register_gpu_memory(void *addr, size_t len, void *&handle, packed_key &key, const char *call);
  status put_from_gpu(void *w, int pe, uint32_t region, uint64_t raddr, const void *src, size_t len, bool nbi,
                      const char *call);
  status get_to_gpu(void *w, int pe, uint32_t region, uint64_t raddr, void *dst, size_t len, bool nbi,
                    const char *call);
  // result == nullptr: non-fetching, complete at the next quiet. Else waits for the old value.
  status amo(void *w, int pe, uint32_t region, uint64_t raddr, int op, unsigned size, uint64_t value,
             uint64_t compare, void *result, const char *call);
  // Stores `n` (1 to 8) words at raddr of PE pe's region (signals: net_plugin.h), last to first,
  // the first with release order; returns when `words` may be reused.
  status signal(void *w, int pe, uint32_t region, uint64_t raddr, const uint64_t *words, size_t n, const char *call);
  // Adds v to the word at raddr of PE pe's region with the target's CPU atomics (signal_add):
  // one message, complete when it returns (its effect arrives later; nothing flushes it).
  status signal_add(void *w, int pe, uint32_t region, uint64_t raddr, uint64_t v, const char *call);
  // Stores `len` bytes (at most SYMMEM_NET_DATA_SIGNAL_MAX) at data_raddr of PE pe's region, then
  // adds v to the word at count_raddr there (a data signal): one message, complete when it returns.
  status signal_put(void *w, int pe, uint32_t region, uint64_t data_raddr, const void *data, size_t len,
                    uint64_t count_raddr, uint64_t v, const char *call) {
    return signal_put(w, pe, region, data_raddr, nullptr, 0, data, len, count_raddr, v, call);
  }
  // The same with `head_len` bytes of `head` before the data. A head of up to join_head_max bytes
  // and data of up to join_data_max travel joined here into one contiguous message; larger ones as
  // a scatter list of the two, so the data is not copied on the sending side. On UCX's TCP transport, 2 hosts x 1 PE under CUBIC:
  // OSU's osu_oshm_broadcast took 6.4-6.6 us at 8 KiB joined and 7.0 scattered, 8.3-8.4 at 16 KiB
  // joined and 8.0 scattered; scatter lists for small messages also cost a PE's first reduction
  // 0.4 ms (OSU's osu_oshm_atomics, first row: 10.1-10.9 us against 9.4-9.8 joined).
  status signal_put(void *w, int pe, uint32_t region, uint64_t data_raddr, const void *head, size_t head_len,
                    const void *data, size_t len, uint64_t count_raddr, uint64_t v, const char *call);
  static constexpr size_t join_head_max = 64, join_data_max = 8192;
  // The same, posted (the plugin's own data signals only: has_signal_put): `hdr`
  // (SYMMEM_NET_DATA_SIGNAL_HDR words, filled here), `head` and `data` must stay until it
  // completes; *req is then nullptr (complete already) or a request for wait_request.
  status signal_put_post(void *w, int pe, uint64_t *hdr, uint64_t data_raddr, const void *head, size_t head_len,
                         const void *data, size_t len, uint64_t count_raddr, uint64_t v, void **req,
                         const char *call);
  // Waits for a request that signal_put_post gave (`what` names the operation, for a wait that ends).
  status wait_request(void *w, void *req, int pe, const char *what, const char *call) {
    return wait(w, req, pe, what, call);
  }
  // Staged operations on PE pe's heap (net_plugin.h), at most SYMMEM_NET_DATA_SIGNAL_MAX bytes:
  // staged_put returns when `src` may be reused and completes at the next quiet; staged_get
  // returns when `dst` (host memory) holds the data; staged_amo as amo.
  status staged_put(void *w, int pe, uint64_t raddr, const void *src, size_t len, const char *call);
  status staged_get(void *w, int pe, uint64_t raddr, void *dst, size_t len, const char *call);
  status staged_amo(void *w, int pe, uint64_t raddr, int op, unsigned size, uint64_t value, uint64_t compare,
                    uint64_t *result, const char *call);
  // A put with signal as one staged message (net_plugin.h: staged_put_signal); op SYMMEM_NET_AMO_SWAP
  // sets the signal, SYMMEM_NET_AMO_ADD adds. Returns when `src` may be reused; complete at the next
  // quiet. False when the plugin has no such operation (nothing was sent).
  bool has_staged_put_signal() const { return ops_.staged_put_signal != nullptr; }
  // Whether the plugin sends data signals itself (else signal_put is a put, a quiet and an add).
  bool has_signal_put() const { return ops_.signal_put != nullptr; }
  status staged_put_signal(void *w, int pe, uint64_t raddr, const void *src, size_t len, uint64_t sig_raddr, int op,
                           uint64_t value, const char *call);
  // Whether staged operations of the worker that a quiet completes (puts, non-fetching atomics)
  // to PE pe (pe < 0: to any) still wait for their answers.
  bool staged_pending(void *w, int pe) { return ops_.staged_pending == nullptr || ops_.staged_pending(w, pe) != 0; }
  // A non-blocking get as a staged message (net_plugin.h, staged_get_nbi); false when the plugin
  // does not take it (the caller then uses get).
  bool staged_get_nbi(void *w, int pe, uint64_t raddr, void *dst, size_t len, const char *call, status *st);
  bool staged_stores_pending(void *w, int pe) {
    return ops_.staged_stores_pending == nullptr ? staged_pending(w, pe) : ops_.staged_stores_pending(w, pe) != 0;
  }
  status fence(void *w, const char *call);
  // Completes every earlier operation of the worker (pe < 0) or those to one PE.
  status quiet(void *w, int pe, const char *call);
  // One step of progress; true when something happened.
  bool progress(void *w) { return ops_.progress(w) != 0; }
  // Sleeps until a message arrives for the worker or `usec` microseconds pass (net_plugin.h: idle).
  bool has_idle() const { return ops_.idle != nullptr; }
  bool idle(void *w, unsigned usec) { return ops_.idle(w, usec) != 0; }

  // The PEs (of `pes`, each with an address in `region`) that do not answer a small get within
  // `seconds`: for the message of a wait that ran out. Never waits longer, never fails.
  std::vector<int> unanswered(void *w, const std::vector<int> &pes, const std::vector<uint64_t> &addrs,
                              uint32_t region, double seconds);

  // From now on connections that break are peers ending their job (net_plugin.h).
  void closing() { ops_.closing(ops_.ctx); }

  status create_worker(bool shared, bool progressed, void *&w, const char *call);
  void destroy_worker(void *w);

 private:
  transport() = default;
  status wait(void *w, void *req, int pe, const char *what, const char *call);
  status bound_backlog(void *w, int pe, const char *call);

  symmem_net_host host_{};
  symmem_net_ops ops_{};
  bool open_ = false;
  std::string remote_list_;  // the PEs this transport serves, for wait messages
};

}  // namespace symmem::net
