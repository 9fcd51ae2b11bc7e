// Where a multi-step operation's time goes: each call to phase(name) appends "name ms" for the
// time since the previous call (or construction). init prints it at SYMMEM_DEBUG=info.
#pragma once

#include <chrono>
#include <string>

#include "common/error.h"

namespace symmem {

class phase_times {
 public:
  void phase(const char *name) {
    const auto now = clock::now();
    text_ += strfmt("%s%s %.1f", text_.empty() ? "" : ", ", name,
                    std::chrono::duration<double, std::milli>(now - mark_).count());
    mark_ = now;
  }
  [[nodiscard]] const char *c_str() const { return text_.c_str(); }

 private:
  using clock = std::chrono::steady_clock;
  clock::time_point mark_ = clock::now();
  std::string text_;
};

}  // namespace symmem
