// symmem: symmem_init_attr and the unique-id entry points (include/symmem/init_attr.h).
//
// symmem_init_attr checks its arguments, leaves them for the bootstrap hook (create_plugin in
// plugin.cpp) and runs the ordinary init, so that both paths share every step after the
// bootstrap.
#include <cstdlib>
#include <cstring>
#include <string>

#include "bootstrap/plugin.h"

namespace symmem::boot {
namespace {

constexpr unsigned known_flags = SYMMEM_INIT_WITH_MPI_COMM | SYMMEM_INIT_WITH_UNIQUEID;

bool all_zero(const symmem_uniqueid_t &id) {
  for (unsigned char c : id.internal) {
    if (c != 0) return false;
  }
  return true;
}

status check_uid_args(int rank, int nranks, const symmem_uniqueid_t &id, const char *call) {
  if (nranks < 1 || rank < 0 || rank >= nranks) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "rank %d of %d ranks is out of range; pass 0 <= rank < nranks", rank,
                nranks);
  }
  if (all_zero(id)) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
                "the unique id is all zeros; rank 0's process must call symmem_get_uniqueid and send the id to every "
                "other rank before they call symmem_init_attr");
  }
  return ok_status;
}

status parse(unsigned flags, const symmem_init_attr_t *attr, pending_attr &out) {
  const char *call = "init_attr";
  if (attr == nullptr) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
                "attr is NULL; pass a symmem_init_attr_t set up with "
                "SYMMEM_INIT_ATTR_INITIALIZER");
  }
  if ((flags & ~known_flags) != 0 || (flags != SYMMEM_INIT_WITH_MPI_COMM && flags != SYMMEM_INIT_WITH_UNIQUEID)) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
                "flags %#x: pass exactly one of SYMMEM_INIT_WITH_MPI_COMM and SYMMEM_INIT_WITH_UNIQUEID", flags);
  }
  // The MPI form reads mpi_comm alone, at the same place in every version, so its version is not
  // checked: programs written for NVSHMEM set only mpi_comm in an attr they never initialized
  // (NVIDIA's jacobi example), and NVSHMEM accepts that.
  if (flags != SYMMEM_INIT_WITH_MPI_COMM && attr->version != 0 && attr->version != SYMMEM_INIT_ATTR_VERSION) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
                "attr->version is %d, this library knows version %d; start from "
                "SYMMEM_INIT_ATTR_INITIALIZER",
                attr->version, SYMMEM_INIT_ATTR_VERSION);
  }
  if (flags == SYMMEM_INIT_WITH_MPI_COMM) {
    if (attr->mpi_comm == nullptr) {
      return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "attr->mpi_comm is NULL; set it to the address of an MPI_Comm");
    }
    out.what = pending_attr::kind::mpi_comm;
    out.mpi_comm = attr->mpi_comm;
    return ok_status;
  }
  SYMMEM_TRY(check_uid_args(attr->uid_args.rank, attr->uid_args.nranks, attr->uid_args.id, call));
  out.what = pending_attr::kind::uniqueid;
  out.rank = attr->uid_args.rank;
  out.nranks = attr->uid_args.nranks;
  out.id = attr->uid_args.id;
  return ok_status;
}

// The attr reaches the bootstrap only through the plugin hook; a built-in bootstrap chosen by
// SYMMEM_BOOTSTRAP or symmem-run would silently ignore it, so refuse that combination.
status check_choice(unsigned flags) {
  const std::string w = config::value_of("SYMMEM_BOOTSTRAP").value_or("");
  const char *what = flags == SYMMEM_INIT_WITH_MPI_COMM ? "SYMMEM_INIT_WITH_MPI_COMM" : "SYMMEM_INIT_WITH_UNIQUEID";
  if (w == "launcher" || w == "singleton") {
    return fail(SYMMEM_ERR_BOOTSTRAP, "init_attr",
                "SYMMEM_BOOTSTRAP=%s contradicts symmem_init_attr(%s); unset SYMMEM_BOOTSTRAP or call symmem_init",
                w.c_str(), what);
  }
  if ((w.empty() || w == "auto") && launched_by_symmem_run()) {
    return fail(SYMMEM_ERR_BOOTSTRAP, "init_attr",
                "this process was started by symmem-run, which forms the job itself; call symmem_init under "
                "symmem-run, or start the program with mpirun (or your own launcher) to use symmem_init_attr(%s)",
                what);
  }
  return ok_status;
}

}  // namespace
}  // namespace symmem::boot

using namespace symmem;

extern "C" {

int symmem_init_attr(unsigned flags, symmem_init_attr_t *attr) {
  clear_last_error();
  boot::pending_attr pending;
  status st = boot::parse(flags, attr, pending);
  if (st.ok()) st = boot::check_choice(flags);
  if (!st.ok()) {
    return st.code();
  }
  boot::set_pending_attr(pending);
  int rc = symmem_init_thread(SYMMEM_THREAD_SINGLE, nullptr);
  int attr_rc = boot::finish_pending_attr();
  if (rc == SYMMEM_SUCCESS && attr_rc != SYMMEM_SUCCESS) {
    // Under SYMMEM_BOOTSTRAP=auto, boot::create falls back to a singleton when the plugin fails
    // (its message is printed); the job asked for was not formed, so undo that init.
    const std::string used = symmem_bootstrap_name();
    symmem_finalize();
    if (attr_rc == boot::attr_unused) {
      return fail(SYMMEM_ERR_BOOTSTRAP, "init_attr",
                  "the %s bootstrap formed the job and ignored the attr; unset "
                  "SYMMEM_BOOTSTRAP",
                  used.c_str())
          .code();
    }
    return attr_rc;
  }
  return rc;
}

int symmem_get_uniqueid(symmem_uniqueid_t *id) {
  clear_last_error();
  if (id == nullptr) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, "get_uniqueid", "id is NULL; pass the address of a symmem_uniqueid_t")
        .code();
  }
  // This process hosts the rendezvous and must be rank 0 (init_attr.h); name it so in the
  // messages the rendezvous prints before init (refused connections).
  if (log_pe() < 0) {
    set_log_pe(0);
  }
  // Init sets the log level from the settings; the rendezvous may log before that.
  if (std::optional<std::string> d = config::value_of("SYMMEM_DEBUG")) {
    const std::string &level = *d;
    if (level == "off") set_log_level(log_level::off);
    if (level == "info") set_log_level(log_level::info);
    if (level == "trace") set_log_level(log_level::trace);
  }
  std::memset(id, 0, sizeof *id);
  return boot::make_uniqueid(*id).code();
}

int symmem_set_attr_uniqueid_args(int rank, int nranks, const symmem_uniqueid_t *id, symmem_init_attr_t *attr) {
  if (id == nullptr || attr == nullptr) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, "set_attr_uniqueid_args", "%s is NULL", id == nullptr ? "id" : "attr")
        .code();
  }
  attr->version = SYMMEM_INIT_ATTR_VERSION;
  attr->uid_args.rank = rank;
  attr->uid_args.nranks = nranks;
  attr->uid_args.id = *id;
  return SYMMEM_SUCCESS;
}

}  // extern "C"
