#include "core/guard.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "common/error.h"
#include "common/fault.h"
#include "mem/vaspace.h"

namespace symmem::core::guard {
namespace {

std::atomic<uintptr_t> g_base{0};
std::atomic<size_t> g_size{0};

// Async-signal-safe formatting: hex and decimal into a buffer.
size_t put_str(char *buf, size_t at, const char *s) {
  while (*s != '\0' && at < 255) buf[at++] = *s++;
  return at;
}
size_t put_hex(char *buf, size_t at, uintptr_t v) {
  char tmp[2 + 16];
  int n = 0;
  do {
    tmp[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v != 0);
  at = put_str(buf, at, "0x");
  while (n > 0 && at < 255) buf[at++] = tmp[--n];
  return at;
}
size_t put_int(char *buf, size_t at, int v) {
  if (v < 0) return put_str(buf, at, "?");
  char tmp[12];
  int n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0 && at < 255) buf[at++] = tmp[--n];
  return at;
}

bool on_fault(uintptr_t a) {
  uintptr_t base = g_base.load();
  if (base == 0 || a < base || a >= base + g_size.load()) {
    return false;
  }
  char buf[256];
  size_t n = put_str(buf, 0, "symmem: PE ");
  n = put_int(buf, n, log_pe());
  n = put_str(buf, n, ": access to symmetric address ");
  n = put_hex(buf, n, a);
  n = put_str(buf, n, " after symmem_finalize; the heap was released there (keep symmetric pointers only "
                      "between init and finalize)\n");
  ssize_t rc = ::write(STDERR_FILENO, buf, n);
  (void)rc;
  ::_exit(1);
}

}  // namespace

void arm(uintptr_t base, size_t size) {
  if (!mem::make_guard(base, size)) {
    mem::unmap(base, size);
    return;
  }
  add_fault_hook(on_fault);
  g_size.store(size);
  g_base.store(base);
}

void disarm() {
  uintptr_t base = g_base.exchange(0);
  if (base != 0) {
    mem::unmap(base, g_size.load());
  }
}

}  // namespace symmem::core::guard
