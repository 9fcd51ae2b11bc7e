// symmem: the network transport plugin interface.
//
// A transport serves the PE pairs whose memory is not mapped into each other (PEs on different
// hosts). It is a shared object (libsymmem_net_<name>.so, today only "ucx") that libsymmem loads
// with dlopen when a job spans hosts, so libsymmem depends on no network library. It exports
//
//   int symmem_net_plugin_create(const symmem_net_host *host, symmem_net_ops *out);
//
// The interface is deliberately non-blocking: every data operation either completes at once or
// hands back a request that the library tests while it waits, progressing the transport. All
// waiting (its limit, what it names when it expires, the job being torn down) stays in the
// library's one wait loop (core/wait.h); a plugin never blocks.
//
// Memory is addressed by region: a region is a range of a PE's address space that the PE
// registered (mem_register) and whose packed key the other PEs were given (key_set). The library
// numbers regions (the control segment, the static data segment, the heap's granules); the
// plugin stores keys per (PE, region) and unpacks them per worker. An operation names the target
// by PE, region and the address in the target's address space. Region 0
// (SYMMEM_NET_REGION_SIGNALS) is the library's control segment: its puts and atomics are the
// library's own signals, whose effect it awaits itself, so a flush need not cover them and a
// plugin may skip a worker flush that follows nothing else (OSHMEM's quiet does the same).
//
// Workers: one per communication context (OpenSHMEM contexts). The default worker exists from
// create on; worker_create makes more. A worker created `shared` may be used by several threads
// at once; otherwise by one thread at a time (the library's contexts guarantee it). With
// SYMMEM_NET_WORKER_PROGRESSED or'ed into `shared`, the one thread that uses the worker also
// progresses it whenever it has nothing else to do (the GPU heap's proxy thread), so the plugin
// may hold small operations back and send them together, as it may on the default worker, which
// its progress thread serves. (A plugin that knows no such bit takes the worker for a shared one.)
//
// Rules: return SYMMEM_SUCCESS (0) or a negative SYMMEM_ERR_* code after reporting through
// host->fail; 1 from an operation means "posted, not complete": *req is then set and must be
// tested (or, for nbi operations without req, completes at the next flush). Versioning as in
// bootstrap/plugin.h: abi_version changes when a field changes meaning, struct_size lets either
// side append fields.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SYMMEM_NET_ABI_VERSION 2u
#define SYMMEM_NET_ENTRY "symmem_net_plugin_create"
#define SYMMEM_NET_KEY_MAX 256u        // bytes of a packed key, at most
#define SYMMEM_NET_ADDRESS_MAX 4096u   // bytes of a worker address, at most
#define SYMMEM_NET_REGION_SIGNALS 0u   // the control segment (see above)
#define SYMMEM_NET_DATA_SIGNAL_MAX (256u << 10)  // bytes a data signal carries, at most
#define SYMMEM_NET_DATA_SIGNAL_HDR 8u  // words of a data signal's header (signal_put)
#define SYMMEM_NET_STAGED_BACKLOG (1u << 20)     // bytes of staged messages waiting to be sent (staged_backlog)
#define SYMMEM_NET_WORKER_PROGRESSED 2           // worker_create: see "Workers" above
#define SYMMEM_NET_MEM_GPU 1u                    // a kind of memory: this PE's GPU memory (mem_kinds)

enum symmem_net_amo {
  SYMMEM_NET_AMO_ADD = 0,
  SYMMEM_NET_AMO_SWAP,
  SYMMEM_NET_AMO_CSWAP,
  SYMMEM_NET_AMO_AND,
  SYMMEM_NET_AMO_OR,
  SYMMEM_NET_AMO_XOR,
};

typedef struct symmem_net_host {
  uint32_t abi_version;  // SYMMEM_NET_ABI_VERSION
  uint32_t struct_size;
  int my_pe;
  int n_pes;
  int thread_multiple;  // the program may call from several threads at once
  // Every PE contributes len bytes; out receives n_pes*len bytes in PE order (the bootstrap).
  int (*allgather)(void *ctx, const void *in, void *out, size_t len, const char *call);
  void *allgather_ctx;
  // As in bootstrap/plugin.h: reports `text` with the PE prefix, returns `code`.
  int (*fail)(int code, const char *call, const char *text);
  void (*log)(int level, const char *call, const char *text);
  // Staged memory (see staged_put below): this PE's memory that the transport cannot reach itself
  // (a GPU heap while UCX has no CUDA support). The library stores into it, loads from it and
  // performs atomics on it (op: SYMMEM_NET_AMO_*, size 4 or 8; *old receives the old value). Each
  // returns 0, or a negative SYMMEM_ERR_* code when [addr, addr+len) is not staged memory of this
  // PE (then nothing was done). Called from the plugin's message handlers.
  void *stage_ctx;
  int (*stage_store)(void *ctx, uint64_t addr, const void *src, size_t len);
  int (*stage_load)(void *ctx, void *dst, uint64_t addr, size_t len);
  int (*stage_amo)(void *ctx, uint64_t addr, int op, unsigned size, uint64_t value, uint64_t compare, uint64_t *old);
  // A put-with-signal's signal, after its data (staged_put_signal): sets (SYMMEM_NET_AMO_SWAP) or
  // adds to (SYMMEM_NET_AMO_ADD) the 8-byte word at addr, in this PE's heap or static data, so that
  // a reader that sees the new value sees the data stored before it. 0, or a negative
  // SYMMEM_ERR_* code (nothing done). Appended: a plugin checks struct_size before it calls it.
  int (*stage_signal)(void *ctx, uint64_t addr, int op, uint64_t value);
  // Brackets the records of one batch (done 0 before the first, 1 after the last, whatever came
  // of them): between the two, stage_store may leave its stores in flight (a GPU heap: copies
  // queued on one stream, synchronised once), so `src` must stay valid until the closing call,
  // after which they are complete. Appended: a plugin checks struct_size before it calls it.
  void (*stage_batch)(void *ctx, int done);
} symmem_net_host;

typedef struct symmem_net_ops {
  uint32_t abi_version;
  uint32_t struct_size;
  void *ctx;
  const char *name;         // "ucx"
  const char *description;  // "UCX 1.13.1"
  void *default_worker;

  // Collective over all PEs (it uses host->allgather): makes endpoints from every worker to the
  // PEs listed (the remote ones, ascending; may be empty on a PE whose peers are all local).
  int (*connect)(void *ctx, const int *pes, int n, const char *call);
  // What carries the traffic to `pe`, for the route lines of SYMMEM_DEBUG=info: "tcp/veth0".
  void (*route)(void *ctx, int pe, char *text, size_t len);

  int (*worker_create)(void *ctx, int shared, void **worker, const char *call);
  void (*worker_destroy)(void *ctx, void *worker);

  // Registers [addr, addr+len) of this PE for remote access; writes its packed key (at most
  // SYMMEM_NET_KEY_MAX bytes) to key and its length to *key_len.
  int (*mem_register)(void *ctx, void *addr, size_t len, void **handle, void *key, size_t *key_len,
                      const char *call);
  void (*mem_deregister)(void *ctx, void *handle);
  // PE pe's packed key of `region` (key_len 0: forget it; later operations on it fail).
  int (*key_set)(void *ctx, int pe, uint32_t region, const void *key, size_t key_len, const char *call);
  int (*key_known)(void *ctx, int pe, uint32_t region);

  // Data operations. req == NULL: non-blocking-implicit (complete at the worker's next flush);
  // else 0 when complete, 1 with *req to test. put completes when `src` may be reused; get when
  // `dst` holds the data.
  int (*put)(void *worker, int pe, uint32_t region, uint64_t raddr, const void *src, size_t len, void **req,
             const char *call);
  int (*get)(void *worker, int pe, uint32_t region, uint64_t raddr, void *dst, size_t len, void **req,
             const char *call);
  // size 4 or 8. result == NULL: non-fetching (req must be NULL: completes at the next flush).
  // CSWAP: *result receives the old value; the swap happens when it equals `compare`.
  int (*amo)(void *worker, int pe, uint32_t region, uint64_t raddr, int op, unsigned size, uint64_t value,
             uint64_t compare, void *result, void **req, const char *call);
  // Orders the worker's earlier operations before its later ones (OpenSHMEM fence).
  int (*fence)(void *worker, const char *call);
  // Posts the completion of every earlier operation of the worker (pe < 0) or to one PE. A worker
  // flush may complete at once when no operation outside region 0 was posted since the last one.
  int (*flush)(void *worker, int pe, void **req, const char *call);
  // 0: in progress; 1: complete (the request is released); negative: failed (reported, released).
  int (*test)(void *worker, void *req, const char *call);
  // Advances the worker's communication; returns non-zero when something happened.
  int (*progress)(void *worker);
  // The job is ending: connections that break from now on are peers closing, not failures, and
  // are not reported. The library calls it before its last bootstrap barrier.
  void (*closing)(void *ctx);
  // Ends the transport (after a final flush by the library); frees ctx.
  void (*close)(void *ctx);
  // A signal: one message, no reply, no flush. `msg` is the target address (8 bytes, in memory PE
  // pe registered with mem_register, 8-byte aligned) followed by 1 to 8 words; the target stores
  // the words when it progresses its default worker, last to first, the first with release order,
  // so a reader that sees the first word sees the rest. Completes (0, or 1 with *req as for put)
  // when `msg` may be reused. NULL: the library uses put.
  int (*signal)(void *worker, int pe, const uint64_t *msg, size_t words, void **req, const char *call);
  // A counting signal: adds msg[1] to the 8-byte word at address msg[0] (as for signal) with an
  // atomic add of the target's CPU, so it is atomic with the target's own CPU atomics on the word.
  // One message, no reply, no flush; completes when `msg` may be reused. NULL: the library uses amo.
  int (*signal_add)(void *worker, int pe, const uint64_t *msg, void **req, const char *call);
  // A data signal: `head_len` bytes of `head` followed by `len` bytes of `data`, stored as one range
  // at address hdr[0], then hdr[2] added to the 8-byte word at hdr[1] (as for signal_add, with
  // release order: a reader that sees the count sees the data). Both ranges inside memory PE pe
  // registered. One message, no reply, no flush; completes when `hdr`, `head` and `data` may be
  // reused. `hdr` has SYMMEM_NET_DATA_SIGNAL_HDR words: the plugin may keep what it needs until
  // completion in the words past the third (a scatter list: the caller joins nothing). head may be
  // NULL when head_len is 0. At most SYMMEM_NET_DATA_SIGNAL_MAX bytes in all. NULL: the library
  // uses put, quiet and signal_add.
  int (*signal_put)(void *worker, int pe, uint64_t *hdr, const void *head, size_t head_len, const void *data,
                    size_t len, void **req, const char *call);
  // Staged operations, on staged memory of PE pe (symmem_net_host above): one message each, which
  // PE pe's host carries out through its stage_* callbacks when it progresses, and answers. At most
  // SYMMEM_NET_DATA_SIGNAL_MAX bytes. No key is involved.
  //  - staged_put: `src` may be reused when it returns; the store completes at the worker's next
  //    flush (which waits for the answer).
  //  - staged_get: 1 with *req; complete when `dst` (host memory) holds the data.
  //  - staged_amo: result NULL: non-fetching, completes at the next flush (req must be NULL);
  //    else 1 with *req, complete when *result (8 bytes; a 4-byte value in the low half) holds the
  //    old value.
  // A target that refuses an address (not its staged memory) answers with an error, which the
  // test of the request, or the next flush, reports.
  int (*staged_put)(void *worker, int pe, uint64_t raddr, const void *src, size_t len, const char *call);
  int (*staged_get)(void *worker, int pe, uint64_t raddr, void *dst, size_t len, void **req, const char *call);
  int (*staged_amo)(void *worker, int pe, uint64_t raddr, int op, unsigned size, uint64_t value, uint64_t compare,
                    uint64_t *result, void **req, const char *call);
  // 1 when staged puts or non-fetching staged atomics of the worker to PE pe (pe < 0: to any PE)
  // have not been answered yet, else 0. NULL: the library takes it as 1 whenever it staged any.
  int (*staged_pending)(void *worker, int pe);
  // A put with signal in one message (OpenSHMEM's putmem_signal): PE pe's host stores `len` bytes
  // (at most SYMMEM_NET_DATA_SIGNAL_MAX) at raddr through stage_store, then updates the signal word
  // at sig_raddr through stage_signal (op: SYMMEM_NET_AMO_SWAP to set, SYMMEM_NET_AMO_ADD to add),
  // and answers; counted and completed like staged_put. The data may be in the target's heap or
  // static data, staged or not. NULL: the library puts, fences and signals.
  int (*staged_put_signal)(void *worker, int pe, uint64_t raddr, const void *src, size_t len, uint64_t sig_raddr,
                           int op, uint64_t value, const char *call);
  // Sleeps until a message arrives for the worker, or `usec` microseconds pass; returns at once
  // when one is already waiting. The library calls it in place of yielding the CPU when other
  // programs compete for the CPU: a sleeping PE is woken by the message it waits for (and the
  // scheduler runs a task it wakes promptly), where a PE that yields waits for the other
  // program's time slice, a millisecond or more. Returns 1 when something may have arrived, else 0.
  // NULL: the library yields.
  int (*idle)(void *worker, unsigned usec);
  // Bounds the memory that staged messages hold: a staged put returns before the network took its
  // copy, so a program that posts puts faster than the link carries them would otherwise grow by
  // what it posted (512 MiB of 4 KiB puts across two hosts: +495 MiB). 0 when the worker's staged
  // messages not yet handed to the network hold at most SYMMEM_NET_STAGED_BACKLOG bytes; else 1
  // with *req, complete once they hold at most half of it. The library calls it after each staged
  // put and non-fetching staged atomic. NULL: no bound.
  int (*staged_backlog)(void *worker, void **req, const char *call);
  // 1 when staged operations of the worker to PE pe that store data (puts, puts with signal) have
  // not been answered yet, else 0; non-fetching atomics are left out (pe < 0: as staged_pending).
  // A get or a fetching atomic waits for these before it goes. NULL: the library asks staged_pending.
  int (*staged_stores_pending)(void *worker, int pe);
  // A non-blocking get from PE pe's host heap or static data (staged or not) into host memory
  // `dst`, carried by staged messages (batched with the worker's others to that PE): 0 when
  // posted (`dst` holds the bytes once the worker's next flush completes); 1 when the plugin does
  // not take this one (too large, or a worker it does not batch on): the library gets it with
  // get. NULL: the library always uses get.
  int (*staged_get_nbi)(void *worker, int pe, uint64_t raddr, void *dst, size_t len, const char *call);
  // GPU memory. Bit (1 << SYMMEM_NET_MEM_GPU) of mem_kinds: the transport reaches this PE's GPU
  // memory itself (UCX built with CUDA support: its cuda_copy transport, or GPUDirect RDMA on a
  // cluster's InfiniBand). Then:
  //  - mem_register_kind(kind SYMMEM_NET_MEM_GPU) registers GPU memory for remote access: the PEs
  //    given its key put to it and get from it with put and get, and this PE's CPU never touches
  //    it. Its registrations are not memory a message handler may store into (signals, data
  //    signals): the library sends no such message to it, and the plugin refuses one;
  //  - put_kind / get_kind are put / get whose local buffer (src, dst) is GPU memory.
  // No atomics on GPU memory: the library keeps them staged. 0 / NULL: host memory only.
  uint32_t mem_kinds;
  int (*mem_register_kind)(void *ctx, void *addr, size_t len, unsigned kind, void **handle, void *key,
                           size_t *key_len, const char *call);
  int (*put_kind)(void *worker, int pe, uint32_t region, uint64_t raddr, const void *src, size_t len, unsigned kind,
                  void **req, const char *call);
  int (*get_kind)(void *worker, int pe, uint32_t region, uint64_t raddr, void *dst, size_t len, unsigned kind,
                  void **req, const char *call);
} symmem_net_ops;

typedef int (*symmem_net_create_fn)(const symmem_net_host *host, symmem_net_ops *out);

#ifdef __cplusplus
}
#endif
