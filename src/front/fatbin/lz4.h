/* lz4.h: a small, bounds-checked decoder for one LZ4 block (the raw block format, no frame),
 * the compression nvcc uses for fat-binary entries under --compress-mode=speed (and by default
 * before CUDA 13). Decoding only; nothing here allocates or exits. */
#ifndef WARPSIM_LZ4_H
#define WARPSIM_LZ4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decode the block src[0, src_len) into dst, which it must fill exactly: dst_len is the size the
 * container announced. False with a message (naming the input offset) on malformed input, a
 * match reaching before the start of the output, or output longer or shorter than dst_len. */
bool lz4_decode_block(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len, char *err,
                      size_t err_len);

#endif
