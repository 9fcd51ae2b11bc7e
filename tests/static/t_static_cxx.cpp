// A C++ program whose global constructors run before main: one fills a std::vector and a global
// table, another starts the job itself (shmem_init from a constructor, shmem_finalize from the
// destructor). Their results survive the move of the program's data, and the globals are symmetric.
#include <shmem.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(c)                                                                                       \
  do {                                                                                                 \
    if (!(c)) {                                                                                        \
      std::fprintf(stderr, "CHECK FAILED on PE %d at line %d: %s\n", shmem_my_pe(), __LINE__, #c);    \
      shmem_global_exit(1);                                                                            \
    }                                                                                                  \
  } while (0)

std::vector<long> filled_early(1000);  // its pointers live in .bss, its elements on the heap
std::string name_early = "constructed before main, long enough to need the heap";
long table[256];

namespace {
struct fill {
  fill() {
    for (int i = 0; i < 256; ++i) table[i] = 7 * i;
    for (size_t i = 0; i < filled_early.size(); ++i) filled_early[i] = static_cast<long>(i);
  }
} filler;

struct job {
  job() { shmem_init(); }  // the job starts before main
  ~job() { shmem_finalize(); }
} the_job;
}  // namespace

int main() {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  CHECK(name_early == "constructed before main, long enough to need the heap");
  for (size_t i = 0; i < filled_early.size(); ++i) CHECK(filled_early[i] == static_cast<long>(i));
  long got[256];
  shmem_long_get(got, table, 256, (me + 1) % n);  // the next PE's constructor filled its copy
  for (int i = 0; i < 256; ++i) CHECK(got[i] == 7 * i);
  shmem_barrier_all();
  shmem_long_p(&table[0], 1000 + me, (me + 1) % n);
  shmem_barrier_all();
  CHECK(table[0] == 1000 + (me + n - 1) % n);
  filled_early.push_back(5);  // the heap still works for the vector
  CHECK(filled_early.back() == 5);
  shmem_barrier_all();
  if (me == 0) std::printf("t_static_cxx: %d PEs ok\n", n);
  return 0;
}
