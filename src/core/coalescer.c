/* coalescer.c: see coalescer.h. Line size is a power of two of at least 32 bytes. */
#include "core/coalescer.h"

uint32_t coalesce(const Winst *w, uint32_t line_bytes, CoalAccess *out)
{
    uint32_t n = 0, bytes = w->s.access_bytes ? w->s.access_bytes : 4;
    uint64_t line_mask = ~(uint64_t)(line_bytes - 1);
    for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
        if (!(w->active_mask >> lane & 1))
            continue;
        uint64_t first = w->addr[lane], last = first + bytes - 1;
        for (uint64_t line = first & line_mask; line <= (last & line_mask); line += line_bytes) {
            uint64_t lo = first > line ? first : line;
            uint64_t hi = last < line + line_bytes - 1 ? last : line + line_bytes - 1;
            uint32_t seg = 0;
            for (uint64_t s = (lo - line) / 32; s <= (hi - line) / 32 && s < 32; s++)
                seg |= 1u << s;
            uint32_t i = 0;
            while (i < n && out[i].line_addr != line)
                i++;
            if (i == n) {
                if (n == COAL_MAX_ACCESSES)
                    break;
                out[n].line_addr = line;
                out[n].segments = 0;
                out[n].n_lanes = 0;
                n++;
            }
            out[i].segments |= seg;
            out[i].n_lanes++;
        }
    }
    return n;
}

uint32_t coalesce_bank_conflicts(const Winst *w, uint32_t n_banks)
{
    uint64_t words[WARP_SIZE * 4];
    uint32_t n_words = 0, bytes = w->s.access_bytes ? w->s.access_bytes : 4;
    for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
        if (!(w->active_mask >> lane & 1))
            continue;
        for (uint32_t b = 0; b < bytes && n_words < WARP_SIZE * 4; b += 4) {
            uint64_t word = (w->addr[lane] + b) / 4;
            uint32_t i = 0;
            while (i < n_words && words[i] != word)
                i++;
            if (i == n_words)
                words[n_words++] = word;
        }
    }
    uint32_t per_bank[64] = {0}, worst = 1;
    for (uint32_t i = 0; i < n_words; i++) {
        uint32_t b = (uint32_t)(words[i] % n_banks);
        if (++per_bank[b] > worst)
            worst = per_bank[b];
    }
    return worst;
}
