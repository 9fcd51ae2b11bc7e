// Loads libcuda.so.1 at run time (see cu_shim.h).
#define SYMMEM_CU_SHIM_IMPL
#include "cuda/cu_shim.h"

#include <dlfcn.h>

#include <mutex>

namespace symmem::cuda {
namespace {

// Stand-ins for entry points the driver lacks (or when there is no driver): report no device.
template <typename R, typename... A>
R missing(A...) {
  return static_cast<R>(CUDA_ERROR_NO_DEVICE);
}

template <typename R, typename... A>
void fill(R (*&fn)(A...), void *lib, const char *name) {
  void *p = lib != nullptr ? ::dlsym(lib, name) : nullptr;
  fn = p != nullptr ? reinterpret_cast<R (*)(A...)>(p) : &missing<R, A...>;
}

// Stringify after macro expansion: <cuda.h> maps some names to versioned symbols (cuMemAlloc_v2).
#define SYMMEM_CU_STR2(x) #x
#define SYMMEM_CU_STR(x) SYMMEM_CU_STR2(x)

cu_api load() {
  cu_api api{};
  void *lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  api.loaded = lib != nullptr;
#define SYMMEM_CU_LOAD(name) fill(api.name##_fn, lib, SYMMEM_CU_STR(name));
  SYMMEM_CU_FUNCTIONS(SYMMEM_CU_LOAD)
#undef SYMMEM_CU_LOAD
  return api;
}

}  // namespace

const cu_api &cu() {
  static const cu_api api = load();  // magic statics: loaded once, thread-safe
  return api;
}

}  // namespace symmem::cuda
