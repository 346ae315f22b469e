/* fatbin.h: read the CUDA fat binaries nvcc embeds in host programs: list their entries (PTX
 * and cubin ELF images, per architecture), decompress them (zstd, LZ4 or stored raw), pick the
 * PTX to simulate, and read the register counts ptxas assigned from the cubins.
 *
 * Typical use from the libcudart replacement's __cudaRegisterFatBinary(wrapper):
 *     Fatbin fb;
 *     if (!fatbin_parse_wrapper(wrapper, &fb, err, sizeof err)) ...;   // error names what and where
 *     char *ptx = fatbin_extract_ptx(&fb, &arch, err, sizeof err);       // malloc'd, NUL-terminated
 *     uint32_t regs;
 *     if (fatbin_kernel_regs(&fb, "_Z4mat4iPK6float4S1_PS_", &regs, err, sizeof err)) ...;
 *     free(ptx); fatbin_free(&fb);
 * Every read is bounds-checked against the fat binary's size: a truncated or corrupt one gives
 * false / NULL and a message naming what was wrong and at which offset. Nothing here exits.
 * The format is described in docs/fatbin.md. */
#ifndef WARPSIM_FATBIN_H
#define WARPSIM_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FATBIN_MAGIC 0xBA55ED50u         /* first word of a fat binary */
#define FATBIN_WRAPPER_MAGIC 0x466243B1u /* first word of the wrapper __cudaRegisterFatBinary gets */

/* Entry kinds (the header's first field). */
#define FATBIN_KIND_PTX 1u
#define FATBIN_KIND_ELF 2u /* a cubin: SASS in an ELF image */

/* Entry flag bits we use. */
#define FATBIN_FLAG_64BIT 0x1ull
#define FATBIN_FLAG_LZ4 0x2000ull  /* payload is one LZ4 block */
#define FATBIN_FLAG_ZSTD 0x8000ull /* payload is a zstd frame (CUDA 13's default) */

/* Larger decompressed sizes are refused as corrupt rather than allocated. */
#define FATBIN_MAX_DATA (1ull << 30)

typedef enum { FATBIN_RAW, FATBIN_LZ4, FATBIN_ZSTD } FatbinCompression;

typedef struct FatbinEntry {
    uint32_t kind;             /* FATBIN_KIND_PTX, FATBIN_KIND_ELF, or whatever else was written */
    uint32_t arch;             /* XX of sm_XX (cubin) or compute_XX (PTX) */
    uint32_t version_major;    /* PTX: the ISA version (9.0); cubin: its ELF ABI version */
    uint32_t version_minor;
    uint64_t flags;
    FatbinCompression compression;
    size_t offset;             /* of the entry header, from the start of the fat binary */
    size_t payload_offset;     /* of the stored bytes */
    size_t payload_size;       /* stored bytes that matter (compressed size when compressed) */
    size_t data_size;          /* bytes once decompressed (payload_size when stored raw) */
} FatbinEntry;

typedef struct Fatbin {
    const uint8_t *data;       /* borrowed: must stay valid while the Fatbin is used */
    size_t size;               /* header plus entries; a longer input's tail is not part of it */
    uint32_t n_entries;
    FatbinEntry *entries;      /* malloc'd */
} Fatbin;

/* Parse a fat binary of len readable bytes at data (magic FATBIN_MAGIC). Bytes after the size
 * its header gives are ignored (a linked .nv_fatbin section holds one fat binary per object,
 * back to back). On failure *out is left empty (nothing to free). */
bool fatbin_parse(const void *data, size_t len, Fatbin *out, char *err, size_t err_len);
void fatbin_free(Fatbin *fb);

/* From the wrapper struct nvcc passes to __cudaRegisterFatBinary ({u32 magic, u32 version,
 * const void *data, void *filename_or_fatbins}), find the fat binary and its total size from its header:
 * the caller knows no length. Returns 0 with a message if the wrapper or header is not one.
 * Only the wrapper and the 16-byte header are read; trusting the size is unavoidable here.
 * Versions 1 and 2 are known (see fatbin_prelinked). */
size_t fatbin_size_from_wrapper(const void *wrapper, const void **data_out, char *err, size_t err_len);
/* A wrapper of version 2 (a program linked with relocatable device code, nvcc -rdc) points
 * data at the fat binary nvlink made (cubins only) and its fourth field at the NULL-terminated
 * list of each object's own fat binary (nvlink's __cudaPrelinkedFatbins, filled before the
 * registration), which hold the objects' PTX: that list, or NULL for another wrapper. */
const void *const *fatbin_prelinked(const void *wrapper);
/* Parse the fat binary at data, of the size its header gives (one of that list). */
bool fatbin_parse_unsized(const void *data, Fatbin *out, char *err, size_t err_len);
/* fatbin_size_from_wrapper, then fatbin_parse. */
bool fatbin_parse_wrapper(const void *wrapper, Fatbin *out, char *err, size_t err_len);

/* Index of the entry of this kind with the highest arch (the first one on ties), or -1. */
int fatbin_best_entry(const Fatbin *fb, uint32_t kind);

/* Entry i's content, decompressed and checked against the size its header announces. malloc'd,
 * with one extra NUL byte after it (so PTX is a C string); *len_out gets the size without it. */
uint8_t *fatbin_entry_data(const Fatbin *fb, uint32_t i, size_t *len_out, char *err, size_t err_len);

/* The text of the PTX entry with the highest arch: malloc'd and NUL-terminated (the stored
 * padding NULs are dropped); its arch in *arch_out if not NULL. NULL with a message if there is
 * no PTX entry or it cannot be decoded. Note that nvcc's fatbinary step strips comments and
 * indentation from the PTX it embeds; the instructions are those of `nvcc -ptx`. */
char *fatbin_extract_ptx(const Fatbin *fb, uint32_t *arch_out, char *err, size_t err_len);
/* The same among the PTX entries of compute_<max_arch> and below. */
char *fatbin_extract_ptx_upto(const Fatbin *fb, uint32_t max_arch, uint32_t *arch_out, char *err, size_t err_len);
/* The PTX a device of compute capability device_arch (80 for 8.0) runs: the entry of the highest
 * arch at or below it, as CUDA's driver picks the PTX it compiles; if every PTX entry is newer,
 * the oldest (a GPU would refuse the image, warpsim runs it: nvcc 13's default build carries
 * compute_75 alone, which the presets of older machines run). fatbin_ptx_arch_for: that
 * entry's arch (UINT32_MAX without PTX). */
uint32_t fatbin_ptx_arch_for(const Fatbin *fb, uint32_t device_arch);
char *fatbin_extract_ptx_for(const Fatbin *fb, uint32_t device_arch, uint32_t *arch_out, char *err, size_t err_len);

/* Registers per thread ptxas assigned to kernel (its mangled name, as __cudaRegisterFunction's
 * deviceName gives it), read from the highest-arch cubin that holds the kernel: the top 8 bits
 * of sh_info of the ELF section ".text.<kernel>". False with a message if no cubin has it or a
 * cubin is corrupt. */
bool fatbin_kernel_regs(const Fatbin *fb, const char *kernel, uint32_t *regs, char *err, size_t err_len);
/* The same for one cubin ELF image of len bytes. */
bool fatbin_elf_kernel_regs(const uint8_t *elf, size_t len, const char *kernel, uint32_t *regs, char *err,
                            size_t err_len);

#endif
