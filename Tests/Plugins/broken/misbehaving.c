/*
 * misbehaving.c — a plugin that loads well and then misbehaves on request, for the
 * reliability tests (docs/reliability.md, "Misbehaving plugins").
 *
 * Name "misbehaving". Its endpoint answers by the operation's name:
 *   Hang        never returns from execute (the thread stays blocked in the plugin)
 *   Malformed   replies ok = 1 with JSON cut short
 *   List        replies ok = 1 with a JSON list, not a response object
 *   any other   {"data": {"greeting": {"__typename": "Greeting", "code": "en", "text": "hello"}}}
 * Commands:
 *   misbehaving.hang       never returns from the call
 *   misbehaving.silent     returns at once and never replies
 *   misbehaving.malformed  replies ok = 1 with text that is not JSON
 *   misbehaving.ok         replies "fine": the plugin still answers
 * Lifecycle: a login of the user "hang" never returns; other events return at once.
 * Its destroy starts a thread that, once destroy has returned, calls the host's run, log,
 * emit_state and cancel; misbehaving_late_reply() returns what run replied (NULL until
 * it replies), so a test can see the host refuse it.
 */
#define _POSIX_C_SOURCE 200809L
#include <normcache_plugin.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char manifest[] =
    "{\"schema\": \"type Query { greeting: Greeting }\\ntype Greeting { code: String! text: String! }\","
    " \"typePolicies\": {\"Greeting\": [\"code\"]},"
    " \"operations\": {\"Greeting\": \"query Greeting { greeting { code text } }\"},"
    " \"services\": [{\"domain\": \"misbehaving\", \"name\": \"MisbehavingService\"}],"
    " \"commands\": ["
    "{\"name\": \"misbehaving.hang\", \"help\": \"never returns\"},"
    "{\"name\": \"misbehaving.silent\", \"help\": \"never replies\"},"
    "{\"name\": \"misbehaving.malformed\", \"help\": \"replies with text that is not JSON\"},"
    "{\"name\": \"misbehaving.ok\", \"help\": \"replies fine\"}"
    "]}";

static const nc_host_api *host_api;
static pthread_mutex_t late_lock = PTHREAD_MUTEX_INITIALIZER;
static char *late_reply;

/* What the host replied to the run called after destroy: "ok=N JSON", or NULL. */
const char *misbehaving_late_reply(void) {
    pthread_mutex_lock(&late_lock);
    const char *reply = late_reply;
    pthread_mutex_unlock(&late_lock);
    return reply;
}

static void hang_forever(void) {
    for (;;) sleep(1000);
}

static void misbehaving_execute(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    (void)context;
    if (strstr(request, "\"operationName\":\"Hang\"")) hang_forever();
    if (strstr(request, "\"operationName\":\"Malformed\"")) {
        reply(reply_context, 1, "{\"data\": {\"greeting\": {\"code\": \"en\", \"te");
    } else if (strstr(request, "\"operationName\":\"List\"")) {
        reply(reply_context, 1, "[1, 2, 3]");
    } else {
        reply(reply_context, 1, "{\"data\": {\"greeting\": {\"__typename\": \"Greeting\", \"code\": \"en\", \"text\": \"hello\"}}}");
    }
}

static void misbehaving_command(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    (void)context;
    if (strstr(request, "\"misbehaving.hang\"")) hang_forever();
    if (strstr(request, "\"misbehaving.silent\"")) return;
    if (strstr(request, "\"misbehaving.malformed\"")) {
        reply(reply_context, 1, "output: fine");
    } else if (strstr(request, "\"misbehaving.ok\"")) {
        reply(reply_context, 1, "{\"output\": [\"fine\"]}");
    } else {
        reply(reply_context, 0, "{\"message\": \"misbehaving has no such command\"}");
    }
}

static void misbehaving_lifecycle(void *context, const char *event) {
    (void)context;
    if (strstr(event, "\"user\":\"hang\"")) hang_forever();
}

static void late_replied(void *reply_context, int ok, const char *json) {
    (void)reply_context;
    size_t size = strlen(json) + 16;
    char *text = malloc(size);
    snprintf(text, size, "ok=%d %s", ok, json);
    pthread_mutex_lock(&late_lock);
    late_reply = text;
    pthread_mutex_unlock(&late_lock);
}

/* Calls the host a moment after destroy returned, as a forgotten thread would. */
static void *call_after_destroy(void *unused) {
    (void)unused;
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
    host_api->log(host_api->host, NC_LOG_INFO, "still here after destroy");
    host_api->emit_state(host_api->host, "misbehaving", "loaded", NULL);
    host_api->cancel(host_api->host, NULL);
    host_api->run(host_api->host, "{\"operation\": \"Greeting\"}", late_replied, NULL);
    return NULL;
}

static void misbehaving_destroy(void *context) {
    (void)context;
    pthread_t thread;
    if (pthread_create(&thread, NULL, call_after_destroy, NULL) == 0) pthread_detach(thread);
}

int nc_plugin_init(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size) {
    if (host->abi_version != NC_PLUGIN_ABI_VERSION) {
        snprintf(error, error_size, "misbehaving was built for ABI %d, the host speaks %u", NC_PLUGIN_ABI_VERSION, host->abi_version);
        return 1;
    }
    host_api = host;
    plugin->abi_version = NC_PLUGIN_ABI_VERSION;
    plugin->name = "misbehaving";
    plugin->version = "1.0.0";
    plugin->manifest = manifest;
    plugin->context = NULL;
    plugin->execute = misbehaving_execute;
    plugin->command = misbehaving_command;
    plugin->lifecycle = misbehaving_lifecycle;
    plugin->destroy = misbehaving_destroy;
    return 0;
}
