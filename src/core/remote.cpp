// symmem: the runtime's side of the network transport (remote.h).
//
// Registration per heap granule, and why: the heap is a sparse reservation (1 GiB by default,
// committed as it is touched). Registering all of it at init would, on an RDMA NIC, pin every page
// of it; registering what a collective allocation first uses, a 2 MiB granule at a time, costs a
// registration per granule (one ucp_mem_map, microseconds; nothing over TCP) and keeps malloc and
// free cheap. A granule stays registered while the allocator keeps it committed (retained granules
// included) and is deregistered when the allocator hands it back.
//
// Keys of granules travel lazily: the owner writes a granule's packed key into its directory
// (region 1, registered at init) during the allocation; a remote PE fetches the entry with one
// get the first time it touches that granule of that PE. Every PE sees the same commits and
// releases in the same order (the allocator is deterministic), so a PE knows which commit of the
// granule its peer must have published: the entry carries that commit number and a checksum
// (a get can race the owner's update), and the fetcher waits for the matching one.
#include "core/remote.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <cstring>
#include <memory>
#include <mutex>

#include "core/state.h"
#include "core/store_runs.h"
#include "core/wait.h"
#include "ctx/ctx.h"
#include "net/net.h"

namespace symmem::core {
namespace {

constexpr uint32_t region_ctrl = SYMMEM_NET_REGION_SIGNALS;  // no flush covers its signals (net_plugin.h)
constexpr uint32_t region_dir = 1;
constexpr uint32_t region_data = 2;
constexpr uint32_t region_heap = 3;  // + granule index
// A staged operation carries at most message_piece bytes (OSU's osu_oshm_put with
// SYMMEM_NET_HEAP=staged, 2 hosts x 1 PE, 3 rounds alternating: 256 KiB 127-148 us against
// 220-285 with 256 KiB pieces; 512 KiB and 1 MiB within the rounds' spread).
static_assert(message_piece <= SYMMEM_NET_DATA_SIGNAL_MAX);

struct dir_entry {
  uint32_t commit;  // which commit of the granule this key belongs to (1, 2, ...)
  uint32_t len;
  uint64_t check;   // checksum of commit, len and key: a torn read does not match
  unsigned char key[SYMMEM_NET_KEY_MAX];
};

// What every PE tells the others at init.
struct published {
  uint64_t ctrl_base;
  uint64_t dir_base;
  net::packed_key ctrl_key;
  net::packed_key dir_key;
  net::packed_key data_key;  // len 0: no symmetric static data
  uint32_t staged;           // 1: its heap is reached by staged operations (see "Staged heaps" below)
  uint32_t direct;           // 1: and it is GPU memory registered with the transport (r.direct)
};

struct remote_state {
  std::unique_ptr<net::transport> net;
  void *worker = nullptr;
  std::vector<char> remote;     // per PE
  std::vector<uint64_t> ctrl_base, dir_base;
  void *ctrl_handle = nullptr, *dir_handle = nullptr, *data_handle = nullptr;
  dir_entry *dir = nullptr;     // this PE's directory
  size_t granules = 0, dir_bytes = 0;
  std::vector<void *> granule_handle;                   // this PE's registrations
  std::unique_ptr<std::atomic<uint32_t>[]> commits;     // per granule: commits so far (same on every PE)
  std::unique_ptr<std::atomic<std::atomic<uint32_t> *>[]> known;  // per PE, per granule: commit whose key is set
  std::vector<std::unique_ptr<std::atomic<uint32_t>[]>> known_store;
  std::mutex key_mutex;                                  // fetching keys, creating `known` tables
  // Contexts' workers, for the waits' progress and for finalize. A thread may progress one when
  // it is locked (shared, THREAD_MULTIPLE) or when the thread made it (a private context's
  // worker is that thread's alone). The mutex also keeps a worker alive while it is progressed.
  struct ctx_worker {
    void *w;
    bool shared;  // made for a shared context
    bool progressed;  // for a private one that its thread progresses when idle (ctx::progressed_option)
    std::thread::id owner;
    bool locked() const { return shared && g.thread_level == SYMMEM_THREAD_MULTIPLE; }
  };
  std::mutex workers_mutex;
  std::vector<ctx_worker> ctx_workers;
  std::atomic<size_t> n_ctx_workers{0};
  // Workers of destroyed contexts, quiet, kept for the next contexts of their kind (shared or
  // not); at most idle_workers_kept of them.
  std::vector<ctx_worker> idle_workers;
  std::atomic<uint32_t> generation{0};                   // bumped by every remote_init that opens
  // Staged heaps: per PE, whether its heap is reached by staged operations; whether this PE's is;
  // per granule of this PE's heap, whether an allocation uses it (what staged requests may touch).
  std::vector<char> staged;
  bool any_staged = false, my_staged = false;
  // GPU heaps the transport reaches itself (a UCX with CUDA support, SYMMEM_NET_HEAP=direct; a
  // host heap takes the same form with it): per PE, whether its staged heap is also registered, so
  // that puts and gets larger than put_staged go to it as the transport's RMA instead of staged
  // messages (atomics and small operations stay staged); whether this PE's is; whether this PE's
  // transport takes GPU buffers.
  std::vector<char> direct;
  bool my_direct = false, local_gpu = false;
  std::unique_ptr<std::atomic<uint8_t>[]> live;
  // Small puts to host memory of other hosts (SYMMEM_NET_PUT_STAGED): at most this many bytes go as
  // staged puts, answered by their owner, so that a quiet costs one round trip (0: none).
  size_t put_staged = 0;
  // A batch's stores into this PE's heap are held and sent as runs (SYMMEM_NET_HOLD_STORES).
  bool hold_stores = false;
};

remote_state r;

// The worker that carries context c's operations.
void *worker_of(symmem_ctx_s *c, const char *call) {
  if (c == nullptr) return r.worker;
  void *w = ctx::net_worker(c, call);
  return w != nullptr ? w : r.worker;
}

uint64_t entry_check(uint32_t commit, uint32_t len, const unsigned char *key) {
  uint64_t h = 1469598103934665603ULL ^ commit;
  h = (h ^ len) * 1099511628211ULL;
  for (uint32_t i = 0; i < len && i < SYMMEM_NET_KEY_MAX; ++i) h = (h ^ key[i]) * 1099511628211ULL;
  return h | 1;  // never 0, the value of an entry never written
}

// A broken connection is most often a symptom: the peer died. The launcher knows which PE did and
// stops the job saying so; give it a moment (this PE then ends with that message), else end here.
[[noreturn]] void net_failed(int pe, const char *call) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (boot::current() != nullptr && std::chrono::steady_clock::now() < until) {
    if (!boot::current()->poll_peers(call).ok()) {
      std::fflush(nullptr);
      ::_exit(1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (pe < 0) fatal(call, "a network operation failed (the reason is above); ending the job");
  fatal(call, "the network operation on PE %d failed (the reason is above); ending the job", pe);
}

inline void must(status st, int pe, const char *call) {
  if (SYMMEM_UNLIKELY(!st.ok())) net_failed(pe, call);
}

std::atomic<uint32_t> *known_table(int pe) {
  std::atomic<uint32_t> *t = r.known[static_cast<size_t>(pe)].load(std::memory_order_acquire);
  if (SYMMEM_LIKELY(t != nullptr)) return t;
  std::lock_guard<std::mutex> lock(r.key_mutex);
  t = r.known[static_cast<size_t>(pe)].load(std::memory_order_relaxed);
  if (t == nullptr) {
    r.known_store.push_back(std::make_unique<std::atomic<uint32_t>[]>(r.granules));
    t = r.known_store.back().get();
    r.known[static_cast<size_t>(pe)].store(t, std::memory_order_release);
  }
  return t;
}

[[noreturn]] void not_allocated(const void *addr, const char *call) {
  fatal(call, "address %p is in no allocation of the symmetric heap (freed, or never allocated); pass memory "
              "from symmem_malloc", addr);
}

// Makes sure the transport holds PE pe's key of heap granule gi for the commit this PE is at.
void ensure_granule_key(int pe, size_t gi, const void *addr, const char *call) {
  const uint32_t want = r.commits[gi].load(std::memory_order_acquire);
  if (SYMMEM_UNLIKELY(want == 0)) not_allocated(addr, call);
  std::atomic<uint32_t> &known = known_table(pe)[gi];
  if (SYMMEM_LIKELY(known.load(std::memory_order_acquire) == want)) return;
  std::lock_guard<std::mutex> lock(r.key_mutex);
  if (known.load(std::memory_order_relaxed) == want) return;
  dir_entry e{};
  const uint64_t at = r.dir_base[static_cast<size_t>(pe)] + gi * sizeof(dir_entry);
  spin_wait w(call, [pe, gi] { return strfmt("PE %d to publish the key of heap granule %zu (is it in the same "
                                             "collective allocation?)", pe, gi); });
  for (;;) {
    must(r.net->get(r.worker, pe, region_dir, at, &e, sizeof e, false, call), pe, call);
    if (e.commit == want && e.len <= SYMMEM_NET_KEY_MAX && e.check == entry_check(e.commit, e.len, e.key)) break;
    w.pause();
  }
  // A staged heap's entry has no key (len 0): it only says the owner has committed the granule, so
  // its host accepts staged requests into it (malloc returns on each PE without waiting for the others).
  if (e.len != 0) must(r.net->set_key(pe, region_heap + static_cast<uint32_t>(gi), e.key, e.len, call), pe, call);
  known.store(want, std::memory_order_release);
}

// Where `len` bytes at symmetric address `addr` are for remote PE pe: region and remote address,
// and how many of the bytes lie in that region (a transfer is split at granule boundaries).
struct target {
  uint32_t region;
  uint64_t raddr;
  size_t n;
};

constexpr uint32_t region_staged = UINT32_MAX;  // PE pe's heap, by staged operations (no key)

// rma false: for an atomic (on a GPU heap, always staged: the transport offers no atomics on GPU
// memory).
target resolve(const void *addr, size_t len, int pe, const char *call, bool rma = true) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  const uintptr_t off = a - g.heap_base;
  if (SYMMEM_LIKELY(off < g.heap_size && len <= g.heap_size - off)) {
    const size_t gi = off / granule_bytes;
    ensure_granule_key(pe, gi, addr, call);  // the owner has committed it (a staged heap's entry: no key)
    if (r.staged[static_cast<size_t>(pe)] && (!rma || len <= r.put_staged || !r.direct[static_cast<size_t>(pe)])) {
      return target{region_staged, a, len < message_piece ? len : message_piece};
    }
    const size_t room = (gi + 1) * granule_bytes - off;
    return target{region_heap + static_cast<uint32_t>(gi), a, len < room ? len : room};  // one address on every PE
  }
  const uintptr_t doff = a - g.data_lo;  // a global or static variable: by offset, as node-local
  if (doff < g.data_len && len <= g.data_len - doff) {
    return target{region_data, g.data_remote_lo[static_cast<size_t>(pe)] + doff, len};
  }
  bad_target(addr, len, pe, call);
}

void *map_directory(size_t bytes) {
  void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

status exchange_keys(const char *call) {
  published mine{};
  mine.ctrl_base = reinterpret_cast<uint64_t>(g.ctrl_table[static_cast<size_t>(g.my_pe)]);
  mine.dir_base = reinterpret_cast<uint64_t>(r.dir);
  mine.staged = r.my_staged ? 1 : 0;
  mine.direct = r.my_direct ? 1 : 0;
  SYMMEM_TRY(r.net->register_memory(g.ctrl_table[static_cast<size_t>(g.my_pe)], ctrl_bytes, r.ctrl_handle,
                                    mine.ctrl_key, call));
  SYMMEM_TRY(r.net->register_memory(r.dir, r.dir_bytes, r.dir_handle, mine.dir_key, call));
  if (g.data_len != 0) {
    SYMMEM_TRY(r.net->register_memory(reinterpret_cast<void *>(g.data_lo), g.data_len, r.data_handle, mine.data_key,
                                      call));
  }
  std::vector<published> all(static_cast<size_t>(g.n_pes));
  SYMMEM_TRY(g.boot->allgather(&mine, all.data(), sizeof mine, call));
  r.ctrl_base.resize(all.size());
  r.dir_base.resize(all.size());
  for (int p = 0; p < g.n_pes; ++p) {
    const published &pp = all[static_cast<size_t>(p)];
    r.ctrl_base[static_cast<size_t>(p)] = pp.ctrl_base;
    r.dir_base[static_cast<size_t>(p)] = pp.dir_base;
    if (!r.remote[static_cast<size_t>(p)]) continue;
    r.staged[static_cast<size_t>(p)] = pp.staged != 0 ? 1 : 0;
    r.direct[static_cast<size_t>(p)] = pp.staged != 0 && pp.direct != 0 ? 1 : 0;
    r.any_staged = r.any_staged || pp.staged != 0;
    SYMMEM_TRY(r.net->set_key(p, region_ctrl, pp.ctrl_key.bytes, pp.ctrl_key.len, call));
    SYMMEM_TRY(r.net->set_key(p, region_dir, pp.dir_key.bytes, pp.dir_key.len, call));
    if (g.data_len != 0 && pp.data_key.len != 0) {
      SYMMEM_TRY(r.net->set_key(p, region_data, pp.data_key.bytes, pp.data_key.len, call));
    }
  }
  return ok_status;
}

// Staged requests of PEs on other hosts (the plugin's handlers call these): only inside granules
// of this PE's heap that an allocation uses (any heap: small puts to a host heap are staged too),
// so a stray address is refused, never touched.
bool staged_range(uint64_t addr, size_t len) {
  const uint64_t off = addr - g.heap_base;
  if (!r.live || off >= g.heap_size || len > g.heap_size - off) return false;
  for (size_t gi = off / granule_bytes; gi * granule_bytes < off + len; ++gi)
    if (r.live[gi].load(std::memory_order_acquire) == 0) return false;
  return true;
}

// Inside this PE's symmetric static data (host memory: small staged puts land there too).
bool staged_data(uint64_t addr, size_t len) {
  const uint64_t off = addr - g.data_lo;
  return g.data_len != 0 && off < g.data_len && len <= g.data_len - off;
}

void copy_kind(void *to, const void *from, size_t n) {
  g.heap->copy(to, from, n);
  std::atomic_thread_fence(std::memory_order_release);  // before the answer that completes it
}

// Inside a batch (stage_batch): the stores into the heap are queued and completed once, at its
// end. A batch of a kernel's `p` rows holds hundreds of runs, and a GPU heap's copy with its own
// stream synchronisation each was the owner's whole cost. Loads and atomics in the batch
// synchronise the same stream, so they also come after the stores queued before them.
thread_local bool in_batch = false;
thread_local bool batch_queued = false;

// A GPU heap's stores in a batch are held, not copied one by one: a kernel's warps post their
// pieces of a row in the order they run, not in address order, so the sender's batch joins few of
// them, and each record was a driver copy from the message (pageable memory: the driver stages it
// and returns once it is read). NVIDIA's Jacobi across two hosts sent 1024 records of 128 bytes
// per iteration each way. Held stores go out at the batch's next load, atomic or signal, or at its
// end, as core/store_runs.h plans them: joined into runs in address order, gathered into a pinned
// buffer, one copy a run; stores that overlap go out as they came. Only the default worker's
// handlers run batches, one at a time under its lock, so one buffer serves them.
std::vector<held_store> held;
std::vector<uint32_t> held_order;
char *held_pinned = nullptr;  // held_pinned_cap bytes of g.heap->host_buffer
constexpr size_t held_pinned_cap = size_t{1} << 20;
bool held_pinned_busy = false;  // copies from it may still run

void send_held_stores() {
  if (held.empty()) return;
  if (held_pinned_busy) {  // an earlier part of this batch still copies from the buffer
    g.heap->copy_wait();
    held_pinned_busy = false;
  }
  if (held_pinned != nullptr && sort_disjoint(held, held_order, held_pinned_cap)) {
    gather_runs(
        held, held_order, held_pinned, held_pinned_cap,
        [](uint64_t addr, const char *from, size_t len) { g.heap->copy_async(reinterpret_cast<void *>(addr), from, len); },
        [] { g.heap->copy_wait(); });
    held_pinned_busy = true;
  } else {  // as they came: each from the message
    for (const held_store &h : held) g.heap->copy_async(reinterpret_cast<void *>(h.addr), h.src, h.len);
  }
  held.clear();
  batch_queued = true;
}

void stage_batch(void *, int done) {
  if (done == 0) {
    in_batch = true;
    return;
  }
  send_held_stores();
  in_batch = false;
  if (batch_queued) {
    batch_queued = false;
    held_pinned_busy = false;
    g.heap->copy_wait();
    std::atomic_thread_fence(std::memory_order_release);  // before the answer that completes them
  }
}

int stage_store(void *, uint64_t addr, const void *src, size_t len) {
  if (current_log_level() >= log_level::trace) log(log_level::trace, "staged store of %zu bytes at %#llx", len, static_cast<unsigned long long>(addr));
  if (staged_data(addr, len)) {
    if (len != 0) std::memcpy(reinterpret_cast<void *>(addr), src, len);
    std::atomic_thread_fence(std::memory_order_release);  // before the answer that completes it
    return SYMMEM_SUCCESS;
  }
  if (!staged_range(addr, len)) return SYMMEM_ERR_NOT_ACCESSIBLE;
  if (len == 0) return SYMMEM_SUCCESS;
  if (in_batch && r.hold_stores) {
    if (held_pinned == nullptr && held.empty()) {
      held_pinned = static_cast<char *>(g.heap->host_buffer(held_pinned_cap));  // nullptr: copied as they came
    }
    held.push_back(held_store{addr, src, len});
  } else if (in_batch) {
    g.heap->copy_async(reinterpret_cast<void *>(addr), src, len);
    batch_queued = true;
  } else {
    copy_kind(reinterpret_cast<void *>(addr), src, len);
  }
  return SYMMEM_SUCCESS;
}

int stage_load(void *, void *dst, uint64_t addr, size_t len) {
  if (current_log_level() >= log_level::trace) log(log_level::trace, "staged load of %zu bytes at %#llx", len, static_cast<unsigned long long>(addr));
  if (staged_data(addr, len)) {  // static data (small non-blocking gets of it are staged too)
    if (len != 0) std::memcpy(dst, reinterpret_cast<const void *>(addr), len);
    return SYMMEM_SUCCESS;
  }
  if (!staged_range(addr, len)) return SYMMEM_ERR_NOT_ACCESSIBLE;
  send_held_stores();  // a load in a batch sees the batch's earlier stores
  if (len != 0) copy_kind(dst, reinterpret_cast<const void *>(addr), len);
  return SYMMEM_SUCCESS;
}

// The memory kind's atomics (a GPU heap's: system-scope device atomics, so atomic with respect to
// kernels' and node-local PEs' atomics on the object; a host heap's: the CPU's).
int stage_amo(void *, uint64_t addr, int op, unsigned size, uint64_t value, uint64_t compare, uint64_t *old) {
  if ((size != 4 && size != 8) || addr % size != 0 || op < SYMMEM_NET_AMO_ADD || op > SYMMEM_NET_AMO_XOR) {
    return SYMMEM_ERR_NOT_ACCESSIBLE;
  }
  if (current_log_level() >= log_level::trace) log(log_level::trace, "staged atomic %d of %u bytes at %#llx", op, size, static_cast<unsigned long long>(addr));
  const bool in_data = staged_data(addr, size);  // static data: the CPU's atomics, as the node-local PEs' and UCX's
  if (!in_data && !staged_range(addr, size)) return SYMMEM_ERR_NOT_ACCESSIBLE;
  send_held_stores();  // an atomic in a batch comes after the batch's earlier stores
  *old = heap_amo(reinterpret_cast<void *>(addr), op, size, value, compare, in_data);
  return SYMMEM_SUCCESS;
}

// A put-with-signal's signal, after its data (staged_put_signal). Host memory: a CPU atomic with
// release order, so the reader that sees it sees the data. A GPU heap: a set is an aligned 8-byte
// copy-engine write behind the data's copy (no SM needed, as for remote_amo's sets), an add the
// kind's system-scope atomic.
int stage_signal(void *, uint64_t addr, int op, uint64_t value) {
  if (addr % sizeof(uint64_t) != 0 || (op != SYMMEM_NET_AMO_SWAP && op != SYMMEM_NET_AMO_ADD)) {
    return SYMMEM_ERR_NOT_ACCESSIBLE;
  }
  auto *word = reinterpret_cast<uint64_t *>(addr);
  const bool in_data = staged_data(addr, sizeof(uint64_t));
  if (!in_data && !staged_range(addr, sizeof(uint64_t))) return SYMMEM_ERR_NOT_ACCESSIBLE;
  send_held_stores();  // the signal comes after its data, and after the batch's earlier stores
  if (in_data || g.heap_on_cpu) {
    std::atomic_ref<uint64_t> w(*word);
    if (op == SYMMEM_NET_AMO_SWAP) {
      w.store(value, std::memory_order_release);
    } else {
      w.fetch_add(value, std::memory_order_acq_rel);
    }
  } else if (op == SYMMEM_NET_AMO_SWAP) {
    copy_kind(word, &value, sizeof value);
  } else {
    (void)heap_amo(word, op, sizeof(uint64_t), value, 0);
  }
  return SYMMEM_SUCCESS;
}

void log_routes() {
  if (current_log_level() < log_level::info) return;
  for (int p = 0; p < g.n_pes; ++p) {
    if (p == g.my_pe) continue;
    if (r.remote[static_cast<size_t>(p)]) {
      const char *heap = !r.staged[static_cast<size_t>(p)] ? ""
                         : r.direct[static_cast<size_t>(p)]
                             ? " (its heap: registered memory for transfers above SYMMEM_NET_PUT_STAGED, "
                               "staged operations below and for atomics)"
                             : " (its heap: staged operations)";
      log(log_level::info, "PE %d -> PE %d via %s %s%s", g.my_pe, p, r.net->label(), r.net->route(p).c_str(), heap);
    } else {
      log(log_level::info, "PE %d -> PE %d via p2p (%s memory mapped)", g.my_pe, p, g.heap->kind());
    }
  }
}

}  // namespace

uint64_t heap_amo(void *at, int op, unsigned size, uint64_t value, uint64_t compare, bool host) {
  static constexpr int kind_op[] = {mem::amo_add, mem::amo_swap, mem::amo_cas, mem::amo_and, mem::amo_or, mem::amo_xor};
  if (op < SYMMEM_NET_AMO_ADD || op > SYMMEM_NET_AMO_XOR) fatal("atomic", "unknown network atomic %d", op);
  const bool cas = op == SYMMEM_NET_AMO_CSWAP;  // the kind's cas takes (expected, desired)
  const uint64_t a = cas ? compare : value, b = cas ? value : 0;
  return host ? mem::host_amo(kind_op[op], at, size, a, b) : g.heap->amo(kind_op[op], at, size, false, a, b);
}

bool is_remote(int pe) {
  return g.remote && static_cast<unsigned>(pe) < r.remote.size() && r.remote[static_cast<size_t>(pe)];
}

// One 8-byte get from the key directory of every remote PE, completed before init returns. UCX
// sets up a kind of operation on an endpoint, and its first remote key, at their first use, so a
// PE's first remote operation took 0.7-0.9 ms between 2 hosts over veth (bench/first_op.sh;
// OSHMEM's 0.11-0.19). The get is the one every first access of a heap granule makes anyway (its
// key), so it sets up that path; the peers' progress threads answer while they are still in init.
status warm_up(const std::vector<int> &remote, const char *call) {
  std::vector<uint64_t> sink(remote.size());
  for (size_t i = 0; i < remote.size(); ++i) {
    const int pe = remote[i];
    SYMMEM_TRY(r.net->get(r.worker, pe, region_dir, r.dir_base[static_cast<size_t>(pe)], &sink[i], sizeof sink[i],
                          true, call));
  }
  return r.net->quiet(r.worker, -1, call);
}

status remote_init(const std::vector<uint64_t> &host, const char *call) {
  std::vector<int> remote;
  bool spans = false;
  for (int p = 0; p < g.n_pes; ++p) {
    spans = spans || host[static_cast<size_t>(p)] != host[0];
    if (host[static_cast<size_t>(p)] != host[static_cast<size_t>(g.my_pe)]) remote.push_back(p);
  }
  if (!spans) return ok_status;  // every PE on one host: no transport, nothing on any path changes
  r.my_staged = !g.heap_on_cpu || g.cfg.net_heap != "auto";
  r.hold_stores = g.cfg.net_hold_stores == "on" || (g.cfg.net_hold_stores == "auto" && !g.heap_on_cpu);
  r.put_staged = std::min(g.cfg.net_put_staged, size_t{SYMMEM_NET_DATA_SIGNAL_MAX});
  r.staged.assign(static_cast<size_t>(g.n_pes), 0);
  r.direct.assign(static_cast<size_t>(g.n_pes), 0);
  r.any_staged = false;
  r.remote.assign(static_cast<size_t>(g.n_pes), 0);
  for (int p : remote) r.remote[static_cast<size_t>(p)] = 1;
  net::stage_hooks hooks;
  hooks.store = stage_store;
  hooks.load = stage_load;
  hooks.amo = stage_amo;
  hooks.signal = stage_signal;
  hooks.batch = stage_batch;
  SYMMEM_TRY(net::transport::open("ucx", *g.boot, g.thread_level == SYMMEM_THREAD_MULTIPLE, remote, hooks, r.net));
  SYMMEM_TRY(r.net->connect(remote, call));
  r.worker = r.net->default_worker();
  r.local_gpu = !g.heap_on_cpu && r.net->reaches_gpu();
  // A host heap with SYMMEM_NET_HEAP=direct takes the GPU heap's direct form too (staged small
  // operations and atomics, registered memory for larger transfers), so CPU machines test it.
  // Asked for, not taken by default: registering GPU memory depends on the cluster (GPUDirect RDMA
  // needs the NIC's peer-memory support), and a failed registration fails the allocation.
  r.my_direct = g.cfg.net_heap == "direct" && (r.local_gpu || g.heap_on_cpu);
  if (!g.heap_on_cpu && g.cfg.net_heap == "direct" && !r.my_direct) {
    log(log_level::warn, "SYMMEM_NET_HEAP=direct: %s does not reach GPU memory (a UCX built without CUDA, or "
                         "cuda_copy left out of UCX_TLS); PEs on other hosts reach this GPU heap by staged "
                         "operations", r.net->description());
  }
  r.generation.fetch_add(1, std::memory_order_relaxed);
  r.granules = g.heap_size / granule_bytes;
  r.dir_bytes = (r.granules * sizeof(dir_entry) + 4095) & ~size_t{4095};
  r.dir = static_cast<dir_entry *>(map_directory(r.dir_bytes));
  if (r.dir == nullptr) {
    return fail(SYMMEM_ERR_OUT_OF_MEMORY, call, "cannot reserve %zu bytes for the key directory", r.dir_bytes);
  }
  r.granule_handle.assign(r.granules, nullptr);
  r.commits = std::make_unique<std::atomic<uint32_t>[]>(r.granules);
  r.live = std::make_unique<std::atomic<uint8_t>[]>(r.granules);
  r.known = std::make_unique<std::atomic<std::atomic<uint32_t> *>[]>(static_cast<size_t>(g.n_pes));
  SYMMEM_TRY(exchange_keys(call));
  SYMMEM_TRY(warm_up(remote, call));
  g.remote = true;
  log_routes();
  return ok_status;
}

status remote_quiesce(const char *call) {
  if (!g.remote) return ok_status;
  {
    std::lock_guard<std::mutex> lock(r.workers_mutex);  // contexts not destroyed: complete them too
    for (const auto &cw : r.ctx_workers) SYMMEM_TRY(r.net->quiet(cw.w, -1, call));
  }
  return r.net->quiet(r.worker, -1, call);
}

status remote_finalize(const char *call) {
  if (!g.remote) return ok_status;
  r.net->closing();
  return g.boot->barrier(call);  // meanwhile the progress thread serves the peers' last operations
}

void remote_teardown() {
  if (!r.net) return;
  g.remote = false;
  {
    std::lock_guard<std::mutex> lock(r.workers_mutex);
    r.ctx_workers.clear();  // the transport's close frees them
    r.idle_workers.clear();
    r.n_ctx_workers.store(0, std::memory_order_relaxed);
  }
  for (void *&h : r.granule_handle)
    if (h != nullptr) r.net->deregister_memory(h), h = nullptr;
  if (r.ctrl_handle != nullptr) r.net->deregister_memory(r.ctrl_handle);
  if (r.dir_handle != nullptr) r.net->deregister_memory(r.dir_handle);
  if (r.data_handle != nullptr) r.net->deregister_memory(r.data_handle);
  r.net.reset();
  if (held_pinned != nullptr) g.heap->host_buffer_free(held_pinned);  // no handler runs any more
  held_pinned = nullptr;
  held.clear();
  if (r.dir != nullptr) ::munmap(r.dir, r.dir_bytes);
  r.dir = nullptr;
  r.worker = r.ctrl_handle = r.dir_handle = r.data_handle = nullptr;
  r.remote.clear();
  r.ctrl_base.clear();
  r.dir_base.clear();
  r.granule_handle.clear();
  r.commits.reset();
  r.known.reset();
  r.known_store.clear();
  r.granules = r.dir_bytes = 0;
  r.staged.clear();
  r.direct.clear();
  r.any_staged = r.my_staged = r.my_direct = r.local_gpu = false;
  r.put_staged = 0;
  r.hold_stores = false;
  r.live.reset();
}

namespace {
// The granule's next commit, with its key (len 0 for a staged heap's: none), in the key directory.
void publish_commit(size_t gi, const net::packed_key &key) {
  const uint32_t c = r.commits[gi].load(std::memory_order_relaxed) + 1;
  dir_entry &e = r.dir[gi];
  e.len = key.len;
  std::memcpy(e.key, key.bytes, key.len);
  e.check = entry_check(c, key.len, key.bytes);
  std::atomic_ref<uint32_t>(e.commit).store(c, std::memory_order_release);
  r.commits[gi].store(c, std::memory_order_release);
}
}  // namespace

status remote_commit(size_t offset, size_t length, const char *call) {
  if (!g.remote || length == 0) return ok_status;
  for (size_t gi = offset / granule_bytes; gi * granule_bytes < offset + length; ++gi) {
    if (r.my_staged && !r.my_direct) {  // nothing to register: the owner's host carries staged operations out
      if (r.live[gi].exchange(1, std::memory_order_release) == 0) {
        // Published like a key, with none: a PE that returned from malloc first waits for it
        // before its first staged request into the granule (ensure_granule_key), else this
        // host, not yet here, would refuse the request.
        publish_commit(gi, net::packed_key{});
      }
      continue;
    }
    r.live[gi].store(1, std::memory_order_release);  // small staged puts may land in it
    if (r.granule_handle[gi] != nullptr) continue;  // still registered (a retained granule)
    net::packed_key key;
    void *at = reinterpret_cast<void *>(g.heap_base + gi * granule_bytes);
    if (r.my_direct && !g.heap_on_cpu) {
      const status st = r.net->register_gpu_memory(at, granule_bytes, r.granule_handle[gi], key, call);
      if (!st.ok()) {
        log(log_level::warn, "%s: GPU heap registration with %s failed (above); SYMMEM_NET_HEAP=staged reaches the "
                             "GPU heap from other hosts without registering it", call, r.net->description());
        return st;
      }
    } else {
      SYMMEM_TRY(r.net->register_memory(at, granule_bytes, r.granule_handle[gi], key, call));
    }
    publish_commit(gi, key);
  }
  return ok_status;
}

void remote_release(size_t offset, size_t length) {
  if (!g.remote) return;
  for (size_t gi = offset / granule_bytes; gi * granule_bytes < offset + length && gi < r.granules; ++gi) {
    r.live[gi].store(0, std::memory_order_release);
    if (r.granule_handle[gi] == nullptr) continue;
    r.net->deregister_memory(r.granule_handle[gi]);
    r.granule_handle[gi] = nullptr;
  }
}

namespace {

// Local buffers the CPU cannot reach (GPU memory: the heap, or the program's device buffers)
// travel through a host buffer, a chunk at a time, with the memory kind's copy; such a put is then
// blocking (its source is reusable at once anyway) and such a get complete on return.
constexpr size_t bounce_bytes = SYMMEM_NET_DATA_SIGNAL_MAX;  // a put with signal's most (one bounce)
constexpr size_t bounce_step = message_piece;  // a chunk of a put or get through it: one staged piece

char *bounce_buffer() {
  thread_local std::unique_ptr<char[]> buf;
  if (!buf) buf = std::make_unique<char[]>(bounce_bytes);
  return buf.get();
}

bool cpu_reaches(const void *p, size_t n) { return SYMMEM_LIKELY(g.heap_on_cpu) || g.heap->cpu_reaches(p, n); }

// Before a get or a fetching atomic to `pe`: staged puts to it still unanswered are completed
// first, so the later operation sees them (active messages and UCX's RMA need not keep their order).
// Non-fetching atomics are not waited for: OpenSHMEM orders them with later operations only by a
// fence or quiet, as UCX's own atomics were before they were staged (docs/multihost.md).
void settle_staged(void *w, int pe, const char *call) {
  if ((r.put_staged != 0 || r.any_staged) && SYMMEM_UNLIKELY(r.net->staged_stores_pending(w, pe))) {
    must(r.net->quiet(w, pe, call), pe, call);
  }
}

void put_chunk(void *w, char *d, const char *s, size_t n, int pe, bool nbi, const char *call) {
  while (n > 0) {
    target t = resolve(d, n, pe, call);
    if (t.region == region_staged || t.n <= r.put_staged) {
      must(r.net->staged_put(w, pe, t.raddr, s, t.n, call), pe, call);
    } else {
      must(r.net->put(w, pe, t.region, t.raddr, s, t.n, nbi, call), pe, call);
    }
    d += t.n;
    s += t.n;
    n -= t.n;
  }
}

void get_chunk(void *w, char *d, const char *s, size_t n, int pe, bool nbi, const char *call) {
  settle_staged(w, pe, call);
  while (n > 0) {
    target t = resolve(s, n, pe, call);
    status st;
    if (t.region == region_staged) {
      must(r.net->staged_get(w, pe, t.raddr, d, t.n, call), pe, call);
    } else if (nbi && t.n <= r.put_staged && r.net->staged_get_nbi(w, pe, t.raddr, d, t.n, call, &st)) {
      // Small non-blocking gets travel in the batches of small puts (ucx_staged.cpp, "Batches"):
      // a stream of them to one PE is a few messages, not one each.
      must(st, pe, call);
    } else {
      must(r.net->get(w, pe, t.region, t.raddr, d, t.n, nbi, call), pe, call);
    }
    d += t.n;
    s += t.n;
    n -= t.n;
  }
}

}  // namespace

void remote_put(void *dest, const void *src, size_t n, int pe, bool nbi, const char *call, symmem_ctx_s *ctx) {
  auto *d = static_cast<char *>(dest);
  auto *s = static_cast<const char *>(src);
  void *w = worker_of(ctx, call);
  if (SYMMEM_LIKELY(cpu_reaches(src, n))) return put_chunk(w, d, s, n, pe, nbi, call);
  char *b = bounce_buffer();
  for (size_t done = 0, k = 0; done < n; done += k) {
    if (r.local_gpu) {  // the transport takes the GPU buffer itself where the piece goes by its RMA
      const target t = resolve(d + done, n - done, pe, call);
      if (t.region != region_staged && t.n > r.put_staged) {
        must(r.net->put_from_gpu(w, pe, t.region, t.raddr, s + done, t.n, nbi, call), pe, call);
        k = t.n;
        continue;
      }
    }
    k = std::min(bounce_step, n - done);
    g.heap->copy(b, s + done, k);
    put_chunk(w, d + done, b, k, pe, false, call);  // blocking: b is reused next turn
  }
}

void remote_get(void *dest, const void *src, size_t n, int pe, bool nbi, const char *call, symmem_ctx_s *ctx) {
  auto *d = static_cast<char *>(dest);
  auto *s = static_cast<const char *>(src);
  void *w = worker_of(ctx, call);
  if (SYMMEM_LIKELY(cpu_reaches(dest, n))) return get_chunk(w, d, s, n, pe, nbi, call);
  char *b = bounce_buffer();
  for (size_t done = 0, k = 0; done < n; done += k) {
    if (r.local_gpu) {  // the transport fills the GPU buffer itself where the piece comes by its RMA
      const target t = resolve(s + done, n - done, pe, call);
      if (t.region != region_staged && t.n > r.put_staged) {
        settle_staged(w, pe, call);
        must(r.net->get_to_gpu(w, pe, t.region, t.raddr, d + done, t.n, nbi, call), pe, call);
        k = t.n;
        continue;
      }
    }
    k = std::min(bounce_step, n - done);
    get_chunk(w, b, s + done, k, pe, false, call);
    g.heap->copy(d + done, b, k);
  }
}

uint64_t remote_amo(void *dest, int pe, int op, unsigned size, uint64_t value, uint64_t compare, bool fetch,
                    const char *call, symmem_ctx_s *ctx) {
  if (SYMMEM_UNLIKELY(reinterpret_cast<uintptr_t>(dest) % size != 0)) {
    fatal(call, "address %p is not aligned to the %u bytes of the atomic; align the object", dest, size);
  }
  target t = resolve(dest, size, pe, call, false);
  uint64_t result = 0;
  void *w = worker_of(ctx, call);
  if (fetch) settle_staged(w, pe, call);  // OpenSHMEM orders a non-fetching one only by a fence
  if (t.region == region_staged && op == SYMMEM_NET_AMO_SWAP && !fetch) {
    // A set (a signal's or a device barrier's store): a staged put of the value, which the owner
    // writes with its copy engine rather than an atomic kernel. No SM is needed, so a kernel that
    // fills the GPU while it waits for this very store still gets it. An aligned 4- or 8-byte DMA
    // write is one memory transaction, so it linearises with the kind's atomics on the word.
    must(r.net->staged_put(w, pe, t.raddr, &value, size, call), pe, call);  // little-endian: the low half
  } else if (t.region == region_staged || (!fetch && r.put_staged != 0)) {
    // A non-fetching atomic on host memory goes like a small put: an answered message, batched
    // with the puts and atomics that follow it while it is unanswered (ucx_staged.cpp, "Batches").
    must(r.net->staged_amo(w, pe, t.raddr, op, size, value, compare, fetch ? &result : nullptr, call), pe, call);
  } else {
    must(r.net->amo(w, pe, t.region, t.raddr, op, size, value, compare, fetch ? &result : nullptr, call), pe, call);
  }
  return result;  // a 4-byte result sits in the low half (little-endian)
}

void remote_put_signal(void *dest, const void *src, size_t n, uint64_t *sig_addr, uint64_t signal, int op, int pe,
                       bool nbi, const char *call, symmem_ctx_s *ctx) {
  void *w = worker_of(ctx, call);
  const target t = n != 0 && n <= SYMMEM_NET_DATA_SIGNAL_MAX && r.net->has_staged_put_signal()
                       ? resolve(dest, n, pe, call)
                       : target{};
  if (t.n == n && n != 0 && (t.region == region_staged || n <= r.put_staged)) {
    // One message: the owner stores the data, then the signal, and answers (a quiet waits for it).
    const target s = resolve(sig_addr, sizeof(uint64_t), pe, call);
    const char *from = static_cast<const char *>(src);
    if (!cpu_reaches(src, n)) {
      g.heap->copy(bounce_buffer(), src, n);  // at most SYMMEM_NET_DATA_SIGNAL_MAX: one bounce
      from = bounce_buffer();
    }
    must(r.net->staged_put_signal(w, pe, t.raddr, from, n, s.raddr, op, signal, call), pe, call);
    return;
  }
  if (n != 0) {  // with no data (signal_add, signal_set) there is nothing to order the signal after
    remote_put(dest, src, n, pe, nbi, call, ctx);
    remote_fence(call, ctx);  // one worker carries both, so the fence orders them
  }
  (void)remote_amo(sig_addr, pe, op, sizeof(uint64_t), signal, 0, false, call, ctx);
}

// Staged operations are not ordered by UCX's fence (each is an active message its target answers,
// and active messages need not arrive in order), so beside a staged heap, or after small staged
// puts still unanswered, a fence completes them.
void remote_fence(const char *call, symmem_ctx_s *ctx) {
  if (!g.remote) return;
  void *w = worker_of(ctx, call);
  if (r.any_staged || (r.put_staged != 0 && r.net->staged_pending(w, -1))) return remote_quiet(call, ctx);
  must(r.net->fence(w, call), -1, call);
}

void remote_quiet(const char *call, symmem_ctx_s *ctx) {
  if (g.remote) must(r.net->quiet(worker_of(ctx, call), -1, call), -1, call);
}

// A context's worker comes from the workers of destroyed contexts when one of its kind is there:
// a new worker opens its connections to every remote PE at its first operation, which then took
// 2-4 ms between 2 hosts over veth (OSHMEM, which keeps its contexts' resources, takes 35-46 us
// on a context created after another was destroyed).
constexpr size_t idle_workers_kept = 16;

void *remote_worker_create(bool shared, bool progressed, const char *call) {
  void *w = nullptr;
  {
    std::lock_guard<std::mutex> lock(r.workers_mutex);
    auto it = std::find_if(r.idle_workers.begin(), r.idle_workers.end(), [=](const remote_state::ctx_worker &cw) {
      return cw.shared == shared && cw.progressed == progressed;
    });
    if (it != r.idle_workers.end()) {
      w = it->w;
      r.idle_workers.erase(it);
    }
  }
  const bool reused = w != nullptr;
  if (!reused) must(r.net->create_worker(shared, progressed, w, call), -1, call);
  size_t n = 0;
  {
    std::lock_guard<std::mutex> lock(r.workers_mutex);
    r.ctx_workers.push_back({w, shared, progressed, std::this_thread::get_id()});
    n = r.ctx_workers.size();
    r.n_ctx_workers.store(n, std::memory_order_relaxed);
  }
  log(log_level::info, "%s: a context's network worker %s (%s; %zu context workers)", call,
      reused ? "taken from a destroyed context" : "made",
      shared        ? "shared context: locked when threads may use it at once"
      : progressed  ? "private context: no lock; small operations batched"
                    : "private context: no lock",
      n);
  return w;
}

// After the context's quiet: its worker has nothing in flight, and is kept for the next context.
void remote_worker_destroy(void *w) {
  if (w == nullptr || !r.net) return;
  bool keep = false;
  {
    std::lock_guard<std::mutex> lock(r.workers_mutex);
    auto it = std::find_if(r.ctx_workers.begin(), r.ctx_workers.end(),
                           [w](const remote_state::ctx_worker &cw) { return cw.w == w; });
    if (it != r.ctx_workers.end()) {
      keep = r.idle_workers.size() < idle_workers_kept;
      if (keep) r.idle_workers.push_back(*it);
      r.ctx_workers.erase(it);
    }
    r.n_ctx_workers.store(r.ctx_workers.size(), std::memory_order_relaxed);
  }
  if (!keep) r.net->destroy_worker(w);
}

uint32_t remote_generation() { return g.remote ? r.generation.load(std::memory_order_relaxed) : 0; }

std::string remote_unanswered_note() {
  if (!g.remote) return "";
  std::vector<int> pes;
  std::vector<uint64_t> addrs;
  for (int p = 0; p < g.n_pes; ++p) {
    if (!r.remote[static_cast<size_t>(p)]) continue;
    pes.push_back(p);
    addrs.push_back(r.ctrl_base[static_cast<size_t>(p)]);
  }
  std::vector<int> silent = r.net->unanswered(r.worker, pes, addrs, region_ctrl, 1.0);
  if (silent.empty()) return "";
  std::string list;
  for (int p : silent) {
    if (!list.empty()) list += ',';
    list += std::to_string(p);
  }
  return strfmt("; %s %s on other hosts %s not answer over the network within 1 s (unreachable?)",
                silent.size() == 1 ? "PE" : "PEs", list.c_str(), silent.size() == 1 ? "does" : "do");
}

// Contexts' workers are progressed here too: over TCP a put that returned may still wait in its
// worker (for the connection's wire-up, or for the socket), and a PE that waits for an answer to it
// must move it on, or both sides wait for ever (conf_ctx across hosts did).
void remote_progress() {
  if (!g.remote) return;
  r.net->progress(r.worker);
  remote_progress_own();
}

void remote_progress_own() {
  if (!g.remote) return;
  if (r.n_ctx_workers.load(std::memory_order_relaxed) == 0) return;
  std::unique_lock<std::mutex> lock(r.workers_mutex, std::try_to_lock);  // busy: the next turn
  if (!lock.owns_lock()) return;
  const std::thread::id me = std::this_thread::get_id();
  for (const auto &cw : r.ctx_workers)
    if (cw.locked() || cw.owner == me) r.net->progress(cw.w);
}

void remote_idle(unsigned usec) {
  if (!g.remote || !r.net->has_idle()) {
    sched_yield();
    return;
  }
  r.net->idle(r.worker, usec);
}

size_t ctrl_offset(const void *addr) {
  return static_cast<size_t>(static_cast<const char *>(addr) - g.ctrl_table[static_cast<size_t>(g.my_pe)]);
}

void ctrl_put(int pe, size_t offset, const void *src, size_t n, const char *call) {
  if (!is_remote(pe)) {
    std::memcpy(g.ctrl_table[static_cast<size_t>(pe)] + offset, src, n);
    return;
  }
  must(r.net->put(r.worker, pe, region_ctrl, r.ctrl_base[static_cast<size_t>(pe)] + offset, src, n, false, call), pe,
       call);
}

void ctrl_signal(int pe, size_t offset, const uint64_t *words, size_t n, const char *call) {
  if (!is_remote(pe)) {
    auto *w = reinterpret_cast<uint64_t *>(g.ctrl_table[static_cast<size_t>(pe)] + offset);
    for (size_t i = n; i-- > 1;) std::atomic_ref<uint64_t>(w[i]).store(words[i], std::memory_order_relaxed);
    std::atomic_ref<uint64_t>(w[0]).store(words[0], std::memory_order_release);
    return;
  }
  must(r.net->signal(r.worker, pe, region_ctrl, r.ctrl_base[static_cast<size_t>(pe)] + offset, words, n, call), pe,
       call);
}

void ctrl_add(int pe, size_t offset, uint64_t v, const char *call) {
  if (!is_remote(pe)) {
    std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t *>(g.ctrl_table[static_cast<size_t>(pe)] + offset))
        .fetch_add(v, std::memory_order_release);
    return;
  }
  must(r.net->signal_add(r.worker, pe, region_ctrl, r.ctrl_base[static_cast<size_t>(pe)] + offset, v, call), pe, call);
}

void ctrl_put_add(int pe, size_t data_offset, const void *head, size_t head_n, const void *src, size_t n,
                  size_t count_offset, uint64_t v, const char *call) {
  char *base = g.ctrl_table[static_cast<size_t>(pe)];
  if (!is_remote(pe)) {
    if (head_n != 0) std::memcpy(base + data_offset, head, head_n);
    if (n != 0) std::memcpy(base + data_offset + head_n, src, n);
    std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t *>(base + count_offset)).fetch_add(v, std::memory_order_release);
    return;
  }
  const uint64_t at = r.ctrl_base[static_cast<size_t>(pe)];
  must(r.net->signal_put(r.worker, pe, region_ctrl, at + data_offset, head, head_n, src, n, at + count_offset, v, call),
       pe, call);
}

bool remote_direct_signals() { return g.remote && r.net->has_signal_put() && !r.my_staged && !r.any_staged; }

// Every piece is posted before any is waited for (up to `batch` at a time): the transport then
// has the next piece while the network carries one. The headers stay here until their pieces
// complete.
void put_count(void *dest, const void *src, size_t n, int pe, size_t piece, size_t count_offset, const char *call) {
  if (!is_remote(pe)) {
    if (n != 0) std::memcpy(translate(dest, n, pe, call), src, n);
    ctrl_add(pe, count_offset, n, call);  // release: the bytes are seen before the count
    return;
  }
  constexpr size_t batch = 16;
  uint64_t hdr[batch][SYMMEM_NET_DATA_SIGNAL_HDR];
  void *req[batch];
  const uint64_t count_at = r.ctrl_base[static_cast<size_t>(pe)] + count_offset;
  auto *d = static_cast<char *>(dest);
  auto *s = static_cast<const char *>(src);
  size_t posted = 0;
  while (n > 0) {
    const target t = resolve(d, std::min(n, piece), pe, call);
    must(r.net->signal_put_post(r.worker, pe, hdr[posted], t.raddr, nullptr, 0, s, t.n, count_at, t.n, &req[posted],
                                 call), pe,
         call);
    if (req[posted] != nullptr) ++posted;
    d += t.n;
    s += t.n;
    n -= t.n;
    if (posted == batch || n == 0) {
      for (size_t i = 0; i < posted; ++i) {
        must(r.net->wait_request(r.worker, req[i], pe, "a data signal", call), pe, call);
      }
      posted = 0;
    }
  }
}

void ctrl_get(int pe, size_t offset, void *dst, size_t n, const char *call) {
  if (!is_remote(pe)) {
    std::memcpy(dst, g.ctrl_table[static_cast<size_t>(pe)] + offset, n);
    return;
  }
  must(r.net->get(r.worker, pe, region_ctrl, r.ctrl_base[static_cast<size_t>(pe)] + offset, dst, n, false, call), pe,
       call);
}

}  // namespace symmem::core
