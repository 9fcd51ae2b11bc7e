/* symmem: NVSHMEM installs this header with its tile API's tensor types, and programs include it
 * by this path (NVSHMEM's tile perftests do). The types live in symmem/detail/nvshmem_tile.h,
 * which <nvshmemx.h> brings. */
#ifndef SYMMEM_DEVICE_HOST_NVSHMEM_TENSOR_H
#define SYMMEM_DEVICE_HOST_NVSHMEM_TENSOR_H
#include "../nvshmemx.h"
#endif
