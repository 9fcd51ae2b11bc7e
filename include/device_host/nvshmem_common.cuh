/* symmem: NVSHMEM installs this header with definitions its device code shares, and programs
 * include it by this path (NVSHMEM's tile perftests do). symmem's <nvshmem.h> and <nvshmemx.h>
 * hold everything a program may use from it. */
#ifndef SYMMEM_DEVICE_HOST_NVSHMEM_COMMON_CUH
#define SYMMEM_DEVICE_HOST_NVSHMEM_COMMON_CUH
#include "../nvshmemx.h"
#endif
