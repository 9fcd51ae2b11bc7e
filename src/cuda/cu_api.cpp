#include "cuda/cu_api.h"

#include <dlfcn.h>

#include <mutex>

namespace symmem::cuda {

driver_api cu;

namespace {
#define SYMMEM_STR2(x) #x
#define SYMMEM_STR(x) SYMMEM_STR2(x)  // expands <cuda.h>'s macros first: "cuMemAlloc_v2"

const char *load(driver_api &api) {
  void *lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (lib == nullptr) {
    return "the NVIDIA driver (libcuda.so.1) is not installed";
  }
  const char *missing = nullptr;
#define SYMMEM_CU_LOAD(name)                                                                         \
  api.name = reinterpret_cast<decltype(api.name)>(::dlsym(lib, SYMMEM_STR(name)));                  \
  if (api.name == nullptr && missing == nullptr) missing = SYMMEM_STR(name);
  SYMMEM_CU_FUNCS(SYMMEM_CU_LOAD)
#undef SYMMEM_CU_LOAD
  return missing == nullptr ? nullptr : "the NVIDIA driver is too old (a VMM function is missing)";
}
}  // namespace

bool load_driver(const char **why) {
  static const char *failure = load(cu);
  if (why != nullptr) *why = failure;
  return failure == nullptr;
}

}  // namespace symmem::cuda
