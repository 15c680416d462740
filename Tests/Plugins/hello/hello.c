/*
 * hello.c — a normcache plugin in plain C11, proving that the plugin ABI
 * (normcache_plugin.h) needs no Swift: a fixed GraphQL endpoint, one service
 * ("hello") and three commands: one greets, one calls back into the host, and one
 * calls back and cancels that call at once.
 *
 * Not built by SwiftPM: tests build it with
 *   clang -std=c11 -Wall -Wextra -shared -fPIC -I NormPluginABI/include \
 *         Tests/Plugins/hello/hello.c -o libnormcache_hello.so
 */
#include "normcache_plugin.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char manifest[] =
    "{\"schema\": \"type Query { greeting: Greeting } type Greeting { id: ID! text: String! }\","
    " \"typePolicies\": {},"
    " \"operations\": {\"Greeting\": \"query Greeting { greeting { id text } }\"},"
    " \"services\": [{\"domain\": \"hello\", \"name\": \"HelloService\"}],"
    " \"commands\": ["
    "{\"name\": \"hello.greet\", \"usage\": \"NAME\", \"help\": \"Greets NAME.\", \"refetch\": []},"
    " {\"name\": \"hello.fetch\", \"usage\": \"\","
    " \"help\": \"Runs the Greeting operation through the host and prints its text.\", \"refetch\": []},"
    " {\"name\": \"hello.cancel\", \"usage\": \"\","
    " \"help\": \"Runs the Greeting operation through the host, cancels it at once, and prints how it ended.\","
    " \"refetch\": []}]}";

static const char greeting_response[] =
    "{\"data\":{\"greeting\":{\"__typename\":\"Greeting\",\"id\":\"1\",\"text\":\"Hello from C\"}}}";

/* The plugin's context: its own copy of the host's functions. */
typedef struct hello {
    nc_host_api host;
} hello;

/* ---- Reading JSON: just enough to find members and decode strings. ---- */

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* The end of the string starting at p (at its opening quote), or NULL. */
static const char *skip_string(const char *p) {
    if (*p != '"') return NULL;
    for (p++; *p != '"'; p++) {
        if (*p == '\0') return NULL;
        if (*p == '\\' && *++p == '\0') return NULL;
    }
    return p + 1;
}

/* The end of the value starting at p, or NULL when it is not well formed. */
static const char *skip_value(const char *p) {
    p = skip_space(p);
    if (*p == '"') return skip_string(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = skip_space(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (close == '}') {
                p = skip_string(skip_space(p));
                if (!p || *(p = skip_space(p)) != ':') return NULL;
                p++;
            }
            if (!(p = skip_value(p))) return NULL;
            p = skip_space(p);
            if (*p == close) return p + 1;
            if (*p != ',') return NULL;
            p++;
        }
    }
    /* A number, true, false or null. */
    const char *start = p;
    while (*p && !strchr(" \t\r\n,]}", *p)) p++;
    return p > start ? p : NULL;
}

static void append_utf8(char **out, unsigned long code) {
    char *o = *out;
    if (code < 0x80) {
        *o++ = (char)code;
    } else if (code < 0x800) {
        *o++ = (char)(0xC0 | (code >> 6));
        *o++ = (char)(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        *o++ = (char)(0xE0 | (code >> 12));
        *o++ = (char)(0x80 | ((code >> 6) & 0x3F));
        *o++ = (char)(0x80 | (code & 0x3F));
    } else {
        *o++ = (char)(0xF0 | (code >> 18));
        *o++ = (char)(0x80 | ((code >> 12) & 0x3F));
        *o++ = (char)(0x80 | ((code >> 6) & 0x3F));
        *o++ = (char)(0x80 | (code & 0x3F));
    }
    *out = o;
}

static int read_hex4(const char *p, unsigned long *code) {
    *code = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int digit = c >= '0' && c <= '9' ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (digit < 0) return 0;
        *code = *code * 16 + (unsigned long)digit;
    }
    return 1;
}

/* The decoded string at p (a JSON string), to free; NULL when p holds no string. */
static char *read_string(const char *p) {
    if (!p) return NULL;
    p = skip_space(p);
    const char *end = skip_string(p);
    if (!end) return NULL;
    char *text = malloc((size_t)(end - p)); /* decoding never lengthens */
    if (!text) return NULL;
    char *o = text;
    for (p++; p < end - 1; p++) {
        if (*p != '\\') { *o++ = *p; continue; }
        unsigned long code;
        switch (*++p) {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u':
            if (!read_hex4(p + 1, &code)) { free(text); return NULL; }
            p += 4;
            if (code >= 0xD800 && code < 0xDC00) { /* a surrogate pair */
                unsigned long low;
                if (p[1] != '\\' || p[2] != 'u' || !read_hex4(p + 3, &low) || low < 0xDC00 || low > 0xDFFF) {
                    free(text);
                    return NULL;
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                p += 6;
            }
            append_utf8(&o, code);
            break;
        default: *o++ = *p; /* " \ / */
        }
    }
    *o = '\0';
    return text;
}

/* The value of member `key` of the object at p, or NULL. */
static const char *member(const char *p, const char *key) {
    if (!p || *(p = skip_space(p)) != '{') return NULL;
    p = skip_space(p + 1);
    while (*p == '"') {
        char *name = read_string(p);
        int found = name && strcmp(name, key) == 0;
        free(name);
        p = skip_space(skip_string(p));
        if (*p != ':') return NULL;
        if (found) return skip_space(p + 1);
        if (!(p = skip_value(p + 1))) return NULL;
        p = skip_space(p);
        if (*p == ',') p = skip_space(p + 1);
    }
    return NULL;
}

/* The number of items of the array at p; 0 when p holds no array. */
static size_t count_items(const char *p) {
    size_t count = 0;
    if (!p || *p != '[') return 0;
    for (p = skip_space(p + 1); *p != ']' && (p = skip_value(p)); count++) {
        p = skip_space(p);
        if (*p == ',') p++;
    }
    return count;
}

/* ---- Writing JSON. ---- */

typedef struct text {
    char *bytes;
    size_t length, capacity;
} text;

static void append(text *t, const char *bytes, size_t length) {
    if (t->length + length + 1 > t->capacity) {
        size_t capacity = (t->length + length + 1) * 2;
        char *grown = realloc(t->bytes, capacity);
        if (!grown) abort();
        t->bytes = grown;
        t->capacity = capacity;
    }
    memcpy(t->bytes + t->length, bytes, length);
    t->length += length;
    t->bytes[t->length] = '\0';
}

static void append_text(text *t, const char *s) { append(t, s, strlen(s)); }

static void append_json_string(text *t, const char *s) {
    append_text(t, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char escaped[8];
        if (c == '"' || c == '\\') {
            snprintf(escaped, sizeof escaped, "\\%c", c);
        } else if (c < 0x20) {
            snprintf(escaped, sizeof escaped, "\\u%04x", c);
        } else {
            append(t, s, 1);
            continue;
        }
        append_text(t, escaped);
    }
    append_text(t, "\"");
}

/* Replies {"output": [line]} with ok = 1, or {"message": line} with ok = 0. */
static void reply_line(nc_reply_fn reply, void *reply_context, int ok, const char *line) {
    text t = {0};
    append_text(&t, ok ? "{\"output\": [" : "{\"message\": ");
    append_json_string(&t, line);
    append_text(&t, ok ? "]}" : "}");
    reply(reply_context, ok, t.bytes);
    free(t.bytes);
}

/* ---- The plugin's functions. ---- */

static void execute(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    (void)context;
    (void)request;
    reply(reply_context, 1, greeting_response);
}

/* A hello.fetch or hello.cancel waiting for the host's reply to run. It is the call's
 * reply_context, so it lives while anyone may still name the call: the reply, and
 * hello.cancel until its cancel returned (freed by whichever lets go last). */
typedef struct fetch {
    nc_reply_fn reply;
    void *reply_context;
    atomic_int holders;
} fetch;

static void let_go(fetch *pending) {
    if (atomic_fetch_sub(&pending->holders, 1) == 1) free(pending);
}

static void fetched(void *reply_context, int ok, const char *json) {
    fetch *pending = reply_context;
    if (!ok) {
        pending->reply(pending->reply_context, 0, json); /* the host's {"message": ...} */
    } else {
        char *greeting = read_string(member(member(member(json, "data"), "greeting"), "text"));
        if (greeting) {
            reply_line(pending->reply, pending->reply_context, 1, greeting);
        } else {
            reply_line(pending->reply, pending->reply_context, 0, "the host's reply has no greeting text");
        }
        free(greeting);
    }
    let_go(pending);
}

/* hello.cancel's call ended: "cancelled: MESSAGE" when the host says it was cancelled. */
static void cancelled(void *reply_context, int ok, const char *json) {
    fetch *pending = reply_context;
    const char *flag = member(json, "cancelled");
    char *message = read_string(member(json, "message"));
    if (!ok && flag && strncmp(flag, "true", 4) == 0) {
        text line = {0};
        append_text(&line, "cancelled: ");
        append_text(&line, message ? message : "(no message)");
        reply_line(pending->reply, pending->reply_context, 1, line.bytes);
        free(line.bytes);
    } else {
        reply_line(pending->reply, pending->reply_context, 0, "the host did not cancel the call");
    }
    free(message);
    let_go(pending);
}

static void command(void *context, const char *request, nc_reply_fn reply, void *reply_context) {
    hello *plugin = context;
    const char *arguments = member(request, "arguments");
    size_t count = count_items(arguments);
    char *name = read_string(member(request, "command"));

    if (name && strcmp(name, "hello.greet") == 0) {
        char *who = count == 1 ? read_string(arguments + 1) : NULL;
        if (who) {
            text line = {0};
            append_text(&line, "Hello, ");
            append_text(&line, who);
            append_text(&line, "!");
            reply_line(reply, reply_context, 1, line.bytes);
            free(line.bytes);
        } else {
            reply_line(reply, reply_context, 0, "usage: hello.greet NAME");
        }
        free(who);
    } else if (name && (strcmp(name, "hello.fetch") == 0 || strcmp(name, "hello.cancel") == 0)) {
        int cancels = strcmp(name, "hello.cancel") == 0;
        fetch *pending = count == 0 ? malloc(sizeof *pending) : NULL;
        if (pending) {
            pending->reply = reply;
            pending->reply_context = reply_context;
            atomic_init(&pending->holders, cancels ? 2 : 1);
            plugin->host.run(plugin->host.host, "{\"operation\":\"Greeting\",\"policy\":\"network-only\"}",
                             cancels ? cancelled : fetched, pending);
            if (cancels) {
                plugin->host.cancel(plugin->host.host, pending);
                let_go(pending);
            }
        } else {
            reply_line(reply, reply_context, 0, count == 0 ? "out of memory" : cancels ? "usage: hello.cancel" : "usage: hello.fetch");
        }
    } else {
        text message = {0};
        append_text(&message, "unknown command ");
        append_text(&message, name ? name : "(none)");
        reply_line(reply, reply_context, 0, message.bytes);
        free(message.bytes);
    }
    free(name);
}

static void lifecycle(void *context, const char *event) {
    (void)context;
    (void)event;
}

static void destroy(void *context) { free(context); }

/* Writes the message into `error` (cut to error_size bytes, NUL-terminated); returns 1. */
static int fail(char *error, size_t error_size, const char *format, ...) {
    if (error && error_size > 0) {
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(error, error_size, format, arguments);
        va_end(arguments);
    }
    return 1;
}

int nc_plugin_init(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size) {
    if (!host || !plugin) return fail(error, error_size, "nc_plugin_init needs a host API and a plugin to fill");
    if (host->abi_version != NC_PLUGIN_ABI_VERSION) {
        return fail(error, error_size, "hello 1.0.0 speaks plugin ABI version %d, the host version %u",
                    NC_PLUGIN_ABI_VERSION, (unsigned)host->abi_version);
    }
    hello *context = malloc(sizeof *context);
    if (!context) return fail(error, error_size, "out of memory");
    context->host = *host;
    *plugin = (nc_plugin){
        .abi_version = NC_PLUGIN_ABI_VERSION,
        .name = "hello",
        .version = "1.0.0",
        .manifest = manifest,
        .context = context,
        .execute = execute,
        .command = command,
        .lifecycle = lifecycle,
        .destroy = destroy,
    };
    return 0;
}
