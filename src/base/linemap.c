/* linemap.c: see linemap.h. */
#include "base/linemap.h"

#include "base/base.h"

#include <stdlib.h>

static uint32_t slot_of(uint64_t key, uint32_t cap)
{
    key *= 0x9E3779B97F4A7C15ull; /* Fibonacci hashing: line addresses are strided */
    return (uint32_t)(key >> 32) & (cap - 1);
}

void linemap_init(LineMap *m)
{
    m->cap = 1024;
    m->n = 0;
    m->keys = xcalloc(m->cap, sizeof *m->keys);
    m->values = xcalloc(m->cap, sizeof *m->values);
}

void linemap_free(LineMap *m)
{
    free(m->keys);
    free(m->values);
    m->keys = NULL;
    m->values = NULL;
    m->cap = m->n = 0;
}

uint32_t *linemap_get(const LineMap *m, uint64_t key)
{
    for (uint32_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key + 1)
            return &m->values[i];
        if (!m->keys[i])
            return NULL;
    }
}

static void insert(uint64_t *keys, uint32_t *values, uint32_t cap, uint64_t key, uint32_t value)
{
    uint32_t i = slot_of(key, cap);
    while (keys[i] && keys[i] != key + 1)
        i = (i + 1) & (cap - 1);
    keys[i] = key + 1;
    values[i] = value;
}

void linemap_put(LineMap *m, uint64_t key, uint32_t value)
{
    uint32_t *v = linemap_get(m, key);
    if (v) {
        *v = value;
        return;
    }
    if (2 * (m->n + 1) > m->cap) {
        uint32_t cap = m->cap * 2;
        uint64_t *keys = xcalloc(cap, sizeof *keys);
        uint32_t *values = xcalloc(cap, sizeof *values);
        for (uint32_t i = 0; i < m->cap; i++)
            if (m->keys[i])
                insert(keys, values, cap, m->keys[i] - 1, m->values[i]);
        free(m->keys);
        free(m->values);
        m->keys = keys;
        m->values = values;
        m->cap = cap;
    }
    insert(m->keys, m->values, m->cap, key, value);
    m->n++;
}
