// The standing fault suite: every public routine that takes a size, count, stride, PE or pointer,
// called with the edge values (0, 1, -1, SIZE_MAX, the wrap points, out-of-range PEs, NULL,
// foreign and misaligned pointers), and the process faults (exit without finalize, SIGKILL and
// SIGSTOP of a PE, SIGKILL of the launcher, fork). Each case runs as a job of its own
// (`probe CASE` under symmem-run) and the driver (`probe --run GROUP`) checks its outcome: the exit
// status, a pattern the output must match, and that it ended in time. docs/errors.md lists them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <shmem.h>

namespace probe {

enum class outcome {
  ok,     // every PE survives (exit 0) and the output matches
  fatal,  // the job ends with status 1 and the message matches
  status  // the job ends with the given status
};

struct test_case {
  std::string name;      // group.routine.edge
  int np = 2;
  outcome expect = outcome::ok;
  std::string pattern;   // extended regular expression the output must match ("" none)
  std::function<void()> run;  // on every PE, after init (before init when no_init)
  std::string env;       // "A=B;C=D" for the job
  double max_s = 20;     // the job (or, when the case prints an event, the end after it) within this
  int status = 0;        // for outcome::status
  bool no_init = false;  // run() calls init itself (or never)
  std::vector<std::string> launcher_args;  // extra symmem-run options
};

// The job the case runs in.
extern int me, npes;
extern long *lbuf;           // 1 MiB symmetric, zeroed
extern char *cbuf;           // the same bytes
extern long *lsrc;           // 1 MiB local (not symmetric), patterned
extern size_t heap_bytes;    // shmem heap size (SYMMEM_SYMMETRIC_SIZE)
inline constexpr size_t buf_bytes = size_t{1} << 20;

// Prints the monotonic time now: the driver measures how long the job takes to end after it.
void event();
// A pattern byte for index i (data checks); poison() fills with 0xa5.
unsigned char pat(size_t i);
// Ends the job with a failure message when cond is false ("probe check failed ...").
void expect_true(bool cond, const char *what);
#define PROBE_CHECK(c) ::probe::expect_true((c), #c)

// A case per group.
void add_rma(std::vector<test_case> &out);
void add_amo(std::vector<test_case> &out);
void add_alloc(std::vector<test_case> &out);
void add_coll(std::vector<test_case> &out);
void add_sync(std::vector<test_case> &out);
void add_misc(std::vector<test_case> &out);
void add_config(std::vector<test_case> &out);
void add_faults(std::vector<test_case> &out);

// The call a message names: the routine itself. A context form (shmem_ctx_long_put) is a library
// function of its own, and its messages name it (ctx_long_put), not the plain routine.
inline std::string reported(const std::string &routine) { return routine; }

// Regular expressions shared by the groups.
inline std::string pe_range(const std::string &call) {
  return "PE 0: " + call + ": PE -?[0-9]+ is out of range: the job has PEs 0\\.\\.1";
}
inline std::string not_symmetric(const std::string &call) {
  return "PE 0: " + call + ": address (0x[0-9a-f]+|\\(nil\\)) is not symmetric";
}
inline std::string past_end(const std::string &call) {
  return "PE 0: " + call + ": [0-9]+ bytes at 0x[0-9a-f]+ run past the end of the symmetric heap";
}
inline std::string wraps(const std::string &call) {
  return "PE 0: " + call + ": .* does not fit in size_t: the size wraps around";
}
inline std::string is_null(const std::string &call, const std::string &arg) {
  return "PE 0: " + call + ": " + arg + " is NULL";
}

}  // namespace probe
