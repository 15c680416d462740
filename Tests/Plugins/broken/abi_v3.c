/*
 * abi_v3.c — BREAKS: a plugin built against ABI version 3, before nc_plugin.subscribe,
 * that does not check the host's version itself. The host refuses it as it refuses any
 * other version, calling none of its functions. Everything else is abi_mismatch.c.
 */
#define MISMATCHED_ABI_VERSION 3
#include "abi_mismatch.c"
