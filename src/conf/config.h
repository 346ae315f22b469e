/* config.h: the whole configuration of one simulation, declared once.
 *
 * Each module's options are lines of a .def file in this folder (type, name, default, range,
 * choices, unit, help). The lines expand here into the module's config struct and, in
 * config.c, into the descriptor table that drives parsing, validation, `--help-config` and the
 * resolved-config dump written into every result file. Keys are `<module>.<name>`
 * (`l1d.index = fup`). Module structs are plain values: a Config can be copied. */
#ifndef WARPSIM_CONFIG_H
#define WARPSIM_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CONF_STR_LEN 128
#define CONF_NAME_LEN 32

#define OPT_FIELD_U32(n) uint32_t n;
#define OPT_FIELD_U64(n) uint64_t n;
#define OPT_FIELD_F64(n) double n;
#define OPT_FIELD_BOOL(n) uint32_t n;
#define OPT_FIELD_ENUM(n) uint32_t n; /* index into the option's choices */
#define OPT_FIELD_STR(n) char n[CONF_STR_LEN];
#define OPT_FIELD_POLICY(n) char n[CONF_NAME_LEN];
#define OPT(type, name, def, lo, hi, choices, unit, help) OPT_FIELD_##type(name)

typedef struct GpuConfig {
#include "conf/gpu.def"
} GpuConfig;
typedef struct SmConfig {
#include "conf/sm.def"
} SmConfig;
typedef struct AluConfig {
#include "conf/alu.def"
} AluConfig;
typedef struct CacheConfig {
#include "conf/cache.def"
} CacheConfig;
typedef struct SmemConfig {
#include "conf/smem.def"
} SmemConfig;
typedef struct IcntConfig {
#include "conf/icnt.def"
} IcntConfig;
typedef struct MemConfig {
#include "conf/mem.def"
} MemConfig;
typedef struct DramConfig {
#include "conf/dram.def"
} DramConfig;
#undef OPT

enum { CACHE_ALLOC_MISS, CACHE_ALLOC_FILL };
enum { SM_L1D_DIRECT, SM_L1D_QUEUED }; /* sm.l1d_access */
enum { CACHE_WRITE_EVICT, CACHE_WRITE_BACK };

/* An option owned by a policy or component (`sm.sched.swl.limit`): the config keeps its text;
 * the policy registry validates it against the owner's declaration and parses it. */
#define CONF_EXT_MAX 48
#define CONF_KEY_LEN 64
typedef struct ConfigExt {
    char key[CONF_KEY_LEN];
    char value[CONF_STR_LEN];
    char where[96]; /* file:line or -o that set it ("" for a resolved default) */
} ConfigExt;

typedef struct Config {
    GpuConfig gpu;
    SmConfig sm;
    AluConfig alu;
    CacheConfig l1d;
    CacheConfig l2;
    SmemConfig smem;
    IcntConfig icnt;
    MemConfig mem;
    DramConfig dram;
    uint32_t n_ext;
    ConfigExt ext[CONF_EXT_MAX]; /* sorted by key once resolved */
} Config;

typedef enum OptType { OPT_U32, OPT_U64, OPT_F64, OPT_BOOL, OPT_ENUM, OPT_STR, OPT_POLICY } OptType;

typedef struct OptDesc {
    const char *name; /* within the module: "n_sets" */
    OptType type;
    size_t offset; /* within the module struct */
    const char *def;
    double lo, hi;       /* numeric range, inclusive */
    const char *choices; /* ENUM: "a|b|c"; POLICY: the policy kind */
    const char *unit;
    const char *help;
} OptDesc;

typedef struct OptModule {
    const char *prefix; /* "l1d" */
    const char *help;
    const OptDesc *opts;
    size_t n_opts;
    size_t offset; /* of the module struct within Config */
} OptModule;

/* Every module, in dump order. */
extern const OptModule config_modules[];
extern const size_t config_n_modules;

/* Defaults of every option. */
void config_init(Config *c);

/* Find a key ("l1d.n_sets"); NULL if unknown. */
const OptDesc *config_find(const char *key, const OptModule **mod_out);

/* Set one key from text. On error returns 0 and writes a one-line message (naming the key and
 * what was expected) into err. */
int config_set(Config *c, const char *key, const char *value, char *err, size_t err_len);

/* Policy- and component-owned options: a key `<module>.<option>.<rest>` whose
 * `<module>.<option>` is a known option is kept as text for the policy registry to check.
 * config_ext_find: the entry of a key, or NULL. config_ext_put: set (or replace) one; 0 with a
 * message when the table is full or the key too long. */
const ConfigExt *config_ext_find(const Config *c, const char *key);
int config_ext_put(Config *c, const char *key, const char *value, const char *where, char *err, size_t err_len);
void config_ext_sort(Config *c);

/* Parse `value` for option d into the struct at base (d->offset within it); 0 with a message
 * naming `key` on error. What config_set does for the module options. */
int config_parse_option(void *base, const OptDesc *d, const char *key, const char *value, char *err,
                        size_t err_len);
/* Format an option's value from the struct at base. */
void config_format_option(const void *base, const OptDesc *d, char *buf, size_t len);

/* Same, but exits with "warpsim: <where>: <message>" on error. */
void config_set_or_die(Config *c, const char *key, const char *value, const char *where);

/* Read a `key = value` file: '#' comments, dotted keys, `include other.cfg` (relative to the
 * including file). Returns 1, or 0 with a one-line message naming the file and line
 * ("<file>:<line>: <key>: <what was expected>") in err; c may then be partly updated. */
int config_load_file_err(Config *c, const char *path, char *err, size_t err_len);
/* Same, but exits with "warpsim: <message>" on error. */
void config_load_file(Config *c, const char *path);

/* Apply "key=value" (from -o). Returns 1, or 0 with "-o <key=value>: <message>" in err. */
int config_apply_override_err(Config *c, const char *kv, char *err, size_t err_len);
/* Same, but exits on error. */
void config_apply_override(Config *c, const char *kv);

/* Checks across options (power-of-two sizes, ...). Returns 1, or 0 with a message naming the
 * key in err. Policy names are checked against the registry by policy_check_config
 * (policy/policy.h). */
int config_check(const Config *c, char *err, size_t err_len);
/* Same, but exits on error. */
void config_validate(const Config *c);

/* Format one option's current value. */
void config_format_value(const Config *c, const OptModule *m, const OptDesc *d, char *buf, size_t len);

/* `key = value` lines of every option: the resolved configuration. */
void config_dump(FILE *f, const Config *c);
/* Same as a JSON object body (no braces), one "key": value per line with the given indent. */
void config_dump_json(FILE *f, const Config *c, const char *indent);
/* Every option with type, default, range and help. */
void config_help(FILE *f);

/* Path of a preset ("gtx480" -> configs/gtx480.cfg under $WARPSIM_HOME or the source tree). */
const char *config_preset_path(const char *name, char *buf, size_t len);

#endif
