// symmem GPU test, -rdc build: a kernel in a second translation unit that includes device.cuh. It
// has its own __constant__ copy of the device state, registered by its own static constructor.
#include <symmem/device.cuh>

namespace sd = symmem::device;

__global__ void rdc_ring_kernel(int *slots, int round) {
  if (threadIdx.x == 0) {
    const int me = sd::my_pe(), n = sd::n_pes();
    sd::p(&slots[2 * me], round, (me + 1) % n);
    sd::barrier_all();
  }
}
