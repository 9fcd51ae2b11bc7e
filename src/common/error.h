// symmem: errors as values inside the library.
//
// The first function that detects a failure calls fail(): it formats
// "symmem: PE <n>: <call>: <what happened>; <what to do>", stores it as this PE's last error,
// prints it (once), and returns the status. Callers only pass the status up (SYMMEM_TRY).
// fatal() is for misuse of data-path routines that have no way to report: it prints and ends the job.
#pragma once

#include <cstdarg>
#include <string>

#include "symmem/symmem.h"

namespace symmem {

class [[nodiscard]] status {
 public:
  constexpr status() = default;
  constexpr explicit status(int code) : code_(code) {}
  [[nodiscard]] constexpr bool ok() const { return code_ == SYMMEM_SUCCESS; }
  [[nodiscard]] constexpr int code() const { return code_; }

 private:
  int code_ = SYMMEM_SUCCESS;
};

inline constexpr status ok_status{};

// Formats, records and prints an error message; returns status(code).
status fail(int code, const char *call, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
status vfail(int code, const char *call, const char *fmt, va_list ap);
// Records an error without printing it (for callers that print a fuller message themselves).
status fail_quiet(int code, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

// Prints the message and ends the whole job (the launcher or bootstrap is told to stop the others).
[[noreturn]] void fatal(const char *call, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
[[noreturn]] void vfatal(const char *call, const char *fmt, va_list ap);

// Prefix helpers: the PE shown in messages ("?" until known).
void set_log_pe(int pe);
int log_pe();

const std::string &last_error();
int last_error_code();
void clear_last_error();

// Diagnostic output, prefixed "symmem: PE n: ", filtered by SYMMEM_DEBUG.
enum class log_level : int { off = 0, warn = 1, info = 2, trace = 3 };
void set_log_level(log_level level);
log_level current_log_level();
void log(log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// Hook run by fatal() before exiting (the bootstrap uses it to stop the job quickly).
using fatal_hook = void (*)(int exit_status, const std::string &message);
void set_fatal_hook(fatal_hook hook);

// printf into a std::string.
std::string strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string vstrfmt(const char *fmt, va_list ap);

}  // namespace symmem

#define SYMMEM_TRY(expr)                     \
  do {                                       \
    ::symmem::status symmem_try_s_ = (expr); \
    if (!symmem_try_s_.ok()) {               \
      return symmem_try_s_;                  \
    }                                        \
  } while (0)

#define SYMMEM_LIKELY(x) __builtin_expect(!!(x), 1)
#define SYMMEM_UNLIKELY(x) __builtin_expect(!!(x), 0)
