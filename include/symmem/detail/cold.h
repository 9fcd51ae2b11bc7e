/* The device API's cold paths: the errors it reports, its waits past the limit, and its requests
 * to PEs that are not mapped (through the proxy ring). They are out-of-line functions, and a kernel
 * that may call one is given the registers that function uses. Compiled in a program built with
 * -rdc (separate compilation, as NVSHMEM programs are) they have no register limit and took 36 to
 * 74, which raised every kernel calling the device API to that: jacobi's kernel had 48 registers
 * instead of its own 25, and its 1024-thread blocks fitted once per SM instead of twice.
 *
 * So they are defined twice. Here, inline (weak), for every program. And in libsymmem_device.a (the
 * drop-in's libnvshmem_device.a), compiled once with at most 32 registers, as NVSHMEM compiles its
 * device library: a program whose device link names it (NVSHMEM's documented -lnvshmem_device,
 * the nvshmem::nvshmem_device CMake target, symmem-nvcc, symmem::symmem_device) gets those strong
 * definitions instead, and its kernels stay at 32 registers or fewer. A program built without -rdc,
 * or linked without the library, keeps the inline ones, with the same behaviour. */
#ifndef SYMMEM_DETAIL_COLD_H
#define SYMMEM_DETAIL_COLD_H

#if defined(SYMMEM_COLD_LIBRARY)
#define SYMMEM_COLD __device__ __noinline__
#else
#define SYMMEM_COLD __device__ __noinline__ inline
#endif

#endif
