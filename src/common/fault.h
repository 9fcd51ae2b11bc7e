// symmem: the library's one SIGSEGV handler.
//
// Two parts of symmem explain or absorb faults on their own address ranges: the guard left where
// the heap was after finalize (core/guard), and the write hold while the program's static data
// changes backing (mem/data_segment). Each registers a hook; the handler asks the hooks in turn
// and hands any other fault to the handler that was installed before symmem's, so a program's own
// SIGSEGV handling (or the default core dump) is unchanged.
#pragma once

#include <cstdint>

namespace symmem {

// Returns true when it has dealt with the fault at `addr` (the access is then retried); it may also
// end the process. Runs in a signal handler: async-signal-safe code only.
using fault_hook = bool (*)(uintptr_t addr);

// Adds a hook (at most a few; each once) and installs the handler on first use. Hooks stay for
// the life of the process.
void add_fault_hook(fault_hook hook);

}  // namespace symmem
