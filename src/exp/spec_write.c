/* spec_write.c: a spec written back in canonical form (exp_spec_write, see spec.h): every
 * statement the reader understands, in an order and quoting it reads back to the same spec. */
#include "exp/spec.h"

#include <stdio.h>
#include <string.h>

/* A token as the tokenizer reads it back: quoted when it is empty or holds a blank (carriage
 * return included), a quote, '#' or '\\', with \" and \\ escaped. Written after "key=", the
 * quoted part joins the key's token. Any value without a newline reads back as it was. */
static void put_token(FILE *f, const char *t)
{
    if (*t && !strpbrk(t, " \t\r\"#\\")) {
        fputs(t, f);
        return;
    }
    fputc('"', f);
    for (; *t; t++) {
        if (*t == '"' || *t == '\\')
            fputc('\\', f);
        fputc(*t, f);
    }
    fputc('"', f);
}

/* " key=a,b,c" (nothing for an empty list), each item a token. */
static void put_list(FILE *f, const char *key, const ExpStrList *l)
{
    if (!l->n)
        return;
    fprintf(f, " %s=", key);
    for (uint32_t k = 0; k < l->n; k++) {
        if (k)
            fputc(',', f);
        put_token(f, l->v[k]);
    }
}

void exp_spec_write(FILE *f, const ExpSpec *s)
{
    fprintf(f, "# experiment %s (resolved from ", s->name);
    for (const char *p = s->path ? s->path : "?"; *p; p++)
        fputc(*p == '\n' ? '?' : *p, f); /* a comment ends at the newline */
    fprintf(f, ")\nname %s\n", s->name);
    if (s->preset)
        fprintf(f, "preset %s\n", s->preset);
    if (s->config_path) {
        fputs("config ", f);
        put_token(f, s->config_path);
        fputc('\n', f);
    }
    for (uint32_t i = 0; i < s->base_overrides.n; i++) {
        fputs("set ", f);
        put_token(f, s->base_overrides.v[i]);
        fputc('\n', f);
    }
    for (uint32_t i = 0; i < s->n_workloads; i++) {
        const ExpWorkload *w = &s->workloads[i];
        fprintf(f, "workload %s ", w->name);
        put_token(f, w->path);
        if (w->class_name[0]) {
            fputs(" class=", f);
            put_token(f, w->class_name);
        }
        if (w->args.n) {
            fputs(" --", f);
            for (uint32_t a = 0; a < w->args.n; a++) {
                fputc(' ', f);
                put_token(f, w->args.v[a]);
            }
        }
        fputc('\n', f);
    }
    for (uint32_t i = 0; i < s->n_variants; i++) {
        const ExpVariant *v = &s->variants[i];
        if (exp_variant_derived(v)) {
            fprintf(f, "best %s: of=", v->name);
            for (uint32_t k = 0; k < v->n_best_of; k++)
                fprintf(f, "%s%s", k ? "," : "", s->variants[v->best_of[k]].name);
            fprintf(f, " %s=", v->best_max ? "max" : "min");
            put_token(f, v->best_metric);
            fputc('\n', f);
            continue;
        }
        fprintf(f, "variant %s:", v->name);
        for (uint32_t k = 0; k < v->overrides.n; k++) {
            fputc(' ', f);
            put_token(f, v->overrides.v[k]);
        }
        fputc('\n', f);
    }
    for (uint32_t i = 0; i < s->n_run_overrides; i++) {
        const ExpRunOverride *o = &s->run_overrides[i];
        fprintf(f, "override %s %s:", s->workloads[o->workload].name, s->variants[o->variant].name);
        for (uint32_t k = 0; k < o->overrides.n; k++) {
            fputc(' ', f);
            put_token(f, o->overrides.v[k]);
        }
        fputc('\n', f);
    }
    fprintf(f, "baseline %s\n", s->variants[s->baseline].name);
    for (uint32_t i = 0; i < s->n_figures; i++) {
        const ExpFigure *g = &s->figures[i];
        fprintf(f, "figure %s: kind=%s", g->name, exp_figure_kind_name(g->kind));
        put_list(f, "metric", &g->metrics);
        fprintf(f, " norm=%s group=%s geomean=%s", exp_norm_name(g->norm),
                g->group_by_variant ? "variant" : "workload", g->geomean ? "yes" : "no");
        put_list(f, "variants", &g->variants);
        put_list(f, "labels", &g->labels);
        put_list(f, "baseline", &g->baselines);
        if (g->class_name) {
            fputs(" class=", f);
            put_token(f, g->class_name);
        }
        if (g->title) {
            fputs(" title=", f);
            put_token(f, g->title);
        }
        if (g->ylabel) {
            fputs(" ylabel=", f);
            put_token(f, g->ylabel);
        }
        fputc('\n', f);
    }
}
