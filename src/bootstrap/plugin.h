// symmem: the bootstrap plugin interface.
//
// A plugin is a shared object (libsymmem_boot_<name>.so) that libsymmem loads with dlopen, so that
// libsymmem itself depends on no MPI or PMIx library. It exports one C function,
//
//   int symmem_boot_plugin_create(const symmem_boot_host *host, symmem_boot_ops *out);
//
// and, for the unique-id plugin only, symmem_boot_plugin_uniqueid (below). The library passes
// `host`: what it asks for and the callbacks through which the plugin reports (so that messages
// carry the "symmem: PE n: call:" prefix and land in symmem_last_error). The plugin fills `out`: a
// table of functions over its own context, which the library wraps as a boot::bootstrap.
//
// Rules for plugins:
//  - return SYMMEM_SUCCESS, or a negative SYMMEM_ERR_* code after reporting through host->fail;
//    under request "auto" return SYMMEM_ERR_UNSUPPORTED without reporting when the environment
//    is not the plugin's (the library then tries the next choice);
//  - every wait is bounded: by bootstrap_timeout_s while `call` is "init", else by
//    wait_timeout_s (0: unbounded);
//  - `host` and its strings stay valid until out->close returns; copy what is needed longer.
// Versioning: abi_version changes when a field changes meaning; struct_size lets either side
// append fields (a reader uses a field only when struct_size covers it).
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SYMMEM_BOOT_ABI_VERSION 1u
#define SYMMEM_BOOT_ENTRY "symmem_boot_plugin_create"
#define SYMMEM_BOOT_UID_ENTRY "symmem_boot_plugin_uniqueid"

enum symmem_boot_log_level { SYMMEM_BOOT_LOG_WARN = 1, SYMMEM_BOOT_LOG_INFO = 2, SYMMEM_BOOT_LOG_TRACE = 3 };

// For request "uid": the arguments of symmem_init_attr(SYMMEM_INIT_WITH_UNIQUEID).
typedef struct symmem_boot_uid_args {
  int rank;
  int nranks;
  const void *id;  // id_len opaque bytes from symmem_boot_plugin_uniqueid
  size_t id_len;
} symmem_boot_uid_args;

typedef struct symmem_boot_host {
  uint32_t abi_version;  // SYMMEM_BOOT_ABI_VERSION
  uint32_t struct_size;  // sizeof(symmem_boot_host) of the library
  // "auto": the library believes the environment is this plugin's (PMIX_RANK, OMPI_COMM_WORLD_SIZE);
  // "world": the plugin's whole job (MPI_COMM_WORLD, the PMIx namespace);
  // "comm": attr is an MPI_Comm *; "uid": attr is a symmem_boot_uid_args *.
  const char *request;
  const void *attr;
  double bootstrap_timeout_s;
  double wait_timeout_s;
  // Formats nothing: `text` is the whole message after "call: ". Prints it with the PE prefix,
  // records it as the last error and returns `code`.
  int (*fail)(int code, const char *call, const char *text);
  // Diagnostics filtered by SYMMEM_DEBUG; `call` may be NULL.
  void (*log)(int level, const char *call, const char *text);
  // Tells the library this process's PE as soon as the plugin knows it (for the message prefix).
  void (*set_pe)(int pe);
  // SYMMEM_BOOTSTRAP_UID_SOCK_IFNAME as the library's configuration table read it (NULL: unset):
  // plugins read no SYMMEM_* variable themselves. Present when struct_size covers it.
  const char *uid_ifname;
} symmem_boot_host;

typedef struct symmem_boot_ops {
  uint32_t abi_version;
  uint32_t struct_size;
  void *ctx;
  const char *name;  // "mpi", "pmix", "uid"
  int rank;
  int size;
  // Every rank contributes len bytes; out receives size*len bytes in rank order.
  int (*allgather)(void *ctx, const void *in, void *out, size_t len, const char *call);
  int (*barrier)(void *ctx, const char *call);                    // NULL: the library uses a 1-byte allgather
  void (*abort_job)(void *ctx, int status, const char *message);  // must not return
  int (*poll_peers)(void *ctx, const char *call);                 // NULL: nothing to poll
  void (*close)(void *ctx);                                       // ends the bootstrap, frees ctx
} symmem_boot_ops;

typedef int (*symmem_boot_create_fn)(const symmem_boot_host *host, symmem_boot_ops *out);
// Creates a rendezvous in this process and writes its id (id_len bytes). Only the uid plugin.
typedef int (*symmem_boot_uniqueid_fn)(const symmem_boot_host *host, void *id, size_t id_len);

#ifdef __cplusplus
}
#endif

#if defined(__cplusplus) && defined(SYMMEM_BUILDING_LIBRARY)
#include <memory>
#include <string>
#include <vector>

#include "bootstrap/bootstrap.h"
#include "symmem/init_attr.h"

namespace symmem::boot {

// What symmem_init_attr hands to the next init; create_plugin consumes it.
struct pending_attr {
  enum class kind { none, mpi_comm, uniqueid } what = kind::none;
  const void *mpi_comm = nullptr;
  int rank = -1;
  int nranks = 0;
  symmem_uniqueid_t id{};
};
void set_pending_attr(const pending_attr &attr);
// Clears a pending attr and returns what became of it: SYMMEM_SUCCESS when a bootstrap was built
// from it, its failure code, or attr_unused when init never reached the plugin hook.
inline constexpr int attr_unused = 1;
int finish_pending_attr();

// The hook bootstrap.cpp calls for "auto", "mpi", "pmix" and "uid" (and any pending attr).
status create_plugin(const std::string &name, const config::settings &cfg, std::unique_ptr<bootstrap> &out);

// symmem_get_uniqueid: loads the uid plugin and asks it for a new rendezvous.
status make_uniqueid(symmem_uniqueid_t &id);

// The callbacks every plugin reports through: the message with this PE's prefix, recorded as the
// last error (a non-negative code becomes SYMMEM_ERR_BOOTSTRAP); diagnostics filtered by SYMMEM_DEBUG.
int plugin_host_fail(int code, const char *call, const char *text);
void plugin_host_log(int level, const char *call, const char *text);

// Opens `file` (a libsymmem_*.so plugin) from the plugin directories, once per process. Not found:
// SYMMEM_ERR_UNSUPPORTED, not reported, `searched` lists the directories; found but not loadable
// (a missing dependency): `load_error`, reported with dlerror's reason. `what` names it in messages.
status open_plugin_file(const std::string &file, bool global, const char *what, int load_error, void *&handle,
                        std::string &searched, const char *call);

// Where plugins are looked up, in order (SYMMEM_PLUGIN_PATH, beside libsymmem, SYMMEM_PLUGIN_DIR);
// for symmem-info.
std::vector<std::string> plugin_search_dirs();

}  // namespace symmem::boot
#endif
