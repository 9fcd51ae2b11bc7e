// The C++ API in a dozen lines: RAII runtime, a symmetric array, a put and an atomic.
#include <cstdio>
#include <vector>

#include <symmem/symmem.hpp>

int main() {
  symmem::runtime rt;
  const int me = rt.my_pe();
  const int n = rt.n_pes();
  symmem::sym_array<int> inbox(4);
  symmem::sym_array<long> hits(1);
  hits[0] = 0;
  rt.barrier_all();

  std::vector<int> msg{me + 1, (me + 1) * 10, (me + 1) * 100, (me + 1) * 1000};  // from PE i: i+1, ...

  symmem::put(inbox.data(), std::span<const int>(msg), (me + 1) % n);
  symmem::atomic_fetch_add(hits.data(), 1L, 0);
  rt.barrier_all();

  std::printf("PE %d of %d got {%d, %d, %d, %d}%s\n", me, n, inbox[0], inbox[1], inbox[2], inbox[3],
              me == 0 ? (" and counted " + std::to_string(hits[0]) + " hits").c_str() : "");
  return 0;
}
