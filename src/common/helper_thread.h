// symmem: the CPUs of a PE's helper threads (the GPU heap's proxy thread, the network's progress
// thread).
//
// Launchers bind each PE to one CPU: mpirun does by default (OpenMPI binds to a core at 2 ranks and
// more), as do `srun --cpu-bind=cores` and `symmem-run --bind-to core`. A thread inherits the
// binding of the thread that starts it, so a PE's helpers then share that one CPU with the PE's
// own thread, which spins in its waits and in CUDA's stream synchronisations: a kernel's request to
// a PE on another host waits for a time slice of the proxy thread. Measured on one H100 with two
// PEs on two emulated hosts under mpirun's default binding (BENCHMARKS.md): NVIDIA's Jacobi
// example with `-use_block_comm`, 100 iterations, took 1.20-1.37 s, and 0.54-0.63 s with the
// binding off. So a helper of a PE bound to one CPU may run on the machine's other CPUs (those its
// cgroup allows; the scheduler puts it on an idle one), and the PE keeps its own CPU.
// SYMMEM_HELPER_CPUS=bound leaves the helpers on the PE's CPU.
#pragma once

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace symmem::common {

// Called by the thread that started `helper` (it carries the PE's binding): when that binding is
// one CPU, lets `helper` run on every other CPU of the machine that the system allows, and names
// it `name` (at most 15 characters, for ps and /proc). Returns how many CPUs `helper` may use
// now, or 0 when its CPUs were left as they were (not bound to one CPU, SYMMEM_HELPER_CPUS=bound,
// or no other CPU allowed).
inline int spread_helper_thread(pthread_t helper, const char *name) {
  (void)pthread_setname_np(helper, name);
  const char *mode = std::getenv("SYMMEM_HELPER_CPUS");
  if (mode != nullptr && std::strcmp(mode, "bound") == 0) return 0;
  cpu_set_t own;
  if (sched_getaffinity(0, sizeof own, &own) != 0 || CPU_COUNT(&own) != 1) return 0;
  const long cpus = sysconf(_SC_NPROCESSORS_CONF);
  cpu_set_t others;
  CPU_ZERO(&others);
  for (long c = 0; c < cpus && c < CPU_SETSIZE; ++c)
    if (!CPU_ISSET(static_cast<int>(c), &own)) CPU_SET(static_cast<int>(c), &others);
  // The kernel keeps the CPUs the cgroup allows and refuses a set with none of them.
  if (CPU_COUNT(&others) == 0 || pthread_setaffinity_np(helper, sizeof others, &others) != 0) return 0;
  cpu_set_t now;
  return pthread_getaffinity_np(helper, sizeof now, &now) == 0 ? CPU_COUNT(&now) : 0;
}

}  // namespace symmem::common
