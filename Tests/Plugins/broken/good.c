/*
 * good.c — a small WORKING plugin in C for the plugin loader tests (nothing broken here).
 *
 * Name "good". Its endpoint serves `{ greeting { code text } }` (Greeting is keyed by
 * "code", so a fetch writes the record Greeting:en), and it has these commands:
 *   good.echo ARGS...  replies with its arguments, one output line each
 *   good.fail          replies ok = 0 with a message
 *   good.fetch         calls back into the host's run ({"operation": "Greeting"}, network-only)
 *                      and replies with the host's answer; emits states loading/loaded
 *   good.remember      writes the record Note:1 through the host's write_record
 *   good.count         replies "executed N": how many requests its endpoint served
 *   good.touch         does nothing; its manifest asks the host to refetch Greeting after it
 *   good.events        replies with the lifecycle events it heard, one line each
 *   good.inits         replies "initialized N": how often nc_plugin_init ran in this
 *                      library file (its one static; copy the library to count alone)
 * All other state lives in the context nc_plugin_init allocates, so one library can be
 * loaded by several hosts at once.
 */
#define _POSIX_C_SOURCE 200809L
#include <normcache_plugin.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct good_context {
    const nc_host_api *host;
    pthread_mutex_t lock;
    int executed;
    char events[2048]; /* lines separated by '\n' */
} good_context;

static atomic_int inits;

static const char manifest[] =
    "{\"schema\": \"type Query { greeting: Greeting greetingByCode(code: String!): Greeting }\\n"
    "type Greeting @typePolicy(keyFields: \\\"text\\\") { code: String! text: String! }\\n"
    "extend type Query @fieldPolicy(forField: \\\"greetingByCode\\\", keyArgs: \\\"code\\\")\","
    " \"typePolicies\": {\"Greeting\": [\"code\"]},"
    " \"operations\": {\"Greeting\": \"query Greeting { greeting { code text } }\"},"
    " \"services\": [{\"domain\": \"good\", \"name\": \"GoodService\"}],"
    " \"commands\": ["
    "{\"name\": \"good.echo\", \"usage\": \"WORDS...\", \"help\": \"prints its arguments\"},"
    "{\"name\": \"good.fail\", \"help\": \"always fails\"},"
    "{\"name\": \"good.fetch\", \"help\": \"runs Greeting through the host\"},"
    "{\"name\": \"good.remember\", \"help\": \"writes Note:1 through the host\"},"
    "{\"name\": \"good.count\", \"help\": \"how many requests the endpoint served\"},"
    "{\"name\": \"good.touch\", \"help\": \"refetches Greeting after it\", \"refetch\": [\"Greeting\"]},"
    "{\"name\": \"good.events\", \"help\": \"the lifecycle events heard\"},"
    "{\"name\": \"good.inits\", \"help\": \"how often nc_plugin_init ran in this library\"}"
    "]}";

/* The end of the JSON string starting at `p` (at its opening quote): the closing quote. */
static const char *string_end(const char *p) {
    for (p++; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1]) p++;
    }
    return p;
}

/* The start of the value of member `name` in `json` (whitespace skipped), or NULL. */
static const char *member(const char *json, const char *name) {
    size_t length = strlen(name);
    for (const char *p = json; *p; p++) {
        if (*p != '"') continue;
        const char *end = string_end(p);
        if (!*end) return NULL;
        if ((size_t)(end - p - 1) == length && strncmp(p + 1, name, length) == 0) {
            const char *q = end + 1;
            while (*q == ' ' || *q == '\n' || *q == '\t' || *q == '\r') q++;
            if (*q == ':') {
                q++;
                while (*q == ' ' || *q == '\n' || *q == '\t' || *q == '\r') q++;
                return q;
            }
        }
        p = end;
    }
    return NULL;
}

/* Copies the JSON value at `p` (a string or a list of strings) into a new buffer. */
static char *copy_value(const char *p) {
    const char *end = p;
    if (*p == '"') {
        end = string_end(p) + 1;
    } else if (*p == '[') {
        int depth = 0;
        for (; *end; end++) {
            if (*end == '"') { end = string_end(end); continue; }
            if (*end == '[') depth++;
            if (*end == ']' && --depth == 0) { end++; break; }
        }
    }
    size_t length = (size_t)(end - p);
    char *copy = malloc(length + 1);
    if (!copy) return NULL;
    memcpy(copy, p, length);
    copy[length] = 0;
    return copy;
}

static void good_execute(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    good_context *good = context;
    pthread_mutex_lock(&good->lock);
    good->executed++;
    pthread_mutex_unlock(&good->lock);
    const char *query = member(request, "query");
    if (query && strstr(query, "greeting")) {
        reply(reply_context, 1, "{\"data\": {\"greeting\": {\"__typename\": \"Greeting\", \"code\": \"en\", \"text\": \"hello from C\"}}}");
    } else {
        reply(reply_context, 1, "{\"data\": null, \"errors\": [{\"message\": \"good serves only greeting\"}]}");
    }
}

/* A good.fetch waiting for the host's run. */
typedef struct pending_fetch {
    good_context *good;
    nc_reply_fn reply;
    void *reply_context;
} pending_fetch;

static void fetched(void *reply_context, int ok, const char *json) {
    pending_fetch *pending = reply_context;
    const nc_host_api *host = pending->good->host;
    if (ok) {
        size_t size = strlen(json) + 64;
        char *text = malloc(size);
        snprintf(text, size, "{\"output\": [\"fetched\", %s]}", json);
        host->emit_state(host->host, "good", "loaded", NULL);
        pending->reply(pending->reply_context, 1, text);
        free(text);
    } else {
        host->emit_state(host->host, "good", "error", "the host's run failed");
        pending->reply(pending->reply_context, 0, json);
    }
    free(pending);
}

static void remembered(void *reply_context, int ok, const char *json) {
    char **answer = reply_context;
    size_t size = strlen(json) + 64;
    *answer = malloc(size);
    if (ok) snprintf(*answer, size, "{\"output\": [\"remembered\", %s]}", json);
    else snprintf(*answer, size, "%s", json);
}

static void good_command(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    good_context *good = context;
    const char *name = member(request, "command");
    if (!name || *name != '"') {
        reply(reply_context, 0, "{\"message\": \"good: a command request needs \\\"command\\\"\"}");
        return;
    }
    if (strncmp(name, "\"good.echo\"", 11) == 0) {
        const char *arguments = member(request, "arguments");
        char *list = arguments ? copy_value(arguments) : NULL;
        size_t size = (list ? strlen(list) : 2) + 32;
        char *text = malloc(size);
        snprintf(text, size, "{\"output\": %s}", list ? list : "[]");
        reply(reply_context, 1, text);
        free(text);
        free(list);
    } else if (strncmp(name, "\"good.fail\"", 11) == 0) {
        reply(reply_context, 0, "{\"message\": \"good.fail always fails: there is nothing to do\"}");
    } else if (strncmp(name, "\"good.fetch\"", 12) == 0) {
        pending_fetch *pending = malloc(sizeof *pending);
        pending->good = good;
        pending->reply = reply;
        pending->reply_context = reply_context;
        good->host->emit_state(good->host->host, "good", "loading", NULL);
        good->host->run(good->host->host, "{\"operation\": \"Greeting\", \"policy\": \"network-only\"}", fetched, pending);
    } else if (strncmp(name, "\"good.remember\"", 15) == 0) {
        char *answer = NULL;
        good->host->write_record(good->host->host, "{\"key\": \"Note:1\", \"fields\": {\"text\": \"remembered by C\"}}",
                                 remembered, &answer);
        if (answer) {
            reply(reply_context, strstr(answer, "\"output\"") ? 1 : 0, answer);
            free(answer);
        } else {
            reply(reply_context, 0, "{\"message\": \"good.remember: write_record did not answer before returning\"}");
        }
    } else if (strncmp(name, "\"good.count\"", 12) == 0) {
        char text[64];
        pthread_mutex_lock(&good->lock);
        snprintf(text, sizeof text, "{\"output\": [\"executed %d\"]}", good->executed);
        pthread_mutex_unlock(&good->lock);
        reply(reply_context, 1, text);
    } else if (strncmp(name, "\"good.touch\"", 12) == 0) {
        reply(reply_context, 1, "{\"output\": []}");
    } else if (strncmp(name, "\"good.events\"", 13) == 0) {
        char text[4096];
        size_t used = (size_t)snprintf(text, sizeof text, "{\"output\": [");
        pthread_mutex_lock(&good->lock);
        const char *line = good->events;
        int first = 1;
        while (*line && used < sizeof text - 8) {
            const char *end = strchr(line, '\n');
            if (!end) end = line + strlen(line);
            used += (size_t)snprintf(text + used, sizeof text - used, "%s\"%.*s\"", first ? "" : ", ", (int)(end - line), line);
            first = 0;
            line = *end ? end + 1 : end;
        }
        pthread_mutex_unlock(&good->lock);
        snprintf(text + used, sizeof text - used, "]}");
        reply(reply_context, 1, text);
    } else if (strncmp(name, "\"good.inits\"", 12) == 0) {
        char text[64];
        snprintf(text, sizeof text, "{\"output\": [\"initialized %d\"]}", atomic_load(&inits));
        reply(reply_context, 1, text);
    } else {
        reply(reply_context, 0, "{\"message\": \"good has no such command\"}");
    }
}

static void good_lifecycle(void *context, const char *event) {
    good_context *good = context;
    const char *name = member(event, "event");
    if (!name || *name != '"') return;
    char line[256];
    const char *end = string_end(name);
    int length = (int)(end - name - 1);
    const char *user = member(event, "user");
    if (user && *user == '"') {
        snprintf(line, sizeof line, "%.*s %.*s", length, name + 1, (int)(string_end(user) - user - 1), user + 1);
    } else {
        snprintf(line, sizeof line, "%.*s", length, name + 1);
    }
    pthread_mutex_lock(&good->lock);
    size_t used = strlen(good->events);
    if (used + strlen(line) + 2 < sizeof good->events) {
        snprintf(good->events + used, sizeof good->events - used, "%s%s", used ? "\n" : "", line);
    }
    pthread_mutex_unlock(&good->lock);
}

static void good_destroy(void *context) {
    good_context *good = context;
    pthread_mutex_destroy(&good->lock);
    free(good);
}

int nc_plugin_init(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size) {
    if (host->abi_version != NC_PLUGIN_ABI_VERSION) {
        snprintf(error, error_size, "good was built for ABI %d, the host speaks %u", NC_PLUGIN_ABI_VERSION, host->abi_version);
        return 1;
    }
    atomic_fetch_add(&inits, 1);
    good_context *good = calloc(1, sizeof *good);
    if (!good) {
        snprintf(error, error_size, "good: out of memory");
        return 1;
    }
    good->host = host;
    pthread_mutex_init(&good->lock, NULL);
    plugin->abi_version = NC_PLUGIN_ABI_VERSION;
    plugin->name = "good";
    plugin->version = "1.0.0";
    plugin->manifest = manifest;
    plugin->context = good;
    plugin->execute = good_execute;
    plugin->command = good_command;
    plugin->lifecycle = good_lifecycle;
    plugin->destroy = good_destroy;
    return 0;
}
