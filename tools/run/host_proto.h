// symmem-run: the protocol between the launcher (the head) and its host agents.
//
// With --hosts, the head starts one agent per host through the launch agent (ssh, or any command
// given by --launch-agent): `symmem-run --host-agent`. The agent's stdin and stdout are the
// channel: the head writes frames to the agent's stdin, the agent writes frames to its stdout (a
// pipe through ssh or `ip netns exec`, so the control path needs no address of its own and no
// credential). The agent's stderr carries its own diagnostics, passed through line by line.
//
// A frame is a header and `len` payload bytes:  struct frame { uint32_t type, id, len; }.
//
// head -> agent
//   SETUP    once, first: the job (serialised with the put_/get_ helpers below): host name, the
//            ranks to start, the job size, job id, options, environment, argv, working directory.
//   DATA     id = link: bytes for the PE connection `link` (the launcher protocol, relayed as is).
//   CLOSE    id = link: the head closed that connection.
//   PLACE    payload uint32 offset, uint32 total: the answer to MACHINE. The agent's PEs take
//            CPU places offset .. offset + count - 1 of `total` PEs sharing this machine.
//   SIGNAL   payload int32: send this signal to every PE's process group.
//   EOF on stdin: the head is gone; the agent kills every PE and exits.
// agent -> head
//   MACHINE  once, first: this host's machine identity (the kernel's boot id and the CPUs the
//            agent may use). Several "hosts" of a job can be one machine (network namespaces,
//            containers): the head gives the PEs of such hosts distinct CPUs, so that --bind-to
//            does not pin them all to the first core. The agent starts no PE before PLACE.
//   STARTED  id = rank, payload int32 pid: the PE is running.
//   OPEN     id = link: a PE connected to the agent's local socket.
//   DATA     id = link: bytes from that PE connection.
//   CLOSE    id = link: the PE closed it.
//   OUT      id = rank, payload: one byte (1 stdout, 2 stderr), then output (whole lines when
//            tagging).
//   EXITED   id = rank, payload int32 wait status. Everything the PE sent before it exited has
//            been relayed first, so the head counts it before the exit.
// A PE connection is relayed byte for byte: the head serves it exactly like a local one.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace symmem::run::hp {

enum class type : uint32_t {
  setup = 1,
  data = 2,
  close = 3,
  signal = 4,
  place = 5,
  started = 10,
  open = 11,
  out = 12,
  exited = 13,
  machine = 14,
};

struct frame {
  uint32_t type;
  uint32_t id;
  uint32_t len;
};

inline constexpr uint32_t max_frame = (1u << 30) + 4096;
inline constexpr uint32_t version = 2;

inline std::string frame_bytes(type t, uint32_t id, std::string_view payload) {
  frame f{static_cast<uint32_t>(t), id, static_cast<uint32_t>(payload.size())};
  std::string s(reinterpret_cast<const char *>(&f), sizeof f);
  s.append(payload);
  return s;
}

inline void put_u32(std::string &s, uint32_t v) { s.append(reinterpret_cast<const char *>(&v), sizeof v); }
inline void put_str(std::string &s, std::string_view v) {
  put_u32(s, static_cast<uint32_t>(v.size()));
  s.append(v);
}

// Reads from the front of `in`; false when it runs short (a malformed frame).
inline bool get_u32(std::string_view &in, uint32_t &v) {
  if (in.size() < sizeof v) return false;
  std::memcpy(&v, in.data(), sizeof v);
  in.remove_prefix(sizeof v);
  return true;
}
inline bool get_str(std::string_view &in, std::string &v) {
  uint32_t n = 0;
  if (!get_u32(in, n) || in.size() < n) return false;
  v.assign(in.substr(0, n));
  in.remove_prefix(n);
  return true;
}

}  // namespace symmem::run::hp
