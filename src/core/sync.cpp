// Dissemination barrier (Hensgen, Finkel & Manber, "Two algorithms for barrier synchronization",
// 1988): in round k PE i signals PE (i + 2^k) mod n and waits for PE (i - 2^k) mod n; after
// ceil(log2 n) rounds every PE has heard, directly or not, from every other. Each signal also
// carries the min and max of a fingerprint of the PEs' call records seen so far, so the
// argument check costs no extra round: all fingerprints are equal iff min == max at the end.
// Slots are double-buffered by epoch parity: a slot of epoch e is written again only at e+2, which
// no PE reaches before every PE has left epoch e+1, hence has read its slot of epoch e.
#include "core/sync.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include "bootstrap/launcher_proto.h"
#include "core/remote.h"
#include "core/wait.h"

namespace symmem::core {
namespace {

std::string ranks_text(const std::vector<int> &pes) {
  std::string s = pes.size() == 1 ? "PE " : "PEs ";
  for (size_t i = 0; i < pes.size();) {
    size_t j = i;
    while (j + 1 < pes.size() && pes[j + 1] == pes[j] + 1) {
      ++j;
    }
    s += (i ? "," : "") + std::to_string(pes[i]);
    if (j > i) {
      s += "-" + std::to_string(pes[j]);
    }
    i = j + 1;
  }
  return s;
}

// Every PE's record of this collective, read from the peers' control segments (over the network
// for PEs on other hosts).
status gather_records(const call_record &mine, unsigned parity, std::vector<call_record> &all, const char *call) {
  all.resize(static_cast<size_t>(g.n_pes));
  const size_t off = ctrl_offset(&area_of(g.my_pe)->record[parity]);
  for (int p = 0; p < g.n_pes; ++p) {
    if (p == g.my_pe) {
      all[static_cast<size_t>(p)] = mine;
    } else {
      ctrl_get(p, off, &all[static_cast<size_t>(p)], sizeof(call_record), call);
    }
  }
  return ok_status;
}

status report_mismatch(const call_record &mine, unsigned parity, const char *call) {
  std::vector<call_record> all;
  SYMMEM_TRY(gather_records(mine, parity, all, call));
  std::map<std::string, std::vector<int>> groups;
  for (int p = 0; p < g.n_pes; ++p) {
    groups[describe_call(all[static_cast<size_t>(p)])].push_back(p);
  }
  std::vector<std::pair<std::string, std::vector<int>>> order(groups.begin(), groups.end());
  std::sort(order.begin(), order.end(), [](auto &x, auto &y) { return x.second[0] < y.second[0]; });
  std::string text;
  for (auto &[desc, pes] : order) {
    text += (text.empty() ? "" : ", ") + ranks_text(pes) + " called " + desc;
  }
  return fail(SYMMEM_ERR_MISMATCH, call,
              "collective calls differ across PEs: %s; every PE must make the same collective calls with the "
              "same arguments, in the same order",
              text.c_str());
}

status sync_over_heap(uint64_t &lo, uint64_t &hi, const char *call) {
  const uint64_t epoch = ++g.sync_epoch;
  const unsigned parity = epoch & 1;
  const int n = g.n_pes;
  const int me = g.my_pe;
  internal_area *mine = area_of(me);
  for (int k = 0, dist = 1; dist < n; ++k, dist <<= 1) {
    const int to = (me + dist) % n;
    sync_slot &in = mine->slots[parity][k];
    signal_slot(to, ctrl_offset(&in), epoch, lo, hi, call);  // the same slot of the partner
    if (!slot_ready(in, epoch)) {
      const int from = (me - dist + n) % n;
      spin_wait w(call, [from] { return strfmt("PE %d%s to reach the same collective call", from, remote_note(from)); });
      w.yield_every_turn(node_oversubscribed());
      while (!slot_ready(in, epoch)) {
        w.pause();
      }
    }
    lo = std::min(lo, std::atomic_ref<uint64_t>(in.lo).load(std::memory_order_relaxed));
    hi = std::max(hi, std::atomic_ref<uint64_t>(in.hi).load(std::memory_order_relaxed));
  }
  return ok_status;
}

}  // namespace

const char *call_name(uint32_t id) {
  switch (id) {
    case call_barrier_all: return "barrier_all";
    case call_sync_all: return "sync_all";
    case call_malloc: return "malloc";
    case call_calloc: return "calloc";
    case call_align: return "align";
    case call_realloc: return "realloc";
    case call_free: return "free";
    case call_finalize: return "finalize";
    default: {
      const char *user = user_call_name != nullptr ? user_call_name(id) : nullptr;
      return user != nullptr ? user : "a collective routine";
    }
  }
}

std::string describe_call(const call_record &r) {
  switch (r.call) {
    case call_malloc: return strfmt("malloc(%llu bytes)", static_cast<unsigned long long>(r.a));
    case call_calloc: return strfmt("calloc(%llu bytes)", static_cast<unsigned long long>(r.a));
    case call_align:
      return strfmt("align(alignment %llu, %llu bytes)", static_cast<unsigned long long>(r.b),
                    static_cast<unsigned long long>(r.a));
    case call_realloc:
      if (r.b == 1) return strfmt("realloc(a pointer outside the symmetric heap, %llu bytes)", static_cast<unsigned long long>(r.a));
      return strfmt("realloc(%#llx, %llu bytes)", static_cast<unsigned long long>(r.b),
                    static_cast<unsigned long long>(r.a));
    case call_free:
      return r.b != 0 ? std::string("free(a pointer outside the symmetric heap)")
                      : strfmt("free(%#llx)", static_cast<unsigned long long>(r.a));
    case call_barrier_all: case call_sync_all: case call_finalize: return std::string(call_name(r.call)) + "()";
    default:
      return strfmt("%s(%llu, %llu)", call_name(r.call), static_cast<unsigned long long>(r.a),
                    static_cast<unsigned long long>(r.b));
  }
}

void signal_slot(int pe, size_t slot_offset, uint64_t epoch, uint64_t lo, uint64_t hi, const char *call) {
  const uint64_t check = slot_check(epoch, lo, hi);
  if (SYMMEM_UNLIKELY(g.remote) && is_remote(pe)) {
    const uint64_t whole[4] = {epoch, lo, hi, check};  // sync_slot's layout, in one message
    ctrl_signal(pe, slot_offset, whole, 4, call);
    return;
  }
  auto &out = *reinterpret_cast<sync_slot *>(g.ctrl_table[static_cast<size_t>(pe)] + slot_offset);
  std::atomic_ref<uint64_t>(out.lo).store(lo, std::memory_order_relaxed);
  std::atomic_ref<uint64_t>(out.hi).store(hi, std::memory_order_relaxed);
  std::atomic_ref<uint64_t>(out.check).store(check, std::memory_order_relaxed);
  out.epoch.store(epoch, std::memory_order_release);
}

const char *remote_note(int pe) { return is_remote(pe) ? " (on another host, over the network)" : ""; }

status collective_sync(const call_record &rec, const char *call) {
  if (g.n_pes == 1) {
    return ok_status;
  }
  SYMMEM_TRY(finish_deferred(call));
  const bool check = g.cfg.check_args;
  uint64_t fp = check ? fingerprint(rec) : 0;
  uint64_t lo = fp;
  uint64_t hi = fp;
  const unsigned parity = (g.sync_epoch + 1) & 1;
  area_of(g.my_pe)->record[parity] = rec;
  SYMMEM_TRY(sync_over_heap(lo, hi, call));
  if (lo != hi) {
    return report_mismatch(rec, parity, call);
  }
  return ok_status;
}

namespace {
struct node_share {
  long pes = 0, cpus = 0;
};
node_share count_node_share() {
  // A PE that symmem-run bound to CPUs of its own (one, or a block: it binds only when the PEs
  // fit) counts the CPUs the launcher shared out; a PE pinned to one CPU by another launcher
  // says nothing about the others: the host's CPUs then; otherwise the CPUs this PE may use.
  cpu_set_t set;
  long cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
  const char *env = std::getenv(launcher::env_cpus);
  const long shared = env != nullptr ? std::atol(env) : 0;
  if (shared > 0) {
    cpus = shared;
  } else if (cpus <= 1) {
    cpus = sysconf(_SC_NPROCESSORS_ONLN);
  }
  // The machine's PEs: its host's, or more when hosts share the machine (symmem-run --hosts with
  // network namespaces or containers on one machine). Counting the host's alone, 2 emulated hosts
  // x 2 PEs on 2 CPUs did not count as oversubscribed, and every wait spun ~100 us before giving
  // the core to the PE it awaited: coll_bench's barrier took 148-277 us there instead of 40-43.
  const char *machine = std::getenv(launcher::env_machine_pes);
  const long pes = std::max<long>(g.local_size, machine != nullptr ? std::atol(machine) : 0);
  return {pes, cpus};
}
}  // namespace

bool node_oversubscribed() {
  static std::atomic<uint64_t> for_job{0};
  static std::atomic<bool> over{false};
  if (SYMMEM_UNLIKELY(for_job.load(std::memory_order_acquire) != g.nonce)) {
    const node_share n = count_node_share();
    over.store(n.pes > n.cpus, std::memory_order_relaxed);
    for_job.store(g.nonce, std::memory_order_release);
  }
  return over.load(std::memory_order_relaxed);
}

std::string node_share_note() {
  const node_share n = count_node_share();
  return strfmt("%ld PE%s on this machine share%s %ld CPU%s%s", n.pes, n.pes == 1 ? "" : "s", n.pes == 1 ? "s" : "",
                n.cpus, n.cpus == 1 ? "" : "s", n.pes > n.cpus ? ": waits give up the core at once" : "");
}

// Other programs compete for the CPU (two `yes` on a 2-CPU machine, a build beside the job): a
// yield then hands the core to one of them for its time slice, and a PE that yields sees the
// message it waits for a millisecond late. A get across hosts took 850-940 us that way (OSHMEM,
// which never yields, 25-84). A sleep on the network's event descriptor is woken by the message
// itself: 70-85 us. A yield that took longer than slow_yield says the CPU is contended, and the
// waits of the next contention_memory sleep instead of yielding; then a yield looks again. The
// spin before it stays: a woken task that has just run is not always scheduled at once, and with
// 16 turns instead of 256 the get took 280-330 us (with 1024 or 4096, 71-85: no better). A sleep
// lasts idle_usec at most, so that what the network does not bring (a store of a PE on this host)
// is seen that late at worst, as after a yield to another program (20 or 1000 us: 116-157 and
// 121-126 us per get). On an idle CPU a yield returns at once and nothing changes; but a sleep
// costs its wake-up (a get across hosts took 33 us instead of 14-17 with both sides sleeping), so
// slow_yield must not take the kernel's own work for contention: of 200000 yields of a get loop on
// the idle 2-CPU VM, 101 took 20-100 us (the veth's packets, softirq) and none longer, while with
// a busy program per CPU 90% of them took over 200 us and half over 1 ms. A first threshold of
// 20 us put the idle loop to sleep (OSU's osu_oshm_get showed it). One slow yield is not enough
// either: on the idle VM a PE now and then sees one of 240-1550 us (in OSU's osu_oshm_atomics,
// once per run), and 100 ms of sleeps made its fetching atomics 32-35 us instead of 17-19. So it
// takes slow_streak_needed slow yields in a row, or one within contention_recall of the last
// contended time (the load is still there: no need to pay three time slices again).
namespace {
constexpr auto slow_yield = std::chrono::microseconds(200);
constexpr auto contention_memory = std::chrono::milliseconds(100);
constexpr unsigned idle_usec = 100;
constexpr int slow_streak_needed = 3;
constexpr auto contention_recall = std::chrono::seconds(1);
std::atomic<int64_t> contended_until{0};  // steady_clock nanoseconds
std::atomic<int> slow_streak{0};

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
// The kernel's count of runnable tasks (/proc/loadavg's fourth field, "running/total", at this
// instant) against the machine's CPUs: slow yields alone also come from the kernel's own work and
// from this PE's other threads, and then there is no program to give the CPU to.
bool more_runnable_than_cpus() {
  FILE *f = std::fopen("/proc/loadavg", "r");
  if (f == nullptr) return true;  // nothing to ask: trust the yields
  double l1, l5, l15;
  long running = 0, total = 0;
  const int got = std::fscanf(f, "%lf %lf %lf %ld/%ld", &l1, &l5, &l15, &running, &total);
  std::fclose(f);
  if (got != 5) return true;
  return running > sysconf(_SC_NPROCESSORS_ONLN);
}
// Whether the CPUs looked free at the last look, taken at most every cpu_look_every: a wait spins
// on (remote_spin_turns) only then. Under other programs' load the long spin hid the contention:
// a fetching atomic finished inside it while the busy programs took their time slices, no yield
// was ever timed, and the PE never went to sleep on the network (net.mh.contended.counter).
// A look costs about 10 us, once per cpu_look_every at most.
constexpr auto cpu_look_every = std::chrono::milliseconds(20);
std::atomic<int64_t> next_cpu_look{0};
std::atomic<bool> cpus_free{true};
bool cpus_looked_free(int64_t now) {
  if (now >= next_cpu_look.load(std::memory_order_relaxed)) {
    next_cpu_look.store(now + std::chrono::nanoseconds(cpu_look_every).count(), std::memory_order_relaxed);
    cpus_free.store(!more_runnable_than_cpus(), std::memory_order_relaxed);
  }
  return cpus_free.load(std::memory_order_relaxed);
}
}  // namespace

namespace {
thread_local unsigned long test_misses = 0;
thread_local int64_t last_miss_ns = 0;
// Misses closer together than this are a loop that polls: only such a loop progresses the network
// itself. A program that tests now and then between work leaves it to the progress thread, which
// sleeps on the network while the library is away and naps once the PE's own thread progresses:
// a test made after each 10 ms of work must not turn it from the first into the second.
constexpr int64_t polling_gap_ns = 50'000;
}  // namespace

bool test_missed() {
  const unsigned long every = SYMMEM_LIKELY(!g.remote) ? 256 : 16;  // powers of two (core/wait.h)
  if ((++test_misses & (every - 1)) == 0 && node_oversubscribed()) sched_yield();
  if (SYMMEM_LIKELY(!g.remote)) return false;
  const int64_t now = now_ns();
  const bool polling = now - last_miss_ns < polling_gap_ns;
  last_miss_ns = now;
  if (!polling) return false;
  remote_progress();
  return true;
}

void test_hit() { test_misses = 0; }

void spin_wait::give_up_core() {
  if (!g.remote) {  // on one host nothing else to sleep on: the yield, as ever
    sched_yield();
    return;
  }
  const int64_t now = now_ns();
  if (now < contended_until.load(std::memory_order_relaxed)) {
    remote_idle(idle_usec);
    return;
  }
  if (turns_ == spin_turns && !node_oversubscribed() && cpus_looked_free(now)) {  // the first time: spin on
    spin_limit_ = remote_spin_turns;
    return;
  }
  sched_yield();
  const int64_t after = now_ns();
  if (after - now <= std::chrono::nanoseconds(slow_yield).count()) {
    slow_streak.store(0, std::memory_order_relaxed);
    return;
  }
  // Contended: slow_streak slow yields in a row, or one soon after the last contended time; and
  // more tasks runnable than the machine has CPUs.
  const int64_t until = contended_until.load(std::memory_order_relaxed);
  const int streak = slow_streak.fetch_add(1, std::memory_order_relaxed) + 1;
  if (streak < slow_streak_needed && after - until > std::chrono::nanoseconds(contention_recall).count()) return;
  slow_streak.store(0, std::memory_order_relaxed);
  if (!more_runnable_than_cpus()) return;
  contended_until.store(after + std::chrono::nanoseconds(contention_memory).count(), std::memory_order_relaxed);
  static std::atomic<bool> told{false};
  if (current_log_level() >= log_level::info && !told.exchange(true)) {
    log(log_level::info, "%s: %d yields of the CPU in a row took over %lld us (the last %.0f us): other programs "
        "compete for it, so waits sleep until the network wakes them (for %lld ms, then a yield looks again)", call_,
        streak, static_cast<long long>(slow_yield.count()), (after - now) / 1e3,
        static_cast<long long>(contention_memory.count()));
  }
}

void spin_wait::check() {
  auto now = std::chrono::steady_clock::now();
  if (start_ == std::chrono::steady_clock::time_point{}) {
    start_ = now;
  }
  if (now - last_check_ < check_every) {
    return;
  }
  last_check_ = now;
  if (boot::bootstrap *b = boot::current()) {
    status s = b->poll_peers(call_);
    if (!s.ok()) {
      std::fflush(nullptr);
      ::_exit(1);
    }
  }
  double limit = g.cfg.wait_timeout;
  if (limit > 0 && std::chrono::duration<double>(now - start_).count() > limit) {
    const std::string net = remote_unanswered_note();  // a network that stopped answering names itself
    if (exit_finalizing()) {
      fatal(call_, "the program returns from main without calling symmem_finalize (shmem_finalize), and in the "
            "finalize made for it at exit this PE waited %.0f s for %s%s; the other PEs are stopped. Call it on "
            "every PE before returning from main (OpenSHMEM 1.5, 9.1.3)", limit, describe_().c_str(), net.c_str());
    }
    fatal(call_, "waited %.0f s for %s%s; the job looks deadlocked (raise SYMMEM_WAIT_TIMEOUT, or 0 to wait forever)",
          limit, describe_().c_str(), net.c_str());
  }
}

}  // namespace symmem::core
