/* lz4.c: the LZ4 block decoder (see lz4.h).
 *
 * A block is a run of sequences. Each starts with a token byte: its high nibble is the literal
 * count, its low nibble the match length minus 4; a nibble of 15 continues in the following
 * bytes, each added to it, until one is not 255. The literals follow, then (except in the last
 * sequence, which ends the block after its literals) a 2-byte little-endian offset back into the
 * output and the match length extension. A match may overlap its own output (offset < length),
 * which repeats a pattern, so it is copied byte by byte. */
#include "front/fatbin/lz4.h"

#include <stdio.h>
#include <string.h>

/* Read a length extension (the bytes after a nibble of 15) into *len. 0: done; 1: the input
 * ends inside it; 2: the length exceeds limit (checked per byte, so *len cannot overflow). */
static int read_ext(const uint8_t *src, size_t src_len, size_t *ip, size_t *len, size_t limit)
{
    for (;;) {
        if (*ip >= src_len)
            return 1;
        uint8_t b = src[(*ip)++];
        *len += b;
        if (*len > limit)
            return 2;
        if (b != 255)
            return 0;
    }
}

bool lz4_decode_block(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len, char *err,
                      size_t err_len)
{
    size_t ip = 0, op = 0;
    while (ip < src_len) {
        size_t seq = ip;
        uint8_t token = src[ip++];

        size_t lit = token >> 4;
        if (lit == 15 && read_ext(src, src_len, &ip, &lit, src_len)) {
            snprintf(err, err_len, "LZ4: literal length of the sequence at input offset %zu runs past the end of the block",
                     seq);
            return false;
        }
        if (lit > src_len - ip) {
            snprintf(err, err_len, "LZ4: %zu literals at input offset %zu run past the end of the %zu-byte block",
                     lit, ip, src_len);
            return false;
        }
        if (lit > dst_len - op) {
            snprintf(err, err_len, "LZ4: output overflows the announced %zu bytes (literals at input offset %zu)",
                     dst_len, ip);
            return false;
        }
        memcpy(dst + op, src + ip, lit);
        ip += lit;
        op += lit;
        if (ip == src_len)
            break; /* the last sequence: literals only */

        if (src_len - ip < 2) {
            snprintf(err, err_len, "LZ4: match offset at input offset %zu is cut off", ip);
            return false;
        }
        size_t off = (size_t)src[ip] | (size_t)src[ip + 1] << 8;
        if (off == 0 || off > op) {
            snprintf(err, err_len, "LZ4: match offset %zu at input offset %zu reaches before the output start (%zu bytes written)",
                     off, ip, op);
            return false;
        }
        ip += 2;

        size_t mlen = token & 15;
        int r = mlen == 15 ? read_ext(src, src_len, &ip, &mlen, dst_len) : 0;
        if (r == 1) {
            snprintf(err, err_len, "LZ4: match length of the sequence at input offset %zu is cut off", seq);
            return false;
        }
        mlen += 4;
        if (r == 2 || mlen > dst_len - op) {
            snprintf(err, err_len, "LZ4: output overflows the announced %zu bytes (match at input offset %zu)",
                     dst_len, seq);
            return false;
        }
        for (size_t i = 0; i < mlen; i++, op++)
            dst[op] = dst[op - off];
    }
    if (op != dst_len) {
        snprintf(err, err_len, "LZ4: block decodes to %zu bytes, the header announces %zu", op, dst_len);
        return false;
    }
    return true;
}
