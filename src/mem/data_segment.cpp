// symmem: the program's static data on shared memory (see data_segment.h, docs/static-data.md).
//
// Moving pages that the program is using is done in a window: the pages are made read-only, their
// contents are copied to the new backing, and the new backing is mapped over them with MAP_FIXED
// (which replaces a mapping atomically). A thread that writes to them in the window faults, waits
// in the fault hook, and returns to redo its store on the new pages. Inside the window the moving
// thread must not write to the pages itself, and when libsymmem is linked statically its own
// globals, glibc's, and the executable's lazily bound GOT are all *in* those pages: so the window
// uses only the stack, raw system calls (no libc call: its PLT slot might be unresolved, and the
// resolver would write into the held pages) and loops written here (no memcpy, no sanitizer checks).
#include "mem/data_segment.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "common/fault.h"

namespace symmem::mem {
namespace {

// ---- the executable's layout ------------------------------------------------------------------

uint64_t fnv(uint64_t h, const void *p, size_t n) {
  for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const unsigned char *>(p)[i]) * 1099511628211ULL;
  return h;
}

// The GNU build id from the executable's notes, folded into `h`.
uint64_t fold_build_id(uint64_t h, const dl_phdr_info *info) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char *p = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
    const char *end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto *n = reinterpret_cast<const ElfW(Nhdr) *>(p);
      const char *name = p + sizeof *n;
      const char *desc = name + ((n->n_namesz + 3) & ~3u);
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        return fnv(h, desc, n->n_descsz);
      }
      p = desc + ((n->n_descsz + 3) & ~3u);
    }
  }
  return h;
}

// The writable PT_LOADs minus RELRO's prefix; the last non-empty one holds .data and .bss in every
// linker layout (GNU ld and gold: one RW segment; lld and mold: a RELRO segment, then .data/.bss).
int scan_executable(dl_phdr_info *info, size_t, void *arg) {
  auto &out = *static_cast<data_layout *>(arg);
  const uintptr_t bias = info->dlpi_addr;
  uintptr_t relro_lo = 0, relro_hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_GNU_RELRO) {
      relro_lo = bias + ph.p_vaddr;
      relro_hi = relro_lo + ph.p_memsz;
    }
  }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_W) == 0) continue;
    uintptr_t lo = bias + ph.p_vaddr;
    const uintptr_t hi = lo + ph.p_memsz;
    const uintptr_t file_end = lo + ph.p_filesz;
    if (relro_hi > lo && relro_lo <= lo) lo = relro_hi;  // RELRO is the segment's prefix
    if (lo < hi) {
      out.lo = lo;
      out.hi = hi;
      out.anon_from = file_end;  // an address for now
    }
  }
  if (out.hi > out.lo) {
    // Whole pages: the loader rounds RELRO's end down, so a page shared by RELRO's tail and the
    // first data stays writable (and moves along); after .bss the page is the executable's alone
    // (the brk heap starts on a page boundary of its own).
    const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    out.map_lo = out.lo & ~(page - 1);
    out.map_len = ((out.hi + page - 1) & ~(page - 1)) - out.map_lo;
    const uintptr_t anon = (out.anon_from + page - 1) & ~(page - 1);
    out.anon_from = anon > out.map_lo ? anon - out.map_lo : 0;
    uint64_t h = fold_build_id(1469598103934665603ULL, info);
    const uint64_t shape[3] = {out.lo - bias, out.hi - bias, out.map_len};
    out.signature = fnv(h, shape, sizeof shape);
  }
  return 1;  // the first object is the executable: stop
}

// ---- the window ---------------------------------------------------------------------------------

// The last window's pages, kept after it closes, and when it closed (CLOCK_MONOTONIC, ns; 0 while
// it is open). A thread that faulted inside the window may reach the hook only after it closed (its
// handler was scheduled late), and must then retry too, not be handed to the next handler as a crash.
std::atomic<uintptr_t> g_hold_base{0};
std::atomic<size_t> g_hold_len{0};
std::atomic<uint64_t> g_closed_ns{0};
// How long after a window closes a fault on its pages is still taken for one that happened
// inside it. A fault there later is the program's own (the pages are writable again) and goes on
// to the next handler; one in this span is retried until the span ends, then goes on too.
constexpr uint64_t late_fault_ns = 1000000000;

// A system call without libc: no PLT slot to resolve and no errno (returns -errno on failure).
long sys(long nr, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
#if defined(__x86_64__)
  long ret;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
#elif defined(__aarch64__)
  register long x8 __asm__("x8") = nr;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  register long x3 __asm__("x3") = d;
  register long x4 __asm__("x4") = e;
  register long x5 __asm__("x5") = f;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
  return x0;
#else
#error "symmem: add the raw system call sequence of this architecture (mem/data_segment.cpp)"
#endif
}

// Never 0, which means "open" in g_closed_ns.
uint64_t monotonic_ns() {
  struct timespec ts {};
  if (sys(SYS_clock_gettime, CLOCK_MONOTONIC, reinterpret_cast<long>(&ts)) != 0) return 1;
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec) + 1;
}

// The fault hook: a write to held pages waits for their new backing, then is retried there; so is
// one whose window closed between the fault and this hook (its pages are writable again).
bool hold_hook(uintptr_t a) {
  const uintptr_t base = g_hold_base.load(std::memory_order_acquire);
  if (base == 0 || a < base || a - base >= g_hold_len.load(std::memory_order_relaxed)) {
    return false;
  }
  const uint64_t closed = g_closed_ns.load(std::memory_order_acquire);
  if (closed == 0) {
    while (g_closed_ns.load(std::memory_order_acquire) == 0) {
      sys(SYS_sched_yield);
    }
    return true;
  }
  const uint64_t now = monotonic_ns();
  return now >= closed && now - closed < late_fault_ns;
}

// Runs `swap` with the pages read-only and other threads' writes held. `swap` replaces the pages
// (keeping their contents) and returns 0, or fails with -errno and leaves them as they were.
template <typename F>
long with_writes_held(uintptr_t base, size_t len, F &&swap) {
  add_fault_hook(hold_hook);
  sigset_t all, old;
  sigfillset(&all);
  for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP}) sigdelset(&all, s);
  pthread_sigmask(SIG_BLOCK, &all, &old);  // no handler of ours may write to the pages meanwhile
  g_closed_ns.store(0, std::memory_order_relaxed);
  g_hold_len.store(len, std::memory_order_relaxed);
  g_hold_base.store(base, std::memory_order_release);
  long rc = sys(SYS_mprotect, static_cast<long>(base), static_cast<long>(len), PROT_READ);
  if (rc == 0) rc = swap();
  if (rc != 0) {
    sys(SYS_mprotect, static_cast<long>(base), static_cast<long>(len), PROT_READ | PROT_WRITE);
  }
  g_closed_ns.store(monotonic_ns(), std::memory_order_release);  // writable again: waiters retry
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return rc;
}

// Loops over the program's pages: no sanitizer checks (ASan poisons the redzones between
// globals) and no library calls.
__attribute__((no_sanitize("address"))) bool page_is_zero(const char *p, size_t n) {
  const auto *w = reinterpret_cast<const uint64_t *>(p);
  uint64_t acc = 0;
  for (size_t i = 0; i < n / 8; ++i) acc |= w[i];
  return acc == 0;
}

__attribute__((no_sanitize("address"))) void copy_words(char *dst, const char *src, size_t n) {
  auto *d = reinterpret_cast<volatile uint64_t *>(dst);  // volatile: never turned into a memcpy call
  const auto *s = reinterpret_cast<const uint64_t *>(src);
  for (size_t i = 0; i < n / 8; ++i) d[i] = s[i];
}

// Stores into `to` every byte where `now` differs from `before` (n a multiple of 8).
__attribute__((no_sanitize("address"))) void merge_changes(char *to, const char *now, const char *before, size_t n) {
  const auto *a = reinterpret_cast<const uint64_t *>(now);
  const auto *b = reinterpret_cast<const uint64_t *>(before);
  for (size_t i = 0; i < n / 8; ++i) {
    if (a[i] == b[i]) continue;
    for (size_t k = i * 8; k < i * 8 + 8; ++k) {
      if (now[k] != before[k]) reinterpret_cast<volatile char *>(to)[k] = now[k];
    }
  }
}

// pread/pwrite of all n bytes: 0 or -errno.
long transfer_all(long nr, int fd, char *p, size_t n, size_t off) {
  while (n > 0) {
    long r = sys(nr, fd, reinterpret_cast<long>(p), static_cast<long>(n), static_cast<long>(off));
    if (r == -EINTR) continue;
    if (r <= 0) return r < 0 ? r : -EIO;
    p += r, n -= static_cast<size_t>(r), off += static_cast<size_t>(r);
  }
  return 0;
}

// Which anonymous pages (.bss beyond the file's part) were ever touched, from /proc/self/pagemap
// (bit 63 present, bit 62 swapped): an untouched page is zero and needs no look. Read inside the
// window, so no page can be touched after it is classified. Without pagemap every page is looked at.
class touched_pages {
 public:
  touched_pages(uintptr_t base, size_t anon_from, size_t page) : base_(base), anon_from_(anon_from), page_(page) {
    fd_ = static_cast<int>(sys(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/proc/self/pagemap"), O_RDONLY | O_CLOEXEC));
  }
  ~touched_pages() {
    if (fd_ >= 0) sys(SYS_close, fd_);
  }
  bool maybe_data(size_t off) {
    if (off < anon_from_ || fd_ < 0) return true;
    const size_t index = (base_ + off) / page_;
    if (index < first_ || index >= first_ + count_) {
      long r = sys(SYS_pread64, fd_, reinterpret_cast<long>(entries_), sizeof entries_, static_cast<long>(index * 8));
      if (r < 8) return true;
      first_ = index;
      count_ = static_cast<size_t>(r) / 8;
    }
    return (entries_[index - first_] >> 62) != 0;
  }

 private:
  uintptr_t base_;
  size_t anon_from_, page_;
  int fd_ = -1;
  uint64_t entries_[512];
  size_t first_ = 0, count_ = 0;
};

// Writes the pages that hold a non-zero byte into the memfd; all-zero pages (most of a large .bss)
// stay holes and cost no memory. Reading a page that was never touched would map the zero page,
// one fault per page: pagemap tells those apart without touching them.
long copy_to_memfd(int fd, const data_layout &l, size_t page) {
  const char *base = reinterpret_cast<const char *>(l.map_lo);
  const size_t len = l.map_len;
  touched_pages touched(l.map_lo, l.anon_from, page);
  size_t run = len;  // start of the current run of non-zero pages; len = none
  for (size_t off = 0; off <= len; off += page) {
    const bool data = off < len && touched.maybe_data(off) && !page_is_zero(base + off, page);
    if (data && run == len) run = off;
    if (!data && run != len) {
      if (long rc = transfer_all(SYS_pwrite64, fd, const_cast<char *>(base) + run, off - run, run)) return rc;
      run = len;
    }
  }
  return 0;
}

// The parent's changes during fork into the memfd's view: only pages of its private copy that
// were ever touched can differ from the snapshot (the others are zero in both).
void merge_touched(char *view, const data_layout &l, const char *snap, size_t page) {
  touched_pages touched(l.map_lo, 0, page);
  const char *now = reinterpret_cast<const char *>(l.map_lo);
  for (size_t off = 0; off < l.map_len; off += page) {
    if (touched.maybe_data(off)) merge_changes(view + off, now + off, snap + off, page);
  }
}

// Reads the memfd's data extents (SEEK_DATA/SEEK_HOLE: what was ever written) into `to`, and
// copies them into `also` too when it is not null (holes stay untouched: no memory for them).
long copy_from_memfd(int fd, char *to, char *also, size_t len) {
  long off = 0;
  while (static_cast<size_t>(off) < len) {
    long d = sys(SYS_lseek, fd, off, SEEK_DATA);
    if (d < 0) return d == -ENXIO ? 0 : d;  // ENXIO: no data after off
    long h = sys(SYS_lseek, fd, d, SEEK_HOLE);
    if (h < 0) return h;
    if (static_cast<size_t>(h) > len) h = static_cast<long>(len);
    if (long rc = transfer_all(SYS_pread64, fd, to + d, static_cast<size_t>(h - d), static_cast<size_t>(d))) return rc;
    if (also != nullptr) copy_words(also + d, to + d, static_cast<size_t>(h - d));
    off = h;
  }
  return 0;
}

void *map_anon(size_t len) {
  void *p = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

// Puts the private pages at `from` in place of the pages at `at` (one atomic mremap): 0 or -errno.
long move_over(void *from, uintptr_t at, size_t len) {
  long r = sys(SYS_mremap, reinterpret_cast<long>(from), static_cast<long>(len), static_cast<long>(len),
               MREMAP_MAYMOVE | MREMAP_FIXED, static_cast<long>(at));
  return r < 0 ? r : 0;
}

// Maps the memfd over [at, at+len) (MAP_FIXED replaces the old pages atomically): 0 or -errno.
long map_memfd_at(int fd, uintptr_t at, size_t len) {
  long r = sys(SYS_mmap, static_cast<long>(at), static_cast<long>(len), PROT_READ | PROT_WRITE,
               MAP_SHARED | MAP_FIXED, fd, 0);
  return r < 0 && r > -4096 ? r : 0;
}

// ---- state ------------------------------------------------------------------------------------

struct state {
  data_layout layout;
  size_t page = 0;
  int fd = -1;
  std::atomic<bool> shared{false};
  // Across a fork: the private copy's state when fork began, and a view of the memfd.
  char *snapshot = nullptr;
  char *view = nullptr;
  bool forking = false;
};
state g_data;

// Private pages with the memfd's contents in place of the shared ones; with `snapshot`, also a
// second copy of what they held (for the merge after fork).
bool make_private(char **snapshot) {
  const data_layout &l = g_data.layout;
  char *copy = static_cast<char *>(map_anon(l.map_len));
  char *snap = snapshot != nullptr ? static_cast<char *>(map_anon(l.map_len)) : nullptr;
  if (copy == nullptr || (snapshot != nullptr && snap == nullptr)) {
    if (copy) ::munmap(copy, l.map_len);
    if (snap) ::munmap(snap, l.map_len);
    return false;
  }
  const int fd = g_data.fd;
  const long rc = with_writes_held(l.map_lo, l.map_len, [&]() -> long {
    // One read of the memfd: a peer's store cannot slip in between the two copies.
    if (long r = copy_from_memfd(fd, copy, snap, l.map_len)) return r;
    return move_over(copy, l.map_lo, l.map_len);
  });
  if (rc != 0) {
    errno = static_cast<int>(-rc);
    ::munmap(copy, l.map_len);
    if (snap) ::munmap(snap, l.map_len);
    return false;
  }
  if (snapshot != nullptr) *snapshot = snap;
  return true;
}

// ---- fork -------------------------------------------------------------------------------------
//
// A MAP_SHARED mapping stays shared across fork: the child would write into the parent's globals
// (glibc's own state too, when linked statically; `environ` after a setenv). So just before fork
// the parent's pages become private (the child then gets an ordinary copy-on-write copy, exactly as
// of the fork), and just after, the parent's pages go back onto the memfd, with the bytes the
// parent changed meanwhile merged in: peers' stores into the memfd during the fork are kept.

void before_fork() {
  if (!g_data.shared.load()) return;
  const size_t len = g_data.layout.map_len;
  void *v = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, g_data.fd, 0);
  if (v == MAP_FAILED) return;  // the child will share the pages: nothing better can be done here
  g_data.view = static_cast<char *>(v);
  if (!make_private(&g_data.snapshot)) {
    ::munmap(g_data.view, len);
    g_data.view = nullptr;
    return;
  }
  g_data.forking = true;
}

void after_fork_parent() {
  if (!g_data.forking) return;
  g_data.forking = false;
  const data_layout &l = g_data.layout;
  char *view = g_data.view, *snap = g_data.snapshot;
  const int fd = g_data.fd;
  const long rc = with_writes_held(l.map_lo, l.map_len, [&]() -> long {
    merge_touched(view, l, snap, g_data.page);
    return map_memfd_at(fd, l.map_lo, l.map_len);
  });
  if (rc != 0) {
    // The parent keeps private pages: peers' stores no longer reach it. Say so once.
    static const char msg[] = "symmem: fork: cannot put the program's static data back on shared memory after fork; "
                              "peers' stores to this PE's global variables are no longer seen\n";
    (void)::write(STDERR_FILENO, msg, sizeof msg - 1);
    g_data.shared.store(false);
  }
  ::munmap(view, l.map_len);
  ::munmap(snap, l.map_len);
  g_data.view = g_data.snapshot = nullptr;
}

// The child has private pages already; it drops the parent's memfd and views. It is not a PE.
void after_fork_child() {
  if (!g_data.forking) return;
  g_data.forking = false;
  ::munmap(g_data.view, g_data.layout.map_len);
  ::munmap(g_data.snapshot, g_data.layout.map_len);
  g_data.view = g_data.snapshot = nullptr;
  ::close(g_data.fd);
  g_data.fd = -1;
  g_data.shared.store(false);
}

// ---- describing other addresses ---------------------------------------------------------------

struct address_query {
  uintptr_t addr = 0;
  bool first = true;
  std::string what;
};

int classify(dl_phdr_info *info, size_t, void *arg) {
  auto &q = *static_cast<address_query *>(arg);
  const bool exe = q.first;
  q.first = false;
  const char *name = exe ? "the program" : info->dlpi_name;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_TLS && info->dlpi_tls_data != nullptr) {
      const auto lo = reinterpret_cast<uintptr_t>(info->dlpi_tls_data);
      if (q.addr - lo < ph.p_memsz) {
        q.what = strfmt("a thread-local variable (of %s), of which each thread has its own copy", name);
        return 1;
      }
    }
    if (ph.p_type == PT_LOAD && q.addr - (info->dlpi_addr + ph.p_vaddr) < ph.p_memsz) {
      q.what = exe ? std::string("in the program's read-only or relocation data")
                   : strfmt("a global or static variable of the shared library %s (only the program's own global "
                            "and static variables are symmetric)",
                            name);
      return 1;
    }
  }
  return 0;
}

}  // namespace

long hold_writes(uintptr_t base, size_t len, long (*swap)(void *), void *arg) {
  return with_writes_held(base, len, [&]() -> long { return swap(arg); });
}

data_layout find_data_layout() {
  data_layout l;
  dl_iterate_phdr(scan_executable, &l);
  return l;
}

status share_data(const data_layout &layout, const char *call) {
  if (g_data.shared.load() || layout.size() == 0) {
    return ok_status;
  }
  static bool fork_hooks = false;
  if (!fork_hooks) {
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
    fork_hooks = true;
  }
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const int fd = ::memfd_create("symmem-data", MFD_CLOEXEC);
  if (fd < 0 || ::ftruncate(fd, static_cast<off_t>(layout.map_len)) != 0) {
    int e = errno;
    if (fd >= 0) ::close(fd);
    return fail(SYMMEM_ERR_SYSTEM, call, "cannot create shared memory for the program's static data (memfd of %zu "
                "bytes): %s", layout.map_len, std::strerror(e));
  }
  const long rc = with_writes_held(layout.map_lo, layout.map_len, [&]() -> long {
    if (long r = copy_to_memfd(fd, layout, page)) return r;
    return map_memfd_at(fd, layout.map_lo, layout.map_len);
  });
  if (rc != 0) {
    const int e = static_cast<int>(-rc);
    ::close(fd);
    return fail(SYMMEM_ERR_SYSTEM, call, "cannot move the program's static data (%#lx..%#lx) onto shared memory: %s",
                static_cast<unsigned long>(layout.map_lo), static_cast<unsigned long>(layout.map_lo + layout.map_len),
                std::strerror(e));
  }
  // The same mapping once more, through libc this time: memory-registration caches that watch
  // mmap (UCX's ucm, MPI's memory hooks) then drop what they registered on the old pages. Mapping
  // the memfd's own pages over themselves changes nothing for the program, even mid-store.
  (void)::mmap(reinterpret_cast<void *>(layout.map_lo), layout.map_len, PROT_READ | PROT_WRITE,
               MAP_SHARED | MAP_FIXED, fd, 0);
  g_data.layout = layout;
  g_data.page = page;
  g_data.fd = fd;
  g_data.shared.store(true);
  return ok_status;
}

void unshare_data() {
  if (!g_data.shared.load()) {
    return;
  }
  if (!make_private(nullptr)) {
    // The pages stay on the memfd (still this process's data); only the descriptor goes.
    log(log_level::warn, "finalize: the program's static data stays on shared memory (%s)", std::strerror(errno));
  }
  ::close(g_data.fd);
  g_data.fd = -1;
  g_data.shared.store(false);
}

data_region shared_data() {
  if (!g_data.shared.load()) {
    return {};
  }
  return data_region{g_data.layout.map_lo, g_data.layout.map_len, g_data.fd};
}

std::string describe_address(const void *addr) {
  address_query q;
  q.addr = reinterpret_cast<uintptr_t>(addr);
  dl_iterate_phdr(classify, &q);
  if (!q.what.empty()) {
    return q.what;
  }
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *stack = nullptr;
    size_t size = 0;
    pthread_attr_getstack(&attr, &stack, &size);
    pthread_attr_destroy(&attr);
    if (q.addr - reinterpret_cast<uintptr_t>(stack) < size) {
      return "on this thread's stack (a local variable)";
    }
  }
  return "";
}

}  // namespace symmem::mem
