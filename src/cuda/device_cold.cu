// libsymmem_device.a: strong definitions of the device API's cold paths (include/symmem/detail/cold.h),
// compiled with separate compilation and at most 32 registers (CMake: --maxrregcount=32). A program
// built with -rdc whose device link names this archive takes them in place of the inline copies of
// its own files. Installed as <libdir>/libsymmem_device.a and, in the NVSHMEM drop-in directory, as
// libnvshmem_device.a, the archive NVSHMEM's build lines and CMake targets name.
#define SYMMEM_COLD_LIBRARY 1
#include "symmem/device.cuh"
