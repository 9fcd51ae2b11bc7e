// symmem-info: what this build of symmem is and how it is configured.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include "bootstrap/plugin.h"
#include "common/config.h"
#include "symmem/symmem.h"

namespace {

void usage() {
  std::printf(
      "usage: symmem-info [-a|--all] [-e|--env] [-b|--build]\n"
      "  prints the version, build options, bootstraps and every environment variable\n"
      "  (default: everything)\n");
}

void print_build() {
  std::printf("symmem %s (OpenSHMEM %d.%d API)\n", SYMMEM_VERSION_STRING, SYMMEM_SHMEM_SPEC_MAJOR,
              SYMMEM_SHMEM_SPEC_MINOR);
  std::printf("build:\n");
  std::printf("  compiler       %s\n", __VERSION__);
  std::printf("  CUDA           %s\n", SYMMEM_HAVE_CUDA ? "yes (GPU heap and device API)" : "no (host heap only)");
  std::printf("heaps:\n  host           memfd, shared mappings, same address on every PE\n");
  if (SYMMEM_HAVE_CUDA) {
    std::printf("  gpu            CUDA VMM, POSIX file-descriptor handles\n");
  }
}

// Where `file` is found (init's directories, plus the build tree and install relative to this
// tool) and whether it loads.
std::string find_plugin(const std::string &file) {
  std::vector<std::string> dirs = symmem::boot::plugin_search_dirs();
  char exe[4096] = {};
  if (::readlink("/proc/self/exe", exe, sizeof exe - 1) > 0) {
    std::string bin = exe;
    bin = bin.substr(0, bin.rfind('/'));
    dirs.push_back(bin + "/../src/symmem");
    dirs.push_back(bin + "/../lib/symmem");
  }
  for (const std::string &dir : dirs) {
    std::string path = dir + "/" + file;
    if (::access(path.c_str(), R_OK) == 0) {
      void *h = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
      std::string found = h ? "plugin " + path : "present but cannot load (" + std::string(dlerror()) + "): " + path;
      if (h) dlclose(h);
      return found;
    }
  }
  return "not installed";
}

void print_bootstraps() {
  std::printf("bootstraps:\n");
  std::printf("  launcher       built in (symmem-run)\n");
  std::printf("  singleton      built in (a program started alone is one PE)\n");
  for (const char *name : {"mpi", "pmix", "uid"}) {
    std::printf("  %-14s %s\n", name, find_plugin(std::string("libsymmem_boot_") + name + ".so").c_str());
  }
  std::printf("network transports (PEs on other hosts):\n");
  std::printf("  %-14s %s\n", "ucx", find_plugin("libsymmem_net_ucx.so").c_str());
}

void print_env() {
  std::printf("environment (name [aliases]  kind  default  current):\n");
  for (const auto &e : symmem::config::table()) {
    auto l = symmem::config::find(e);
    std::string aliases;
    std::vector<std::string> names = symmem::config::names(e);
    for (size_t i = 1; i < names.size(); ++i) aliases += (i > 1 ? ", " : "") + names[i];
    std::printf("  %s%s%s%s\n", e.name, aliases.empty() ? "" : " [", aliases.c_str(), aliases.empty() ? "" : "]");
    std::printf("      kind %s%s%s, default \"%s\", current %s%s%s\n", e.kind, *e.choices ? " of " : "", e.choices, e.def,
                l.value ? ("\"" + *l.value + "\"").c_str() : "(unset)", l.value ? " from " : "",
                l.value ? l.from.c_str() : "");
    std::printf("      %s\n", e.doc);
  }
}

}  // namespace

int main(int argc, char **argv) {
  bool build = false, env = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-b") || !std::strcmp(argv[i], "--build")) build = true;
    else if (!std::strcmp(argv[i], "-e") || !std::strcmp(argv[i], "--env")) env = true;
    else if (!std::strcmp(argv[i], "-a") || !std::strcmp(argv[i], "--all")) build = env = true;
    else if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) { usage(); return 0; }
    else { std::fprintf(stderr, "symmem-info: unknown option %s\n", argv[i]); usage(); return 2; }
  }
  if (!build && !env) build = env = true;
  if (build) { print_build(); print_bootstraps(); }
  if (env) print_env();
  return 0;
}
