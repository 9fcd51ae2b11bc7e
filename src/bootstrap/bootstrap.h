// symmem: the bootstrap interface.
//
// A bootstrap forms the job: it knows this process's rank and the job size and can exchange small
// blobs among all ranks. It is used at init, at collective allocation errors and at finalize, never
// on a hot path. Implementations: launcher (symmem-run), singleton, and the plugins (MPI, PMIx,
// unique id) that load at run time.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "common/config.h"
#include "common/error.h"

namespace symmem::boot {

class bootstrap {
 public:
  virtual ~bootstrap() = default;
  [[nodiscard]] virtual int rank() const = 0;
  [[nodiscard]] virtual int size() const = 0;
  [[nodiscard]] virtual const char *name() const = 0;

  // Every rank contributes `len` bytes; `out` receives size()*len bytes in rank order.
  // `call` names the user routine in error messages ("init", "malloc").
  virtual status allgather(const void *in, void *out, size_t len, const char *call) = 0;
  virtual status barrier(const char *call);

  // Ends the whole job with `exit_status` (global_exit, fatal errors). Must not return.
  [[noreturn]] virtual void abort_job(int exit_status, const std::string &message) = 0;

  // Non-blocking check used inside long spin waits: returns a failure status (already reported)
  // when the job is being torn down because another PE exited or died. Cheap; may be a no-op.
  virtual status poll_peers(const char *call) {
    (void)call;
    return ok_status;
  }

  // Called at finalize: closes every channel of this bootstrap.
  virtual void close() {}
};

// Chooses and builds the bootstrap from the settings (SYMMEM_BOOTSTRAP) and the environment.
status create(const config::settings &cfg, std::unique_ptr<bootstrap> &out);

// The built-in implementations.
std::unique_ptr<bootstrap> make_singleton();
// Returns nullptr (with the error reported) when the launcher cannot be reached.
status make_launcher(const config::settings &cfg, std::unique_ptr<bootstrap> &out);
// True when this process was started by symmem-run.
bool launched_by_symmem_run();
// The number of PEs symmem-run started, or -1 when not started by it.
int launcher_size();

// The bootstrap the running job uses (nullptr outside init..finalize); for poll_peers in waits.
bootstrap *current();
void set_current(bootstrap *b);

}  // namespace symmem::boot
