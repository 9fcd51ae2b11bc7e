// symmem: loading the network transport plugin and waiting on its operations (net.h).
#include "net/net.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "bootstrap/plugin.h"
#include "core/wait.h"

namespace symmem::net {
namespace {

int boot_allgather(void *ctx, const void *in, void *out, size_t len, const char *call) {
  return static_cast<boot::bootstrap *>(ctx)->allgather(in, out, len, call).code();
}

status code_status(int rc) { return rc >= 0 ? ok_status : status(rc); }

// "2,3" or "0-3,8", cut after 8 items.
std::string pe_list(const std::vector<int> &pes) {
  std::string s;
  size_t items = 0;
  for (size_t i = 0; i < pes.size(); ++i) {
    size_t j = i;
    while (j + 1 < pes.size() && pes[j + 1] == pes[j] + 1) ++j;
    if (items++ == 8) return s + ",...";
    s += (s.empty() ? "" : ",") + std::to_string(pes[i]) + (j >= i + 2 ? "-" + std::to_string(pes[j]) : "");
    if (j >= i + 2) i = j;
  }
  return s;
}

}  // namespace

transport::~transport() {
  if (open_) ops_.close(ops_.ctx);
}

status transport::open(const std::string &name, boot::bootstrap &boot, bool thread_multiple,
                       const std::vector<int> &remote, const stage_hooks &stage, std::unique_ptr<transport> &out) {
  const std::string file = "libsymmem_net_" + name + ".so";
  void *handle = nullptr;
  std::string searched;
  status st = boot::open_plugin_file(file, false, "network transport plugin", SYMMEM_ERR_UNSUPPORTED, handle,
                                     searched, "init");
  if (st.code() == SYMMEM_ERR_UNSUPPORTED && handle == nullptr && !searched.empty()) {
    const bool one = remote.size() == 1;
    return fail(SYMMEM_ERR_UNSUPPORTED, "init",
                "%s %s %s the %s transport, %s, which was not found (searched %s); build symmem where %s is "
                "installed (Debian: libucx-dev), or point SYMMEM_PLUGIN_PATH at the plugin",
                one ? "PE" : "PEs", pe_list(remote).c_str(), one ? "is on another host and needs" : "are on other hosts and need",
                name.c_str(), file.c_str(), searched.c_str(), name == "ucx" ? "UCX" : name.c_str());
  }
  SYMMEM_TRY(st);
  auto create = reinterpret_cast<symmem_net_create_fn>(::dlsym(handle, SYMMEM_NET_ENTRY));
  if (create == nullptr) {
    return fail(SYMMEM_ERR_UNSUPPORTED, "init", "%s has no %s (not a symmem plugin, or another version)", file.c_str(),
                SYMMEM_NET_ENTRY);
  }
  std::unique_ptr<transport> t(new transport());
  t->host_ = symmem_net_host{SYMMEM_NET_ABI_VERSION, sizeof(symmem_net_host), boot.rank(), boot.size(),
                             thread_multiple ? 1 : 0, boot_allgather, &boot, boot::plugin_host_fail,
                             boot::plugin_host_log, nullptr, stage.store, stage.load, stage.amo, stage.signal,
                             stage.batch};
  SYMMEM_TRY(code_status(create(&t->host_, &t->ops_)));
  t->open_ = true;
  if (t->ops_.abi_version != SYMMEM_NET_ABI_VERSION || t->ops_.struct_size < sizeof(symmem_net_ops)) {
    return fail(SYMMEM_ERR_UNSUPPORTED, "init", "%s was built for another symmem version (ABI %u); rebuild it",
                file.c_str(), t->ops_.abi_version);
  }
  out = std::move(t);
  return ok_status;
}

status transport::connect(const std::vector<int> &remote, const char *call) {
  remote_list_ = pe_list(remote);
  return code_status(ops_.connect(ops_.ctx, remote.data(), static_cast<int>(remote.size()), call));
}

std::string transport::route(int pe) const {
  char text[256] = {};
  ops_.route(ops_.ctx, pe, text, sizeof text);
  return text;
}

status transport::register_memory(void *addr, size_t len, void *&handle, packed_key &key, const char *call) {
  size_t n = 0;
  SYMMEM_TRY(code_status(ops_.mem_register(ops_.ctx, addr, len, &handle, key.bytes, &n, call)));
  key.len = static_cast<uint32_t>(n);
  return ok_status;
}

status transport::register_gpu_memory(void *addr, size_t len, void *&handle, packed_key &key, const char *call) {
  size_t n = 0;
  SYMMEM_TRY(code_status(ops_.mem_register_kind(ops_.ctx, addr, len, SYMMEM_NET_MEM_GPU, &handle, key.bytes, &n, call)));
  key.len = static_cast<uint32_t>(n);
  return ok_status;
}

void transport::deregister_memory(void *handle) { ops_.mem_deregister(ops_.ctx, handle); }

status transport::set_key(int pe, uint32_t region, const void *key, size_t len, const char *call) {
  return code_status(ops_.key_set(ops_.ctx, pe, region, key, len, call));
}

bool transport::key_known(int pe, uint32_t region) const { return ops_.key_known(ops_.ctx, pe, region) != 0; }

// Waits for `req`, progressing the worker, in the library's bounded wait.
status transport::wait(void *w, void *req, int pe, const char *what, const char *call) {
  int rc = ops_.test(w, req, call);
  if (rc != 0) return code_status(rc);
  core::spin_wait sw(call, [this, pe, what] {
    return pe < 0 ? strfmt("the network to complete %s (to PEs %s: are they alive and reachable?)", what,
                           remote_list_.c_str())
                  : strfmt("PE %d to complete %s over the network (is it alive and reachable?)", pe, what);
  });
  // Once the runtime's remote path is up, the wait's pause progresses the default worker (and this
  // thread's context workers): progressing it here too made every turn two event polls.
  const bool pause_progresses = core::g.remote && w == ops_.default_worker;
  for (;;) {
    if (!pause_progresses) ops_.progress(w);
    rc = ops_.test(w, req, call);
    if (rc != 0) return code_status(rc);
    sw.pause();
  }
}

status transport::put(void *w, int pe, uint32_t region, uint64_t raddr, const void *src, size_t len, bool nbi,
                      const char *call) {
  void *req = nullptr;
  int rc = ops_.put(w, pe, region, raddr, src, len, nbi ? nullptr : &req, call);
  return rc == 1 ? wait(w, req, pe, "a put", call) : code_status(rc);
}

status transport::get(void *w, int pe, uint32_t region, uint64_t raddr, void *dst, size_t len, bool nbi,
                      const char *call) {
  void *req = nullptr;
  int rc = ops_.get(w, pe, region, raddr, dst, len, nbi ? nullptr : &req, call);
  return rc == 1 ? wait(w, req, pe, "a get", call) : code_status(rc);
}

status transport::put_from_gpu(void *w, int pe, uint32_t region, uint64_t raddr, const void *src, size_t len,
                               bool nbi, const char *call) {
  void *req = nullptr;
  int rc = ops_.put_kind(w, pe, region, raddr, src, len, SYMMEM_NET_MEM_GPU, nbi ? nullptr : &req, call);
  return rc == 1 ? wait(w, req, pe, "a put from GPU memory", call) : code_status(rc);
}

status transport::get_to_gpu(void *w, int pe, uint32_t region, uint64_t raddr, void *dst, size_t len, bool nbi,
                             const char *call) {
  void *req = nullptr;
  int rc = ops_.get_kind(w, pe, region, raddr, dst, len, SYMMEM_NET_MEM_GPU, nbi ? nullptr : &req, call);
  return rc == 1 ? wait(w, req, pe, "a get into GPU memory", call) : code_status(rc);
}

status transport::amo(void *w, int pe, uint32_t region, uint64_t raddr, int op, unsigned size, uint64_t value,
                      uint64_t compare, void *result, const char *call) {
  void *req = nullptr;
  int rc = ops_.amo(w, pe, region, raddr, op, size, value, compare, result, result != nullptr ? &req : nullptr, call);
  return rc == 1 ? wait(w, req, pe, "an atomic operation", call) : code_status(rc);
}

status transport::signal(void *w, int pe, uint32_t region, uint64_t raddr, const uint64_t *words, size_t n,
                         const char *call) {
  if (ops_.signal == nullptr) return put(w, pe, region, raddr, words, n * sizeof *words, false, call);
  uint64_t msg[9] = {raddr};
  std::memcpy(msg + 1, words, std::min<size_t>(n, 8) * sizeof *words);  // the plugin refuses more than 8
  void *req = nullptr;
  int rc = ops_.signal(w, pe, msg, n, &req, call);
  return rc == 1 ? wait(w, req, pe, "a signal", call) : code_status(rc);
}

status transport::signal_add(void *w, int pe, uint32_t region, uint64_t raddr, uint64_t v, const char *call) {
  if (ops_.signal_add == nullptr) return amo(w, pe, region, raddr, SYMMEM_NET_AMO_ADD, 8, v, 0, nullptr, call);
  const uint64_t msg[2] = {raddr, v};
  void *req = nullptr;
  int rc = ops_.signal_add(w, pe, msg, &req, call);
  return rc == 1 ? wait(w, req, pe, "a counting signal", call) : code_status(rc);
}

status transport::signal_put(void *w, int pe, uint32_t region, uint64_t data_raddr, const void *head, size_t head_len,
                             const void *data, size_t len, uint64_t count_raddr, uint64_t v, const char *call) {
  if (ops_.signal_put == nullptr) {  // the data complete at the target before the count goes
    if (head_len != 0) SYMMEM_TRY(put(w, pe, region, data_raddr, head, head_len, false, call));
    SYMMEM_TRY(put(w, pe, region, data_raddr + head_len, data, len, false, call));
    SYMMEM_TRY(quiet(w, pe, call));
    return signal_add(w, pe, region, count_raddr, v, call);
  }
  unsigned char joined[join_head_max + join_data_max];  // lives until the wait below: the message may be sent from it
  if (head_len != 0 && head_len <= join_head_max && len <= join_data_max) {
    std::memcpy(joined, head, head_len);
    if (len != 0) std::memcpy(joined + head_len, data, len);
    data = joined;
    len += head_len;
    head = nullptr;
    head_len = 0;
  }
  uint64_t hdr[SYMMEM_NET_DATA_SIGNAL_HDR];
  void *req = nullptr;
  SYMMEM_TRY(signal_put_post(w, pe, hdr, data_raddr, head, head_len, data, len, count_raddr, v, &req, call));
  return req != nullptr ? wait(w, req, pe, "a data signal", call) : ok_status;
}

status transport::signal_put_post(void *w, int pe, uint64_t *hdr, uint64_t data_raddr, const void *head, size_t head_len,
                                  const void *data, size_t len, uint64_t count_raddr, uint64_t v, void **req,
                                  const char *call) {
  hdr[0] = data_raddr;
  hdr[1] = count_raddr;
  hdr[2] = v;
  const int rc = ops_.signal_put(w, pe, hdr, head, head_len, data, len, req, call);
  if (rc == 1) return ok_status;
  *req = nullptr;
  return code_status(rc);
}

status transport::staged_put(void *w, int pe, uint64_t raddr, const void *src, size_t len, const char *call) {
  SYMMEM_TRY(code_status(ops_.staged_put(w, pe, raddr, src, len, call)));
  return bound_backlog(w, pe, call);
}

status transport::staged_put_signal(void *w, int pe, uint64_t raddr, const void *src, size_t len, uint64_t sig_raddr,
                                    int op, uint64_t value, const char *call) {
  SYMMEM_TRY(code_status(ops_.staged_put_signal(w, pe, raddr, src, len, sig_raddr, op, value, call)));
  return bound_backlog(w, pe, call);
}

// A staged put returns before the network has taken its copy: past the plugin's bound on what
// such copies hold, the PE waits for the network to take the older ones (PE pe: the one this put
// went to, which is where the backlog most likely goes).
status transport::bound_backlog(void *w, int pe, const char *call) {
  if (ops_.staged_backlog == nullptr) return ok_status;
  void *req = nullptr;
  const int rc = ops_.staged_backlog(w, &req, call);
  return rc == 1 ? wait(w, req, pe, "the sending of this PE's earlier staged messages", call) : code_status(rc);
}

status transport::staged_get(void *w, int pe, uint64_t raddr, void *dst, size_t len, const char *call) {
  void *req = nullptr;
  int rc = ops_.staged_get(w, pe, raddr, dst, len, &req, call);
  return rc == 1 ? wait(w, req, pe, "a staged get", call) : code_status(rc);
}

status transport::staged_amo(void *w, int pe, uint64_t raddr, int op, unsigned size, uint64_t value,
                             uint64_t compare, uint64_t *result, const char *call) {
  void *req = nullptr;
  int rc = ops_.staged_amo(w, pe, raddr, op, size, value, compare, result, result != nullptr ? &req : nullptr, call);
  if (result == nullptr) return rc == SYMMEM_SUCCESS ? bound_backlog(w, pe, call) : code_status(rc);
  return rc == 1 ? wait(w, req, pe, "a staged atomic operation", call) : code_status(rc);
}

bool transport::staged_get_nbi(void *w, int pe, uint64_t raddr, void *dst, size_t len, const char *call,
                               status *st) {
  if (ops_.staged_get_nbi == nullptr) return false;
  const int rc = ops_.staged_get_nbi(w, pe, raddr, dst, len, call);
  if (rc == 1) return false;
  *st = code_status(rc);
  return true;
}

status transport::fence(void *w, const char *call) { return code_status(ops_.fence(w, call)); }

status transport::quiet(void *w, int pe, const char *call) {
  void *req = nullptr;
  int rc = ops_.flush(w, pe, &req, call);
  return rc == 1 ? wait(w, req, pe, "its outstanding operations", call) : code_status(rc);
}

std::vector<int> transport::unanswered(void *w, const std::vector<int> &pes, const std::vector<uint64_t> &addrs,
                                       uint32_t region, double seconds) {
  std::vector<uint64_t> sink(pes.size());
  std::vector<void *> req(pes.size(), nullptr);
  std::vector<char> done(pes.size(), 0);
  for (size_t i = 0; i < pes.size(); ++i) {
    int rc = ops_.get(w, pes[i], region, addrs[i], &sink[i], sizeof sink[i], &req[i], "probe");
    done[i] = rc == 0 ? 1 : rc < 0 ? 0 : 2;  // 2: in flight
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  bool pending = true;
  while (pending && std::chrono::steady_clock::now() < until) {
    ops_.progress(w);
    pending = false;
    for (size_t i = 0; i < pes.size(); ++i) {
      if (done[i] != 2) continue;
      int rc = ops_.test(w, req[i], "probe");
      done[i] = rc == 0 ? 2 : rc > 0 ? 1 : 0;
      pending = pending || done[i] == 2;
    }
  }
  std::vector<int> out;  // requests still in flight are abandoned: the PE is ending
  for (size_t i = 0; i < pes.size(); ++i)
    if (done[i] != 1) out.push_back(pes[i]);
  return out;
}

status transport::create_worker(bool shared, bool progressed, void *&w, const char *call) {
  return code_status(ops_.worker_create(ops_.ctx, (shared ? 1 : 0) | (progressed ? SYMMEM_NET_WORKER_PROGRESSED : 0), &w, call));
}

void transport::destroy_worker(void *w) { ops_.worker_destroy(ops_.ctx, w); }

}  // namespace symmem::net
