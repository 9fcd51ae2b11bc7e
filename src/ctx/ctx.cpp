// symmem: communication contexts.
//
// With the load/store transport every put, get and atomic completes before it returns, so to
// node-local PEs a context carries no queue of its own: it is a handle that names a team (whose PE
// numbers its operations take) and the options it was made with. To PEs on other hosts a context
// other than the default one gets a network worker of its own on its first remote operation
// (OpenSHMEM 1.5, 9.5: contexts are independent streams of communication), made without a lock
// when the context is SHMEM_CTX_PRIVATE; its ctx_quiet and ctx_fence complete and order that
// worker (docs/multihost.md, "Contexts"). Creating and destroying contexts is thread-safe.
#include "ctx/ctx.h"

#include <atomic>
#include <mutex>
#include <vector>

#include "core/remote.h"
#include "teams/team.h"

namespace symmem::ctx {
namespace {

constexpr uint32_t dead_magic = 0xdeadc7c7;

symmem_ctx_s default_ctx __attribute__((init_priority(101))){live_magic, 0, nullptr, nullptr, 0, {}, {nullptr}, 0};  // see core::g
std::mutex ctx_mutex;  // creation and destruction only
// Destroyed contexts are kept for reuse, never freed: a handle used after ctx_destroy (a second
// destroy, an operation) then reads a dead context's magic instead of freed memory. The pool is
// never destroyed either (it must outlive every handle, static destructors included).
std::vector<symmem_ctx_s *> &ctx_pool = *new std::vector<symmem_ctx_s *>;

symmem_ctx_s *new_ctx(long options, symmem_team_t team, int size) {
  std::lock_guard<std::mutex> lock(ctx_mutex);
  symmem_ctx_s *c = nullptr;
  if (ctx_pool.empty()) {
    c = new symmem_ctx_s{};
  } else {
    c = ctx_pool.back();
    ctx_pool.pop_back();
  }
  c->options = options;
  c->team = team;
  c->map = nullptr;
  c->size = size;
  c->owned.clear();
  c->worker.store(nullptr, std::memory_order_relaxed);
  c->worker_gen = 0;
  return c;
}

// The context's worker if it made one under the transport open now, else nullptr.
void *live_worker(symmem_ctx_s *c) {
  void *w = c->worker.load(std::memory_order_acquire);
  return w != nullptr && c->worker_gen == core::remote_generation() ? w : nullptr;
}

[[noreturn]] void bad_ctx(symmem_ctx_t c, const char *call) {
  if (c == nullptr) {
    fatal(call, "the context is SHMEM_CTX_INVALID (a failed ctx_create?); pass a context that was created");
  }
  fatal(call, "%p is not a live context (destroyed, or not a context); pass one from shmem_ctx_create", static_cast<void *>(c));
}

int make(symmem_team_t team, long options, symmem_ctx_t *out, const char *call) {
  if (out == nullptr) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "ctx is NULL; pass the address of a shmem_ctx_t").code();
  }
  *out = SYMMEM_CTX_INVALID;
  teams::team *t = teams::lookup(team, call, true);  // SHMEM_TEAM_INVALID: CTX_INVALID, non-zero (1.5, shmem_team_create_ctx)
  if (t == nullptr) {
    return SYMMEM_ERR_INVALID_ARGUMENT;
  }
  if (t->my_idx < 0) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "this PE is not in the team").code();
  }
  if (options & ~(SYMMEM_CTX_SERIALIZED | SYMMEM_CTX_PRIVATE | SYMMEM_CTX_NOSTORE)) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "unknown options %#lx; use SHMEM_CTX_SERIALIZED, PRIVATE, NOSTORE",
                options).code();
  }
  symmem_ctx_s *c = new_ctx(options, team, t->size);
  if (team != symmem_team_world) {
    c->owned = t->pes;
    c->map = c->owned.data();
  }
  c->magic = live_magic;
  *out = c;
  return SYMMEM_SUCCESS;
}

}  // namespace
}  // namespace symmem::ctx

namespace symmem::ctx {

int make_progressed(symmem_ctx_t *out) {
  const int rc = make(symmem_team_world, SYMMEM_CTX_PRIVATE, out, "ctx_create");
  if (rc == SYMMEM_SUCCESS) (*out)->options |= progressed_option;
  return rc;
}

void *net_worker(symmem_ctx_s *c, const char *call) {
  if (c == &default_ctx) return nullptr;
  if (void *w = live_worker(c)) return w;
  std::lock_guard<std::mutex> lock(ctx_mutex);  // once per context (a shared one may race here)
  if (void *w = live_worker(c)) return w;
  void *w = core::remote_worker_create((c->options & SYMMEM_CTX_PRIVATE) == 0, (c->options & progressed_option) != 0,
                                       call);
  c->worker_gen = core::remote_generation();
  c->worker.store(w, std::memory_order_release);
  return w;
}

}  // namespace symmem::ctx

using namespace symmem;
using namespace symmem::ctx;

extern "C" {

symmem_ctx_t const symmem_ctx_default = &default_ctx;

int symmem_ctx_create(long options, symmem_ctx_t *ctx) { return make(symmem_team_world, options, ctx, "ctx_create"); }

int symmem_team_create_ctx(symmem_team_t team, long options, symmem_ctx_t *ctx) {
  return make(team, options, ctx, "team_create_ctx");
}

void symmem_ctx_destroy(symmem_ctx_t c) {
  if (c == SYMMEM_CTX_INVALID) {
    return;  // OpenSHMEM 1.5, shmem_ctx_destroy: no operation
  }
  if (c == &default_ctx) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, "ctx_destroy", "SHMEM_CTX_DEFAULT cannot be destroyed; nothing was done");
    return;
  }
  if (c == nullptr || c->magic != live_magic) {
    bad_ctx(c, "ctx_destroy");
  }
  symmem_ctx_quiet(c);  // destroy implies quiet (1.5, shmem_ctx_destroy): of this context
  std::lock_guard<std::mutex> lock(ctx_mutex);
  if (c->magic != live_magic) {
    bad_ctx(c, "ctx_destroy");
  }
  if (void *w = live_worker(c)) core::remote_worker_destroy(w);
  c->worker.store(nullptr, std::memory_order_relaxed);
  c->magic = dead_magic;
  c->owned.clear();
  c->map = nullptr;
  ctx_pool.push_back(c);
}

int symmem_ctx_get_team(symmem_ctx_t c, symmem_team_t *team) {
  if (team == nullptr) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, "ctx_get_team", "team is NULL").code();
  }
  if (c == nullptr) {  // 1.5, shmem_ctx_get_team: SHMEM_TEAM_INVALID, non-zero
    *team = SYMMEM_TEAM_INVALID;
    return fail_quiet(SYMMEM_ERR_INVALID_ARGUMENT, "ctx_get_team", "the context is SHMEM_CTX_INVALID").code();
  }
  if (c->magic != live_magic) {
    *team = SYMMEM_TEAM_INVALID;
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, "ctx_get_team", "the context is not valid (destroyed?)").code();
  }
  *team = c == &default_ctx ? symmem_team_world : c->team;
  return SYMMEM_SUCCESS;
}

int symmem_ctx_pe(symmem_ctx_t c, int pe) {
  if (SYMMEM_LIKELY(c != nullptr && c->map == nullptr && c->magic == live_magic)) {
    return pe;  // default context and world contexts: PE numbers are world numbers
  }
  if (c == nullptr || c->magic != live_magic) {
    bad_ctx(c, "ctx operation");
  }
  if (static_cast<unsigned>(pe) >= static_cast<unsigned>(c->size)) {
    fatal("ctx operation", "PE %d is out of range for the context's team of %d PEs", pe, c->size);
  }
  return c->map[pe];
}

// A context's fence and quiet order memory as fence and quiet do (node-local operations are
// complete already) and order / complete the operations its worker carries to other hosts; a
// context that sent nothing there has no worker and nothing to complete. The default context's
// are shmem_fence and shmem_quiet, which cover the default worker only (1.5, shmem_quiet: it applies
// to the context it is given). On SHMEM_CTX_INVALID both do nothing (1.5 shmem_fence,
// shmem_quiet); a destroyed context is still an error.
void symmem_ctx_fence(symmem_ctx_t c) {
  if (c == SYMMEM_CTX_INVALID) return;
  (void)symmem_ctx_pe(c, 0);
  if (c == &default_ctx) return symmem_fence();
  std::atomic_thread_fence(std::memory_order_release);
  if (live_worker(c) != nullptr) core::remote_fence("ctx_fence", c);
}

void symmem_ctx_quiet(symmem_ctx_t c) {
  if (c == SYMMEM_CTX_INVALID) return;
  (void)symmem_ctx_pe(c, 0);
  if (c == &default_ctx) return symmem_quiet();
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (live_worker(c) != nullptr) core::remote_quiet("ctx_quiet", c);
}

namespace {
void pe_quiet(symmem_ctx_t c, const int *pes, size_t npes, const char *call) {
  if (c == SYMMEM_CTX_INVALID || npes == 0) return;  // no PE named: nothing to complete
  if (pes == nullptr) fatal(call, "target_pes is NULL with npes %zu; pass an array of %zu PE numbers", npes, npes);
  int n = symmem_n_pes();
  if (c != &default_ctx) {
    (void)symmem_ctx_pe(c, 0);  // a destroyed context is an error, named
    if (c->map != nullptr) n = c->size;  // a team's context: PE numbers in the team
  }
  for (size_t i = 0; i < npes; ++i) {
    if (pes[i] < 0 || pes[i] >= n) {
      fatal(call, "target_pes[%zu] is %d, not a PE of the context's team (0..%d)", i, pes[i], n - 1);
    }
  }
  symmem_ctx_quiet(c);
}
}  // namespace

void symmem_pe_quiet(const int *target_pes, size_t npes) { pe_quiet(&default_ctx, target_pes, npes, "pe_quiet"); }
void symmem_ctx_pe_quiet(symmem_ctx_t c, const int *target_pes, size_t npes) {
  pe_quiet(c, target_pes, npes, "ctx_pe_quiet");
}

void symmem_ctx_session_start(symmem_ctx_t c, long options, const symmem_ctx_session_config_t *config,
                              long config_mask) {
  (void)options, (void)config, (void)config_mask;
  if (c != SYMMEM_CTX_INVALID) (void)symmem_ctx_pe(c, 0);
}
void symmem_ctx_session_stop(symmem_ctx_t c) {
  if (c != SYMMEM_CTX_INVALID) (void)symmem_ctx_pe(c, 0);
}

}  // extern "C"
