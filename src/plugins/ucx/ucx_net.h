// The UCX transport plugin: shared state of its two halves (setup in ucx_plugin.cpp, data path in
// ucx_ops.cpp). Learned from OSHMEM's spml_ucx and NVSHMEM's UCX transport; written against
// UCX's ucp API (RMA, AMO32/64), over whatever transports UCX finds (TCP included).
#pragma once

#include <ucp/api/ucp.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "net/net_plugin.h"

#define SYMMEM_UCX_LIKELY(x) __builtin_expect(!!(x), 1)
#define SYMMEM_UCX_UNLIKELY(x) __builtin_expect(!!(x), 0)

namespace symmem::ucx {

struct plugin;

// A PE's packed key of one region. Entries are never erased (a forgotten key becomes empty, with
// a new version), so workers may keep pointers to them.
struct key_entry {
  std::atomic<uint32_t> version{0};
  std::string bytes;  // guarded by plugin::keys_mutex
};

struct cached_rkey {
  ucp_rkey_h rkey = nullptr;
  const key_entry *src = nullptr;
  uint32_t version = 0;
};

struct worker;
struct ep_error {
  worker *wk;
  int pe;
};

// A worker used by several threads (the default one: the PE's threads and the progress thread; a
// shared context's: the PE's threads) is entered by one thread at a time, under `lock`: every UCX
// call on it and its key cache. UCX's own multi-thread mode is not used: with two threads
// progressing one worker at once, UCX 1.13 over TCP lost operations (a barrier's atomics never
// completed). UCX is told SERIALIZED, which is what the lock makes true.
struct worker {
  plugin *pl = nullptr;
  ucp_worker_h w = nullptr;
  bool shared = false;
  bool locked = false;
  bool is_default = false;  // the PE's default worker, which the progress thread serves
  // Small staged puts and atomics wait in a batch (ucx_staged.cpp): the default worker, and one
  // whose thread progresses it when idle (SYMMEM_NET_WORKER_PROGRESSED: the GPU heap's proxy).
  bool batches = false;
  std::mutex lock;
  std::vector<ucp_ep_h> eps;  // per PE; nullptr unless remote
  std::unordered_map<uint64_t, cached_rkey> cache;
  uint64_t scratch[2] = {0, 0};  // reply buffer of swaps whose old value nobody wants
  // Flushes that follow nothing to complete are skipped (net_plugin.h, flush): operations posted
  // that a flush must complete (puts, nbi gets, non-fetching atomics, outside region 0), and how
  // many of them the last completed worker flush covered. Under the worker's lock.
  uint64_t posted = 0, flushed = 0;
  void *flush_req = nullptr;  // the worker flush in flight, and what it covers when it completes
  uint64_t flush_upto = 0;
  std::vector<std::unique_ptr<ep_error>> error_args;  // the endpoints' error-callback arguments
  // Staged operations (ucx_staged.cpp) whose answer has not come back and that a flush completes
  // (puts, non-fetching atomics); the first error one answered with.
  std::atomic<uint64_t> staged_pending{0};
  std::atomic<int> staged_error{0};
  std::unique_ptr<std::atomic<uint32_t>[]> staged_to;  // the same, per target PE
  // Of those, the ones that store data (puts, puts with signal, batches holding a put), per target
  // PE: a get or a fetching atomic waits for these first (staged_stores_pending), not for atomics.
  std::unique_ptr<std::atomic<uint32_t>[]> staged_stores_to;
  // Bytes of this worker's staged requests that UCX has not sent yet (their buffers are still
  // held; ucx_staged.cpp, staged_backlog).
  std::atomic<uint64_t> staged_unsent{0};
  // Small staged puts to one PE not sent yet, which travel together as one message (ucx_staged.cpp,
  // "Batches"): the buffer (a request header, then the puts' records), the bytes of records in it
  // and their PE. Under the worker's lock; counted in staged_pending and staged_to from its first put.
  char *batch = nullptr;
  size_t batch_len = 0;
  int batch_pe = -1;
  bool batch_stores = false;  // a put is in the batch (counted in staged_stores_to)
  size_t batch_last = SIZE_MAX;  // where the batch's last record starts when it is a put, else SIZE_MAX
  // Non-blocking gets in the batch: where each one's bytes go, in order (their sum at most
  // plugin::batch_bytes); the owner answers with their bytes one after the other.
  std::vector<std::pair<void *, size_t>> batch_gets;
  size_t batch_get_bytes = 0;
  int efd = -2;  // the worker's event descriptor (ucx_progress.cpp, event_fd); -2: not asked yet, -1: none
};

struct plugin {
  symmem_net_host host{};
  ucp_context_h ctx = nullptr;
  std::string description;
  bool gpu_memory = false;  // UCX reaches CUDA memory (built with CUDA, cuda_copy in UCX_TLS)
  std::vector<std::string> addresses;  // every PE's default worker address
  std::vector<char> remote;            // PEs reached through this transport
  std::unique_ptr<std::atomic<int>[]> failed;  // per PE: the UCX status that broke its endpoint, or 0
  std::mutex keys_mutex;
  std::unordered_map<uint64_t, std::unique_ptr<key_entry>> keys;
  // Memory this PE registered (address -> length): where incoming signals may store.
  std::mutex regs_mutex;
  std::map<uintptr_t, size_t> regs;
  std::unordered_map<void *, uintptr_t> reg_of_handle;
  std::atomic<bool> warned_bad_signal{false};
  std::mutex workers_mutex;
  std::vector<worker *> workers;  // the default one first
  std::atomic<bool> closing{false};
  // The progress thread (ucx_progress.cpp): serves incoming operations while this PE's own
  // thread is away from the library.
  std::thread progress_thread;
  std::atomic<bool> stop_progress{false};
  std::atomic<uint64_t> main_progress{0};  // bumped by the library's every use of the default worker
  // Set under the default worker's lock while the progress thread sleeps on the event descriptor:
  // a batch begun meanwhile wakes it (ucx_staged.cpp, "Batches").
  std::atomic<bool> progress_asleep{false};
  // What the progress thread did (written by it alone; reported at SYMMEM_DEBUG=info when it stops).
  struct progress_counts {
    uint64_t naps = 0, nap_us = 0, longest_nap_us = 0;  // naps taken while the library used the worker
    uint64_t sleeps = 0, woken = 0;                     // sleeps on the worker's messages; ended by one
    uint64_t served = 0, served_ns = 0;                 // progress calls that found work; their time
  } progress_stats;
  // Staged puts of at most batch_put bytes are batched, up to batch_bytes of records per message
  // (SYMMEM_NET_PUT_BATCH; 0: every staged put is its own message).
  size_t batch_put = 0, batch_bytes = 0;
};

// The library used worker wk: when it is the default one, the progress thread stays a backstop
// (ucx_progress.cpp). Another worker's use (a private context's, the GPU proxy's) does not count:
// it serves none of the requests that arrive on the default one.
inline void count_progress(worker &wk) {
  if (wk.is_default) wk.pl->main_progress.fetch_add(1, std::memory_order_relaxed);
}

inline uint64_t key_of(int pe, uint32_t region) { return (static_cast<uint64_t>(pe) << 32) | region; }

// Holds a worker's lock when it has one (worker::locked).
class worker_guard {
 public:
  explicit worker_guard(worker &wk) : wk_(wk) {
    if (wk_.locked) wk_.lock.lock();
  }
  ~worker_guard() {
    if (wk_.locked) wk_.lock.unlock();
  }
  worker_guard(const worker_guard &) = delete;
  worker_guard &operator=(const worker_guard &) = delete;

 private:
  worker &wk_;
};

// Reports through the library (prefix, last error) and returns the code.
int report(const plugin &p, int code, const char *call, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void note(const plugin &p, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

// Endpoints from `wk` to every remote PE (to their default workers).
int make_endpoints(worker &wk, const char *call);
// Completes the wire-up of every endpoint of `wk` (ucx_plugin.cpp).
int wire_up(worker &wk, const char *call);
// Posts a staged no-op to `pe` from `wk` (wire_up's); *req is then awaited with test_staged.
int post_ping(worker &wk, int pe, void **req, const char *call);
// The unpacked key of (pe, region) for this worker, or nullptr after reporting why.
ucp_rkey_h rkey_for(worker &wk, int pe, uint32_t region, const char *call);
void drop_cache(worker &wk);
// Starts and stops the progress thread of the default worker.
int start_progress_thread(plugin &p, const char *call);
void stop_progress_thread(plugin &p);
// symmem_net_ops::idle: sleeps on the worker's event descriptor.
int idle(void *worker, unsigned usec);
// Fills the data-path entries of `ops`.
void fill_data_ops(symmem_net_ops &ops);
// The active message that carries signals (net_plugin.h, signal), and its handler, set on the
// default worker (where every endpoint of the peers arrives).
inline constexpr unsigned signal_am_id = 7;
inline constexpr unsigned signal_add_am_id = 8;
inline constexpr unsigned signal_put_am_id = 9;
int set_signal_handler(worker &wk, const char *call);

// The endpoint to `pe`, or nullptr after reporting why (not remote, or its connection broke).
// Sends the worker's batch of staged puts first, so that it goes before any later operation.
ucp_ep_h endpoint(worker &wk, int pe, const char *call);
// The same without sending the batch.
ucp_ep_h reach(worker &wk, int pe, const char *call);
// The same without counting a call of the PE's thread (the progress thread sends batches too).
ucp_ep_h usable_endpoint(worker &wk, int pe, const char *call);
// What a posted UCX operation returned: 0 done, 1 with *req in flight (req NULL: released, the
// flush completes it), or the reported error.
int posted(worker &wk, ucs_status_ptr_t r, void **req, int pe, const char *what, const char *call);

// Staged operations (net_plugin.h; ucx_staged.cpp): the requests' messages, handled on the default
// worker, and their answers, handled on the worker that sent the request (every worker).
inline constexpr unsigned staged_request_am_id = 10;
inline constexpr unsigned staged_answer_am_id = 11;
ucs_status_t on_staged_request(void *arg, const void *header, size_t header_length, void *data, size_t length,
                               const ucp_am_recv_param_t *param);
int set_answer_handler(worker &wk, const char *call);
bool is_staged_req(const void *req);
int test_staged(worker &wk, void *req, const char *call);
// A flush while staged operations are outstanding: a request that completes once they are all
// answered and UCX's own flush (when one is needed) completed.
int flush_staged(worker &wk, int pe, void **req, const char *call);
// Sends the worker's batch of staged puts, when it holds one (under the worker's lock).
void send_batch(worker &wk, const char *call);
inline void send_batch_if_any(worker &wk, const char *call) {
  if (SYMMEM_UCX_UNLIKELY(wk.batch != nullptr)) send_batch(wk, call);
}
// Frees a batch never sent (a worker destroyed without a flush).
void drop_batch(worker &wk);
void fill_staged_ops(symmem_net_ops &ops);

}  // namespace symmem::ucx
