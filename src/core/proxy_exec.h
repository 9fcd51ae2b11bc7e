// symmem: the proxy that carries GPU kernels' requests to PEs on other hosts (proxy_exec.cpp).
//
// The GPU heap starts it at init when some PE is remote, with the ring it publishes to kernels
// (src/cuda/device_runtime.cpp); finalize stops it once this PE's kernels are done and before the
// network is flushed and closed (core/runtime.cpp). No ring, no thread.
#pragma once

#include "symmem/detail/proxy_ring.h"

namespace symmem::core {

// Starts a proxy thread that consumes `ring` (which must outlive it) through the runtime's routines.
// Returns how many CPUs the thread may use when this PE is bound to one CPU (the machine's others:
// common/helper_thread.h), 0 when it runs where the PE does.
int proxy_start(symmem_proxy_ring *ring);
// Carries out the requests already published, completes them, stops the thread and frees its
// communication context. The producers must be done. Nothing when no proxy runs.
void proxy_stop();
// A PE exiting without finalize: the thread stops touching the network and ends, before the
// transport is closed at exit. False when it did not end within 2 s (stuck in a call).
bool proxy_abandon();
bool proxy_running();

}  // namespace symmem::core
