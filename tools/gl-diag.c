// SPDX-License-Identifier: LGPL-2.1
/*
 * --explain and --fence-path: the core library's diagnosis (gpulat-diag.h)
 * fed from the same pass over the trace as the report, rendered as text
 * sections after the report and as the "explain" and "fence_path" keys of
 * --json.
 *
 *   explain      for every worst job and every stall: the hints the trace
 *                shows around it (cpu_hog, irq_storm, cpu_freq, fence_wait,
 *                dep_wait), most likely cause first
 *   fence_path   GPU irq -> done -> finished-fence signal -> waiter's
 *                wait_end per ring with percentiles, and the IRQ load per CPU
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "gpulat-diag.h"
#include "gpu-latency.h"
#include "gl-table.h"

/* ------------------------------------------------------------------------ */
/* text                                                                       */

static void print_hints(const struct gpulat_explain *x, const struct gpulat_job *j, FILE *out)
{
	unsigned int i;
	char d[32], e[32], w[32];

	if (!x) {
		fprintf(out, "      (no context kept for it)\n");
		return;
	}
	if (!x->n && j)
		fprintf(out, "      no CPU-side hint (irq, frequency, scheduling, dependencies): the "
			"time is the GPU's: wait %s (scheduler queue, credits), hw_queue %s, "
			"exec %s\n", gl_fmt_dur(w, sizeof(w), j->wait),
			gl_fmt_dur(d, sizeof(d), j->hw_queue), gl_fmt_dur(e, sizeof(e), j->exec));
	else if (!x->n)
		fprintf(out, "      no hint: nothing traced delayed the submitter (no irq load, "
			"frequency drop, run-queue wait or fence wait): it did not submit\n");
	for (i = 0; i < x->n; i++)
		fprintf(out, "      %u. %-10s %8s  %s\n", i + 1, gpulat_cause_name(x->h[i].cause),
			gl_fmt_dur(d, sizeof(d), x->h[i].score), x->h[i].text);
	if (x->partial)
		fprintf(out, "      (part of the window is older than the context kept)\n");
}

static int text_explain(const struct gl_run *r, FILE *out)
{
	size_t i, n = gpulat_stats_nworst(r->stats), ns = gpulat_stats_nstalls(r->stats), shown;
	const struct gpulat_stall **v;
	char a[256], b[64], c[64], d[32];

	fprintf(out, "\nWhy (--explain): what the trace shows around each worst job and stall, "
		"most likely cause first\n");
	for (i = 0; i < n && i < r->opts->top; i++) {
		const struct gpulat_worst *w = gpulat_stats_worst(r->stats, i);
		const struct gpulat_job *j = &w->job;

		fprintf(out, "  worst #%zu  %s  %s-%d  %s %s  queue %s .. done %s\n", i + 1,
			gl_ring_label(r, j->file, j->dev, j->ring, a, sizeof(a)),
			j->comm && j->comm[0] ? j->comm : "<...>", j->pid,
			gpulat_metric_name(r->opts->stats.worst_by),
			gl_fmt_dur(d, sizeof(d),
				   r->opts->stats.worst_by == GPULAT_M_TOTAL	? j->total :
				   r->opts->stats.worst_by == GPULAT_M_WAIT	? j->wait :
				   r->opts->stats.worst_by == GPULAT_M_EXEC	? j->exec :
				   r->opts->stats.worst_by == GPULAT_M_HW_QUEUE ? j->hw_queue :
										  j->dep_wait),
			gl_fmt_ts_cpu(b, sizeof(b), j->ts[GPULAT_ST_QUEUE],
				      j->cpu[GPULAT_ST_QUEUE]),
			gl_fmt_ts_cpu(c, sizeof(c), j->ts[GPULAT_ST_DONE], j->cpu[GPULAT_ST_DONE]));
		print_hints(gpulat_diag_job_explain(r->diag, j->seq), j, out);
	}
	if (!ns)
		return 0;
	v = calloc(ns, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < ns; i++)
		v[i] = gpulat_stats_stall(r->stats, i);
	qsort(v, ns, sizeof(*v), gl_cmp_stall);
	shown = ns < r->opts->top ? ns : r->opts->top;
	for (i = 0; i < shown; i++) {
		const struct gpulat_stall *s = v[i];

		if (s->kind == GPULAT_STALL_SUBMIT_GAP)
			snprintf(a, sizeof(a), "submit gap  %s-%d", s->comm ? s->comm : "<...>",
				 s->pid);
		else
			snprintf(a, sizeof(a), "ring idle  %s", s->ring ? s->ring : "?");
		fprintf(out, "  stall %s  %s  %s .. %s\n", a,
			gl_fmt_dur(d, sizeof(d), s->end_ts - s->start_ts),
			gl_fmt_ts_cpu(b, sizeof(b), s->start_ts, s->start_cpu),
			gl_fmt_ts_cpu(c, sizeof(c), s->end_ts, s->end_cpu));
		print_hints(gpulat_diag_stall_explain(r->diag, s), NULL, out);
	}
	if (shown < ns)
		fprintf(out, "  (%zu more stalls: --top N, or --json for all)\n", ns - shown);
	free(v);
	return 0;
}

static const char *irq_source(const struct gpulat_gpu_irq *g, char *buf, size_t len)
{
	switch (g->source) {
	case GPULAT_IRQSRC_AUTO:
		snprintf(buf, len, "GPU irq %d%s%s%s (its handler holds %llu of %llu done events)",
			 g->irq, g->name[0] ? " \"" : "", g->name, g->name[0] ? "\"" : "",
			 (unsigned long long)g->done_inside, (unsigned long long)g->done_events);
		break;
	case GPULAT_IRQSRC_OPTION:
		snprintf(buf, len, "GPU irq %d%s%s%s (--gpu-irq; its handler holds %llu of %llu "
			 "done events)", g->irq, g->name[0] ? " \"" : "", g->name,
			 g->name[0] ? "\"" : "", (unsigned long long)g->done_inside,
			 (unsigned long long)g->done_events);
		break;
	case GPULAT_IRQSRC_AMDGPU_IV:
		snprintf(buf, len, "GPU interrupt = amdgpu_iv (%llu of %llu done events follow one)",
			 (unsigned long long)g->done_inside, (unsigned long long)g->done_events);
		break;
	default:
		snprintf(buf, len, "no GPU irq stage: no done event is inside an irq_handler_entry "
			 "(record -e irq:irq_handler_entry -e irq:irq_handler_exit, or the "
			 "completion comes from a timer)");
		break;
	}
	return buf;
}

static const char * const stage_label[GPULAT_FP__COUNT] = {
	"irq -> done", "done -> signal", "signal -> wait_end",
};

static int text_fence_path(const struct gl_run *r, FILE *out)
{
	static const char * const h[] = {
		"ring", "stage", "n", "min", "mean", "p50", "p90", "p99", "p99.9", "max",
	};
	static const char * const hl[] = {
		"cpu", "hardirq", "%", "softirq", "%", "irqs", "softirqs",
	};
	struct gpulat_gpu_irq g;
	struct gl_table t;
	char a[512], d[32];
	size_t i;
	int s, c, ret;

	gpulat_diag_gpu_irq(r->diag, &g);
	fprintf(out, "\nFence-signal path (--fence-path): %s\n", irq_source(&g, a, sizeof(a)));
	gl_table_init(&t, "llrrrrrrrr", h);
	for (i = 0; i < gpulat_diag_fp_nrings(r->diag); i++) {
		const struct gpulat_fp_ring *fr = gpulat_diag_fp_ring(r->diag, i);

		for (s = 0; s < GPULAT_FP__COUNT; s++) {
			const struct gpulat_summary *m = &fr->s[s];

			gl_table_cell(&t, "%s", s ? "" :
				      gl_ring_label(r, fr->file, fr->dev, fr->ring, a, sizeof(a)));
			gl_table_cell(&t, "%s", stage_label[s]);
			gl_table_cell(&t, "%llu", (unsigned long long)m->n);
			gl_table_cell(&t, "%s", m->n ? gl_fmt_dur(d, sizeof(d), m->min) : "-");
			gl_table_cell(&t, "%s", m->n ? gl_fmt_dur(d, sizeof(d), m->mean) : "-");
			gl_table_cell(&t, "%s", m->n ? gl_fmt_dur(d, sizeof(d), m->p50) : "-");
			gl_table_cell(&t, "%s", m->n ? gl_fmt_dur(d, sizeof(d), m->p90) : "-");
			gl_table_cell(&t, "%s", m->n ? gl_fmt_dur(d, sizeof(d), m->p99) : "-");
			gl_table_cell(&t, "%s", m->n ? gl_fmt_dur(d, sizeof(d), m->p999) : "-");
			gl_table_cell(&t, "%s", m->n ? gl_fmt_dur(d, sizeof(d), m->max) : "-");
		}
	}
	ret = gl_table_print(&t, out, "  ");
	gl_table_free(&t);
	if (ret < 0)
		return ret;
	if (!gpulat_diag_has_irq(r->diag)) {
		fprintf(out, "\nIRQ load per CPU: no irq/softirq events in the trace (record -e irq)\n");
		return 0;
	}
	fprintf(out, "\nIRQ load per CPU (of the %s trace)\n",
		gl_fmt_dur(d, sizeof(d), r->c.last_ts - r->c.first_ts));
	gl_table_init(&t, "rrrrrrr", hl);
	for (c = 0; c < gpulat_diag_ncpus(r->diag); c++) {
		struct gpulat_irq_load l;

		gpulat_diag_irq_load(r->diag, c, &l);
		gl_table_cell(&t, "%d", c);
		gl_table_cell(&t, "%s", gl_fmt_dur(d, sizeof(d), l.hardirq_ns));
		gl_table_cell(&t, "%.2f", l.hardirq_pct);
		gl_table_cell(&t, "%s", gl_fmt_dur(d, sizeof(d), l.softirq_ns));
		gl_table_cell(&t, "%.2f", l.softirq_pct);
		gl_table_cell(&t, "%llu", (unsigned long long)l.hardirqs);
		gl_table_cell(&t, "%llu", (unsigned long long)l.softirqs);
	}
	ret = gl_table_print(&t, out, "  ");
	gl_table_free(&t);
	return ret;
}

int gl_diag_text(const struct gl_run *r, FILE *out)
{
	int ret = 0;

	if (!r->diag)
		return 0;
	if (r->opts->explain)
		ret = text_explain(r, out);
	if (!ret && r->opts->fence_path)
		ret = text_fence_path(r, out);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                       */

static struct json_object *j_ts(uint64_t v)
{
	return v == GPULAT_NONE ? NULL : json_object_new_uint64(v);
}

static struct json_object *json_explain_one(const struct gpulat_explain *x)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	if (!x)
		return a;
	for (i = 0; i < x->n; i++) {
		struct json_object *h = json_object_new_object();

		json_object_object_add(h, "cause",
				       json_object_new_string(gpulat_cause_name(x->h[i].cause)));
		json_object_object_add(h, "score_ns", json_object_new_uint64(x->h[i].score));
		json_object_object_add(h, "from_ts", j_ts(x->h[i].from_ts));
		json_object_object_add(h, "to_ts", j_ts(x->h[i].to_ts));
		json_object_object_add(h, "cpu", x->h[i].cpu >= 0 ?
				       json_object_new_int(x->h[i].cpu) : NULL);
		json_object_object_add(h, "text", json_object_new_string(x->h[i].text));
		json_object_array_add(a, h);
	}
	return a;
}

static struct json_object *json_explain(const struct gl_run *r)
{
	struct json_object *o = json_object_new_object(), *a;
	size_t i;

	a = json_object_new_array();
	for (i = 0; i < gpulat_stats_nworst(r->stats); i++) {
		const struct gpulat_worst *w = gpulat_stats_worst(r->stats, i);
		const struct gpulat_explain *x = gpulat_diag_job_explain(r->diag, w->job.seq);
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "job_index", json_object_new_uint64(w->job.seq));
		json_object_object_add(e, "ring", json_object_new_string(w->job.ring));
		json_object_object_add(e, "pid", json_object_new_int(w->job.pid));
		json_object_object_add(e, "queue_ts", j_ts(w->job.ts[GPULAT_ST_QUEUE]));
		json_object_object_add(e, "done_ts", j_ts(w->job.ts[GPULAT_ST_DONE]));
		json_object_object_add(e, "partial", json_object_new_boolean(x && x->partial));
		json_object_object_add(e, "hints", json_explain_one(x));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "worst", a);
	a = json_object_new_array();
	for (i = 0; i < gpulat_stats_nstalls(r->stats); i++) {
		const struct gpulat_stall *s = gpulat_stats_stall(r->stats, i);
		const struct gpulat_explain *x = gpulat_diag_stall_explain(r->diag, s);
		struct json_object *e = json_object_new_object();
		bool gap = s->kind == GPULAT_STALL_SUBMIT_GAP;

		json_object_object_add(e, "kind", json_object_new_string(gap ? "submit_gap" :
									 "ring_idle"));
		json_object_object_add(e, "pid", gap ? json_object_new_int(s->pid) : NULL);
		json_object_object_add(e, "comm", gap && s->comm ? json_object_new_string(s->comm) :
				       NULL);
		json_object_object_add(e, "dev", !gap && s->dev ? json_object_new_string(s->dev) :
				       NULL);
		json_object_object_add(e, "ring", !gap && s->ring ?
				       json_object_new_string(s->ring) : NULL);
		json_object_object_add(e, "start_ts", j_ts(s->start_ts));
		json_object_object_add(e, "end_ts", j_ts(s->end_ts));
		json_object_object_add(e, "partial", json_object_new_boolean(x && x->partial));
		json_object_object_add(e, "hints", json_explain_one(x));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "stalls", a);
	return o;
}

static struct json_object *json_fence_path(const struct gl_run *r)
{
	struct json_object *o = json_object_new_object(), *g, *a;
	struct gpulat_gpu_irq gi;
	size_t i;
	int s, c;

	gpulat_diag_gpu_irq(r->diag, &gi);
	g = json_object_new_object();
	json_object_object_add(g, "source",
			       json_object_new_string(gpulat_irq_source_name(gi.source)));
	json_object_object_add(g, "irq", gi.irq >= 0 ? json_object_new_int(gi.irq) : NULL);
	json_object_object_add(g, "name", gi.name[0] ? json_object_new_string(gi.name) : NULL);
	json_object_object_add(g, "done_inside", json_object_new_uint64(gi.done_inside));
	json_object_object_add(g, "done_events", json_object_new_uint64(gi.done_events));
	json_object_object_add(o, "gpu_irq", g);

	a = json_object_new_array();
	for (i = 0; i < gpulat_diag_fp_nrings(r->diag); i++) {
		const struct gpulat_fp_ring *fr = gpulat_diag_fp_ring(r->diag, i);
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "dev", json_object_new_string(fr->dev));
		json_object_object_add(e, "ring", json_object_new_string(fr->ring));
		if (r->nfiles > 1)
			json_object_object_add(e, "file", json_object_new_int(fr->file));
		for (s = 0; s < GPULAT_FP__COUNT; s++)
			json_object_object_add(e, gpulat_fp_stage_name(s), gl_json_summary(&fr->s[s]));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "rings", a);

	a = json_object_new_array();
	for (c = 0; gpulat_diag_has_irq(r->diag) && c < gpulat_diag_ncpus(r->diag); c++) {
		struct json_object *e = json_object_new_object();
		struct gpulat_irq_load l;

		gpulat_diag_irq_load(r->diag, c, &l);
		json_object_object_add(e, "cpu", json_object_new_int(c));
		json_object_object_add(e, "hardirq_ns", json_object_new_uint64(l.hardirq_ns));
		json_object_object_add(e, "softirq_ns", json_object_new_uint64(l.softirq_ns));
		json_object_object_add(e, "hardirq_pct", json_object_new_double(l.hardirq_pct));
		json_object_object_add(e, "softirq_pct", json_object_new_double(l.softirq_pct));
		json_object_object_add(e, "hardirqs", json_object_new_uint64(l.hardirqs));
		json_object_object_add(e, "softirqs", json_object_new_uint64(l.softirqs));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "irq_load", a);
	json_object_object_add(o, "span_ns", json_object_new_uint64(r->c.last_ts - r->c.first_ts));
	return o;
}

/* add "explain" and/or "fence_path" to the report object */
void gl_diag_json(const struct gl_run *r, struct json_object *o)
{
	if (!r->diag)
		return;
	if (r->opts->explain)
		json_object_object_add(o, "explain", json_explain(r));
	if (r->opts->fence_path)
		json_object_object_add(o, "fence_path", json_fence_path(r));
}
