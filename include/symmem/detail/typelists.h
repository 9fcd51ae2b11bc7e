/* symmem: the type lists of OpenSHMEM 1.5, as X-macros.
 *
 * Every typed routine (put, get, p, g, iput, iget, atomics, wait_until, ...) is generated from
 * one of these lists, so adding a type is one line here. Each entry is X(TYPE, TYPENAME) where
 * TYPENAME is the spelling used in routine names (symmem_longlong_put, shmem_uint64_atomic_add).
 */
#ifndef SYMMEM_DETAIL_TYPELISTS_H
#define SYMMEM_DETAIL_TYPELISTS_H

#include <stddef.h>
#include <stdint.h>

/* Table 5 of OpenSHMEM 1.5: standard RMA types. */
#define SYMMEM_RMA_TYPES(X)          \
  X(float, float)                    \
  X(double, double)                  \
  X(long double, longdouble)         \
  X(char, char)                      \
  X(signed char, schar)              \
  X(short, short)                    \
  X(int, int)                        \
  X(long, long)                      \
  X(long long, longlong)             \
  X(unsigned char, uchar)            \
  X(unsigned short, ushort)          \
  X(unsigned int, uint)              \
  X(unsigned long, ulong)            \
  X(unsigned long long, ulonglong)   \
  X(int8_t, int8)                    \
  X(int16_t, int16)                  \
  X(int32_t, int32)                  \
  X(int64_t, int64)                  \
  X(uint8_t, uint8)                  \
  X(uint16_t, uint16)                \
  X(uint32_t, uint32)                \
  X(uint64_t, uint64)                \
  X(size_t, size)                    \
  X(ptrdiff_t, ptrdiff)

/* Sized RMA routines (putmem-like with element size in the name): X(BITS). */
#define SYMMEM_RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* Table 6: standard AMO types (inc, add, fetch_inc, fetch_add, compare_swap, and the extended set). */
#define SYMMEM_AMO_STANDARD_TYPES(X)     \
  X(int, int)                            \
  X(long, long)                          \
  X(long long, longlong)                 \
  X(unsigned int, uint)                  \
  X(unsigned long, ulong)                \
  X(unsigned long long, ulonglong)       \
  X(int32_t, int32)                      \
  X(int64_t, int64)                      \
  X(uint32_t, uint32)                    \
  X(uint64_t, uint64)                    \
  X(size_t, size)                        \
  X(ptrdiff_t, ptrdiff)

/* Table 7: extended AMO types (fetch, set, swap): the standard ones plus float and double. */
#define SYMMEM_AMO_EXTENDED_TYPES(X) \
  SYMMEM_AMO_STANDARD_TYPES(X)       \
  X(float, float)                    \
  X(double, double)

/* Table 8: bitwise AMO types (and, or, xor and their fetch forms). */
#define SYMMEM_AMO_BITWISE_TYPES(X)      \
  X(unsigned int, uint)                  \
  X(unsigned long, ulong)                \
  X(unsigned long long, ulonglong)       \
  X(int32_t, int32)                      \
  X(int64_t, int64)                      \
  X(uint32_t, uint32)                    \
  X(uint64_t, uint64)

/* Table 11: point-to-point synchronization types (wait_until, test). */
#define SYMMEM_P2P_SYNC_TYPES(X)         \
  X(short, short)                        \
  X(int, int)                            \
  X(long, long)                          \
  X(long long, longlong)                 \
  X(unsigned short, ushort)              \
  X(unsigned int, uint)                  \
  X(unsigned long, ulong)                \
  X(unsigned long long, ulonglong)       \
  X(int32_t, int32)                      \
  X(int64_t, int64)                      \
  X(uint32_t, uint32)                    \
  X(uint64_t, uint64)                    \
  X(size_t, size)                        \
  X(ptrdiff_t, ptrdiff)

/* The same lists with only distinct C types (int32_t, size_t, ... are typedefs of these): for
 * C11 _Generic selections and C++ overloads, which may not name one type twice. */
#define SYMMEM_GEN_RMA_TYPES(X)                                                                          \
  X(float, float) X(double, double) X(long double, longdouble) X(char, char) X(signed char, schar)       \
  X(short, short) X(int, int) X(long, long) X(long long, longlong) X(unsigned char, uchar)               \
  X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)
#define SYMMEM_GEN_AMO_STD_TYPES(X)                                                                      \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong)         \
  X(unsigned long long, ulonglong)
#define SYMMEM_GEN_AMO_EXT_TYPES(X) SYMMEM_GEN_AMO_STD_TYPES(X) X(float, float) X(double, double)
/* Table 8 names int32_t and int64_t, which are int and long (LP64): without them shmem_atomic_and on
 * an int32_t would not compile. */
#define SYMMEM_GEN_AMO_BIT_TYPES(X) \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int, int32) X(long, int64)
#define SYMMEM_GEN_P2P_TYPES(X)                                                                          \
  X(short, short) X(int, int) X(long, long) X(long long, longlong) X(unsigned short, ushort)             \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)

#endif /* SYMMEM_DETAIL_TYPELISTS_H */
