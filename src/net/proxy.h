// symmem: the host side of the proxy ring (symmem/detail/proxy_ring.h).
//
// A proxy is a host thread that consumes a ring's requests in ticket order and carries each out
// through an executor (the runtime's remote path: core/proxy_exec.cpp), then advances the ring's
// `completed` and `tail` words as the ring's contract says. Producers are GPU kernels (the device
// side is in the header) or host threads (post/wait/fetch/quiet below, the same protocol).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "symmem/detail/proxy_ring.h"

namespace symmem::net {

class proxy_executor {
 public:
  virtual ~proxy_executor() = default;
  virtual void put(int pe, uint64_t dst, uint64_t src, uint64_t size) = 0;   // completes at quiet
  virtual void get(int pe, uint64_t dst, uint64_t src, uint64_t size) = 0;   // complete on return
  virtual uint64_t amo(int pe, uint64_t dst, unsigned op, unsigned size, uint64_t value, uint64_t compare,
                       bool fetch) = 0;                                      // fetching: complete on return
  // PUT_DATA: `size` bytes at `data`, which is valid during the call only (the ring's slots are
  // reused after it); completes at quiet.
  virtual void put_data(int pe, uint64_t dst, const void *data, uint64_t size) = 0;
  virtual void fence() = 0;
  virtual void quiet() = 0;
  virtual void progress() = 0;  // while idle
  // Put with signal (SYMMEM_PROXY_SIGNAL): `size` bytes (0: none), then the 8-byte signal at
  // `sig` (op SYMMEM_NET_AMO_SWAP sets it, ADD adds), ordered after them; completes at quiet.
  // By default the three steps; an executor with a one-message form overrides it.
  virtual void put_signal(int pe, uint64_t dst, uint64_t src, uint64_t size, uint64_t sig, unsigned op,
                          uint64_t value) {
    if (size != 0) put(pe, dst, src, size);
    fence();
    (void)amo(pe, sig, op, 8, value, 0, false);
  }
};

class proxy {
 public:
  proxy(symmem_proxy_ring *ring, proxy_executor &ex) : ring_(ring), ex_(ex), fetching_(ring->slots, 0) {}
  ~proxy() { stop(); }
  proxy(const proxy &) = delete;
  proxy &operator=(const proxy &) = delete;

  // What the proxy thread did: logged by stop() at SYMMEM_DEBUG=info; read it after stop().
  struct stats {
    uint64_t ops[8] = {};     // requests by symmem_proxy_op (0: an unknown one)
    uint64_t data_bytes = 0;  // bytes carried in PUT_DATA spans
    uint64_t busy_ns = 0;     // from a request found after an idle turn to the next idle turn
    uint64_t quiet_ns = 0;    // in the network's quiet: QUIET requests, fetching requests' completion
    uint64_t sleeps = 0;      // idle sleeps (50 us each, asked of the OS)
    uint64_t wall_ns = 0;     // start() to stop()
  };
  const stats &statistics() const { return stats_; }

  void start();
  // The CPUs the proxy thread may use when the PE is bound to one CPU (it may then run on the
  // machine's others: common/helper_thread.h); 0 when it kept the PE's CPUs. Set by start().
  int helper_cpus() const { return helper_cpus_; }
  // Finishes the requests already published (a last quiet) and joins the thread; the producers
  // must be done.
  void stop();
  // For a process that exits without finalize: the thread leaves the network alone from its next
  // step on (no request carried out, no last quiet) and ends. True once it ended within `limit`
  // (joined); false when it did not (stuck inside a call), and the thread is left detached.
  bool abandon(std::chrono::milliseconds limit);

  // Initialises a ring of `slots` (a power of two) in symmem_proxy_ring_bytes(slots) bytes of
  // memory, for host producers; a GPU ring then points head_addr at two zeroed device words (proxy_ring.h). A GPU
  // ring must hold every ticket that a warp's lanes claim together (symmem_proxy_claim_n).
  static symmem_proxy_ring *init_ring(void *memory, uint64_t slots);

  // The host producer, the same protocol as the device one.
  static uint64_t post(symmem_proxy_ring *ring, const symmem_proxy_req &r);
  // A PUT_DATA request: `n` bytes (1 to SYMMEM_PROXY_SPAN_MOST) carried in the ring.
  static uint64_t post_data(symmem_proxy_ring *ring, int pe, uint64_t dst, const void *data, uint64_t n);
  static void wait(symmem_proxy_ring *ring, uint64_t ticket);
  static uint64_t fetch(symmem_proxy_ring *ring, const symmem_proxy_req &r);
  static void quiet(symmem_proxy_ring *ring);

 private:
  void loop();
  bool step();  // one request, if there is one
  void execute(const symmem_proxy_req &r, symmem_proxy_slot &s);
  void put_data(const symmem_proxy_req &r);
  void timed_quiet();  // the network's quiet, counted in stats_.quiet_ns
  void release();

  symmem_proxy_ring *ring_;
  proxy_executor &ex_;
  std::vector<uint8_t> fetching_;  // per slot: the request there waits for its producer to release it
  uint64_t next_ = 0;              // the next ticket to carry out
  unsigned char span_[SYMMEM_PROXY_SPAN_MOST];  // a PUT_DATA request's bytes, out of the ring
  std::atomic<bool> stop_{false};
  std::atomic<bool> abandon_{false};
  std::atomic<bool> ended_{false};
  std::thread thread_;
  int helper_cpus_ = 0;
  stats stats_;  // the proxy thread's while it runs
  std::chrono::steady_clock::time_point started_;
};

}  // namespace symmem::net
