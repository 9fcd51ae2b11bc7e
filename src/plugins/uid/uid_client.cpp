// symmem uid plugin: the rank side (uid_client.h).
#include "plugins/uid/uid_client.h"

#include <arpa/inet.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>

#include "plugins/uid/uid_server.h"

namespace symmem::uid {
namespace {

constexpr double send_limit_s = 10;
constexpr double grace_s = 5;  // the root names the missing ranks at the deadline; wait a little longer

struct client {
  plugin::reporter rep;
  int fd = -1;
  int rank = 0;
  int size = 0;
  std::string root;              // "10.77.0.1:41234"
  rendezvous *hosted = nullptr;  // the rendezvous, in rank 0's process
  bool heard = false;            // the root has answered at least once
  int dead_code = 0;             // the job has ended: every later call fails with this
  std::mutex mutex;              // one reader of the socket at a time
};

int lost(client &c, const char *call) {
  c.dead_code = SYMMEM_ERR_PEER_GONE;
  if (!c.heard) {
    return c.rep.fail(SYMMEM_ERR_BOOTSTRAP, call,
                      "the bootstrap root at %s closed the connection: it refused this process (an id of another "
                      "job, or a stale one?) or rank 0's process ended",
                      c.root.c_str());
  }
  return c.rep.fail(SYMMEM_ERR_PEER_GONE, call,
                    "lost the connection to the bootstrap root at %s: rank 0's process exited or died; the job "
                    "cannot continue",
                    c.root.c_str());
}

int on_abort(client &c, const std::vector<char> &payload, const char *call) {
  uint32_t kind = 0;
  uint32_t status = 1;
  if (payload.size() >= 8) {
    std::memcpy(&kind, payload.data(), 4);
    std::memcpy(&status, payload.data() + 4, 4);
  }
  std::string text = payload.size() > 8 ? std::string(payload.begin() + 8, payload.end()) : "the job ended";
  switch (static_cast<abort_kind>(ntohl(kind))) {
    case abort_kind::exit:
      c.rep.fail(SYMMEM_ERR_PEER_GONE, call, "the job is ending: %s", text.c_str());
      std::fflush(nullptr);
      ::_exit(static_cast<int>(ntohl(status)));  // global_exit: every PE ends with the caller's status
    case abort_kind::timeout:
      c.dead_code = SYMMEM_ERR_TIMEOUT;
      break;
    case abort_kind::peer_gone:
      c.dead_code = SYMMEM_ERR_PEER_GONE;
      break;
    default:
      c.dead_code = SYMMEM_ERR_BOOTSTRAP;
      break;
  }
  return c.rep.fail(c.dead_code, call, "%s", text.c_str());
}

// Waits for the next message, which must be `want`; an ABORT, EOF or timeout becomes the result.
int receive(client &c, msg want, std::vector<char> &payload, const char *call, double limit) {
  msg type{};
  io r = recv_msg(c.fd, type, payload, deadline_in(limit > 0 ? limit + grace_s : 0));
  if (r == io::timeout) {
    return c.rep.fail(SYMMEM_ERR_TIMEOUT, call,
                      "no answer from the bootstrap root at %s within %.0f s while waiting for the other PEs; raise "
                      "SYMMEM_BOOTSTRAP_TIMEOUT if they need longer",
                      c.root.c_str(), limit + grace_s);
  }
  if (r != io::ok) return lost(c, call);
  c.heard = true;
  if (type == msg::abort) return on_abort(c, payload, call);
  if (type != want) {
    return c.rep.fail(SYMMEM_ERR_BOOTSTRAP, call, "unexpected message %u from the bootstrap root (version mismatch?)",
                      static_cast<unsigned>(type));
  }
  return SYMMEM_SUCCESS;
}

// Checks every rank's length in a COLL_DONE and copies the data out.
int unpack(client &c, const std::vector<char> &payload, void *out, size_t len, const char *call) {
  const size_t head = sizeof(uint32_t) * static_cast<size_t>(c.size);
  std::string who;
  for (int r = 0; payload.size() >= head && r < c.size; ++r) {
    uint32_t l;
    std::memcpy(&l, payload.data() + sizeof l * static_cast<size_t>(r), sizeof l);
    if (ntohl(l) != len) who += plugin::format("%sPE %d sent %u bytes", who.empty() ? "" : ", ", r, ntohl(l));
  }
  if (payload.size() != head + len * static_cast<size_t>(c.size) || !who.empty()) {
    return c.rep.fail(SYMMEM_ERR_MISMATCH, call, "PEs disagree on a bootstrap exchange: this PE sent %zu bytes, %s",
                      len, who.empty() ? "the answer is malformed" : who.c_str());
  }
  if (len != 0) std::memcpy(out, payload.data() + head, len * static_cast<size_t>(c.size));
  return SYMMEM_SUCCESS;
}

int uid_allgather(void *ctx, const void *in, void *out, size_t len, const char *call) {
  auto &c = *static_cast<client *>(ctx);
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.dead_code != 0) {
    return c.rep.fail(c.dead_code, call, "the job has stopped (see the earlier message)");
  }
  if (len > max_payload / static_cast<size_t>(c.size)) {
    return c.rep.fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "a bootstrap exchange of %zu bytes per PE is too large", len);
  }
  const double limit = c.rep.timeout_for(call);
  uint32_t tmo = htonl(static_cast<uint32_t>(std::min(limit, 4e6) * 1000));
  if (send_msg(c.fd, msg::coll, &tmo, sizeof tmo, in, len, deadline_in(send_limit_s)) != io::ok) {
    return lost(c, call);
  }
  std::vector<char> payload;
  int rc = receive(c, msg::coll_done, payload, call, limit);
  return rc != SYMMEM_SUCCESS ? rc : unpack(c, payload, out, len, call);
}

int uid_poll_peers(void *ctx, const char *call) {
  auto &c = *static_cast<client *>(ctx);
  std::unique_lock<std::mutex> lock(c.mutex, std::try_to_lock);
  if (!lock.owns_lock()) return SYMMEM_SUCCESS;  // another thread is reading; it will see an ABORT
  if (c.dead_code != 0) return c.dead_code;
  pollfd p{c.fd, POLLIN, 0};
  if (c.fd < 0 || ::poll(&p, 1, 0) <= 0) return SYMMEM_SUCCESS;
  std::vector<char> payload;
  return receive(c, msg::abort, payload, call, 2);  // only ABORT or EOF arrive unasked: both fail
}

void uid_abort_job(void *ctx, int status, const char *message) {
  auto &c = *static_cast<client *>(ctx);
  uint32_t st = htonl(static_cast<uint32_t>(status));
  std::string text = message != nullptr ? message : "";
  send_msg(c.fd, msg::exit, &st, sizeof st, text.data(), text.size(), deadline_in(2));
  if (c.hosted != nullptr) {
    c.hosted->finish(2);  // let the root tell the others before this process (and the root) ends
  }
  std::fflush(nullptr);
  ::_exit(status);
}

void uid_close(void *ctx) {
  auto *c = static_cast<client *>(ctx);
  {
    std::lock_guard<std::mutex> lock(c->mutex);
    if (c->fd >= 0) {
      if (c->dead_code == 0) send_msg(c->fd, msg::bye, nullptr, 0, nullptr, 0, deadline_in(2));
      ::close(c->fd);
      c->fd = -1;
    }
  }
  if (c->hosted != nullptr) {
    // The other ranks are past the last collective; wait for their BYE so none loses the root early.
    drop_root(c->hosted, std::max(c->rep.host.bootstrap_timeout_s, 5.0));
  }
  delete c;
}

int parse_id(const plugin::reporter &rep, const symmem_boot_uid_args *a, id_blob &id) {
  if (a == nullptr || a->id == nullptr || a->id_len < sizeof id) {
    return rep.fail(SYMMEM_ERR_INVALID_ARGUMENT, "init", "no unique id was passed");
  }
  std::memcpy(&id, a->id, sizeof id);
  if (std::memcmp(id.magic, "SYMU", 4) != 0 || id.version != protocol_version || id.family != 4) {
    return rep.fail(SYMMEM_ERR_INVALID_ARGUMENT, "init",
                    "the unique id is not one from symmem_get_uniqueid (bytes damaged in transit, or an id of another "
                    "symmem version)");
  }
  return SYMMEM_SUCCESS;
}

// Rank 0 must host the rendezvous, and only rank 0 (include/symmem/init_attr.h).
int check_host(client &c, const id_blob &id) {
  c.hosted = find_root(id.secret);
  if (c.rank == 0 && c.hosted == nullptr) {
    return c.rep.fail(SYMMEM_ERR_INVALID_ARGUMENT, "init",
                      "rank 0 must run in the process that called symmem_get_uniqueid for this id (pid %u), and this "
                      "process did not; only rank 0 calls symmem_get_uniqueid, the other ranks receive its id, and an "
                      "id serves a single init..finalize cycle",
                      ntohl(id.root_pid));
  }
  if (c.hosted != nullptr) {
    std::string ended = c.hosted->outcome();
    if (!ended.empty()) {
      return c.rep.fail(SYMMEM_ERR_PEER_GONE, "init", "the job ended before this PE joined: %s", ended.c_str());
    }
  }
  if (c.rank != 0 && c.hosted != nullptr) {
    return c.rep.fail(SYMMEM_ERR_INVALID_ARGUMENT, "init",
                      "this process called symmem_get_uniqueid, so it must be rank 0, but it asks for rank %d", c.rank);
  }
  return SYMMEM_SUCCESS;
}

int connect_root(client &c, const id_blob &id) {
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = id.port;
  std::memcpy(&to.sin_addr, id.addr, 4);
  c.root = addr_text(to);
  c.fd = connect_to(to, deadline_in(c.rep.host.bootstrap_timeout_s));
  if (c.fd < 0) {
    return c.rep.fail(SYMMEM_ERR_BOOTSTRAP, "init",
                      "cannot reach the bootstrap root at %s: %s; is rank 0's process running, and can this host reach "
                      "that address? (SYMMEM_BOOTSTRAP_UID_SOCK_IFNAME on rank 0 picks the interface)",
                      c.root.c_str(), std::strerror(errno));
  }
  hello_msg h{};
  std::memcpy(h.magic, "SYMH", 4);
  h.version = htonl(protocol_version);
  std::memcpy(h.secret, id.secret, secret_bytes);
  h.rank = htonl(static_cast<uint32_t>(c.rank));
  h.nranks = htonl(static_cast<uint32_t>(c.size));
  h.pid = htonl(static_cast<uint32_t>(::getpid()));
  if (send_msg(c.fd, msg::hello, &h, sizeof h, nullptr, 0, deadline_in(send_limit_s)) != io::ok) {
    return lost(c, "init");
  }
  return SYMMEM_SUCCESS;
}

}  // namespace

int create_client(const symmem_boot_host *host, symmem_boot_ops *out) {
  auto *c = new client{};
  c->rep.host = *host;
  const auto *a = static_cast<const symmem_boot_uid_args *>(host->attr);
  id_blob id{};
  int rc = parse_id(c->rep, a, id);
  if (rc == SYMMEM_SUCCESS) {
    c->rank = a->rank;
    c->size = a->nranks;
    c->rep.set_pe(c->rank);
    rc = check_host(*c, id);
  }
  if (rc == SYMMEM_SUCCESS) rc = connect_root(*c, id);
  if (rc != SYMMEM_SUCCESS) {
    if (c->fd >= 0) ::close(c->fd);
    delete c;
    return rc;
  }
  *out = symmem_boot_ops{};
  out->abi_version = SYMMEM_BOOT_ABI_VERSION;
  out->struct_size = sizeof *out;
  out->ctx = c;
  out->name = "uid";
  out->rank = c->rank;
  out->size = c->size;
  out->allgather = uid_allgather;
  out->abort_job = uid_abort_job;
  out->poll_peers = uid_poll_peers;
  out->close = uid_close;
  return SYMMEM_SUCCESS;
}

}  // namespace symmem::uid
