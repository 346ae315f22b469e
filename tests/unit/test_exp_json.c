/* test_exp_json.c: the small JSON reader: values, escapes, exact integers, errors with lines. */
#include "../test.h"

#include "exp/json.h"

#include <stdlib.h>

TEST(exp_json_values)
{
    char err[128];
    JsonValue *j = json_parse(" {\"a\": [1, -2.5e1, true, false, null], \"s\": \"x\\\"\\u00e9\\ud83d\\ude00\\n\","
                              " \"big\": 18446744073709551615, \"a\": {} } ", err, sizeof err);
    ASSERT(j);
    EXPECT_EQ_U(j->n, 4);
    const JsonValue *a = &j->items[0];
    ASSERT(a->type == JSON_ARRAY && a->n == 5);
    EXPECT(a->items[0].is_uint && a->items[0].uint == 1);
    EXPECT_NEAR(a->items[1].number, -25.0, 0);
    EXPECT(!a->items[1].is_uint);
    EXPECT(a->items[2].type == JSON_BOOL && a->items[2].boolean);
    EXPECT(a->items[3].type == JSON_BOOL && !a->items[3].boolean);
    EXPECT(a->items[4].type == JSON_NULL);
    EXPECT_STR(json_str(json_get(j, "s")), "x\"\xc3\xa9\xf0\x9f\x98\x80\n");
    EXPECT_EQ_U(json_get(j, "big")->uint, UINT64_MAX);
    EXPECT(json_get(j, "a")->type == JSON_OBJECT); /* a repeated name: the last one */
    EXPECT(json_get(j, "nope") == NULL);
    EXPECT_NEAR(json_number(json_get(j, "s"), 7), 7, 0);
    json_free(j);
}

TEST(exp_json_errors)
{
    static const struct { const char *text, *msg; } bad[] = {
        { "{\"a\": 1,\n\"b\" 2}", "line 2: expected ':' after member name" },
        { "[1, 2", "line 1: expected ',' or ']'" },
        { "{\"a\": 01}", "line 1: expected ',' or '}'" },
        { "\"abc", "line 1: unterminated string" },
        { "[1.]", "line 1: expected a digit after '.'" },
        { "{a: 1}", "expected a member name in double quotes" },
        { "[tru]", "expected a value" },
        { "\n\n", "line 3: unexpected end of input" },
        { "{} x", "unexpected text after the end" },
        { "\"\\q\"", "unknown escape" },
        { "\"a\tb\"", "control character" },
    };
    char err[128];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        JsonValue *j = json_parse(bad[i].text, err, sizeof err);
        EXPECT(j == NULL);
        EXPECT_CONTAINS(err, bad[i].msg);
        json_free(j);
    }
    char deep[200];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = 0;
    EXPECT(json_parse(deep, err, sizeof err) == NULL);
    EXPECT_CONTAINS(err, "nesting deeper than 64");
}

/* Nesting is bounded however deep the input goes: a million '[' or '{"a":' is an error naming
 * the limit, never a stack overflow. */
TEST(exp_json_deep_nesting_is_an_error)
{
    enum { DEEP = 1000000 };
    char err[128];
    char *text = malloc(5 * DEEP + 1);
    ASSERT(text);
    memset(text, '[', DEEP);
    text[DEEP] = 0;
    EXPECT(json_parse(text, err, sizeof err) == NULL);
    EXPECT_CONTAINS(err, "line 1: nesting deeper than 64 levels");
    for (size_t i = 0; i < DEEP; i++)
        memcpy(text + 5 * i, "{\"a\":", 5);
    text[5 * (size_t)DEEP] = 0;
    EXPECT(json_parse(text, err, sizeof err) == NULL);
    EXPECT_CONTAINS(err, "nesting deeper than 64 levels");
    free(text);
}
