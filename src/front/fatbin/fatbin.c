/* fatbin.c: the CUDA fat-binary reader (see fatbin.h and docs/fatbin.md).
 *
 * Layout, all little-endian:
 *   header (16 bytes): u32 magic 0xBA55ED50, u16 version 1, u16 header size, u64 size of the
 *                      entries that follow the header
 *   entry header (>= 64 bytes, then the payload):
 *     0x00 u16 kind (1 PTX, 2 ELF)   0x02 u16 (0x0101)     0x04 u32 header size
 *     0x08 u64 payload size (stored bytes, padded to 8)    0x10 u32 compressed size
 *     0x14 u32 offset of an options block in the header (PTX)
 *     0x18 u16 minor, 0x1A u16 major version               0x1C u32 arch (75 = sm_75)
 *     0x20 u32 name offset, 0x24 u32 name length           0x28 u64 flags
 *     0x30 u64 (0)                                         0x38 u64 decompressed size
 * Values are read byte by byte so nothing depends on the host's alignment or byte order. */
#include "front/fatbin/fatbin.h"

#include "front/fatbin/lz4.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define HEADER_SIZE 16
#define ENTRY_HEADER_SIZE 64
#define ELF_EM_CUDA 190

static void seterr(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t err_len, const char *fmt, ...)
{
    if (!err || !err_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static const char *kind_name(uint32_t kind)
{
    return kind == FATBIN_KIND_PTX ? "PTX" : kind == FATBIN_KIND_ELF ? "cubin" : "unknown-kind";
}

/* ---- parsing ---- */

/* Check the 16-byte header at p (len readable bytes); the total size (header + entries) in *total. */
static bool check_header(const uint8_t *p, size_t len, size_t *total, char *err, size_t err_len)
{
    if (len < HEADER_SIZE) {
        seterr(err, err_len, "fatbin: %zu bytes cannot hold the 16-byte header", len);
        return false;
    }
    uint32_t magic = rd32(p);
    uint16_t version = rd16(p + 4), hsize = rd16(p + 6);
    uint64_t size = rd64(p + 8);
    if (magic != FATBIN_MAGIC) {
        seterr(err, err_len, "fatbin: bad magic 0x%08x at offset 0 (a fat binary starts with 0x%08x)", magic,
               FATBIN_MAGIC);
        return false;
    }
    if (version != 1) {
        seterr(err, err_len, "fatbin: unknown version %u at offset 4 (only version 1 is known)", version);
        return false;
    }
    if (hsize < HEADER_SIZE) {
        seterr(err, err_len, "fatbin: header size %u at offset 6 is below %d", hsize, HEADER_SIZE);
        return false;
    }
    if (size > FATBIN_MAX_DATA) {
        seterr(err, err_len, "fatbin: entries size %llu at offset 8 is implausibly large",
               (unsigned long long)size);
        return false;
    }
    *total = hsize + (size_t)size;
    return true;
}

bool fatbin_parse(const void *data, size_t len, Fatbin *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    const uint8_t *d = data;
    size_t total;
    if (!d) {
        seterr(err, err_len, "fatbin: no data");
        return false;
    }
    if (!check_header(d, len, &total, err, err_len))
        return false;
    if (total > len) {
        seterr(err, err_len, "fatbin: header says %zu bytes, only %zu are there (truncated)", total, len);
        return false;
    }

    FatbinEntry *entries = NULL;
    uint32_t n = 0, cap = 0;
    size_t pos = rd16(d + 6);
    while (pos < total) {
        const uint8_t *h = d + pos;
        size_t left = total - pos;
        if (left < ENTRY_HEADER_SIZE) {
            seterr(err, err_len, "fatbin: entry %u at offset %zu: %zu bytes left, an entry header needs %d", n, pos,
                   left, ENTRY_HEADER_SIZE);
            goto fail;
        }
        FatbinEntry e = {0};
        e.kind = rd16(h);
        uint32_t hsize = rd32(h + 4);
        uint64_t stored = rd64(h + 8);
        uint32_t csize = rd32(h + 0x10);
        e.version_minor = rd16(h + 0x18);
        e.version_major = rd16(h + 0x1A);
        e.arch = rd32(h + 0x1C);
        e.flags = rd64(h + 0x28);
        uint64_t dsize = rd64(h + 0x38);
        e.offset = pos;
        if (hsize < ENTRY_HEADER_SIZE || hsize > left) {
            seterr(err, err_len, "fatbin: entry %u at offset %zu: header size %u is below %d or past the end (%zu)", n,
                   pos, hsize, ENTRY_HEADER_SIZE, total);
            goto fail;
        }
        if (stored > left - hsize) {
            seterr(err, err_len, "fatbin: entry %u at offset %zu: payload of %llu bytes runs past the end (%zu)", n, pos,
                   (unsigned long long)stored, total);
            goto fail;
        }
        e.payload_offset = pos + hsize;

        bool lz4 = e.flags & FATBIN_FLAG_LZ4, zstd = e.flags & FATBIN_FLAG_ZSTD;
        if (lz4 && zstd) {
            seterr(err, err_len, "fatbin: entry %u at offset %zu: flags 0x%llx name both LZ4 and zstd", n, pos,
                   (unsigned long long)e.flags);
            goto fail;
        }
        if (lz4 || zstd) {
            e.compression = lz4 ? FATBIN_LZ4 : FATBIN_ZSTD;
            if (csize == 0 || csize > stored) {
                seterr(err, err_len, "fatbin: entry %u at offset %zu: compressed size %u is 0 or above the payload size %llu",
                       n, pos, csize, (unsigned long long)stored);
                goto fail;
            }
            if (dsize == 0 || dsize > FATBIN_MAX_DATA) {
                seterr(err, err_len, "fatbin: entry %u at offset %zu: decompressed size %llu is 0 or implausibly large", n,
                       pos, (unsigned long long)dsize);
                goto fail;
            }
            e.payload_size = csize;
            e.data_size = (size_t)dsize;
        } else {
            e.compression = FATBIN_RAW;
            e.payload_size = (size_t)stored;
            e.data_size = (size_t)stored;
        }

        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            FatbinEntry *grown = realloc(entries, cap * sizeof *entries);
            if (!grown) {
                seterr(err, err_len, "fatbin: out of memory for %u entries", cap);
                goto fail;
            }
            entries = grown;
        }
        entries[n++] = e;
        pos += hsize + (size_t)stored;
    }
    out->data = d;
    out->size = total;
    out->n_entries = n;
    out->entries = entries;
    return true;
fail:
    free(entries);
    return false;
}

void fatbin_free(Fatbin *fb)
{
    if (!fb)
        return;
    free(fb->entries);
    memset(fb, 0, sizeof *fb);
}

const void *const *fatbin_prelinked(const void *wrapper)
{
    const uint8_t *w = wrapper;
    const void *list;
    if (!w || rd32(w) != FATBIN_WRAPPER_MAGIC || rd32(w + 4) != 2)
        return NULL;
    memcpy(&list, w + 16, sizeof list);
    return list;
}

bool fatbin_parse_unsized(const void *data, Fatbin *out, char *err, size_t err_len)
{
    size_t total;
    memset(out, 0, sizeof *out);
    if (!data) {
        seterr(err, err_len, "fatbin: NULL fat binary pointer");
        return false;
    }
    return check_header(data, HEADER_SIZE, &total, err, err_len) && fatbin_parse(data, total, out, err, err_len);
}

size_t fatbin_size_from_wrapper(const void *wrapper, const void **data_out, char *err, size_t err_len)
{
    if (data_out)
        *data_out = NULL;
    if (!wrapper) {
        seterr(err, err_len, "fatbin wrapper: NULL pointer");
        return 0;
    }
    /* {int magic; int version; const unsigned long long *data; void *filename_or_fatbins;} */
    const uint8_t *w = wrapper;
    uint32_t magic = rd32(w), version = rd32(w + 4);
    const void *data;
    memcpy(&data, w + 8, sizeof data);
    if (magic != FATBIN_WRAPPER_MAGIC) {
        seterr(err, err_len, "fatbin wrapper: bad magic 0x%08x (want 0x%08x)", magic, FATBIN_WRAPPER_MAGIC);
        return 0;
    }
    /* Version 2 (relocatable device code) also points data at a fat binary. */
    if (version != 1 && version != 2) {
        seterr(err, err_len, "fatbin wrapper: unknown version %u (want 1 or 2)", version);
        return 0;
    }
    if (!data) {
        seterr(err, err_len, "fatbin wrapper: NULL fat binary pointer");
        return 0;
    }
    size_t total;
    if (!check_header(data, HEADER_SIZE, &total, err, err_len))
        return 0;
    if (data_out)
        *data_out = data;
    return total;
}

bool fatbin_parse_wrapper(const void *wrapper, Fatbin *out, char *err, size_t err_len)
{
    const void *data;
    size_t len = fatbin_size_from_wrapper(wrapper, &data, err, err_len);
    if (!len) {
        memset(out, 0, sizeof *out);
        return false;
    }
    return fatbin_parse(data, len, out, err, err_len);
}

/* ---- content ---- */

static int best_entry_upto(const Fatbin *fb, uint32_t kind, uint32_t max_arch)
{
    int best = -1;
    for (uint32_t i = 0; i < fb->n_entries; i++)
        if (fb->entries[i].kind == kind && fb->entries[i].arch <= max_arch &&
            (best < 0 || fb->entries[i].arch > fb->entries[best].arch))
            best = (int)i;
    return best;
}

int fatbin_best_entry(const Fatbin *fb, uint32_t kind)
{
    return best_entry_upto(fb, kind, UINT32_MAX);
}

uint8_t *fatbin_entry_data(const Fatbin *fb, uint32_t i, size_t *len_out, char *err, size_t err_len)
{
    if (i >= fb->n_entries) {
        seterr(err, err_len, "fatbin: no entry %u (there are %u)", i, fb->n_entries);
        return NULL;
    }
    const FatbinEntry *e = &fb->entries[i];
    const uint8_t *src = fb->data + e->payload_offset;
    uint8_t *buf = malloc(e->data_size + 1);
    if (!buf) {
        seterr(err, err_len, "fatbin: out of memory for entry %u (%zu bytes)", i, e->data_size);
        return NULL;
    }
    char why[200];
    switch (e->compression) {
    case FATBIN_RAW:
        memcpy(buf, src, e->data_size);
        break;
    case FATBIN_LZ4:
        if (!lz4_decode_block(src, e->payload_size, buf, e->data_size, why, sizeof why)) {
            seterr(err, err_len, "fatbin: %s entry %u (sm_%u) at offset %zu, payload at %zu: %s", kind_name(e->kind), i,
                   e->arch, e->offset, e->payload_offset, why);
            goto fail;
        }
        break;
    case FATBIN_ZSTD: {
        unsigned long long framed = ZSTD_getFrameContentSize(src, e->payload_size);
        if (framed == ZSTD_CONTENTSIZE_ERROR) {
            seterr(err, err_len, "fatbin: %s entry %u (sm_%u) at offset %zu: payload at %zu is not a zstd frame",
                   kind_name(e->kind), i, e->arch, e->offset, e->payload_offset);
            goto fail;
        }
        if (framed != ZSTD_CONTENTSIZE_UNKNOWN && framed != e->data_size) {
            seterr(err, err_len, "fatbin: %s entry %u (sm_%u) at offset %zu: zstd frame holds %llu bytes, the header says %zu",
                   kind_name(e->kind), i, e->arch, e->offset, framed, e->data_size);
            goto fail;
        }
        size_t got = ZSTD_decompress(buf, e->data_size, src, e->payload_size);
        if (ZSTD_isError(got)) {
            seterr(err, err_len, "fatbin: %s entry %u (sm_%u) at offset %zu, payload at %zu: zstd: %s",
                   kind_name(e->kind), i, e->arch, e->offset, e->payload_offset, ZSTD_getErrorName(got));
            goto fail;
        }
        if (got != e->data_size) {
            seterr(err, err_len, "fatbin: %s entry %u (sm_%u) at offset %zu: zstd data decodes to %zu bytes, the header says %zu",
                   kind_name(e->kind), i, e->arch, e->offset, got, e->data_size);
            goto fail;
        }
        break;
    }
    }
    buf[e->data_size] = 0;
    if (len_out)
        *len_out = e->data_size;
    return buf;
fail:
    free(buf);
    return NULL;
}

char *fatbin_extract_ptx(const Fatbin *fb, uint32_t *arch_out, char *err, size_t err_len)
{
    return fatbin_extract_ptx_upto(fb, UINT32_MAX, arch_out, err, err_len);
}

char *fatbin_extract_ptx_upto(const Fatbin *fb, uint32_t max_arch, uint32_t *arch_out, char *err, size_t err_len)
{
    int i = best_entry_upto(fb, FATBIN_KIND_PTX, max_arch);
    if (i < 0 && max_arch != UINT32_MAX && fatbin_best_entry(fb, FATBIN_KIND_PTX) >= 0) {
        seterr(err, err_len, "fatbin: no PTX entry for compute_%u or below among its %u entries", max_arch,
               fb->n_entries);
        return NULL;
    }
    if (i < 0) {
        seterr(err, err_len, "fatbin: no PTX entry among its %u entries (compile with -gencode ...,code=compute_XX)",
               fb->n_entries);
        return NULL;
    }
    size_t len;
    uint8_t *text = fatbin_entry_data(fb, (uint32_t)i, &len, err, err_len);
    if (!text)
        return NULL;
    /* The text ends at the first NUL (the stored PTX is NUL-terminated and padded with NULs);
     * fatbin_entry_data put one after the data in any case. */
    if (text[0] == 0) {
        seterr(err, err_len, "fatbin: PTX entry %d (compute_%u) at offset %zu is empty", i, fb->entries[i].arch,
               fb->entries[i].offset);
        free(text);
        return NULL;
    }
    if (arch_out)
        *arch_out = fb->entries[i].arch;
    return (char *)text;
}

uint32_t fatbin_ptx_arch_for(const Fatbin *fb, uint32_t device_arch)
{
    int i = best_entry_upto(fb, FATBIN_KIND_PTX, device_arch);
    if (i >= 0)
        return fb->entries[i].arch;
    uint32_t oldest = UINT32_MAX;
    for (uint32_t k = 0; k < fb->n_entries; k++)
        if (fb->entries[k].kind == FATBIN_KIND_PTX && fb->entries[k].arch < oldest)
            oldest = fb->entries[k].arch;
    return oldest;
}

char *fatbin_extract_ptx_for(const Fatbin *fb, uint32_t device_arch, uint32_t *arch_out, char *err, size_t err_len)
{
    return fatbin_extract_ptx_upto(fb, fatbin_ptx_arch_for(fb, device_arch), arch_out, err, err_len);
}

/* ---- cubin register counts ---- */

/* 1: found (*regs set); 0: the ELF has no ".text.<kernel>"; -1: a malformed ELF (err set). */
static int elf_regs(const uint8_t *elf, size_t len, const char *kernel, uint32_t *regs, char *err, size_t err_len)
{
    if (len < 64 || memcmp(elf, "\x7f" "ELF", 4) != 0) {
        seterr(err, err_len, "cubin: not an ELF image (%zu bytes)", len);
        return -1;
    }
    if (elf[4] != 2 || elf[5] != 1) {
        seterr(err, err_len, "cubin: ELF class %u / data %u at offset 4 (want 64-bit little-endian)", elf[4], elf[5]);
        return -1;
    }
    uint16_t machine = rd16(elf + 0x12);
    if (machine != ELF_EM_CUDA) {
        seterr(err, err_len, "cubin: ELF machine %u at offset 0x12 is not CUDA (%d)", machine, ELF_EM_CUDA);
        return -1;
    }
    uint64_t shoff = rd64(elf + 0x28);
    uint16_t shentsize = rd16(elf + 0x3A), shnum = rd16(elf + 0x3C), shstrndx = rd16(elf + 0x3E);
    if (shentsize < 64 || shnum == 0 || shoff > len || (uint64_t)shnum * shentsize > len - shoff) {
        seterr(err, err_len, "cubin: section table (offset %llu, %u entries of %u bytes) is outside the %zu-byte image",
               (unsigned long long)shoff, shnum, shentsize, len);
        return -1;
    }
    if (shstrndx >= shnum) {
        seterr(err, err_len, "cubin: section-name table index %u is not below the %u sections", shstrndx, shnum);
        return -1;
    }
    const uint8_t *strsh = elf + shoff + (size_t)shstrndx * shentsize;
    uint64_t stroff = rd64(strsh + 0x18), strsize = rd64(strsh + 0x20);
    if (stroff > len || strsize > len - stroff) {
        seterr(err, err_len, "cubin: section-name table (offset %llu, %llu bytes) is outside the %zu-byte image",
               (unsigned long long)stroff, (unsigned long long)strsize, len);
        return -1;
    }
    const char *names = (const char *)elf + stroff;
    size_t klen = strlen(kernel);
    for (uint16_t s = 0; s < shnum; s++) {
        const uint8_t *sh = elf + shoff + (size_t)s * shentsize;
        uint32_t name = rd32(sh);
        if (name >= strsize || !memchr(names + name, 0, strsize - name)) {
            seterr(err, err_len, "cubin: section %u's name offset %u is outside the section-name table", s, name);
            return -1;
        }
        const char *nm = names + name;
        if (strncmp(nm, ".text.", 6) == 0 && strlen(nm + 6) == klen && memcmp(nm + 6, kernel, klen) == 0) {
            *regs = rd32(sh + 0x2C) >> 24; /* sh_info: register count << 24 | symbol index */
            return 1;
        }
    }
    return 0;
}

bool fatbin_elf_kernel_regs(const uint8_t *elf, size_t len, const char *kernel, uint32_t *regs, char *err,
                            size_t err_len)
{
    int r = elf_regs(elf, len, kernel, regs, err, err_len);
    if (r == 0)
        seterr(err, err_len, "cubin: no section .text.%s (no kernel of that name)", kernel);
    return r == 1;
}

bool fatbin_kernel_regs(const Fatbin *fb, const char *kernel, uint32_t *regs, char *err, size_t err_len)
{
    /* Highest arch first: the closest to what runs on current hardware. */
    bool *tried = calloc(fb->n_entries ? fb->n_entries : 1, sizeof *tried);
    if (!tried) {
        seterr(err, err_len, "fatbin: out of memory");
        return false;
    }
    uint32_t n_cubins = 0;
    bool found = false, failed = false;
    for (;;) {
        int best = -1;
        for (uint32_t i = 0; i < fb->n_entries; i++)
            if (!tried[i] && fb->entries[i].kind == FATBIN_KIND_ELF &&
                (best < 0 || fb->entries[i].arch > fb->entries[best].arch))
                best = (int)i;
        if (best < 0)
            break;
        tried[best] = true;
        n_cubins++;
        size_t len;
        uint8_t *elf = fatbin_entry_data(fb, (uint32_t)best, &len, err, err_len);
        if (!elf) {
            failed = true;
            break;
        }
        char why[256];
        int r = elf_regs(elf, len, kernel, regs, why, sizeof why);
        free(elf);
        if (r < 0) {
            seterr(err, err_len, "fatbin: cubin entry %d (sm_%u) at offset %zu: %s", best, fb->entries[best].arch,
                   fb->entries[best].offset, why);
            failed = true;
            break;
        }
        if (r == 1) {
            found = true;
            break;
        }
    }
    free(tried);
    if (!found && !failed) {
        if (n_cubins == 0)
            seterr(err, err_len, "fatbin: no cubin entry (only PTX), so no register counts for %s", kernel);
        else
            seterr(err, err_len, "fatbin: none of its %u cubins has kernel %s", n_cubins, kernel);
    }
    return found;
}
