// symmem: the synchronisation that every collective call rides on.
#pragma once

#include <atomic>
#include <string>

#include "core/state.h"

namespace symmem::core {

// Barrier over all PEs that also checks that every PE made the same call with the same arguments
// (when SYMMEM_CHECK_COLLECTIVE_ARGS is on). On a mismatch every PE reports the calls of all PEs
// and gets SYMMEM_ERR_MISMATCH; nothing else changes.
status collective_sync(const call_record &rec, const char *call);

// Called first by every synchronisation of collectives (collective_sync, the team barriers) and
// by every team collective: finishes the checks that collectives left for later (a broadcast's
// root across hosts does not wait for the other members' calls: coll_net.cpp). Null until the
// collectives set it; an error it returns ends the calling collective.
inline std::atomic<status (*)(const char *call)> before_collective{nullptr};
inline status finish_deferred(const char *call) {
  status (*f)(const char *) = before_collective.load(std::memory_order_acquire);
  return f != nullptr ? f(call) : ok_status;
}

// A 64-bit fingerprint of a call record (splitmix64's finaliser, chained): the barriers compare
// the min and max of the PEs' fingerprints instead of whole records.
inline uint64_t fingerprint_mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
inline uint64_t fingerprint(const call_record &r) {
  return fingerprint_mix(fingerprint_mix(fingerprint_mix(r.call) ^ r.a) ^ r.b);
}

// Writes a dissemination-barrier signal into the sync slot at `slot_offset` of PE pe's control
// segment: lo, hi and their check, then the epoch with release order. Over the network: the whole
// slot in one put, which the receiver takes once its check matches (state.h, sync_slot).
void signal_slot(int pe, size_t slot_offset, uint64_t epoch, uint64_t lo, uint64_t hi, const char *call);
// " (on another host)" for a PE reached through the network, for wait messages; else "".
const char *remote_note(int pe);

// Formats a record for messages: "malloc(1024 bytes)".
std::string describe_call(const call_record &rec);

// True when this machine runs more PEs than it has CPUs (counting every host on it: --hosts may put
// several on one machine): a waiting PE should then give its core to the PE it waits for at once
// rather than spin first (a spin only delays it by a time slice).
bool node_oversubscribed();
// What node_oversubscribed() counted: "4 PEs on this machine share 2 CPUs" (SYMMEM_DEBUG=info at init).
std::string node_share_note();

// Names of the calls numbered from call_user_first (defined by the teams layer when linked in).
const char *user_call_name(uint32_t id) __attribute__((weak));

}  // namespace symmem::core
