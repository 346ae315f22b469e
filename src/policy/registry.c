/* registry.c: the policy registry, generated from policies.def.
 *
 * Lookup is by (kind, name) over small static tables; names are unique per kind (a test
 * checks). Also validates the POLICY options of a config and lists policies for the CLI. */
#include "policy/policy.h"

#include "base/base.h"

#include <string.h>

#define KIND_TYPE_index IndexOps
#define KIND_TYPE_repl ReplOps
#define KIND_TYPE_warp WarpSchedOps
#define KIND_TYPE_cta CtaSchedOps
#define KIND_TYPE_dram DramSchedOps
#define POLICY(kind, name) extern const KIND_TYPE_##kind kind##_##name##_ops;
#include "policy/policies.def"
#undef POLICY

typedef struct PolicyEntry {
    PolicyKind kind;
    const char *name;
    const void *ops;
    const char *help;
} PolicyEntry;

#define KIND_ENUM_index POLICY_INDEX
#define KIND_ENUM_repl POLICY_REPL
#define KIND_ENUM_warp POLICY_WARP
#define KIND_ENUM_cta POLICY_CTA
#define KIND_ENUM_dram POLICY_DRAM
static const PolicyEntry entries[] = {
#define POLICY(kind, name) { KIND_ENUM_##kind, #name, &kind##_##name##_ops, NULL },
#include "policy/policies.def"
#undef POLICY
};

static const char *const kind_names[POLICY_KIND_COUNT] = {"index", "repl", "warp", "cta", "dram"};

const char *policy_kind_name(PolicyKind k) { return (unsigned)k < POLICY_KIND_COUNT ? kind_names[k] : "?"; }

const void *policy_find(PolicyKind kind, const char *name)
{
    for (size_t i = 0; i < ARRAY_LEN(entries); i++)
        if (entries[i].kind == kind && !strcmp(entries[i].name, name))
            return entries[i].ops;
    return NULL;
}

const void *policy_find_by_kind_name(const char *kind, const char *name)
{
    for (int k = 0; k < POLICY_KIND_COUNT; k++)
        if (!strcmp(kind_names[k], kind))
            return policy_find((PolicyKind)k, name);
    return NULL;
}

const IndexOps *policy_index(const char *name) { return policy_find(POLICY_INDEX, name); }
const ReplOps *policy_repl(const char *name) { return policy_find(POLICY_REPL, name); }
const WarpSchedOps *policy_warp(const char *name) { return policy_find(POLICY_WARP, name); }
const CtaSchedOps *policy_cta(const char *name) { return policy_find(POLICY_CTA, name); }
const DramSchedOps *policy_dram(const char *name) { return policy_find(POLICY_DRAM, name); }

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
            return entries[i].name;
    return NULL;
}

/* Every ops struct starts with name and help, in that order. */
static const char *entry_help(const PolicyEntry *e) { return ((const char *const *)e->ops)[1]; }

static void names_of(PolicyKind kind, char *buf, size_t len)
{
    buf[0] = 0;
    for (size_t i = 0; i < ARRAY_LEN(entries); i++) {
        if (entries[i].kind != kind)
            continue;
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", used ? ", " : "", entries[i].name);
    }
}

int policy_check_config(Config *c, char *err, size_t err_len)
{
    for (size_t i = 0; i < config_n_modules; i++) {
        const OptModule *m = &config_modules[i];
        for (size_t j = 0; j < m->n_opts; j++) {
            const OptDesc *d = &m->opts[j];
            if (d->type != OPT_POLICY)
                continue;
            const char *name = (const char *)c + m->offset + d->offset;
            if (!policy_find_by_kind_name(d->choices, name)) {
                char all[1024];
                int kind = 0;
                while (kind < POLICY_KIND_COUNT && strcmp(kind_names[kind], d->choices))
                    kind++;
                names_of((PolicyKind)kind, all, sizeof all);
                snprintf(err, err_len, "%s.%s: unknown %s policy '%s' (choose from: %s)", m->prefix, d->name,
                         d->choices, name, all);
                return 0;
            }
        }
    }
    return 1;
}

void policy_validate_config(Config *c)
{
    char err[1536];
    if (!policy_check_config(c, err, sizeof err))
        fatal("%s", err);
}

void policy_list(FILE *f)
{
    for (int k = 0; k < POLICY_KIND_COUNT; k++) {
        fprintf(f, "%s:\n", kind_names[k]);
        for (size_t i = 0; i < ARRAY_LEN(entries); i++)
            if (entries[i].kind == (PolicyKind)k)
                fprintf(f, "  %-12s %s\n", entries[i].name, entry_help(&entries[i]));
    }
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
