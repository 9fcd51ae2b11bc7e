// symmem plugin libsymmem_boot_pmix.so: a bootstrap over the PMIx server of the launcher
// (OpenMPI's mpirun, srun --mpi=pmix, prrte), for programs that do not use MPI.
//
// PE = PMIx rank in this process's namespace; job size = PMIX_JOB_SIZE. An allgather is a
// PMIx_Put of this rank's bytes under a key unique to the exchange, a commit, a fence that
// collects the data, and one PMIx_Get per rank (served from the local copy the fence brought).
// The fence is non-blocking and polled against the bootstrap deadline, so a rank that never
// arrives ends the wait; the ranks whose data the server does not hold are then named.
// PMIx stays initialized from the first init to process exit (a PMIx client cannot reliably
// finalize and start again), and keys are numbered across init..finalize cycles.
// Keys are never deleted: each exchange leaves size*len bytes in the PMIx store, which is fine for
// init and finalize, and for the few collectives that pass through the bootstrap.
#include <pmix.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <vector>

#include "plugins/common/plugin_util.h"

namespace {

using symmem::plugin::reporter;

struct pmix_boot {
  reporter rep;
  pmix_proc_t me{};
  int size = 0;
};

// Numbers the exchanges: every rank makes the same ones in the same order.
std::atomic<uint64_t> g_seq{0};
bool g_started = false;  // PMIx_Init succeeded; guarded by init's serialisation
pmix_proc_t g_me{};

void finalize_at_exit() { PMIx_Finalize(nullptr, 0); }

// Completion of a non-blocking fence. Leaked on timeout: PMIx may still call back later.
struct fence_done {
  std::atomic<int> done{0};
  pmix_status_t status = PMIX_SUCCESS;
};

void on_fence(pmix_status_t status, void *cbdata) {
  auto *f = static_cast<fence_done *>(cbdata);
  f->status = status;
  f->done.store(1, std::memory_order_release);
}

pmix_proc_t proc_of(const pmix_boot &b, pmix_rank_t rank) {
  pmix_proc_t p;
  PMIX_PROC_LOAD(&p, b.me.nspace, rank);
  return p;
}

// Ranks whose contribution to exchange `key` this process cannot see (asked without waiting).
std::vector<int> missing_ranks(const pmix_boot &b, const std::string &key) {
  std::vector<int> missing;
  bool yes = true;
  pmix_info_t info;
  PMIX_INFO_LOAD(&info, PMIX_IMMEDIATE, &yes, PMIX_BOOL);
  for (int r = 0; r < b.size; ++r) {
    pmix_proc_t p = proc_of(b, static_cast<pmix_rank_t>(r));
    pmix_value_t *val = nullptr;
    if (PMIx_Get(&p, key.c_str(), &info, 1, &val) != PMIX_SUCCESS) {
      missing.push_back(r);
    } else {
      PMIX_VALUE_RELEASE(val);
    }
  }
  PMIX_INFO_DESTRUCT(&info);
  return missing;
}

int timed_out(const pmix_boot &b, const std::string &key, const char *call, double limit) {
  std::vector<int> missing = key.empty() ? std::vector<int>{} : missing_ranks(b, key);
  std::string who = missing.empty() ? std::string("some rank") : symmem::plugin::ranks_text(missing);
  return b.rep.fail(SYMMEM_ERR_TIMEOUT, call,
                    "%s of namespace %s did not reach this step within %.0f s (the PMIx fence over %d ranks is "
                    "incomplete); raise %s if they need longer",
                    who.c_str(), b.me.nspace, limit, b.size,
                    std::strcmp(call, "init") == 0 ? "SYMMEM_BOOTSTRAP_TIMEOUT" : "SYMMEM_WAIT_TIMEOUT");
}

// A fence over the whole namespace, collecting the committed data when `collect`.
int fence(pmix_boot &b, bool collect, const std::string &key, const char *call) {
  pmix_proc_t all = proc_of(b, PMIX_RANK_WILDCARD);
  pmix_info_t info;
  PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
  auto *f = new fence_done;
  pmix_status_t rc = PMIx_Fence_nb(&all, 1, &info, 1, on_fence, f);
  PMIX_INFO_DESTRUCT(&info);
  if (rc != PMIX_SUCCESS) {
    delete f;
    return b.rep.fail(SYMMEM_ERR_BOOTSTRAP, call, "PMIx_Fence_nb failed: %s", PMIx_Error_string(rc));
  }
  const double limit = b.rep.timeout_for(call);
  symmem::plugin::stopwatch clock;
  symmem::plugin::backoff pause;
  while (f->done.load(std::memory_order_acquire) == 0) {
    if (clock.expired(limit)) {
      return timed_out(b, key, call, limit);  // f stays allocated: the callback may still come
    }
    pause.pause();
  }
  rc = f->status;
  delete f;
  if (rc != PMIX_SUCCESS) {
    return b.rep.fail(SYMMEM_ERR_PEER_GONE, call, "the PMIx fence failed: %s (a process of the job died?)",
                      PMIx_Error_string(rc));
  }
  return SYMMEM_SUCCESS;
}

int put_commit(pmix_boot &b, const std::string &key, const void *in, size_t len, const char *call) {
  pmix_value_t v;
  PMIX_VALUE_CONSTRUCT(&v);
  v.type = PMIX_BYTE_OBJECT;
  v.data.bo.bytes = static_cast<char *>(const_cast<void *>(in));
  v.data.bo.size = len;
  pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key.c_str(), &v);  // copies the bytes
  if (rc == PMIX_SUCCESS) rc = PMIx_Commit();
  if (rc != PMIX_SUCCESS) {
    return b.rep.fail(SYMMEM_ERR_BOOTSTRAP, call, "PMIx_Put/PMIx_Commit failed: %s", PMIx_Error_string(rc));
  }
  return SYMMEM_SUCCESS;
}

int get_one(pmix_boot &b, int rank, const std::string &key, void *dst, size_t len, const char *call) {
  pmix_proc_t p = proc_of(b, static_cast<pmix_rank_t>(rank));
  pmix_value_t *val = nullptr;
  pmix_status_t rc = PMIx_Get(&p, key.c_str(), nullptr, 0, &val);
  if (rc != PMIX_SUCCESS) {
    return b.rep.fail(SYMMEM_ERR_BOOTSTRAP, call, "PMIx_Get of rank %d's contribution failed: %s", rank,
                      PMIx_Error_string(rc));
  }
  int result = SYMMEM_SUCCESS;
  if (val->type != PMIX_BYTE_OBJECT || val->data.bo.size != len) {
    result = b.rep.fail(SYMMEM_ERR_MISMATCH, call,
                        "PEs disagree on a bootstrap exchange: this PE sent %zu bytes, PE %d sent %zu", len, rank,
                        val->type == PMIX_BYTE_OBJECT ? val->data.bo.size : size_t{0});
  } else if (len != 0) {
    std::memcpy(dst, val->data.bo.bytes, len);
  }
  PMIX_VALUE_RELEASE(val);
  return result;
}

int pmix_allgather(void *ctx, const void *in, void *out, size_t len, const char *call) {
  auto *b = static_cast<pmix_boot *>(ctx);
  const std::string key = "symmem.ag." + std::to_string(g_seq++);
  int rc = put_commit(*b, key, in, len, call);
  if (rc == SYMMEM_SUCCESS) rc = fence(*b, true, key, call);
  for (int r = 0; rc == SYMMEM_SUCCESS && r < b->size; ++r) {
    char *dst = static_cast<char *>(out) + static_cast<size_t>(r) * len;
    if (r == static_cast<int>(b->me.rank)) {
      std::memcpy(dst, in, len);
    } else {
      rc = get_one(*b, r, key, dst, len, call);
    }
  }
  return rc;
}

int pmix_barrier(void *ctx, const char *call) { return fence(*static_cast<pmix_boot *>(ctx), false, "", call); }

void pmix_abort_job(void *, int status, const char *message) {
  std::fflush(nullptr);
  PMIx_Abort(status, message, nullptr, 0);  // the server ends every process of the namespace
  ::_exit(status);
}

void pmix_close(void *ctx) { delete static_cast<pmix_boot *>(ctx); }

int start_pmix(const reporter &rep, pmix_proc_t &me) {
  if (!g_started) {
    pmix_status_t rc = PMIx_Init(&g_me, nullptr, 0);
    if (rc != PMIX_SUCCESS) {
      return rep.fail(SYMMEM_ERR_BOOTSTRAP, "init",
                      "PMIx_Init failed: %s; start the program with a PMIx launcher (mpirun, srun --mpi=pmix, "
                      "prterun) or choose another SYMMEM_BOOTSTRAP",
                      PMIx_Error_string(rc));
    }
    g_started = true;
    std::atexit(finalize_at_exit);
  }
  me = g_me;
  return SYMMEM_SUCCESS;
}

int job_size(pmix_boot &b) {
  pmix_proc_t all = proc_of(b, PMIX_RANK_WILDCARD);
  pmix_value_t *val = nullptr;
  pmix_status_t rc = PMIx_Get(&all, PMIX_JOB_SIZE, nullptr, 0, &val);
  if (rc != PMIX_SUCCESS) {
    return b.rep.fail(SYMMEM_ERR_BOOTSTRAP, "init", "PMIx_Get(PMIX_JOB_SIZE) failed: %s", PMIx_Error_string(rc));
  }
  b.size = val->type == PMIX_UINT32 ? static_cast<int>(val->data.uint32) : 0;
  PMIX_VALUE_RELEASE(val);
  if (b.size <= 0 || static_cast<int>(b.me.rank) >= b.size) {
    return b.rep.fail(SYMMEM_ERR_BOOTSTRAP, "init", "PMIx reports rank %u in a job of %d processes",
                      static_cast<unsigned>(b.me.rank), b.size);
  }
  return SYMMEM_SUCCESS;
}

}  // namespace

SYMMEM_PLUGIN_EXPORT int symmem_boot_plugin_create(const symmem_boot_host *host, symmem_boot_ops *out) {
  if (host == nullptr || out == nullptr || host->abi_version != SYMMEM_BOOT_ABI_VERSION) {
    return SYMMEM_ERR_BOOTSTRAP;
  }
  auto *b = new pmix_boot{};
  b->rep.host = *host;
  if (int code = start_pmix(b->rep, b->me); code != SYMMEM_SUCCESS) {
    delete b;
    return code;
  }
  b->rep.set_pe(static_cast<int>(b->me.rank));
  if (int code = job_size(*b); code != SYMMEM_SUCCESS) {
    pmix_close(b);
    return code;
  }
  *out = symmem_boot_ops{};
  out->abi_version = SYMMEM_BOOT_ABI_VERSION;
  out->struct_size = sizeof *out;
  out->ctx = b;
  out->name = "pmix";
  out->rank = static_cast<int>(b->me.rank);
  out->size = b->size;
  out->allgather = pmix_allgather;
  out->barrier = pmix_barrier;
  out->abort_job = pmix_abort_job;
  out->close = pmix_close;
  return SYMMEM_SUCCESS;
}
