// The singleton bootstrap: a program started without a launcher is a job of one PE.
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "bootstrap/bootstrap.h"

namespace symmem::boot {
namespace {

class singleton final : public bootstrap {
 public:
  [[nodiscard]] int rank() const override { return 0; }
  [[nodiscard]] int size() const override { return 1; }
  [[nodiscard]] const char *name() const override { return "singleton"; }
  status allgather(const void *in, void *out, size_t len, const char *) override {
    std::memcpy(out, in, len);
    return ok_status;
  }
  [[noreturn]] void abort_job(int exit_status, const std::string &) override {
    std::fflush(nullptr);
    ::_exit(exit_status);
  }
};

}  // namespace

std::unique_ptr<bootstrap> make_singleton() { return std::make_unique<singleton>(); }

}  // namespace symmem::boot
