// symmem: communication contexts, as the data path sees them (ctx.cpp makes and destroys them).
//
// A context names a team (whose PE numbers its operations take) and, once it has sent something
// to a PE on another host, owns a network worker of its own (docs/multihost.md, "Contexts"): its
// remote operations travel there, so its quiet completes them and nothing else, and a private
// context's worker takes no lock. Node-local operations of a context are those of the default
// context: they complete before they return.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "symmem/symmem.h"

struct symmem_ctx_s {
  uint32_t magic;
  long options;
  symmem_team_t team;
  const int *map;  // world PE of each team PE; nullptr for the world team (identity)
  int size;
  std::vector<int> owned;  // the team's PEs, copied: the context outlives nothing it points to
  // The context's network worker, made on its first remote operation (nullptr until then, and
  // always for the default context, whose operations use the transport's default worker);
  // `worker_gen` is the transport it belongs to (core::remote_generation).
  std::atomic<void *> worker{nullptr};
  uint32_t worker_gen = 0;
};

namespace symmem::ctx {

constexpr uint32_t live_magic = 0x5c7c7e11;

// The world PE of PE `pe` of context c's team; ends the job (symmem_ctx_pe) when c is not a live
// context or pe is out of range. Inline for the world team's contexts: the hot path adds a compare.
inline int world_pe(symmem_ctx_t c, int pe) {
  if (__builtin_expect(c != nullptr && c->map == nullptr && c->magic == live_magic, 1)) return pe;
  return symmem_ctx_pe(c, pe);
}

// Not an option of the API: a private context whose one thread also progresses it whenever it
// has nothing else to do (the GPU heap's proxy thread), so small operations on its worker may wait
// in a batch (net_plugin.h, SYMMEM_NET_WORKER_PROGRESSED).
constexpr long progressed_option = 1L << 40;
// Makes such a context on the world team (as symmem_ctx_create with SYMMEM_CTX_PRIVATE).
int make_progressed(symmem_ctx_t *out);

// The network worker that carries context c's operations: nullptr for the default context (the
// transport's default worker then); made on first use. Only on the miss path to remote PEs.
void *net_worker(symmem_ctx_s *c, const char *call);

}  // namespace symmem::ctx
