// symmem: typed settings parsed from the environment (see config_table.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"

namespace symmem::config {

struct settings {
  size_t symmetric_size = 0;
  size_t symmetric_size_mb = 0;  // 0 when unset
  std::string debug;
  std::string bootstrap;
  double bootstrap_timeout = 0;
  double wait_timeout = 0;
  size_t heap_retain = 0;
  std::string heap_kind;
  std::string gpu;  // SYMMEM_GPU
  std::string uid_ifname;
  std::string plugin_path;
  std::string hostname;
  std::string net_heap;  // SYMMEM_NET_HEAP
  size_t net_put_staged = 0;  // SYMMEM_NET_PUT_STAGED
  size_t net_put_batch = 0;   // SYMMEM_NET_PUT_BATCH (read by the UCX plugin)
  size_t proxy_hold = 0;      // SYMMEM_PROXY_HOLD
  std::string net_hold_stores;  // SYMMEM_NET_HOLD_STORES
  std::string helper_cpus;    // SYMMEM_HELPER_CPUS (helper threads read it themselves: common/helper_thread.h)
  size_t net_coll_direct = 0;  // SYMMEM_NET_COLL_DIRECT
  double net_progress_nap = 0;  // SYMMEM_NET_PROGRESS_NAP (read by the UCX plugin)
  bool check_args = true;
  bool symmetric_data = true;

  // Derived: the heap size in bytes after the SIZE / SIZE_MB rule, and where it came from.
  size_t heap_bytes = 0;
  std::string heap_bytes_source;
};

// One row of the table, for symmem-info and the docs.
struct entry {
  const char *name;     // SYMMEM_...
  const char *kind;     // size, seconds, ...
  const char *def;      // default text
  const char *alias1;   // other names honoured, separated by spaces ("" when none)
  const char *alias2;
  const char *choices;  // "a|b|c" for kind choice, else ""
  const char *doc;
};
const std::vector<entry> &table();

// The names a row answers to: SYMMEM_<NAME>, then each name of alias1 and alias2, in that order.
std::vector<std::string> names(const entry &e);

// Where a variable's value comes from: the first of names(e) that is set.
struct lookup {
  std::optional<std::string> value;
  std::string from;  // the variable that supplied the value
};
lookup find(const entry &e);

// Parses the whole environment; errors quote the variable and its value. Warns about unknown
// SYMMEM_* names, suggesting the closest known one.
status load(settings &out);

// NVSHMEM's size grammar: digits with optional decimals and a k/m/g/t suffix (powers of 1024).
// Returns std::nullopt for anything else ("", "abc", "1x", "-1", "1.2.3").
std::optional<size_t> parse_size(const std::string &text);
// Seconds: 0 means no limit, in every seconds variable and option; at most max_seconds (a
// deadline in nanoseconds must not overflow). NaN, infinities and negatives are refused.
inline constexpr double max_seconds = 1e7;
std::optional<double> parse_seconds(const std::string &text);
// What a seconds value must be, for messages: "0 (no limit) or a number of seconds up to 1e+07 ...".
std::string seconds_expected();
// The value of table variable `name` (SYMMEM_...), from it or its aliases; nothing when unset.
// Code outside config.cpp reads SYMMEM_* variables only through this or load().
std::optional<std::string> value_of(const char *name);
std::optional<bool> parse_bool(const std::string &text);

// Levenshtein distance, for "did you mean" suggestions.
size_t edit_distance(const std::string &a, const std::string &b);

}  // namespace symmem::config
