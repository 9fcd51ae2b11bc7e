// The UCX transport plugin: the data path (net_plugin.h). Every entry posts and returns: a
// completed operation, a request for the library to test while it waits, or an nbi operation
// whose request is released at once and which the worker's next flush completes (as OSHMEM's
// spml_ucx does for put_nb).
#include <algorithm>
#include <cstring>
#include <utility>

#include "plugins/common/plugin_util.h"
#include "plugins/ucx/ucx_net.h"

namespace symmem::ucx {

void drop_cache(worker &wk) {
  for (auto &[k, c] : wk.cache)
    if (c.rkey != nullptr) ucp_rkey_destroy(c.rkey);
  wk.cache.clear();
}

// The worker's unpacked key of (pe, region), unpacked again when the PE registered anew.
ucp_rkey_h rkey_for(worker &wk, int pe, uint32_t region, const char *call) {
  plugin &p = *wk.pl;  // the caller holds the worker's lock
  cached_rkey &c = wk.cache[key_of(pe, region)];
  if (SYMMEM_UCX_LIKELY(c.rkey != nullptr && c.version == c.src->version.load(std::memory_order_acquire))) return c.rkey;
  if (c.rkey != nullptr) {
    ucp_rkey_destroy(c.rkey);
    c.rkey = nullptr;
  }
  std::lock_guard<std::mutex> keys(p.keys_mutex);
  auto it = p.keys.find(key_of(pe, region));
  if (it == p.keys.end() || it->second->bytes.empty()) {
    report(p, SYMMEM_ERR_NOT_ACCESSIBLE, call, "no UCX key for memory region %u of PE %d (not registered there)",
           region, pe);
    return nullptr;
  }
  ucs_status_t st = ucp_ep_rkey_unpack(wk.eps[static_cast<size_t>(pe)], it->second->bytes.data(), &c.rkey);
  if (st != UCS_OK) {
    c.rkey = nullptr;
    report(p, SYMMEM_ERR_SYSTEM, call, "UCX cannot unpack the key of region %u of PE %d: %s", region, pe,
           ucs_status_string(st));
    return nullptr;
  }
  c.src = it->second.get();
  c.version = c.src->version.load(std::memory_order_acquire);
  return c.rkey;
}

ucp_ep_h endpoint(worker &wk, int pe, const char *call) {
  send_batch_if_any(wk, call);
  return reach(wk, pe, call);
}

ucp_ep_h usable_endpoint(worker &wk, int pe, const char *call) {
  plugin &p = *wk.pl;
  if (SYMMEM_UCX_UNLIKELY(pe < 0 || pe >= p.host.n_pes || wk.eps[static_cast<size_t>(pe)] == nullptr)) {
    report(p, SYMMEM_ERR_NOT_ACCESSIBLE, call, "PE %d is not reached through UCX", pe);
    return nullptr;
  }
  if (int f = p.failed[static_cast<size_t>(pe)].load(std::memory_order_relaxed); SYMMEM_UCX_UNLIKELY(f != 0)) {
    report(p, SYMMEM_ERR_PEER_GONE, call, "PE %d is unreachable: its UCX connection broke (%s)", pe,
           ucs_status_string(static_cast<ucs_status_t>(f)));
    return nullptr;
  }
  return wk.eps[static_cast<size_t>(pe)];
}

// The endpoint to `pe`, or nullptr after saying why (not remote, or its connection broke).
ucp_ep_h reach(worker &wk, int pe, const char *call) {
  ucp_ep_h ep = usable_endpoint(wk, pe, call);
  if (ep != nullptr) count_progress(wk);  // the PE's thread is in the library
  return ep;
}

int posted(worker &wk, ucs_status_ptr_t r, void **req, int pe, const char *what, const char *call) {
  if (SYMMEM_UCX_LIKELY(r == nullptr)) return SYMMEM_SUCCESS;
  if (UCS_PTR_IS_ERR(r)) {
    return report(*wk.pl, SYMMEM_ERR_PEER_GONE, call, "UCX %s to PE %d failed: %s", what, pe,
                  ucs_status_string(UCS_PTR_STATUS(r)));
  }
  if (req == nullptr) {
    ucp_request_free(r);  // nbi: the worker's flush completes it
    return SYMMEM_SUCCESS;
  }
  *req = r;
  return 1;
}

namespace {

// A local buffer in GPU memory is named as such, so UCX copies it with its CUDA transport.
void local_kind(ucp_request_param_t &rp, bool gpu) {
  if (!gpu) return;
  rp.op_attr_mask |= UCP_OP_ATTR_FIELD_MEMORY_TYPE;
  rp.memory_type = UCS_MEMORY_TYPE_CUDA;
}

int put_of(void *w, int pe, uint32_t region, uint64_t raddr, const void *src, size_t len, bool gpu, void **req,
           const char *call) {
  worker &wk = *static_cast<worker *>(w);
  worker_guard guard(wk);
  ucp_ep_h ep = endpoint(wk, pe, call);
  ucp_rkey_h rkey = ep != nullptr ? rkey_for(wk, pe, region, call) : nullptr;
  if (rkey == nullptr) return SYMMEM_ERR_NOT_ACCESSIBLE;
  ucp_request_param_t rp{};
  local_kind(rp, gpu);
  if (region != SYMMEM_NET_REGION_SIGNALS) ++wk.posted;  // complete only at the remote end after a flush
  return posted(wk, ucp_put_nbx(ep, src, len, raddr, rkey, &rp), req, pe, "put", call);
}

int get_of(void *w, int pe, uint32_t region, uint64_t raddr, void *dst, size_t len, bool gpu, void **req,
           const char *call) {
  worker &wk = *static_cast<worker *>(w);
  worker_guard guard(wk);
  ucp_ep_h ep = endpoint(wk, pe, call);
  ucp_rkey_h rkey = ep != nullptr ? rkey_for(wk, pe, region, call) : nullptr;
  if (rkey == nullptr) return SYMMEM_ERR_NOT_ACCESSIBLE;
  ucp_request_param_t rp{};
  local_kind(rp, gpu);
  if (req == nullptr && region != SYMMEM_NET_REGION_SIGNALS) ++wk.posted;  // an nbi get: the flush completes it
  return posted(wk, ucp_get_nbx(ep, dst, len, raddr, rkey, &rp), req, pe, "get", call);
}

int do_put(void *w, int pe, uint32_t region, uint64_t raddr, const void *src, size_t len, void **req,
           const char *call) {
  return put_of(w, pe, region, raddr, src, len, false, req, call);
}

int do_get(void *w, int pe, uint32_t region, uint64_t raddr, void *dst, size_t len, void **req, const char *call) {
  return get_of(w, pe, region, raddr, dst, len, false, req, call);
}

int do_put_kind(void *w, int pe, uint32_t region, uint64_t raddr, const void *src, size_t len, unsigned kind,
                void **req, const char *call) {
  return put_of(w, pe, region, raddr, src, len, kind == SYMMEM_NET_MEM_GPU, req, call);
}

int do_get_kind(void *w, int pe, uint32_t region, uint64_t raddr, void *dst, size_t len, unsigned kind, void **req,
                const char *call) {
  return get_of(w, pe, region, raddr, dst, len, kind == SYMMEM_NET_MEM_GPU, req, call);
}

const ucp_atomic_op_t amo_ops[] = {UCP_ATOMIC_OP_ADD, UCP_ATOMIC_OP_SWAP, UCP_ATOMIC_OP_CSWAP,
                                   UCP_ATOMIC_OP_AND, UCP_ATOMIC_OP_OR,   UCP_ATOMIC_OP_XOR};

// UCX reads the operand when the operation is posted; CSWAP's swap value travels in the reply
// buffer, which then receives the old value. A swap that nobody reads back replies into scratch.
int do_amo(void *w, int pe, uint32_t region, uint64_t raddr, int op, unsigned size, uint64_t value, uint64_t compare,
           void *result, void **req, const char *call) {
  worker &wk = *static_cast<worker *>(w);
  if (op < SYMMEM_NET_AMO_ADD || op > SYMMEM_NET_AMO_XOR || (size != 4 && size != 8) ||
      (result == nullptr && (req != nullptr || op == SYMMEM_NET_AMO_CSWAP))) {
    return report(*wk.pl, SYMMEM_ERR_INVALID_ARGUMENT, call, "atomic %d of %u bytes is not one UCX performs", op, size);
  }
  worker_guard guard(wk);
  ucp_ep_h ep = endpoint(wk, pe, call);
  ucp_rkey_h rkey = ep != nullptr ? rkey_for(wk, pe, region, call) : nullptr;
  if (rkey == nullptr) return SYMMEM_ERR_NOT_ACCESSIBLE;
  uint32_t v32 = static_cast<uint32_t>(value), c32 = static_cast<uint32_t>(compare);
  const bool cswap = op == SYMMEM_NET_AMO_CSWAP;
  const void *operand = size == 4 ? static_cast<const void *>(cswap ? &c32 : &v32) : (cswap ? &compare : &value);
  void *reply = result != nullptr ? result : (op == SYMMEM_NET_AMO_SWAP ? wk.scratch : nullptr);
  if (cswap) std::memcpy(reply, size == 4 ? static_cast<const void *>(&v32) : &value, size);
  ucp_request_param_t rp{};
  rp.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | (reply != nullptr ? UCP_OP_ATTR_FIELD_REPLY_BUFFER : 0);
  rp.datatype = ucp_dt_make_contig(size);
  rp.reply_buffer = reply;
  if (result == nullptr && region != SYMMEM_NET_REGION_SIGNALS) ++wk.posted;
  return posted(wk, ucp_atomic_op_nbx(ep, amo_ops[op], operand, 1, raddr, rkey, &rp), req, pe, "atomic", call);
}

// One eager active message (the handler gets all of it at once): `header` and `payload` must stay
// where they are until it completes (the library waits).
// `datatype` iov: `payload` is a scatter list of `len` entries (which must stay too).
int send_am(worker &wk, int pe, unsigned am_id, const void *header, size_t header_len, const void *payload, size_t len,
            void **req, const char *what, const char *call, ucp_datatype_t datatype = ucp_dt_make_contig(1)) {
  worker_guard guard(wk);
  ucp_ep_h ep = endpoint(wk, pe, call);
  if (ep == nullptr) return SYMMEM_ERR_NOT_ACCESSIBLE;
  ucp_request_param_t rp{};
  rp.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  rp.flags = UCP_AM_SEND_FLAG_EAGER;
  if (datatype != ucp_dt_make_contig(1)) {  // named only when it is not UCX's default (bytes)
    rp.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
    rp.datatype = datatype;
  }
  return posted(wk, ucp_am_send_nbx(ep, am_id, header, header_len, payload, len, &rp), req, pe, what, call);
}

// A signal: one active message of `words` 8-byte words, the target address first.
int send_signal(void *w, int pe, unsigned am_id, const uint64_t *msg, size_t words, void **req, const char *what,
                const char *call) {
  worker &wk = *static_cast<worker *>(w);
  if (msg[0] % 8 != 0) {
    return report(*wk.pl, SYMMEM_ERR_INVALID_ARGUMENT, call, "a %s to %#llx is not 8-byte aligned", what,
                  static_cast<unsigned long long>(msg[0]));
  }
  return send_am(wk, pe, am_id, nullptr, 0, msg, words * sizeof *msg, req, what, call);
}

int do_signal(void *w, int pe, const uint64_t *msg, size_t words, void **req, const char *call) {
  if (words == 0 || words > 8) {
    return report(*static_cast<worker *>(w)->pl, SYMMEM_ERR_INVALID_ARGUMENT, call,
                  "a signal carries 1 to 8 words, not %zu", words);
  }
  return send_signal(w, pe, signal_am_id, msg, words + 1, req, "signal", call);
}

int do_signal_add(void *w, int pe, const uint64_t *msg, void **req, const char *call) {
  return send_signal(w, pe, signal_add_am_id, msg, 2, req, "counting signal", call);
}

// The header (data address, count address, addend) travels as the active message's header and
// the head and data as its payload, a scatter list kept in hdr[3..6] when there is a head: nothing
// is copied here.
int do_signal_put(void *w, int pe, uint64_t *hdr, const void *head, size_t head_len, const void *data, size_t len,
                  void **req, const char *call) {
  worker &wk = *static_cast<worker *>(w);
  if (hdr[1] % 8 != 0 || len > SYMMEM_NET_DATA_SIGNAL_MAX || head_len > SYMMEM_NET_DATA_SIGNAL_MAX - len) {
    return report(*wk.pl, SYMMEM_ERR_INVALID_ARGUMENT, call,
                  "a data signal of %zu bytes (at most %u) counting at %#llx (8-byte aligned) is not one this "
                  "transport sends",
                  head_len + len, SYMMEM_NET_DATA_SIGNAL_MAX, static_cast<unsigned long long>(hdr[1]));
  }
  if (head_len == 0) return send_am(wk, pe, signal_put_am_id, hdr, 3 * sizeof *hdr, data, len, req, "data signal", call);
  static_assert(3 * sizeof(uint64_t) + 2 * sizeof(ucp_dt_iov_t) <= SYMMEM_NET_DATA_SIGNAL_HDR * sizeof(uint64_t));
  auto *iov = reinterpret_cast<ucp_dt_iov_t *>(hdr + 3);
  iov[0] = {const_cast<void *>(head), head_len};
  iov[1] = {const_cast<void *>(data), len};
  return send_am(wk, pe, signal_put_am_id, hdr, 3 * sizeof *hdr, iov, len != 0 ? 2 : 1, req, "data signal", call,
                 ucp_dt_make_iov());
}

// True when [addr, addr + len) lies inside memory this PE registered.
bool registered(plugin &p, uint64_t addr, size_t len) {
  std::lock_guard<std::mutex> lock(p.regs_mutex);
  auto it = p.regs.upper_bound(static_cast<uintptr_t>(addr));
  return it != p.regs.begin() && (--it, addr >= it->first && addr - it->first <= it->second &&
                                            len <= it->second - (addr - it->first));
}

void warn_dropped(plugin &p, size_t length, uint64_t addr) {
  if (!p.warned_bad_signal.exchange(true)) {
    note(p, SYMMEM_BOOT_LOG_WARN, "dropped a malformed signal (%zu bytes to %#llx, outside this PE's registered memory)",
         length, static_cast<unsigned long long>(addr));
  }
}

// Where an incoming signal of `length` bytes (the target address, then 1 to 8 words) stores: inside
// memory this PE registered, or nowhere (nullptr: a peer of another build, a corrupt message),
// with one warning per PE.
uint64_t *signal_target(plugin &p, const ucp_am_recv_param_t *param, const void *data, size_t length) {
  uint64_t addr = 0;
  if (length >= sizeof addr) std::memcpy(&addr, data, sizeof addr);
  bool ok = (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) == 0 && length % sizeof addr == 0 &&
            length >= 2 * sizeof addr && length <= 9 * sizeof addr && addr % sizeof addr == 0;
  ok = ok && registered(p, addr, length - sizeof addr);
  if (!ok) warn_dropped(p, length, addr);
  return ok ? reinterpret_cast<uint64_t *>(static_cast<uintptr_t>(addr)) : nullptr;
}

// The words follow the address; UCX may align the payload only to bytes, hence the copies.
uint64_t word_at(const void *data, size_t i) {
  uint64_t v;
  std::memcpy(&v, static_cast<const char *>(data) + (i + 1) * sizeof v, sizeof v);
  return v;
}

ucs_status_t on_signal(void *arg, const void *, size_t, void *data, size_t length, const ucp_am_recv_param_t *param) {
  uint64_t *out = signal_target(*static_cast<plugin *>(arg), param, data, length);
  if (out == nullptr) return UCS_OK;
  const size_t words = length / sizeof *out - 1;
  for (size_t i = words; i-- > 1;) __atomic_store_n(out + i, word_at(data, i), __ATOMIC_RELAXED);
  __atomic_store_n(out, word_at(data, 0), __ATOMIC_RELEASE);  // the first word last, released
  return UCS_OK;
}

ucs_status_t on_signal_add(void *arg, const void *, size_t, void *data, size_t length, const ucp_am_recv_param_t *param) {
  uint64_t *out = length == 2 * sizeof(uint64_t) ? signal_target(*static_cast<plugin *>(arg), param, data, length) : nullptr;
  if (out != nullptr) __atomic_fetch_add(out, word_at(data, 0), __ATOMIC_RELEASE);
  return UCS_OK;
}

// The data first, then the count with release order.
ucs_status_t on_signal_put(void *arg, const void *header, size_t header_length, void *data, size_t length,
                           const ucp_am_recv_param_t *param) {
  plugin &p = *static_cast<plugin *>(arg);
  uint64_t hdr[3] = {0, 0, 0};
  if (header_length == sizeof hdr) std::memcpy(hdr, header, sizeof hdr);
  const bool ok = header_length == sizeof hdr && (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) == 0 &&
                  hdr[1] % 8 == 0 && registered(p, hdr[0], length) && registered(p, hdr[1], sizeof(uint64_t));
  if (!ok) {
    warn_dropped(p, length, hdr[0]);
    return UCS_OK;
  }
  if (length != 0) std::memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(hdr[0])), data, length);
  __atomic_fetch_add(reinterpret_cast<uint64_t *>(static_cast<uintptr_t>(hdr[1])), hdr[2], __ATOMIC_RELEASE);
  return UCS_OK;
}

int do_fence(void *w, const char *call) {
  worker &wk = *static_cast<worker *>(w);
  worker_guard guard(wk);
  send_batch_if_any(wk, call);
  ucs_status_t st = ucp_worker_fence(wk.w);
  return st == UCS_OK ? SYMMEM_SUCCESS
                      : report(*wk.pl, SYMMEM_ERR_SYSTEM, call, "UCX fence failed: %s", ucs_status_string(st));
}

int do_flush(void *w, int pe, void **req, const char *call) {
  worker &wk = *static_cast<worker *>(w);
  worker_guard guard(wk);
  ucp_request_param_t rp{};
  send_batch_if_any(wk, call);
  if (wk.staged_pending.load(std::memory_order_acquire) != 0 || wk.staged_error.load(std::memory_order_relaxed) != 0) {
    return flush_staged(wk, pe, req, call);  // the answers of staged operations, then UCX's flush
  }
  if (pe < 0) {
    if (wk.flushed == wk.posted) return SYMMEM_SUCCESS;  // nothing since the last flush completed
    const uint64_t upto = wk.posted;
    const int rc = posted(wk, ucp_worker_flush_nbx(wk.w, &rp), req, pe, "flush", call);
    if (rc == SYMMEM_SUCCESS && req != nullptr) wk.flushed = std::max(wk.flushed, upto);
    if (rc == 1) wk.flush_req = *req, wk.flush_upto = upto;
    return rc;
  }
  ucp_ep_h ep = endpoint(wk, pe, call);
  if (ep == nullptr) return SYMMEM_ERR_PEER_GONE;
  return posted(wk, ucp_ep_flush_nbx(ep, &rp), req, pe, "flush", call);
}

int do_test(void *w, void *req, const char *call) {
  worker &wk = *static_cast<worker *>(w);
  if (is_staged_req(req)) return test_staged(wk, req, call);
  ucs_status_t st;
  {
    worker_guard guard(wk);
    st = ucp_request_check_status(req);
    if (st == UCS_INPROGRESS) return 0;
    if (req == wk.flush_req) {
      if (st == UCS_OK) wk.flushed = std::max(wk.flushed, wk.flush_upto);
      wk.flush_req = nullptr;
    }
    ucp_request_free(req);
  }
  if (st == UCS_OK) return 1;
  return report(*wk.pl, SYMMEM_ERR_PEER_GONE, call, "a UCX operation failed: %s", ucs_status_string(st));
}

int do_progress(void *w) {
  worker &wk = *static_cast<worker *>(w);
  count_progress(wk);
  worker_guard guard(wk);
  send_batch_if_any(wk, "progress");
  return static_cast<int>(ucp_worker_progress(wk.w));
}

}  // namespace

int set_signal_handler(worker &wk, const char *call) {
  const std::pair<unsigned, ucp_am_recv_callback_t> handlers[] = {
      {signal_am_id, on_signal},
      {signal_add_am_id, on_signal_add},
      {signal_put_am_id, on_signal_put},
      {staged_request_am_id, on_staged_request}};
  for (auto [id, cb] : handlers) {
    ucp_am_handler_param_t hp{};
    hp.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_ARG;
    hp.id = id;
    hp.cb = cb;
    hp.arg = wk.pl;
    ucs_status_t st = ucp_worker_set_am_recv_handler(wk.w, &hp);
    if (st != UCS_OK) {
      return report(*wk.pl, SYMMEM_ERR_SYSTEM, call, "UCX cannot take the signal handlers: %s", ucs_status_string(st));
    }
  }
  return SYMMEM_SUCCESS;
}

void fill_data_ops(symmem_net_ops &ops) {
  ops.put = do_put;
  ops.get = do_get;
  ops.amo = do_amo;
  ops.fence = do_fence;
  ops.flush = do_flush;
  ops.test = do_test;
  ops.progress = do_progress;
  ops.signal = do_signal;
  ops.signal_add = do_signal_add;
  ops.signal_put = do_signal_put;
  ops.idle = idle;
  ops.put_kind = do_put_kind;  // offered with mem_kinds (symmem_net_plugin_create)
  ops.get_kind = do_get_kind;
  fill_staged_ops(ops);
}

}  // namespace symmem::ucx
