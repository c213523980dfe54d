// SPDX-License-Identifier: LGPL-2.1
/*
 * --compare BASE.dat: per-ring deltas between a base trace and the analysed
 * one(s), in text, JSON or CSV. Rings are matched by (device, ring name); a
 * ring present on one side only is listed with "-" on the other.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "gpu-latency.h"
#include "gl-table.h"

static const enum gpulat_metric cmp_metrics[] = {
	GPULAT_M_WAIT, GPULAT_M_HW_QUEUE, GPULAT_M_EXEC, GPULAT_M_TOTAL, GPULAT_M_DEP_WAIT,
};
#define NMETRICS	(sizeof(cmp_metrics) / sizeof(cmp_metrics[0]))

static const char * const cmp_stats[] = { "p50", "p90", "p99", "max" };
#define NSTATS		(sizeof(cmp_stats) / sizeof(cmp_stats[0]))

/* summary field cmp_stats[k] of the report model (a summary with values) */
static uint64_t stat_of(const struct gpulat_summary *s, size_t k)
{
	const struct gpulat_field *f = gpulat_field_find(GPULAT_ROW_SUMMARY, cmp_stats[k]);
	struct gpulat_value v = { .sz = sizeof(v) };

	gpulat_field_get(f, s, &v);
	return v.type == GPULAT_V_U64 ? v.u : 0;
}

/* a ring pair: base and current, either may be NULL */
struct pair {
	const struct gpulat_group *b;
	const struct gpulat_group *c;
	bool by_name; /* matched by name: one side has no device */
};

/* current rings in their order, then the base-only rings */
static struct pair *pairs(const struct gl_run *base, const struct gl_run *cur, size_t *np)
{
	size_t nb = gpulat_stats_ngroups(base->stats, GPULAT_G_RING);
	size_t nc = gpulat_stats_ngroups(cur->stats, GPULAT_G_RING);
	struct pair *p = calloc(nb + nc + 1, sizeof(*p));
	size_t i, n = 0;

	if (!p)
		return NULL;
	for (i = 0; i < nc; i++) {
		p[n].c = gpulat_stats_group(cur->stats, GPULAT_G_RING, i);
		p[n].b = gl_find_ring(base, p[n].c, &p[n].by_name);
		n++;
	}
	for (i = 0; i < nb; i++) {
		const struct gpulat_group *b = gpulat_stats_group(base->stats, GPULAT_G_RING, i);

		if (!gl_find_ring(cur, b, NULL)) {
			p[n].b = b;
			n++;
		}
	}
	*np = n;
	return p;
}

/* "+12.5%", or "25x" once the current value is ten times the base or more */
static const char *delta_pct(char *buf, size_t len, double b, double c)
{
	if (b == 0.0)
		snprintf(buf, len, c == 0.0 ? "0%%" : "new");
	else if (c >= 10.0 * b)
		snprintf(buf, len, "%.0fx", c / b);
	else
		snprintf(buf, len, "%+.1f%%", 100.0 * (c - b) / b);
	return buf;
}

static const char *sdur(char *buf, size_t len, const struct gpulat_summary *s, size_t k)
{
	if (!s || !s->n)
		return "-";
	return gl_fmt_dur(buf, len, stat_of(s, k));
}

static int text_compare(const struct gl_run *base, const struct gl_run *cur,
			const struct pair *p, size_t n, FILE *out)
{
	static const char * const h1[] = {
		"ring", "jobs base", "jobs", "delta", "busy% base", "busy%", "max depth base",
		"max depth",
	};
	static const char * const h2[] = {
		"ring", "stage", "p50 base", "p50", "delta", "p90 base", "p90", "delta",
		"p99 base", "p99", "delta", "max base", "max", "delta",
	};
	struct gl_table t1, t2;
	char a[4096], b[32];
	size_t i, m, k;
	int ret;

	fprintf(out, "%s: compare\n", GL_NAME);
	fprintf(out, "  %-8s %s (%s, %llu jobs)\n", "base", gl_run_label(base, a, sizeof(a)),
		gpulat_era_name(base->c.era), (unsigned long long)base->c.jobs);
	fprintf(out, "  %-8s %s (%s, %llu jobs)\n", "current", gl_run_label(cur, a, sizeof(a)),
		gpulat_era_name(cur->c.era), (unsigned long long)cur->c.jobs);
	for (i = 0; i < n; i++) {
		if (!p[i].by_name)
			continue;
		/* 6.16 -> 6.17: say that the device was not part of the match */
		fprintf(out,
			"  %-8s rings matched by name: the %s trace's events carry no "
			"device (kernels before 6.17)\n",
			"note", p[i].b->dev && *p[i].b->dev ? "current" : "base");
		break;
	}

	gl_table_init(&t1, "lrrrrrrr", h1);
	gl_table_init(&t2, "llrrrrrrrrrrrr", h2);
	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = p[i].c ? p[i].c : p[i].b;
		char name[256];

		gl_ring_label(p[i].c ? cur : base, g->file, g->dev, g->ring, name, sizeof(name));
		gl_table_cell(&t1, "%s", name);
		if (p[i].b)
			gl_table_cell(&t1, "%llu", (unsigned long long)p[i].b->jobs);
		else
			gl_table_cell(&t1, "-");
		if (p[i].c)
			gl_table_cell(&t1, "%llu", (unsigned long long)p[i].c->jobs);
		else
			gl_table_cell(&t1, "-");
		gl_table_cell(&t1, "%s", p[i].b && p[i].c ? delta_pct(b, sizeof(b),
			      (double)p[i].b->jobs, (double)p[i].c->jobs) : "-");
		if (p[i].b)
			gl_table_cell(&t1, "%.1f%%", p[i].b->busy_pct);
		else
			gl_table_cell(&t1, "-");
		if (p[i].c)
			gl_table_cell(&t1, "%.1f%%", p[i].c->busy_pct);
		else
			gl_table_cell(&t1, "-");
		if (p[i].b)
			gl_table_cell(&t1, "%u", p[i].b->max_depth);
		else
			gl_table_cell(&t1, "-");
		if (p[i].c)
			gl_table_cell(&t1, "%u", p[i].c->max_depth);
		else
			gl_table_cell(&t1, "-");

		for (m = 0; m < NMETRICS; m++) {
			const struct gpulat_summary *sb = p[i].b ? &p[i].b->m[cmp_metrics[m]] : NULL;
			const struct gpulat_summary *sc = p[i].c ? &p[i].c->m[cmp_metrics[m]] : NULL;

			if ((!sb || !sb->n) && (!sc || !sc->n))
				continue;
			if (cmp_metrics[m] == GPULAT_M_DEP_WAIT &&
			    (!sb || !sb->max) && (!sc || !sc->max))
				continue;
			gl_table_cell(&t2, "%s", m ? "" : name);
			gl_table_cell(&t2, "%s", gpulat_metric_name(cmp_metrics[m]));
			for (k = 0; k < NSTATS; k++) {
				gl_table_cell(&t2, "%s", sdur(a, sizeof(a), sb, k));
				gl_table_cell(&t2, "%s", sdur(a, sizeof(a), sc, k));
				gl_table_cell(&t2, "%s", sb && sc && sb->n && sc->n ?
					      delta_pct(b, sizeof(b), (double)stat_of(sb, k),
							(double)stat_of(sc, k)) : "-");
			}
		}
	}
	fprintf(out, "\nRings\n");
	ret = gl_table_print(&t1, out, "  ");
	if (!ret) {
		fprintf(out, "\nRing latency, base -> current (delta = change of current "
			"against base)\n");
		ret = gl_table_print(&t2, out, "  ");
	}
	gl_table_free(&t1);
	gl_table_free(&t2);
	return ret;
}

static struct json_object *jstat(const struct gpulat_summary *sb, const struct gpulat_summary *sc,
				 size_t k)
{
	struct json_object *o = json_object_new_object();
	bool hb = sb && sb->n, hc = sc && sc->n;
	uint64_t b = hb ? stat_of(sb, k) : 0, c = hc ? stat_of(sc, k) : 0;

	json_object_object_add(o, "base", hb ? json_object_new_uint64(b) : NULL);
	json_object_object_add(o, "current", hc ? json_object_new_uint64(c) : NULL);
	json_object_object_add(o, "delta", hb && hc ? json_object_new_int64((int64_t)(c - b)) :
			       NULL);
	json_object_object_add(o, "delta_pct", hb && hc && b ?
			       json_object_new_double(100.0 * ((double)c - (double)b) / (double)b) :
			       NULL);
	return o;
}

static int json_compare(const struct gl_run *base, const struct gl_run *cur,
			const struct pair *p, size_t n, FILE *out)
{
	struct json_object *o = json_object_new_object();
	struct json_object *rings = json_object_new_array();
	size_t i, m, k;
	int ret;

	json_object_object_add(o, "base", gl_json_run(base));
	json_object_object_add(o, "current", gl_json_run(cur));
	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = p[i].c ? p[i].c : p[i].b;
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "dev", json_object_new_string(g->dev ? g->dev : ""));
		json_object_object_add(r, "ring", json_object_new_string(g->ring ? g->ring : ""));
		/* only across 6.16 -> 6.17: one side's ring has no device */
		if (p[i].by_name)
			json_object_object_add(r, "matched_by_name", json_object_new_boolean(1));
		json_object_object_add(r, "jobs_base", p[i].b ?
				       json_object_new_uint64(p[i].b->jobs) : NULL);
		json_object_object_add(r, "jobs", p[i].c ?
				       json_object_new_uint64(p[i].c->jobs) : NULL);
		json_object_object_add(r, "busy_pct_base", p[i].b ?
				       json_object_new_double(p[i].b->busy_pct) : NULL);
		json_object_object_add(r, "busy_pct", p[i].c ?
				       json_object_new_double(p[i].c->busy_pct) : NULL);
		for (m = 0; m < NMETRICS; m++) {
			const struct gpulat_summary *sb = p[i].b ? &p[i].b->m[cmp_metrics[m]] : NULL;
			const struct gpulat_summary *sc = p[i].c ? &p[i].c->m[cmp_metrics[m]] : NULL;
			struct json_object *jm = json_object_new_object();

			for (k = 0; k < NSTATS; k++)
				json_object_object_add(jm, cmp_stats[k], jstat(sb, sc, k));
			json_object_object_add(r, gpulat_metric_name(cmp_metrics[m]), jm);
		}
		json_object_array_add(rings, r);
	}
	json_object_object_add(o, "rings", rings);
	ret = gl_json_print(NULL, o, out);
	json_object_put(o);
	return ret;
}

static int csv_compare(const struct pair *p, size_t n, FILE *out)
{
	size_t i, m, k;

	fputs("dev,ring,metric,stat,base,current,delta,delta_pct\n", out);
	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = p[i].c ? p[i].c : p[i].b;

		for (m = 0; m < NMETRICS; m++) {
			const struct gpulat_summary *sb = p[i].b ? &p[i].b->m[cmp_metrics[m]] : NULL;
			const struct gpulat_summary *sc = p[i].c ? &p[i].c->m[cmp_metrics[m]] : NULL;
			bool hb = sb && sb->n, hc = sc && sc->n;

			for (k = 0; k < NSTATS; k++) {
				uint64_t b = hb ? stat_of(sb, k) : 0, c = hc ? stat_of(sc, k) : 0;

				gl_csv_str(out, g->dev);
				fputc(',', out);
				gl_csv_str(out, g->ring);
				fprintf(out, ",%s,%s,", gpulat_metric_name(cmp_metrics[m]),
					cmp_stats[k]);
				gl_csv_u64(out, hb ? b : GPULAT_NONE);
				fputc(',', out);
				gl_csv_u64(out, hc ? c : GPULAT_NONE);
				fputc(',', out);
				if (hb && hc)
					fprintf(out, "%lld", (long long)(c - b));
				fputc(',', out);
				if (hb && hc && b)
					fprintf(out, "%.3f", 100.0 * ((double)c - (double)b) / (double)b);
				fputc('\n', out);
			}
		}
	}
	return 0;
}

/**
 * gl_compare_report - per-ring deltas of @cur against @base
 * @base: the --compare run
 * @cur: the analysed run
 * @out: where to write (format from the options)
 *
 * Return: 0, or a negative errno.
 */
int gl_compare_report(const struct gl_run *base, const struct gl_run *cur, FILE *out)
{
	struct pair *p;
	size_t n = 0;
	int ret;

	p = pairs(base, cur, &n);
	if (!p)
		return -1;
	switch (cur->opts->format) {
	case GL_FMT_JSON:
		ret = json_compare(base, cur, p, n, out);
		break;
	case GL_FMT_CSV:
		ret = csv_compare(p, n, out);
		break;
	default:
		ret = text_compare(base, cur, p, n, out);
		if (!ret && cur->opts->hist)
			ret = gl_text_hist(cur, out);
		break;
	}
	free(p);
	return ret;
}
