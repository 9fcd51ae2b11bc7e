// The UCX transport plugin: context, workers, endpoints, registration and keys (net_plugin.h).
//
// Choices, and why:
//  - Features RMA + AMO32 + AMO64 only: symmem's remote operations are one-sided puts, gets and
//    atomics into registered memory, as OSHMEM's spml_ucx; no tag matching, no active messages.
//  - UCX_ATOMIC_MODE=cpu unless the user set it: UCX's atomics must be atomic with respect to the
//    CPU atomics that node-local PEs apply to the same words (docs/multihost.md, "Atomicity").
//  - Endpoints are made from the worker addresses exchanged at connect, every worker of this PE
//    to the *default* worker of each remote PE: a PE then serves every incoming operation from
//    one worker, which its waits progress.
//  - Error handling mode PEER: a broken connection fails its operations (and is named) instead of
//    hanging them; the library's waits bound the rest.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "plugins/common/plugin_util.h"
#include "plugins/ucx/ucx_net.h"

namespace symmem::ucx {

int report(const plugin &p, int code, const char *call, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string text = symmem::plugin::vformat(fmt, ap);
  va_end(ap);
  return p.host.fail != nullptr ? p.host.fail(code, call, text.c_str()) : code;
}

void note(const plugin &p, int level, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string text = symmem::plugin::vformat(fmt, ap);
  va_end(ap);
  if (p.host.log != nullptr) p.host.log(level, nullptr, text.c_str());
}

namespace {

void on_ep_error(void *arg, ucp_ep_h, ucs_status_t status) {
  auto *e = static_cast<ep_error *>(arg);
  plugin &p = *e->wk->pl;
  int expected = 0;
  if (p.failed[static_cast<size_t>(e->pe)].compare_exchange_strong(expected, static_cast<int>(status)) &&
      !p.closing.load()) {
    // UCX says "Endpoint timeout" too when the peer process is simply gone.
    note(p, SYMMEM_BOOT_LOG_WARN,
         "the connection to PE %d broke (UCX: %s): the PE ended, or the network between the hosts failed; "
         "operations on it fail from now on",
         e->pe, ucs_status_string(status));
  }
}

// SYMMEM_NET_PUT_BATCH (config_table.h): bytes of records in one batch of small staged puts
// ("64k" by default; 0: none); puts of up to an eighth of it are batched.
void set_batch_limits(plugin &p) {
  size_t bytes = 64u << 10;
  if (const char *v = std::getenv("SYMMEM_NET_PUT_BATCH"); v != nullptr && *v != '\0') {
    char *end = nullptr;  // the library checked the value (config_table.h)
    double n = std::strtod(v, &end);
    if (end != nullptr && (*end == 'k' || *end == 'K')) n *= 1024;
    if (end != nullptr && (*end == 'm' || *end == 'M')) n *= 1024 * 1024;
    bytes = n > 0 ? static_cast<size_t>(std::min<double>(n, SYMMEM_NET_DATA_SIGNAL_MAX)) : 0;
  }
  p.batch_bytes = bytes;
  p.batch_put = bytes / 8;
}

int make_context(plugin &p) {
  // UCX's TCP transport moves data in segments of its TX/RX_SEG_SIZE (8 KiB by default); with
  // 64 KiB ones symmem's putmem between two hosts' namespaces went from 0.97 to 2.5 GB/s at 1 MiB,
  // with 256 KiB ones (a data signal's largest, SYMMEM_NET_DATA_SIGNAL_MAX) from 2.8 to 4.1 GB/s
  // at 4 MiB, and a 256 KiB reduction by exchanges from 150 to 121 us (docs/multihost.md).
  // Transport options reach UCX 1.13 only through its environment (ucp_config_modify does not
  // pass them to the TCP interface), so they are set there, before UCX reads it and before the
  // library starts a thread; a value the user set wins.
  for (const char *name : {"UCX_TCP_TX_SEG_SIZE", "UCX_TCP_RX_SEG_SIZE"}) (void)::setenv(name, "256k", 0);
  set_batch_limits(p);
  ucp_config_t *config = nullptr;
  ucs_status_t st = ucp_config_read(nullptr, nullptr, &config);
  if (st != UCS_OK) {
    return report(p, SYMMEM_ERR_SYSTEM, "init", "UCX cannot read its configuration (UCX_* variables): %s",
                  ucs_status_string(st));
  }
  if (std::getenv("UCX_ATOMIC_MODE") == nullptr) ucp_config_modify(config, "ATOMIC_MODE", "cpu");
  ucp_params_t params{};
  params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED | UCP_PARAM_FIELD_ESTIMATED_NUM_EPS;
  params.features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 | UCP_FEATURE_AM | UCP_FEATURE_WAKEUP;
  params.mt_workers_shared = 1;  // context workers of several threads share the registrations
  params.estimated_num_eps = static_cast<size_t>(p.host.n_pes);
  st = ucp_init(&params, config, &p.ctx);
  ucp_config_release(config);
  if (st != UCS_OK) {
    return report(p, SYMMEM_ERR_SYSTEM, "init",
                  "UCX found no transport for one-sided operations (ucp_init: %s); check UCX_TLS and "
                  "UCX_NET_DEVICES (ucx_info -d lists what UCX sees)",
                  ucs_status_string(st));
  }
  p.description = std::string("UCX ") + ucp_get_version_string();
  // GPU memory: a UCX built with CUDA support, whose cuda_copy transport is in use (UCX_TLS). Then
  // puts and gets take GPU buffers as they are, and a GPU heap is registered like a host one.
  ucp_context_attr_t attr{};
  attr.field_mask = UCP_ATTR_FIELD_MEMORY_TYPES;
  if (ucp_context_query(p.ctx, &attr) == UCS_OK && (attr.memory_types & UCS_BIT(UCS_MEMORY_TYPE_CUDA)) != 0) {
    p.gpu_memory = true;
    p.description += " (CUDA memory)";
  }
  return SYMMEM_SUCCESS;
}

int new_worker(plugin &p, bool shared, bool progressed, worker *&out, const char *call) {
  auto wk = std::make_unique<worker>();
  wk->pl = &p;
  wk->shared = shared;
  ucp_worker_params_t wp{};
  wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  // The default worker is shared with the progress thread; a context's worker with the program's
  // threads when it is shared and they may call at once. Either way our lock serialises them.
  const bool is_default = p.workers.empty();
  wk->is_default = is_default;
  wk->batches = is_default || progressed;
  wk->locked = is_default || (shared && p.host.thread_multiple);
  wp.thread_mode = wk->locked ? UCS_THREAD_MODE_SERIALIZED : UCS_THREAD_MODE_SINGLE;
  ucs_status_t st = ucp_worker_create(p.ctx, &wp, &wk->w);
  if (st != UCS_OK) {
    return report(p, SYMMEM_ERR_SYSTEM, call, "cannot create a UCX worker: %s", ucs_status_string(st));
  }
  wk->eps.assign(static_cast<size_t>(p.host.n_pes), nullptr);
  wk->staged_to = std::make_unique<std::atomic<uint32_t>[]>(static_cast<size_t>(p.host.n_pes));
  wk->staged_stores_to = std::make_unique<std::atomic<uint32_t>[]>(static_cast<size_t>(p.host.n_pes));
  int rc = is_default ? set_signal_handler(*wk, call) : SYMMEM_SUCCESS;
  if (rc == SYMMEM_SUCCESS) rc = set_answer_handler(*wk, call);
  if (rc != SYMMEM_SUCCESS) {
    ucp_worker_destroy(wk->w);
    return rc;
  }
  std::lock_guard<std::mutex> lock(p.workers_mutex);
  p.workers.push_back(wk.get());
  out = wk.release();
  return SYMMEM_SUCCESS;
}

void close_endpoints(worker &wk) {
  for (ucp_ep_h &ep : wk.eps) {
    if (ep == nullptr) continue;
    ucp_request_param_t rp{};
    rp.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    rp.flags = UCP_EP_CLOSE_FLAG_FORCE;  // after the library's final flush: nothing is in flight
    ucs_status_ptr_t r = ucp_ep_close_nbx(ep, &rp);
    if (UCS_PTR_IS_PTR(r)) {
      while (ucp_request_check_status(r) == UCS_INPROGRESS) ucp_worker_progress(wk.w);
      ucp_request_free(r);
    }
    ep = nullptr;
  }
}

// Completes the sends the worker still holds, whose callbacks free their buffers (staged
// requests and their answers): the library's final flush waited for the answers, but UCX may run
// a send's completion at a later progress, and a worker destroyed before that leaked the buffer.
// Bounded: a peer that is gone must not hold up the end of the job.
void complete_sends(worker &wk) {
  ucp_request_param_t rp{};
  ucs_status_ptr_t r = ucp_worker_flush_nbx(wk.w, &rp);
  if (!UCS_PTR_IS_PTR(r)) return;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (ucp_request_check_status(r) == UCS_INPROGRESS && std::chrono::steady_clock::now() < until) {
    ucp_worker_progress(wk.w);
  }
  ucp_request_free(r);
}

void free_worker(worker *wk) {
  drop_batch(*wk);
  drop_cache(*wk);
  if (wk->w != nullptr) complete_sends(*wk);
  close_endpoints(*wk);
  if (wk->w != nullptr) ucp_worker_destroy(wk->w);
  delete wk;
}

// ---- the table's setup entries ----

int do_connect(void *ctx, const int *pes, int n, const char *call) {
  plugin &p = *static_cast<plugin *>(ctx);
  worker &dw = *p.workers.front();
  ucp_address_t *addr = nullptr;
  size_t len = 0;
  ucs_status_t st = ucp_worker_get_address(dw.w, &addr, &len);
  if (st != UCS_OK || len > SYMMEM_NET_ADDRESS_MAX) {
    if (st == UCS_OK) ucp_worker_release_address(dw.w, addr);
    return report(p, SYMMEM_ERR_SYSTEM, call, "cannot get this PE's UCX worker address (%s, %zu bytes)",
                  ucs_status_string(st), len);
  }
  // Two rounds: every length, then every address padded to the longest.
  const size_t np = static_cast<size_t>(p.host.n_pes);
  std::vector<uint32_t> lens(np);
  uint32_t mine = static_cast<uint32_t>(len);
  int rc = p.host.allgather(p.host.allgather_ctx, &mine, lens.data(), sizeof mine, call);
  uint32_t longest = 0;
  for (uint32_t l : lens) longest = std::max(longest, l);
  std::vector<char> padded(longest, 0), all(longest * np);
  std::memcpy(padded.data(), addr, len);
  ucp_worker_release_address(dw.w, addr);
  if (rc == SYMMEM_SUCCESS) rc = p.host.allgather(p.host.allgather_ctx, padded.data(), all.data(), longest, call);
  if (rc != SYMMEM_SUCCESS) return rc;
  p.addresses.resize(np);
  for (size_t i = 0; i < np; ++i) p.addresses[i].assign(all.data() + i * longest, lens[i]);
  for (int i = 0; i < n; ++i) {
    if (pes[i] < 0 || pes[i] >= p.host.n_pes || pes[i] == p.host.my_pe) {
      return report(p, SYMMEM_ERR_INVALID_ARGUMENT, call, "connect: PE %d is not a remote PE of this job", pes[i]);
    }
    p.remote[static_cast<size_t>(pes[i])] = 1;
  }
  rc = make_endpoints(dw, call);
  if (rc == SYMMEM_SUCCESS && n > 0) rc = wire_up(dw, call);
  if (rc == SYMMEM_SUCCESS && n > 0) rc = start_progress_thread(p, call);
  return rc;
}

// ucp_ep_print_info names each lane as "<md index>:<transport>/<device>"; keep the distinct ones.
void do_route(void *ctx, int pe, char *text, size_t len) {
  plugin &p = *static_cast<plugin *>(ctx);
  worker &dw = *p.workers.front();
  worker_guard guard(dw);
  std::string out;
  if (pe >= 0 && pe < p.host.n_pes && dw.eps[static_cast<size_t>(pe)] != nullptr) {
    char *buf = nullptr;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (f != nullptr) {
      ucp_ep_print_info(dw.eps[static_cast<size_t>(pe)], f);
      std::fclose(f);
      std::string info(buf, n);
      std::free(buf);
      for (size_t at = 0; (at = info.find("lane[", at)) != std::string::npos; ++at) {
        size_t colon = info.find(": ", at);
        size_t start = info.find(':', colon + 2);
        if (colon == std::string::npos || start == std::string::npos) break;
        size_t end = info.find_first_of(" \n", start);
        std::string lane = info.substr(start + 1, end - start - 1);
        if (size_t dot = lane.rfind(".0"); dot != std::string::npos && dot + 2 == lane.size()) lane.resize(dot);
        if (out.find(lane) == std::string::npos) out += (out.empty() ? "" : ",") + lane;
      }
    }
  }
  std::snprintf(text, len, "%s", out.empty() ? "UCX" : out.c_str());
}

int do_worker_create(void *ctx, int shared, void **out, const char *call) {
  plugin &p = *static_cast<plugin *>(ctx);
  worker *wk = nullptr;
  int rc = new_worker(p, (shared & ~SYMMEM_NET_WORKER_PROGRESSED) != 0, (shared & SYMMEM_NET_WORKER_PROGRESSED) != 0, wk, call);
  if (rc == SYMMEM_SUCCESS) rc = make_endpoints(*wk, call);
  if (rc != SYMMEM_SUCCESS) {
    if (wk != nullptr) {
      std::lock_guard<std::mutex> lock(p.workers_mutex);
      std::erase(p.workers, wk);
      free_worker(wk);
    }
    return rc;
  }
  *out = wk;
  return SYMMEM_SUCCESS;
}

void do_worker_destroy(void *ctx, void *w) {
  plugin &p = *static_cast<plugin *>(ctx);
  auto *wk = static_cast<worker *>(w);
  if (wk == nullptr || wk == p.workers.front()) return;
  {
    std::lock_guard<std::mutex> lock(p.workers_mutex);
    std::erase(p.workers, wk);
  }
  free_worker(wk);
}

int mem_register(plugin &p, void *addr, size_t len, bool gpu, void **handle, void *key, size_t *key_len,
                 const char *call) {
  ucp_mem_map_params_t mp{};
  mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
  mp.address = addr;
  mp.length = len;
  if (gpu) {  // said, not detected: UCX's detection of a VMM mapping depends on its version
    mp.field_mask |= UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE;
    mp.memory_type = UCS_MEMORY_TYPE_CUDA;
  }
  ucp_mem_h mh = nullptr;
  ucs_status_t st = ucp_mem_map(p.ctx, &mp, &mh);
  if (st != UCS_OK) {
    return report(p, SYMMEM_ERR_SYSTEM, call, "UCX cannot register %zu bytes at %p: %s", len, addr,
                  ucs_status_string(st));
  }
  void *packed = nullptr;
  size_t n = 0;
  st = ucp_rkey_pack(p.ctx, mh, &packed, &n);
  if (st != UCS_OK || n > SYMMEM_NET_KEY_MAX) {
    if (st == UCS_OK) ucp_rkey_buffer_release(packed);
    ucp_mem_unmap(p.ctx, mh);
    return report(p, SYMMEM_ERR_SYSTEM, call, "UCX cannot pack the key of %zu bytes at %p (%s, %zu bytes)", len,
                  addr, ucs_status_string(st), n);
  }
  std::memcpy(key, packed, n);
  *key_len = n;
  ucp_rkey_buffer_release(packed);
  *handle = mh;
  if (gpu) return SYMMEM_SUCCESS;  // not memory a message handler may store into (registered())
  std::lock_guard<std::mutex> lock(p.regs_mutex);
  p.regs[reinterpret_cast<uintptr_t>(addr)] = len;
  p.reg_of_handle[mh] = reinterpret_cast<uintptr_t>(addr);
  return SYMMEM_SUCCESS;
}

int do_mem_register(void *ctx, void *addr, size_t len, void **handle, void *key, size_t *key_len,
                    const char *call) {
  return mem_register(*static_cast<plugin *>(ctx), addr, len, false, handle, key, key_len, call);
}

int do_mem_register_kind(void *ctx, void *addr, size_t len, unsigned kind, void **handle, void *key,
                         size_t *key_len, const char *call) {
  plugin &p = *static_cast<plugin *>(ctx);
  if (kind != SYMMEM_NET_MEM_GPU || !p.gpu_memory) {
    return report(p, SYMMEM_ERR_UNSUPPORTED, call, "this UCX cannot register memory of kind %u", kind);
  }
  return mem_register(p, addr, len, true, handle, key, key_len, call);
}

void do_mem_deregister(void *ctx, void *handle) {
  plugin &p = *static_cast<plugin *>(ctx);
  if (handle == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(p.regs_mutex);  // no signal lands there any more
    if (auto it = p.reg_of_handle.find(handle); it != p.reg_of_handle.end()) {
      p.regs.erase(it->second);
      p.reg_of_handle.erase(it);
    }
  }
  ucp_mem_unmap(p.ctx, static_cast<ucp_mem_h>(handle));
}

int do_key_set(void *ctx, int pe, uint32_t region, const void *key, size_t key_len, const char *call) {
  plugin &p = *static_cast<plugin *>(ctx);
  if (pe < 0 || pe >= p.host.n_pes || key_len > SYMMEM_NET_KEY_MAX) {
    return report(p, SYMMEM_ERR_INVALID_ARGUMENT, call, "a key of %zu bytes for PE %d is not valid", key_len, pe);
  }
  std::lock_guard<std::mutex> lock(p.keys_mutex);
  auto &e = p.keys[key_of(pe, region)];
  if (!e) e = std::make_unique<key_entry>();
  e->bytes.assign(static_cast<const char *>(key), key_len);
  e->version.fetch_add(1, std::memory_order_release);  // cached unpackings of the old key go stale
  return SYMMEM_SUCCESS;
}

int do_key_known(void *ctx, int pe, uint32_t region) {
  plugin &p = *static_cast<plugin *>(ctx);
  std::lock_guard<std::mutex> lock(p.keys_mutex);
  auto it = p.keys.find(key_of(pe, region));
  return it != p.keys.end() && !it->second->bytes.empty() ? 1 : 0;
}

void do_closing(void *ctx) { static_cast<plugin *>(ctx)->closing.store(true); }

void do_close(void *ctx) {
  auto *p = static_cast<plugin *>(ctx);
  p->closing.store(true);
  stop_progress_thread(*p);
  // Context workers first (they hold endpoints into the default worker's peers), then the default.
  while (p->workers.size() > 1) {
    worker *wk = p->workers.back();
    p->workers.pop_back();
    free_worker(wk);
  }
  if (!p->workers.empty()) free_worker(p->workers.front());
  p->workers.clear();
  // Memory still registered: a program that exits without finalize (its transport closes from a
  // static destructor). UCX aborts in ucp_cleanup over registrations in use, with a backtrace that
  // would bury the program's own message.
  for (auto &[mh, addr] : p->reg_of_handle) ucp_mem_unmap(p->ctx, static_cast<ucp_mem_h>(mh));
  p->reg_of_handle.clear();
  if (p->ctx != nullptr) ucp_cleanup(p->ctx);
  delete p;
}

}  // namespace

int make_endpoints(worker &wk, const char *call) {
  plugin &p = *wk.pl;
  for (size_t pe = 0; pe < p.remote.size(); ++pe) {
    if (!p.remote[pe] || wk.eps[pe] != nullptr) continue;
    wk.error_args.push_back(std::make_unique<ep_error>(ep_error{&wk, static_cast<int>(pe)}));
    ucp_ep_params_t ep{};
    ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                    UCP_EP_PARAM_FIELD_ERR_HANDLER;
    ep.address = reinterpret_cast<const ucp_address_t *>(p.addresses[pe].data());
    ep.err_mode = UCP_ERR_HANDLING_MODE_PEER;
    ep.err_handler.cb = on_ep_error;
    ep.err_handler.arg = wk.error_args.back().get();
    ucs_status_t st = ucp_ep_create(wk.w, &ep, &wk.eps[pe]);
    if (st != UCS_OK) {
      wk.eps[pe] = nullptr;
      return report(p, SYMMEM_ERR_NOT_ACCESSIBLE, call,
                    "UCX cannot make an endpoint to PE %zu: %s; is it reachable (UCX_NET_DEVICES, UCX_TLS)?", pe,
                    ucs_status_string(st));
    }
  }
  return SYMMEM_SUCCESS;
}

// Connects the worker's endpoints before init returns. UCX wires an endpoint up (its TCP
// connections, the lanes of each kind of operation) at its first operation otherwise, and a PE's
// first remote operation then took 0.7-0.9 ms instead of OSHMEM's 0.11-0.19 (2 hosts, veth;
// bench/first_op.sh). Per remote PE: a flush of the endpoint, which completes the wire-up, and one
// staged no-op, answered (the active messages that staged puts and atomics travel as, both ways; a
// first long_p is a staged put). Every PE runs it at once, each progressing its own worker, so each
// answers the others. Bounded by SYMMEM_BOOTSTRAP_TIMEOUT (init's limit), naming the PEs that did
// not answer. (The runtime then gets 8 bytes from each remote PE's key directory, core/remote.cpp
// warm_up, for the RMA path.)
int wire_up(worker &wk, const char *call) {
  plugin &p = *wk.pl;
  const double limit_s = symmem::plugin::env_seconds("SYMMEM_BOOTSTRAP_TIMEOUT", 30);
  struct waiting {
    int pe;
    ucs_status_ptr_t flush;  // UCX's request, until it ends
    void *ping;              // the staged no-op (test_staged), until answered
  };
  std::vector<waiting> out;
  int rc = SYMMEM_SUCCESS;
  for (size_t pe = 0; pe < wk.eps.size() && rc == SYMMEM_SUCCESS; ++pe) {
    if (wk.eps[pe] == nullptr) continue;
    waiting w{static_cast<int>(pe), nullptr, nullptr};
    {
      worker_guard guard(wk);
      ucp_request_param_t rp{};
      w.flush = ucp_ep_flush_nbx(wk.eps[pe], &rp);
    }
    if (UCS_PTR_IS_ERR(w.flush)) {
      rc = report(p, SYMMEM_ERR_NOT_ACCESSIBLE, call,
                  "UCX cannot connect to PE %zu: %s; is it reachable (UCX_NET_DEVICES, UCX_TLS)?", pe,
                  ucs_status_string(UCS_PTR_STATUS(w.flush)));
      break;
    }
    rc = post_ping(wk, w.pe, &w.ping, call);
    out.push_back(w);
  }
  const auto start = std::chrono::steady_clock::now();
  while (rc == SYMMEM_SUCCESS && !out.empty()) {
    {
      worker_guard guard(wk);
      ucp_worker_progress(wk.w);
      for (waiting &w : out) {
        if (w.flush == nullptr) continue;
        const ucs_status_t st = ucp_request_check_status(w.flush);
        if (st == UCS_INPROGRESS) continue;
        ucp_request_free(w.flush);
        w.flush = nullptr;
        if (st != UCS_OK && rc == SYMMEM_SUCCESS) {
          rc = report(p, SYMMEM_ERR_NOT_ACCESSIBLE, call,
                      "UCX cannot connect to PE %d: %s; is it reachable (UCX_NET_DEVICES, UCX_TLS)?", w.pe,
                      ucs_status_string(st));
        }
      }
    }
    for (waiting &w : out) {
      if (w.ping == nullptr) continue;
      const int t = test_staged(wk, w.ping, call);  // frees it once answered
      if (t == 0) continue;
      w.ping = nullptr;
      if (t < 0 && rc == SYMMEM_SUCCESS) rc = t;
    }
    std::erase_if(out, [](const waiting &w) { return w.flush == nullptr && w.ping == nullptr; });
    if (rc == SYMMEM_SUCCESS && !out.empty() && limit_s > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limit_s) {
      std::vector<int> who;
      for (const waiting &w : out) who.push_back(w.pe);
      rc = report(p, SYMMEM_ERR_TIMEOUT, call,
                  "waited %g s (SYMMEM_BOOTSTRAP_TIMEOUT) for %s to answer over UCX; are they reachable "
                  "(UCX_NET_DEVICES, UCX_TLS)?", limit_s, symmem::plugin::ranks_text(who).c_str());
    }
  }
  // Left on failure: UCX's flushes are freed (UCX releases them when they end); unanswered pings
  // stay allocated, since an answer may yet arrive and write to them.
  for (waiting &w : out)
    if (w.flush != nullptr && !UCS_PTR_IS_ERR(w.flush)) ucp_request_free(w.flush);
  return rc;
}

}  // namespace symmem::ucx

SYMMEM_PLUGIN_EXPORT int symmem_net_plugin_create(const symmem_net_host *host, symmem_net_ops *out) {
  using namespace symmem::ucx;
  if (host == nullptr || out == nullptr || host->abi_version != SYMMEM_NET_ABI_VERSION ||
      host->struct_size < sizeof(symmem_net_host) || host->allgather == nullptr) {
    return SYMMEM_ERR_UNSUPPORTED;
  }
  auto p = std::make_unique<plugin>();
  p->host = *host;
  p->remote.assign(static_cast<size_t>(host->n_pes), 0);
  p->failed = std::make_unique<std::atomic<int>[]>(static_cast<size_t>(host->n_pes));
  int rc = make_context(*p);
  worker *dw = nullptr;
  if (rc == SYMMEM_SUCCESS) rc = new_worker(*p, true, false, dw, "init");
  if (rc != SYMMEM_SUCCESS) {
    if (p->ctx != nullptr) ucp_cleanup(p->ctx);
    return rc;
  }
  *out = symmem_net_ops{};
  out->abi_version = SYMMEM_NET_ABI_VERSION;
  out->struct_size = sizeof(symmem_net_ops);
  out->name = "ucx";
  out->description = p->description.c_str();
  out->default_worker = dw;
  out->connect = do_connect;
  out->route = do_route;
  out->worker_create = do_worker_create;
  out->worker_destroy = do_worker_destroy;
  out->mem_register = do_mem_register;
  out->mem_deregister = do_mem_deregister;
  out->key_set = do_key_set;
  out->key_known = do_key_known;
  out->closing = do_closing;
  out->close = do_close;
  fill_data_ops(*out);
  if (p->gpu_memory) {
    out->mem_kinds = 1u << SYMMEM_NET_MEM_GPU;
    out->mem_register_kind = do_mem_register_kind;
  } else {
    out->put_kind = nullptr;
    out->get_kind = nullptr;
  }
  out->ctx = p.release();
  return SYMMEM_SUCCESS;
}
