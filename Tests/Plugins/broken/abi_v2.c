/*
 * abi_v2.c — BREAKS: a plugin built against ABI version 2, before nc_host_api.entity_key,
 * that does not check the host's version itself. The host refuses it as it refuses any
 * other version (docs/plugins.md: an older plugin is rebuilt, not served with part of the
 * ABI), calling none of its functions. Everything else is abi_mismatch.c.
 */
#define MISMATCHED_ABI_VERSION 2
#include "abi_mismatch.c"
