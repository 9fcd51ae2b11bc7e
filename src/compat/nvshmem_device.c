/* libnvshmem_device.a of symmem's NVSHMEM drop-in directory (cmake/install.cmake). NVSHMEM keeps
 * its device routines in this archive; symmem's are inline in <nvshmem.h>, so a program needs
 * nothing from it. It exists so that link lines written for NVSHMEM (-lnvshmem_device) work, and
 * it holds one host object because nvlink warns about an archive with no member. Nothing refers to
 * the symbol below, so no program links it. */
const char symmem_nvshmem_device_note[] =
    "symmem: NVSHMEM's device routines are inline in symmem's <nvshmem.h>; this archive is empty on purpose";
