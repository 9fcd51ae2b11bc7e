// Host collectives on a GPU heap whose team has members on other hosts (coll_hosts.cpp).
#pragma once

#include <cstddef>

#include "cuda/kernels.h"
#include "symmem/detail/device_state.h"

namespace symmem::cuda {

// True when some member of the team is on another host (reached through the network).
bool spans_hosts(const symmem_device_team &t);
// Carries out the checked collective `a` (not a barrier or sync) with puts, gets and team syncs;
// complete on return. esize: bytes per element of a.dtype.
void collective_across_hosts(const coll_args &a, const symmem_device_team &t, size_t esize);

}  // namespace symmem::cuda
