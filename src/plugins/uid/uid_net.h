// symmem uid plugin: sockets with deadlines, interface choice, framing.
#pragma once

#include <netinet/in.h>

#include <chrono>
#include <string>
#include <vector>

#include "plugins/common/plugin_util.h"
#include "plugins/uid/uid_proto.h"

namespace symmem::uid {

using clock = std::chrono::steady_clock;
using deadline = clock::time_point;

// Now + seconds; seconds <= 0 means no deadline.
deadline deadline_in(double seconds);

std::string addr_text(const sockaddr_in &a);  // "10.77.0.1:41234"

// The address the root listens on: the interface named by SYMMEM_BOOTSTRAP_UID_SOCK_IFNAME
// ("eth0", "eth,ib" prefixes, "=eth0" exact, "^docker" excluded), else the first non-loopback
// IPv4 interface that is up, else loopback.
int choose_address(const plugin::reporter &rep, sockaddr_in &out, std::string &ifname);

// A listening socket on `at` (port 0: any); `bound` receives the actual address.
int open_listener(const plugin::reporter &rep, const sockaddr_in &at, int &fd, sockaddr_in &bound);

// Connects within the deadline; returns the socket or -1 with errno set.
int connect_to(const sockaddr_in &to, deadline until);

bool set_nonblocking(int fd);
bool random_bytes(void *buf, size_t len);
// Compares secrets in time independent of where they differ.
bool same_secret(const uint8_t *a, const uint8_t *b);

enum class io { ok, eof, timeout, error };
io send_all(int fd, const void *buf, size_t len, deadline until);
io recv_all(int fd, void *buf, size_t len, deadline until);

// A message whose payload is `head` followed by `body` (either may be empty).
io send_msg(int fd, msg type, const void *head, size_t head_len, const void *body, size_t body_len, deadline until);
// Reads one message; fails (error) when the payload exceeds max_payload.
io recv_msg(int fd, msg &type, std::vector<char> &payload, deadline until);

}  // namespace symmem::uid
