/* fuzz_lz4.c: the LZ4 block decoder of compressed fat-binary entries. The first two bytes give
 * the decoded size the container would declare. */
#include "fuzz.h"

#include "front/fatbin/lz4.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t dst_len = (size_t)data[0] << 8 | data[1];
    uint8_t *dst = malloc(dst_len ? dst_len : 1);
    char err[256];
    if (!dst)
        abort();
    lz4_decode_block(data + 2, size - 2, dst, dst_len, err, sizeof err);
    free(dst);
    return 0;
}
