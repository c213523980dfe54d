// SPDX-License-Identifier: LGPL-2.1
/*
 * --fail-if gates for CI:  --fail-if 'ring=gfx,p99.exec>5ms'
 *
 *   spec      := term { "," term }
 *   term      := selector | condition
 *   selector  := ("ring" | "dev" | "comm" | "pid" | "client" | "crtc") "=" VALUE
 *   condition := lhs (">" | ">=" | "<" | "<=") value
 *   lhs       := STAT "." METRIC | "jobs" | "complete" | "incomplete" | "lost"
 *              | "busy" | "max_depth" | "avg_depth" | "lost_events" | "stalls"
 *              | "missed" | "late" | "frames" | "vblanks" | "refresh" (crtc= only)
 *   STAT      := n | min | max | mean | p50 | p90 | p99 | p999
 *   METRIC    := wait | hw_queue | exec | total | dep_wait
 *   value     := DURATION (5ms, 250us, 1.5s, ns if no unit) | NUMBER | NUMBER "%"
 *              | ("+" | "-") NUMBER "%"  (relative to --compare BASE: a regression gate)
 *
 * Selectors choose the groups: ring/dev -> rings, comm/pid -> processes,
 * client -> clients, crtc -> the CRTCs of --frames (gpulat-frames.h: missed
 * vblanks, late frames, judged frames, vblanks, refresh interval);
 * none -> every ring. A spec fails when any of its
 * conditions holds for any selected group; a selector that matches no group
 * fails too (the gate could not be checked). lost_events and stalls are
 * about the whole trace.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-frames.h"
#include "gpu-latency.h"

#define GATE_MAXCOND	16

/*
 * A condition's quantity: a field of the report model (gpulat-report.h) with
 * GPULAT_FIELD_GATE (STAT.METRIC: a summary field of one metric; a group
 * field; a trace field), or one of the CRTC quantities of --frames.
 */
enum lhs {
	LHS_FIELD = 0, /* a group field of the selected groups */
	LHS_STAT, /* STAT.METRIC: a summary field */
	LHS_TRACE, /* a trace field: about the whole trace */
	LHS_MISSED,		/* CRTCs (crtc=) */
	LHS_LATE,
	LHS_FRAMES,
	LHS_VBLANKS,
	LHS_REFRESH,
};

static const struct {
	const char	*name;
	enum lhs	lhs;
} crtc_names[] = {
	{ "missed", LHS_MISSED },   { "late", LHS_LATE },	{ "frames", LHS_FRAMES },
	{ "vblanks", LHS_VBLANKS }, { "refresh", LHS_REFRESH },
};

static bool is_crtc_lhs(enum lhs l)
{
	return l >= LHS_MISSED;
}

struct gl_cond {
	double		value;		/* ns for durations, % for busy/relative */
	enum lhs	lhs;
	const struct gpulat_field *f; /* LHS_FIELD, LHS_STAT, LHS_TRACE */
	enum gpulat_metric metric;
	int		op;		/* '>', 'G' (>=), '<', 'L' (<=) */
	bool		relative;	/* value is a change in % against --compare */
	bool		duration;	/* print the value as a duration */
	char		text[64];	/* as written */
	char		what[32];	/* "p99.exec" */
	char		rhs[32];	/* ">5ms" */
};

struct gl_gate {
	char		*spec;
	struct gl_strlist rings;
	struct gl_strlist devs;
	struct gl_strlist comms;
	struct gl_strlist clients;
	struct gl_filter pids;		/* only .pids used */
	struct gl_strlist crtcs;
	bool		crtc;		/* crtc= or a CRTC quantity: the CRTC table */
	enum gpulat_group_kind kind;
	size_t		ncond;
	struct gl_cond	cond[GATE_MAXCOND];
};

static int parse_metric(const char *s, size_t len, enum gpulat_metric *m)
{
	int i;

	for (i = 0; i < GPULAT_M__COUNT; i++) {
		const char *name = gpulat_metric_name(i);

		if (strlen(name) == len && strncmp(s, name, len) == 0) {
			*m = i;
			return 0;
		}
	}
	return -1;
}

/* a gate quantity of @row named @name (or with that alias) */
static const struct gpulat_field *gate_field(enum gpulat_row row, const char *name)
{
	const struct gpulat_field *f = gpulat_field_find(row, name);

	return f && (gpulat_field_flags(f) & GPULAT_FIELD_GATE) ? f : NULL;
}

static int parse_lhs(struct gl_cond *c, const char *s, size_t len)
{
	const char *dot = memchr(s, '.', len);
	char name[32];
	size_t i;

	if (len >= sizeof(name))
		return -1;
	snprintf(name, sizeof(name), "%.*s", (int)(dot ? dot - s : (ptrdiff_t)len), s);
	if (dot) {
		c->f = gate_field(GPULAT_ROW_SUMMARY, name);
		if (!c->f)
			return -1;
		c->lhs = LHS_STAT;
		c->duration = gpulat_field_unit(c->f) == GPULAT_UNIT_NS;
		return parse_metric(dot + 1, len - (size_t)(dot + 1 - s), &c->metric);
	}
	/* rings, processes and clients share their gate quantities */
	c->f = gate_field(GPULAT_ROW_RING, name);
	c->lhs = LHS_FIELD;
	if (!c->f) {
		c->f = gate_field(GPULAT_ROW_TRACE, name);
		c->lhs = LHS_TRACE;
	}
	if (c->f) {
		c->duration = gpulat_field_unit(c->f) == GPULAT_UNIT_NS;
		return 0;
	}
	for (i = 0; i < sizeof(crtc_names) / sizeof(crtc_names[0]); i++) {
		if (!strcmp(crtc_names[i].name, name)) {
			c->lhs = crtc_names[i].lhs;
			c->duration = c->lhs == LHS_REFRESH;
			return 0;
		}
	}
	return -1;
}

/* "n|min|...": the gate names of a row type's fields, joined by @sep */
static void gate_names(char *buf, size_t len, enum gpulat_row row, const char *sep)
{
	const struct gpulat_field *f;
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; (f = gpulat_field_at(row, i)) && off < len; i++) {
		if (!(gpulat_field_flags(f) & GPULAT_FIELD_GATE))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? sep : "",
					gpulat_field_alias(f) ? gpulat_field_alias(f) :
								gpulat_field_name(f));
	}
}

static int parse_value(struct gl_cond *c, const char *v)
{
	size_t len = strlen(v);
	char *end;

	if (!len)
		return -1;
	if (v[len - 1] == '%' || v[0] == '+' || v[0] == '-') {
		if (v[len - 1] != '%')
			return -1;
		c->relative = v[0] == '+' || v[0] == '-';
		if (!c->relative && (!c->f || gpulat_field_unit(c->f) != GPULAT_UNIT_PCT))
			return -1;
		c->value = strtod(v, &end);
		if (end != v + len - 1)
			return -1;
		return 0;
	}
	if (c->duration) {
		uint64_t ns;

		if (gl_parse_duration(v, &ns) < 0)
			return -1;
		c->value = (double)ns;
		return 0;
	}
	c->value = strtod(v, &end);
	return *end ? -1 : 0;
}

static int parse_cond(struct gl_cond *c, const char *t, char *err, size_t errlen)
{
	const char *op = strpbrk(t, "<>");
	const char *v;

	memset(c, 0, sizeof(*c));
	snprintf(c->text, sizeof(c->text), "%s", t);
	if (!op) {
		snprintf(err, errlen, "'%s': expected a selector (ring=, dev=, comm=, pid=, "
			 "client=) or a condition like p99.exec>5ms", t);
		return -1;
	}
	if (parse_lhs(c, t, (size_t)(op - t)) < 0) {
		char stats[128], groups[160], trace[64];

		gate_names(stats, sizeof(stats), GPULAT_ROW_SUMMARY, "|");
		gate_names(groups, sizeof(groups), GPULAT_ROW_RING, ", ");
		gate_names(trace, sizeof(trace), GPULAT_ROW_TRACE, ", ");
		snprintf(err, errlen,
			 "'%s': unknown quantity '%.*s' (use STAT.METRIC with STAT "
			 "%s and METRIC wait|hw_queue|exec|total|dep_wait, or %s, %s)",
			 t, (int)(op - t), t, stats, groups, trace);
		return -1;
	}
	snprintf(c->what, sizeof(c->what), "%.*s", (int)(op - t), t);
	snprintf(c->rhs, sizeof(c->rhs), "%s", op);
	v = op + 1;
	c->op = *op;
	if (*v == '=') {
		c->op = *op == '>' ? 'G' : 'L';
		v++;
	}
	if (parse_value(c, v) < 0 ||
	    (!c->relative && c->f && gpulat_field_unit(c->f) == GPULAT_UNIT_PCT &&
	     (c->value < 0 || c->value > 100))) {
		snprintf(err, errlen, "'%s': bad value '%s' (a duration like 5ms, a number, "
			 "a percentage for busy, or +N%% / -N%% against --compare)", t, v);
		return -1;
	}
	return 0;
}

/**
 * gl_gate_parse - parse one --fail-if spec
 * @spec: the text
 * @err: receives a one-line reason on failure
 * @errlen: size of @err
 *
 * Return: a gate, or NULL.
 */
struct gl_gate *gl_gate_parse(const char *spec, char *err, size_t errlen)
{
	char *copy, *tok, *save = NULL;
	struct gl_gate *g;

	g = calloc(1, sizeof(*g));
	copy = strdup(spec);
	if (!g || !copy)
		goto nomem;
	g->spec = strdup(spec);
	if (!g->spec)
		goto nomem;
	g->kind = GPULAT_G_RING;

	/* 'p99.exec > 5ms' is 'p99.exec>5ms': blanks carry no meaning */
	for (char *w = copy, *rd = copy;; rd++) {
		if (*rd != ' ' && *rd != '\t')
			*w++ = *rd;
		if (!*rd)
			break;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *eq = strchr(tok, '=');
		const char *op = strpbrk(tok, "<>");
		int ret = 0;

		if (eq && (!op || eq < op)) {
			const char *v = eq + 1;
			size_t klen = (size_t)(eq - tok);

			if (klen == 4 && !strncmp(tok, "ring", 4)) {
				ret = gl_strlist_add(&g->rings, v);
			} else if (klen == 3 && !strncmp(tok, "dev", 3)) {
				ret = gl_strlist_add(&g->devs, v);
			} else if (klen == 4 && !strncmp(tok, "comm", 4)) {
				ret = gl_strlist_add(&g->comms, v);
				g->kind = GPULAT_G_PROCESS;
			} else if (klen == 3 && !strncmp(tok, "pid", 3)) {
				ret = gl_filter_add_pids(&g->pids, v);
				g->kind = GPULAT_G_PROCESS;
			} else if (klen == 4 && !strncmp(tok, "crtc", 4)) {
				ret = gl_strlist_add(&g->crtcs, v);
				g->crtc = true;
			} else if (klen == 6 && !strncmp(tok, "client", 6)) {
				ret = gl_strlist_add(&g->clients, v);
				g->kind = GPULAT_G_CLIENT;
			} else {
				snprintf(err, errlen, "'%s': unknown selector (ring=, dev=, comm=, "
					 "pid=, client=, crtc=)", tok);
				goto fail;
			}
			if (ret < 0) {
				snprintf(err, errlen, "'%s': bad selector value", tok);
				goto fail;
			}
			continue;
		}
		if (g->ncond == GATE_MAXCOND) {
			snprintf(err, errlen, "too many conditions (at most %d)", GATE_MAXCOND);
			goto fail;
		}
		if (parse_cond(&g->cond[g->ncond], tok, err, errlen) < 0)
			goto fail;
		if (is_crtc_lhs(g->cond[g->ncond].lhs))
			g->crtc = true;
		g->ncond++;
	}
	if (!g->ncond) {
		snprintf(err, errlen, "no condition (for example p99.exec>5ms)");
		goto fail;
	}
	for (size_t k = 0; g->crtc && k < g->ncond; k++) {
		if (!is_crtc_lhs(g->cond[k].lhs) || g->cond[k].relative ||
		    g->rings.n || g->devs.n || g->kind != GPULAT_G_RING) {
			snprintf(err, errlen, "crtc= gates take missed, late, frames, vblanks or "
				 "refresh, without other selectors or +N%%");
			goto fail;
		}
	}
	if ((g->rings.n || g->devs.n) && g->kind != GPULAT_G_RING) {
		snprintf(err, errlen, "ring=/dev= and comm=/pid=/client= select different tables; "
			 "use separate --fail-if options");
		goto fail;
	}
	free(copy);
	return g;
 nomem:
	snprintf(err, errlen, "%s", strerror(ENOMEM));
 fail:
	free(copy);
	gl_gate_free(g);
	return NULL;
}

void gl_gate_free(struct gl_gate *g)
{
	if (!g)
		return;
	gl_strlist_free(&g->rings);
	gl_strlist_free(&g->devs);
	gl_strlist_free(&g->comms);
	gl_strlist_free(&g->clients);
	gl_strlist_free(&g->crtcs);
	gl_filter_free(&g->pids);
	free(g->spec);
	free(g);
}

/* true when a condition is relative to the --compare base */
bool gl_gate_needs_base(const struct gl_gate *g)
{
	size_t k;

	for (k = 0; k < g->ncond; k++) {
		if (g->cond[k].relative)
			return true;
	}
	return false;
}

/* ------------------------------------------------------------------------ */

static bool in_list(const struct gl_strlist *l, const char *s)
{
	size_t i;

	if (!l->n)
		return true;
	for (i = 0; s && i < l->n; i++) {
		if (!strcmp(l->v[i], s))
			return true;
	}
	return false;
}

static bool gate_selects(const struct gl_gate *g, const struct gpulat_group *grp)
{
	char id[32];
	size_t i;

	switch (g->kind) {
	case GPULAT_G_RING:
		for (i = 0; i < g->rings.n; i++) {
			if (gpulat_ring_match(g->rings.v[i], grp->dev, grp->ring, grp->ring_ptr))
				break;
		}
		if (g->rings.n && i == g->rings.n)
			return false;
		for (i = 0; i < g->devs.n; i++) {
			if (gpulat_dev_match(g->devs.v[i], grp->dev ? grp->dev : ""))
				break;
		}
		return !g->devs.n || i < g->devs.n;
	case GPULAT_G_PROCESS:
		if (!in_list(&g->comms, grp->comm))
			return false;
		if (!g->pids.npids)
			return true;
		for (i = 0; i < g->pids.npids; i++) {
			if (g->pids.pids[i] == grp->pid)
				return true;
		}
		return false;
	case GPULAT_G_CLIENT:
		if (grp->client_id == GPULAT_NONE)
			return false;
		snprintf(id, sizeof(id), "%llu", (unsigned long long)grp->client_id);
		return in_list(&g->clients, id);
	default:
		return false;
	}
}

/**
 * gl_find_ring - the ring of @r that is ring @g of another run
 * @by_name: set when matched by name only (gpulat_ring_same()), may be NULL
 *
 * Device and name first; else the name, when one side carries no device
 * (a trace before 6.17 against one of 6.17+).
 */
const struct gpulat_group *gl_find_ring(const struct gl_run *r, const struct gpulat_group *g,
					bool *by_name)
{
	size_t i, n = gpulat_stats_ngroups(r->stats, GPULAT_G_RING);
	const struct gpulat_group *named = NULL;
	bool loose;

	for (i = 0; i < n; i++) {
		const struct gpulat_group *x = gpulat_stats_group(r->stats, GPULAT_G_RING, i);

		if (!gpulat_ring_same(x->dev, x->ring, g->dev, g->ring, &loose))
			continue;
		if (!loose) {
			if (by_name)
				*by_name = false;
			return x;
		}
		if (!named)
			named = x;
	}
	if (by_name)
		*by_name = named != NULL;
	return named;
}

/* the group of @base with the same key as @grp */
static const struct gpulat_group *base_group(const struct gl_run *base,
					     const struct gpulat_group *grp)
{
	size_t i, n = gpulat_stats_ngroups(base->stats, grp->kind);

	for (i = 0; i < n; i++) {
		const struct gpulat_group *b = gpulat_stats_group(base->stats, grp->kind, i);

		switch (grp->kind) {
		case GPULAT_G_RING:
			/* by device and name, or by name across 6.16 -> 6.17 */
			return gl_find_ring(base, grp, NULL);
		case GPULAT_G_PROCESS:
			if (b->pid == grp->pid &&
			    !strcmp(b->comm ? b->comm : "", grp->comm ? grp->comm : ""))
				return b;
			break;
		default:
			if (b->client_id == grp->client_id)
				return b;
			break;
		}
	}
	return NULL;
}

/* the report model's row type of a statistics group */
static enum gpulat_row row_of(enum gpulat_group_kind kind)
{
	switch (kind) {
	case GPULAT_G_PROCESS:
		return GPULAT_ROW_PROCESS;
	case GPULAT_G_CLIENT:
		return GPULAT_ROW_CLIENT;
	case GPULAT_G_DEVICE:
		return GPULAT_ROW_DEVICE;
	default:
		return GPULAT_ROW_RING;
	}
}

/* the quantity of @c in @grp (or the whole run); false when it does not exist */
static bool cond_value(const struct gl_cond *c, const struct gl_run *r,
		       const struct gpulat_group *grp, double *v)
{
	struct gpulat_value val = { .sz = sizeof(val) };

	switch (c->lhs) {
	case LHS_STAT:
		gpulat_field_get(c->f, gpulat_report_summary(grp, c->metric), &val);
		break;
	case LHS_FIELD:
		if (!gpulat_field_in(c->f, row_of(grp->kind)))
			return false;
		gpulat_field_get(c->f, grp, &val);
		break;
	case LHS_TRACE:
		gpulat_field_get(c->f, r->rep, &val);
		if (!strcmp(gpulat_field_name(c->f), "lost_events")) {
			/* an overrun of unknown size counts as at least one event */
			const struct gpulat_field *g = gpulat_field_find(GPULAT_ROW_TRACE,
									 "lost_gaps");
			struct gpulat_value gaps = { .sz = sizeof(gaps) };

			gpulat_field_get(g, r->rep, &gaps);
			if (gaps.type == GPULAT_V_U64 && gaps.u > val.u)
				val.u = gaps.u;
		}
		break;
	default:
		return false; /* CRTC quantities: crtc_value() */
	}
	return gpulat_value_number(&val, v);
}

static bool crtc_value(const struct gl_cond *c, const struct gpulat_crtc_report *x, double *v)
{
	switch (c->lhs) {
	case LHS_MISSED:	*v = (double)x->missed; return true;
	case LHS_LATE:		*v = (double)x->late; return true;
	case LHS_FRAMES:	*v = (double)x->frames; return true;
	case LHS_VBLANKS:	*v = (double)x->vblanks; return true;
	case LHS_REFRESH:	*v = (double)x->refresh_ns; return x->refresh_ns != 0;
	default:		return false;
	}
}

static bool compare(double a, int op, double b);
static const char *fmt_value(char *buf, size_t len, const struct gl_cond *c, double v);

/* a crtc= gate: every selected CRTC of the frames analysis */
static int check_crtcs(const struct gl_gate *g, const struct gl_run *r, FILE *msg)
{
	size_t i, k, n = r->frames ? gpulat_frames_ncrtcs(r->frames) : 0, selected = 0;
	char id[16], a[32];
	int failed = 0;
	double v;

	for (i = 0; i < n; i++) {
		const struct gpulat_crtc_report *x = gpulat_frames_crtc(r->frames, i);

		snprintf(id, sizeof(id), "%d", x->crtc);
		if (!in_list(&g->crtcs, id))
			continue;
		selected++;
		for (k = 0; k < g->ncond; k++) {
			const struct gl_cond *c = &g->cond[k];

			if (!crtc_value(c, x, &v) || !compare(v, c->op, c->value))
				continue;
			fprintf(msg, "%s: gate '%s' failed: crtc %d: %s = %s (limit %s)\n", GL_NAME,
				g->spec, x->crtc, c->what, fmt_value(a, sizeof(a), c, v), c->rhs);
			failed++;
		}
	}
	if (!selected) {
		fprintf(msg, "%s: gate '%s' failed: no CRTC in the trace matches it (%s)\n",
			GL_NAME, g->spec, r->frames ? "no such crtc" :
			"no drm_vblank_event records");
		failed++;
	}
	return failed;
}

static bool compare(double a, int op, double b)
{
	switch (op) {
	case '>':	return a > b;
	case 'G':	return a >= b;
	case '<':	return a < b;
	case 'L':	return a <= b;
	}
	return false;
}

/* as the text report prints the field: by its unit */
static const char *fmt_value(char *buf, size_t len, const struct gl_cond *c, double v)
{
	enum gpulat_unit u = c->f ? gpulat_field_unit(c->f) : GPULAT_UNIT_COUNT;

	if (c->duration)
		return gl_fmt_dur(buf, len, (uint64_t)v);
	if (u == GPULAT_UNIT_PCT)
		snprintf(buf, len, "%.1f%%", v);
	else if (u == GPULAT_UNIT_RATIO)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

static const char *group_label(const struct gl_run *r, char *buf, size_t len,
			       const struct gpulat_group *grp)
{
	char tmp[200];

	switch (grp->kind) {
	case GPULAT_G_RING:
		snprintf(buf, len, "ring %s", gl_ring_label(r, grp->file, grp->dev, grp->ring, tmp,
							     sizeof(tmp)));
		break;
	case GPULAT_G_PROCESS:
		snprintf(buf, len, "process %s-%d", grp->comm ? grp->comm : "<...>", grp->pid);
		break;
	default:
		snprintf(buf, len, "client %llu", (unsigned long long)grp->client_id);
		break;
	}
	return buf;
}

/* one condition on one group (or the whole run when @grp is NULL) */
static int check_cond(const struct gl_gate *g, const struct gl_cond *c,
		      const struct gl_run *r, const struct gl_run *base,
		      const struct gpulat_group *grp, FILE *msg)
{
	char what[256], a[32], b[32];
	double v, bv, limit;

	if (grp)
		group_label(r, what, sizeof(what), grp);
	else
		snprintf(what, sizeof(what), "trace");
	if (!cond_value(c, r, grp, &v))
		return 0;		/* no value (no complete job): nothing to gate */

	if (c->relative) {
		const struct gpulat_group *bg = grp && base ? base_group(base, grp) : NULL;

		if (!base)
			return -1;
		if (grp && !bg && grp->kind == GPULAT_G_RING) {
			/* a renamed or new ring must not pass a regression gate silently */
			fprintf(msg,
				"%s: gate '%s' failed: %s: not in the base trace, nothing to "
				"compare %s with\n",
				GL_NAME, g->spec, what, c->what);
			return 1;
		}
		if (grp && !bg)
			return 0; /* a process new in this trace: nothing to compare */
		if (!cond_value(c, base, bg, &bv))
			return 0;
		limit = bv * (1.0 + c->value / 100.0);
		if (!compare(v, c->op, limit))
			return 0;
		fprintf(msg, "%s: gate '%s' failed: %s: %s = %s, base %s (%+.1f%%; limit %s)\n",
			GL_NAME, g->spec, what, c->what, fmt_value(a, sizeof(a), c, v),
			fmt_value(b, sizeof(b), c, bv),
			bv ? 100.0 * (v - bv) / bv : 0.0, c->rhs);
		return 1;
	}
	if (!compare(v, c->op, c->value))
		return 0;
	fprintf(msg, "%s: gate '%s' failed: %s: %s = %s (limit %s)\n", GL_NAME, g->spec, what,
		c->what, fmt_value(a, sizeof(a), c, v), c->rhs);
	return 1;
}

/* a relative ring gate: every selected ring of the base must be in the trace */
static int base_only_rings(const struct gl_gate *g, const struct gl_run *r,
			   const struct gl_run *base, FILE *msg)
{
	size_t i, n = gpulat_stats_ngroups(base->stats, GPULAT_G_RING);
	char what[256];
	int failed = 0;

	for (i = 0; i < n; i++) {
		const struct gpulat_group *b = gpulat_stats_group(base->stats, GPULAT_G_RING, i);

		if (!gate_selects(g, b) || gl_find_ring(r, b, NULL))
			continue;
		group_label(base, what, sizeof(what), b);
		fprintf(msg,
			"%s: gate '%s' failed: %s: in the base trace only, nothing to "
			"compare with\n",
			GL_NAME, g->spec, what);
		failed++;
	}
	return failed;
}

/**
 * gl_gate_check - evaluate a gate against a run
 * @g: the gate
 * @r: the analysed trace
 * @base: the --compare base, or NULL
 * @msg: one line per failed condition goes here
 *
 * Return: the number of failed conditions, or -1 when the gate cannot be
 * evaluated (relative value without --compare), after a message.
 */
int gl_gate_check(const struct gl_gate *g, const struct gl_run *r,
		  const struct gl_run *base, FILE *msg)
{
	size_t i, k, n = gpulat_stats_ngroups(r->stats, g->kind);
	size_t selected = 0;
	int failed = 0, ret;

	if (g->crtc)
		return check_crtcs(g, r, msg);
	for (k = 0; k < g->ncond; k++) {
		if (g->cond[k].relative && !base) {
			fprintf(msg, "%s: gate '%s': %s needs --compare BASE.dat\n", GL_NAME,
				g->spec, g->cond[k].text);
			return -1;
		}
		if (g->cond[k].lhs == LHS_TRACE) {
			ret = check_cond(g, &g->cond[k], r, base, NULL, msg);
			if (ret < 0)
				return ret;
			failed += ret;
		}
	}
	for (i = 0; i < n; i++) {
		const struct gpulat_group *grp = gpulat_stats_group(r->stats, g->kind, i);

		if (!gate_selects(g, grp))
			continue;
		selected++;
		for (k = 0; k < g->ncond; k++) {
			if (g->cond[k].lhs == LHS_TRACE)
				continue;
			ret = check_cond(g, &g->cond[k], r, base, grp, msg);
			if (ret < 0)
				return ret;
			failed += ret;
		}
	}
	if (base && g->kind == GPULAT_G_RING && gl_gate_needs_base(g))
		failed += base_only_rings(g, r, base, msg);
	if (!selected) {
		fprintf(msg, "%s: gate '%s' failed: no %s in the trace matches it\n", GL_NAME,
			g->spec, g->kind == GPULAT_G_RING ? "ring" :
			g->kind == GPULAT_G_PROCESS ? "process" : "client");
		failed++;
	}
	return failed;
}
