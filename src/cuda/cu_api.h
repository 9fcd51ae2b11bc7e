// symmem: the CUDA driver API, loaded at run time.
//
// libsymmem must load and run on machines without the NVIDIA driver (CI builds the CUDA parts and
// runs every host test there), so it does not link libcuda: the driver is dlopen'ed at the first
// GPU init ("libcuda.so.1"), as NCCL does. Each member has the name of the driver function after
// <cuda.h>'s versioning macros (cuMemAlloc is cuMemAlloc_v2), so `cu.cuMemAlloc(...)` calls the
// right ABI and dlsym looks up the right symbol.
#pragma once

#include <cuda.h>

namespace symmem::cuda {

#define SYMMEM_CU_FUNCS(X)                                                                            \
  X(cuInit) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetUuid) X(cuDeviceGetPCIBusId)              \
  X(cuDevicePrimaryCtxRetain) X(cuCtxGetCurrent) X(cuCtxSetCurrent) X(cuCtxGetDevice)                 \
  X(cuCtxSynchronize) X(cuGetErrorName) X(cuGetErrorString) X(cuMemGetInfo) X(cuStreamCreate)         \
  X(cuStreamSynchronize) X(cuMemGetAllocationGranularity) X(cuMemAddressReserve) X(cuMemAddressFree)  \
  X(cuMemCreate) X(cuMemRelease) X(cuMemMap) X(cuMemUnmap) X(cuMemSetAccess)                          \
  X(cuMemExportToShareableHandle) X(cuMemImportFromShareableHandle) X(cuMemcpyAsync)                   \
  X(cuMemsetD8Async) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemHostAlloc) X(cuMemFreeHost)         \
  X(cuMemcpyHtoDAsync) X(cuModuleGetGlobal) X(cuLibraryGetGlobal) X(cuMemRetainAllocationHandle)       \
  X(cuMemGetAddressRange) X(cuPointerGetAttribute) X(cuMemHostGetDevicePointer) X(cuModuleGetLoadingMode)

struct driver_api {
#define SYMMEM_CU_MEMBER(name) decltype(&::name) name = nullptr;
  SYMMEM_CU_FUNCS(SYMMEM_CU_MEMBER)
#undef SYMMEM_CU_MEMBER
};

extern driver_api cu;

// Loads the driver once; false (and `why` says so) when it or one of its functions is missing.
bool load_driver(const char **why);

}  // namespace symmem::cuda
