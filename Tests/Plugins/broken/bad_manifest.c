/*
 * bad_manifest.c — BREAKS: the manifest's commands. The manifest is valid JSON, but
 * commands[0].name is "rename", without the "DOMAIN." prefix, so the host must refuse it
 * with .badManifest naming commands[0].name. Init succeeded, so the host must call
 * destroy to free what init allocated: destroy creates "<this library's path>.destroyed"
 * (path from dladdr).
 */
#define _GNU_SOURCE
#include <normcache_plugin.h>

#include <dlfcn.h>
#include <stdio.h>

static void bad_execute(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    (void)context;
    (void)request;
    reply(reply_context, 1, "{\"data\": null}");
}

static void bad_command(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    (void)context;
    (void)request;
    reply(reply_context, 1, "{\"output\": []}");
}

static void bad_lifecycle(void *context, const char *event) {
    (void)context;
    (void)event;
}

static void bad_destroy(void *context) {
    (void)context;
    Dl_info info;
    if (!dladdr((void *)&bad_destroy, &info) || !info.dli_fname) return;
    char path[4096];
    snprintf(path, sizeof path, "%s.destroyed", info.dli_fname);
    FILE *file = fopen(path, "w");
    if (file) fclose(file);
}

int nc_plugin_init(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size) {
    (void)host;
    (void)error;
    (void)error_size;
    plugin->abi_version = NC_PLUGIN_ABI_VERSION;
    plugin->name = "badmanifest";
    plugin->version = "1.0.0";
    plugin->manifest = "{\"services\": [{\"domain\": \"trips\", \"name\": \"TripService\"}],"
                       " \"commands\": [{\"name\": \"rename\", \"usage\": \"ID NAME\"}]}";
    plugin->context = NULL;
    plugin->execute = bad_execute;
    plugin->command = bad_command;
    plugin->lifecycle = bad_lifecycle;
    plugin->destroy = bad_destroy;
    return 0;
}
