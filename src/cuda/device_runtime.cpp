// symmem: the runtime side of the device API: the device sync area, the device-state registry,
// the *_on_stream host routines, host AMOs on a GPU heap, completing a PE's GPU work, and the
// proxy ring through which kernels reach PEs on other hosts.
#include <sched.h>
#include <atomic>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "common/phases.h"
#include "core/proxy_exec.h"
#include "core/remote.h"
#include "core/state.h"
#include "cuda/cu_api.h"
#include "cuda/device_runtime.h"
#include "cuda/gpu.h"
#include "cuda/kernels.h"
#include "net/proxy.h"
#include "symmem/cuda.h"
#include "symmem/detail/device_state.h"

namespace symmem::cuda {
namespace {

std::mutex g_reg_mutex;
// A function-local static: device code in other shared objects registers from their static
// constructors, which may run before this file's globals are constructed.
std::vector<std::pair<symmem_device_state_update_fn, void *>> &consumers() {
  static std::vector<std::pair<symmem_device_state_update_fn, void *>> c;
  return c;
}
symmem_device_state g_state{};  // version 0 outside init..finalize
CUdeviceptr g_ext_table = 0;    // peer table for jobs of more than SYMMEM_DEVICE_MAX_PES PEs
std::mutex g_amo_mutex;
uint64_t *g_amo_result = nullptr;  // host-mapped: the AMO kernel writes the old value here
// The proxy ring (symmem/detail/proxy_ring.h), when some PE is on another host: slots in mapped
// pinned memory, the producers' ticket counter in device memory. 1024 slots of 120 bytes: a
// kernel's threads block on a full ring only past 1024 requests in flight. The lanes of a warp
// that claim together wait until all their slots are free (symmem_proxy_claim_n): the ring must
// hold 32 spans of the largest size at once.
constexpr uint64_t ring_slots = 1024;
static_assert(ring_slots >= 32 * (SYMMEM_PROXY_SPAN_MOST + SYMMEM_PROXY_SPAN_MORE) / SYMMEM_PROXY_SPAN_MORE,
              "a warp's lanes claiming together must fit in the ring");
symmem_proxy_ring *g_ring = nullptr;
CUdeviceptr g_ring_dev = 0, g_ring_tickets = 0;

}  // namespace

std::atomic<bool> g_gpu_heap_requested{false};

bool device_code_present() {
  std::lock_guard<std::mutex> lock(g_reg_mutex);
  return !consumers().empty() || g_gpu_heap_requested.load();
}

namespace {

void publish() {
  std::lock_guard<std::mutex> lock(g_reg_mutex);
  for (auto &[fn, ctx] : consumers()) fn(&g_state, ctx);
  publish_library_state(&g_state);
}

status fill_state(size_t sync_offset, size_t scratch_offset, size_t ll_offset) {
  const core::runtime_state &g = core::g;
  g_state = symmem_device_state{};
  g_state.my_pe = g.my_pe;
  g_state.n_pes = g.n_pes;
  // GPU-scope fences and polls only when every PE is on this GPU and none is reached through the
  // network: a remote PE's stores into this heap are the host's copy-engine writes on its behalf,
  // which only system-scope accesses are ordered with (PTX memory model: scopes).
  g_state.gpu_scope_ok = gpu.gpu_scope_ok && !g.remote ? 1 : 0;  // g.remote: the job spans hosts
  g_state.heap_base = g.heap_base;
  g_state.heap_size = g.heap_size;
  g_state.sync_offset = sync_offset;
  g_state.sync_bytes = sizeof(symmem_device_sync);
  g_state.reduce_scratch_offset = scratch_offset;
  g_state.ll_offset = ll_offset;
  g_state.spin_limit_ns = static_cast<uint64_t>(g.cfg.wait_timeout * 1e9);
  std::vector<uint64_t> table(static_cast<size_t>(g.n_pes));
  for (int p = 0; p < g.n_pes; ++p) {
    table[static_cast<size_t>(p)] = reinterpret_cast<uint64_t>(g.peer_table[static_cast<size_t>(p)]);
    // Per peer: system scope for a heap on another GPU (device_state.h).
    const bool same = static_cast<size_t>(p) < gpu.peer_same_gpu.size() && gpu.peer_same_gpu[static_cast<size_t>(p)] != 0;
    if (table[static_cast<size_t>(p)] != 0 && !same) table[static_cast<size_t>(p)] |= SYMMEM_DEVICE_PEER_SYS;
    if (p < SYMMEM_DEVICE_MAX_PES) g_state.peer_base[p] = table[static_cast<size_t>(p)];
  }
  if (g.n_pes > SYMMEM_DEVICE_MAX_PES) {
    CUresult e = cu.cuMemAlloc(&g_ext_table, table.size() * sizeof(uint64_t));
    if (e == CUDA_SUCCESS) e = cu.cuMemcpyHtoD(g_ext_table, table.data(), table.size() * sizeof(uint64_t));
    if (e != CUDA_SUCCESS) return cu_fail(e, "init", "storing the device peer table", "use fewer PEs");
    g_state.peer_base_ext = reinterpret_cast<uint64_t *>(g_ext_table);
  }
  g_state.teams = team_table();
  g_state.proxy_ring = g_ring_dev;
  g_state.proxy_ring_host = reinterpret_cast<uint64_t>(g_ring);
  g_state.version = SYMMEM_DEVICE_STATE_VERSION;
  return ok_status;
}

// Requests from PEs on other hosts into this heap are carried out by this process's host threads
// with CUDA calls (copies, atomic kernels), while kernels here may wait for them. Under CUDA's lazy
// loading the first launch of a kernel waits for the running kernels (CUDA's documented hazard)
// and holds every other CUDA call of the process meanwhile: a kernel waiting for a put or a
// barrier epoch from another host, and a launch of a kernel not yet loaded, then wait for each
// other. symmem-run sets CUDA_MODULE_LOADING=EAGER for jobs across hosts; other launchers must.
void warn_lazy_loading() {
  CUmoduleLoadingMode mode{};
  if (core::g.my_pe != 0 || cu.cuModuleGetLoadingMode(&mode) != CUDA_SUCCESS || mode != CU_MODULE_LAZY_LOADING) return;
  warn("init: CUDA loads kernels lazily (CUDA_MODULE_LOADING=LAZY, CUDA's default) and this job's GPU heap spans "
       "hosts: a kernel's first launch then waits for running kernels, and a kernel that waits for a PE on another "
       "host can deadlock with it; set CUDA_MODULE_LOADING=EAGER in every PE's environment (symmem-run --hosts does "
       "unless you set it)");
}

// The proxy thread needs a CPU beside the PE's own thread, which spins in CUDA's stream and
// device synchronisations: pinned to one CPU, the two take turns in time slices and a kernel's
// request to another host waits milliseconds (a device barrier across two hosts: 30 us with CPUs
// to spare, 50-350 us with one CPU per PE on an H200 machine). A PE bound to one CPU (mpirun's
// default) has its proxy thread on the machine's other CPUs (common/helper_thread.h); the warning
// is for when it could not (no other CPU allowed, or SYMMEM_HELPER_CPUS=bound).
void warn_single_cpu(int proxy_cpus) {
  cpu_set_t allowed;
  if (core::g.my_pe != 0 || proxy_cpus > 0 || ::sched_getaffinity(0, sizeof allowed, &allowed) != 0 ||
      CPU_COUNT(&allowed) != 1) {
    return;
  }
  warn("init: this PE may run on one CPU only, and so does the proxy thread that carries its kernels' requests to "
       "PEs on other hosts (%s): the two take turns, so those requests wait for time slices; give each PE two CPUs "
       "or more (symmem-run --bind-to auto does when they fit; mpirun --map-by slot:PE=2, srun --cpus-per-task=2)",
       core::g.cfg.helper_cpus == "bound" ? "SYMMEM_HELPER_CPUS=bound" : "no other CPU is allowed");
}

// With some PE on another host: the ring, and the proxy thread that serves it (no ring, no
// thread, no cost when every PE is mapped here).
status start_proxy() {
  if (!core::g.remote) return ok_status;  // the job spans hosts: every PE then has a remote peer
  warn_lazy_loading();
  void *mem = nullptr;
  CUresult e = cu.cuMemHostAlloc(&mem, symmem_proxy_ring_bytes(ring_slots), CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
  if (e != CUDA_SUCCESS) {
    return cu_fail(e, "init", "allocating the proxy ring for kernels' operations on PEs on other hosts",
                   "check pinned-memory limits (ulimit -l)");
  }
  g_ring = net::proxy::init_ring(mem, ring_slots);
  const uint64_t zero[2] = {0, 0};  // the ticket counter and the producers' bound of tail (proxy_ring.h)
  e = cu.cuMemAlloc(&g_ring_tickets, sizeof zero);
  if (e == CUDA_SUCCESS) e = cu.cuMemcpyHtoD(g_ring_tickets, zero, sizeof zero);
  if (e == CUDA_SUCCESS) e = cu.cuMemHostGetDevicePointer(&g_ring_dev, mem, 0);
  if (e != CUDA_SUCCESS) return cu_fail(e, "init", "setting up the proxy ring", "check the GPU");
  g_ring->head_addr = g_ring_tickets;
  warn_single_cpu(core::proxy_start(g_ring));
  return ok_status;
}

// After the proxy stopped (finalize stops it; a failed init's teardown too).
void free_ring() {
  core::proxy_stop();
  if (g_ring_tickets != 0) (void)cu.cuMemFree(g_ring_tickets);
  if (g_ring != nullptr) (void)cu.cuMemFreeHost(g_ring);
  g_ring_tickets = g_ring_dev = 0;
  g_ring = nullptr;
}

}  // namespace

bool proxy_ring_active() { return g_ring != nullptr; }

void check_remote_range(const void *addr, size_t n, int pe, const char *call) {
  const uintptr_t off = reinterpret_cast<uintptr_t>(addr) - core::g.heap_base;
  if (off >= core::g.heap_size || n > core::g.heap_size - off) core::bad_target(addr, n, pe, call);
}

bool stream_remote(const remote_args &a, const void *addr, size_t n, void *stream, const char *call) {
  if (g_ring == nullptr || !core::is_remote(a.pe)) return false;
  check_remote_range(addr, n, a.pe, call);
  check_launch([&] { return launch_remote(a, reinterpret_cast<CUstream>(stream)); }, call);
  return true;
}

size_t device_sync_offset() { return g_state.sync_offset; }
const symmem_device_state &device_state() { return g_state; }

bool gpu_heap(const char *call) {
  core::require_init(call);
  if (core::g.heap_on_cpu) {
    fatal(call, "needs the symmetric heap in GPU memory, but this job's heap is in host memory (SYMMEM_HEAP=%s); "
                "run with a GPU and SYMMEM_HEAP=auto or gpu",
          core::g.cfg.heap_kind.c_str());
  }
  make_current();
  return true;
}

void check_launch_result(int err, int pending, const char *call) {
  if (err != 0) fatal(call, "launching the kernel failed: %s", launch_error_text(err));
  if (pending != 0) {
    warn("%s: an earlier CUDA call of this thread had failed (%s) and its error was still pending; it is not this "
         "call's, which went ahead (check the return value of each CUDA call, or cudaGetLastError after it)",
         call, launch_error_text(pending));
  }
}

int wave_blocks() {
  static int blocks = [] {
    int sms = 0;
    (void)cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu.ordinal);
    return sms > 0 ? 2 * sms : 264;  // two 1024-thread blocks per SM: one full wave
  }();
  return blocks;
}

namespace {

void check_cu(CUresult e, const char *call, const char *what) {
  if (e != CUDA_SUCCESS) fatal(call, "%s: %s", what, cu_text(e).c_str());
}

// Measured on the H200 (docs/gpu.md): a copy kernel beats the copy engine up to tens of MiB
// (2 MiB: ~400 vs ~200-290 GB/s; 16 MiB: ~2350 vs ~1840), the copy engine wins from 64 MiB up
// (256 MiB: ~1950 vs ~1765). So: the kernel for device-accessible buffers below this size, the
// copy engine above it and for pageable host memory.
constexpr size_t kernel_copy_limit = size_t(32) << 20;

void stream_copy(void *dst, const void *src, size_t n, const void *user_buf, cudaStream_t stream, const char *call) {
  const int max_blocks = wave_blocks();
  // The GPU heap is device memory: only a buffer outside it costs a driver query.
  if (n < kernel_copy_limit && (!core::cpu_memory(user_buf) || device_accessible(user_buf))) {
    check_launch([&] { return launch_copy(dst, src, n, max_blocks, reinterpret_cast<CUstream>(stream)); }, call);
    return;
  }
  check_cu(cu.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src), n,
                            reinterpret_cast<CUstream>(stream)),
           call, "enqueueing the copy");
}

// barrier_all and sync_all are one barrier: its flag stores are releases (cumulative), which is
// what completing earlier puts means for load/store puts (see device.cuh).
void stream_barrier(cudaStream_t stream, const char *call) {
  gpu_heap(call);
  check_launch([&] { return launch_barrier(0, reinterpret_cast<CUstream>(stream)); }, call);
}

}  // namespace
}  // namespace symmem::cuda

using symmem::core::g;
namespace sc = symmem::cuda;

namespace symmem::core {

namespace {

// A heap allocation every PE makes at init in the same order: the same offset on every PE.
status runtime_block(size_t bytes, const char *what, size_t &off) {
  std::optional<size_t> at;
  {
    std::lock_guard lock(g.alloc_mutex);
    at = g.alloc.allocate(bytes, 4096);
  }
  if (!at) {
    return fail(SYMMEM_ERR_OUT_OF_MEMORY, "init", "the heap has no room for %s (%zu bytes); raise SYMMEM_SYMMETRIC_SIZE",
                what, bytes);
  }
  SYMMEM_TRY(g.heap->commit(*at, bytes));
  SYMMEM_TRY(core::remote_commit(*at, bytes, "init"));  // PEs on other hosts reach it too
  g.heap->zero(reinterpret_cast<void *>(g.heap_base + *at), bytes);
  off = *at;
  return ok_status;
}

// One block per team index (device_state.h): 4 MiB, only in jobs that span hosts.
status reserve_reduce_scratch(size_t &off) {
  return runtime_block(size_t{SYMMEM_DEVICE_MAX_TEAMS} * SYMMEM_DEVICE_REDUCE_SCRATCH_BYTES,
                       "the device reductions' scratch", off);
}

}  // namespace

// The runtime's blocks (each 4 KiB aligned) come out of the three granules the heap reserves for
// them beyond the size the program asked for (gpu_provider.cpp, address_bytes).
static_assert(sizeof(symmem_device_sync) + size_t{SYMMEM_DEVICE_LL_AREA_BYTES} +
                      size_t{SYMMEM_DEVICE_MAX_TEAMS} * SYMMEM_DEVICE_REDUCE_SCRATCH_BYTES + 3 * 4096 <=
                  3 * core::granule_bytes,
              "the runtime's device blocks outgrow the heap's three spare granules");

// The device sync area is the heap's first allocation, so its offset is the same on every PE.
status gpu_after_init() {
  // Where the GPU part of init goes, printed at SYMMEM_DEBUG=info (milliseconds).
  phase_times times;
  sc::make_current();
  size_t off = 0;
  SYMMEM_TRY(runtime_block(sizeof(symmem_device_sync), "the device sync area", off));
  sc::g_state.sync_offset = off;  // teams_init reads it
  size_t scratch = 0;
  if (g.remote) SYMMEM_TRY(reserve_reduce_scratch(scratch));  // device reductions across hosts fetch into it
  size_t ll = 0;  // small device fcollects and broadcasts without barriers
  SYMMEM_TRY(runtime_block(size_t{SYMMEM_DEVICE_LL_AREA_BYTES}, "the device LL areas", ll));
  times.phase("runtime blocks");
  if (const int err = sc::preload_kernels(); err != 0) {
    return fail(SYMMEM_ERR_SYSTEM, "init", "loading symmem's GPU kernels failed: %s", sc::launch_error_text(err));
  }
  times.phase("kernels");
  sc::teams_init();
  times.phase("teams");
  CUresult e = sc::cu.cuMemHostAlloc(reinterpret_cast<void **>(&sc::g_amo_result), 64,
                              CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
  if (e != CUDA_SUCCESS) {
    sc::g_amo_result = nullptr;
    return sc::cu_fail(e, "init", "allocating the host-AMO result word", "check pinned-memory limits (ulimit -l)");
  }
  SYMMEM_TRY(sc::start_proxy());
  times.phase("proxy");
  SYMMEM_TRY(sc::fill_state(off, scratch, ll));
  sc::publish();
  times.phase("state");
  log(log_level::info, "GPU init took (ms): %s", times.c_str());
  return ok_status;
}

// Every kernel of this PE done, and what they posted into the proxy ring complete: a quiet through
// the ring (a one-thread kernel), since a kernel may end with puts to remote PEs still in flight.
void gpu_quiesce() {
  sc::make_current();
  CUresult e = sc::cu.cuCtxSynchronize();
  if (e == CUDA_SUCCESS && sc::g_ring != nullptr) {
    sc::remote_args q{};
    q.kind = sc::remote_quiet;
    const int pending = sc::take_pending_error();  // the program's, not the launch's (check_launch)
    const int err = sc::launch_remote(q, sc::gpu.wait_stream);  // not gpu.stream: see gpu.h
    if (err == 0) sc::check_launch_result(0, pending, "barrier_all");
    e = err != 0 ? CUDA_ERROR_LAUNCH_FAILED : sc::cu.cuStreamSynchronize(sc::gpu.wait_stream);
  }
  if (e != CUDA_SUCCESS) {
    fatal("barrier_all", "waiting for this PE's GPU work failed: %s (a kernel faulted or trapped; its message, if "
                         "any, is above)",
          sc::cu_text(e).c_str());
  }
}

void gpu_before_teardown() {
  sc::make_current();
  (void)sc::cu.cuCtxSynchronize();
  sc::g_state = symmem_device_state{};
  sc::publish();
  sc::free_ring();
  sc::teams_fini();
  if (sc::g_ext_table != 0) (void)sc::cu.cuMemFree(sc::g_ext_table);
  sc::g_ext_table = 0;
  if (sc::g_amo_result != nullptr) (void)sc::cu.cuMemFreeHost(sc::g_amo_result);
  sc::g_amo_result = nullptr;
}

// Host AMOs on a GPU heap (core/amo.cpp): a one-thread kernel with system-scope atomics on the
// private stream, so they are atomic with respect to device AMOs, and never queue behind user work.
uint64_t gpu_amo(int op, void *target, unsigned size, bool is_float, uint64_t a, uint64_t b) {
  sc::make_current();
  std::lock_guard<std::mutex> lock(sc::g_amo_mutex);
  sc::check_launch([&] { return sc::launch_amo(op, target, size, is_float, a, b, sc::g_amo_result, sc::gpu.stream); }, "atomic");
  sc::check_cu(sc::cu.cuStreamSynchronize(sc::gpu.stream), "atomic", "the atomic kernel failed");
  return *static_cast<volatile uint64_t *>(sc::g_amo_result);
}

}  // namespace symmem::core

extern "C" {

void symmem_request_gpu_heap(void) { sc::g_gpu_heap_requested.store(true); }

void symmem_device_state_register(symmem_device_state_update_fn update, void *ctx) {
  if (update == nullptr) return;
  std::lock_guard<std::mutex> lock(sc::g_reg_mutex);
  sc::consumers().emplace_back(update, ctx);
  if (sc::g_state.version != 0) update(&sc::g_state, ctx);  // loaded after init (dlopen)
}

int symmem_heap_on_gpu(void) {
  symmem::core::require_init("heap_on_gpu");
  return g.heap_on_cpu ? 0 : 1;
}

int symmem_gpu_device(void) {
  symmem::core::require_init("gpu_device");
  return g.heap_on_cpu ? -1 : sc::gpu.ordinal;
}

// To a PE on another host, each of these is a one-thread kernel on the stream that issues the
// operation through the proxy ring (stream_remote): the put and the put-with-signal complete before
// it ends (their source may be reused by the stream's later work), a p or a signal is posted and
// completes at quiet_on_stream.
void symmem_putmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, cudaStream_t stream) {
  if (nbytes == 0 || !sc::gpu_heap("putmem_on_stream")) return;
  if (sc::stream_remote({sc::remote_put, pe, dest, source, nbytes, nullptr, 0, 0}, dest, nbytes, stream,
                        "putmem_on_stream"))
    return;
  sc::stream_copy(symmem::core::translate_heap(dest, nbytes, pe, "putmem_on_stream"), source, nbytes, source, stream,
                  "putmem_on_stream");
}

void symmem_getmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, cudaStream_t stream) {
  if (nbytes == 0 || !sc::gpu_heap("getmem_on_stream")) return;
  if (sc::stream_remote({sc::remote_get, pe, dest, source, nbytes, nullptr, 0, 0}, source, nbytes, stream,
                        "getmem_on_stream"))
    return;
  sc::stream_copy(dest, symmem::core::translate_heap(source, nbytes, pe, "getmem_on_stream"), nbytes, dest, stream,
                  "getmem_on_stream");
}

// Puts enqueued on a stream (copies, kernels' stores) complete in stream order, and a kernel's
// stores are visible system-wide when it ends: later work on the stream already sees them. What
// the stream's kernels posted into the proxy ring is not: with a ring, a QUIET through it.
void symmem_quiet_on_stream(cudaStream_t stream) {
  sc::gpu_heap("quiet_on_stream");
  if (!sc::proxy_ring_active()) return;
  sc::remote_args q{};
  q.kind = sc::remote_quiet;
  sc::check_launch([&] { return sc::launch_remote(q, reinterpret_cast<CUstream>(stream)); }, "quiet_on_stream");
}

void symmem_barrier_all_on_stream(cudaStream_t stream) { sc::stream_barrier(stream, "barrier_all_on_stream"); }
void symmem_sync_all_on_stream(cudaStream_t stream) { sc::stream_barrier(stream, "sync_all_on_stream"); }

void symmem_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value, cudaStream_t stream) {
  sc::gpu_heap("signal_wait_until_on_stream");
  if (cmp < SYMMEM_CMP_EQ || cmp > SYMMEM_CMP_LE) {
    symmem::fatal("signal_wait_until_on_stream", "comparison %d is not one of SYMMEM_CMP_EQ..LE (0..5)", cmp);
  }
  const uint64_t *sig = reinterpret_cast<const uint64_t *>(
      symmem::core::translate_heap(sig_addr, sizeof(uint64_t), g.my_pe, "signal_wait_until_on_stream"));
  sc::check_launch(
      [&] {
        return sc::launch_signal_wait(sig, cmp, cmp_value, sc::g_state.gpu_scope_ok, sc::g_state.spin_limit_ns, g.my_pe,
                                      reinterpret_cast<CUstream>(stream));
      },
      "signal_wait_until_on_stream");
}

void symmem_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, cudaStream_t stream) {
  sc::gpu_heap("signal_op_on_stream");
  if (sig_op != SYMMEM_SIGNAL_SET && sig_op != SYMMEM_SIGNAL_ADD) {
    symmem::fatal("signal_op_on_stream", "operation %d is neither SYMMEM_SIGNAL_SET nor SYMMEM_SIGNAL_ADD", sig_op);
  }
  if (sc::stream_remote({sc::remote_signal, pe, nullptr, nullptr, 0, sig_addr, signal, sig_op}, sig_addr,
                        sizeof(uint64_t), stream, "signal_op_on_stream"))
    return;
  uint64_t *t = reinterpret_cast<uint64_t *>(symmem::core::translate_heap(sig_addr, sizeof(uint64_t), pe, "signal_op_on_stream"));
  sc::check_launch(
      [&] { return sc::launch_signal_op(t, signal, sig_op, sc::g_state.gpu_scope_ok, reinterpret_cast<CUstream>(stream)); },
      "signal_op_on_stream");
}

}  // extern "C"
