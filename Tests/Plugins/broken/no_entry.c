/*
 * no_entry.c — BREAKS: the entry point. A valid shared library that exports some other
 * function (nc_plugin_start) but not nc_plugin_init, so the host must refuse it with
 * PluginError.Reason.noEntryPoint.
 */
#include <normcache_plugin.h>

int nc_plugin_start(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size);

int nc_plugin_start(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size) {
    (void)host;
    (void)plugin;
    (void)error;
    (void)error_size;
    return 0;
}
