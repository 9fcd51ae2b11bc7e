// The UCX transport plugin: staged operations (net_plugin.h), for memory of a PE that UCX cannot
// reach itself, today a GPU heap while Debian's UCX has no CUDA support.
//
// Each operation is one eager active message to the target's default worker, whose handler
// performs it through the library's stage_* callbacks (a copy into or out of GPU memory, or a
// one-thread atomic kernel) and answers on the reply endpoint, which leads back to the worker
// that sent it. So a staged put is complete once its answer is back: the flush waits for the
// answers (UCX does not promise that active messages on one connection arrive in order, so
// nothing here relies on order). Fetching operations carry their request's address as a token
// that the answer returns; the request is this file's own object, told apart from UCX's requests
// by its lowest address bit. Counted operations (puts, non-fetching atomics) carry an even token,
// 2 * (target PE + 1), so that the answer says which PE's count it settles.
//
// Batches. Each message costs both CPUs system calls and the TCP stack's work: one message per
// put streamed a put every 7-9 us between two emulated hosts on the 2-vCPU VM (OSU put_mr, 1 B to
// 4 KiB; OSHMEM's UCX puts the same), so small puts to one PE travel together: a staged put of at most plugin::batch_put bytes while an earlier message to
// that PE still awaits its answer is copied into the worker's batch (its address and length, then
// its bytes), and the batch goes as one message, which the owner carries out in order and answers
// once. It is sent before any other operation of the worker (endpoint), by a flush or fence, by
// every progress call (the library's waits), when it is full or the next put goes to another PE,
// and by the progress thread (woken when it sleeps on the event descriptor) for a PE that left
// the library. It is counted as one unanswered operation from its first put, so a quiet, a fence
// (then a quiet), a get or a fetching atomic to the PE send and complete it. A put with nothing to
// its PE unanswered goes at once, by itself: a lone put, or a flag after a quiet, is not held.
// Puts with signal of up to batch_put bytes join the batch too, as records of their own, which the
// owner carries out as it does a lone one (data, then signal), in the batch's order.
// A put that continues the batch's last put (its address right after that one's bytes) lengthens
// that record instead of starting one: the stores of a GPU kernel's `p` to consecutive elements,
// which reach here one request each through the proxy ring, travel and land as one copy per run.
// The owner brackets a batch's records (stage_batch), so that the library completes its stores
// into a GPU heap once per batch instead of once per record.
// The default worker batches, since the progress thread serves it: a batch that a PE left there
// when it went off to compute outside the library still goes. So does the GPU heap's proxy
// worker (SYMMEM_NET_WORKER_PROGRESSED), which the proxy thread progresses whenever its ring is
// empty. Another context's worker has no such thread (the program's own waits progress it), so its
// puts go one message each: a program that puts a flag on a context and then spins on its own
// memory is not left waiting.
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "plugins/common/plugin_util.h"
#include "plugins/ucx/ucx_net.h"

namespace symmem::ucx {
namespace {

enum class kind : uint32_t { put = 1, get = 2, amo = 3, put_signal = 4, put_batch = 5, ping = 6 };

// A record in a batch's payload (no padding between records): a put, this header then its
// bytes; a non-fetching atomic, whose len has rec_atomic set, its op in bits 8-15 and its size in
// bits 0-7, followed by its 8-byte operand; or a non-blocking get, whose len has rec_get set and
// whose bytes the answer carries, after those of the batch's earlier gets.
struct batch_rec {
  uint64_t addr;
  uint64_t len;
};
constexpr uint64_t rec_atomic = uint64_t{1} << 63;
constexpr uint64_t rec_get = uint64_t{1} << 62;
// A put with signal: its op in bits 32-39 and its data's length in bits 0-31, followed by the
// signal word's address and value (8 bytes each), then the data; the owner stores the data, then
// the signal, as a lone put with signal.
constexpr uint64_t rec_signal = uint64_t{1} << 61;
constexpr size_t no_last = SIZE_MAX;  // worker::batch_last: the last record is no put

// The token of a counted operation: even, naming the target PE, with bit 1 set when it stores
// data (its answer then also settles staged_stores_to).
constexpr uint64_t counted_token(int pe, bool stores) {
  return 4 * (static_cast<uint64_t>(pe) + 1) + (stores ? 2 : 0);
}

struct request_hdr {
  uint64_t addr;
  uint64_t len;    // bytes (an atomic's size)
  uint64_t token;  // the sender's staged request (tagged, odd), or even: counted by the sending worker
  uint64_t value, compare;  // put_signal: the signal's value and the signal word's address
  uint32_t kind;
  uint32_t op;     // SYMMEM_NET_AMO_* (put_signal: SWAP sets the signal, ADD adds)
};

struct answer_hdr {
  uint64_t token;
  int64_t status;  // 0, or the SYMMEM_ERR_* code the target refused with
  uint64_t value;  // an atomic's old value
};

// A staged request of this process: what its test waits for.
enum class awaits : uint8_t {
  answer,   // a get's or a fetching atomic's answer
  batch,    // a batch with gets: nobody tests it; its answer scatters their bytes and settles the counts
  flush,    // UCX's flush, then every counted operation's answer (flush_staged)
  backlog,  // the worker's unsent staged bytes to shrink to half the bound (do_staged_backlog)
};

struct staged_req {
  awaits what = awaits::answer;
  std::atomic<int> state{0};  // answer: 0 in flight, 1 answered, < 0 refused
  void *dst = nullptr;        // get
  size_t len = 0;
  uint64_t *result = nullptr;  // fetching atomic
  void *ucx_req = nullptr;     // flush: UCX's own flush in flight
  // batch: its PE, whether it stores (staged_stores_to), and where its gets' bytes go
  int pe = -1;
  bool stores = false;
  std::vector<std::pair<void *, size_t>> gets;
};

void *tag(staged_req *r) { return reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(r) | 1); }
staged_req *untag(const void *t) {
  return reinterpret_cast<staged_req *>(reinterpret_cast<uintptr_t>(t) & ~uintptr_t{1});
}

// A message whose buffer the send owns: allocated with this prefix, which says which worker's
// count of unsent bytes it is on (none for answers), and freed when the send completes.
struct alignas(16) owned_prefix {
  worker *counted = nullptr;
  size_t bytes = 0;
};

char *owned_alloc(size_t bytes) {
  auto *o = static_cast<owned_prefix *>(std::malloc(sizeof(owned_prefix) + bytes));
  if (o == nullptr) return nullptr;
  new (o) owned_prefix{};
  return reinterpret_cast<char *>(o + 1);
}

void owned_free(char *msg) { std::free(reinterpret_cast<owned_prefix *>(msg) - 1); }

// The send's completion. The request is freed here and not after posting: UCX invokes no
// callback for a request freed before it completes, and every buffer of a send that did not
// complete at once leaked (a PE streaming 512 MiB of 4 KiB puts to another host kept 495 MiB).
void owned_sent(void *request, ucs_status_t, void *user) {
  auto *o = static_cast<owned_prefix *>(user);
  if (o->counted != nullptr) o->counted->staged_unsent.fetch_sub(o->bytes, std::memory_order_relaxed);
  std::free(o);
  ucp_request_free(request);
}

// Sends `hdr_len` bytes of header then `len` bytes of payload, both at `buf` (from owned_alloc;
// the send owns it and frees it when it completes). Eager: the handler gets the whole message at
// once. While UCX holds it, its bytes count on `counted`'s unsent bytes (when not null).
int send_owned(plugin &p, worker *counted, ucp_ep_h ep, unsigned am_id, char *buf, size_t hdr_len, size_t len,
               bool reply, int pe, const char *what, const char *call) {
  auto *o = reinterpret_cast<owned_prefix *>(buf) - 1;
  ucp_request_param_t rp{};
  rp.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  rp.flags = UCP_AM_SEND_FLAG_EAGER | (reply ? UCP_AM_SEND_FLAG_REPLY : 0);
  rp.cb.send = owned_sent;
  rp.user_data = o;
  if (counted != nullptr) {  // counted before the send, which may complete at any later progress
    o->counted = counted;
    o->bytes = hdr_len + len;
    counted->staged_unsent.fetch_add(o->bytes, std::memory_order_relaxed);
  }
  ucs_status_ptr_t r = ucp_am_send_nbx(ep, am_id, buf, hdr_len, buf + hdr_len, len, &rp);
  if (r == nullptr || UCS_PTR_IS_ERR(r)) {  // sent at once (no callback), or not at all
    if (counted != nullptr) counted->staged_unsent.fetch_sub(o->bytes, std::memory_order_relaxed);
    owned_free(buf);
    if (r == nullptr) return SYMMEM_SUCCESS;
    return report(p, SYMMEM_ERR_PEER_GONE, call, "UCX %s to PE %d failed: %s", what, pe,
                  ucs_status_string(UCS_PTR_STATUS(r)));
  }
  return SYMMEM_SUCCESS;  // the callback frees the buffer and the request when the send completes
}

// A counted message to PE pe answered, or never sent: its counts come off, the worker's total
// last (a quiet that sees it at 0 sees what the answer brought).
void uncount(worker &wk, int pe, bool stores) {
  if (stores) wk.staged_stores_to[static_cast<size_t>(pe)].fetch_sub(1, std::memory_order_release);
  wk.staged_to[static_cast<size_t>(pe)].fetch_sub(1, std::memory_order_release);
  wk.staged_pending.fetch_sub(1, std::memory_order_release);
}

int send_request(worker &wk, int pe, request_hdr h, const void *payload, size_t len, const char *what,
                 const char *call) {
  const bool counted = h.token == 0;
  const bool stores = static_cast<kind>(h.kind) != kind::amo;
  if (counted) h.token = counted_token(pe, stores);
  if (len > SYMMEM_NET_DATA_SIGNAL_MAX || h.len > SYMMEM_NET_DATA_SIGNAL_MAX) {
    return report(*wk.pl, SYMMEM_ERR_INVALID_ARGUMENT, call, "a staged %s of %llu bytes (at most %u)", what,
                  static_cast<unsigned long long>(h.len), SYMMEM_NET_DATA_SIGNAL_MAX);
  }
  char *buf = owned_alloc(sizeof h + len);
  if (buf == nullptr) return report(*wk.pl, SYMMEM_ERR_OUT_OF_MEMORY, call, "no memory for a staged %s", what);
  std::memcpy(buf, &h, sizeof h);
  if (len != 0) std::memcpy(buf + sizeof h, payload, len);
  worker_guard guard(wk);
  ucp_ep_h ep = endpoint(wk, pe, call);
  if (ep == nullptr) {
    owned_free(buf);
    return SYMMEM_ERR_NOT_ACCESSIBLE;
  }
  if (counted) {
    wk.staged_pending.fetch_add(1, std::memory_order_relaxed);
    wk.staged_to[static_cast<size_t>(pe)].fetch_add(1, std::memory_order_relaxed);
    if (stores) wk.staged_stores_to[static_cast<size_t>(pe)].fetch_add(1, std::memory_order_relaxed);
  }
  const int rc = send_owned(*wk.pl, &wk, ep, staged_request_am_id, buf, sizeof h, len, true, pe, what, call);
  if (rc != SYMMEM_SUCCESS && counted) uncount(wk, pe, stores);
  return rc;
}

// A batch's records, in the order they were posted; the first refusal ends it.
int perform_batch(const symmem_net_host &host, const void *data, size_t length, char *out, size_t out_len) {
  const char *at = static_cast<const char *>(data);
  size_t out_at = 0;
  for (size_t left = length; left != 0;) {
    batch_rec rec{};
    if (left < sizeof rec) return SYMMEM_ERR_INVALID_ARGUMENT;
    std::memcpy(&rec, at, sizeof rec);
    at += sizeof rec;
    left -= sizeof rec;
    if ((rec.len & rec_signal) != 0) {
      const size_t n = static_cast<size_t>(rec.len & 0xffffffffu);
      uint64_t sig[2] = {0, 0};  // the signal word's address, its value
      if (left < sizeof sig || n > left - sizeof sig ||
          host.struct_size < offsetof(symmem_net_host, stage_signal) + sizeof host.stage_signal ||
          host.stage_signal == nullptr) {
        return SYMMEM_ERR_INVALID_ARGUMENT;
      }
      std::memcpy(sig, at, sizeof sig);
      at += sizeof sig;
      left -= sizeof sig;
      int rc = n != 0 ? host.stage_store(host.stage_ctx, rec.addr, at, n) : SYMMEM_SUCCESS;
      if (rc == SYMMEM_SUCCESS) rc = host.stage_signal(host.stage_ctx, sig[0], static_cast<int>((rec.len >> 32) & 0xff), sig[1]);
      if (rc != SYMMEM_SUCCESS) return rc;
      at += n;
      left -= n;
      continue;
    }
    if ((rec.len & rec_get) != 0) {
      const size_t n = static_cast<size_t>(rec.len & ~rec_get);
      if (n > out_len - out_at) return SYMMEM_ERR_INVALID_ARGUMENT;
      const int rc = host.stage_load(host.stage_ctx, out + out_at, rec.addr, n);
      if (rc != SYMMEM_SUCCESS) return rc;
      out_at += n;
      continue;
    }
    if ((rec.len & rec_atomic) != 0) {
      uint64_t value = 0, old = 0;
      if (left < sizeof value) return SYMMEM_ERR_INVALID_ARGUMENT;
      std::memcpy(&value, at, sizeof value);
      at += sizeof value;
      left -= sizeof value;
      const int rc = host.stage_amo(host.stage_ctx, rec.addr, static_cast<int>((rec.len >> 8) & 0xff),
                                    static_cast<unsigned>(rec.len & 0xff), value, 0, &old);
      if (rc != SYMMEM_SUCCESS) return rc;
      continue;
    }
    if (rec.len > left) return SYMMEM_ERR_INVALID_ARGUMENT;
    const int rc = host.stage_store(host.stage_ctx, rec.addr, at, rec.len);
    if (rc != SYMMEM_SUCCESS) return rc;
    at += rec.len;
    left -= rec.len;
  }
  return SYMMEM_SUCCESS;
}

// The target's side: performs the request through the library and answers, inside the progress
// of its default worker (whose lock the progressing thread holds: no guard here).
int perform(plugin &p, const request_hdr &h, const void *data, size_t length, char *out, size_t out_len,
            uint64_t &old) {
  const symmem_net_host &host = p.host;
  if (static_cast<kind>(h.kind) == kind::ping) {  // wire_up's: nothing to do but answer
    return h.len == 0 && length == 0 ? SYMMEM_SUCCESS : SYMMEM_ERR_INVALID_ARGUMENT;
  }
  if (host.stage_store == nullptr || h.len > SYMMEM_NET_DATA_SIGNAL_MAX) return SYMMEM_ERR_INVALID_ARGUMENT;
  switch (static_cast<kind>(h.kind)) {
    case kind::put:
      return length == h.len ? host.stage_store(host.stage_ctx, h.addr, data, length) : SYMMEM_ERR_INVALID_ARGUMENT;
    case kind::put_signal: {
      if (length != h.len || host.struct_size < offsetof(symmem_net_host, stage_signal) + sizeof host.stage_signal ||
          host.stage_signal == nullptr) {
        return SYMMEM_ERR_INVALID_ARGUMENT;
      }
      const int rc = host.stage_store(host.stage_ctx, h.addr, data, length);
      return rc != SYMMEM_SUCCESS ? rc : host.stage_signal(host.stage_ctx, h.compare, static_cast<int>(h.op), h.value);
    }
    case kind::put_batch: {
      if (length != h.len) return SYMMEM_ERR_INVALID_ARGUMENT;
      // Bracketed, so that the library completes the batch's stores once (stage_batch).
      const bool bracket = host.struct_size >= offsetof(symmem_net_host, stage_batch) + sizeof host.stage_batch &&
                           host.stage_batch != nullptr;
      if (bracket) host.stage_batch(host.stage_ctx, 0);
      const int rc = perform_batch(host, data, length, out, out_len);
      if (bracket) host.stage_batch(host.stage_ctx, 1);
      return rc;
    }
    case kind::get: return host.stage_load(host.stage_ctx, out, h.addr, h.len);
    case kind::amo:
      return host.stage_amo(host.stage_ctx, h.addr, static_cast<int>(h.op), static_cast<unsigned>(h.len), h.value,
                            h.compare, &old);
    case kind::ping: break;  // answered above
  }
  return SYMMEM_ERR_INVALID_ARGUMENT;
}

ucs_status_t on_answer(void *arg, const void *header, size_t header_length, void *data, size_t length,
                       const ucp_am_recv_param_t *param) {
  worker &wk = *static_cast<worker *>(arg);
  answer_hdr a{};
  if (header_length != sizeof a || (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) != 0) {
    note(*wk.pl, SYMMEM_BOOT_LOG_WARN, "dropped a malformed answer to a staged operation (%zu header bytes)",
         header_length);
    return UCS_OK;
  }
  std::memcpy(&a, header, sizeof a);
  if (a.token % 2 == 0) {  // a put or a non-fetching atomic: counted
    int none = 0;
    if (a.status < 0) wk.staged_error.compare_exchange_strong(none, static_cast<int>(a.status));
    const uint64_t pe = a.token / 4 - 1;
    if (a.token >= 4 && pe < static_cast<uint64_t>(wk.pl->host.n_pes)) {
      uncount(wk, static_cast<int>(pe), (a.token & 2) != 0);
    } else {
      wk.staged_pending.fetch_sub(1, std::memory_order_release);
    }
    return UCS_OK;
  }
  staged_req *r = untag(reinterpret_cast<const void *>(a.token));
  if (r->what == awaits::batch) {  // a batch with gets: their bytes, then the counts as for a counted one
    size_t total = 0;
    for (const auto &g : r->gets) total += g.second;
    int none = 0;
    if (a.status == 0 && length == total) {
      const char *from = static_cast<const char *>(data);
      for (const auto &g : r->gets) {
        std::memcpy(g.first, from, g.second);
        from += g.second;
      }
    } else {
      wk.staged_error.compare_exchange_strong(none, a.status < 0 ? static_cast<int>(a.status) : SYMMEM_ERR_INVALID_ARGUMENT);
    }
    const int pe = r->pe;
    const bool stores = r->stores;
    delete r;
    uncount(wk, pe, stores);  // (r->pe is the batch's: always a PE of the job)
    return UCS_OK;
  }
  if (a.status == 0) {
    if (r->dst != nullptr) std::memcpy(r->dst, data, length < r->len ? length : r->len);
    if (r->result != nullptr) *r->result = a.value;
  }
  r->state.store(a.status < 0 ? static_cast<int>(a.status) : 1, std::memory_order_release);
  return UCS_OK;
}

int refused(plugin &p, int code, const char *call) {
  return report(p, code, call,
                "a PE on another host refused a staged operation (error %d): the address is not in its symmetric "
                "heap, or the heap kinds of the PEs differ",
                code);
}

// Adds a record to the worker's batch (begun here when there is none), sending the batch first
// when it goes to another PE or has no room left: a put (`len` bytes at `src`) or a non-fetching
// atomic (rec.len with rec_atomic; its 8-byte operand at `src`, len 8). 1: not batched, as nothing
// to PE pe awaits its answer (the caller sends it by itself, at once).
// A get (rec_get; `dst` then takes its bytes when the answer comes, src and len are none) is
// batched even with nothing unanswered when `always`, and that batch is then sent at once.
// `head_len` bytes at `head` go between the record and its `len` bytes (a put with signal's
// signal address and value).
int batch_add(worker &wk, int pe, batch_rec rec, const void *src, size_t len, const char *call, void *dst = nullptr,
              bool always = false, const void *head = nullptr, size_t head_len = 0) {
  plugin &p = *wk.pl;
  const bool get = (rec.len & rec_get) != 0;
  const bool stores = (rec.len & (rec_atomic | rec_get)) == 0;
  const bool joins = (rec.len & (rec_atomic | rec_get | rec_signal)) == 0;  // a plain put
  const size_t get_len = get ? static_cast<size_t>(rec.len & ~rec_get) : 0;
  worker_guard guard(wk);
  if (wk.batch != nullptr && (wk.batch_pe != pe || wk.batch_len + sizeof(batch_rec) + head_len + len > p.batch_bytes ||
                              wk.batch_get_bytes + get_len > p.batch_bytes)) {
    send_batch(wk, call);
  }
  if (joins && wk.batch != nullptr && wk.batch_last != no_last) {  // this put continues the last one?
    char *last = wk.batch + sizeof(request_hdr) + wk.batch_last;
    batch_rec prev{};
    std::memcpy(&prev, last, sizeof prev);
    if (prev.addr + prev.len == rec.addr) {
      std::memcpy(wk.batch + sizeof(request_hdr) + wk.batch_len, src, len);
      prev.len += len;
      std::memcpy(last, &prev, sizeof prev);
      wk.batch_len += len;
      count_progress(wk);  // posting
      return SYMMEM_SUCCESS;
    }
  }
  const bool alone = wk.batch == nullptr && wk.staged_to[static_cast<size_t>(pe)].load(std::memory_order_relaxed) == 0;
  if (wk.batch == nullptr) {
    if (alone && !always) return 1;
    if (reach(wk, pe, call) == nullptr) return SYMMEM_ERR_NOT_ACCESSIBLE;
    wk.batch = owned_alloc(sizeof(request_hdr) + p.batch_bytes);
    if (wk.batch == nullptr) return report(p, SYMMEM_ERR_OUT_OF_MEMORY, call, "no memory for a staged put");
    wk.batch_pe = pe;
    wk.batch_len = 0;
    wk.batch_last = no_last;
    wk.batch_stores = false;
    wk.staged_pending.fetch_add(1, std::memory_order_relaxed);  // answered once, for the whole batch
    wk.staged_to[static_cast<size_t>(pe)].fetch_add(1, std::memory_order_relaxed);
    // The progress thread sleeps until a message comes: woken, it sends the batch should this
    // PE's thread not come back to the library.
    if (wk.is_default && p.progress_asleep.load(std::memory_order_relaxed)) ucp_worker_signal(wk.w);
  } else {
    count_progress(wk);  // posting
  }
  if (stores && !wk.batch_stores) {
    wk.batch_stores = true;
    wk.staged_stores_to[static_cast<size_t>(pe)].fetch_add(1, std::memory_order_relaxed);
  }
  if (get) {
    wk.batch_gets.emplace_back(dst, get_len);
    wk.batch_get_bytes += get_len;
  }
  char *at = wk.batch + sizeof(request_hdr) + wk.batch_len;
  std::memcpy(at, &rec, sizeof rec);
  if (head_len != 0) std::memcpy(at + sizeof rec, head, head_len);
  if (len != 0) std::memcpy(at + sizeof rec + head_len, src, len);
  wk.batch_last = joins ? wk.batch_len : no_last;
  wk.batch_len += sizeof rec + head_len + len;
  if (alone) send_batch(wk, call);  // (always) nothing to wait behind: it goes by itself
  return SYMMEM_SUCCESS;
}

// A non-blocking get of at most plugin::batch_put bytes: a record in the batch to PE pe (begun
// here when there is none, then sent at once when nothing to pe was unanswered, as a lone put
// goes); `dst` holds the bytes once the worker's flush completes, which waits for the answer.
int do_staged_get_nbi(void *w, int pe, uint64_t raddr, void *dst, size_t len, const char *call) {
  worker &wk = *static_cast<worker *>(w);
  if (len == 0) return SYMMEM_SUCCESS;
  if (len > wk.pl->batch_put || !wk.batches) return 1;  // the caller gets it another way
  return batch_add(wk, pe, batch_rec{raddr, rec_get | len}, nullptr, 0, call, dst, true);
}

int do_staged_put(void *w, int pe, uint64_t raddr, const void *src, size_t len, const char *call) {
  worker &wk = *static_cast<worker *>(w);
  if (len != 0 && len <= wk.pl->batch_put && wk.batches) {  // (a thread that progresses it sends the batch)
    const int rc = batch_add(wk, pe, batch_rec{raddr, len}, src, len, call);
    if (rc != 1) return rc;
  }
  request_hdr h{raddr, len, 0, 0, 0, static_cast<uint32_t>(kind::put), 0};
  return send_request(wk, pe, h, src, len, "put", call);
}

int do_staged_put_signal(void *w, int pe, uint64_t raddr, const void *src, size_t len, uint64_t sig_raddr, int op,
                         uint64_t value, const char *call) {
  worker &wk = *static_cast<worker *>(w);
  if (op != SYMMEM_NET_AMO_SWAP && op != SYMMEM_NET_AMO_ADD) {
    return report(*wk.pl, SYMMEM_ERR_INVALID_ARGUMENT, call, "a staged put with signal takes a set or an add, not %d",
                  op);
  }
  if (wk.batches && wk.pl->batch_put != 0 && len + 2 * sizeof(uint64_t) <= wk.pl->batch_put) {  // with the puts
    const uint64_t head[2] = {sig_raddr, value};
    const batch_rec rec{raddr, rec_signal | (static_cast<uint64_t>(op) << 32) | len};
    const int rc = batch_add(wk, pe, rec, src, len, call, nullptr, false, head, sizeof head);
    if (rc != 1) return rc;
  }
  request_hdr h{raddr, len, 0, value, sig_raddr, static_cast<uint32_t>(kind::put_signal), static_cast<uint32_t>(op)};
  return send_request(wk, pe, h, src, len, "put with signal", call);
}

int do_staged_get(void *w, int pe, uint64_t raddr, void *dst, size_t len, void **req, const char *call) {
  worker &wk = *static_cast<worker *>(w);
  if (req == nullptr) return report(*wk.pl, SYMMEM_ERR_INVALID_ARGUMENT, call, "a staged get needs a request");
  auto *r = new staged_req();
  r->dst = dst;
  r->len = len;
  request_hdr h{raddr, len, reinterpret_cast<uint64_t>(tag(r)), 0, 0, static_cast<uint32_t>(kind::get), 0};
  const int rc = send_request(wk, pe, h, nullptr, 0, "get", call);
  if (rc != SYMMEM_SUCCESS) {
    delete r;
    return rc;
  }
  *req = tag(r);
  return 1;
}

int do_staged_amo(void *w, int pe, uint64_t raddr, int op, unsigned size, uint64_t value, uint64_t compare,
                  uint64_t *result, void **req, const char *call) {
  worker &wk = *static_cast<worker *>(w);
  if (op < SYMMEM_NET_AMO_ADD || op > SYMMEM_NET_AMO_XOR || (size != 4 && size != 8) ||
      (result == nullptr) != (req == nullptr)) {
    return report(*wk.pl, SYMMEM_ERR_INVALID_ARGUMENT, call, "a staged atomic %d of %u bytes is not one there is", op,
                  size);
  }
  if (result == nullptr && wk.pl->batch_put != 0 && wk.batches) {  // with the puts (ucx_staged.cpp, "Batches")
    const batch_rec rec{raddr, rec_atomic | (static_cast<uint64_t>(op) << 8) | size};
    const int rc = batch_add(wk, pe, rec, &value, sizeof value, call);
    if (rc != 1) return rc;
  }
  staged_req *r = result != nullptr ? new staged_req() : nullptr;
  if (r != nullptr) r->result = result;
  request_hdr h{raddr, size, r != nullptr ? reinterpret_cast<uint64_t>(tag(r)) : 0, value, compare,
                static_cast<uint32_t>(kind::amo), static_cast<uint32_t>(op)};
  const int rc = send_request(wk, pe, h, nullptr, 0, "atomic", call);
  if (rc != SYMMEM_SUCCESS || r == nullptr) {
    delete r;
    return rc;
  }
  *req = tag(r);
  return 1;
}

}  // namespace

ucs_status_t on_staged_request(void *arg, const void *header, size_t header_length, void *data, size_t length,
                               const ucp_am_recv_param_t *param) {
  plugin &p = *static_cast<plugin *>(arg);
  request_hdr h{};
  const bool ok = header_length == sizeof h && (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) == 0 &&
                  (param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) != 0;
  if (!ok) {  // nobody to answer: a peer of another build
    note(p, SYMMEM_BOOT_LOG_WARN, "dropped a malformed staged operation (%zu header bytes)", header_length);
    return UCS_OK;
  }
  std::memcpy(&h, header, sizeof h);
  // A get's bytes, or a batch's gets' (their sum in `value`).
  const kind k = static_cast<kind>(h.kind);
  const uint64_t want = k == kind::get ? h.len : k == kind::put_batch ? h.value : 0;
  const size_t out_len = want <= SYMMEM_NET_DATA_SIGNAL_MAX ? static_cast<size_t>(want) : 0;
  char *buf = owned_alloc(sizeof(answer_hdr) + out_len);
  if (buf == nullptr) return UCS_OK;  // the sender's wait names this PE
  answer_hdr a{h.token, 0, 0};
  a.status = out_len == want ? perform(p, h, data, length, buf + sizeof a, out_len, a.value)
                             : SYMMEM_ERR_INVALID_ARGUMENT;
  std::memcpy(buf, &a, sizeof a);
  (void)send_owned(p, nullptr, param->reply_ep, staged_answer_am_id, buf, sizeof a, a.status == 0 ? out_len : 0, false, -1,
                   "answer", "staged operation");
  return UCS_OK;
}

int set_answer_handler(worker &wk, const char *call) {
  ucp_am_handler_param_t hp{};
  hp.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_ARG;
  hp.id = staged_answer_am_id;
  hp.cb = on_answer;
  hp.arg = &wk;
  ucs_status_t st = ucp_worker_set_am_recv_handler(wk.w, &hp);
  return st == UCS_OK ? SYMMEM_SUCCESS
                      : report(*wk.pl, SYMMEM_ERR_SYSTEM, call, "UCX cannot take the answer handler: %s",
                               ucs_status_string(st));
}

int post_ping(worker &wk, int pe, void **req, const char *call) {
  auto *r = new staged_req();
  const request_hdr h{0, 0, reinterpret_cast<uint64_t>(tag(r)), 0, 0, static_cast<uint32_t>(kind::ping), 0};
  const int rc = send_request(wk, pe, h, nullptr, 0, "ping", call);
  if (rc != SYMMEM_SUCCESS) {
    delete r;
    return rc;
  }
  *req = tag(r);
  return SYMMEM_SUCCESS;
}

bool is_staged_req(const void *req) { return (reinterpret_cast<uintptr_t>(req) & 1) != 0; }

int test_staged(worker &wk, void *req, const char *call) {
  staged_req *r = untag(req);
  if (r->what == awaits::backlog) {
    if (wk.staged_unsent.load(std::memory_order_relaxed) > SYMMEM_NET_STAGED_BACKLOG / 2) return 0;
    delete r;
    return 1;
  }
  if (r->what == awaits::answer) {
    const int s = r->state.load(std::memory_order_acquire);
    if (s == 0) return 0;
    delete r;
    return s < 0 ? refused(*wk.pl, s, call) : 1;
  }
  if (r->ucx_req != nullptr) {
    worker_guard guard(wk);
    const ucs_status_t st = ucp_request_check_status(r->ucx_req);
    if (st == UCS_INPROGRESS) return 0;
    ucp_request_free(r->ucx_req);
    r->ucx_req = nullptr;
    if (st != UCS_OK) {
      delete r;
      return report(*wk.pl, SYMMEM_ERR_PEER_GONE, call, "a UCX flush failed: %s", ucs_status_string(st));
    }
  }
  if (wk.staged_pending.load(std::memory_order_acquire) != 0) return 0;
  delete r;
  const int e = wk.staged_error.exchange(0);
  return e != 0 ? refused(*wk.pl, e, call) : 1;
}

// Called by the flush with the worker's lock held.
int flush_staged(worker &wk, int pe, void **req, const char *call) {
  if (req == nullptr) return report(*wk.pl, SYMMEM_ERR_INVALID_ARGUMENT, call, "a flush of staged operations needs a request");
  auto *r = new staged_req();
  r->what = awaits::flush;
  ucp_request_param_t rp{};
  ucs_status_ptr_t f = nullptr;
  if (pe >= 0) {
    ucp_ep_h ep = endpoint(wk, pe, call);
    if (ep == nullptr) {
      delete r;
      return SYMMEM_ERR_PEER_GONE;
    }
    f = ucp_ep_flush_nbx(ep, &rp);
  } else if (wk.flushed != wk.posted) {
    f = ucp_worker_flush_nbx(wk.w, &rp);  // what the skipped-flush count covered is left for the next one
  }
  if (UCS_PTR_IS_ERR(f)) {
    delete r;
    return report(*wk.pl, SYMMEM_ERR_PEER_GONE, call, "UCX flush failed: %s", ucs_status_string(UCS_PTR_STATUS(f)));
  }
  r->ucx_req = f;
  *req = tag(r);
  return 1;
}

void send_batch(worker &wk, const char *call) {
  char *buf = wk.batch;
  const size_t len = wk.batch_len;
  const int pe = wk.batch_pe;
  wk.batch = nullptr;
  wk.batch_len = 0;
  wk.batch_last = no_last;
  wk.batch_pe = -1;
  plugin &p = *wk.pl;
  const bool stores = wk.batch_stores;
  wk.batch_stores = false;
  staged_req *r = nullptr;  // with gets, the answer needs to know where their bytes go
  if (!wk.batch_gets.empty()) {
    r = new staged_req();
    r->what = awaits::batch;
    r->pe = pe;
    r->stores = stores;
    r->gets.swap(wk.batch_gets);
  }
  const uint64_t get_bytes = wk.batch_get_bytes;
  wk.batch_get_bytes = 0;
  const request_hdr h{0, len, r != nullptr ? reinterpret_cast<uint64_t>(tag(r)) : counted_token(pe, stores), get_bytes,
                      0, static_cast<uint32_t>(kind::put_batch), 0};
  std::memcpy(buf, &h, sizeof h);
  int rc = SYMMEM_ERR_PEER_GONE;
  if (ucp_ep_h ep = usable_endpoint(wk, pe, call); ep == nullptr) {
    owned_free(buf);
  } else {
    rc = send_owned(p, &wk, ep, staged_request_am_id, buf, sizeof h, len, true, pe, "put", call);
  }
  if (rc != SYMMEM_SUCCESS) {  // the flush that waits for it reports the error
    int none = 0;
    wk.staged_error.compare_exchange_strong(none, rc);
    uncount(wk, pe, stores);
    delete r;
  }
}

void drop_batch(worker &wk) {
  if (wk.batch != nullptr) owned_free(wk.batch);
  wk.batch = nullptr;
  wk.batch_gets.clear();
  wk.batch_get_bytes = 0;
}

int do_staged_backlog(void *w, void **req, const char *call) {
  worker &wk = *static_cast<worker *>(w);
  if (wk.staged_unsent.load(std::memory_order_relaxed) <= SYMMEM_NET_STAGED_BACKLOG) return SYMMEM_SUCCESS;
  if (req == nullptr) return report(*wk.pl, SYMMEM_ERR_INVALID_ARGUMENT, call, "a staged backlog needs a request");
  auto *r = new staged_req();
  r->what = awaits::backlog;
  *req = tag(r);
  return 1;
}

int do_staged_pending(void *w, int pe) {
  worker &wk = *static_cast<worker *>(w);
  if (pe < 0) return wk.staged_pending.load(std::memory_order_acquire) != 0 ? 1 : 0;
  if (pe >= wk.pl->host.n_pes) return 0;
  return wk.staged_to[static_cast<size_t>(pe)].load(std::memory_order_acquire) != 0 ? 1 : 0;
}

int do_staged_stores_pending(void *w, int pe) {
  worker &wk = *static_cast<worker *>(w);
  if (pe < 0 || pe >= wk.pl->host.n_pes) return do_staged_pending(w, pe);
  return wk.staged_stores_to[static_cast<size_t>(pe)].load(std::memory_order_acquire) != 0 ? 1 : 0;
}

void fill_staged_ops(symmem_net_ops &ops) {
  ops.staged_pending = do_staged_pending;
  ops.staged_stores_pending = do_staged_stores_pending;
  ops.staged_get_nbi = do_staged_get_nbi;
  ops.staged_put = do_staged_put;
  ops.staged_get = do_staged_get;
  ops.staged_amo = do_staged_amo;
  ops.staged_put_signal = do_staged_put_signal;
  ops.staged_backlog = do_staged_backlog;
}

}  // namespace symmem::ucx
