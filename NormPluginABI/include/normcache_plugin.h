/*
 * normcache_plugin.h — the ABI between the normcache host and a service plugin.
 *
 * A plugin is a shared library that exports one function, nc_plugin_init. The
 * host dlopen()s the library, calls nc_plugin_init with a table of host
 * functions (nc_host_api), and the plugin fills an nc_plugin: its name, its
 * version, its manifest, and the functions the host calls. Nothing else crosses
 * the boundary: no Swift types, no C++ types, only this struct of function
 * pointers and NUL-terminated UTF-8 JSON texts, so a plugin may be written in
 * any language that can export a C function (C, or Swift with NormPluginKit,
 * which exports nc_plugin_init for the type a plugin marks @main).
 *
 * This header is the whole ABI: it includes only <stddef.h> and <stdint.h>, and
 * a plugin links nothing of normcache (build a C plugin with
 * `-I NormPluginABI/include`).
 *
 * Contract
 *   - Versioning: the host passes NC_PLUGIN_ABI_VERSION in host->abi_version; the
 *     plugin writes the version it was built against into plugin->abi_version.
 *     The host refuses a plugin whose version differs from its own, and calls
 *     neither its functions nor its destroy: an older plugin is rebuilt, not
 *     served with part of the ABI. Versions: 1, the first; 2 added
 *     nc_host_api.cancel; 3 added nc_host_api.entity_key; 4 added
 *     nc_plugin.subscribe and nc_plugin.unsubscribe.
 *   - Texts: every `const char *` is NUL-terminated UTF-8. A text handed to a
 *     function is valid only during that call; copy what you keep. The texts a
 *     plugin puts in nc_plugin (name, version, manifest) must stay valid until
 *     its destroy returns.
 *   - Replies: a function that takes an nc_reply_fn answers by calling it exactly
 *     once, with the reply_context it was given, either before returning or later
 *     from any thread. `ok` is 1 with a JSON result, or 0 with a JSON object
 *     {"message": "..."} that says what went wrong in words a user can read.
 *   - Cancelling: a plugin may cancel a host call it no longer needs (a search
 *     superseded by a newer one) with nc_host_api.cancel, naming the call by the
 *     reply_context it gave; the call still replies exactly once (see cancel).
 *   - Threads: the host may call a plugin's functions from any thread, and
 *     several at once; host functions may be called from any thread too.
 *   - Time: the host waits for a reply to execute or command for at most its
 *     timeout (`--timeout`, a minute by default), or until the user cancels
 *     (Ctrl-C); then the call fails for the user and a later reply is dropped.
 *     Nothing tells the plugin: it should not block a call for long. A plugin
 *     that has not returned from a call when it is unloaded is not destroyed.
 *   - After destroy: the nc_host_api table stays valid for the life of the
 *     process, but once destroy begins the host refuses every call (a reply
 *     with ok = 0 naming the plugin, and a warning in the log).
 *   - Failure of nc_plugin_init: return a non-zero value and write a message
 *     (NUL-terminated, at most error_size bytes) into `error`; the host then
 *     dlclose()s the library without calling anything else in it.
 */
#ifndef NORMCACHE_PLUGIN_H
#define NORMCACHE_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this ABI. Any change to the structs below increments it. */
#define NC_PLUGIN_ABI_VERSION 4

/* The name of the function every plugin exports. */
#define NC_PLUGIN_INIT_SYMBOL "nc_plugin_init"

/* The one way an asynchronous answer comes back (see "Replies" above). */
typedef void (*nc_reply_fn)(void *reply_context, int ok, const char *json);

/* What an event of a subscription is (the `kind` of an nc_event_fn). */
typedef enum nc_event_kind {
    NC_EVENT_NEXT = 0,     /* json: one GraphQL response, {"data": ..., "errors": [...]} */
    NC_EVENT_COMPLETE = 1, /* the subscription ended; json: NULL (ignored) */
    NC_EVENT_ERROR = 2     /* the subscription failed; json: {"message": "..."} */
} nc_event_kind;

/* How a plugin delivers the events of one subscription (see nc_plugin.subscribe). */
typedef void (*nc_event_fn)(void *event_context, int kind, const char *json);

/* Log levels for nc_host_api.log, as in swift-log. */
typedef enum nc_log_level {
    NC_LOG_TRACE = 0,
    NC_LOG_DEBUG = 1,
    NC_LOG_INFO = 2,
    NC_LOG_NOTICE = 3,
    NC_LOG_WARNING = 4,
    NC_LOG_ERROR = 5,
    NC_LOG_CRITICAL = 6
} nc_log_level;

/*
 * What the host offers a plugin. Every function takes `host` (the pointer in
 * this struct) first. Operations run through the host's client, against the
 * plugin's own endpoint, and so through the host's cache, fetch policies and
 * simulated network conditions.
 */
typedef struct nc_host_api {
    uint32_t abi_version; /* NC_PLUGIN_ABI_VERSION of the host */
    void *host;

    /* Runs an operation. Request:
     *   {"operation": "TripList"}            a named operation of the manifest, or
     *   {"query": "mutation { ... }"}         a document,
     *   plus optional "variables": {...}, "policy": "network-only" (any fetch policy
     *   name; cache-first by default), "optimistic": {...} (a mutation's optimistic
     *   data, rolled back if the mutation fails).
     * Reply: {"data": ..., "errors": [...], "source": "cache"|"network",
     *         "missing": ["Trip:1.name", ...]}. A transport failure (offline, an
     * injected failure, a cancelled request) is a reply with ok = 0. */
    void (*run)(void *host, const char *request, nc_reply_fn reply, void *reply_context);

    /* Starts a watcher that the workbench shows (its emissions print live).
     * Request as for run (policy cache-first by default). Reply: {"id": N}. */
    void (*watch)(void *host, const char *request, nc_reply_fn reply, void *reply_context);

    /* Refetches from the network: {"watch": N} one watcher, or {"operation": NAME}
     * every watcher of that named operation. Reply: {"refetched": [N, ...]}. */
    void (*refetch)(void *host, const char *request, nc_reply_fn reply, void *reply_context);

    /* Cache records, answered before the call returns.
     *   read:  {"key": "Trip:1"}                    → {"record": {...} or null}
     *   write: {"key": "Trip:1", "fields": {...}}   → {"changed": ["Trip:1.name"]}
     *   evict: {"key": "Trip:1", "field": "name"}   → {"removed": ["Trip:1.name"]}
     *          ("field" optional: without it the whole record goes)
     * References are written {"$reference": "Trip:1"}. Watchers hear each change. */
    void (*read_record)(void *host, const char *request, nc_reply_fn reply, void *reply_context);
    void (*write_record)(void *host, const char *request, nc_reply_fn reply, void *reply_context);
    void (*evict)(void *host, const char *request, nc_reply_fn reply, void *reply_context);

    /* Logs through the host's logger, labelled with the plugin's name. */
    void (*log)(void *host, nc_log_level level, const char *message);

    /* Announces a service's view state, shown as a `state` event:
     * state is "loading", "loaded" or "error"; detail may be NULL. */
    void (*emit_state)(void *host, const char *service, const char *state, const char *detail);

    /* Cancels the run, watch and refetch calls in flight that were given
     * `reply_context` (every one, if several share it). The host stops the work
     * behind each: a request still on its way ends with status "cancelled" in the
     * network log, unless another caller still waits for the same request
     * (identical queries in flight are sent once); a watcher already started stays.
     * Each call still replies exactly once: ok = 0 with
     * {"message": "...", "cancelled": true}, or its usual reply when it finished
     * before the cancel reached it. Returns at once; may be called from any
     * thread. (read_record, write_record and evict answer before returning, so
     * there is nothing of theirs to cancel.) The reply_context names the call from the moment the call returns until its
     * reply comes; a reply_context with no call in flight is ignored, so a cancel
     * that crosses the reply does nothing. Never cancel with a reply_context that
     * a reply has already freed: a newer call may have been given the same
     * address. */
    void (*cancel)(void *host, void *reply_context);

    /* The key of an entity's record, made by the host's key core exactly as its
     * cache makes it: the values in Unicode NFC, `\` and `+` inside each escaped
     * (`\\`, `\+`), joined by `+` after "TYPE:". A plugin that names a record
     * (read_record, write_record, evict) asks here instead of building the key
     * itself, so a value with decomposed accents or a `+` names the record the
     * cache holds. Answered before the call returns. Request:
     *   {"type": "PURL", "values": ["ana@example.org", "cv"]}
     * the typename (or the key group of its type policy) and the values of its
     * key fields, as strings, in the order of the policy's key fields.
     * Reply: {"key": "PURL:ana@example.org+cv"}. An empty type, no values, or a
     * value that is not a string is a reply with ok = 0 that names it. */
    void (*entity_key)(void *host, const char *request, nc_reply_fn reply, void *reply_context);
} nc_host_api;

/*
 * What a plugin tells the host. nc_plugin_init fills every field; `context` is
 * the plugin's own pointer, handed back to each function.
 */
typedef struct nc_plugin {
    uint32_t abi_version; /* NC_PLUGIN_ABI_VERSION the plugin was built against */
    const char *name;     /* unique among loaded plugins, e.g. "trips" */
    const char *version;  /* e.g. "1.0.0" */

    /* A JSON object:
     *   "schema":       the SDL of the plugin's endpoint; @typePolicy(keyFields:) and
     *                   @fieldPolicy(forField:, keyArgs:) on its types count
     *   "typePolicies": {"PURL": ["address", "name"], "Destination": []}
     *                   (key fields per type, winning over the schema's; an empty
     *                   list: never normalize)
     *   "operations":   {"TripList": "query TripList { ... }", ...}
     *   "services":     [{"domain": "trips", "name": "TripService"}, ...]
     *   "commands":     [{"name": "trips.rename", "usage": "ID NAME",
     *                     "help": "...", "refetch": ["TripList"]}, ...]
     * A command's name starts with its service's domain; after it succeeds the
     * host refetches the named operations listed in its "refetch". */
    const char *manifest;
    void *context;

    /* Serves the plugin's in-process GraphQL endpoint. Request:
     * {"query": ..., "variables": {...}, "operationName": ...}; reply ok = 1 with a
     * GraphQL response {"data": ..., "errors": [...]} (GraphQL errors are data). */
    void (*execute)(void *context, const char *request, nc_reply_fn reply, void *reply_context);

    /* Runs a service command. Request: {"command": "trips.rename",
     * "arguments": ["2", "Porto"]}. Reply: {"output": ["line", ...]} (may be empty). */
    void (*command)(void *context, const char *request, nc_reply_fn reply, void *reply_context);

    /* A lifecycle event, for every service: {"event": "login", "user": "ana"},
     * {"event": "logout"} (drop all per-user state) or {"event": "foreground"}.
     * Returns once every service has handled it, so the requests the host sends
     * next see its effect; the host calls it from a thread that may block, one
     * event at a time. */
    void (*lifecycle)(void *context, const char *event);

    /* Starts a GraphQL subscription on the plugin's endpoint. Request as for execute,
     * a subscription operation. Returns once the subscription listens (what happens
     * after it returns is among its events; it should not block for long, the host
     * waits for it as for a reply); the events follow through `event`,
     * called with `event_context` (which names the subscription, as reply_context
     * names a call): any number of NC_EVENT_NEXT, each a GraphQL response for one
     * event, then at most one NC_EVENT_COMPLETE (the plugin ended it) or
     * NC_EVENT_ERROR (it cannot start, or failed: a request that is not a valid
     * subscription is an error whose message says why). Events may come from any
     * thread, one at a time per subscription, before subscribe returns or later.
     * After COMPLETE or ERROR the plugin calls `event` no more for that
     * event_context. NULL for a plugin without subscriptions (then unsubscribe is
     * NULL too): the host tells the user the plugin has none. */
    void (*subscribe)(void *context, const char *request, nc_event_fn event, void *event_context);

    /* Stops the subscription started with `event_context`. Once it returns, the
     * plugin calls `event` no more for that event_context (it waits for an event
     * being delivered), and sends no COMPLETE for it. An event_context whose
     * subscription has already ended is ignored. The host calls it from any thread,
     * never from inside `event`; before destroy it unsubscribes every subscription
     * still running. */
    void (*unsubscribe)(void *context, void *event_context);

    /* Frees everything the plugin holds; called once, last. May be NULL. */
    void (*destroy)(void *context);
} nc_plugin;

/* The entry point: 0 on success; otherwise a message in `error` (see above). */
typedef int (*nc_plugin_init_fn)(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size);

int nc_plugin_init(const nc_host_api *host, nc_plugin *plugin, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* NORMCACHE_PLUGIN_H */
