/*
 * abi_old.c — BREAKS: a plugin built against ABI version 1, before nc_host_api.cancel,
 * that does not check the host's version itself. The host refuses it as it refuses any
 * other version (docs/plugins.md: an older plugin is rebuilt, not served without cancel),
 * calling none of its functions. Everything else is abi_mismatch.c.
 */
#define MISMATCHED_ABI_VERSION 1
#include "abi_mismatch.c"
