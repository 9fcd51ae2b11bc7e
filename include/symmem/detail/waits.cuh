/* symmem: the multi-variable point-to-point waits and tests (OpenSHMEM 1.5 section 9.10), device
 * side (included by <symmem/device.cuh>). Over the ivars whose status entry is 0 (status NULL: all
 * of them); the _vector forms compare ivars[i] with values[i]. The waits are bounded like every
 * device wait (SYMMEM_WAIT_TIMEOUT).
 */
#ifndef SYMMEM_DETAIL_WAITS_CUH
#define SYMMEM_DETAIL_WAITS_CUH

namespace symmem {
namespace device {
namespace detail {

__device__ __forceinline__ bool active(const int *status, size_t i) { return status == nullptr || status[i] == 0; }

/* Polls until `done()`; `what` names the wait in the timeout message. */
template <typename T, typename F>
__device__ __forceinline__ void poll(const T *ivars, int cmp, F done) {
  const uint64_t start = globaltimer();
  uint32_t turns = 0;
  while (!done()) {
    if (spin_expired(start, symmem_state_.spin_limit_ns, turns)) wait_until_timeout(ivars, cmp);
  }
}

}  // namespace detail

/* Vector forms: V is a pointer (values[i]) or a T (one value for all). */
template <typename T>
__device__ __forceinline__ T value_at(const T *v, size_t i) { return v[i]; }
template <typename T>
__device__ __forceinline__ T value_at(T v, size_t) { return v; }

template <typename T, typename V>
__device__ __forceinline__ int test_all_v(T *ivars, size_t n, const int *status, int cmp, V values) {
  for (size_t i = 0; i < n; ++i) {
    if (detail::active(status, i) && !test(&ivars[i], cmp, value_at(values, i))) return 0;
  }
  return 1;
}
template <typename T, typename V>
__device__ __forceinline__ size_t test_any_v(T *ivars, size_t n, const int *status, int cmp, V values) {
  for (size_t i = 0; i < n; ++i) {
    if (detail::active(status, i) && test(&ivars[i], cmp, value_at(values, i))) return i;
  }
  return SIZE_MAX;
}
template <typename T, typename V>
__device__ __forceinline__ size_t test_some_v(T *ivars, size_t n, size_t *indices, const int *status, int cmp,
                                              V values) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    if (detail::active(status, i) && test(&ivars[i], cmp, value_at(values, i))) indices[k++] = i;
  }
  return k;
}
template <typename T, typename V>
__device__ __forceinline__ void wait_until_all_v(T *ivars, size_t n, const int *status, int cmp, V values) {
  for (size_t i = 0; i < n; ++i) {
    if (detail::active(status, i)) wait_until(&ivars[i], cmp, value_at(values, i));
  }
}
template <typename T, typename V>
__device__ __forceinline__ size_t wait_until_any_v(T *ivars, size_t n, const int *status, int cmp, V values) {
  bool any = false;
  for (size_t i = 0; i < n; ++i) any = any || detail::active(status, i);
  if (!any) return SIZE_MAX;
  size_t got = SIZE_MAX;
  detail::poll(ivars, cmp, [&] { return (got = test_any_v(ivars, n, status, cmp, values)) != SIZE_MAX; });
  return got;
}
template <typename T, typename V>
__device__ __forceinline__ size_t wait_until_some_v(T *ivars, size_t n, size_t *indices, const int *status, int cmp,
                                                    V values) {
  bool any = false;
  for (size_t i = 0; i < n; ++i) any = any || detail::active(status, i);
  if (!any) return 0;
  size_t got = 0;
  detail::poll(ivars, cmp, [&] { return (got = test_some_v(ivars, n, indices, status, cmp, values)) != 0; });
  return got;
}

template <typename T>
__device__ __forceinline__ void wait_until_all(T *ivars, size_t n, const int *status, int cmp, T value) {
  wait_until_all_v(ivars, n, status, cmp, value);
}
template <typename T>
__device__ __forceinline__ size_t wait_until_any(T *ivars, size_t n, const int *status, int cmp, T value) {
  return wait_until_any_v(ivars, n, status, cmp, value);
}
template <typename T>
__device__ __forceinline__ int test_all(T *ivars, size_t n, const int *status, int cmp, T value) {
  return test_all_v(ivars, n, status, cmp, value);
}
template <typename T>
__device__ __forceinline__ size_t test_any(T *ivars, size_t n, const int *status, int cmp, T value) {
  return test_any_v(ivars, n, status, cmp, value);
}

/* Strided copies by a warp or a block: element i goes from source[i*sst] to dest[i*dst]. */
template <typename G, typename T>
__device__ __forceinline__ void iput_group(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {
  T *d = n != 0 ? detail::mapped(dest, pe) : dest;
  if (d == nullptr) return detail::remote_iput<G>(dest, source, dst, sst, n, pe);  // another host
  for (size_t i = G::idx(); i < n; i += G::size()) d[(ptrdiff_t)i * dst] = source[(ptrdiff_t)i * sst];
  G::sync();
}
template <typename G, typename T>
__device__ __forceinline__ void iget_group(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {
  const T *s = n != 0 ? detail::mapped(source, pe) : source;
  if (s == nullptr) return detail::remote_iget<G>(dest, source, dst, sst, n, pe);
  for (size_t i = G::idx(); i < n; i += G::size()) dest[(ptrdiff_t)i * dst] = s[(ptrdiff_t)i * sst];
  G::sync();
}

}  // namespace device
}  // namespace symmem

#endif /* SYMMEM_DETAIL_WAITS_CUH */
