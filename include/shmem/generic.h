/* symmem: the type-generic OpenSHMEM routines (shmem_put, shmem_atomic_fetch_add, ...).
 * C11: _Generic selections. C++: overloads. Only distinct C types appear here: int32_t, size_t and
 * the other typedefs resolve to one of them, so every standard type is covered. */
#ifndef SYMMEM_SHMEM_GENERIC_H
#define SYMMEM_SHMEM_GENERIC_H

#include "symmem/detail/typelists.h"

/* In C11 the RMA and AMO generics also take an optional leading context, as the 1.5 spec allows:
 * shmem_put(dest, source, n, pe) and shmem_put(ctx, dest, source, n, pe); the first argument's type
 * picks the form. <shmem/generic_deprecated.h> has the generics of the deprecated names. */
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L

/* Chosen only for a type the routine does not take: the call then fails to compile naming it. */
void shmem_generic_routine_unsupported_type(void);
#define SYMMEM_GEN_SEL(list, op, ptr)                                                                    \
  _Generic((ptr), list(SYMMEM_GEN_CASE_##op) default: shmem_generic_routine_unsupported_type)

#define SYMMEM_GEN_CASE_put(T, N) T *: shmem_##N##_put, const T *: shmem_##N##_put,
#define SYMMEM_GEN_CASE_get(T, N) T *: shmem_##N##_get, const T *: shmem_##N##_get,
#define SYMMEM_GEN_CASE_put_nbi(T, N) T *: shmem_##N##_put_nbi, const T *: shmem_##N##_put_nbi,
#define SYMMEM_GEN_CASE_get_nbi(T, N) T *: shmem_##N##_get_nbi, const T *: shmem_##N##_get_nbi,
#define SYMMEM_GEN_CASE_p(T, N) T *: shmem_##N##_p, const T *: shmem_##N##_p,
#define SYMMEM_GEN_CASE_g(T, N) T *: shmem_##N##_g, const T *: shmem_##N##_g,
#define SYMMEM_GEN_CASE_iput(T, N) T *: shmem_##N##_iput, const T *: shmem_##N##_iput,
#define SYMMEM_GEN_CASE_iget(T, N) T *: shmem_##N##_iget, const T *: shmem_##N##_iget,
#define SYMMEM_GEN_CASE_fetch(T, N) T *: shmem_##N##_atomic_fetch, const T *: shmem_##N##_atomic_fetch,
#define SYMMEM_GEN_CASE_set(T, N) T *: shmem_##N##_atomic_set,
#define SYMMEM_GEN_CASE_swap(T, N) T *: shmem_##N##_atomic_swap,
#define SYMMEM_GEN_CASE_cswap(T, N) T *: shmem_##N##_atomic_compare_swap,
#define SYMMEM_GEN_CASE_finc(T, N) T *: shmem_##N##_atomic_fetch_inc,
#define SYMMEM_GEN_CASE_inc(T, N) T *: shmem_##N##_atomic_inc,
#define SYMMEM_GEN_CASE_fadd(T, N) T *: shmem_##N##_atomic_fetch_add,
#define SYMMEM_GEN_CASE_add(T, N) T *: shmem_##N##_atomic_add,
#define SYMMEM_GEN_CASE_fand(T, N) T *: shmem_##N##_atomic_fetch_and,
#define SYMMEM_GEN_CASE_and(T, N) T *: shmem_##N##_atomic_and,
#define SYMMEM_GEN_CASE_for(T, N) T *: shmem_##N##_atomic_fetch_or,
#define SYMMEM_GEN_CASE_or(T, N) T *: shmem_##N##_atomic_or,
#define SYMMEM_GEN_CASE_fxor(T, N) T *: shmem_##N##_atomic_fetch_xor,
#define SYMMEM_GEN_CASE_xor(T, N) T *: shmem_##N##_atomic_xor,
#define SYMMEM_GEN_CASE_wait(T, N) T *: shmem_##N##_wait_until,
#define SYMMEM_GEN_CASE_test(T, N) T *: shmem_##N##_test,

#define shmem_wait_until(ivar, cmp, v) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, wait, ivar)(ivar, cmp, v)
#define shmem_test(ivar, cmp, v) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, test, ivar)(ivar, cmp, v)


#define SYMMEM_A0(a, ...) a
#define SYMMEM_A1(a, b, ...) b
#define SYMMEM_GEN_CTX_SEL(list, op, ...)                                                                \
  _Generic(SYMMEM_A0(__VA_ARGS__, 0),                                                                    \
           shmem_ctx_t: SYMMEM_GEN_SEL(list, ctx_##op, SYMMEM_A1(__VA_ARGS__, 0, 0)),                    \
           default: SYMMEM_GEN_SEL(list, op, SYMMEM_A0(__VA_ARGS__, 0)))(__VA_ARGS__)

#define SYMMEM_GEN_CASE_ctx_put(T, N) T *: shmem_ctx_##N##_put,
#define SYMMEM_GEN_CASE_ctx_get(T, N) T *: shmem_ctx_##N##_get,
#define SYMMEM_GEN_CASE_ctx_put_nbi(T, N) T *: shmem_ctx_##N##_put_nbi,
#define SYMMEM_GEN_CASE_ctx_get_nbi(T, N) T *: shmem_ctx_##N##_get_nbi,
#define SYMMEM_GEN_CASE_ctx_p(T, N) T *: shmem_ctx_##N##_p,
#define SYMMEM_GEN_CASE_ctx_g(T, N) T *: shmem_ctx_##N##_g, const T *: shmem_ctx_##N##_g,
#define SYMMEM_GEN_CASE_ctx_iput(T, N) T *: shmem_ctx_##N##_iput,
#define SYMMEM_GEN_CASE_ctx_iget(T, N) T *: shmem_ctx_##N##_iget,
#define SYMMEM_GEN_CASE_ctx_fetch(T, N) T *: shmem_ctx_##N##_atomic_fetch, const T *: shmem_ctx_##N##_atomic_fetch,
#define SYMMEM_GEN_CASE_ctx_set(T, N) T *: shmem_ctx_##N##_atomic_set,
#define SYMMEM_GEN_CASE_ctx_swap(T, N) T *: shmem_ctx_##N##_atomic_swap,
#define SYMMEM_GEN_CASE_ctx_cswap(T, N) T *: shmem_ctx_##N##_atomic_compare_swap,
#define SYMMEM_GEN_CASE_ctx_finc(T, N) T *: shmem_ctx_##N##_atomic_fetch_inc,
#define SYMMEM_GEN_CASE_ctx_inc(T, N) T *: shmem_ctx_##N##_atomic_inc,
#define SYMMEM_GEN_CASE_ctx_fadd(T, N) T *: shmem_ctx_##N##_atomic_fetch_add,
#define SYMMEM_GEN_CASE_ctx_add(T, N) T *: shmem_ctx_##N##_atomic_add,
#define SYMMEM_GEN_CASE_ctx_fand(T, N) T *: shmem_ctx_##N##_atomic_fetch_and,
#define SYMMEM_GEN_CASE_ctx_and(T, N) T *: shmem_ctx_##N##_atomic_and,
#define SYMMEM_GEN_CASE_ctx_for(T, N) T *: shmem_ctx_##N##_atomic_fetch_or,
#define SYMMEM_GEN_CASE_ctx_or(T, N) T *: shmem_ctx_##N##_atomic_or,
#define SYMMEM_GEN_CASE_ctx_fxor(T, N) T *: shmem_ctx_##N##_atomic_fetch_xor,
#define SYMMEM_GEN_CASE_ctx_xor(T, N) T *: shmem_ctx_##N##_atomic_xor,
#define SYMMEM_GEN_CASE_psig(T, N) T *: shmem_##N##_put_signal,
#define SYMMEM_GEN_CASE_ctx_psig(T, N) T *: shmem_ctx_##N##_put_signal,
#define SYMMEM_GEN_CASE_psignbi(T, N) T *: shmem_##N##_put_signal_nbi,
#define SYMMEM_GEN_CASE_ctx_psignbi(T, N) T *: shmem_ctx_##N##_put_signal_nbi,
#define SYMMEM_GEN_CASE_fetchnbi(T, N) T *: shmem_##N##_atomic_fetch_nbi,
#define SYMMEM_GEN_CASE_ctx_fetchnbi(T, N) T *: shmem_ctx_##N##_atomic_fetch_nbi,
#define SYMMEM_GEN_CASE_swapnbi(T, N) T *: shmem_##N##_atomic_swap_nbi,
#define SYMMEM_GEN_CASE_ctx_swapnbi(T, N) T *: shmem_ctx_##N##_atomic_swap_nbi,
#define SYMMEM_GEN_CASE_cswapnbi(T, N) T *: shmem_##N##_atomic_compare_swap_nbi,
#define SYMMEM_GEN_CASE_ctx_cswapnbi(T, N) T *: shmem_ctx_##N##_atomic_compare_swap_nbi,
#define SYMMEM_GEN_CASE_fincnbi(T, N) T *: shmem_##N##_atomic_fetch_inc_nbi,
#define SYMMEM_GEN_CASE_ctx_fincnbi(T, N) T *: shmem_ctx_##N##_atomic_fetch_inc_nbi,
#define SYMMEM_GEN_CASE_faddnbi(T, N) T *: shmem_##N##_atomic_fetch_add_nbi,
#define SYMMEM_GEN_CASE_ctx_faddnbi(T, N) T *: shmem_ctx_##N##_atomic_fetch_add_nbi,
#define SYMMEM_GEN_CASE_fandnbi(T, N) T *: shmem_##N##_atomic_fetch_and_nbi,
#define SYMMEM_GEN_CASE_ctx_fandnbi(T, N) T *: shmem_ctx_##N##_atomic_fetch_and_nbi,
#define SYMMEM_GEN_CASE_fornbi(T, N) T *: shmem_##N##_atomic_fetch_or_nbi,
#define SYMMEM_GEN_CASE_ctx_fornbi(T, N) T *: shmem_ctx_##N##_atomic_fetch_or_nbi,
#define SYMMEM_GEN_CASE_fxornbi(T, N) T *: shmem_##N##_atomic_fetch_xor_nbi,
#define SYMMEM_GEN_CASE_ctx_fxornbi(T, N) T *: shmem_ctx_##N##_atomic_fetch_xor_nbi,
#define SYMMEM_GEN_CASE_ibput(T, N) T *: shmem_##N##_ibput,
#define SYMMEM_GEN_CASE_ibget(T, N) T *: shmem_##N##_ibget,
#define SYMMEM_GEN_CASE_ctx_ibput(T, N) T *: shmem_ctx_##N##_ibput,
#define SYMMEM_GEN_CASE_ctx_ibget(T, N) T *: shmem_ctx_##N##_ibget,

#define shmem_put(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, put, __VA_ARGS__)
#define shmem_get(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, get, __VA_ARGS__)
#define shmem_put_nbi(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, get_nbi, __VA_ARGS__)
#define shmem_p(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, p, __VA_ARGS__)
#define shmem_g(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, g, __VA_ARGS__)
#define shmem_iput(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, iput, __VA_ARGS__)
#define shmem_iget(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, iget, __VA_ARGS__)
#define SYMMEM_GEN_CASE_inscan(T, N) T *: shmem_##N##_sum_inscan,
#define SYMMEM_GEN_CASE_exscan(T, N) T *: shmem_##N##_sum_exscan,
#define shmem_sum_inscan(t, d, s, n) SYMMEM_GEN_SEL(SYMMEM_GEN_REDUCE_ARITH_TYPES, inscan, d)(t, d, s, n)
#define shmem_sum_exscan(t, d, s, n) SYMMEM_GEN_SEL(SYMMEM_GEN_REDUCE_ARITH_TYPES, exscan, d)(t, d, s, n)
#define shmem_ibput(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, ibput, __VA_ARGS__)
#define shmem_ibget(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, ibget, __VA_ARGS__)
/* 1.6's signal updates take an optional leading context too (the functions keep their names). */
#define shmem_signal_add(...)                                                                            \
  _Generic(SYMMEM_A0(__VA_ARGS__, 0), shmem_ctx_t: shmem_ctx_signal_add, default: shmem_signal_add)(__VA_ARGS__)
#define shmem_signal_set(...)                                                                            \
  _Generic(SYMMEM_A0(__VA_ARGS__, 0), shmem_ctx_t: shmem_ctx_signal_set, default: shmem_signal_set)(__VA_ARGS__)
#define shmem_put_signal(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, psig, __VA_ARGS__)
#define shmem_put_signal_nbi(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, psignbi, __VA_ARGS__)
#define shmem_atomic_fetch(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_EXT_TYPES, fetch, __VA_ARGS__)
#define shmem_atomic_set(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_EXT_TYPES, set, __VA_ARGS__)
#define shmem_atomic_swap(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_EXT_TYPES, swap, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_STD_TYPES, cswap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_STD_TYPES, finc, __VA_ARGS__)
#define shmem_atomic_inc(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_STD_TYPES, inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_STD_TYPES, fadd, __VA_ARGS__)
#define shmem_atomic_add(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_STD_TYPES, add, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_BIT_TYPES, fand, __VA_ARGS__)
#define shmem_atomic_and(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_BIT_TYPES, and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_BIT_TYPES, for, __VA_ARGS__)
#define shmem_atomic_or(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_BIT_TYPES, or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_BIT_TYPES, fxor, __VA_ARGS__)
#define shmem_atomic_xor(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_BIT_TYPES, xor, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_EXT_TYPES, fetchnbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_EXT_TYPES, swapnbi, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_STD_TYPES, cswapnbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_STD_TYPES, fincnbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_STD_TYPES, faddnbi, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_BIT_TYPES, fandnbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_BIT_TYPES, fornbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_AMO_BIT_TYPES, fxornbi, __VA_ARGS__)

#define SYMMEM_GEN_CASE_wall(T, N) T *: shmem_##N##_wait_until_all,
#define SYMMEM_GEN_CASE_wany(T, N) T *: shmem_##N##_wait_until_any,
#define SYMMEM_GEN_CASE_wsome(T, N) T *: shmem_##N##_wait_until_some,
#define SYMMEM_GEN_CASE_wallv(T, N) T *: shmem_##N##_wait_until_all_vector,
#define SYMMEM_GEN_CASE_wanyv(T, N) T *: shmem_##N##_wait_until_any_vector,
#define SYMMEM_GEN_CASE_wsomev(T, N) T *: shmem_##N##_wait_until_some_vector,
#define SYMMEM_GEN_CASE_tall(T, N) T *: shmem_##N##_test_all,
#define SYMMEM_GEN_CASE_tany(T, N) T *: shmem_##N##_test_any,
#define SYMMEM_GEN_CASE_tsome(T, N) T *: shmem_##N##_test_some,
#define SYMMEM_GEN_CASE_tallv(T, N) T *: shmem_##N##_test_all_vector,
#define SYMMEM_GEN_CASE_tanyv(T, N) T *: shmem_##N##_test_any_vector,
#define SYMMEM_GEN_CASE_tsomev(T, N) T *: shmem_##N##_test_some_vector,
#define SYMMEM_GEN_CASE_owait(T, N) T *: shmem_##N##_wait,
#define shmem_wait_until_all(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, wall, iv)(iv, __VA_ARGS__)
#define shmem_wait_until_any(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, wany, iv)(iv, __VA_ARGS__)
#define shmem_wait_until_some(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, wsome, iv)(iv, __VA_ARGS__)
#define shmem_wait_until_all_vector(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, wallv, iv)(iv, __VA_ARGS__)
#define shmem_wait_until_any_vector(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, wanyv, iv)(iv, __VA_ARGS__)
#define shmem_wait_until_some_vector(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, wsomev, iv)(iv, __VA_ARGS__)
#define shmem_test_all(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, tall, iv)(iv, __VA_ARGS__)
#define shmem_test_any(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, tany, iv)(iv, __VA_ARGS__)
#define shmem_test_some(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, tsome, iv)(iv, __VA_ARGS__)
#define shmem_test_all_vector(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, tallv, iv)(iv, __VA_ARGS__)
#define shmem_test_any_vector(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, tanyv, iv)(iv, __VA_ARGS__)
#define shmem_test_some_vector(iv, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, tsomev, iv)(iv, __VA_ARGS__)
#define shmem_wait(iv, v) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, owait, iv)(iv, v)

#define SYMMEM_GEN_CASE_bcast(T, N) T *: shmem_##N##_broadcast,
#define SYMMEM_GEN_CASE_collect(T, N) T *: shmem_##N##_collect,
#define SYMMEM_GEN_CASE_fcollect(T, N) T *: shmem_##N##_fcollect,
#define SYMMEM_GEN_CASE_alltoall(T, N) T *: shmem_##N##_alltoall,
#define SYMMEM_GEN_CASE_alltoalls(T, N) T *: shmem_##N##_alltoalls,
#define shmem_broadcast(t, d, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, bcast, d)(t, d, __VA_ARGS__)
#define shmem_collect(t, d, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, collect, d)(t, d, __VA_ARGS__)
#define shmem_fcollect(t, d, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, fcollect, d)(t, d, __VA_ARGS__)
#define shmem_alltoall(t, d, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, alltoall, d)(t, d, __VA_ARGS__)
#define shmem_alltoalls(t, d, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, alltoalls, d)(t, d, __VA_ARGS__)

#define SYMMEM_GEN_CASE_and_reduce(T, N) T *: shmem_##N##_and_reduce,
#define SYMMEM_GEN_CASE_or_reduce(T, N) T *: shmem_##N##_or_reduce,
#define SYMMEM_GEN_CASE_xor_reduce(T, N) T *: shmem_##N##_xor_reduce,
#define SYMMEM_GEN_CASE_max_reduce(T, N) T *: shmem_##N##_max_reduce,
#define SYMMEM_GEN_CASE_min_reduce(T, N) T *: shmem_##N##_min_reduce,
#define SYMMEM_GEN_CASE_sum_reduce(T, N) T *: shmem_##N##_sum_reduce,
#define SYMMEM_GEN_CASE_prod_reduce(T, N) T *: shmem_##N##_prod_reduce,
#define shmem_and_reduce(t, d, s, n) SYMMEM_GEN_SEL(SYMMEM_GEN_REDUCE_BITWISE_TYPES, and_reduce, d)(t, d, s, n)
#define shmem_or_reduce(t, d, s, n) SYMMEM_GEN_SEL(SYMMEM_GEN_REDUCE_BITWISE_TYPES, or_reduce, d)(t, d, s, n)
#define shmem_xor_reduce(t, d, s, n) SYMMEM_GEN_SEL(SYMMEM_GEN_REDUCE_BITWISE_TYPES, xor_reduce, d)(t, d, s, n)
#define shmem_max_reduce(t, d, s, n) SYMMEM_GEN_SEL(SYMMEM_GEN_REDUCE_MINMAX_TYPES, max_reduce, d)(t, d, s, n)
#define shmem_min_reduce(t, d, s, n) SYMMEM_GEN_SEL(SYMMEM_GEN_REDUCE_MINMAX_TYPES, min_reduce, d)(t, d, s, n)
#define shmem_sum_reduce(t, d, s, n) SYMMEM_GEN_SEL(SYMMEM_GEN_REDUCE_ARITH_TYPES, sum_reduce, d)(t, d, s, n)
#define shmem_prod_reduce(t, d, s, n) SYMMEM_GEN_SEL(SYMMEM_GEN_REDUCE_ARITH_TYPES, prod_reduce, d)(t, d, s, n)

/* 9.9.4: shmem_sync(team) in 1.5, beside the deprecated active-set shmem_sync(start, stride, size,
 * pSync) that the exported symbol keeps. The first argument's type picks the form. */
#define shmem_sync(...) \
  _Generic(SYMMEM_A0(__VA_ARGS__, 0), shmem_team_t: shmem_team_sync, default: shmem_sync)(__VA_ARGS__)

#elif defined(__cplusplus)

#define SYMMEM_GEN_CXX_RMA(T, N)                                                                         \
  inline void shmem_put(T *d, const T *s, size_t n, int pe) { shmem_##N##_put(d, s, n, pe); }           \
  inline void shmem_get(T *d, const T *s, size_t n, int pe) { shmem_##N##_get(d, s, n, pe); }           \
  inline void shmem_put_nbi(T *d, const T *s, size_t n, int pe) { shmem_##N##_put_nbi(d, s, n, pe); }   \
  inline void shmem_get_nbi(T *d, const T *s, size_t n, int pe) { shmem_##N##_get_nbi(d, s, n, pe); }   \
  inline void shmem_p(T *d, T v, int pe) { shmem_##N##_p(d, v, pe); }                                   \
  inline T shmem_g(const T *s, int pe) { return shmem_##N##_g(s, pe); }                                  \
  inline void shmem_iput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {             \
    shmem_##N##_iput(d, s, dst, sst, n, pe);                                                             \
  }                                                                                                      \
  inline void shmem_iget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {             \
    shmem_##N##_iget(d, s, dst, sst, n, pe);                                                             \
  }
SYMMEM_GEN_RMA_TYPES(SYMMEM_GEN_CXX_RMA)
#undef SYMMEM_GEN_CXX_RMA

#define SYMMEM_GEN_CXX_AMO_EXT(T, N)                                                                     \
  inline T shmem_atomic_fetch(const T *s, int pe) { return shmem_##N##_atomic_fetch(s, pe); }            \
  inline void shmem_atomic_set(T *d, T v, int pe) { shmem_##N##_atomic_set(d, v, pe); }                 \
  inline T shmem_atomic_swap(T *d, T v, int pe) { return shmem_##N##_atomic_swap(d, v, pe); }
SYMMEM_GEN_AMO_EXT_TYPES(SYMMEM_GEN_CXX_AMO_EXT)
#undef SYMMEM_GEN_CXX_AMO_EXT

#define SYMMEM_GEN_CXX_AMO_STD(T, N)                                                                     \
  inline T shmem_atomic_compare_swap(T *d, T c, T v, int pe) { return shmem_##N##_atomic_compare_swap(d, c, v, pe); } \
  inline T shmem_atomic_fetch_inc(T *d, int pe) { return shmem_##N##_atomic_fetch_inc(d, pe); }         \
  inline void shmem_atomic_inc(T *d, int pe) { shmem_##N##_atomic_inc(d, pe); }                         \
  inline T shmem_atomic_fetch_add(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_add(d, v, pe); } \
  inline void shmem_atomic_add(T *d, T v, int pe) { shmem_##N##_atomic_add(d, v, pe); }
SYMMEM_GEN_AMO_STD_TYPES(SYMMEM_GEN_CXX_AMO_STD)
#undef SYMMEM_GEN_CXX_AMO_STD

#define SYMMEM_GEN_CXX_AMO_BIT(T, N)                                                                     \
  inline T shmem_atomic_fetch_and(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_and(d, v, pe); } \
  inline void shmem_atomic_and(T *d, T v, int pe) { shmem_##N##_atomic_and(d, v, pe); }                 \
  inline T shmem_atomic_fetch_or(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_or(d, v, pe); }   \
  inline void shmem_atomic_or(T *d, T v, int pe) { shmem_##N##_atomic_or(d, v, pe); }                   \
  inline T shmem_atomic_fetch_xor(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_xor(d, v, pe); } \
  inline void shmem_atomic_xor(T *d, T v, int pe) { shmem_##N##_atomic_xor(d, v, pe); }
SYMMEM_GEN_AMO_BIT_TYPES(SYMMEM_GEN_CXX_AMO_BIT)
#undef SYMMEM_GEN_CXX_AMO_BIT

#define SYMMEM_GEN_CXX_P2P(T, N)                                                                         \
  inline void shmem_wait_until(T *ivar, int cmp, T v) { shmem_##N##_wait_until(ivar, cmp, v); }         \
  inline int shmem_test(T *ivar, int cmp, T v) { return shmem_##N##_test(ivar, cmp, v); }
SYMMEM_GEN_P2P_TYPES(SYMMEM_GEN_CXX_P2P)
#undef SYMMEM_GEN_CXX_P2P


#define SYMMEM_GEN_CXX_CTX_RMA(T, N)                                                                     \
  inline void shmem_put(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_put(c, d, s, n, pe); } \
  inline void shmem_get(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_get(c, d, s, n, pe); } \
  inline void shmem_put_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_put_nbi(c, d, s, n, pe); } \
  inline void shmem_get_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_get_nbi(c, d, s, n, pe); } \
  inline void shmem_p(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_p(c, d, v, pe); }             \
  inline T shmem_g(shmem_ctx_t c, const T *s, int pe) { return shmem_ctx_##N##_g(c, s, pe); }            \
  inline void shmem_iput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmem_ctx_##N##_iput(c, d, s, dst, sst, n, pe); } \
  inline void shmem_iget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { shmem_ctx_##N##_iget(c, d, s, dst, sst, n, pe); } \
  inline void shmem_put_signal(T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { shmem_##N##_put_signal(d, s, n, sig, sv, op, pe); } \
  inline void shmem_put_signal(shmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { shmem_ctx_##N##_put_signal(c, d, s, n, sig, sv, op, pe); } \
  inline void shmem_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { shmem_##N##_put_signal_nbi(d, s, n, sig, sv, op, pe); } \
  inline void shmem_put_signal_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { shmem_ctx_##N##_put_signal_nbi(c, d, s, n, sig, sv, op, pe); } \
  inline int shmem_broadcast(shmem_team_t t, T *d, const T *s, size_t n, int root) { return shmem_##N##_broadcast(t, d, s, n, root); } \
  inline int shmem_collect(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_collect(t, d, s, n); } \
  inline int shmem_fcollect(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_fcollect(t, d, s, n); } \
  inline int shmem_alltoall(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_alltoall(t, d, s, n); } \
  inline int shmem_alltoalls(shmem_team_t t, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n) { return shmem_##N##_alltoalls(t, d, s, dst, sst, n); }
SYMMEM_GEN_RMA_TYPES(SYMMEM_GEN_CXX_CTX_RMA)
#undef SYMMEM_GEN_CXX_CTX_RMA

/* The overloads of 1.6's ibput/ibget, prefix sums and context signal updates under the prefix X:
 * shmem_ here, shmemx_ in <shmemx.h> (which uses these macros too, so they stay defined). */
#define SYMMEM_GEN_CXX_16_IB(X, T, N)                                                                    \
  inline void X##ibput(T *d, const T *s, ptrdiff_t tst, ptrdiff_t sst, size_t b, size_t nb, int pe) { X##N##_ibput(d, s, tst, sst, b, nb, pe); } \
  inline void X##ibget(T *d, const T *s, ptrdiff_t tst, ptrdiff_t sst, size_t b, size_t nb, int pe) { X##N##_ibget(d, s, tst, sst, b, nb, pe); } \
  inline void X##ibput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t tst, ptrdiff_t sst, size_t b, size_t nb, int pe) { X##ctx_##N##_ibput(c, d, s, tst, sst, b, nb, pe); } \
  inline void X##ibget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t tst, ptrdiff_t sst, size_t b, size_t nb, int pe) { X##ctx_##N##_ibget(c, d, s, tst, sst, b, nb, pe); }
#define SYMMEM_GEN_CXX_16_SCAN(X, T, N)                                                                  \
  inline int X##sum_inscan(shmem_team_t t, T *d, const T *s, size_t n) { return X##N##_sum_inscan(t, d, s, n); } \
  inline int X##sum_exscan(shmem_team_t t, T *d, const T *s, size_t n) { return X##N##_sum_exscan(t, d, s, n); }
#define SYMMEM_GEN_CXX_16_SIG(X)                                                                         \
  inline void X##signal_add(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe) { X##ctx_signal_add(c, sig, v, pe); } \
  inline void X##signal_set(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe) { X##ctx_signal_set(c, sig, v, pe); }
#define SYMMEM_GEN_CXX_IB(T, N) SYMMEM_GEN_CXX_16_IB(shmem_, T, N)
#define SYMMEM_GEN_CXX_SCAN(T, N) SYMMEM_GEN_CXX_16_SCAN(shmem_, T, N)
SYMMEM_GEN_RMA_TYPES(SYMMEM_GEN_CXX_IB)
SYMMEM_GEN_REDUCE_ARITH_TYPES(SYMMEM_GEN_CXX_SCAN)
SYMMEM_GEN_CXX_16_SIG(shmem_)
#undef SYMMEM_GEN_CXX_IB
#undef SYMMEM_GEN_CXX_SCAN

#define SYMMEM_GEN_CXX_CTX_EXT(T, N)                                                                     \
  inline T shmem_atomic_fetch(shmem_ctx_t c, const T *s, int pe) { return shmem_ctx_##N##_atomic_fetch(c, s, pe); } \
  inline void shmem_atomic_set(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_atomic_set(c, d, v, pe); } \
  inline T shmem_atomic_swap(shmem_ctx_t c, T *d, T v, int pe) { return shmem_ctx_##N##_atomic_swap(c, d, v, pe); } \
  inline void shmem_atomic_fetch_nbi(T *f, const T *s, int pe) { shmem_##N##_atomic_fetch_nbi(f, s, pe); } \
  inline void shmem_atomic_fetch_nbi(shmem_ctx_t c, T *f, const T *s, int pe) { shmem_ctx_##N##_atomic_fetch_nbi(c, f, s, pe); } \
  inline void shmem_atomic_swap_nbi(T *f, T *d, T v, int pe) { shmem_##N##_atomic_swap_nbi(f, d, v, pe); } \
  inline void shmem_atomic_swap_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe) { shmem_ctx_##N##_atomic_swap_nbi(c, f, d, v, pe); }
SYMMEM_GEN_AMO_EXT_TYPES(SYMMEM_GEN_CXX_CTX_EXT)
#undef SYMMEM_GEN_CXX_CTX_EXT

#define SYMMEM_GEN_CXX_CTX_STD(T, N)                                                                     \
  inline T shmem_atomic_compare_swap(shmem_ctx_t c, T *d, T k, T v, int pe) { return shmem_ctx_##N##_atomic_compare_swap(c, d, k, v, pe); } \
  inline T shmem_atomic_fetch_inc(shmem_ctx_t c, T *d, int pe) { return shmem_ctx_##N##_atomic_fetch_inc(c, d, pe); } \
  inline void shmem_atomic_inc(shmem_ctx_t c, T *d, int pe) { shmem_ctx_##N##_atomic_inc(c, d, pe); }   \
  inline T shmem_atomic_fetch_add(shmem_ctx_t c, T *d, T v, int pe) { return shmem_ctx_##N##_atomic_fetch_add(c, d, v, pe); } \
  inline void shmem_atomic_add(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_atomic_add(c, d, v, pe); } \
  inline void shmem_atomic_compare_swap_nbi(T *f, T *d, T k, T v, int pe) { shmem_##N##_atomic_compare_swap_nbi(f, d, k, v, pe); } \
  inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t c, T *f, T *d, T k, T v, int pe) { shmem_ctx_##N##_atomic_compare_swap_nbi(c, f, d, k, v, pe); } \
  inline void shmem_atomic_fetch_inc_nbi(T *f, T *d, int pe) { shmem_##N##_atomic_fetch_inc_nbi(f, d, pe); } \
  inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t c, T *f, T *d, int pe) { shmem_ctx_##N##_atomic_fetch_inc_nbi(c, f, d, pe); } \
  inline void shmem_atomic_fetch_add_nbi(T *f, T *d, T v, int pe) { shmem_##N##_atomic_fetch_add_nbi(f, d, v, pe); } \
  inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe) { shmem_ctx_##N##_atomic_fetch_add_nbi(c, f, d, v, pe); }
SYMMEM_GEN_AMO_STD_TYPES(SYMMEM_GEN_CXX_CTX_STD)
#undef SYMMEM_GEN_CXX_CTX_STD

#define SYMMEM_GEN_CXX_CTX_BIT1(T, N, OP)                                                                \
  inline T shmem_atomic_fetch_##OP(shmem_ctx_t c, T *d, T v, int pe) { return shmem_ctx_##N##_atomic_fetch_##OP(c, d, v, pe); } \
  inline void shmem_atomic_##OP(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_atomic_##OP(c, d, v, pe); } \
  inline void shmem_atomic_fetch_##OP##_nbi(T *f, T *d, T v, int pe) { shmem_##N##_atomic_fetch_##OP##_nbi(f, d, v, pe); } \
  inline void shmem_atomic_fetch_##OP##_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe) { shmem_ctx_##N##_atomic_fetch_##OP##_nbi(c, f, d, v, pe); }
#define SYMMEM_GEN_CXX_CTX_BIT(T, N) SYMMEM_GEN_CXX_CTX_BIT1(T, N, and) SYMMEM_GEN_CXX_CTX_BIT1(T, N, or) SYMMEM_GEN_CXX_CTX_BIT1(T, N, xor)
SYMMEM_GEN_AMO_BIT_TYPES(SYMMEM_GEN_CXX_CTX_BIT)
#undef SYMMEM_GEN_CXX_CTX_BIT
#undef SYMMEM_GEN_CXX_CTX_BIT1

#define SYMMEM_GEN_CXX_P2P_SET(T, N)                                                                     \
  inline void shmem_wait_until_all(T *iv, size_t n, const int *st, int cmp, T v) { shmem_##N##_wait_until_all(iv, n, st, cmp, v); } \
  inline size_t shmem_wait_until_any(T *iv, size_t n, const int *st, int cmp, T v) { return shmem_##N##_wait_until_any(iv, n, st, cmp, v); } \
  inline size_t shmem_wait_until_some(T *iv, size_t n, size_t *ix, const int *st, int cmp, T v) { return shmem_##N##_wait_until_some(iv, n, ix, st, cmp, v); } \
  inline void shmem_wait_until_all_vector(T *iv, size_t n, const int *st, int cmp, T *vs) { shmem_##N##_wait_until_all_vector(iv, n, st, cmp, vs); } \
  inline size_t shmem_wait_until_any_vector(T *iv, size_t n, const int *st, int cmp, T *vs) { return shmem_##N##_wait_until_any_vector(iv, n, st, cmp, vs); } \
  inline size_t shmem_wait_until_some_vector(T *iv, size_t n, size_t *ix, const int *st, int cmp, T *vs) { return shmem_##N##_wait_until_some_vector(iv, n, ix, st, cmp, vs); } \
  inline int shmem_test_all(T *iv, size_t n, const int *st, int cmp, T v) { return shmem_##N##_test_all(iv, n, st, cmp, v); } \
  inline size_t shmem_test_any(T *iv, size_t n, const int *st, int cmp, T v) { return shmem_##N##_test_any(iv, n, st, cmp, v); } \
  inline size_t shmem_test_some(T *iv, size_t n, size_t *ix, const int *st, int cmp, T v) { return shmem_##N##_test_some(iv, n, ix, st, cmp, v); } \
  inline int shmem_test_all_vector(T *iv, size_t n, const int *st, int cmp, T *vs) { return shmem_##N##_test_all_vector(iv, n, st, cmp, vs); } \
  inline size_t shmem_test_any_vector(T *iv, size_t n, const int *st, int cmp, T *vs) { return shmem_##N##_test_any_vector(iv, n, st, cmp, vs); } \
  inline size_t shmem_test_some_vector(T *iv, size_t n, size_t *ix, const int *st, int cmp, T *vs) { return shmem_##N##_test_some_vector(iv, n, ix, st, cmp, vs); } \
  inline void shmem_wait(T *iv, T v) { shmem_##N##_wait(iv, v); }
SYMMEM_GEN_P2P_TYPES(SYMMEM_GEN_CXX_P2P_SET)
#undef SYMMEM_GEN_CXX_P2P_SET

#define SYMMEM_GEN_CXX_REDUCE(T, N, OP) \
  inline int shmem_##OP##_reduce(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_##OP##_reduce(t, d, s, n); }
#define SYMMEM_GEN_CXX_REDUCE_BIT(T, N) SYMMEM_GEN_CXX_REDUCE(T, N, and) SYMMEM_GEN_CXX_REDUCE(T, N, or) SYMMEM_GEN_CXX_REDUCE(T, N, xor)
#define SYMMEM_GEN_CXX_REDUCE_MM(T, N) SYMMEM_GEN_CXX_REDUCE(T, N, max) SYMMEM_GEN_CXX_REDUCE(T, N, min)
#define SYMMEM_GEN_CXX_REDUCE_AR(T, N) SYMMEM_GEN_CXX_REDUCE(T, N, sum) SYMMEM_GEN_CXX_REDUCE(T, N, prod)
SYMMEM_GEN_REDUCE_BITWISE_TYPES(SYMMEM_GEN_CXX_REDUCE_BIT)
SYMMEM_GEN_REDUCE_MINMAX_TYPES(SYMMEM_GEN_CXX_REDUCE_MM)
SYMMEM_GEN_REDUCE_ARITH_TYPES(SYMMEM_GEN_CXX_REDUCE_AR)
#undef SYMMEM_GEN_CXX_REDUCE_BIT
#undef SYMMEM_GEN_CXX_REDUCE_MM
#undef SYMMEM_GEN_CXX_REDUCE_AR
#undef SYMMEM_GEN_CXX_REDUCE


inline int shmem_sync(shmem_team_t team) { return shmem_team_sync(team); }

#endif

#endif /* SYMMEM_SHMEM_GENERIC_H */
