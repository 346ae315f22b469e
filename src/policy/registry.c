/* registry.c: the policy registry, generated from policies.def.
 *
 * Lookup is by (kind, name) over small static tables; names are unique per kind (a test
 * checks). Also resolves and validates the policy-owned options of a config (keys
 * `<owner>.<policy>.<option>`, see policy.h), builds the contexts policies are created with,
 * and lists policies and their options for the CLI. */
#include "policy/policy.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

#define KIND_TYPE_index IndexOps
#define KIND_TYPE_repl ReplOps
#define KIND_TYPE_warp WarpSchedOps
#define KIND_TYPE_cta CtaSchedOps
#define KIND_TYPE_dram DramSchedOps
#define KIND_TYPE_mpath MpathOps
#define POLICY(kind, name) extern const KIND_TYPE_##kind kind##_##name##_ops;
#include "policy/policies.def"
#undef POLICY

typedef struct PolicyEntry {
    PolicyKind kind;
    const void *ops;
    const PolicyMeta *meta;
} PolicyEntry;

#define KIND_ENUM_index POLICY_INDEX
#define KIND_ENUM_repl POLICY_REPL
#define KIND_ENUM_warp POLICY_WARP
#define KIND_ENUM_cta POLICY_CTA
#define KIND_ENUM_dram POLICY_DRAM
#define KIND_ENUM_mpath POLICY_MPATH
static const PolicyEntry entries[] = {
#define POLICY(kind, name) { KIND_ENUM_##kind, &kind##_##name##_ops, &kind##_##name##_ops.meta },
#include "policy/policies.def"
#undef POLICY
};

static const char *const kind_names[POLICY_KIND_COUNT] = {"index", "repl", "warp", "cta", "dram", "mpath"};

/* Miss-path components hang off the L1D: their options are `l1d.<name>.*`, and the option
 * `l1d.<name>` (a cache option) sizes or enables them. */
#define MPATH_OWNER "l1d"

const char *policy_kind_name(PolicyKind k) { return (unsigned)k < POLICY_KIND_COUNT ? kind_names[k] : "?"; }

static const PolicyEntry *find_entry(PolicyKind kind, const char *name)
{
    for (size_t i = 0; i < ARRAY_LEN(entries); i++)
        if (entries[i].kind == kind && !strcmp(entries[i].meta->name, name))
            return &entries[i];
    return NULL;
}

const void *policy_find(PolicyKind kind, const char *name)
{
    const PolicyEntry *e = find_entry(kind, name);
    return e ? e->ops : NULL;
}

static int kind_of(const char *kind)
{
    for (int k = 0; k < POLICY_KIND_COUNT; k++)
        if (!strcmp(kind_names[k], kind))
            return k;
    return -1;
}

const void *policy_find_by_kind_name(const char *kind, const char *name)
{
    int k = kind_of(kind);
    return k < 0 ? NULL : policy_find((PolicyKind)k, name);
}

const PolicyMeta *policy_meta(PolicyKind kind, const char *name)
{
    const PolicyEntry *e = find_entry(kind, name);
    return e ? e->meta : NULL;
}

const IndexOps *policy_index(const char *name) { return policy_find(POLICY_INDEX, name); }
const ReplOps *policy_repl(const char *name) { return policy_find(POLICY_REPL, name); }
const WarpSchedOps *policy_warp(const char *name) { return policy_find(POLICY_WARP, name); }
const CtaSchedOps *policy_cta(const char *name) { return policy_find(POLICY_CTA, name); }
const DramSchedOps *policy_dram(const char *name) { return policy_find(POLICY_DRAM, name); }
const MpathOps *policy_mpath(const char *name) { return policy_find(POLICY_MPATH, name); }

uint32_t policy_count(PolicyKind kind)
{
    uint32_t n = 0;
    for (size_t i = 0; i < ARRAY_LEN(entries); i++)
        n += entries[i].kind == kind;
    return n;
}

const char *policy_name_at(PolicyKind kind, uint32_t idx)
{
    for (size_t i = 0; i < ARRAY_LEN(entries); i++)
        if (entries[i].kind == kind && idx-- == 0)
            return entries[i].meta->name;
    return NULL;
}

static void names_of(PolicyKind kind, char *buf, size_t len)
{
    buf[0] = 0;
    for (size_t i = 0; i < ARRAY_LEN(entries); i++) {
        if (entries[i].kind != kind)
            continue;
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", used ? ", " : "", entries[i].meta->name);
    }
}

static const OptDesc *meta_opt(const PolicyMeta *m, const char *name)
{
    for (uint32_t i = 0; i < m->n_opts; i++)
        if (!strcmp(m->opts[i].name, name))
            return &m->opts[i];
    return NULL;
}

/* ---- policy-owned options ---------------------------------------------------------------- */

/* The policy or component an owned key belongs to: "sm.sched.swl.limit" -> warp policy swl,
 * option "limit"; "l1d.victim.lat" -> component victim, option "lat". NULL with a message. */
static const PolicyMeta *owner_of(const char *key, const char **opt_out, char *err, size_t err_len)
{
    char buf[CONF_KEY_LEN];
    snprintf(buf, sizeof buf, "%s", key);
    char *d1 = strchr(buf, '.'), *d2 = d1 ? strchr(d1 + 1, '.') : NULL;
    if (!d2) {
        snprintf(err, err_len, "unknown key '%s'", key);
        return NULL;
    }
    *d2 = 0;
    const OptModule *mod;
    const OptDesc *owner = config_find(buf, &mod);
    const PolicyMeta *meta = NULL;
    const char *opt;
    if (owner && owner->type == OPT_POLICY) { /* <module>.<option>.<policy>.<opt> */
        char *d3 = strchr(d2 + 1, '.');
        if (!d3) {
            snprintf(err, err_len, "unknown key '%s' (expected %s.<policy>.<option>)", key, buf);
            return NULL;
        }
        *d3 = 0;
        meta = policy_meta((PolicyKind)kind_of(owner->choices), d2 + 1);
        if (!meta) {
            char all[1024];
            names_of((PolicyKind)kind_of(owner->choices), all, sizeof all);
            snprintf(err, err_len, "%s: no %s policy '%s' (choose from: %s)", key, owner->choices, d2 + 1, all);
            return NULL;
        }
        opt = key + (d3 + 1 - buf);
    } else { /* <module>.<component>.<opt> */
        if (!strncmp(buf, MPATH_OWNER ".", sizeof MPATH_OWNER))
            meta = policy_meta(POLICY_MPATH, d1 + 1);
        if (!meta) {
            snprintf(err, err_len, "unknown key '%s' (%s has no options of its own)", key, buf);
            return NULL;
        }
        opt = key + (d2 + 1 - buf);
    }
    if (!meta_opt(meta, opt)) {
        char all[512] = "";
        for (uint32_t i = 0; i < meta->n_opts; i++)
            snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? ", " : "", meta->opts[i].name);
        snprintf(err, err_len, "unknown key '%s' (%s's options: %s)", key, meta->name, *all ? all : "none");
        return NULL;
    }
    *opt_out = opt;
    return meta;
}

/* Add the defaults of a chosen policy's options that the config does not set. */
static int add_defaults(Config *c, const PolicyMeta *meta, const char *owner_key, char *err, size_t err_len)
{
    for (uint32_t i = 0; i < meta->n_opts; i++) {
        char key[CONF_KEY_LEN];
        snprintf(key, sizeof key, "%s.%s.%s", owner_key, meta->name, meta->opts[i].name);
        if (!config_ext_find(c, key) && !config_ext_put(c, key, meta->opts[i].def, "", err, err_len))
            return 0;
    }
    return 1;
}

static int check_names(Config *c, char *err, size_t err_len)
{
    for (size_t i = 0; i < config_n_modules; i++) {
        const OptModule *m = &config_modules[i];
        for (size_t j = 0; j < m->n_opts; j++) {
            const OptDesc *d = &m->opts[j];
            if (d->type != OPT_POLICY)
                continue;
            const char *name = (const char *)c + m->offset + d->offset;
            const PolicyMeta *meta = policy_meta((PolicyKind)kind_of(d->choices), name);
            if (!meta) {
                char all[1024];
                names_of((PolicyKind)kind_of(d->choices), all, sizeof all);
                snprintf(err, err_len, "%s.%s: unknown %s policy '%s' (choose from: %s)", m->prefix, d->name,
                         d->choices, name, all);
                return 0;
            }
            char owner[CONF_KEY_LEN];
            snprintf(owner, sizeof owner, "%s.%s", m->prefix, d->name);
            if (!add_defaults(c, meta, owner, err, err_len))
                return 0;
        }
    }
    for (size_t i = 0; i < ARRAY_LEN(entries); i++) {
        const MpathOps *mp = entries[i].ops;
        if (entries[i].kind == POLICY_MPATH && policy_mpath_enabled(mp, c) && !add_defaults(c, &mp->meta, MPATH_OWNER, err, err_len))
            return 0;
    }
    return 1;
}

int policy_check_config(Config *c, char *err, size_t err_len)
{
    if (c->l2.victim) {
        snprintf(err, err_len, "l2.victim: miss-path components attach to the L1D only (must be 0)");
        return 0;
    }
    if (c->l2.linebacker) {
        snprintf(err, err_len, "l2.linebacker: miss-path components attach to the L1D only (must be off)");
        return 0;
    }
    if (c->l2.cerf) {
        snprintf(err, err_len, "l2.cerf: miss-path components attach to the L1D only (must be false)");
        return 0;
    }
    if (c->l1d.cerf && c->l1d.linebacker) {
        snprintf(err, err_len, "l1d.cerf: CERF and l1d.linebacker both keep lines in the idle registers; choose one");
        return 0;
    }
    if ((c->l1d.linebacker || c->l1d.cerf) && c->l1d.line_bytes != 128) {
        snprintf(err, err_len,
                 "%s: a line in the register file fills one 128-byte warp register, so l1d.line_bytes must be 128 "
                 "(it is %u)",
                 c->l1d.linebacker ? "l1d.linebacker" : "l1d.cerf", c->l1d.line_bytes);
        return 0;
    }
    for (uint32_t i = 0; i < policy_count(POLICY_MPATH) && c->l1d.sector_bytes; i++) {
        const char *name = policy_name_at(POLICY_MPATH, i);
        if (policy_mpath_enabled(policy_mpath(name), c)) {
            snprintf(err, err_len,
                     "l1d.sector_bytes: the miss-path component '%s' holds whole lines; it is not modelled with a "
                     "sectored L1D",
                     name);
            return 0;
        }
    }
    for (uint32_t i = 0; i < c->n_ext; i++) {
        const ConfigExt *e = &c->ext[i];
        const char *opt;
        char msg[1024];
        const PolicyMeta *meta = owner_of(e->key, &opt, msg, sizeof msg);
        void *tmp = meta ? xcalloc(1, meta->opts_size ? meta->opts_size : 1) : NULL;
        int ok = meta && config_parse_option(tmp, meta_opt(meta, opt), e->key, e->value, msg, sizeof msg);
        free(tmp);
        if (!ok) {
            snprintf(err, err_len, "%s%s%s", e->where, *e->where ? ": " : "", msg);
            return 0;
        }
    }
    if (!check_names(c, err, err_len))
        return 0;
    config_ext_sort(c);
    return 1;
}

void policy_validate_config(Config *c)
{
    char err[1536];
    if (!policy_check_config(c, err, sizeof err))
        fatal("%s", err);
}

/* ---- contexts ----------------------------------------------------------------------------- */

void policy_ctx_init(PolicyCtx *ctx, const PolicyMeta *meta, const char *owner_key, const Config *cfg, Stats *st,
                     const char *stat_prefix, uint32_t sm, uint32_t index)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->cfg = cfg;
    ctx->stats = st;
    snprintf(ctx->stat_prefix, sizeof ctx->stat_prefix, "%s", stat_prefix ? stat_prefix : "");
    ctx->sm = sm;
    ctx->index = index;
    /* splitmix64 of the run's seed, the SM and the index: independent streams per instance */
    uint64_t z = (cfg ? cfg->gpu.seed : 1) + 0x9E3779B97F4A7C15ull * ((uint64_t)sm << 16 | index | 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    ctx->seed = z ^ (z >> 31);
    void *opts = xcalloc(1, meta->opts_size ? meta->opts_size : 1);
    for (uint32_t i = 0; i < meta->n_opts; i++) {
        const OptDesc *d = &meta->opts[i];
        char key[CONF_KEY_LEN], err[512];
        snprintf(key, sizeof key, "%s.%s.%s", owner_key, meta->name, d->name);
        const ConfigExt *e = cfg ? config_ext_find(cfg, key) : NULL;
        if (!config_parse_option(opts, d, key, e ? e->value : d->def, err, sizeof err))
            check_failed(err, __FILE__, __LINE__); /* the config was checked */
    }
    ctx->opts = ctx->opts_storage = opts;
}

void policy_ctx_free(PolicyCtx *ctx)
{
    free(ctx->opts_storage);
    ctx->opts = ctx->opts_storage = NULL;
}

void policy_stat_counter(const PolicyCtx *ctx, uint64_t *counter, const char *name, const char *help)
{
    if (ctx->stats)
        stats_counter(ctx->stats, counter, "%s.%s", help, ctx->stat_prefix, name);
}

void policy_stat_histogram(const PolicyCtx *ctx, uint64_t *buckets, uint32_t n, const char *const *labels,
                           const char *name, const char *help)
{
    if (!ctx->stats)
        return;
    char full[80];
    snprintf(full, sizeof full, "%s.%s", ctx->stat_prefix, name);
    stats_histogram(ctx->stats, buckets, n, labels, full, help);
}

void policy_stat_series(const PolicyCtx *ctx, PolicySeries *s, const char *name, const char *help)
{
    s->stats = NULL;
    if (!ctx->stats || !ctx->stats->series_period)
        return;
    char full[64];
    snprintf(full, sizeof full, "%s.%s", ctx->stat_prefix, name);
    s->stats = ctx->stats;
    s->id = stats_series(ctx->stats, full, help);
}

void policy_series_push(const PolicySeries *s, double value)
{
    if (s->stats)
        stats_series_push(s->stats, s->id, value);
}

bool policy_mpath_enabled(const MpathOps *ops, const Config *c)
{
    if (ops->enabled && ops->enabled(c))
        return true;
    const WarpSchedOps *w = policy_warp(c->sm.sched);
    return w && w->steers && !strcmp(w->steers, ops->meta.name);
}

/* ---- listing ------------------------------------------------------------------------------ */

/* Owner keys of a kind's policies: "sm.sched" for warp, "l1d.repl, l2.repl" for repl. */
static void owners_of(PolicyKind kind, char *buf, size_t len)
{
    buf[0] = 0;
    if (kind == POLICY_MPATH) {
        snprintf(buf, len, "%s", MPATH_OWNER);
        return;
    }
    for (size_t i = 0; i < config_n_modules; i++)
        for (size_t j = 0; j < config_modules[i].n_opts; j++) {
            const OptDesc *d = &config_modules[i].opts[j];
            if (d->type == OPT_POLICY && kind_of(d->choices) == (int)kind)
                snprintf(buf + strlen(buf), len - strlen(buf), "%s%s.%s", *buf ? "|" : "", config_modules[i].prefix,
                         d->name);
        }
}

static void list_options(FILE *f, const PolicyEntry *e, const char *indent)
{
    char owners[256];
    owners_of(e->kind, owners, sizeof owners);
    for (uint32_t i = 0; i < e->meta->n_opts; i++) {
        const OptDesc *d = &e->meta->opts[i];
        char range[96] = "";
        if (d->type == OPT_U32 || d->type == OPT_U64 || d->type == OPT_F64)
            snprintf(range, sizeof range, " [%g..%g]", d->lo, d->hi);
        else if (d->type == OPT_ENUM)
            snprintf(range, sizeof range, " {%s}", d->choices);
        bool many = strchr(owners, '|') != NULL;
        fprintf(f, "%s%s%s%s.%s.%s  default %s%s%s%s\n%s    %s\n", indent, many ? "{" : "", owners, many ? "}" : "",
                e->meta->name, d->name, d->def, *d->unit ? " " : "", d->unit, range, indent, d->help);
    }
}

void policy_list(FILE *f)
{
    for (int k = 0; k < POLICY_KIND_COUNT; k++) {
        fprintf(f, "%s:\n", kind_names[k]);
        for (size_t i = 0; i < ARRAY_LEN(entries); i++)
            if (entries[i].kind == (PolicyKind)k) {
                fprintf(f, "  %-12s %s\n", entries[i].meta->name, entries[i].meta->help);
                list_options(f, &entries[i], "      ");
            }
    }
}

void policy_help_options(FILE *f)
{
    fprintf(f, "policy and component options (set with the key shown; see --list-policies)\n");
    for (size_t i = 0; i < ARRAY_LEN(entries); i++)
        list_options(f, &entries[i], "  ");
}

void index_fn_init(IndexFn *fn, const IndexOps *ops, uint32_t n_sets, uint32_t line_bytes)
{
    CHECK(is_pow2_u64(n_sets) && is_pow2_u64(line_bytes));
    memset(fn, 0, sizeof *fn);
    fn->ops = ops;
    fn->n_sets = n_sets;
    fn->line_bytes = line_bytes;
    fn->set_bits = log2_u64(n_sets);
    fn->line_bits = log2_u64(line_bytes);
    if (ops->init)
        ops->init(fn);
}

uint64_t index_prime_at_most(uint64_t n)
{
    for (; n > 1; n--) {
        bool prime = true;
        for (uint64_t d = 2; d * d <= n && prime; d++)
            prime = n % d != 0;
        if (prime)
            return n;
    }
    return 1;
}
