/* config.c: descriptor tables of every option, and the readers of key = value text.
 *
 * The tables come from the .def files (see config.h). Values are parsed and range-checked
 * here; a bad key or value is a one-line error naming the key, its source, and what was
 * expected. Every reader returns that error (the embedding API hands it to its caller); the
 * command line's variants print it and exit 1. Nothing is ever silently defaulted. */
#include "conf/config.h"

#include "base/base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define OPT(type, name, def, lo, hi, choices, unit, help) \
    { #name, OPT_##type, offsetof(STRUCT, name), def, lo, hi, choices, unit, help },

#define STRUCT GpuConfig
static const OptDesc gpu_opts[] = {
#include "conf/gpu.def"
};
#undef STRUCT
#define STRUCT SmConfig
static const OptDesc sm_opts[] = {
#include "conf/sm.def"
};
#undef STRUCT
#define STRUCT AluConfig
static const OptDesc alu_opts[] = {
#include "conf/alu.def"
};
#undef STRUCT
#define STRUCT CacheConfig
static const OptDesc cache_opts[] = {
#include "conf/cache.def"
};
#undef STRUCT
#define STRUCT SmemConfig
static const OptDesc smem_opts[] = {
#include "conf/smem.def"
};
#undef STRUCT
#define STRUCT IcntConfig
static const OptDesc icnt_opts[] = {
#include "conf/icnt.def"
};
#undef STRUCT
#define STRUCT MemConfig
static const OptDesc mem_opts[] = {
#include "conf/mem.def"
};
#undef STRUCT
#define STRUCT DramConfig
static const OptDesc dram_opts[] = {
#include "conf/dram.def"
};
#undef STRUCT
#undef OPT

#define MODULE(prefix, help, table, field) \
    { prefix, help, table, ARRAY_LEN(table), offsetof(Config, field) }

const OptModule config_modules[] = {
    MODULE("gpu", "machine shape and clock domains", gpu_opts, gpu),
    MODULE("sm", "streaming multiprocessor", sm_opts, sm),
    MODULE("alu", "execution-unit latencies", alu_opts, alu),
    MODULE("l1d", "L1 data cache, one per SM", cache_opts, l1d),
    MODULE("l2", "L2 cache, one slice per memory sub-partition", cache_opts, l2),
    MODULE("smem", "shared memory", smem_opts, smem),
    MODULE("icnt", "interconnect", icnt_opts, icnt),
    MODULE("mem", "memory partitions", mem_opts, mem),
    MODULE("dram", "DRAM controllers", dram_opts, dram),
};
const size_t config_n_modules = ARRAY_LEN(config_modules);

/* The L2 shares the cache option table; these are its own defaults (gtx480: 768 KB, 128 B
 * lines, 16-way, in 6 partitions x 2 slices: 32 sets per slice). */
static const struct { const char *key, *value; } l2_defaults[] = {
    {"l2.n_sets", "32"},        {"l2.assoc", "16"},         {"l2.write", "back"},
    {"l2.mshr_entries", "256"}, {"l2.mshr_max_merge", "4"}, {"l2.miss_queue", "8"},
};

const OptDesc *config_find(const char *key, const OptModule **mod_out)
{
    const char *dot = strchr(key, '.');
    if (!dot)
        return NULL;
    size_t plen = (size_t)(dot - key);
    for (size_t i = 0; i < config_n_modules; i++) {
        const OptModule *m = &config_modules[i];
        if (strlen(m->prefix) != plen || strncmp(m->prefix, key, plen))
            continue;
        for (size_t j = 0; j < m->n_opts; j++) {
            if (!strcmp(m->opts[j].name, dot + 1)) {
                if (mod_out)
                    *mod_out = m;
                return &m->opts[j];
            }
        }
    }
    return NULL;
}

/* Index of value within "a|b|c", or -1. */
static int choice_index(const char *choices, const char *value)
{
    int idx = 0;
    size_t vlen = strlen(value);
    for (const char *p = choices; *p; idx++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == vlen && !strncmp(p, value, len))
            return idx;
        if (!bar)
            break;
        p = bar + 1;
    }
    return -1;
}

static const char *choice_name(const char *choices, uint32_t idx, char *buf, size_t len)
{
    const char *p = choices;
    for (uint32_t i = 0; i < idx && p; i++) {
        p = strchr(p, '|');
        if (p)
            p++;
    }
    if (!p)
        return "?";
    const char *bar = strchr(p, '|');
    size_t n = bar ? (size_t)(bar - p) : strlen(p);
    if (n >= len)
        n = len - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

int config_parse_option(void *base, const OptDesc *d, const char *key, const char *value, char *err,
                        size_t err_len)
{
    void *f = (char *)base + d->offset;
    uint64_t u;
    double x;
    switch (d->type) {
    case OPT_U32:
    case OPT_U64:
        if (!parse_u64(value, &u)) {
            snprintf(err, err_len, "%s: expected a non-negative integer, got '%s'", key, value);
            return 0;
        }
        if ((double)u < d->lo || (double)u > d->hi) {
            snprintf(err, err_len, "%s: %s is out of range [%.0f, %.0f]", key, value, d->lo, d->hi);
            return 0;
        }
        if (d->type == OPT_U32)
            *(uint32_t *)f = (uint32_t)u;
        else
            *(uint64_t *)f = u;
        return 1;
    case OPT_F64:
        if (!parse_f64(value, &x)) {
            snprintf(err, err_len, "%s: expected a number, got '%s'", key, value);
            return 0;
        }
        if (x < d->lo || x > d->hi) {
            snprintf(err, err_len, "%s: %s is out of range [%g, %g]", key, value, d->lo, d->hi);
            return 0;
        }
        *(double *)f = x;
        return 1;
    case OPT_BOOL:
        if (!strcmp(value, "1") || !strcmp(value, "true") || !strcmp(value, "yes") || !strcmp(value, "on"))
            *(uint32_t *)f = 1;
        else if (!strcmp(value, "0") || !strcmp(value, "false") || !strcmp(value, "no") || !strcmp(value, "off"))
            *(uint32_t *)f = 0;
        else {
            snprintf(err, err_len, "%s: expected true or false, got '%s'", key, value);
            return 0;
        }
        return 1;
    case OPT_ENUM: {
        int idx = choice_index(d->choices, value);
        if (idx < 0) {
            snprintf(err, err_len, "%s: expected one of %s, got '%s'", key, d->choices, value);
            return 0;
        }
        *(uint32_t *)f = (uint32_t)idx;
        return 1;
    }
    case OPT_STR:
    case OPT_POLICY: {
        size_t cap = d->type == OPT_STR ? CONF_STR_LEN : CONF_NAME_LEN;
        if (!*value || strlen(value) >= cap) {
            snprintf(err, err_len, "%s: expected a %s of 1 to %zu characters, got '%s'", key,
                     d->type == OPT_STR ? "string" : "policy name", cap - 1, value);
            return 0;
        }
        strcpy((char *)f, value);
        return 1;
    }
    }
    snprintf(err, err_len, "%s: bad option type", key);
    return 0;
}

static int set_desc(Config *c, const OptModule *m, const OptDesc *d, const char *key, const char *value,
                    char *err, size_t err_len)
{
    return config_parse_option((char *)c + m->offset, d, key, value, err, err_len);
}

/* `<module>.<option>.<rest>` with a known `<module>.<option>`: an owned option (see config.h). */
static int is_ext_key(const char *key)
{
    const char *dot = strchr(key, '.');
    const char *dot2 = dot ? strchr(dot + 1, '.') : NULL;
    if (!dot2 || !dot2[1] || dot2 - key >= 96)
        return 0;
    char owner[96];
    memcpy(owner, key, (size_t)(dot2 - key));
    owner[dot2 - key] = 0;
    /* l1d.<component>.<option>: a miss-path component's, whether or not a cache option sizes it
     * (policy_check_config checks the component's name and option) */
    return config_find(owner, NULL) != NULL || !strncmp(owner, "l1d.", 4);
}

static int ext_index(const Config *c, const char *key)
{
    for (uint32_t i = 0; i < c->n_ext; i++)
        if (!strcmp(c->ext[i].key, key))
            return (int)i;
    return -1;
}

static ConfigExt *ext_find(Config *c, const char *key)
{
    int i = ext_index(c, key);
    return i < 0 ? NULL : &c->ext[i];
}

const ConfigExt *config_ext_find(const Config *c, const char *key)
{
    int i = ext_index(c, key);
    return i < 0 ? NULL : &c->ext[i];
}

int config_ext_put(Config *c, const char *key, const char *value, const char *where, char *err, size_t err_len)
{
    ConfigExt *e = ext_find(c, key);
    if (strlen(key) >= CONF_KEY_LEN || strlen(value) >= CONF_STR_LEN) {
        snprintf(err, err_len, "%s: key or value too long", key);
        return 0;
    }
    if (!e) {
        if (c->n_ext == CONF_EXT_MAX) {
            snprintf(err, err_len, "%s: more than %d policy options set", key, CONF_EXT_MAX);
            return 0;
        }
        e = &c->ext[c->n_ext++];
        snprintf(e->key, sizeof e->key, "%s", key);
    }
    snprintf(e->value, sizeof e->value, "%s", value);
    snprintf(e->where, sizeof e->where, "%s", where ? where : "");
    return 1;
}

static int ext_cmp(const void *a, const void *b)
{
    return strcmp(((const ConfigExt *)a)->key, ((const ConfigExt *)b)->key);
}

void config_ext_sort(Config *c) { qsort(c->ext, c->n_ext, sizeof c->ext[0], ext_cmp); }

int config_set(Config *c, const char *key, const char *value, char *err, size_t err_len)
{
    const OptModule *m;
    const OptDesc *d = config_find(key, &m);
    if (!d && is_ext_key(key))
        return config_ext_put(c, key, value, NULL, err, err_len);
    if (!d) {
        snprintf(err, err_len, "unknown key '%s' (warpsim --help-config lists them)", key);
        return 0;
    }
    return set_desc(c, m, d, key, value, err, err_len);
}

static int fail(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Write the message into err; returns 0, so that checks can `return fail(...)`. */
static int fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
    return 0;
}

/* config_set with the message prefixed by where the value came from: "<where>: <message>". */
static int set_at(Config *c, const char *key, const char *value, const char *where, char *err, size_t err_len)
{
    char msg[512];
    if (!config_set(c, key, value, msg, sizeof msg))
        return fail(err, err_len, "%s: %s", where, msg);
    ConfigExt *e = ext_find(c, key);
    if (e) /* so that the registry's later check can name the file and line */
        snprintf(e->where, sizeof e->where, "%s", where);
    return 1;
}

void config_set_or_die(Config *c, const char *key, const char *value, const char *where)
{
    char err[1024];
    if (!set_at(c, key, value, where, err, sizeof err))
        fatal("%s", err);
}

void config_init(Config *c)
{
    memset(c, 0, sizeof *c);
    char err[512];
    for (size_t i = 0; i < config_n_modules; i++) {
        const OptModule *m = &config_modules[i];
        for (size_t j = 0; j < m->n_opts; j++) {
            char key[96];
            snprintf(key, sizeof key, "%s.%s", m->prefix, m->opts[j].name);
            if (!set_desc(c, m, &m->opts[j], key, m->opts[j].def, err, sizeof err))
                check_failed(err, __FILE__, __LINE__);
        }
    }
    for (size_t i = 0; i < ARRAY_LEN(l2_defaults); i++)
        if (!config_set(c, l2_defaults[i].key, l2_defaults[i].value, err, sizeof err))
            check_failed(err, __FILE__, __LINE__);
}

/* from: "file:line" of the include line that names path, NULL for the top file. */
static int load_file(Config *c, const char *path, const char *from, int depth, char *err, size_t err_len)
{
    if (depth > 16)
        return fail(err, err_len, "%s: includes nested more than 16 deep (a cycle?)", path);
    char *text = read_file(path, NULL);
    if (!text && from)
        return fail(err, err_len, "%s: include %s: cannot read config file: %s", from, path,
                    read_file_error(errno));
    if (!text)
        return fail(err, err_len, "%s: cannot read config file: %s", path, read_file_error(errno));
    int ok = 1, lineno = 0;
    for (char *line = text, *next; ok && line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *s = str_trim(line);
        if (!*s)
            continue;
        char where[512];
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        if (!strncmp(s, "include", 7) && (s[7] == ' ' || s[7] == '\t')) {
            char *inc = str_trim(s + 7);
            char full[1024];
            const char *slash = strrchr(path, '/');
            if (inc[0] != '/' && slash)
                snprintf(full, sizeof full, "%.*s/%s", (int)(slash - path), path, inc);
            else
                snprintf(full, sizeof full, "%s", inc);
            ok = load_file(c, full, where, depth + 1, err, err_len);
            continue;
        }
        char *eq = strchr(s, '=');
        if (!eq) {
            ok = fail(err, err_len, "%s: expected 'key = value' or 'include FILE', got '%s'", where, s);
            continue;
        }
        *eq = 0;
        char *key = str_trim(s), *value = str_trim(eq + 1);
        if (!*key)
            ok = fail(err, err_len, "%s: missing key before '='", where);
        else
            ok = set_at(c, key, value, where, err, err_len);
    }
    free(text);
    return ok;
}

int config_load_file_err(Config *c, const char *path, char *err, size_t err_len)
{
    return load_file(c, path, NULL, 0, err, err_len);
}

void config_load_file(Config *c, const char *path)
{
    char err[2048];
    if (!config_load_file_err(c, path, err, sizeof err))
        fatal("%s", err);
}

int config_apply_override_err(Config *c, const char *kv, char *err, size_t err_len)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv)
        return fail(err, err_len, "-o %s: expected key=value", kv);
    char key[128];
    size_t n = (size_t)(eq - kv);
    if (n >= sizeof key)
        return fail(err, err_len, "-o %s: key too long", kv);
    memcpy(key, kv, n);
    key[n] = 0;
    char where[256];
    snprintf(where, sizeof where, "-o %s", kv);
    char *value = xstrdup(eq + 1);
    int ok = set_at(c, str_trim(key), str_trim(value), where, err, err_len);
    free(value);
    return ok;
}

void config_apply_override(Config *c, const char *kv)
{
    char err[1024];
    if (!config_apply_override_err(c, kv, err, sizeof err))
        fatal("%s", err);
}

static int require_pow2(const char *key, uint64_t v, char *err, size_t err_len)
{
    if (is_pow2_u64(v))
        return 1;
    return fail(err, err_len, "%s: %llu must be a power of two", key, (unsigned long long)v);
}

/* Bounds on the simulator's own memory for the caches, checked before anything is allocated
 * (every geometry inside the options' ranges is otherwise accepted, and the largest aborted
 * with "out of memory" while the GPU was built). One tag array holds at most CACHE_MAX_LINES
 * lines (2^24: a 2 GiB cache of 128-byte lines); the tag arrays and MSHRs of every L1D and L2
 * slice together take at most CACHE_MAX_MEM_MIB, counted at CACHE_LINE_COST bytes a line (the
 * tag entry and the replacement policy's state), CACHE_SECTOR_COST more in a sectored cache (the
 * sector masks) and CACHE_SLOT_COST a merge slot. Real machines stay orders of magnitude below
 * both. */
enum { CACHE_LINE_COST = 32, CACHE_SECTOR_COST = 12, CACHE_SLOT_COST = 4, CACHE_MAX_MEM_MIB = 2048 };
#define CACHE_MAX_LINES ((uint64_t)1 << 24)

static uint64_t cache_lines(const CacheConfig *cc) { return (uint64_t)cc->n_sets * cc->assoc; }
static uint64_t cache_slots(const CacheConfig *cc) { return (uint64_t)cc->mshr_entries * cc->mshr_max_merge; }
static uint64_t cache_bytes(const CacheConfig *cc)
{
    uint64_t per_line = CACHE_LINE_COST + (cc->sector_bytes ? CACHE_SECTOR_COST : 0);
    return cache_lines(cc) * per_line + cache_slots(cc) * CACHE_SLOT_COST;
}

static int check_cache_memory(const Config *c, char *err, size_t err_len)
{
    static const char *const names[2] = {"l1d", "l2"};
    const CacheConfig *caches[2] = {&c->l1d, &c->l2};
    for (int i = 0; i < 2; i++)
        if (cache_lines(caches[i]) > CACHE_MAX_LINES)
            return fail(err, err_len, "%s.n_sets x %s.assoc: %u x %u = %llu lines, more than the %llu (2^24) a "
                        "cache may hold", names[i], names[i], caches[i]->n_sets, caches[i]->assoc,
                        (unsigned long long)cache_lines(caches[i]), (unsigned long long)CACHE_MAX_LINES);
    uint64_t n_l1d = (uint64_t)c->gpu.n_clusters * c->gpu.cores_per_cluster;
    uint64_t n_l2 = (uint64_t)c->mem.n_partitions * c->mem.subpartitions;
    uint64_t mib = (n_l1d * cache_bytes(&c->l1d) + n_l2 * cache_bytes(&c->l2)) >> 20;
    if (mib > CACHE_MAX_MEM_MIB)
        return fail(err, err_len, "the caches would take %llu MiB of simulator memory, more than the %d MiB bound: "
                    "%llu L1Ds (gpu.n_clusters x gpu.cores_per_cluster) of %llu lines (l1d.n_sets x l1d.assoc) "
                    "and %llu MSHR slots (l1d.mshr_entries x l1d.mshr_max_merge), %llu L2 slices "
                    "(mem.n_partitions x mem.subpartitions) of %llu lines (l2.n_sets x l2.assoc) and %llu MSHR slots "
                    "(l2.mshr_entries x l2.mshr_max_merge)",
                    (unsigned long long)mib, CACHE_MAX_MEM_MIB, (unsigned long long)n_l1d,
                    (unsigned long long)cache_lines(&c->l1d), (unsigned long long)cache_slots(&c->l1d),
                    (unsigned long long)n_l2, (unsigned long long)cache_lines(&c->l2),
                    (unsigned long long)cache_slots(&c->l2));
    return 1;
}

/* A sectored cache (sector_bytes > 0): its sector masks are built from the coalescer's 32-byte
 * segments, 32 of them at most per line. */
static int check_sectors(const char *cache, const CacheConfig *cc, char *err, size_t err_len)
{
    uint32_t s = cc->sector_bytes;
    if (!s)
        return 1;
    if (!is_pow2_u64(s) || s < 32)
        return fail(err, err_len, "%s.sector_bytes: %u must be 0 (whole lines) or a power of two of at least 32", cache,
                    s);
    if (s > cc->line_bytes)
        return fail(err, err_len, "%s.sector_bytes: %u must divide %s.line_bytes (%u)", cache, s, cache,
                    cc->line_bytes);
    if (cc->line_bytes > 32 * 32)
        return fail(err, err_len, "%s.sector_bytes: a sectored line is at most 1024 bytes (32 segments of 32 B); "
                    "%s.line_bytes is %u", cache, cache, cc->line_bytes);
    return 1;
}

int config_check(const Config *c, char *err, size_t err_len)
{
    if (!require_pow2("l1d.n_sets", c->l1d.n_sets, err, err_len) ||
        !require_pow2("l1d.line_bytes", c->l1d.line_bytes, err, err_len) ||
        !require_pow2("l2.n_sets", c->l2.n_sets, err, err_len) ||
        !require_pow2("l2.line_bytes", c->l2.line_bytes, err, err_len))
        return 0;
    if (c->l2.line_bytes != c->l1d.line_bytes)
        return fail(err, err_len, "l2.line_bytes: %u must equal l1d.line_bytes (%u)", c->l2.line_bytes,
                    c->l1d.line_bytes);
    if (c->sm.icache_sets) {
        if (!require_pow2("sm.icache_sets", c->sm.icache_sets, err, err_len) ||
            !require_pow2("sm.icache_line", c->sm.icache_line, err, err_len))
            return 0;
        if (!c->sm.ibuffer)
            return fail(err, err_len, "sm.icache_sets: an instruction cache needs the fetch stage (sm.ibuffer > 0)");
    }
    if (!check_sectors("l1d", &c->l1d, err, err_len) || !check_sectors("l2", &c->l2, err, err_len))
        return 0;
    if (c->l1d.write != CACHE_WRITE_EVICT)
        return fail(err, err_len,
                    "l1d.write: only 'evict' is modelled for the L1D (global stores evict on hit, bypass on miss)");
    if (c->l2.write != CACHE_WRITE_BACK)
        return fail(err, err_len, "l2.write: only 'back' is modelled for the L2");
    if (c->sm.max_warps * 32 < c->sm.max_threads)
        return fail(err, err_len, "sm.max_threads: %u needs %u warp slots but sm.max_warps is %u", c->sm.max_threads,
                    (c->sm.max_threads + 31) / 32, c->sm.max_warps);
    if (c->sm.n_sched > c->sm.max_warps)
        return fail(err, err_len, "sm.n_sched: %u schedulers for %u warp slots", c->sm.n_sched, c->sm.max_warps);
    if (c->dram.n_banks % c->dram.n_bank_groups)
        return fail(err, err_len, "dram.n_bank_groups: %u does not divide dram.n_banks (%u)", c->dram.n_bank_groups,
                    c->dram.n_banks);
    if (c->l1d.mshr_max_merge < 1 || c->l2.mshr_max_merge < 1)
        return fail(err, err_len, "l1d.mshr_max_merge: must be at least 1");
    return check_cache_memory(c, err, err_len);
}

void config_validate(const Config *c)
{
    char err[512];
    if (!config_check(c, err, sizeof err))
        fatal("%s", err);
}

void config_format_value(const Config *c, const OptModule *m, const OptDesc *d, char *buf, size_t len)
{
    config_format_option((const char *)c + m->offset, d, buf, len);
}

void config_format_option(const void *base, const OptDesc *d, char *buf, size_t len)
{
    const void *f = (const char *)base + d->offset;
    char tmp[64];
    switch (d->type) {
    case OPT_U32: snprintf(buf, len, "%u", *(const uint32_t *)f); break;
    case OPT_U64: snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)f); break;
    case OPT_F64: snprintf(buf, len, "%.17g", *(const double *)f); break;
    case OPT_BOOL: snprintf(buf, len, "%s", *(const uint32_t *)f ? "true" : "false"); break;
    case OPT_ENUM: snprintf(buf, len, "%s", choice_name(d->choices, *(const uint32_t *)f, tmp, sizeof tmp)); break;
    case OPT_STR:
    case OPT_POLICY: snprintf(buf, len, "%s", (const char *)f); break;
    }
}

void config_dump(FILE *f, const Config *c)
{
    char val[CONF_STR_LEN + 32];
    for (size_t i = 0; i < config_n_modules; i++) {
        const OptModule *m = &config_modules[i];
        for (size_t j = 0; j < m->n_opts; j++) {
            config_format_value(c, m, &m->opts[j], val, sizeof val);
            fprintf(f, "%s.%s = %s\n", m->prefix, m->opts[j].name, val);
        }
    }
    for (uint32_t i = 0; i < c->n_ext; i++)
        fprintf(f, "%s = %s\n", c->ext[i].key, c->ext[i].value);
}

void config_dump_json(FILE *f, const Config *c, const char *indent)
{
    char val[CONF_STR_LEN + 32];
    int first = 1;
    for (size_t i = 0; i < config_n_modules; i++) {
        const OptModule *m = &config_modules[i];
        for (size_t j = 0; j < m->n_opts; j++) {
            const OptDesc *d = &m->opts[j];
            config_format_value(c, m, d, val, sizeof val);
            int quoted = d->type == OPT_ENUM || d->type == OPT_STR || d->type == OPT_POLICY;
            fprintf(f, "%s%s\"%s.%s\": %s%s%s", first ? "" : ",\n", indent, m->prefix, d->name,
                    quoted ? "\"" : "", val, quoted ? "\"" : "");
            first = 0;
        }
    }
    /* Owned options are kept as text: numbers are written as JSON numbers when they are. */
    for (uint32_t i = 0; i < c->n_ext; i++) {
        char *end;
        const char *v = c->ext[i].value;
        (void)strtod(v, &end);
        int quoted = !*v || *end;
        fprintf(f, "%s%s\"%s\": %s%s%s", first ? "" : ",\n", indent, c->ext[i].key, quoted ? "\"" : "", v,
                quoted ? "\"" : "");
        first = 0;
    }
    fputc('\n', f);
}

static const char *type_name(const OptDesc *d)
{
    switch (d->type) {
    case OPT_U32:
    case OPT_U64: return "int";
    case OPT_F64: return "real";
    case OPT_BOOL: return "bool";
    case OPT_ENUM: return "enum";
    case OPT_STR: return "string";
    case OPT_POLICY: return "policy";
    }
    return "?";
}

void config_help(FILE *f)
{
    for (size_t i = 0; i < config_n_modules; i++) {
        const OptModule *m = &config_modules[i];
        fprintf(f, "%s.*  %s\n", m->prefix, m->help);
        for (size_t j = 0; j < m->n_opts; j++) {
            const OptDesc *d = &m->opts[j];
            char key[96], range[96] = "";
            snprintf(key, sizeof key, "%s.%s", m->prefix, d->name);
            if (d->type == OPT_U32 || d->type == OPT_U64 || d->type == OPT_F64)
                snprintf(range, sizeof range, " [%g..%g]", d->lo, d->hi);
            else if (d->type == OPT_ENUM)
                snprintf(range, sizeof range, " {%s}", d->choices);
            else if (d->type == OPT_POLICY)
                snprintf(range, sizeof range, " (%s policy, see --list-policies)", d->choices);
            char val[CONF_STR_LEN + 32];
            Config def;
            config_init(&def);
            config_format_value(&def, m, d, val, sizeof val);
            fprintf(f, "  %-24s %-6s default %s%s%s%s\n      %s\n", key, type_name(d), val,
                    *d->unit ? " " : "", d->unit, range, d->help);
        }
    }
}

const char *config_preset_path(const char *name, char *buf, size_t len)
{
    char rel[256];
    snprintf(rel, sizeof rel, "configs/%s.cfg", name);
    return data_path(rel, buf, len);
}
