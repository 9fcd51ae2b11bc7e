// symmem: init, finalize and the queries of the running job.
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "coll/coll.h"
#include "common/phases.h"
#include "core/guard.h"
#include "core/proxy_exec.h"
#include "core/remote.h"
#include "core/state.h"
#include "core/static_data.h"
#include "core/sync.h"
#include "mem/vaspace.h"
#include "teams/team.h"
#include "topo/topology.h"

namespace symmem::core {

// Constructed before the program's own globals when libsymmem is linked statically, so that a
// global constructor may call shmem_init (init_priority: the linker sorts these first).
runtime_state g __attribute__((init_priority(101)));

namespace {

std::mutex g_init_mutex;

log_level level_from(const std::string &s) {
  if (s == "off") return log_level::off;
  if (s == "info") return log_level::info;
  if (s == "trace") return log_level::trace;
  return log_level::warn;
}

size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

}  // namespace

// The GPU provider (src/cuda/) defines this when the build has CUDA; it returns nullptr (and no
// error) when no GPU is usable and SYMMEM_HEAP is auto.
status make_gpu_provider(const config::settings &cfg, std::unique_ptr<mem::provider> &out) __attribute__((weak));

status make_heap_provider(const config::settings &cfg, std::unique_ptr<mem::provider> &out) {
  if (cfg.heap_kind != "host") {
    if (make_gpu_provider != nullptr) {
      SYMMEM_TRY(make_gpu_provider(cfg, out));
      if (out) {
        return ok_status;
      }
    }
    if (cfg.heap_kind == "gpu") {
      return fail(SYMMEM_ERR_UNSUPPORTED, "init",
                  "SYMMEM_HEAP=gpu but %s; use SYMMEM_HEAP=host or auto",
                  make_gpu_provider == nullptr ? "this build has no CUDA support" : "no usable GPU was found");
    }
  }
  out = mem::make_host_provider();
  return ok_status;
}

namespace {

// What every PE tells the others at init.
struct peer_info {
  uint64_t host;       // hash of the host identity
  uint64_t nonce;      // names this PE's descriptor socket
  uint64_t heap_bytes;
  int32_t pid;
  int32_t error;       // non-zero when this PE's local checks failed (it printed why)
  data_info data;      // its global and static variables (core/static_data.h)
};

status local_checks(const config::settings &cfg) {
  size_t mem = topo::host_memory_bytes();
  if (mem != 0 && cfg.heap_bytes > mem) {
    return fail(SYMMEM_ERR_OUT_OF_MEMORY, "init",
                "the symmetric heap of %zu bytes (%s) is larger than this host's memory (%zu bytes); lower %s",
                cfg.heap_bytes, cfg.heap_bytes_source.c_str(), mem,
                cfg.heap_bytes_source == "default" ? "SYMMEM_SYMMETRIC_SIZE" : cfg.heap_bytes_source.c_str());
  }
  return ok_status;
}

status exchange_info(std::vector<peer_info> &all) {
  peer_info mine{};
  mine.host = topo::host_hash(g.cfg.hostname);
  mine.heap_bytes = g.cfg.heap_bytes;
  mine.pid = ::getpid();
  if (::getrandom(&g.nonce, sizeof g.nonce, 0) != sizeof g.nonce) {
    g.nonce = (static_cast<uint64_t>(::getpid()) << 32) ^ static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&mine));
  }
  mine.nonce = g.nonce;
  mine.data = data_prepare();
  status local = local_checks(g.cfg);
  mine.error = local.ok() ? 0 : 1;
  SYMMEM_TRY(g.fds.listen(g.nonce, "init"));
  all.resize(static_cast<size_t>(g.n_pes));
  SYMMEM_TRY(g.boot->allgather(&mine, all.data(), sizeof mine, "init"));
  SYMMEM_TRY(local);
  std::vector<data_info> data(all.size());
  for (size_t p = 0; p < all.size(); ++p) data[p] = all[p].data;
  data_agree(data);
  for (int p = 0; p < g.n_pes; ++p) {
    if (all[static_cast<size_t>(p)].error != 0) {
      return fail(SYMMEM_ERR_BOOTSTRAP, "init", "PE %d failed its init checks (its message says why); no PE can continue", p);
    }
  }
  for (int p = 0; p < g.n_pes; ++p) {
    if (all[static_cast<size_t>(p)].heap_bytes != mine.heap_bytes) {
      return fail(SYMMEM_ERR_MISMATCH, "init",
                  "the symmetric heap size differs across PEs: PE %d asks %llu bytes, this PE %llu bytes (%s); "
                  "set the same SYMMEM_SYMMETRIC_SIZE (or NVSHMEM_SYMMETRIC_SIZE) on every PE",
                  p, static_cast<unsigned long long>(all[static_cast<size_t>(p)].heap_bytes),
                  static_cast<unsigned long long>(mine.heap_bytes), g.cfg.heap_bytes_source.c_str());
    }
  }
  return ok_status;
}

// This PE's control segment: a small memfd, mapped anywhere (its address need not be common).
status make_ctrl(int &fd) {
  fd = ::memfd_create("symmem-ctrl", MFD_CLOEXEC);
  void *p = MAP_FAILED;
  if (fd >= 0 && ::ftruncate(fd, static_cast<off_t>(ctrl_bytes)) == 0) {
    p = ::mmap(nullptr, ctrl_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  if (p == MAP_FAILED) {
    return fail(SYMMEM_ERR_SYSTEM, "init", "cannot create the control segment (memfd of %zu bytes): %s", ctrl_bytes,
                std::strerror(errno));
  }
  g.ctrl_table[static_cast<size_t>(g.my_pe)] = static_cast<char *>(p);
  return ok_status;
}

status map_heap() {
  uintptr_t base = 0;
  SYMMEM_TRY(mem::agree_on_address(*g.boot, g.heap->address_space(), g.heap_size, granule_bytes, base));
  g.heap_base = base;
  return g.heap->create(base, g.heap_size);
}

// Finds the node-local PEs (same host identity) and fills local_rank_of.
std::vector<mem::fd_peer> local_peers(const std::vector<peer_info> &all) {
  std::vector<mem::fd_peer> local;
  g.local_rank_of.assign(static_cast<size_t>(g.n_pes), -1);
  const uint64_t my_host = all[static_cast<size_t>(g.my_pe)].host;
  for (int p = 0; p < g.n_pes; ++p) {
    const peer_info &pi = all[static_cast<size_t>(p)];
    if (pi.host == my_host) {
      g.local_rank_of[static_cast<size_t>(p)] = static_cast<int>(local.size());
      local.push_back(mem::fd_peer{p, pi.pid, pi.nonce});
    }
  }
  g.local_size = static_cast<int>(local.size());
  g.local_fd_peers = local;
  g.all_local = g.local_size == g.n_pes;
  return local;
}

status map_peer_ctrl(int pe, int fd) {
  void *p = ::mmap(nullptr, ctrl_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) {
    return fail(SYMMEM_ERR_SYSTEM, "init", "cannot map the control segment of PE %d: %s", pe, std::strerror(errno));
  }
  g.ctrl_table[static_cast<size_t>(pe)] = static_cast<char *>(p);
  return ok_status;
}

// Hands this PE's control segment and heap descriptors to every node-local peer and maps theirs:
// control segments anywhere, heaps into the window at window + local_index * heap_size.
status map_peers(const std::vector<peer_info> &all, int ctrl_fd) {
  std::vector<mem::fd_peer> local = local_peers(all);
  g.peer_table[static_cast<size_t>(g.my_pe)] = reinterpret_cast<char *>(g.heap_base);
  if (g.local_size == 1) {
    return ok_status;
  }
  std::vector<int> mine{ctrl_fd};
  if (int data_fd = data_export_fd(); data_fd >= 0) {
    mine.push_back(data_fd);  // peers know from data_info.shared whether it is there
  }
  for (int fd : g.heap->export_fds()) {
    mine.push_back(fd);
  }
  std::vector<std::vector<int>> got;
  SYMMEM_TRY(g.fds.exchange(g.my_pe, local, mine, got, g.cfg.bootstrap_timeout, "init"));
  g.window_size = g.heap_size * local.size();
  g.window_base = g.heap->address_space().propose(g.window_size, granule_bytes);  // GPU heap: a CUDA range
  status st = g.window_base != 0 ? ok_status
                                 : fail(SYMMEM_ERR_OUT_OF_MEMORY, "init",
                                        "cannot reserve %zu bytes of address space for the heaps of %zu node-local "
                                        "PEs; lower SYMMEM_SYMMETRIC_SIZE",
                                        g.window_size, local.size());
  for (size_t i = 0; i < local.size(); ++i) {
    const int pe = local[i].rank;
    if (pe == g.my_pe) {
      continue;
    }
    std::vector<int> fds = std::move(got[i]);
    if (st.ok() && fds.empty()) {
      st = fail(SYMMEM_ERR_BOOTSTRAP, "init", "PE %d sent no descriptors, expected its control segment", pe);
    }
    if (!st.ok()) {
      for (int fd : fds) ::close(fd);
      continue;
    }
    st = map_peer_ctrl(pe, fds[0]);
    fds.erase(fds.begin());
    if (st.ok() && all[static_cast<size_t>(pe)].data.shared != 0) {
      st = fds.empty() ? fail(SYMMEM_ERR_BOOTSTRAP, "init", "PE %d sent no static data descriptor", pe)
                       : data_map_peer(pe, fds[0]);
      if (!fds.empty()) fds.erase(fds.begin());
    }
    uintptr_t at = g.window_base + i * g.heap_size;
    if (st.ok()) st = g.heap->map_peer(pe, at, g.heap_size, std::move(fds));
    g.peer_table[static_cast<size_t>(pe)] = reinterpret_cast<char *>(at);
  }
  return st;
}

void release_range(size_t offset, size_t length) {
  remote_release(offset, length);
  g.heap->release(offset, length);
}

void teardown() {
  proxy_stop();     // a failed init's: the proxy uses the network and the ring, both go below
  g.heap_size = 0;  // first: every data-path call now takes the slow path
  remote_teardown();  // before the memory it registered goes
  data_teardown();
  g.n_pes = 0;
  g.peer_base = nullptr;
  if (g.heap) {
    g.heap->stopping();
  }
  if (g.heap) {
    g.heap->destroy();
  }
  if (g.window_base != 0 && g.heap) {
    g.heap->address_space().release(g.window_base, g.window_size);
  }
  if (g.heap_base != 0) {
    guard::arm(g.heap_base, round_up(g.user_bytes, granule_bytes));
  }
  for (char *c : g.ctrl_table) {
    if (c != nullptr) {
      ::munmap(c, ctrl_bytes);
    }
  }
  g.heap.reset();
  g.window_base = 0;
  g.window_size = 0;
  g.heap_base = 0;
  g.alloc.clear();
  g.fds.close();
  g.peer_table.clear();
  g.ctrl_table.clear();
  g.local_rank_of.clear();
  g.local_fd_peers.clear();
  boot::set_current(nullptr);
  if (g.boot) {
    g.boot->close();
    g.boot.reset();
  }
  g.sync_epoch = 0;
}

status do_init(int requested) {
  // Where init's time goes, printed at SYMMEM_DEBUG=info: milliseconds per phase.
  phase_times times;
  SYMMEM_TRY(config::load(g.cfg));
  set_log_level(level_from(g.cfg.debug));
  SYMMEM_TRY(boot::create(g.cfg, g.boot));
  times.phase("bootstrap");
  boot::set_current(g.boot.get());
  g.my_pe = g.boot->rank();
  g.n_pes = g.boot->size();
  set_log_pe(g.my_pe);
  guard::disarm();  // the previous heap's guard (init -> finalize -> init) gives its range back
  g.user_bytes = g.cfg.heap_bytes;
  g.heap_size = round_up(g.user_bytes, granule_bytes);
  g.peer_table.assign(static_cast<size_t>(g.n_pes), nullptr);
  g.ctrl_table.assign(static_cast<size_t>(g.n_pes), nullptr);
  SYMMEM_TRY(make_heap_provider(g.cfg, g.heap));
  g.heap_size = round_up(g.heap->address_bytes(g.user_bytes), granule_bytes);
  g.heap_on_cpu = g.heap->cpu_accessible();
  times.phase("heap provider");
  std::vector<peer_info> all;
  int ctrl_fd = -1;
  status st = exchange_info(all);
  if (st.ok()) times.phase("exchange");
  if (st.ok()) st = make_ctrl(ctrl_fd);
  if (st.ok()) st = map_heap();
  if (st.ok()) times.phase("heap map");
  if (st.ok()) st = map_peers(all, ctrl_fd);
  if (st.ok()) times.phase("peers map");
  if (ctrl_fd >= 0) ::close(ctrl_fd);
  if (!st.ok()) {
    return st;
  }
  g.alloc.reset(0, g.heap_size, granule_bytes, g.cfg.heap_retain, min_alignment, release_range);
  g.alloc.set_origin(g.heap_base);
  g.peer_base = g.peer_table.data();
  g.data_peer = g.data_table.data();
  g.thread_level = requested < SYMMEM_THREAD_SINGLE ? SYMMEM_THREAD_SINGLE : std::min(requested, int{SYMMEM_THREAD_MULTIPLE});
  std::vector<uint64_t> hosts;
  for (const peer_info &pi : all) hosts.push_back(pi.host);
  SYMMEM_TRY(remote_init(hosts, "init"));
  times.phase("network");
  SYMMEM_TRY(g.heap->started());
  times.phase("heap started");
  SYMMEM_TRY(g.boot->barrier("init"));
  times.phase("barrier");
  log(log_level::info, "%s heap", g.heap->kind());
  log(log_level::info, "init took (ms): %s", times.c_str());
  if (current_log_level() >= log_level::info) log(log_level::info, "%s", node_share_note().c_str());
  log(log_level::info, "initialized: %d PEs (%d on this host), heap %zu bytes at %#lx, bootstrap %s", g.n_pes,
      g.local_size, g.user_bytes, static_cast<unsigned long>(g.heap_base), g.boot->name());
  return ok_status;
}

}  // namespace

[[noreturn]] void not_initialized(const char *call) {
  if (forked_child()) {
    forked_call(call);
  }
  if (g.phase.load() == 2) {
    fatal(call, "called after symmem_finalize; the symmetric heap and every mapping are gone (call symmem_init again "
                "to start a new job)");
  }
  fatal(call, "called before symmem_init; call symmem_init (or shmem_init) first");
}

}  // namespace symmem::core

using namespace symmem;
using symmem::core::g;

extern "C" {

int symmem_init_thread(int requested, int *provided) {
  std::lock_guard<std::mutex> lock(core::g_init_mutex);
  clear_last_error();
  if (core::forked_child()) {
    core::forked_call("init");
  }
  if (g.phase.load() == 1) {
    return fail(SYMMEM_ERR_ALREADY_INITIALIZED, "init",
                "symmem is already initialized on this PE (a second init without finalize); remove the extra call, "
                "or call symmem_finalize first")
        .code();
  }
  status st = core::do_init(requested);
  if (!st.ok()) {
    core::teardown();
    return st.code();
  }
  if (provided != nullptr) {
    *provided = g.thread_level;
  }
  g.phase.store(1);
  core::set_world(g.my_pe, g.n_pes);
  teams::prepare_pool();
  core::after_init();
  return SYMMEM_SUCCESS;
}

int symmem_init(void) { return symmem_init_thread(SYMMEM_THREAD_SINGLE, nullptr); }

void symmem_query_thread(int *provided) {
  core::require_init("query_thread");
  if (provided != nullptr) {
    *provided = g.thread_level;
  }
}

void symmem_finalize(void) {
  std::lock_guard<std::mutex> lock(core::g_init_mutex);
  if (g.phase.load() != 1) {
    if (core::forked_child()) {
      core::forked_call("finalize");
    }
    (void)fail(SYMMEM_ERR_NOT_INITIALIZED, "finalize",
               g.phase.load() == 2 ? "symmem is already finalized; the second call does nothing"
                                   : "called before symmem_init; it does nothing");
    return;
  }
  symmem_quiet();
  g.heap->quiesce();  // no kernel of this PE may write into a peer's heap once that peer tears down
  // The GPU heap's proxy: its producers (this PE's kernels) are done, and quiesce completed what
  // they posted. It stops here, not in teardown: the flush of every network worker below must not
  // run while the proxy thread still uses its own, and that flush must come before the barrier.
  core::proxy_stop();
  core::call_record rec{core::call_finalize, 1, 0, 0};
  status st = core::remote_quiesce("finalize");
  if (st.ok()) st = core::collective_sync(rec, "finalize");
  if (st.ok()) st = core::remote_finalize("finalize");
  if (!st.ok()) {
    fatal("finalize", "the PEs did not finalize together%s; ending the job",
          core::exit_finalizing() ? " (this PE returned from main without calling symmem_finalize (shmem_finalize): "
                                    "the finalize made for it at exit met the others' other calls)"
                                  : "");
  }
  core::teardown();
  core::set_world(-1, 0);
  g.phase.store(2);
}

int symmem_initialized(void) { return g.phase.load() == 1 ? 1 : 0; }

void symmem_global_exit(int status) {
  std::fflush(nullptr);
  if (boot::bootstrap *b = boot::current()) {
    b->abort_job(status, strfmt("PE %d called global_exit(%d)", g.my_pe, status));
  }
  ::_exit(status);
}

int symmem_detail_world[2] = {-1, 0};

int symmem_my_pe(void) {
  core::require_init("my_pe");
  return g.my_pe;
}

int symmem_n_pes(void) {
  core::require_init("n_pes");
  return g.n_pes;
}

void symmem_info_get_version(int *major, int *minor) {
  if (major) *major = SYMMEM_SHMEM_SPEC_MAJOR;
  if (minor) *minor = SYMMEM_SHMEM_SPEC_MINOR;
}

void symmem_info_get_name(char *name) {
  if (name != nullptr) {
    std::snprintf(name, 256, "symmem %s", SYMMEM_VERSION_STRING);
  }
}

const char *symmem_version_string(void) { return SYMMEM_VERSION_STRING; }

const char *symmem_bootstrap_name(void) { return g.boot ? g.boot->name() : "none"; }

void *symmem_heap_base(void) {
  core::require_init("heap_base");
  return reinterpret_cast<void *>(g.heap_base);
}

size_t symmem_heap_size(void) {
  core::require_init("heap_size");
  return g.heap_size;
}

}  // extern "C"
