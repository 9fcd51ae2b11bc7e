// symmem: finding, loading and wrapping the bootstrap plugins (plugin.h).
//
// Plugins are looked up, in order, in every directory of SYMMEM_PLUGIN_PATH (colon-separated),
// in "symmem/" beside the file that holds libsymmem (the build tree and a relocated install;
// beside the path it was loaded by, then beside the file that path resolves to), and in
// SYMMEM_PLUGIN_DIR (the configured install location). A loaded plugin is never unloaded: it may
// own threads (uid's rendezvous) and exit handlers (MPI_Finalize).
#include "bootstrap/plugin.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

namespace symmem::boot {
namespace {

std::mutex g_mutex;  // guards the two below
pending_attr g_pending __attribute__((init_priority(101)));  // before the program's globals (see core::g)
int g_attr_result = attr_unused;  // what create_plugin made of the last pending attr
std::map<std::string, void *> g_loaded __attribute__((init_priority(101)));

void host_set_pe(int pe) { set_log_pe(pe); }

symmem_boot_host make_host(const char *request, const void *attr, double boot_s, double wait_s) {
  symmem_boot_host h{};
  h.abi_version = SYMMEM_BOOT_ABI_VERSION;
  h.struct_size = sizeof h;
  h.request = request;
  h.attr = attr;
  h.bootstrap_timeout_s = boot_s;
  static std::string ifname;  // outlives every host struct that points into it
  const std::optional<std::string> spec = config::value_of("SYMMEM_BOOTSTRAP_UID_SOCK_IFNAME");
  ifname = spec.value_or("");
  h.uid_ifname = spec ? ifname.c_str() : nullptr;
  h.wait_timeout_s = wait_s;
  h.fail = plugin_host_fail;
  h.log = plugin_host_log;
  h.set_pe = host_set_pe;
  return h;
}

// ---- finding and loading ----------------------------------------------------------------------

std::vector<std::string> plugin_dirs() {
  std::vector<std::string> dirs;
  if (std::optional<std::string> p = config::value_of("SYMMEM_PLUGIN_PATH")) {
    const std::string &all = *p;
    for (size_t at = 0; at <= all.size();) {
      size_t end = all.find(':', at);
      end = end == std::string::npos ? all.size() : end;
      if (end > at) dirs.push_back(all.substr(at, end - at));
      at = end + 1;
    }
  }
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void *>(&plugin_dirs), &info) != 0 && info.dli_fname != nullptr) {
    auto beside = [&dirs](const std::string &file) {
      const size_t slash = file.rfind('/');
      std::string dir = (slash == std::string::npos ? std::string(".") : file.substr(0, slash)) + "/symmem";
      if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(std::move(dir));
    };
    beside(info.dli_fname);
    // Loaded through a link (the NVSHMEM drop-in directory's lib/libsymmem.so.N, a copy's link):
    // the plugins sit beside the file itself.
    if (char *real = ::realpath(info.dli_fname, nullptr)) {
      beside(real);
      std::free(real);
    }
  }
  dirs.push_back(SYMMEM_PLUGIN_DIR);
  return dirs;
}

}  // namespace

int plugin_host_fail(int code, const char *call, const char *text) {
  if (code >= 0) {
    code = SYMMEM_ERR_BOOTSTRAP;
  }
  return fail(code, call, "%s", text != nullptr ? text : "(no message)").code();
}

void plugin_host_log(int level, const char *call, const char *text) {
  const char *sep = (call != nullptr && *call != '\0') ? ": " : "";
  level = level < 1 ? 1 : level > 3 ? 3 : level;
  log(static_cast<log_level>(level), "%s%s%s", call != nullptr ? call : "", sep, text != nullptr ? text : "");
}

status open_plugin_file(const std::string &file, bool global, const char *what, int load_error, void *&handle,
                        std::string &searched, const char *call) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (auto it = g_loaded.find(file); it != g_loaded.end()) {
    handle = it->second;
    return ok_status;
  }
  searched.clear();
  for (const std::string &dir : plugin_dirs()) {
    std::string path = dir + "/" + file;
    searched += (searched.empty() ? "" : ", ") + dir;
    if (::access(path.c_str(), R_OK) != 0) {
      continue;
    }
    // Lazy binding saves a few ms of init; plugins are linked with --no-undefined, so every
    // symbol does resolve.
    handle = ::dlopen(path.c_str(), RTLD_LAZY | (global ? RTLD_GLOBAL : RTLD_LOCAL));
    if (handle == nullptr) {
      return fail(load_error, call, "cannot load the %s %s: %s; is its library installed?", what, path.c_str(),
                  ::dlerror());
    }
    g_loaded[file] = handle;
    log(log_level::info, "loaded %s %s", what, path.c_str());
    return ok_status;
  }
  return status(SYMMEM_ERR_UNSUPPORTED);  // not installed: the caller says what that means
}

namespace {

// Loads libsymmem_boot_<name>.so. A plugin that is not installed fails quietly when `quiet`
// (auto probing); one that is installed but cannot load (a missing libmpi) always says why.
// MPI and PMIx load their own components with dlopen; those expect the library's symbols to be
// global, as they are when the program links libmpi directly.
status load_plugin(const std::string &name, bool quiet, void *&handle, const char *call = "init") {
  std::string searched;
  const std::string file = "libsymmem_boot_" + name + ".so";
  status st = open_plugin_file(file, name != "uid", "bootstrap plugin", SYMMEM_ERR_BOOTSTRAP, handle, searched, call);
  if (st.code() != SYMMEM_ERR_UNSUPPORTED || quiet) {
    return st;  // loaded, failed to load (reported), or not installed under auto (nothing to report)
  }
  return fail(SYMMEM_ERR_UNSUPPORTED, call,
              "the %s bootstrap needs %s, which was not found (searched %s); build symmem with %s, or point "
              "SYMMEM_PLUGIN_PATH at the directory that holds it",
              name.c_str(), file.c_str(), searched.c_str(),
              name == "mpi"    ? "MPI"
              : name == "pmix" ? "PMIx"
                               : "its plugin");
}

status find_entry(void *handle, const std::string &name, const char *symbol, void *&fn, const char *call = "init") {
  fn = ::dlsym(handle, symbol);
  if (fn == nullptr) {
    return fail(SYMMEM_ERR_BOOTSTRAP, call, "libsymmem_boot_%s.so has no %s (not a symmem plugin, or another version)",
                name.c_str(), symbol);
  }
  return ok_status;
}

// ---- the wrapper ------------------------------------------------------------------------------

status code_status(int code) {
  if (code == SYMMEM_SUCCESS) return ok_status;
  return status(code < 0 ? code : SYMMEM_ERR_BOOTSTRAP);
}

class plugin_boot final : public bootstrap {
 public:
  ~plugin_boot() override { close(); }
  [[nodiscard]] int rank() const override { return ops_.rank; }
  [[nodiscard]] int size() const override { return ops_.size; }
  [[nodiscard]] const char *name() const override { return ops_.name != nullptr ? ops_.name : "plugin"; }

  status allgather(const void *in, void *out, size_t len, const char *call) override {
    return code_status(ops_.allgather(ops_.ctx, in, out, len, call));
  }
  status barrier(const char *call) override {
    return ops_.barrier != nullptr ? code_status(ops_.barrier(ops_.ctx, call)) : bootstrap::barrier(call);
  }
  [[noreturn]] void abort_job(int exit_status, const std::string &message) override {
    std::fflush(nullptr);
    if (open_ && ops_.abort_job != nullptr) {
      ops_.abort_job(ops_.ctx, exit_status, message.c_str());
    }
    ::_exit(exit_status);  // the plugin must not return; if it does, this PE still ends
  }
  status poll_peers(const char *call) override {
    return (open_ && ops_.poll_peers != nullptr) ? code_status(ops_.poll_peers(ops_.ctx, call)) : ok_status;
  }
  void close() override {
    if (open_) {
      open_ = false;
      ops_.close(ops_.ctx);
    }
  }

  status open(const std::string &plugin, const char *request, const void *attr, const config::settings &cfg) {
    void *handle = nullptr;
    void *fn = nullptr;
    SYMMEM_TRY(load_plugin(plugin, std::strcmp(request, "auto") == 0, handle));
    SYMMEM_TRY(find_entry(handle, plugin, SYMMEM_BOOT_ENTRY, fn));
    host_ = make_host(request, attr, cfg.bootstrap_timeout, cfg.wait_timeout);
    int rc = reinterpret_cast<symmem_boot_create_fn>(fn)(&host_, &ops_);
    if (rc != SYMMEM_SUCCESS) {
      return code_status(rc);
    }
    open_ = true;
    if (ops_.abi_version != SYMMEM_BOOT_ABI_VERSION || ops_.allgather == nullptr || ops_.close == nullptr ||
        ops_.size <= 0 || ops_.rank < 0 || ops_.rank >= ops_.size) {
      close();
      return fail(SYMMEM_ERR_BOOTSTRAP, "init",
                  "the %s plugin returned an unusable table (ABI %u, rank %d of %d); it was built for another symmem "
                  "version: rebuild it or fix SYMMEM_PLUGIN_PATH",
                  plugin.c_str(), ops_.abi_version, ops_.rank, ops_.size);
    }
    set_log_pe(ops_.rank);
    return ok_status;
  }

  // Storage that must outlive create (the plugin may keep pointers into it until close).
  symmem_boot_uid_args uid_args{};
  symmem_uniqueid_t uid{};

 private:
  symmem_boot_host host_{};
  symmem_boot_ops ops_{};
  bool open_ = false;
};

status open_plugin(const std::string &plugin, const char *request, const void *attr, const config::settings &cfg,
                   std::unique_ptr<bootstrap> &out) {
  auto b = std::make_unique<plugin_boot>();
  SYMMEM_TRY(b->open(plugin, request, attr, cfg));
  out = std::move(b);
  return ok_status;
}

status open_uid(const pending_attr &a, const config::settings &cfg, std::unique_ptr<bootstrap> &out) {
  auto b = std::make_unique<plugin_boot>();
  b->uid = a.id;
  b->uid_args = symmem_boot_uid_args{a.rank, a.nranks, b->uid.internal, sizeof b->uid.internal};
  SYMMEM_TRY(b->open("uid", "uid", &b->uid_args, cfg));
  out = std::move(b);
  return ok_status;
}

bool env_set(const char *name) {
  const char *v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

// Not under symmem-run: a PMIx server, then an MPI launcher, else nothing (the caller makes a
// singleton). A plugin that is missing is skipped; one that is present but fails is an error.
status probe_environment(const config::settings &cfg, std::unique_ptr<bootstrap> &out) {
  if (env_set("PMIX_RANK") || env_set("PMIX_NAMESPACE")) {
    status s = open_plugin("pmix", "auto", nullptr, cfg, out);
    if (s.code() != SYMMEM_ERR_UNSUPPORTED) {
      return s;
    }
  }
  for (const char *v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "MPI_LOCALNRANKS", "MV2_COMM_WORLD_SIZE"}) {
    if (env_set(v)) {
      status s = open_plugin("mpi", "auto", nullptr, cfg, out);
      return s.code() == SYMMEM_ERR_UNSUPPORTED ? ok_status : s;
    }
  }
  return ok_status;
}

pending_attr take_pending() {
  std::lock_guard<std::mutex> lock(g_mutex);
  pending_attr a = g_pending;
  g_pending = pending_attr{};
  return a;
}

}  // namespace

void set_pending_attr(const pending_attr &attr) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_pending = attr;
}

int finish_pending_attr() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_pending = pending_attr{};
  int rc = g_attr_result;
  g_attr_result = attr_unused;
  return rc;
}

namespace {
status note_attr_result(status s) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_attr_result = s.code();
  return s;
}
}  // namespace

status create_plugin(const std::string &name, const config::settings &cfg, std::unique_ptr<bootstrap> &out) {
  pending_attr a = take_pending();
  if (a.what == pending_attr::kind::mpi_comm) {
    return note_attr_result(open_plugin("mpi", "comm", a.mpi_comm, cfg, out));
  }
  if (a.what == pending_attr::kind::uniqueid) {
    return note_attr_result(open_uid(a, cfg, out));
  }
  if (name == "auto") {
    return probe_environment(cfg, out);
  }
  if (name == "mpi" || name == "pmix") {
    return open_plugin(name, "world", nullptr, cfg, out);
  }
  if (name == "uid") {
    return fail(SYMMEM_ERR_BOOTSTRAP, "init",
                "SYMMEM_BOOTSTRAP=uid needs the rank, the job size and the unique id: call "
                "symmem_init_attr(SYMMEM_INIT_WITH_UNIQUEID, &attr) instead of symmem_init");
  }
  return fail(SYMMEM_ERR_UNSUPPORTED, "init", "SYMMEM_BOOTSTRAP=%s is not a bootstrap this build knows; use %s",
              name.c_str(), "auto, launcher, singleton, mpi, pmix or uid");
}

std::vector<std::string> plugin_search_dirs() { return plugin_dirs(); }

status make_uniqueid(symmem_uniqueid_t &id) {
  void *handle = nullptr;
  void *fn = nullptr;
  SYMMEM_TRY(load_plugin("uid", false, handle, "get_uniqueid"));
  SYMMEM_TRY(find_entry(handle, "uid", SYMMEM_BOOT_UID_ENTRY, fn, "get_uniqueid"));
  symmem_boot_host host = make_host("uid", nullptr, 0, 0);
  return code_status(reinterpret_cast<symmem_boot_uniqueid_fn>(fn)(&host, id.internal, sizeof id.internal));
}

}  // namespace symmem::boot
