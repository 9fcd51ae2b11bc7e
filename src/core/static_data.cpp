// symmem: static data in the job, and translate's miss path.
#include "core/static_data.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace symmem::core {
namespace {

// data_peer[pe] points `lo - map_lo` bytes into the mapping of PE pe's memfd.
size_t head() { return g.data_layout.lo - g.data_layout.map_lo; }

}  // namespace

data_info data_prepare() {
  g.data_layout = mem::find_data_layout();
  const mem::data_layout &l = g.data_layout;
  data_info d{l.lo, l.size(), l.signature, 0, 0};
  if (g.cfg.symmetric_data && g.n_pes > 1 && d.len != 0) {
    d.shared = mem::share_data(l, "init").ok() ? 1 : 0;  // on failure the message says why
  }
  log(log_level::info, "static data %#lx..%#lx (%zu bytes)%s", static_cast<unsigned long>(l.lo),
      static_cast<unsigned long>(l.hi), l.size(), d.shared ? ", on shared memory" : "");
  return d;
}

void data_agree(const std::vector<data_info> &all) {
  const auto n = static_cast<size_t>(g.n_pes);
  const data_info &mine = all[static_cast<size_t>(g.my_pe)];
  g.data_table.assign(n, nullptr);
  g.data_remote_lo.assign(n, 0);
  g.data_unavailable.clear();
  if (!g.cfg.symmetric_data) {
    g.data_unavailable = "SYMMEM_SYMMETRIC_DATA=0 keeps global and static variables private";
    return;
  }
  if (mine.len == 0) {
    g.data_unavailable = "the program has no writable data segment";
    return;
  }
  for (size_t p = 0; p < n; ++p) {
    if (all[p].signature != mine.signature || all[p].len != mine.len) {
      g.data_unavailable = strfmt("PE %zu runs a different executable than PE %d (global and static variables are "
                                  "symmetric only when every PE runs the same program)", p, g.my_pe);
      return;
    }
    g.data_remote_lo[p] = all[p].lo;
  }
  g.data_table[static_cast<size_t>(g.my_pe)] = reinterpret_cast<char *>(mine.lo);
  g.data_lo = mine.lo;
  g.data_len = mine.len;
}

int data_export_fd() { return mem::shared_data().fd; }

status data_map_peer(int pe, int fd) {
  const size_t len = g.data_layout.map_len;
  void *p = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int e = errno;
  ::close(fd);
  if (p == MAP_FAILED) {
    return fail(SYMMEM_ERR_SYSTEM, "init", "cannot map the static data of PE %d (%zu bytes): %s", pe, len,
                std::strerror(e));
  }
  if (g.data_len != 0) {
    g.data_table[static_cast<size_t>(pe)] = static_cast<char *>(p) + head();
  } else {
    ::munmap(p, len);  // a different executable: its pages mean nothing here
  }
  return ok_status;
}

void data_teardown() {
  g.data_len = 0;  // first: the miss path now fails
  g.data_peer = nullptr;
  for (size_t p = 0; p < g.data_table.size(); ++p) {
    if (g.data_table[p] != nullptr && static_cast<int>(p) != g.my_pe) {
      ::munmap(g.data_table[p] - head(), g.data_layout.map_len);
    }
  }
  g.data_table.clear();
  g.data_remote_lo.clear();
  mem::unshare_data();
}

char *translate_miss(const void *addr, size_t len, int pe, const char *call) {
  if (char *p = translate_data(addr, len, pe)) {
    return p;
  }
  bad_target(addr, len, pe, call);
}

namespace {

[[noreturn]] void bad_static_target(uintptr_t a, size_t len, int pe, const char *call) {
  const mem::data_layout &l = g.data_layout;
  if (g.data_len == 0) {
    fatal(call, "address %#lx is a global or static variable, but this job's static data is not symmetric: %s; use "
          "memory from shmem_malloc", static_cast<unsigned long>(a), g.data_unavailable.c_str());
  }
  if (a + len > l.hi || a + len < a) {
    fatal(call, "%zu bytes at %#lx run past the end of the program's global and static data (%#lx)", len,
          static_cast<unsigned long>(a), static_cast<unsigned long>(l.hi));
  }
  if (g.local_rank_of[static_cast<size_t>(pe)] < 0) {
    fatal(call, "PE %d is on another host: its memory is not mapped here, and %s reaches only mapped memory (use "
          "the RMA routines, or a PE of this host)", pe, call);
  }
  fatal(call, "PE %d's global and static variables are not mapped here: it could not put them on shared memory at "
        "init (its message says why)", pe);
}

}  // namespace

[[noreturn]] void bad_target(const void *addr, size_t len, int pe, const char *call) {
  if (g.heap_size == 0) {
    not_initialized(call);
  }
  if (static_cast<unsigned>(pe) >= static_cast<unsigned>(g.n_pes)) {
    fatal(call, "PE %d is out of range: the job has PEs 0..%d", pe, g.n_pes - 1);
  }
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  const uintptr_t heap_end = g.heap_base + g.heap_size;
  if (a >= g.heap_base && a < heap_end) {
    if (a + len > heap_end || a + len < a) {
      fatal(call, "%zu bytes at %p run past the end of the symmetric heap (%#lx)", len, addr,
            static_cast<unsigned long>(heap_end));
    }
    fatal(call, "PE %d is on another host: its memory is not mapped here, and %s reaches only mapped memory (use "
          "the RMA routines, or a PE of this host)", pe, call);
  }
  if (a >= g.data_layout.lo && a < g.data_layout.hi) {
    bad_static_target(a, len, pe, call);
  }
  const std::string what = mem::describe_address(addr);
  if (!what.empty()) {
    fatal(call, "address %p is not symmetric: it is %s; use a global or static variable of the program, or memory "
          "from shmem_malloc", addr, what.c_str());
  }
  fatal(call, "address %p is not symmetric: it is neither in the symmetric heap (%#lx..%#lx) nor one of the "
        "program's global or static variables (%#lx..%#lx); use one of those (shmem_malloc, or a global or static "
        "variable)", addr, static_cast<unsigned long>(g.heap_base), static_cast<unsigned long>(heap_end),
        static_cast<unsigned long>(g.data_layout.lo), static_cast<unsigned long>(g.data_layout.hi));
}

[[noreturn]] void bad_heap_target(const void *addr, size_t len, int pe, const char *call) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  if (g.heap_size != 0 && a >= g.data_layout.lo && a < g.data_layout.hi) {
    fatal(call, "address %p is a global or static variable, which is host memory: GPU work reaches only the "
          "symmetric heap; allocate it with symmem_malloc (nvshmem_malloc)", addr);
  }
  bad_target(addr, len, pe, call);
}

}  // namespace symmem::core
