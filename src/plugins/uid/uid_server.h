// symmem uid plugin: the rendezvous that rank 0's process runs (protocol in uid_proto.h).
//
// One thread, one poll loop over the listener and every connection; no per-connection threads.
// It admits a connection only after a HELLO with the job's secret, relays collectives, and ends
// the job (ABORT to every rank, then close) when a rank times out, disappears, ends the job, or
// the ranks disagree. It exits when every rank has said BYE.
#pragma once

#include <netinet/in.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "plugins/uid/uid_net.h"

namespace symmem::uid {

class rendezvous {
 public:
  // Opens the listener, draws the secret, starts the thread, fills the id.
  static int start(const plugin::reporter &rep, std::unique_ptr<rendezvous> &out, id_blob &id);
  ~rendezvous();
  rendezvous(const rendezvous &) = delete;
  rendezvous &operator=(const rendezvous &) = delete;

  [[nodiscard]] bool owns(const uint8_t *secret) const { return same_secret(secret, secret_); }
  // True once a rank has been admitted: the id is in use.
  [[nodiscard]] bool used() const;
  // Waits up to `limit_s` for the job to end (every BYE, or an ABORT sent), then stops the thread.
  void finish(double limit_s);
  [[nodiscard]] std::string where() const { return addr_text(addr_); }
  // Why the job already ended ("" while it runs): rank 0 may join only after the others failed.
  [[nodiscard]] std::string outcome() const;

 private:
  struct conn {
    int fd = -1;
    std::string peer;
    bool member = false;
    bool bye = false;
    int rank = -1;
    uint32_t pid = 0;
    std::vector<char> buf;
    clock::time_point opened;
  };

  explicit rendezvous(const plugin::reporter &rep) : rep_(rep) {}
  void run();
  void accept_all();
  void read_from(conn &c);
  void parse(conn &c);
  void handle(conn &c, msg type, const char *payload, size_t len);
  void admit(conn &c, const hello_msg &h);
  void refuse(conn &c, const char *why);
  void collect(conn &c, const char *payload, size_t len);
  void complete_round();
  void check_deadlines();
  void dropped(conn &c);
  void abort_all(abort_kind kind, int status, const std::string &text, conn *extra = nullptr);
  void end_job();
  const char *phase() const;
  std::string describe(const conn &c) const;

  plugin::reporter rep_;
  sockaddr_in addr_{};
  uint8_t secret_[secret_bytes]{};
  int listen_fd_ = -1;
  int wake_fd_ = -1;
  bool over_ = false;  // the job has ended (server thread only)
  std::thread thread_;
  std::vector<std::unique_ptr<conn>> conns_;

  // The job, as the ranks describe it.
  int nranks_ = 0;
  int admitted_ = 0;
  int byes_ = 0;
  std::vector<conn *> by_rank_;

  // The collective in progress.
  std::vector<std::optional<std::vector<char>>> pending_;
  int arrived_ = 0;
  deadline round_deadline_ = deadline::max();
  double round_timeout_s_ = 0;

  mutable std::mutex mutex_;  // guards the three below, shared with finish()/used()
  std::condition_variable ended_cv_;
  bool ended_ = false;
  bool stop_ = false;
  bool any_admitted_ = false;
  std::string outcome_;  // the text of the ABORT that ended the job
};

// The rendezvous this process hosts, by secret (uid_plugin.cpp); nullptr when none.
rendezvous *find_root(const uint8_t *secret);
// Ends and frees a rendezvous of this process once its rank 0 has finalized.
void drop_root(rendezvous *r, double limit_s);

}  // namespace symmem::uid
