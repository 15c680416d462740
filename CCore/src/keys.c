/* keys.c — entity and field keys in Apollo iOS's formats (contract in nc_keys.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* One decoded argument value; `name` is set when the value is an object entry. */
typedef struct node {
    const uint8_t *name;
    uint32_t name_length;
    uint8_t tag;
    union {
        int64_t integer;
        double number;
        struct { const uint8_t *bytes; uint32_t length; } text;
        struct { uint32_t first, count; } children;
    } as;
} node;

enum { INLINE_NODES = 32 };

/* Decodes the argument encoding into a flat array of nodes; children of one
 * list or object are contiguous, so an object's entries can be sorted in place. */
typedef struct decoder {
    const uint8_t *at, *end;
    node *nodes;
    size_t count, capacity;
    const nc_allocator *allocator;
    node inline_nodes[INLINE_NODES];
} decoder;

static size_t remaining(const decoder *d) { return (size_t)(d->end - d->at); }

static nc_status read_u32(decoder *d, uint32_t *value) {
    if (remaining(d) < 4) return NC_ERR_MALFORMED;
    *value = (uint32_t)d->at[0] | (uint32_t)d->at[1] << 8 | (uint32_t)d->at[2] << 16 | (uint32_t)d->at[3] << 24;
    d->at += 4;
    return NC_OK;
}

static nc_status read_u64(decoder *d, uint64_t *value) {
    if (remaining(d) < 8) return NC_ERR_MALFORMED;
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | d->at[i];
    d->at += 8;
    *value = v;
    return NC_OK;
}

static nc_status read_bytes(decoder *d, const uint8_t **bytes, uint32_t *length) {
    nc_status status = read_u32(d, length);
    if (status != NC_OK) return status;
    if (remaining(d) < *length) return NC_ERR_MALFORMED;
    *bytes = d->at;
    d->at += *length;
    return NC_OK;
}

/* Appends `count` nodes and reports the index of the first. The caller has
 * bounded `count` by the bytes left, so the array stays proportional to the input. */
static nc_status add_nodes(decoder *d, size_t count, uint32_t *first) {
    if (count > d->capacity - d->count) {
        size_t capacity = d->capacity * 2;
        while (capacity - d->count < count) capacity *= 2;
        node *nodes = nc__reallocate(d->allocator, d->nodes == d->inline_nodes ? NULL : d->nodes,
                                     capacity * sizeof(node));
        if (nodes == NULL) return NC_ERR_NOMEM;
        if (d->nodes == d->inline_nodes) memcpy(nodes, d->inline_nodes, d->count * sizeof(node));
        d->nodes = nodes;
        d->capacity = capacity;
    }
    *first = (uint32_t)d->count;
    memset(d->nodes + d->count, 0, count * sizeof(node));
    d->count += count;
    return NC_OK;
}

static int compare_names(const void *a, const void *b) {
    const node *x = a, *y = b;
    size_t shorter = x->name_length < y->name_length ? x->name_length : y->name_length;
    int order = shorter > 0 ? memcmp(x->name, y->name, shorter) : 0;
    if (order != 0) return order;
    return (x->name_length > y->name_length) - (x->name_length < y->name_length);
}

static nc_status decode_value(decoder *d, uint32_t index, int depth);

/* count:u32 (length:u32 name value){count}, sorted by name afterwards. */
static nc_status decode_entries(decoder *d, int depth, uint32_t *first, uint32_t *count) {
    nc_status status = read_u32(d, count);
    if (status != NC_OK) return status;
    if (*count > remaining(d) / 5) return NC_ERR_MALFORMED; /* each entry takes at least 5 bytes */
    if ((status = add_nodes(d, *count, first)) != NC_OK) return status;
    for (uint32_t i = 0; i < *count; i++) {
        const uint8_t *name;
        uint32_t length;
        if ((status = read_bytes(d, &name, &length)) != NC_OK) return status;
        d->nodes[*first + i].name = name;
        d->nodes[*first + i].name_length = length;
        if ((status = decode_value(d, *first + i, depth)) != NC_OK) return status;
    }
    node *entries = d->nodes + *first;
    qsort(entries, *count, sizeof(node), compare_names);
    for (uint32_t i = 1; i < *count; i++)
        if (compare_names(&entries[i - 1], &entries[i]) == 0) return NC_ERR_DUPLICATE_NAME;
    return NC_OK;
}

static nc_status decode_value(decoder *d, uint32_t index, int depth) {
    if (remaining(d) < 1) return NC_ERR_MALFORMED;
    uint8_t tag = *d->at++;
    d->nodes[index].tag = tag;
    nc_status status = NC_OK;
    uint64_t bits;
    uint32_t first = 0, count = 0;
    switch (tag) {
    case NC_TAG_NULL:
    case NC_TAG_TRUE:
    case NC_TAG_FALSE:
        return NC_OK;
    case NC_TAG_INT:
        if ((status = read_u64(d, &bits)) == NC_OK) d->nodes[index].as.integer = (int64_t)bits;
        return status;
    case NC_TAG_FLOAT:
        if ((status = read_u64(d, &bits)) == NC_OK) memcpy(&d->nodes[index].as.number, &bits, 8);
        return status;
    case NC_TAG_STRING:
        return read_bytes(d, &d->nodes[index].as.text.bytes, &d->nodes[index].as.text.length);
    case NC_TAG_LIST:
        if (depth + 1 > NC_VALUE_MAX_DEPTH) return NC_ERR_TOO_DEEP;
        if ((status = read_u32(d, &count)) != NC_OK) return status;
        if (count > remaining(d)) return NC_ERR_MALFORMED; /* each value takes at least 1 byte */
        if ((status = add_nodes(d, count, &first)) != NC_OK) return status;
        for (uint32_t i = 0; i < count && status == NC_OK; i++) status = decode_value(d, first + i, depth + 1);
        break;
    case NC_TAG_OBJECT:
        if (depth + 1 > NC_VALUE_MAX_DEPTH) return NC_ERR_TOO_DEEP;
        status = decode_entries(d, depth + 1, &first, &count);
        break;
    default:
        return NC_ERR_MALFORMED;
    }
    d->nodes[index].as.children.first = first;
    d->nodes[index].as.children.count = count;
    return status;
}

static nc_status put(nc_buffer *out, const char *text) { return nc__buffer_append(out, text, strlen(text)); }

static nc_status render_entries(const decoder *d, nc_buffer *out, uint32_t first, uint32_t count);

static nc_status render_value(const decoder *d, nc_buffer *out, const node *value) {
    char text[32];
    nc_status status;
    switch (value->tag) {
    case NC_TAG_NULL: return put(out, "null");
    case NC_TAG_TRUE: return put(out, "true");
    case NC_TAG_FALSE: return put(out, "false");
    case NC_TAG_INT:
        snprintf(text, sizeof text, "%" PRId64, value->as.integer);
        return put(out, text);
    case NC_TAG_FLOAT:
        return nc__buffer_append(out, text, nc_format_double(value->as.number, text));
    case NC_TAG_STRING:
        return nc__buffer_append(out, value->as.text.bytes, value->as.text.length);
    case NC_TAG_OBJECT: /* an object among other values in a list */
        if ((status = put(out, "[")) != NC_OK) return status;
        if ((status = render_entries(d, out, value->as.children.first, value->as.children.count)) != NC_OK)
            return status;
        return put(out, "]");
    default: { /* NC_TAG_LIST */
        uint32_t first = value->as.children.first, count = value->as.children.count;
        int objects = count > 0;
        for (uint32_t i = 0; i < count; i++) objects &= d->nodes[first + i].tag == NC_TAG_OBJECT;
        if ((status = put(out, "[")) != NC_OK) return status;
        for (uint32_t i = 0; i < count; i++) {
            const node *item = &d->nodes[first + i];
            if (i > 0 && (status = put(out, objects ? "," : ", ")) != NC_OK) return status;
            status = objects ? render_entries(d, out, item->as.children.first, item->as.children.count)
                             : render_value(d, out, item);
            if (status != NC_OK) return status;
        }
        return put(out, "]");
    }
    }
}

/* name:value for scalars and lists, [name:entries] for input objects, joined with ",". */
static nc_status render_entries(const decoder *d, nc_buffer *out, uint32_t first, uint32_t count) {
    nc_status status = NC_OK;
    for (uint32_t i = 0; i < count && status == NC_OK; i++) {
        const node *entry = &d->nodes[first + i];
        int object = entry->tag == NC_TAG_OBJECT;
        if (i > 0 && (status = put(out, ",")) != NC_OK) break;
        if (object && (status = put(out, "[")) != NC_OK) break;
        if ((status = nc__buffer_append(out, entry->name, entry->name_length)) != NC_OK) break;
        if ((status = put(out, ":")) != NC_OK) break;
        status = object ? render_entries(d, out, entry->as.children.first, entry->as.children.count)
                        : render_value(d, out, entry);
        if (status == NC_OK && object) status = put(out, "]");
    }
    return status;
}

/* Every builder ends here: canonical form on success, an empty buffer on failure. */
static nc_status finish(nc_buffer *out, nc_status status) {
    if (status == NC_OK) status = nc_canonicalize(out);
    if (status != NC_OK) out->length = 0;
    return status;
}

nc_status nc_field_key(nc_buffer *out, const char *name, size_t name_length,
                       const uint8_t *arguments, size_t arguments_length) {
    if (out == NULL || name == NULL || name_length == 0 || (arguments == NULL && arguments_length > 0))
        return NC_ERR_INVALID_ARGUMENT;
    out->length = 0;
    nc_status status = nc__buffer_append(out, name, name_length);
    if (status != NC_OK || arguments_length == 0) return finish(out, status);
    /* every encoded byte renders as at least 1/9 of a byte, so longer input cannot fit a key */
    if (arguments_length > 16u * NC_KEY_MAX_BYTES) return finish(out, NC_ERR_TOO_LONG);

    decoder d = {.at = arguments, .end = arguments + arguments_length, .allocator = out->allocator};
    d.nodes = d.inline_nodes;
    d.capacity = INLINE_NODES;
    uint32_t first, count;
    status = decode_entries(&d, 0, &first, &count);
    if (status == NC_OK && d.at != d.end) status = NC_ERR_MALFORMED;
    if (status == NC_OK && count > 0) {
        if ((status = put(out, "(")) == NC_OK && (status = render_entries(&d, out, first, count)) == NC_OK)
            status = put(out, ")");
    }
    if (d.nodes != d.inline_nodes) nc__reallocate(d.allocator, d.nodes, 0);
    return finish(out, status);
}

nc_status nc_entity_key(nc_buffer *out, const char *type, size_t type_length,
                        const nc_text *values, size_t count) {
    if (out == NULL || type == NULL || type_length == 0 || values == NULL || count == 0)
        return NC_ERR_INVALID_ARGUMENT;
    out->length = 0;
    nc_status status = nc__buffer_append(out, type, type_length);
    if (status == NC_OK) status = put(out, ":");
    for (size_t i = 0; i < count && status == NC_OK; i++) {
        if (values[i].bytes == NULL && values[i].length > 0) status = NC_ERR_INVALID_ARGUMENT;
        else if (count == 1) status = nc__buffer_append(out, values[i].bytes, values[i].length);
        else {
            /* several values: escape \ and + so that the joining + stays unambiguous */
            if (i > 0) status = put(out, "+");
            for (size_t j = 0; j < values[i].length && status == NC_OK; j++) {
                char c = values[i].bytes[j];
                status = c == '\\' ? put(out, "\\\\") : c == '+' ? put(out, "\\+") : nc__buffer_append(out, &c, 1);
            }
        }
    }
    return finish(out, status);
}

