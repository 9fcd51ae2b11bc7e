// symmem: the runtime's side of the network transport, for PEs on other hosts.
//
// Each PE pair is served by one transport, fixed at init: p2p (the peer's memory is mapped here:
// translate's inline hit) or remote (the network transport, net/net.h). The data path asks this
// layer only on translate's out-of-line slow path, so node-local operations are unchanged.
//
// Memory regions a remote PE can reach, each registered with the transport and known by a packed
// key (docs/multihost.md, "Registration"):
//   0  the control segment (barrier slots, call records, team areas): key exchanged at init
//   1  the key directory, where this PE publishes the keys of its heap granules: key at init
//   2  the program's static data segment, when symmetric: key at init
//   3+ one per heap granule (2 MiB), registered when a collective allocation first uses it and
//      released with it; its key is fetched from the owner's directory on first use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "net/proxy.h"

struct symmem_ctx_s;

namespace symmem::core {

// True when PE `pe` is reached through the network transport.
bool is_remote(int pe);

// Collective, in init after the node-local mappings: opens and connects the transport when the
// job spans hosts (host[p]: PE p's host identity), registers the control segment, and exchanges
// what remote PEs need. Prints each remote route with SYMMEM_DEBUG=info.
status remote_init(const std::vector<uint64_t> &host, const char *call);
// In finalize, before its barrier: flushes every network worker (contexts' too). Before the barrier,
// not after: a flush can need a peer's context worker to answer (an endpoint that worker opened to
// this PE), and a peer past the barrier waits in the bootstrap, where only its default worker is
// progressed (by the progress thread): Sandia's many-ctx hung there, one run in three.
status remote_quiesce(const char *call);
// In finalize, after its barrier: a bootstrap barrier (the progress thread serves the peers'
// last operations meanwhile), then the transport closes.
status remote_finalize(const char *call);
void remote_teardown();

// The allocator's granule events: [offset, offset+length) of the heap begins to be used by a
// collective allocation / was handed back. Every PE sees the same events (the allocator is
// deterministic), which keeps the peers' cached keys right.
status remote_commit(size_t offset, size_t length, const char *call);
void remote_release(size_t offset, size_t length);

// The data path to remote PEs. `addr` is a symmetric address of this PE (heap or static data);
// failures end the job with a message naming the PE. `ctx`: the context whose worker carries the
// operation (nullptr, or the default context: the transport's default worker).
void remote_put(void *dest, const void *src, size_t n, int pe, bool nbi, const char *call,
                symmem_ctx_s *ctx = nullptr);
void remote_get(void *dest, const void *src, size_t n, int pe, bool nbi, const char *call,
                symmem_ctx_s *ctx = nullptr);
// op: SYMMEM_NET_AMO_*; size 4 or 8. fetch: returns the old value (else completes at quiet).
uint64_t remote_amo(void *dest, int pe, int op, unsigned size, uint64_t value, uint64_t compare, bool fetch,
                    const char *call, symmem_ctx_s *ctx = nullptr);
// A put with signal (op: SYMMEM_NET_AMO_SWAP sets the signal, SYMMEM_NET_AMO_ADD adds): one staged
// message that the owner carries out and answers when the data goes staged (a GPU heap, or at most
// SYMMEM_NET_PUT_STAGED bytes), else the put, a fence and the signal as a network atomic.
void remote_put_signal(void *dest, const void *src, size_t n, uint64_t *sig_addr, uint64_t signal, int op, int pe,
                       bool nbi, const char *call, symmem_ctx_s *ctx = nullptr);
// Order / complete the operations of the context's worker (nullptr: the default worker's).
void remote_fence(const char *call, symmem_ctx_s *ctx = nullptr);
void remote_quiet(const char *call, symmem_ctx_s *ctx = nullptr);

// Contexts' workers (ctx/ctx.cpp makes them on a context's first remote operation). shared: the
// program's threads may use it at once (locked when it may); otherwise one thread at a time, and
// no lock. Destroy after the last quiet. finalize completes every worker still alive.
void *remote_worker_create(bool shared, bool progressed, const char *call);
void remote_worker_destroy(void *worker);
// Which transport is open: a worker made under an earlier one (before a finalize and a new init)
// is gone. 0 while none is.
uint32_t remote_generation();
// For the message of a wait that ran out: "; PEs 2,3 on other hosts do not answer over the
// network (unreachable?)" when some remote PE does not answer within a second, else "".
std::string remote_unanswered_note();

// One step of network progress (called from every wait loop while a transport is open).
void remote_progress();
// The same on the workers of contexts this thread owns only: a helper thread (the GPU proxy) leaves
// the default worker to the network's progress thread, which sleeps on its messages and wakes for
// each. A helper that progressed it counted as the PE's own use and kept that thread napping: in
// Jacobi across hosts it napped 2.8-3.3 s of a 3.4 s run and slept on the worker twice.
void remote_progress_own();
// Gives up the CPU until a message arrives or `usec` microseconds pass (core/wait.h: waits do this
// instead of yielding when other programs compete for the CPU).
void remote_idle(unsigned usec);

// The control segment of any PE, by offset (the same layout on every PE): a copy for node-local
// PEs, a network transfer for remote ones (ctrl_put returns when `src` may be reused).
void ctrl_put(int pe, size_t offset, const void *src, size_t n, const char *call);
// Stores `n` words at `offset` of PE pe's control segment, last to first, the first with release
// order: one network message to a PE on another host (no reply, no flush), plain stores here.
void ctrl_signal(int pe, size_t offset, const uint64_t *words, size_t n, const char *call);
void ctrl_get(int pe, size_t offset, void *dst, size_t n, const char *call);
size_t ctrl_offset(const void *addr_in_my_ctrl);
// Whether data signals can carry data straight into the symmetric memory of PEs on other hosts
// (put_count): the transport sends data signals itself, and no PE's heap is staged (every heap is
// host memory its transport registered). The same answer on every PE of the job.
bool remote_direct_signals();
// The most data one message of symmem's own to another host carries (a staged operation, a piece
// of a large broadcast): 1 KiB less than a data signal's most (SYMMEM_NET_DATA_SIGNAL_MAX), so
// that the message with its headers fits one of UCX's 256 KiB TCP segments. A full 256 KiB went
// as two fragments, which the receiver joins with one more copy (BENCHMARKS.md).
inline constexpr size_t message_piece = (size_t{256} << 10) - 1024;
// Stores `n` bytes of `src` at the symmetric address `dest` (heap or static data) of PE pe, then
// adds n to the 8-byte word at count_offset of PE pe's control segment with release order: for a
// PE on another host as data signals of at most `piece` bytes (none crossing a heap granule), each
// one message adding its own length, no reply, no flush (only where remote_direct_signals()); a
// copy into the mapping and an atomic add for a node-local one. Returns when `src` may be reused.
void put_count(void *dest, const void *src, size_t n, int pe, size_t piece, size_t count_offset, const char *call);
// Adds `v` to the 8-byte word at `offset` of PE pe's control segment: an atomic add with release
// order for a node-local PE; for a remote one, one network message whose handler adds with the
// target's CPU atomics (posted: no flush covers it; the callers await its effect).
void ctrl_add(int pe, size_t offset, uint64_t v, const char *call);
// Stores `head_n` bytes of `head` and then `n` bytes of `src` at data_offset of PE pe's control
// segment, then adds v to the word at count_offset there with release order (a data signal: one
// message to a PE on another host, sent from both buffers without joining them here; stores and an
// atomic add for a node-local one). Returns when `head` and `src` may be reused.
void ctrl_put_add(int pe, size_t data_offset, const void *head, size_t head_n, const void *src, size_t n,
                  size_t count_offset, uint64_t v, const char *call);

// A network atomic (op: SYMMEM_NET_AMO_*, size 4 or 8) carried out here by the heap's memory kind
// (host heap: the CPU's atomics; GPU heap: a system-scope atomic kernel), or with `host` by the
// host kind's (other host memory of this PE: its static data). Returns the old value.
uint64_t heap_amo(void *at, int op, unsigned size, uint64_t value, uint64_t compare, bool host = false);

// What a proxy ring's requests do (core/proxy_exec.cpp): the runtime's routines, remote or mapped.
std::unique_ptr<net::proxy_executor> make_proxy_executor();

}  // namespace symmem::core
