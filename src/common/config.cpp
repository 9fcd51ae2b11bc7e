#include "common/config.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "common/config_table.h"

extern char **environ;

namespace symmem::config {
namespace {

bool in_choices(const std::string &value, const char *choices) {
  std::string all = choices;
  size_t start = 0;
  while (start <= all.size()) {
    size_t bar = all.find('|', start);
    std::string word = all.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    if (word == value) {
      return true;
    }
    if (bar == std::string::npos) {
      break;
    }
    start = bar + 1;
  }
  return false;
}

status bad_value(const lookup &l, const char *expect) {
  return fail(SYMMEM_ERR_CONFIG, "init", "%s=\"%s\" is not valid: expected %s; fix or unset %s",
              l.from.c_str(), l.value->c_str(), expect, l.from.c_str());
}

// One parser per kind: fills the field from the text, or reports the variable and its value.
status parse_kind(const lookup &l, const entry &, size_t &field, const char *kind) {
  std::optional<size_t> v = parse_size(*l.value);
  if (std::strcmp(kind, "size_mb") == 0) {
    // A whole number of MiB, as NVSHMEM reads NVSHMEM_SYMMETRIC_SIZE_MB.
    const std::string &t = *l.value;
    bool digits = !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || t.size() > 12) {
      return bad_value(l, "a whole number of MiB, such as 1024");
    }
    field = std::strtoull(t.c_str(), nullptr, 10) << 20;
    return ok_status;
  }
  if (!v) {
    return bad_value(l, "a size such as 1073741824, 512m, 3.1M, .5g or 2t");
  }
  field = *v;
  return ok_status;
}

status parse_kind(const lookup &l, const entry &, double &field, const char *) {
  std::optional<double> v = parse_seconds(*l.value);
  if (!v) {
    return bad_value(l, seconds_expected().c_str());
  }
  field = *v;
  return ok_status;
}

status parse_kind(const lookup &l, const entry &, bool &field, const char *) {
  std::optional<bool> v = parse_bool(*l.value);
  if (!v) {
    return bad_value(l, "a boolean: 1, 0, true, false, yes, no, on or off");
  }
  field = *v;
  return ok_status;
}

status parse_kind(const lookup &l, const entry &e, std::string &field, const char *kind) {
  if (std::strcmp(kind, "choice") == 0 && !in_choices(*l.value, e.choices)) {
    std::string expect = std::string("one of ") + e.choices;
    std::replace(expect.begin(), expect.end(), '|', ',');
    return bad_value(l, expect.c_str());
  }
  field = *l.value;
  return ok_status;
}

void warn_unknown() {
  for (char **env = environ; env != nullptr && *env != nullptr; ++env) {
    const char *kv = *env;
    if (std::strncmp(kv, "SYMMEM_", 7) != 0) {
      continue;
    }
    std::string name(kv, std::strchr(kv, '=') ? static_cast<size_t>(std::strchr(kv, '=') - kv) : std::strlen(kv));
    // Variables set by symmem-run for its PEs, and by other layers, are not configuration.
    // (SYMMEM_BOOTSTRAP_* names are configuration: a misspelt one is warned about.)
    static const char *internal[] = {"SYMMEM_LAUNCHER_", "SYMMEM_JOB_", "SYMMEM_MPS_", "SYMMEM_RUN_", "SYMMEM_TEST_"};
    bool skip = false;
    for (const char *pfx : internal) {
      skip = skip || name.rfind(pfx, 0) == 0;
    }
    const entry *best = nullptr;
    size_t best_d = SIZE_MAX;
    for (const entry &e : table()) {
      if (name == e.name) {
        skip = true;
        break;
      }
      size_t d = edit_distance(name, e.name);
      if (d < best_d) {
        best_d = d;
        best = &e;
      }
    }
    if (skip) {
      continue;
    }
    if (best != nullptr && best_d <= 4) {
      warn("unknown variable %s is ignored; did you mean %s?", name.c_str(), best->name);
    } else {
      warn("unknown variable %s is ignored (symmem-info lists every variable)", name.c_str());
    }
  }
}

}  // namespace

const std::vector<entry> &table() {
  static const std::vector<entry> rows = [] {
    std::vector<entry> v;
#define SYMMEM_ROW(field, kind, NAME, def, a1, a2, choices, doc) \
  v.push_back(entry{"SYMMEM_" NAME, #kind, def, a1, a2, choices, doc});
    SYMMEM_CONFIG_TABLE(SYMMEM_ROW)
#undef SYMMEM_ROW
    return v;
  }();
  return rows;
}

std::vector<std::string> names(const entry &e) {
  std::vector<std::string> out{e.name};
  for (const char *list : {e.alias1, e.alias2}) {
    std::istringstream words(list ? list : "");
    for (std::string w; words >> w;) out.push_back(w);
  }
  return out;
}

lookup find(const entry &e) {
  for (const std::string &name : names(e)) {
    if (const char *v = std::getenv(name.c_str())) {
      return lookup{std::string(v), name};
    }
  }
  return lookup{};
}

status load(settings &out) {
  settings s;
  const std::vector<entry> &rows = table();
  size_t i = 0;
  std::string size_from;
  std::string size_mb_from;
#define SYMMEM_LOAD(field, kind, NAME_, def_, a1_, a2_, choices_, doc_)                 \
  {                                                                               \
    const entry &e = rows[i++];                                                   \
    lookup l = find(e);                                                           \
    if (std::strcmp(#field, "symmetric_size") == 0) size_from = l.from;          \
    if (std::strcmp(#field, "symmetric_size_mb") == 0) size_mb_from = l.from;    \
    if (!l.value && *e.def != '\0') l = lookup{std::string(e.def), e.name};        \
    if (l.value) SYMMEM_TRY(parse_kind(l, e, s.field, #kind));                     \
  }
  SYMMEM_CONFIG_TABLE(SYMMEM_LOAD)
#undef SYMMEM_LOAD

  // The seeds' rule: when a byte form and the MB form are both set, the byte form wins.
  if (!size_from.empty() && !size_mb_from.empty()) {
    warn("both %s and %s are set; using %s (%zu bytes) and ignoring %s", size_from.c_str(),
         size_mb_from.c_str(), size_from.c_str(), s.symmetric_size, size_mb_from.c_str());
    s.heap_bytes = s.symmetric_size;
    s.heap_bytes_source = size_from;
  } else if (!size_mb_from.empty()) {
    s.heap_bytes = s.symmetric_size_mb;
    s.heap_bytes_source = size_mb_from;
  } else {
    s.heap_bytes = s.symmetric_size;
    s.heap_bytes_source = size_from.empty() ? "default" : size_from;
  }
  if (s.heap_bytes == 0) {
    return fail(SYMMEM_ERR_CONFIG, "init", "the symmetric heap size from %s is 0 bytes; set %s to a positive size such as 1g",
                s.heap_bytes_source.c_str(), s.heap_bytes_source == "default" ? "SYMMEM_SYMMETRIC_SIZE" : s.heap_bytes_source.c_str());
  }
  warn_unknown();
  out = std::move(s);
  return ok_status;
}

std::optional<size_t> parse_size(const std::string &text) {
  // Grammar: [digits][.digits][k|K|m|M|g|G|t|T], at least one digit in all.
  size_t i = 0;
  const size_t n = text.size();
  std::string number;
  bool digit_seen = false;
  while (i < n && text[i] >= '0' && text[i] <= '9') {
    number += text[i++];
    digit_seen = true;
  }
  if (i < n && text[i] == '.') {
    number += text[i++];
    while (i < n && text[i] >= '0' && text[i] <= '9') {
      number += text[i++];
      digit_seen = true;
    }
  }
  if (!digit_seen || number.size() > 24) {
    return std::nullopt;
  }
  long double mult = 1;
  if (i < n) {
    switch (text[i]) {
      case 'k': case 'K': mult = 1024.0L; break;
      case 'm': case 'M': mult = 1024.0L * 1024; break;
      case 'g': case 'G': mult = 1024.0L * 1024 * 1024; break;
      case 't': case 'T': mult = 1024.0L * 1024 * 1024 * 1024; break;
      default: return std::nullopt;
    }
    ++i;
  }
  if (i != n) {
    return std::nullopt;
  }
  long double v = std::strtold(number.c_str(), nullptr) * mult;
  if (!(v >= 0) || v > 1.8e19L) {
    return std::nullopt;
  }
  return static_cast<size_t>(std::ceil(v));
}

std::optional<double> parse_seconds(const std::string &text) {
  if (text.empty()) {
    return std::nullopt;
  }
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(text.c_str(), &end);
  // NaN fails !(v >= 0); beyond max_seconds a deadline computed in nanoseconds would overflow.
  if (errno != 0 || end == text.c_str() || *end != '\0' || !(v >= 0) || v > max_seconds) {
    return std::nullopt;
  }
  return v;
}

std::string seconds_expected() {
  return strfmt("0 (no limit) or a number of seconds up to %g, such as 30 or 0.5", max_seconds);
}

std::optional<std::string> value_of(const char *name) {
  for (const entry &e : table()) {
    if (std::strcmp(e.name, name) == 0) {
      return find(e).value;
    }
  }
  return std::nullopt;
}

std::optional<bool> parse_bool(const std::string &text) {
  std::string t = text;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  if (t == "1" || t == "true" || t == "yes" || t == "on" || t == "y") return true;
  if (t == "0" || t == "false" || t == "no" || t == "off" || t == "n") return false;
  return std::nullopt;
}

size_t edit_distance(const std::string &a, const std::string &b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace symmem::config
