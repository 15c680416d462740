/*
 * abi_mismatch.c — BREAKS: the ABI version. nc_plugin_init fills a complete, otherwise
 * valid plugin but writes MISMATCHED_ABI_VERSION (NC_PLUGIN_ABI_VERSION + 1 unless the
 * including file says otherwise, as abi_old.c does) into plugin->abi_version and returns
 * 0, so the host must refuse it with .abiMismatch(plugin: that version, host: N) and call
 * none of its functions, not even destroy.
 *
 * To make that observable, init creates the file "<this library's path>.init" and
 * destroy creates "<this library's path>.destroyed" (the path comes from dladdr, so each
 * test that loads its own copy of the library gets its own markers).
 */
#define _GNU_SOURCE
#include <normcache_plugin.h>

#include <dlfcn.h>
#include <stdio.h>

#ifndef MISMATCHED_ABI_VERSION
#define MISMATCHED_ABI_VERSION (NC_PLUGIN_ABI_VERSION + 1)
#endif

static void mark(const char *suffix) {
    Dl_info info;
    if (!dladdr((void *)&mark, &info) || !info.dli_fname) return;
    char path[4096];
    snprintf(path, sizeof path, "%s%s", info.dli_fname, suffix);
    FILE *file = fopen(path, "w");
    if (file) fclose(file);
}

static void mismatch_execute(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    (void)context;
    (void)request;
    mark(".called");
    reply(reply_context, 1, "{\"data\": null}");
}

static void mismatch_command(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    (void)context;
    (void)request;
    mark(".called");
    reply(reply_context, 1, "{\"output\": []}");
}

static void mismatch_lifecycle(void *context, const char *event) {
    (void)context;
    (void)event;
    mark(".called");
}

static void mismatch_destroy(void *context) {
    (void)context;
    mark(".destroyed");
}

int nc_plugin_init(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size) {
    (void)host;
    (void)error;
    (void)error_size;
    mark(".init");
    plugin->abi_version = MISMATCHED_ABI_VERSION;
    plugin->name = "future";
    plugin->version = "2.0.0";
    plugin->manifest = "{}";
    plugin->context = NULL;
    plugin->execute = mismatch_execute;
    plugin->command = mismatch_command;
    plugin->lifecycle = mismatch_lifecycle;
    plugin->destroy = mismatch_destroy;
    return 0;
}
