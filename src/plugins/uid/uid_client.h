// symmem uid plugin: the rank side of the protocol (uid_proto.h), as a plugin ops table.
#pragma once

#include "bootstrap/plugin.h"

namespace symmem::uid {

// Connects to the rendezvous named by host->attr (symmem_boot_uid_args) and fills `out`.
int create_client(const symmem_boot_host *host, symmem_boot_ops *out);

}  // namespace symmem::uid
