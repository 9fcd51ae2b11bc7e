#include "bootstrap/bootstrap.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace symmem::boot {
namespace {
std::atomic<bootstrap *> g_current{nullptr};
}  // namespace

status bootstrap::barrier(const char *call) {
  std::vector<char> out(static_cast<size_t>(size()));
  char in = 0;
  return allgather(&in, out.data(), 1, call);
}

bootstrap *current() { return g_current.load(std::memory_order_acquire); }
void set_current(bootstrap *b) { g_current.store(b, std::memory_order_release); }

// Plugins (mpi, pmix, uid) register through this hook when they are built in; see plugin.cpp.
status create_plugin(const std::string &name, const config::settings &cfg, std::unique_ptr<bootstrap> &out)
    __attribute__((weak));

status create(const config::settings &cfg, std::unique_ptr<bootstrap> &out) {
  std::string want = cfg.bootstrap;
  if (want == "auto") {
    want = launched_by_symmem_run() ? "launcher" : "singleton";
    if (want == "singleton" && create_plugin != nullptr) {
      // A plugin may recognise its own environment (PMIx server, MPI launcher) under auto.
      std::unique_ptr<bootstrap> p;
      status s = create_plugin("auto", cfg, p);
      if (!s.ok()) {
        return s;  // a PMIx or MPI environment was recognised but failed: not a silent singleton
      }
      if (p) {
        out = std::move(p);
        return ok_status;
      }
    }
  }
  if (want == "launcher") {
    return make_launcher(cfg, out);
  }
  if (want == "singleton") {
    // Under symmem-run -n N every PE would form a job of its own: N one-PE jobs, silently.
    if (const int n = launcher_size(); n > 1) {
      return fail(SYMMEM_ERR_BOOTSTRAP, "init",
                  "SYMMEM_BOOTSTRAP=singleton but symmem-run started %d PEs: each would be a job of one PE; unset "
                  "SYMMEM_BOOTSTRAP (or set it to launcher), or run with -n 1",
                  n);
    }
    out = make_singleton();
    return ok_status;
  }
  if (create_plugin != nullptr) {
    return create_plugin(want, cfg, out);
  }
  return fail(SYMMEM_ERR_UNSUPPORTED, "init",
              "SYMMEM_BOOTSTRAP=%s is not available in this build (symmem-info lists the bootstraps); "
              "use launcher or singleton",
              want.c_str());
}

}  // namespace symmem::boot
