/*
 * init_fails_silently.c — BREAKS: initialization, without a message. nc_plugin_init
 * returns 7 and leaves `error` empty, so the host must still say what happened: that it
 * returned 7 without a message.
 */
#include <normcache_plugin.h>

int nc_plugin_init(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size) {
    (void)host;
    (void)plugin;
    (void)error;
    (void)error_size;
    return 7;
}
