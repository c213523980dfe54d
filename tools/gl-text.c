// SPDX-License-Identifier: LGPL-2.1
/*
 * The default text report and the --hist histograms.
 *
 * Durations are printed in the unit that reads best (gpulat_fmt_duration),
 * timestamps as seconds.microseconds exactly like trace-cmd report prints
 * them, with the CPU in brackets, so a line can be found in
 * `trace-cmd report` or in KernelShark.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-session.h"
#include "gpu-latency.h"
#include "gl-table.h"

#define DUR(buf, v)	gl_fmt_dur(buf, sizeof(buf), v)
/* ring names on the headline, at most (all of them are in the ring table) */
#define HEADLINE_RINGS	64

static const enum gpulat_metric ring_metrics[] = {
	GPULAT_M_WAIT, GPULAT_M_HW_QUEUE, GPULAT_M_EXEC, GPULAT_M_TOTAL, GPULAT_M_DEP_WAIT,
};

/* a quantile, marked when it comes from the histogram (gpulat_quantile_mark()) */
static const char *qdur(char *buf, size_t len, const struct gpulat_summary *s, uint64_t v)
{
	const char *mark;
	char tmp[48];
	size_t m, n;

	if (!s->n)
		return "-";
	/* "%s%s" of the mark and the duration, by hand: one per group and quantile */
	mark = gpulat_quantile_mark(s);
	m = strlen(mark);
	if (m > 16)
		m = 16;
	memcpy(tmp, mark, m);
	gl_fmt_dur(tmp + m, 24, v);
	if (len) {
		n = strlen(tmp);
		if (n >= len)
			n = len - 1;
		memcpy(buf, tmp, n);
		buf[n] = '\0';
	}
	return buf;
}

/* "comm-pid" like trace-cmd report; "(unknown)" when the queue event was not seen */
static const char *proc_name(char *buf, size_t len, const char *comm, int pid)
{
	if (pid < 0)
		snprintf(buf, len, "(unknown)");
	else
		snprintf(buf, len, "%s-%d", comm && *comm ? comm : "<...>", pid);
	return buf;
}

static bool any_dev(const struct gl_run *r)
{
	size_t i, n = gpulat_stats_ngroups(r->stats, GPULAT_G_RING);

	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = gpulat_stats_group(r->stats, GPULAT_G_RING, i);

		if (g->dev && *g->dev)
			return true;
	}
	return false;
}

/*
 * A field of the report model as the text report prints it: durations in
 * the unit that reads best, timestamps like trace-cmd report, % with one
 * decimal, "-" for a value that does not exist.
 */
static const char *field_text(char *buf, size_t len, const struct gpulat_field *f, const void *obj)
{
	struct gpulat_value v = { .sz = sizeof(v) };
	double d = 0;

	gpulat_field_get(f, obj, &v);
	if (gpulat_value_str(&v)) {
		/* the string may live in v, which ends with this call: copy it */
		snprintf(buf, len, "%s", gpulat_value_str(&v));
		return buf;
	}
	if (!gpulat_value_number(&v, &d))
		return "-";
	switch (gpulat_field_unit(f)) {
	case GPULAT_UNIT_NS:
		return gl_fmt_dur(buf, len, v.u);
	case GPULAT_UNIT_TS:
		return gl_fmt_ts(buf, len, v.u);
	case GPULAT_UNIT_PCT:
		snprintf(buf, len, "%.1f%%", d);
		return buf;
	case GPULAT_UNIT_RATIO:
		snprintf(buf, len, "%.2f", d);
		return buf;
	default:
		if (v.type == GPULAT_V_I64)
			snprintf(buf, len, "%lld", (long long)v.i);
		else
			snprintf(buf, len, "%llu", (unsigned long long)v.u);
		return buf;
	}
}

/* one table cell: the field @name of @row in @obj */
static void field_cell(struct gl_table *t, enum gpulat_row row, const char *name, const void *obj)
{
	const struct gpulat_field *f = gpulat_field_find(row, name);
	char buf[512]; /* strings are copied whole: comm, ring and device names */

	gl_table_cell(t, "%s", f ? field_text(buf, sizeof(buf), f, obj) : "?");
}

/* ------------------------------------------------------------------------ */

static void print_filter(const struct gl_run *r, FILE *out)
{
	const struct gl_filter *f = &r->opts->filter;
	char a[32], b[32];
	size_t i;

	if (!gl_filter_active(f))
		return;
	fprintf(out, "  %-12s", "filter");
	for (i = 0; i < f->devs.n; i++)
		fprintf(out, " dev=%s", f->devs.v[i]);
	for (i = 0; i < f->rings.n; i++)
		fprintf(out, " ring=%s", f->rings.v[i]);
	for (i = 0; i < f->npids; i++)
		fprintf(out, " pid=%d", f->pids[i]);
	for (i = 0; i < f->comms.n; i++)
		fprintf(out, " comm=%s", f->comms.v[i]);
	if (f->start_ns || f->end_ns != UINT64_MAX)
		fprintf(out, " window=%s..%s", f->start_ns ? gl_fmt_ts(a, sizeof(a), f->start_ns)
			: "start", f->end_ns != UINT64_MAX ? gl_fmt_ts(b, sizeof(b), f->end_ns)
			: "end");
	fprintf(out, " (%llu of %llu jobs)\n", (unsigned long long)r->c.jobs,
		(unsigned long long)r->c.jobs_seen);
}

/* what was recorded: the job stages per kind, so a missing event is obvious */
static void print_gpu_events(const struct gl_run *r, FILE *out)
{
	static const enum gpulat_kind kinds[] = {
		GPULAT_EV_QUEUE, GPULAT_EV_RUN, GPULAT_EV_DONE, GPULAT_EV_DEP, GPULAT_EV_UNSCHED,
		GPULAT_EV_FENCE_SIGNALED, GPULAT_EV_AMD_CS, GPULAT_EV_AMD_RUN,
	};
	const char *sep = " ";
	size_t i;

	fprintf(out, "  %-12s", "GPU events");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		uint64_t n = gpulat_session_kind_count(r->session, kinds[i]);

		if (!n && kinds[i] != GPULAT_EV_RUN)
			continue;
		if (kinds[i] == GPULAT_EV_RUN && !n && r->c.era == GPULAT_ERA_PRE57)
			continue;
		fprintf(out, "%s%s %llu", sep, gpulat_kind_name(kinds[i]), (unsigned long long)n);
		sep = ", ";
	}
	if (!gpulat_session_kind_count(r->session, GPULAT_EV_RUN) && r->c.era != GPULAT_ERA_PRE57 &&
	    r->c.era != GPULAT_ERA_AMDGPU)
		fprintf(out, " (no run events: record drm_run_job / drm_sched_job_run for wait "
			"and hw_queue)");
	fputc('\n', out);
}

/* rings that stopped completing (a hang): a header line each, the lib's headline */
static void print_stopped(const struct gl_run *r, FILE *out)
{
	size_t i, n = gpulat_stats_ngroups(r->stats, GPULAT_G_RING);
	char line[512];

	for (i = 0; i < n; i++) {
		if (*gpulat_ring_headline(line, sizeof(line),
					  gpulat_stats_group(r->stats, GPULAT_G_RING, i)))
			fprintf(out, "  %-12s %s\n", "STOPPED", line);
	}
}

static void print_header(const struct gl_run *r, FILE *out)
{
	size_t i, nr = gpulat_stats_ngroups(r->stats, GPULAT_G_RING);
	size_t nd = gpulat_stats_ngroups(r->stats, GPULAT_G_DEVICE);
	char a[32], b[32], c[32], label[4096];

	fprintf(out, "%s: %s\n", GL_NAME, gl_run_label(r, label, sizeof(label)));
	fprintf(out, "  %-12s %s\n", "kernel era", gpulat_era_name(r->c.era));
	gl_textlog_header(r, out);
	/* the span of the report model: --start/--end clip it (gpulat_report_span()) */
	fprintf(out, "  %-12s %s - %s (%s)\n", "span", gl_fmt_ts(a, sizeof(a), r->c.span_first),
		gl_fmt_ts(b, sizeof(b), r->c.span_last), DUR(c, r->c.span_last - r->c.span_first));

	fprintf(out, "  %-12s", "devices");
	if (!any_dev(r))
		fprintf(out, " - (this kernel era's events carry no device)");
	for (i = 0; i < nd; i++) {
		const struct gpulat_group *g = gpulat_stats_group(r->stats, GPULAT_G_DEVICE, i);

		if (g->dev && *g->dev)
			fprintf(out, "%s %s", i ? "," : "", g->dev);
	}
	fputc('\n', out);

	fprintf(out, "  %-12s %zu:", "rings", nr);
	/* one line: a hostile trace's 16384 ring names are in the ring table */
	for (i = 0; i < nr && i < HEADLINE_RINGS; i++) {
		const struct gpulat_group *g = gpulat_stats_group(r->stats, GPULAT_G_RING, i);

		fprintf(out, "%s %s", i ? "," : "", gl_ring_label(r, g->file, g->dev, g->ring,
								   label, sizeof(label)));
	}
	if (nr > HEADLINE_RINGS)
		fprintf(out, " and %zu more", nr - HEADLINE_RINGS);
	fputc('\n', out);

	fprintf(out, "  %-12s %llu (%llu complete, %llu incomplete, %llu lost, %llu orphan)\n",
		"jobs", (unsigned long long)r->c.jobs,
		(unsigned long long)(r->c.jobs - r->c.incomplete - r->c.lost - r->c.orphan),
		(unsigned long long)r->c.incomplete, (unsigned long long)r->c.lost,
		(unsigned long long)r->c.orphan);
	fprintf(out, "  %-12s %d", "CPUs", r->c.cpus);
	if (r->nfiles > 1) {
		/* the session numbers the CPUs of the files one after the other */
		for (i = 0; i < r->nfiles; i++) {
			int base = gpulat_session_cpu_base(r->session, (int)i);
			int n = gpulat_session_cpus(r->session, (int)i);

			fprintf(out, "%s%s [%03d]-[%03d]", i ? ", " : " (", r->files[i], base,
				base + n - 1);
		}
		fputc(')', out);
	}
	fputc('\n', out);
	fprintf(out, "  %-12s %llu (%llu GPU)\n", "events", (unsigned long long)r->c.events,
		(unsigned long long)r->c.gpu_events);
	print_gpu_events(r, out);
	fprintf(out, "  %-12s %llu", "lost events", (unsigned long long)r->c.lost_events);
	if (r->c.lost_gaps)
		fprintf(out, " (in %llu ring-buffer overruns)", (unsigned long long)r->c.lost_gaps);
	fputc('\n', out);
	print_filter(r, out);
	gl_frames_header(r, out);
	print_stopped(r, out);
}

/*
 * Which stage times are measured and which inferred, and the driver's hang
 * reports, per ring; only where a ring has something other than the drm_sched
 * default (start inferred from the ring FIFO, done exact, no hang).
 */
static void print_timing(const struct gl_run *r, FILE *out)
{
	size_t i, n = gpulat_stats_ngroups(r->stats, GPULAT_G_RING);
	char name[256];

	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = gpulat_stats_group(r->stats, GPULAT_G_RING, i);

		if (!g->start_measured && !g->done_late && !g->hangs && !g->exec_measured)
			continue;
		gl_ring_label(r, g->file, g->dev, g->ring, name, sizeof(name));
		fprintf(out, "  %s:", name);
		if (g->start_measured)
			fprintf(out, " start measured (hardware) for %llu of %llu jobs;",
				(unsigned long long)g->start_measured, (unsigned long long)g->jobs);
		else
			fprintf(out, " start inferred (ring FIFO);");
		if (g->exec_measured)
			fprintf(out, " exec measured (GPU clock) for %llu jobs;",
				(unsigned long long)g->exec_measured);
		if (g->done_late)
			fprintf(out, " done late (an upper bound) for %llu jobs;",
				(unsigned long long)g->done_late);
		if (g->hangs)
			fprintf(out, " %llu hung (reported by the driver)",
				(unsigned long long)g->hangs);
		fputc('\n', out);
	}
}

/* the ring table's fields after the label, headed by their labels */
static const char * const ring_fields[] = {
	"jobs", "complete", "incomplete", "lost", "busy_ns", "busy_pct", "max_depth", "avg_depth",
};
#define NRING_FIELDS (sizeof(ring_fields) / sizeof(ring_fields[0]))

static int print_rings(const struct gl_run *r, FILE *out)
{
	const char *h1[NRING_FIELDS + 1] = { "ring" };
	static const char * const h2[] = {
		"ring", "stage", "n", "min", "mean", "p50", "p90", "p99", "max",
		"max at (done [cpu])",
	};
	size_t i, k, n = gpulat_stats_ngroups(r->stats, GPULAT_G_RING);
	struct gl_table t1, t2;
	char name[256], a[32], b[32];
	bool approx = false, first;
	int ret;

	for (k = 0; k < NRING_FIELDS; k++)
		h1[k + 1] = gpulat_field_label(gpulat_field_find(GPULAT_ROW_RING, ring_fields[k]));
	gl_table_init(&t1, "lrrrrrrrr", h1);
	gl_table_init(&t2, "llrrrrrrrl", h2);
	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = gpulat_stats_group(r->stats, GPULAT_G_RING, i);

		gl_ring_label(r, g->file, g->dev, g->ring, name, sizeof(name));
		gl_table_cell(&t1, "%s", name);
		for (k = 0; k < NRING_FIELDS; k++)
			field_cell(&t1, GPULAT_ROW_RING, ring_fields[k], g);

		first = true;
		for (k = 0; k < sizeof(ring_metrics) / sizeof(ring_metrics[0]); k++) {
			const struct gpulat_summary *s = &g->m[ring_metrics[k]];
			char q[4][32];

			/* dep_wait only where a job of the ring had dependencies */
			if (ring_metrics[k] == GPULAT_M_DEP_WAIT && (!s->n || !s->max))
				continue;
			/* before 5.7 there is no run event: no wait, no hw_queue */
			if (!s->n && r->c.era == GPULAT_ERA_PRE57 &&
			    (ring_metrics[k] == GPULAT_M_WAIT ||
			     ring_metrics[k] == GPULAT_M_HW_QUEUE))
				continue;
			if (*gpulat_quantile_mark(s))
				approx = true;
			gl_table_cell(&t2, "%s", first ? name : "");
			first = false;
			gl_table_cell(&t2, "%s", gpulat_metric_name(ring_metrics[k]));
			gl_table_cell(&t2, "%llu", (unsigned long long)s->n);
			gl_table_cell(&t2, "%s", s->n ? DUR(a, s->min) : "-");
			gl_table_cell(&t2, "%s", s->n ? DUR(b, s->mean) : "-");
			gl_table_cell(&t2, "%s", qdur(q[0], sizeof(q[0]), s, s->p50));
			gl_table_cell(&t2, "%s", qdur(q[1], sizeof(q[1]), s, s->p90));
			gl_table_cell(&t2, "%s", qdur(q[2], sizeof(q[2]), s, s->p99));
			gl_table_cell(&t2, "%s", s->n ? DUR(q[3], s->max) : "-");
			gl_table_cell(&t2, "%s",
				      s->n ? gl_fmt_ts_cpu(name, sizeof(name), s->max_ts,
							   s->max_cpu) :
					     "-");
			gl_ring_label(r, g->file, g->dev, g->ring, name, sizeof(name));
		}
	}
	fprintf(out, "\nRings (busy = union of [start, done] over the span; depth = jobs queued "
		"and not done)\n");
	ret = gl_table_print(&t1, out, "  ");
	if (!ret) {
		fprintf(out, "\nRing latency (wait = queue->run, hw_queue = run->start on the ring, "
			"exec = start->done, total = queue->done)\n");
		ret = gl_table_print(&t2, out, "  ");
	}
	if (approx)
		fprintf(out, "  %s\n", gpulat_quantile_legend(name, sizeof(name)));
	gl_table_free(&t1);
	gl_table_free(&t2);
	if (!ret)
		print_timing(r, out);
	return ret;
}

/* a group of the owner table: its index and job count, for the ranking */
struct owner_rank {
	size_t idx;
	uint64_t jobs;
};

static int owner_cmp(const void *a, const void *b)
{
	const struct owner_rank *x = a, *y = b;

	if (x->jobs != y->jobs)
		return x->jobs > y->jobs ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* per-process and per-client tables share their columns */
static void owner_row(struct gl_table *t, const struct gpulat_group *g, enum gpulat_group_kind kind)
{
	const struct gpulat_summary *w = &g->m[GPULAT_M_WAIT];
	const struct gpulat_summary *s = &g->m[GPULAT_M_TOTAL];
	char q[7][64];

	if (kind == GPULAT_G_CLIENT)
		gl_table_cell(t, "%llu", (unsigned long long)g->client_id);
	else
		gl_table_cell(t, "%s", proc_name(q[0], sizeof(q[0]), g->comm, g->pid));
	gl_table_cell(t, "%llu", (unsigned long long)g->jobs);
	gl_table_cell(t, "%llu", (unsigned long long)(g->incomplete + g->lost));
	gl_table_cell(t, "%s", qdur(q[1], sizeof(q[1]), w, w->p50));
	gl_table_cell(t, "%s", qdur(q[2], sizeof(q[2]), w, w->p99));
	gl_table_cell(t, "%s", qdur(q[3], sizeof(q[3]), s, s->p50));
	gl_table_cell(t, "%s", qdur(q[4], sizeof(q[4]), s, s->p90));
	gl_table_cell(t, "%s", qdur(q[5], sizeof(q[5]), s, s->p99));
	gl_table_cell(t, "%s", s->n ? DUR(q[6], s->max) : "-");
	gl_table_cell(t, "%s",
		      s->n ? gl_fmt_ts_cpu(q[0], sizeof(q[0]), s->max_ts, s->max_cpu) : "-");
}

/*
 * The process or client table. Up to --owners groups it lists them all in the
 * statistics' order; past it, the --owners groups with the most jobs (ties: that
 * order), most first, and a line saying how many were left out.
 */
static int print_owners(const struct gl_run *r, FILE *out, enum gpulat_group_kind kind)
{
	static const char * const hp[] = {
		"process", "jobs", "incomplete", "wait p50", "wait p99", "total p50",
		"total p90", "total p99", "total max", "max at (done [cpu])",
	};
	static const char * const hc[] = {
		"client", "jobs", "incomplete", "wait p50", "wait p99", "total p50",
		"total p90", "total p99", "total max", "max at (done [cpu])",
	};
	size_t i, n = gpulat_stats_ngroups(r->stats, kind), rows = 0, shown;
	unsigned int limit = r->opts->owners;
	struct owner_rank *rank;
	struct gl_table t;
	int ret = 0;

	rank = malloc((n ? n : 1) * sizeof(*rank));
	if (!rank)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = gpulat_stats_group(r->stats, kind, i);

		/* jobs without a client id (before 6.17) are no client's */
		if (kind == GPULAT_G_CLIENT && g->client_id == GPULAT_NONE)
			continue;
		rank[rows].idx = i;
		rank[rows].jobs = g->jobs;
		rows++;
	}
	shown = rows;
	if (limit && rows > limit) {
		qsort(rank, rows, sizeof(*rank), owner_cmp);
		shown = limit;
	}

	gl_table_init(&t, "lrrrrrrrrl", kind == GPULAT_G_CLIENT ? hc : hp);
	for (i = 0; i < shown; i++)
		owner_row(&t, gpulat_stats_group(r->stats, kind, rank[i].idx), kind);
	if (shown) {
		fprintf(out, "\n%s\n", kind == GPULAT_G_CLIENT ?
			"Clients (drm client_id of the queue event)" :
			"Processes (submitter = pid/comm of the queue event)");
		if (shown < rows)
			fprintf(out, "  the %zu with the most jobs, most first\n", shown);
		ret = gl_table_print(&t, out, "  ");
		if (!ret && shown < rows)
			fprintf(out,
				"  ... %zu more %s (--owners 0 lists every one; so do --json "
				"and --csv)\n",
				rows - shown, kind == GPULAT_G_CLIENT ? "clients" : "processes");
	}
	gl_table_free(&t);
	free(rank);
	return ret;
}

/* one table row per job: ring, process, durations, every stage with its CPU */
static void job_row(const struct gl_run *r, struct gl_table *t, const struct gpulat_job *j,
		    const char *rank)
{
	char buf[256];
	int st;

	gl_table_cell(t, "%s", rank);
	gl_table_cell(t, "%s", gl_ring_label(r, j->file, j->dev, j->ring, buf, sizeof(buf)));
	gl_table_cell(t, "%s", proc_name(buf, sizeof(buf), j->comm, j->pid));
	field_cell(t, GPULAT_ROW_JOB, "total", j);
	field_cell(t, GPULAT_ROW_JOB, "wait", j);
	field_cell(t, GPULAT_ROW_JOB, "hw_queue", j);
	field_cell(t, GPULAT_ROW_JOB, "exec", j);
	field_cell(t, GPULAT_ROW_JOB, "dep_wait", j);
	for (st = 0; st < GPULAT_ST__COUNT; st++)
		gl_table_cell(t, "%s", gl_fmt_ts_cpu(buf, sizeof(buf), j->ts[st], j->cpu[st]));
}

/* the last column: the job as trace-cmd report and KernelShark name it (issue 16) */
static const char * const job_head[] = {
	"#",	    "ring",	   "process",	"total",      "wait",	      "hw_queue", "exec",
	"dep_wait", "queue [cpu]", "run [cpu]", "done [cpu]", "signal [cpu]", "job",
};
#define JOB_ALIGN "rllrrrrrlllll"

static int print_worst(const struct gl_run *r, FILE *out)
{
	size_t i, n = gpulat_stats_nworst(r->stats);
	struct gl_table t;
	char rank[32];
	int ret;

	if (!n)
		return 0;
	gl_table_init(&t, JOB_ALIGN, job_head);
	for (i = 0; i < n; i++) {
		snprintf(rank, sizeof(rank), "%zu", i + 1);
		job_row(r, &t, &gpulat_stats_worst(r->stats, i)->job, rank);
		field_cell(&t, GPULAT_ROW_JOB, "identity", &gpulat_stats_worst(r->stats, i)->job);
	}
	fprintf(out, "\nWorst %zu jobs by %s\n", n, gpulat_metric_name(r->opts->stats.worst_by));
	ret = gl_table_print(&t, out, "  ");
	gl_table_free(&t);
	return ret;
}

static int print_depwaits(const struct gl_run *r, FILE *out)
{
	static const char * const h[] = {
		"ring", "waited on", "jobs", "total", "mean", "max", "max at (queue)",
	};
	size_t i, n = gpulat_stats_ndepwaits(r->stats);
	char a[256], b[32];
	struct gl_table t;
	int ret;

	if (!n)
		return 0;
	gl_table_init(&t, "llrrrrl", h);
	for (i = 0; i < n; i++) {
		const struct gpulat_depwait *d = gpulat_stats_depwait(r->stats, i);

		gl_table_cell(&t, "%s", gpulat_ring_label(a, sizeof(a), d->dev, d->ring));
		gl_table_cell(&t, "%s", d->dep_ring ? gpulat_ring_label(a, sizeof(a), d->dep_dev, d->dep_ring) :
			      "(untraced fence)");
		gl_table_cell(&t, "%llu", (unsigned long long)d->count);
		gl_table_cell(&t, "%s", DUR(b, d->total_ns));
		gl_table_cell(&t, "%s", DUR(b, d->count ? d->total_ns / d->count : 0));
		gl_table_cell(&t, "%s", DUR(b, d->max_ns));
		gl_table_cell(&t, "%s", gl_fmt_ts(b, sizeof(b), d->max_ts));
	}
	fprintf(out, "\nDependency waits (time a job's queue->run waited for another job's fence)\n");
	ret = gl_table_print(&t, out, "  ");
	gl_table_free(&t);
	return ret;
}

/* qsort order of struct gpulat_stall pointers: longest first, then earliest */
int gl_cmp_stall(const void *a, const void *b)
{
	const struct gpulat_stall *x = *(const struct gpulat_stall * const *)a;
	const struct gpulat_stall *y = *(const struct gpulat_stall * const *)b;
	uint64_t gx = x->end_ts - x->start_ts, gy = y->end_ts - y->start_ts;

	if (gx != gy)
		return gx > gy ? -1 : 1;
	return x->start_ts < y->start_ts ? -1 : x->start_ts > y->start_ts;
}

/* submit gaps that were idleness (lib/stats.c classify_gap), one line when any */
static void print_idle_gaps(const struct gl_run *r, FILE *out)
{
	uint64_t n = gpulat_stats_idle_gaps(r->stats);

	if (n)
		fprintf(out, "  and %llu idle gap%s of processes that were not submitting at a "
			"steady pace (not stalls)\n", (unsigned long long)n, n == 1 ? "" : "s");
}

static int print_stalls(const struct gl_run *r, FILE *out)
{
	static const char * const h[] = {
		"kind", "ring / process", "gap", "from [cpu]", "to [cpu]", "job",
	};
	size_t i, n = gpulat_stats_nstalls(r->stats), shown;
	const struct gpulat_stall **v;
	char a[256], thr[32];
	struct gl_table t;
	int ret = 0;

	gl_fmt_dur(thr, sizeof(thr), r->stall_threshold_ns);
	if (!n) {
		fprintf(out, "\nStalls longer than %s: none\n", thr);
		print_idle_gaps(r, out);
		return 0;
	}
	v = calloc(n, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < n; i++)
		v[i] = gpulat_stats_stall(r->stats, i);
	qsort(v, n, sizeof(*v), gl_cmp_stall);
	shown = n < r->opts->top ? n : r->opts->top;

	gl_table_init(&t, "llrlll", h);
	for (i = 0; i < shown; i++) {
		const struct gpulat_stall *s = v[i];

		if (s->kind == GPULAT_STALL_SUBMIT_GAP) {
			gl_table_cell(&t, "submit gap");
			gl_table_cell(&t, "%s", proc_name(a, sizeof(a), s->comm, s->pid));
		} else {
			gl_table_cell(&t, "ring idle");
			gl_table_cell(&t, "%s", gpulat_ring_label(a, sizeof(a), s->dev, s->ring));
		}
		gl_table_cell(&t, "%s", DUR(a, s->end_ts - s->start_ts));
		gl_table_cell(&t, "%s", gl_fmt_ts_cpu(a, sizeof(a), s->start_ts, s->start_cpu));
		gl_table_cell(&t, "%s", gl_fmt_ts_cpu(a, sizeof(a), s->end_ts, s->end_cpu));
		field_cell(&t, GPULAT_ROW_STALL, "identity", s);
	}
	fprintf(out, "\nStalls longer than %s (%llu; the %zu longest)\n", thr,
		(unsigned long long)gpulat_stats_stalls_total(r->stats), shown);
	ret = gl_table_print(&t, out, "  ");
	gl_table_free(&t);
	free(v);
	print_idle_gaps(r, out);
	return ret;
}

static const char * const inc_head[] = {
	"status",   "ring",	   "process",	"total",      "wait",	      "hw_queue",    "exec",
	"dep_wait", "queue [cpu]", "run [cpu]", "done [cpu]", "signal [cpu]", "lost stages", "job",
};

static int print_incomplete(const struct gl_run *r, FILE *out)
{
	uint64_t n = r->c.incomplete + r->c.lost + r->c.orphan;
	size_t nkept = gpulat_session_nkept(r->session);
	struct gl_table t;
	char rank[32];
	size_t i;
	int ret;

	if (!n) {
		fprintf(out, "\nIncomplete jobs: none\n");
		return 0;
	}
	fprintf(out,
		"\nIncomplete jobs: %llu (%llu no done by the end of the trace, %llu in "
		"lost-event windows, %llu missing a stage)\n",
		(unsigned long long)n, (unsigned long long)r->c.incomplete,
		(unsigned long long)r->c.lost, (unsigned long long)r->c.orphan);
	gl_table_init(&t, "lllrrrrrllllll", inc_head);
	for (i = 0; i < nkept; i++) {
		const struct gpulat_job *j = &gpulat_session_kept(r->session, i)->job;
		char lost[64] = "";
		int st;

		snprintf(rank, sizeof(rank), "%s", gpulat_status_name(j->status));
		job_row(r, &t, j, rank);
		for (st = 0; st < GPULAT_ST__COUNT; st++) {
			if (j->lost_stages & (1u << st))
				snprintf(lost + strlen(lost), sizeof(lost) - strlen(lost), "%s%s",
					 *lost ? "," : "", gpulat_stage_name(st));
		}
		gl_table_cell(&t, "%s", *lost ? lost : "-");
		field_cell(&t, GPULAT_ROW_JOB, "identity", j);
	}
	ret = gl_table_print(&t, out, "  ");
	if (n > nkept)
		fprintf(out, "  ... %llu more (--top N shows more; --jobs lists every job)\n",
			(unsigned long long)(n - nkept));
	gl_table_free(&t);
	return ret;
}

/**
 * gl_text_report - the default report
 * @r: a run after gl_run_read()
 * @out: where to write
 *
 * Return: 0, or a negative errno.
 */
int gl_text_report(const struct gl_run *r, FILE *out)
{
	int ret;

	print_header(r, out);
	ret = print_rings(r, out);
	if (!ret)
		ret = print_owners(r, out, GPULAT_G_PROCESS);
	if (!ret)
		ret = print_owners(r, out, GPULAT_G_CLIENT);
	if (!ret)
		ret = print_worst(r, out);
	if (!ret)
		ret = print_depwaits(r, out);
	if (!ret)
		ret = print_stalls(r, out);
	if (!ret)
		ret = print_incomplete(r, out);
	if (!ret && r->opts->hist)
		ret = gl_text_hist(r, out);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* --hist                                                                     */

#define HIST_BAR	40

/* bucket i holds 2^(i-1) <= v < 2^i ns; bucket 0 holds v == 0 */
static uint64_t bucket_lo(int i)
{
	return i ? 1ULL << (i - 1) : 0;
}

static void hist_row(struct gl_table *t, const struct gpulat_hist *h, int i, uint64_t max)
{
	char a[32], b[32], bar[HIST_BAR + 1];
	int len = (int)((h->bucket[i] * HIST_BAR + max - 1) / max);

	memset(bar, '*', (size_t)len);
	bar[len] = '\0';
	gl_table_cell(t, "%s", gl_fmt_dur(a, sizeof(a), bucket_lo(i)));
	if (!i)
		gl_table_cell(t, "(zero)");
	else if (i == GPULAT_HIST_BUCKETS - 1)
		gl_table_cell(t, "inf");
	else
		gl_table_cell(t, "%s", gl_fmt_dur(b, sizeof(b), bucket_lo(i + 1)));
	gl_table_cell(t, "%llu", (unsigned long long)h->bucket[i]);
	gl_table_cell(t, "|%-*s|", HIST_BAR, bar);
}

/* zero values get their own row; then every bucket from the first to the last used */
static void print_hist(const struct gpulat_hist *h, FILE *out)
{
	static const char * const head[] = { "from", "to", "count", "distribution" };
	int i, lo = -1, hi = -1;
	struct gl_table t;
	uint64_t max = 0;

	for (i = 0; i < GPULAT_HIST_BUCKETS; i++) {
		if (h->bucket[i] > max)
			max = h->bucket[i];
		if (!i || !h->bucket[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
	}
	if (!max) {
		fprintf(out, "    (no values)\n");
		return;
	}
	gl_table_init(&t, "rrrl", head);
	if (h->bucket[0])
		hist_row(&t, h, 0, max);
	for (i = lo; lo > 0 && i <= hi; i++)
		hist_row(&t, h, i, max);
	gl_table_print(&t, out, "    ");
	gl_table_free(&t);
}

int gl_text_hist(const struct gl_run *r, FILE *out)
{
	size_t i, k, n = gpulat_stats_ngroups(r->stats, GPULAT_G_RING);
	struct gpulat_hist h;
	char name[256];

	fprintf(out, "\nHistograms (log2 buckets: from <= value < to)\n");
	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = gpulat_stats_group(r->stats, GPULAT_G_RING, i);

		for (k = 0; k < sizeof(ring_metrics) / sizeof(ring_metrics[0]); k++) {
			const struct gpulat_summary *s = &g->m[ring_metrics[k]];

			if (!s->n)
				continue;
			if (ring_metrics[k] == GPULAT_M_DEP_WAIT && !s->max)
				continue;
			fprintf(out, "\n  %s %s (n=%llu)\n",
				gl_ring_label(r, g->file, g->dev, g->ring, name, sizeof(name)),
				gpulat_metric_name(ring_metrics[k]), (unsigned long long)s->n);
			gpulat_group_hist(g, ring_metrics[k], &h);
			print_hist(&h, out);
		}
	}
	return 0;
}
