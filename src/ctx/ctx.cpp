// symmem: communication contexts.
//
// With the load/store transport every put, get and atomic completes before it returns, so a context
// carries no queue of its own: it is a handle that names a team (whose PE numbers its operations
// take) and the options it was made with. ctx_fence and ctx_quiet are fence and quiet: they order
// memory, and complete the network transport's operations when the job spans hosts (every context
// shares its default worker; docs/multihost.md). Creating and destroying contexts is thread-safe.
#include <atomic>
#include <mutex>
#include <vector>

#include "teams/team.h"

struct symmem_ctx_s {
  uint32_t magic;
  long options;
  symmem_team_t team;
  const int *map;  // world PE of each team PE; nullptr for the world team (identity)
  int size;
  std::vector<int> owned;  // the team's PEs, copied: the context outlives nothing it points to
};

namespace symmem::ctx {
namespace {

constexpr uint32_t live_magic = 0x5c7c7e11;
constexpr uint32_t dead_magic = 0xdeadc7c7;

symmem_ctx_s default_ctx __attribute__((init_priority(101))){live_magic, 0, nullptr, nullptr, 0, {}};  // see core::g
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
  return c;
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
  symmem_quiet();  // destroy implies quiet
  std::lock_guard<std::mutex> lock(ctx_mutex);
  if (c == nullptr || c->magic != live_magic) {
    bad_ctx(c, "ctx_destroy");
  }
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

// Every context's operations to PEs on other hosts travel on the transport's default worker, so a
// context's fence and quiet are those of the default context (a superset: correct, not minimal).
// On SHMEM_CTX_INVALID both do nothing (OpenSHMEM 1.5 shmem_fence, shmem_quiet); a destroyed
// context is still an error.
void symmem_ctx_fence(symmem_ctx_t c) {
  if (c == SYMMEM_CTX_INVALID) return;
  (void)symmem_ctx_pe(c, 0);
  symmem_fence();
}

void symmem_ctx_quiet(symmem_ctx_t c) {
  if (c == SYMMEM_CTX_INVALID) return;
  (void)symmem_ctx_pe(c, 0);
  symmem_quiet();
}

}  // extern "C"
