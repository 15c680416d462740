/*
 * manifest_not_json.c — BREAKS: the manifest's syntax. The manifest text is not JSON
 * (an unquoted key and a trailing comma), so the host must refuse it with
 * .badManifest("not JSON: ...").
 */
#include <normcache_plugin.h>

static void noop_execute(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    (void)context;
    (void)request;
    reply(reply_context, 1, "{\"data\": null}");
}

static void noop_command(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    (void)context;
    (void)request;
    reply(reply_context, 1, "{\"output\": []}");
}

static void noop_lifecycle(void *context, const char *event) {
    (void)context;
    (void)event;
}

int nc_plugin_init(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size) {
    (void)host;
    (void)error;
    (void)error_size;
    plugin->abi_version = NC_PLUGIN_ABI_VERSION;
    plugin->name = "notjson";
    plugin->version = "1.0.0";
    plugin->manifest = "{schema: \"type Query { a: Int }\",}";
    plugin->context = NULL;
    plugin->execute = noop_execute;
    plugin->command = noop_command;
    plugin->lifecycle = noop_lifecycle;
    plugin->destroy = NULL;
    return 0;
}
