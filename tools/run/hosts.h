// symmem-run across hosts: the host list, the head's side of the host agents, the agent itself.
//
// `symmem-run -n N --hosts A:2,B:2 prog` starts, through the launch agent, one
// `symmem-run --host-agent` per host (host_proto.h); each agent starts its host's PEs, serves
// their connections locally and relays them to the head, which serves the bootstrap for the whole
// job exactly as on one host. The head keeps its guarantees across hosts: output tagged, signals
// forwarded, a PE or a host that dies named and the job stopped, no orphan anywhere (an agent
// that loses the head kills its PEs).
#pragma once

#include <poll.h>
#include <signal.h>
#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "run/util.h"

namespace symmem::run {

struct host_slots {
  std::string name;
  int slots = 1;
};

// "A:2,B,C:4" (a host without a count has one slot). Exits with a usage error when malformed.
std::vector<host_slots> parse_hosts(const std::string &spec);
// A host file: one host a line, "name", "name:4" or OpenMPI's "name slots=4"; '#' comments.
std::vector<host_slots> read_hostfile(const std::string &path);

// What the head tells an agent (the SETUP frame).
struct agent_setup {
  std::string host;
  int first_rank = 0, count = 0, n_total = 0;
  std::string job_id;
  bool tag_output = false;
  std::string bind = "auto";
  env_list env;
  std::vector<std::string> argv;
  std::string cwd;
};
std::string pack_setup(const agent_setup &s);
bool unpack_setup(std::string_view in, agent_setup &s);

// What the head's job does when a host reports. `host` indexes the host list.
class host_events {
 public:
  virtual void relay_open(int host, uint32_t link) = 0;
  virtual void relay_data(int host, uint32_t link, std::string_view bytes) = 0;
  virtual void relay_close(int host, uint32_t link) = 0;
  virtual void pe_started(int rank, pid_t pid) = 0;
  virtual void pe_exited(int rank, int wait_status) = 0;
  // The host's agent is gone while PEs of it had not been reported exited.
  virtual void host_lost(int host, const std::vector<int> &ranks, const std::string &why) = 0;

 protected:
  ~host_events() = default;
};

// The head's side: the launch agents it started and their channels.
class remote_hosts {
 public:
  struct job_spec {
    std::vector<host_slots> hosts;  // only the hosts that get PEs, with the count each gets
    std::string agent;              // --launch-agent; {host} is replaced, else the host is appended
    bool tag_output = false;
    std::string bind;
    env_list env;
    char **argv = nullptr;
    std::string job_id;
    int n_total = 0;
    sigset_t mask;  // for the launch agents' children
  };
  explicit remote_hosts(job_spec spec);

  void start();
  int first_rank(int host) const { return hosts_[static_cast<size_t>(host)].first; }
  const std::string &name(int host) const { return hosts_[static_cast<size_t>(host)].name; }
  int host_of(int rank) const;
  // Appends its descriptors to `fds`; handle() then reads their events at the same places.
  void add_poll(std::vector<pollfd> &fds);
  void handle(const pollfd *fds, host_events &ev);
  // A child of the head exited; true when it was a launch agent.
  bool reaped(pid_t pid, int wait_status, host_events &ev);
  void send_data(int host, uint32_t link, std::string_view bytes);
  void close_link(int host, uint32_t link);
  void signal(int sig);
  // After the last PE: lets the agents end (they do once their PEs have), then stops any that
  // does not within a grace period.
  void finish(host_events &ev);

 private:
  struct host {
    std::string name;
    int first = 0, count = 0;
    pid_t pid = -1;
    bool reaped = false, eof = false, done = false;
    int wait_status = 0;
    int in = -1, out = -1, err = -1;  // the agent's stdin (we write), stdout (frames), stderr
    std::deque<std::string> tx;       // frames not yet written to `in`
    size_t tx_off = 0;
    std::string rx, err_line;
    std::vector<char> exited;  // per local PE: reported exited
    std::optional<std::string> machine;  // its MACHINE frame (host_proto.h)
  };
  void spawn(host &h);
  std::vector<std::string> agent_argv(const host &h) const;
  void queue(host &h, std::string frame);
  void flush(host &h);
  void read_frames(int index, host_events &ev);
  void read_stderr(host &h, bool all);
  void on_frame(int index, uint32_t type, uint32_t id, std::string_view payload, host_events &ev);
  void check_done(int index, host_events &ev);
  void place_if_all_known();
  void close_fds(host &h);

  job_spec spec_;
  std::vector<host> hosts_;
  std::string self_exe_;
};

// `symmem-run --host-agent`: the agent's main; its stdin and stdout are the channel to the head.
int host_agent_main();

}  // namespace symmem::run
