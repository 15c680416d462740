/*
 * init_fails.c — BREAKS: initialization, with a message. nc_plugin_init writes
 * "database seed missing" into `error` and returns 1, so the host must refuse it with
 * .initFailed("database seed missing") and call nothing else in it: destroy is set, and
 * would create "<this library's path>.destroyed" (path from dladdr) if it were called.
 */
#define _GNU_SOURCE
#include <normcache_plugin.h>

#include <dlfcn.h>
#include <stdio.h>

static void init_fails_destroy(void *context) {
    (void)context;
    Dl_info info;
    if (!dladdr((void *)&init_fails_destroy, &info) || !info.dli_fname) return;
    char path[4096];
    snprintf(path, sizeof path, "%s.destroyed", info.dli_fname);
    FILE *file = fopen(path, "w");
    if (file) fclose(file);
}

int nc_plugin_init(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size) {
    (void)host;
    plugin->abi_version = NC_PLUGIN_ABI_VERSION;
    plugin->name = "seeded";
    plugin->destroy = init_fails_destroy;
    snprintf(error, error_size, "database seed missing");
    return 1;
}
