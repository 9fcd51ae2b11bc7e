/* Defines SYMMEM_SHMEM_FN / SYMMEM_SHMEM_VFN for one routine list (shmem/routines*.h): inline
 * wrappers with SYMMEM_SHMEM_INLINE, declarations of the libsymmem-shmem functions otherwise.
 * Included before each list, and the two names #undef'd after it: no include guard. */
#ifdef SYMMEM_SHMEM_INLINE
#define SYMMEM_SHMEM_FN(R, NAME, P, CALL) SYMMEM_SHI R NAME P { return CALL; }
#define SYMMEM_SHMEM_VFN(NAME, P, CALL) SYMMEM_SHI void NAME P { CALL; }
#else
#define SYMMEM_SHMEM_FN(R, NAME, P, CALL) SYMMEM_API R NAME P;
#define SYMMEM_SHMEM_VFN(NAME, P, CALL) SYMMEM_API void NAME P;
#endif
