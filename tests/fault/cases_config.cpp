// Fault suite: configuration and bootstrap choice. One meaning for 0 in every seconds variable
// (no limit), a range for all of them, every SYMMEM_* name checked against the table, and the
// rank named in messages as soon as it is known.
#include <cstdio>

#include "probe.hpp"

namespace probe {
namespace {

void init_fails() {
  shmem_init();  // exits with status 1 after the message
  std::printf("probe: init did not fail\n");
}

}  // namespace

void add_config(std::vector<test_case> &out) {
  auto add = [&](std::string name, outcome o, std::string pattern, std::function<void()> fn, std::string env = "") {
    test_case c;
    c.name = name;
    c.expect = o;
    c.pattern = std::move(pattern);
    c.run = std::move(fn);
    c.env = std::move(env);
    out.push_back(std::move(c));
    return &out.back();
  };
  add("config.bootstrap_timeout_0", outcome::ok, "PE 1 survived", [] {}, "SYMMEM_BOOTSTRAP_TIMEOUT=0");
  add("config.wait_timeout_0", outcome::ok, "PE 1 survived", [] { shmem_barrier_all(); }, "SYMMEM_WAIT_TIMEOUT=0");
  const char *range = "expected 0 \\(no limit\\) or a number of seconds up to 1e\\+?0?7";
  // symmem-run reads SYMMEM_BOOTSTRAP_TIMEOUT through the same table and refuses a bad value
  // before any PE starts (status 2, as for a bad option).
  for (const char *v : {"1e10", "-1", "nan", "inf", "10000001"}) {
    test_case *c = add(std::string("config.bootstrap_timeout_") + v, outcome::status,
                       std::string("symmem-run: SYMMEM_BOOTSTRAP_TIMEOUT=\"") + v + "\" is not valid: " + range,
                       init_fails, std::string("SYMMEM_BOOTSTRAP_TIMEOUT=") + v);
    c->status = 2;
    c->no_init = true;
  }
  {
    test_case *c = add("config.wait_timeout_1e10", outcome::fatal,
                       std::string("PE [01]: init: SYMMEM_WAIT_TIMEOUT=\"1e10\" is not valid: ") + range, init_fails,
                       "SYMMEM_WAIT_TIMEOUT=1e10");
    c->no_init = true;
  }
  add("config.unknown_bootstrap_name", outcome::ok,
      "unknown variable SYMMEM_BOOTSTRAP_TIMOUT is ignored; did you mean SYMMEM_BOOTSTRAP_TIMEOUT\\?", [] {},
      "SYMMEM_BOOTSTRAP_TIMOUT=5");
  {
    // The rank is known from the launcher before init: messages name it.
    test_case *c = add("config.message_names_pe", outcome::fatal, "symmem: PE 1: init: SYMMEM_HEAP=\"cpu\" is not valid",
                       init_fails, "SYMMEM_HEAP=cpu");
    c->no_init = true;
  }
  {
    test_case *c = add("config.before_init_names_pe", outcome::fatal,
                       "symmem: PE [01]: malloc: called before symmem_init", [] { (void)shmem_malloc(8); });
    c->no_init = true;
  }
  {
    test_case *c = add("config.singleton_under_launcher", outcome::fatal,
                       "PE [01]: init: SYMMEM_BOOTSTRAP=singleton but symmem-run started 2 PEs", init_fails,
                       "SYMMEM_BOOTSTRAP=singleton");
    c->no_init = true;
  }
  {
    test_case *c = add("config.launcher_bootstrap_timeout_0", outcome::ok, "PE 1 survived", [] {});
    c->launcher_args = {"--bootstrap-timeout", "0"};
  }
  {
    test_case *c = add("config.launcher_bootstrap_timeout_1e10", outcome::status,
                       "symmem-run: --bootstrap-timeout wants 0 \\(no limit\\) or a number of seconds up to", [] {});
    c->status = 2;
    c->launcher_args = {"--bootstrap-timeout", "1e10"};
  }
}

}  // namespace probe
