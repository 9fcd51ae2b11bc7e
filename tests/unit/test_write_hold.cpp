// The write hold that moves the program's static data (mem/data_segment: hold_writes): a thread
// that writes to the pages while they change backing must have its write retried on the new
// pages, never lost and never turned into a crash, even when its fault handler runs only after
// the window has closed (a handler scheduled late: ASan's build of t_static's "ctor" case died so
// once in a write of its constructor's thread). A fault on those pages long after the window is the
// program's own and must still reach the handler that was there before symmem's.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

#include "common/fault.h"
#include "mem/data_segment.h"

namespace {

// Not under ThreadSanitizer: its runtime and a thread held in a SIGSEGV handler can deadlock each
// other (scripts/test leaves tests/static out of that build for the same reason).
#if defined(__SANITIZE_THREAD__)
constexpr bool under_tsan = true;
#else
constexpr bool under_tsan = false;
#endif

char *g_region = nullptr;
size_t g_len = 0;
std::atomic<int> g_go{0};
std::atomic<int> g_faulted{0};
std::atomic<int> g_closed{0};

bool in_region(uintptr_t a) {
  return g_region != nullptr && a >= reinterpret_cast<uintptr_t>(g_region) &&
         a - reinterpret_cast<uintptr_t>(g_region) < g_len;
}

// Added before the hold's own hook, so it sees the writer's fault first: it keeps the writer in
// its handler until the window has closed, as a handler the scheduler ran late would be, then
// passes the fault on to the hold's hook.
bool late_handler(uintptr_t a) {
  if (!in_region(a) || g_closed.load() != 0) return false;
  g_faulted.store(1);
  while (g_closed.load() == 0) sched_yield();
  return false;
}

// The program's own SIGSEGV handler, installed before symmem's (which then hands it every fault
// that is not symmem's): reaching it means the fault was taken for the program's. ASan's handler
// sits there in a sanitizer build, and reports the fault as a crash.
void programs_handler(int) { _exit(20); }

void install_programs_handler() {
  struct sigaction sa {};
  sa.sa_handler = programs_handler;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSEGV, &sa, nullptr) != 0) _exit(9);
}

// Inside the window: lets the writer go, waits until it has faulted on the read-only pages, then
// maps a copy of them in their place (mremap replaces the mapping at once, contents kept).
long swap_pages(void *) {
  g_go.store(1);
  for (int i = 0; i < 10000 && g_faulted.load() == 0; ++i) usleep(1000);
  if (g_faulted.load() == 0) return -ETIMEDOUT;
  void *copy = mmap(nullptr, g_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (copy == MAP_FAILED) return -errno;
  std::memcpy(copy, g_region, g_len);
  if (mremap(copy, g_len, g_len, MREMAP_MAYMOVE | MREMAP_FIXED, g_region) == MAP_FAILED) return -errno;
  return 0;
}

// The whole case, in a child process: exits 0 when the held write landed on the new pages.
[[noreturn]] void late_fault_case() {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  g_len = 2 * page;
  void *p = mmap(nullptr, g_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) _exit(10);
  g_region = static_cast<char *>(p);
  std::memset(g_region, 7, g_len);
  install_programs_handler();
  symmem::add_fault_hook(late_handler);
  std::thread writer([page] {
    while (g_go.load() == 0) sched_yield();
    reinterpret_cast<volatile char *>(g_region)[page + 5] = 42;
  });
  const long rc = symmem::mem::hold_writes(reinterpret_cast<uintptr_t>(g_region), g_len, swap_pages, nullptr);
  g_closed.store(1);
  writer.join();
  if (rc != 0) _exit(11);
  if (g_region[page + 5] != 42) _exit(12);                          // the write was lost
  if (g_region[0] != 7 || g_region[g_len - 1] != 7) _exit(13);       // the copy lost the old contents
  _exit(0);
}

TEST(WriteHold, WriteFaultedInsideTheWindowLandsWhenItsHandlerRunsAfterIt) {
  if (under_tsan) GTEST_SKIP() << "a thread held in a SIGSEGV handler under ThreadSanitizer";
  EXPECT_EXIT(late_fault_case(), ::testing::ExitedWithCode(0), "");
}

// After a window, a fault on the same pages once they are read-only again (the program's own
// mprotect) is not retried for ever: it reaches the program's handler.
[[noreturn]] void own_fault_case() {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  g_len = page;
  void *p = mmap(nullptr, g_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) _exit(10);
  g_region = static_cast<char *>(p);
  install_programs_handler();
  const long rc = symmem::mem::hold_writes(
      reinterpret_cast<uintptr_t>(g_region), g_len, [](void *) -> long { return 0; }, nullptr);
  if (rc != 0) _exit(11);
  if (mprotect(g_region, g_len, PROT_READ) != 0) _exit(12);
  reinterpret_cast<volatile char *>(g_region)[1] = 1;  // within the late span: retried, then handed on
  _exit(0);
}

TEST(WriteHold, ProgramsOwnFaultOnThePagesStillReachesItsHandler) {
  if (under_tsan) GTEST_SKIP() << "a thread held in a SIGSEGV handler under ThreadSanitizer";
  EXPECT_EXIT(own_fault_case(), ::testing::ExitedWithCode(20), "");
}

}  // namespace
