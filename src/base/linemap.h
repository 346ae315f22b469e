/* linemap.h: a hash map from 64-bit keys (line addresses) to 32-bit values, open addressing
 * with linear probing. It grows by doubling when half full, so inserts allocate only while the
 * set of keys grows (warm-up), never per cycle in steady state. No deletion. */
#ifndef WARPSIM_LINEMAP_H
#define WARPSIM_LINEMAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct LineMap {
    uint64_t *keys; /* key + 1; 0 marks an empty slot */
    uint32_t *values;
    uint32_t cap, n; /* cap is a power of two */
} LineMap;

void linemap_init(LineMap *m);
void linemap_free(LineMap *m);
/* Pointer to key's value, or NULL if absent. Valid until the next linemap_put. */
uint32_t *linemap_get(const LineMap *m, uint64_t key);
void linemap_put(LineMap *m, uint64_t key, uint32_t value);

#endif
