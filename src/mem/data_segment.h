// symmem: the program's global and static variables as one symmetric object.
//
// OpenSHMEM 1.5, section 3.2: in C and C++ the global and static variables are symmetric data
// objects, remotely accessible like the symmetric heap. They live in the executable's writable
// PT_LOAD segment (.data, .bss, and the variables of shared libraries that copy relocations place
// there, such as stdout and environ); PT_GNU_RELRO's read-only part is not data. share_data()
// moves those pages onto a memfd mapped at the same address, so node-local peers can map the memfd
// and reach them by load and store at heap speed; the addresses differ between PEs (ASLR, PIE), so
// peers translate by offset: `peer copy = peer mapping + (addr - lo)`. unshare_data() turns them
// back into private memory (finalize). Fork in between gives the child a private copy (see the .cpp).
// Design and the pitfalls: docs/static-data.md.
//
// For a transport that registers memory (UCX): shared_data() gives this PE's pages and the memfd,
// next to the heap's provider::export_fds(); a symmetric address's offset is `addr - layout.lo`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/error.h"

namespace symmem::mem {

// Where the executable's symmetric data lies in this process.
struct data_layout {
  uintptr_t lo = 0;         // first and one past the last byte of the symmetric data
  uintptr_t hi = 0;
  uintptr_t map_lo = 0;     // the whole pages that hold it (the first may also hold RELRO's tail)
  size_t map_len = 0;
  size_t anon_from = 0;     // offset from map_lo of the first page not backed by the file (.bss)
  uint64_t signature = 0;   // the executable's build id and layout: equal on PEs that run one program
  [[nodiscard]] size_t size() const { return hi > lo ? hi - lo : 0; }
};

// Reads the executable's program headers (dl_iterate_phdr); no side effects.
data_layout find_data_layout();

// This PE's static data while it is shared: the pages [base, base+size) and the memfd behind them.
struct data_region {
  uintptr_t base = 0;
  size_t size = 0;
  int fd = -1;
};

// Moves the pages of `layout` onto a memfd at the same address, contents kept. Safe while other
// threads run: their writes to the pages wait the few microseconds of the move (a fault hook), and
// are not lost. On failure the pages stay as they were.
status share_data(const data_layout &layout, const char *call);
// Back to private memory, contents kept; closes the memfd (peers must have unmapped theirs).
void unshare_data();
// The shared pages and their memfd; size 0 and fd -1 while not shared.
data_region shared_data();

// The window share_data moves the pages in, for any pages: runs `swap(arg)` with [base, base+len)
// read-only and other threads' writes to them held in the fault hook until it returns (0, or
// -errno after leaving the pages as they were); then the held writes are retried. `swap` must not
// write to those pages itself. Used by share_data, unshare_data and the fork handler; public for
// the unit tests.
long hold_writes(uintptr_t base, size_t len, long (*swap)(void *), void *arg);

// For error messages: what a non-symmetric address is, when that can be told ("a thread-local
// variable", "a global variable of the shared library libfoo.so", "on this thread's stack"), or "".
std::string describe_address(const void *addr);

}  // namespace symmem::mem
