/*
 * nc_keys.h — canonical cache keys in Apollo iOS's formats.
 *
 * Two builders write a key into an nc_buffer (replacing what it held):
 *
 *   entity key   Typename:id               Human:1000
 *                Typename:v1+v2            Price:EUR+12 (several key fields;
 *                                          each value escapes \ as \\ and + as \+)
 *   field key    name                      height
 *                name(arg:value,...)       hero(episode:JEDI)
 *                                          search([filter:kinds:[Human, Droid]],text:R2)
 *
 * A path key (`parent.field[.index...]`, Droid:2001.modules(installed:true).0) is
 * the parent's key, a field key and list indices, all canonical already: the
 * engine's normalizer joins them (Normalizer.pathKey), so no builder here does.
 *
 * Every key that a builder returns is canonical: well-formed UTF-8 in Unicode
 * Normalization Form C, without NUL bytes, at most NC_KEY_MAX_BYTES long. Two
 * inputs that Swift's String considers equal therefore give the same bytes.
 *
 * Field-key arguments arrive in a small binary encoding (below) rather than as
 * JSON, because JSON cannot say whether `30` is an Int or a Float, and Apollo
 * writes a Float as Swift prints a Double (`30.0`).
 *
 * Argument encoding (all integers little-endian):
 *
 *   arguments := count:u32 entry{count}
 *   entry     := length:u32 name:byte{length} value
 *   value     := 'N'                          null
 *              | 'T' | 'F'                    true | false
 *              | 'I' int64                    Int
 *              | 'D' float64 (IEEE 754)       Float
 *              | 'S' length:u32 byte{length}  String, ID, enum or custom scalar, written raw
 *              | 'L' count:u32 value{count}   list
 *              | 'O' arguments                input object
 *
 * Rendering, as Apollo iOS 1.x does it (see docs/keys.md):
 *   - entries are sorted by name (bytewise) and joined with ",";
 *   - `name:value` for a scalar or list, `[name:entries]` for an input object;
 *   - null is `null`, booleans `true`/`false`, Ints in decimal, Floats as
 *     Swift's Double.description (`30.0`, `1.5`, `1e-05`), text unquoted;
 *   - a non-empty list whose items are all input objects is `[e1,e2]`, each
 *     item's entries written in turn with no brackets of its own; any other
 *     list is `[v1, v2]` (comma and space), an object item inside it `[entries]`;
 *   - no arguments at all gives the bare field name.
 * Names must be unique within one object (NC_ERR_DUPLICATE_NAME); values may
 * nest at most NC_VALUE_MAX_DEPTH lists and objects deep (NC_ERR_TOO_DEEP).
 */
#ifndef NC_KEYS_H
#define NC_KEYS_H

#include "nc_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest key, in bytes, that a builder returns or an interner accepts. */
#define NC_KEY_MAX_BYTES (64u * 1024u)

/* How deeply lists and input objects may nest inside field-key arguments. */
#define NC_VALUE_MAX_DEPTH 64

/* The value tags of the argument encoding. */
enum {
    NC_TAG_NULL = 'N',
    NC_TAG_TRUE = 'T',
    NC_TAG_FALSE = 'F',
    NC_TAG_INT = 'I',
    NC_TAG_FLOAT = 'D',
    NC_TAG_STRING = 'S',
    NC_TAG_LIST = 'L',
    NC_TAG_OBJECT = 'O'
};

/* Typename (or key group) and one or more key-field values, already turned
 * into text, in key-field order. `count` must be at least 1 and `type`
 * non-empty (NC_ERR_INVALID_ARGUMENT). */
nc_status nc_entity_key(nc_buffer *out, const char *type, size_t type_length,
                        const nc_text *values, size_t count);

/* A field name and its arguments in the encoding above. `arguments` may be
 * NULL with `arguments_length` 0, meaning no arguments. The encoding must be
 * consumed exactly: trailing bytes are NC_ERR_MALFORMED. */
nc_status nc_field_key(nc_buffer *out, const char *name, size_t name_length,
                       const uint8_t *arguments, size_t arguments_length);

/* Writes `value` as Swift's Double.description does ("30.0", "1e-05",
 * "-inf", "nan") into `text`, which must hold 32 bytes, and returns the
 * length written (no NUL is counted; one is stored). */
size_t nc_format_double(double value, char text[32]);

/* Replaces `text` with its canonical form: NC_OK when it is well-formed UTF-8
 * without NUL, at most NC_KEY_MAX_BYTES long after normalisation to NFC. */
nc_status nc_canonicalize(nc_buffer *text);

#ifdef __cplusplus
}
#endif

#endif /* NC_KEYS_H */
