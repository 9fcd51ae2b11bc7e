// symmem: every environment variable, in one table.
//
// X(field, kind, NAME, default, alias1, alias2, choices, doc)
//   field   member of symmem::config::settings
//   kind    size | size_mb | seconds | integer | boolean | choice(a|b|c) as a string | text
//   NAME    read as SYMMEM_<NAME>; alias1/alias2 are other full names honoured, each a list
//           separated by spaces ("" for none), looked at in order after SYMMEM_<NAME>
//   choices for kind choice: the allowed words separated by |
// Parsing, symmem-info and docs/environment.md all come from this table.
#pragma once

#define SYMMEM_CONFIG_TABLE(X)                                                                          \
  X(symmetric_size, size, "SYMMETRIC_SIZE", "1g", "NVSHMEM_SYMMETRIC_SIZE", "SHMEM_SYMMETRIC_SIZE SMA_SYMMETRIC_SIZE", "",  \
    "Bytes of symmetric heap per PE: a number with optional decimals and k/m/g/t (powers of 1024), "  \
    "e.g. 20m, 3.1M, .5g. Address space only: memory is committed as it is allocated.")                \
  X(symmetric_size_mb, size_mb, "SYMMETRIC_SIZE_MB", "", "NVSHMEM_SYMMETRIC_SIZE_MB", "", "",          \
    "Heap size in MiB (whole number). A byte form (SYMMETRIC_SIZE and its aliases) wins when both "   \
    "are set.")                                                                                        \
  X(debug, choice, "DEBUG", "warn", "", "", "off|warn|info|trace", "Log level: off, warn, info or trace (prefixed by PE).")  \
  X(bootstrap, choice, "BOOTSTRAP", "auto", "", "", "auto|launcher|singleton|mpi|pmix|uid",                                                    \
    "How the job forms: auto, launcher, singleton (and mpi, pmix, uid when built in). auto picks "    \
    "the launcher when started by symmem-run, else a single PE.")                                     \
  X(bootstrap_timeout, seconds, "BOOTSTRAP_TIMEOUT", "30", "", "", "",                                     \
    "Seconds a PE waits in init (and other bootstrap steps) for the others before failing with the " \
    "list of PEs that did not arrive; 0 waits forever (at most 1e7).")                                \
  X(wait_timeout, seconds, "WAIT_TIMEOUT", "600", "", "", "",                                              \
    "Seconds any spin wait (barrier, wait_until, locks) may last before the PE fails naming what it " \
    "waited for; 0 waits forever (at most 1e7).")                                                     \
  X(heap_retain, size, "HEAP_RETAIN", "64m", "", "", "",                                                   \
    "Bytes of emptied heap granules kept committed for reuse before they are handed back to the "    \
    "system.")                                                                                         \
  X(heap_kind, choice, "HEAP", "auto", "", "", "auto|host|gpu",                                                         \
    "Where the symmetric heap lives: auto (GPU memory when the program contains symmem device code " \
    "and a GPU is present, else host), host or gpu.")                                                                                    \
  X(gpu, text, "GPU", "", "", "", "",                                                                       \
    "GPU of each PE (GPU heap): empty picks the device the program made current before init, else "  \
    "node-local rank modulo the GPU count; N uses GPU N; a list N0,N1,... gives node-local rank i "   \
    "entry i modulo the list's length.")                                                               \
  X(uid_ifname, text, "BOOTSTRAP_UID_SOCK_IFNAME", "", "", "", "",                                          \
    "Network interface of the unique-id bootstrap's root (default: the first non-loopback IPv4 "     \
    "interface that is up, then loopback).")                                                          \
  X(plugin_path, text, "PLUGIN_PATH", "", "", "", "",                                                      \
    "Colon-separated directories searched first for bootstrap plugins (libsymmem_boot_*.so).")         \
  X(hostname, text, "HOSTNAME", "", "", "", "",                                                            \
    "Host identity used to find node-local PEs (default: the host symmem-run --hosts started the "    \
    "PE on, else the kernel's host name, boot id and network namespace).")                            \
  X(net_heap, choice, "NET_HEAP", "auto", "", "", "auto|staged|direct",                                         \
    "How PEs on other hosts reach the heap: auto (UCX RMA on a host heap; staged operations, which "   \
    "this PE's host carries out, on a GPU heap), staged (also for a host heap) or direct (a GPU heap " \
    "registered with a UCX built with CUDA: UCX RMA on GPU memory for transfers above "               \
    "SYMMEM_NET_PUT_STAGED, staged operations below and for atomics; a warning and staged operations " \
    "when UCX cannot reach GPU memory).")                                                              \
  X(net_put_staged, size, "NET_PUT_STAGED", "64k", "", "", "",                                              \
    "Puts of at most this many bytes to the host heap or static data of a PE on another host go as "  \
    "staged operations (one active message that the owner answers), so a quiet completes them in one " \
    "round trip instead of the two of UCX's put and flush over TCP; larger puts use UCX RMA. "          \
    "Non-fetching atomics go the same way, and small non-blocking gets (SYMMEM_NET_PUT_BATCH). "     \
    "0: always RMA and UCX atomics.")                                                                                      \
  X(net_put_batch, size, "NET_PUT_BATCH", "64k", "", "", "",                                              \
    "Staged puts on the default context of at most an eighth of this many bytes to one PE on another host, and "  \
    "non-fetching atomics, travel together, " \
    "up to this many bytes in one message, sent at the next other operation on the context, quiet, "   \
    "fence or wait, or by the progress thread; a put with nothing to its PE unanswered goes at once. " \
    "0: every staged put is its own message (read by the UCX plugin; at most 256k).")                   \
  X(proxy_hold, size, "PROXY_HOLD", "64k", "", "", "",                                                  \
    "A GPU kernel's puts (and puts with signal) of at most this many bytes from GPU memory to PEs on " \
    "other hosts are held by the proxy thread and copied to host memory together, with one wait for " \
    "the copies, then sent in order; 0: each is copied and sent on its own (at most 1m).")            \
  X(net_hold_stores, choice, "NET_HOLD_STORES", "auto", "", "", "auto|on|off",                             \
    "How this PE carries out a batch of small stores from another host: held, sorted by address and "  \
    "copied as runs that touch, through one pinned buffer (on), or each store as it comes (off); "     \
    "auto: held into a GPU heap (each copy there is a driver call), as they come into host memory.")  \
  X(helper_cpus, choice, "HELPER_CPUS", "spread", "", "", "spread|bound",                                  \
    "Where a PE's helper threads (the GPU heap's proxy thread, the network's progress thread) run "   \
    "when the launcher binds the PE to one CPU (mpirun's default): spread, on the machine's other "   \
    "CPUs, so that they do not take turns with the PE's own thread; bound, on the PE's CPU.")        \
  X(net_coll_direct, size, "NET_COLL_DIRECT", "128k", "", "", "",                                       \
    "Broadcasts, and blocks of fcollect, alltoall and collect, of at least this many bytes on a "    \
    "team of up to 8 PEs that spans hosts go straight into the members' destinations as data "        \
    "signals, after one exchange of the calls; smaller ones go as exchanges in chunks. 0: the "        \
    "exchanges while they carry the data (faster at 512 KiB-1 MiB where the kernel paces TCP with "    \
    "BBR congestion control: docs/multihost.md).")                                                     \
  X(net_progress_nap, seconds, "NET_PROGRESS_NAP", "0.002", "", "", "",                                    \
    "Longest nap, in seconds, of the network progress thread while this PE's own thread progresses " \
    "or posts on the network (the thread is then only a backstop; while the PE is away from the "     \
    "library it sleeps on the network instead). A request of another PE that arrives meanwhile and "  \
    "that the PE's thread does not serve waits for it (read by the UCX plugin; at most 1; 0: the "     \
    "thread never naps).")                                                                             \
  X(check_args, boolean, "CHECK_COLLECTIVE_ARGS", "1", "", "", "",                                         \
    "Verify that every PE passes the same arguments to each collective call (cost: folded into the " \
    "barrier the call needs anyway).")                                                                \
  X(symmetric_data, boolean, "SYMMETRIC_DATA", "1", "", "", "",                                            \
    "Make the program's global and static variables symmetric (OpenSHMEM 1.5, 3.2): at init their "  \
    "pages move onto shared memory that node-local PEs map. 0 keeps them private (RMA on them fails).")
