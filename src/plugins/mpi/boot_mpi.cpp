// symmem plugin libsymmem_boot_mpi.so: a bootstrap over an MPI communicator.
//
// Requests: "comm" (symmem_init_attr with SYMMEM_INIT_WITH_MPI_COMM: MPI is already up), "world"
// and "auto" (SYMMEM_BOOTSTRAP=mpi, or an MPI launcher found under auto: MPI_COMM_WORLD, and MPI
// is initialized here when the program has not done it).
//
// The plugin works on a duplicate of the communicator, so its traffic never matches the
// program's, and sets MPI_ERRORS_RETURN on it so that a failure is reported rather than fatal.
// Every collective is non-blocking and polled against a deadline: MPI itself would wait forever
// for a rank that never arrives. MPI cannot say which rank is missing; mpirun names ranks that
// died (it ends the job when one does).
//
// MPI lifetime: when this plugin initialized MPI, it finalizes it at process exit (not at
// symmem_finalize), so that symmem can init again and the program can use MPI after
// symmem_finalize. When the program initialized MPI, the program finalizes it.
#include <mpi.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "plugins/common/plugin_util.h"

namespace {

using symmem::plugin::reporter;

std::atomic<bool> g_we_initialized{false};
std::atomic<bool> g_broken{false};  // a collective timed out: MPI_Finalize would hang

std::string mpi_error(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) {
    return "MPI error " + std::to_string(rc);
  }
  return std::string(text, static_cast<size_t>(len));
}

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (g_we_initialized.load() && finalized == 0 && !g_broken.load()) {
    MPI_Finalize();
  }
}

// Ends the process when MPI_Init does not return in time: it waits for every process of the
// job, and a program blocked inside it cannot report anything.
class init_watchdog {
 public:
  init_watchdog(const reporter &rep, double limit) : rep_(rep), limit_(limit) {
    if (limit_ > 0) {
      thread_ = std::thread([this] { watch(); });
    }
  }
  ~init_watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (cv_.wait_for(lock, std::chrono::duration<double>(limit_), [this] { return done_; })) {
      return;
    }
    rep_.fail(SYMMEM_ERR_TIMEOUT, "init",
              "MPI_Init did not return within %.0f s: it waits for every process of the job, and some have not "
              "started MPI; ending this process (raise SYMMEM_BOOTSTRAP_TIMEOUT if they need longer)",
              limit_);
    std::fflush(nullptr);
    ::_exit(1);
  }

  const reporter &rep_;
  double limit_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

int start_mpi(const reporter &rep) {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized != 0) {
    return rep.fail(SYMMEM_ERR_BOOTSTRAP, "init",
                    "MPI was already finalized in this process and cannot start again; call symmem_init before "
                    "MPI_Finalize");
  }
  if (initialized != 0) {
    return SYMMEM_SUCCESS;
  }
  int provided = 0;
  int rc;
  {
    init_watchdog dog(rep, rep.host.bootstrap_timeout_s);
    rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
  }
  if (rc != MPI_SUCCESS) {
    return rep.fail(SYMMEM_ERR_BOOTSTRAP, "init", "MPI_Init_thread failed: %s", mpi_error(rc).c_str());
  }
  if (!g_we_initialized.exchange(true)) {
    std::atexit(finalize_at_exit);
  }
  return SYMMEM_SUCCESS;
}

struct mpi_boot {
  reporter rep;
  MPI_Comm comm = MPI_COMM_NULL;
  int size = 0;

  // Polls a pending request until it completes or the wait bound for `call` passes.
  int wait(MPI_Request &req, const char *call, const char *what) const {
    const double limit = rep.timeout_for(call);
    symmem::plugin::stopwatch clock;
    symmem::plugin::backoff pause;
    for (;;) {
      int done = 0;
      int rc = MPI_Test(&req, &done, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) {
        return rep.fail(SYMMEM_ERR_BOOTSTRAP, call, "%s failed: %s", what, mpi_error(rc).c_str());
      }
      if (done != 0) {
        return SYMMEM_SUCCESS;
      }
      if (clock.expired(limit)) {
        g_broken.store(true);
        return rep.fail(SYMMEM_ERR_TIMEOUT, call,
                        "%s over the %d ranks did not complete within %.0f s: some rank has not reached this step "
                        "(MPI cannot tell which; every rank of the communicator must call it); raise %s if they "
                        "need longer",
                        what, size, limit,
                        std::strcmp(call, "init") == 0 ? "SYMMEM_BOOTSTRAP_TIMEOUT" : "SYMMEM_WAIT_TIMEOUT");
      }
      pause.pause();
    }
  }
};

int mpi_allgather(void *ctx, const void *in, void *out, size_t len, const char *call) {
  auto *b = static_cast<mpi_boot *>(ctx);
  if (len > static_cast<size_t>(INT_MAX)) {
    return b->rep.fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
                       "a bootstrap exchange of %zu bytes is larger than MPI's "
                       "int count allows",
                       len);
  }
  const int n = static_cast<int>(len);
  MPI_Request req = MPI_REQUEST_NULL;
  int rc = MPI_Iallgather(in, n, MPI_BYTE, out, n, MPI_BYTE, b->comm, &req);
  if (rc != MPI_SUCCESS) {
    return b->rep.fail(SYMMEM_ERR_BOOTSTRAP, call, "MPI_Iallgather failed: %s", mpi_error(rc).c_str());
  }
  return b->wait(req, call, "MPI_Iallgather");
}

int mpi_barrier(void *ctx, const char *call) {
  auto *b = static_cast<mpi_boot *>(ctx);
  MPI_Request req = MPI_REQUEST_NULL;
  int rc = MPI_Ibarrier(b->comm, &req);
  if (rc != MPI_SUCCESS) {
    return b->rep.fail(SYMMEM_ERR_BOOTSTRAP, call, "MPI_Ibarrier failed: %s", mpi_error(rc).c_str());
  }
  return b->wait(req, call, "MPI_Ibarrier");
}

void mpi_abort_job(void *ctx, int status, const char *) {
  auto *b = static_cast<mpi_boot *>(ctx);
  std::fflush(nullptr);
  MPI_Abort(b->comm, status);  // mpirun ends every process of the job
  ::_exit(status);
}

void mpi_close(void *ctx) {
  auto *b = static_cast<mpi_boot *>(ctx);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized == 0 && b->comm != MPI_COMM_NULL) {
    MPI_Comm_free(&b->comm);
  }
  delete b;
}

// The communicator the job forms over: the program's, or MPI_COMM_WORLD.
int base_comm(const reporter &rep, const char *request, const void *attr, MPI_Comm &out) {
  if (std::strcmp(request, "comm") != 0) {
    out = MPI_COMM_WORLD;
    return start_mpi(rep);
  }
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized == 0 || finalized != 0) {
    return rep.fail(SYMMEM_ERR_BOOTSTRAP, "init",
                    "SYMMEM_INIT_WITH_MPI_COMM needs MPI running: call MPI_Init before symmem_init_attr (and "
                    "MPI_Finalize only after symmem_finalize)");
  }
  out = *static_cast<const MPI_Comm *>(attr);
  if (out == MPI_COMM_NULL) {
    return rep.fail(SYMMEM_ERR_INVALID_ARGUMENT, "init",
                    "attr->mpi_comm points to MPI_COMM_NULL: this process is not in the communicator (after "
                    "MPI_Comm_split with MPI_UNDEFINED); only its members may call symmem_init_attr");
  }
  return SYMMEM_SUCCESS;
}

int open_comm(mpi_boot &b, MPI_Comm base) {
  int size = 0;
  int rank = 0;
  MPI_Comm_size(base, &size);
  MPI_Comm_rank(base, &rank);
  b.size = size;
  b.rep.set_pe(rank);  // the duplicate keeps the ranks; messages from here on carry the PE
  MPI_Request req = MPI_REQUEST_NULL;
  int rc = MPI_Comm_idup(base, &b.comm, &req);
  if (rc != MPI_SUCCESS) {
    return b.rep.fail(SYMMEM_ERR_BOOTSTRAP, "init", "MPI_Comm_idup failed: %s", mpi_error(rc).c_str());
  }
  rc = b.wait(req, "init", "MPI_Comm_idup");
  if (rc != SYMMEM_SUCCESS) {
    b.comm = MPI_COMM_NULL;  // still pending: MPI owns it
    return rc;
  }
  MPI_Comm_set_errhandler(b.comm, MPI_ERRORS_RETURN);
  return SYMMEM_SUCCESS;
}

}  // namespace

SYMMEM_PLUGIN_EXPORT int symmem_boot_plugin_create(const symmem_boot_host *host, symmem_boot_ops *out) {
  if (host == nullptr || out == nullptr || host->abi_version != SYMMEM_BOOT_ABI_VERSION) {
    return SYMMEM_ERR_BOOTSTRAP;
  }
  auto *b = new mpi_boot{};
  b->rep.host = *host;
  MPI_Comm base = MPI_COMM_NULL;
  int rc = base_comm(b->rep, host->request, host->attr, base);
  if (rc == SYMMEM_SUCCESS) rc = open_comm(*b, base);
  if (rc != SYMMEM_SUCCESS) {
    delete b;
    return rc;
  }
  int rank = 0;
  MPI_Comm_rank(b->comm, &rank);
  *out = symmem_boot_ops{};
  out->abi_version = SYMMEM_BOOT_ABI_VERSION;
  out->struct_size = sizeof *out;
  out->ctx = b;
  out->name = "mpi";
  out->rank = rank;
  out->size = b->size;
  out->allgather = mpi_allgather;
  out->barrier = mpi_barrier;
  out->abort_job = mpi_abort_job;
  out->close = mpi_close;
  return SYMMEM_SUCCESS;
}
