/* json.h: a small JSON reader for result files.
 *
 * Parses a whole document into a tree of JsonValue nodes (RFC 8259: objects, arrays, strings
 * with escapes, numbers, true/false/null). Numbers are kept as doubles; integers up to 2^64-1
 * are also kept exactly. Errors name the line and what was expected; nesting deeper than
 * JSON_MAX_DEPTH is an error, not a stack overflow. */
#ifndef WARPSIM_EXP_JSON_H
#define WARPSIM_EXP_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 64

typedef enum JsonType { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } JsonType;

typedef struct JsonValue JsonValue;
struct JsonValue {
    JsonType type;
    bool boolean;
    bool is_uint;      /* NUMBER written as a non-negative integer that fits uint64 */
    uint64_t uint;     /* exact value when is_uint */
    double number;
    char *string;      /* STRING (NUL-terminated; embedded NULs are rejected) */
    uint32_t n;        /* ARRAY / OBJECT: number of members */
    JsonValue *items;  /* ARRAY / OBJECT members */
    char **keys;       /* OBJECT: member names */
};

/* Parse text; NULL on error with "line N: <what was expected>" in err. Free with json_free. */
JsonValue *json_parse(const char *text, char *err, size_t err_len);
void json_free(JsonValue *v);

/* Member of an object by name (the last one if repeated); NULL if v is not an object or has
 * no such member. */
const JsonValue *json_get(const JsonValue *v, const char *key);
/* v's number, or def if v is NULL or not a number. */
double json_number(const JsonValue *v, double def);
/* v's string, or NULL. */
const char *json_str(const JsonValue *v);

#endif
