// symmem: the CUDA driver API, loaded at run time.
//
// libsymmem must load and run on machines without an NVIDIA driver (CI, laptops, CPU-only
// clusters): a DT_NEEDED on libcuda.so.1 would make every program fail to start there. So the
// driver is dlopen'ed on first use and each entry point is looked up by the exact name <cuda.h>
// maps it to (cuMemAlloc is cuMemAlloc_v2, ...). Include this header instead of <cuda.h>: the
// usual names then call through the table. When the driver is missing, every call returns
// CUDA_ERROR_NO_DEVICE, so the GPU provider reports "no usable GPU" and the host heap is used.
#pragma once

#include <cuda.h>

// Every driver entry point symmem uses. Add a name here to use it.
#define SYMMEM_CU_FUNCTIONS(X)                                                                     \
  X(cuInit) X(cuGetErrorString) X(cuGetErrorName) X(cuDeviceGet) X(cuDeviceGetCount)              \
  X(cuDeviceGetUuid) X(cuDeviceGetPCIBusId) X(cuDeviceGetAttribute) X(cuDeviceCanAccessPeer)      \
  X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxGetCurrent) X(cuCtxSetCurrent)  \
  X(cuCtxGetDevice) X(cuCtxSynchronize) X(cuStreamCreate) X(cuStreamDestroy)                      \
  X(cuStreamSynchronize) X(cuMemcpyAsync) X(cuMemcpy) X(cuMemcpyHtoD) X(cuMemcpyDtoH)            \
  X(cuMemsetD8Async) X(cuMemsetD8) X(cuMemAlloc) X(cuMemFree) X(cuMemHostAlloc) X(cuMemFreeHost)  \
  X(cuMemGetInfo) X(cuMemAddressReserve) X(cuMemAddressFree) X(cuMemCreate) X(cuMemRelease)      \
  X(cuMemMap) X(cuMemUnmap) X(cuMemSetAccess) X(cuMemGetAllocationGranularity)                   \
  X(cuMemExportToShareableHandle) X(cuMemImportFromShareableHandle) X(cuPointerGetAttribute)     \
  X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord) X(cuEventSynchronize) X(cuStreamWaitEvent)  \
  X(cuCtxEnablePeerAccess)

namespace symmem::cuda {

// The loaded entry points; a missing one points at a stub returning CUDA_ERROR_NO_DEVICE.
struct cu_api {
#define SYMMEM_CU_FIELD(name) decltype(&::name) name##_fn;
  SYMMEM_CU_FUNCTIONS(SYMMEM_CU_FIELD)
#undef SYMMEM_CU_FIELD
  bool loaded;  // libcuda.so.1 was found
};

// Loads the driver once (thread-safe) and returns the table.
const cu_api &cu();

}  // namespace symmem::cuda

// From here on, cuFoo(...) calls the loaded entry point. <cuda.h> may have defined cuFoo as a
// macro for a versioned name (cuFoo_v2): redefine it either way.
#ifndef SYMMEM_CU_SHIM_IMPL
#undef cuInit
#define cuInit (::symmem::cuda::cu().cuInit_fn)
#undef cuGetErrorString
#define cuGetErrorString (::symmem::cuda::cu().cuGetErrorString_fn)
#undef cuGetErrorName
#define cuGetErrorName (::symmem::cuda::cu().cuGetErrorName_fn)
#undef cuDeviceGet
#define cuDeviceGet (::symmem::cuda::cu().cuDeviceGet_fn)
#undef cuDeviceGetCount
#define cuDeviceGetCount (::symmem::cuda::cu().cuDeviceGetCount_fn)
#undef cuDeviceGetUuid
#define cuDeviceGetUuid (::symmem::cuda::cu().cuDeviceGetUuid_fn)
#undef cuDeviceGetPCIBusId
#define cuDeviceGetPCIBusId (::symmem::cuda::cu().cuDeviceGetPCIBusId_fn)
#undef cuDeviceGetAttribute
#define cuDeviceGetAttribute (::symmem::cuda::cu().cuDeviceGetAttribute_fn)
#undef cuDeviceCanAccessPeer
#define cuDeviceCanAccessPeer (::symmem::cuda::cu().cuDeviceCanAccessPeer_fn)
#undef cuDevicePrimaryCtxRetain
#define cuDevicePrimaryCtxRetain (::symmem::cuda::cu().cuDevicePrimaryCtxRetain_fn)
#undef cuDevicePrimaryCtxRelease
#define cuDevicePrimaryCtxRelease (::symmem::cuda::cu().cuDevicePrimaryCtxRelease_fn)
#undef cuCtxGetCurrent
#define cuCtxGetCurrent (::symmem::cuda::cu().cuCtxGetCurrent_fn)
#undef cuCtxSetCurrent
#define cuCtxSetCurrent (::symmem::cuda::cu().cuCtxSetCurrent_fn)
#undef cuCtxGetDevice
#define cuCtxGetDevice (::symmem::cuda::cu().cuCtxGetDevice_fn)
#undef cuCtxSynchronize
#define cuCtxSynchronize (::symmem::cuda::cu().cuCtxSynchronize_fn)
#undef cuStreamCreate
#define cuStreamCreate (::symmem::cuda::cu().cuStreamCreate_fn)
#undef cuStreamDestroy
#define cuStreamDestroy (::symmem::cuda::cu().cuStreamDestroy_fn)
#undef cuStreamSynchronize
#define cuStreamSynchronize (::symmem::cuda::cu().cuStreamSynchronize_fn)
#undef cuMemcpyAsync
#define cuMemcpyAsync (::symmem::cuda::cu().cuMemcpyAsync_fn)
#undef cuMemcpy
#define cuMemcpy (::symmem::cuda::cu().cuMemcpy_fn)
#undef cuMemcpyHtoD
#define cuMemcpyHtoD (::symmem::cuda::cu().cuMemcpyHtoD_fn)
#undef cuMemcpyDtoH
#define cuMemcpyDtoH (::symmem::cuda::cu().cuMemcpyDtoH_fn)
#undef cuMemsetD8Async
#define cuMemsetD8Async (::symmem::cuda::cu().cuMemsetD8Async_fn)
#undef cuMemsetD8
#define cuMemsetD8 (::symmem::cuda::cu().cuMemsetD8_fn)
#undef cuMemAlloc
#define cuMemAlloc (::symmem::cuda::cu().cuMemAlloc_fn)
#undef cuMemFree
#define cuMemFree (::symmem::cuda::cu().cuMemFree_fn)
#undef cuMemHostAlloc
#define cuMemHostAlloc (::symmem::cuda::cu().cuMemHostAlloc_fn)
#undef cuMemFreeHost
#define cuMemFreeHost (::symmem::cuda::cu().cuMemFreeHost_fn)
#undef cuMemGetInfo
#define cuMemGetInfo (::symmem::cuda::cu().cuMemGetInfo_fn)
#undef cuMemAddressReserve
#define cuMemAddressReserve (::symmem::cuda::cu().cuMemAddressReserve_fn)
#undef cuMemAddressFree
#define cuMemAddressFree (::symmem::cuda::cu().cuMemAddressFree_fn)
#undef cuMemCreate
#define cuMemCreate (::symmem::cuda::cu().cuMemCreate_fn)
#undef cuMemRelease
#define cuMemRelease (::symmem::cuda::cu().cuMemRelease_fn)
#undef cuMemMap
#define cuMemMap (::symmem::cuda::cu().cuMemMap_fn)
#undef cuMemUnmap
#define cuMemUnmap (::symmem::cuda::cu().cuMemUnmap_fn)
#undef cuMemSetAccess
#define cuMemSetAccess (::symmem::cuda::cu().cuMemSetAccess_fn)
#undef cuMemGetAllocationGranularity
#define cuMemGetAllocationGranularity (::symmem::cuda::cu().cuMemGetAllocationGranularity_fn)
#undef cuMemExportToShareableHandle
#define cuMemExportToShareableHandle (::symmem::cuda::cu().cuMemExportToShareableHandle_fn)
#undef cuMemImportFromShareableHandle
#define cuMemImportFromShareableHandle (::symmem::cuda::cu().cuMemImportFromShareableHandle_fn)
#undef cuPointerGetAttribute
#define cuPointerGetAttribute (::symmem::cuda::cu().cuPointerGetAttribute_fn)
#undef cuEventCreate
#define cuEventCreate (::symmem::cuda::cu().cuEventCreate_fn)
#undef cuEventDestroy
#define cuEventDestroy (::symmem::cuda::cu().cuEventDestroy_fn)
#undef cuEventRecord
#define cuEventRecord (::symmem::cuda::cu().cuEventRecord_fn)
#undef cuEventSynchronize
#define cuEventSynchronize (::symmem::cuda::cu().cuEventSynchronize_fn)
#undef cuStreamWaitEvent
#define cuStreamWaitEvent (::symmem::cuda::cu().cuStreamWaitEvent_fn)
#undef cuCtxEnablePeerAccess
#define cuCtxEnablePeerAccess (::symmem::cuda::cu().cuCtxEnablePeerAccess_fn)
#endif
