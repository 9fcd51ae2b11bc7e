// symmem: the runtime's state and the hot-path address translation.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bootstrap/bootstrap.h"
#include "common/config.h"
#include "common/error.h"
#include "heap/allocator.h"
#include "mem/data_segment.h"
#include "mem/fdpass.h"
#include "mem/provider.h"
#include "symmem/symmem.h"

namespace symmem::core {

inline constexpr size_t granule_bytes = size_t{2} << 20;  // commit/release unit of the heap
// The control segment: a small host memfd per PE, mapped by every node-local peer, that holds the
// runtime's own synchronisation state (barrier slots, call records, collective scratch). It is
// apart from the heap so that it stays CPU-accessible when the heap lives in GPU memory.
inline constexpr size_t ctrl_bytes = size_t{16} << 20;
inline constexpr size_t min_alignment = 64;                // every allocation: one cache line
inline constexpr int max_sync_rounds = 32;                 // dissemination rounds: 2^32 PEs

// One collective call as each PE saw it, compared across PEs at the call's barrier.
struct call_record {
  uint32_t call;  // call_id
  uint32_t valid;
  uint64_t a;  // first argument (size, pointer, ...)
  uint64_t b;  // second argument (alignment, count, ...)
};

enum call_id : uint32_t {
  call_barrier_all = 1,
  call_sync_all,
  call_malloc,
  call_calloc,
  call_align,
  call_realloc,
  call_free,
  call_finalize,
  call_user_first = 64,  // later layers (collectives, teams) number their calls from here
};
const char *call_name(uint32_t id);

// A dissemination-barrier slot: written by the partner PE, read by its owner.
// A signal from a PE on another host arrives as one network put of the whole slot, whose bytes
// may land in any order: `check` tells a whole one from a torn one (the receiver waits until it
// matches), so the signal needs no fence and no second message.
struct alignas(64) sync_slot {
  std::atomic<uint64_t> epoch;
  uint64_t lo;
  uint64_t hi;
  uint64_t check;  // slot_check(epoch, lo, hi)
};

inline uint64_t slot_check(uint64_t epoch, uint64_t lo, uint64_t hi) {
  uint64_t x = epoch * 0x9E3779B97F4A7C15ULL ^ lo;
  x = (x ^ (x >> 29)) * 0xBF58476D1CE4E5B9ULL ^ hi;
  x = (x ^ (x >> 32)) * 0x94D049BB133111EBULL;
  return (x ^ (x >> 29)) | 1;  // never 0: a slot never written does not match
}


// The start of every PE's control segment (zero at init: the memfd starts zeroed).
struct internal_area {
  sync_slot slots[2][max_sync_rounds];  // [epoch parity][round]
  alignas(64) call_record record[2];    // this PE's record of its current collective, by parity
};
static_assert(sizeof(internal_area) <= ctrl_bytes / 2);
// Bytes of the control segment free for later layers (collective scratch, locks), from this
// offset to ctrl_bytes.
inline constexpr size_t ctrl_scratch_offset = (sizeof(internal_area) + 4095) & ~size_t{4095};

// A minimal lock for short critical sections that are almost never contended (the allocator's
// bookkeeping): one atomic exchange each way, a third of a pthread mutex's cost.
class spinlock {
 public:
  void lock() {
    while (flag_.exchange(true, std::memory_order_acquire)) {
      while (flag_.load(std::memory_order_relaxed)) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
    }
  }
  void unlock() { flag_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> flag_{false};
};

struct runtime_state {
  // ---- hot: read on every RMA/AMO; written only at init and finalize -------------------------
  uintptr_t heap_base = 0;
  size_t heap_size = 0;  // 0 outside init..finalize: every range check then fails
  int my_pe = -1;
  int n_pes = 0;
  char **peer_base = nullptr;  // [n_pes]: where PE p's heap is mapped here, nullptr if not accessible

  // ---- warm: the miss path of translate, the program's global and static data -----------------
  uintptr_t data_lo = 0;       // first byte of this process's symmetric static data
  size_t data_len = 0;         // 0 when static data is not symmetric in this job (or outside init..finalize)
  char **data_peer = nullptr;  // [n_pes]: data_peer[p] + (addr - data_lo) is PE p's copy; nullptr if not mapped

  // ---- cold ----------------------------------------------------------------------------------
  std::atomic<int> phase{0};  // 0 never initialized, 1 initialized, 2 finalized
  bool remote = false;        // the job spans hosts: a network transport serves the remote PEs (core/remote.h)
  int thread_level = SYMMEM_THREAD_SINGLE;
  config::settings cfg;
  std::unique_ptr<boot::bootstrap> boot;
  std::vector<char *> peer_table;
  std::vector<char *> ctrl_table;  // each node-local PE's control segment as mapped here
  std::unique_ptr<mem::provider> heap;  // backs the symmetric heap (host memfd or GPU memory)
  bool heap_on_cpu = true;              // heap memory is CPU load/store accessible
  std::vector<int> local_rank_of;  // node-local index of each PE, -1 when on another host
  std::vector<mem::fd_peer> local_fd_peers;  // every node-local PE (this one too), for fd exchanges
  int local_size = 0;
  bool all_local = true;
  uintptr_t window_base = 0;
  size_t window_size = 0;
  size_t user_bytes = 0;  // the size the user asked for
  uint64_t sync_epoch = 0;
  heap::allocator alloc;
  spinlock alloc_mutex;  // collective calls are the user's to serialise; this keeps bookkeeping sane
  mem::fd_exchange fds;
  uint64_t nonce = 0;
  mem::data_layout data_layout;           // where the program's static data lies here (found at init)
  std::vector<char *> data_table;         // backs data_peer
  std::vector<uint64_t> data_remote_lo;   // every PE's data_lo in its own address space (network transports)
  std::string data_unavailable;           // why static data is not symmetric (or not for some PEs), for messages
};

extern runtime_state g;

// The OpenSHMEM ABI's copy of my_pe and n_pes (symmem_detail_world, <symmem/symmem.h>): set at the
// end of init, and back to {-1, 0} ("not initialized") at finalize, when shmem_my_pe and
// shmem_n_pes then take the call that names the mistake.
inline void set_world(int my_pe, int n_pes) {
  __atomic_store_n(&symmem_detail_world[1], n_pes, __ATOMIC_RELAXED);
  __atomic_store_n(&symmem_detail_world[0], my_pe, __ATOMIC_RELAXED);
}

// True when the slot holds the whole signal of `epoch`. Node-local senders store the epoch last
// with release order, so for them the acquire load suffices; the check is needed (and read)
// only when the job spans hosts.
inline bool slot_ready(const sync_slot &s, uint64_t epoch) {
  if (s.epoch.load(std::memory_order_acquire) != epoch) return false;
  if (SYMMEM_LIKELY(!g.remote)) return true;
  auto *m = const_cast<sync_slot *>(&s);
  return std::atomic_ref<uint64_t>(m->check).load(std::memory_order_relaxed) ==
         slot_check(epoch, std::atomic_ref<uint64_t>(m->lo).load(std::memory_order_relaxed),
                    std::atomic_ref<uint64_t>(m->hi).load(std::memory_order_relaxed));
}

inline internal_area *area_of(int pe) { return reinterpret_cast<internal_area *>(g.ctrl_table[static_cast<size_t>(pe)]); }

// Reports a bad target of a data-path call (before init, after finalize, non-symmetric address,
// PE out of range, PE not accessible) and ends the job. Kept out of line: the hot path stays small.
[[noreturn]] void bad_target(const void *addr, size_t len, int pe, const char *call);
// Reports use of the library before init or after finalize and ends the job.
[[noreturn]] void not_initialized(const char *call);
// core/lifecycle.cpp: exit without finalize, start_pes's implicit finalize, fork.
void after_init();                                // at the end of a successful init
bool forked_child();                              // this process was forked from the PE
bool exit_finalizing();                           // finalizing at exit for a program that did not call it
[[noreturn]] void forked_call(const char *call);  // a symmem call in a forked child: ends the child
// translate's miss path (core/static_data.cpp): the program's static data, else bad_target.
char *translate_miss(const void *addr, size_t len, int pe, const char *call);

// The static-data part of translate, for the out-of-line miss paths below: where `len` bytes at
// `addr` (a global or static variable) live for PE `pe`, or nullptr.
inline char *translate_data(const void *addr, size_t len, int pe) {
  const uintptr_t off = reinterpret_cast<uintptr_t>(addr) - g.data_lo;
  if (off < g.data_len && len <= g.data_len - off && static_cast<unsigned>(pe) < static_cast<unsigned>(g.n_pes)) {
    if (char *b = g.data_peer[pe]) {
      return b + off;
    }
  }
  return nullptr;
}
// The same for GPU work, which needs heap memory: static data is host memory (docs/static-data.md).
[[noreturn]] void bad_heap_target(const void *addr, size_t len, int pe, const char *call);

// The heap's part of translate: where `len` bytes at `addr` live for PE `pe`, or nullptr when they
// are not in the heap or the PE is out of range or not mapped (then translate_miss decides).
[[gnu::always_inline]] inline char *translate_hit(const void *addr, size_t len, int pe) {
  uintptr_t off = reinterpret_cast<uintptr_t>(addr) - g.heap_base;
  if (SYMMEM_LIKELY(off < g.heap_size && len <= g.heap_size - off &&
                    static_cast<unsigned>(pe) < static_cast<unsigned>(g.n_pes))) {
    char *b = g.peer_base[pe];
    if (SYMMEM_LIKELY(b != nullptr)) {
      return b + off;
    }
  }
  return nullptr;
}

// Where `len` bytes at symmetric address `addr` live for PE `pe`, as an address of this process.
// The heap is checked first, inline; the program's static data on the out-of-line miss path.
inline char *translate(const void *addr, size_t len, int pe, const char *call) {
  if (char *p = translate_hit(addr, len, pe); SYMMEM_LIKELY(p != nullptr)) {
    return p;
  }
  return translate_miss(addr, len, pe, call);
}

// True when PE pe is reached through the network transport (core/remote.cpp; miss paths only).
bool is_remote(int pe);

// translate() for heap memory only (GPU kernels and copies, which cannot reach static data).
inline char *translate_heap(const void *addr, size_t len, int pe, const char *call) {
  uintptr_t off = reinterpret_cast<uintptr_t>(addr) - g.heap_base;
  if (SYMMEM_LIKELY(off < g.heap_size && len <= g.heap_size - off &&
                    static_cast<unsigned>(pe) < static_cast<unsigned>(g.n_pes) && g.peer_base[pe] != nullptr)) {
    return g.peer_base[pe] + off;
  }
  bad_heap_target(addr, len, pe, call);
}

// True when symmetric address `addr` is CPU memory, reached by loads and stores: a host heap, or
// the program's static data (host memory in every build, also beside a GPU heap).
inline bool cpu_memory(const void *addr) {
  return SYMMEM_LIKELY(g.heap_on_cpu) || reinterpret_cast<uintptr_t>(addr) - g.heap_base >= g.heap_size;
}

inline void require_init(const char *call) {
  if (SYMMEM_UNLIKELY(g.heap_size == 0)) {
    not_initialized(call);
  }
}

}  // namespace symmem::core
