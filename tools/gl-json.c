// SPDX-License-Identifier: LGPL-2.1
/*
 * --json: the whole report as one JSON document (json-c). Field names follow
 * docs/truth-format.md where the same thing is meant and are documented in
 * docs/gpu-latency.md; they are a stable interface. Nanoseconds everywhere;
 * null means "does not exist".
 */
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "gpulat-session.h"
#include "gpu-latency.h"

#ifndef GST_VERSION
#define GST_VERSION "0.0"
#endif

static struct json_object *j_u64(uint64_t v)
{
	return v == GPULAT_NONE ? NULL : json_object_new_uint64(v);
}

static struct json_object *j_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

struct json_object *gl_json_summary(const struct gpulat_summary *s)
{
	struct json_object *o = json_object_new_object();
	bool n = s->n != 0;

	add(o, "n", json_object_new_uint64(s->n));
	add(o, "min", n ? j_u64(s->min) : NULL);
	add(o, "max", n ? j_u64(s->max) : NULL);
	add(o, "mean", n ? j_u64(s->mean) : NULL);
	add(o, "stddev", n ? json_object_new_double(s->stddev) : NULL);
	add(o, "p50", n ? j_u64(s->p50) : NULL);
	add(o, "p90", n ? j_u64(s->p90) : NULL);
	add(o, "p99", n ? j_u64(s->p99) : NULL);
	add(o, "p999", n ? j_u64(s->p999) : NULL);
	add(o, "exact", json_object_new_boolean(s->exact));
	add(o, "max_ts", n ? j_u64(s->max_ts) : NULL);
	add(o, "max_cpu", n ? json_object_new_int(s->max_cpu) : NULL);
	add(o, "max_job_index", n ? j_u64(s->max_job_seq) : NULL);
	return o;
}

static struct json_object *json_hist(const struct gpulat_hist *h)
{
	struct json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < GPULAT_HIST_BUCKETS; i++) {
		struct json_object *b;

		if (!h->bucket[i])
			continue;
		b = json_object_new_object();
		add(b, "lo", json_object_new_uint64(i ? 1ULL << (i - 1) : 0));
		add(b, "hi", i < GPULAT_HIST_BUCKETS - 1 ? json_object_new_uint64(1ULL << i) :
		    NULL);
		add(b, "count", json_object_new_uint64(h->bucket[i]));
		json_object_array_add(a, b);
	}
	return a;
}

static struct json_object *json_group(const struct gl_run *r, const struct gpulat_group *g)
{
	struct json_object *o = json_object_new_object();
	struct json_object *hist = NULL;
	int m;

	switch (g->kind) {
	case GPULAT_G_RING:
		add(o, "dev", json_object_new_string(g->dev ? g->dev : ""));
		add(o, "ring", j_str(g->ring));
		/* <= 5.18: the address the trace holds for the ring's name */
		if (g->ring_ptr)
			add(o, "ring_ptr", j_str(g->ring_ptr));
		add(o, "file", json_object_new_int(g->file));
		break;
	case GPULAT_G_PROCESS:
		add(o, "pid", json_object_new_int(g->pid));
		add(o, "idle_gaps", json_object_new_uint64(g->idle_gaps));
		add(o, "comm", j_str(g->comm));
		break;
	case GPULAT_G_CLIENT:
		add(o, "client_id", j_u64(g->client_id));
		break;
	case GPULAT_G_DEVICE:
	case GPULAT_G__COUNT:
		add(o, "dev", json_object_new_string(g->dev ? g->dev : ""));
		break;
	}
	add(o, "jobs", json_object_new_uint64(g->jobs));
	add(o, "complete", json_object_new_uint64(g->complete));
	add(o, "incomplete", json_object_new_uint64(g->incomplete));
	add(o, "lost", json_object_new_uint64(g->lost));
	/* driver hang reports (xe), and how the stage times were got */
	add(o, "hangs", json_object_new_uint64(g->hangs));
	add(o, "start_measured", json_object_new_uint64(g->start_measured));
	add(o, "done_late", json_object_new_uint64(g->done_late));
	if (g->kind == GPULAT_G_RING || g->kind == GPULAT_G_DEVICE) {
		add(o, "busy_ns", json_object_new_uint64(g->busy_ns));
		add(o, "busy_pct", json_object_new_double(g->busy_pct));
		add(o, "max_depth", json_object_new_int((int)g->max_depth));
		add(o, "avg_depth", json_object_new_double(g->avg_depth));
	}
	if (r->opts->hist)
		hist = json_object_new_object();
	for (m = 0; m < GPULAT_M__COUNT; m++) {
		add(o, gpulat_metric_name(m), gl_json_summary(&g->m[m]));
		if (hist)
			add(hist, gpulat_metric_name(m), json_hist(&g->h[m]));
	}
	if (hist)
		add(o, "hist", hist);
	return o;
}

static struct json_object *json_groups(const struct gl_run *r, enum gpulat_group_kind kind)
{
	size_t i, n = gpulat_stats_ngroups(r->stats, kind);
	struct json_object *a = json_object_new_array();

	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = gpulat_stats_group(r->stats, kind, i);

		if (kind == GPULAT_G_CLIENT && g->client_id == GPULAT_NONE)
			continue;
		json_object_array_add(a, json_group(r, g));
	}
	return a;
}

static struct json_object *json_filter(const struct gl_filter *f)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a;
	size_t i;

#define STRS(key, list) do {						\
		a = json_object_new_array();				\
		for (i = 0; i < (list).n; i++)				\
			json_object_array_add(a, json_object_new_string((list).v[i])); \
		add(o, key, a);						\
	} while (0)
	STRS("dev", f->devs);
	STRS("ring", f->rings);
	STRS("comm", f->comms);
#undef STRS
	a = json_object_new_array();
	for (i = 0; i < f->npids; i++)
		json_object_array_add(a, json_object_new_int(f->pids[i]));
	add(o, "pid", a);
	add(o, "start_ts", f->start_ns ? json_object_new_uint64(f->start_ns) : NULL);
	add(o, "end_ts", f->end_ns != UINT64_MAX ? json_object_new_uint64(f->end_ns) : NULL);
	return o;
}

/**
 * gl_json_run - the report of one run as a JSON object (without "jobs")
 * @r: a run after gl_run_read()
 *
 * Return: a new object (json_object_put() it), NULL on allocation failure.
 */
struct json_object *gl_json_run(const struct gl_run *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a, *c;
	size_t i, n;

	add(o, "tool", json_object_new_string(GL_NAME));
	add(o, "version", json_object_new_string(GST_VERSION));
	a = json_object_new_array();
	for (i = 0; i < r->nfiles; i++)
		json_object_array_add(a, json_object_new_string(r->files[i]));
	add(o, "files", a);
	add(o, "era", json_object_new_string(gpulat_era_name(r->era)));
	gl_textlog_json(r, o);
	add(o, "first_ts", json_object_new_uint64(r->first_ts));
	add(o, "last_ts", json_object_new_uint64(r->last_ts));
	add(o, "span_ns", json_object_new_uint64(r->span_last - r->span_first));
	add(o, "cpus", json_object_new_int(r->cpus));

	c = json_object_new_object();
	add(c, "events", json_object_new_uint64(r->events));
	add(c, "gpu_events", json_object_new_uint64(r->gpu_events));
	add(c, "lost_events", json_object_new_uint64(r->lost_events));
	add(c, "lost_gaps", json_object_new_uint64(r->lost_unknown));
	add(c, "damaged_events", json_object_new_uint64(r->damaged));
	add(c, "jobs", json_object_new_uint64(r->jobs));
	add(c, "jobs_before_filter", json_object_new_uint64(r->jobs_seen));
	add(c, "complete", json_object_new_uint64(r->jobs - r->n_incomplete - r->n_lost -
						   r->n_orphan));
	add(c, "incomplete", json_object_new_uint64(r->n_incomplete));
	add(c, "lost", json_object_new_uint64(r->n_lost));
	add(c, "orphan", json_object_new_uint64(r->n_orphan));
	add(c, "orphan_done", json_object_new_uint64(r->counters.orphan_done));
	add(c, "orphan_run", json_object_new_uint64(r->counters.orphan_run));
	add(c, "open_peak", json_object_new_uint64(r->counters.open_peak));
	add(o, "counts", c);

	add(o, "filter", json_filter(&r->opts->filter));
	add(o, "stall_threshold_ns", json_object_new_uint64(r->stall_threshold_ns));
	add(o, "devices", json_groups(r, GPULAT_G_DEVICE));
	add(o, "rings", json_groups(r, GPULAT_G_RING));
	add(o, "processes", json_groups(r, GPULAT_G_PROCESS));
	add(o, "clients", json_groups(r, GPULAT_G_CLIENT));

	add(o, "worst_by", json_object_new_string(gpulat_metric_name(r->opts->stats.worst_by)));
	a = json_object_new_array();
	n = gpulat_stats_nworst(r->stats);
	for (i = 0; i < n; i++)
		json_object_array_add(a, gl_json_job(&gpulat_stats_worst(r->stats, i)->job));
	add(o, "worst", a);

	a = json_object_new_array();
	n = gpulat_stats_ndepwaits(r->stats);
	for (i = 0; i < n; i++) {
		const struct gpulat_depwait *d = gpulat_stats_depwait(r->stats, i);
		struct json_object *jd = json_object_new_object();

		add(jd, "dev", json_object_new_string(d->dev ? d->dev : ""));
		add(jd, "ring", j_str(d->ring));
		add(jd, "dep_dev", j_str(d->dep_ring ? (d->dep_dev ? d->dep_dev : "") : NULL));
		add(jd, "dep_ring", j_str(d->dep_ring));
		add(jd, "count", json_object_new_uint64(d->count));
		add(jd, "total_ns", json_object_new_uint64(d->total_ns));
		add(jd, "max_ns", json_object_new_uint64(d->max_ns));
		add(jd, "max_ts", j_u64(d->max_ts));
		json_object_array_add(a, jd);
	}
	add(o, "depwaits", a);

	a = json_object_new_array();
	n = gpulat_stats_nstalls(r->stats);
	for (i = 0; i < n; i++) {
		const struct gpulat_stall *s = gpulat_stats_stall(r->stats, i);
		struct json_object *js = json_object_new_object();
		bool gap = s->kind == GPULAT_STALL_SUBMIT_GAP;

		add(js, "kind", json_object_new_string(gap ? "submit_gap" : "ring_idle"));
		add(js, "dev", gap ? NULL : json_object_new_string(s->dev ? s->dev : ""));
		add(js, "ring", gap ? NULL : j_str(s->ring));
		add(js, "pid", gap ? json_object_new_int(s->pid) : NULL);
		add(js, "comm", gap ? j_str(s->comm) : NULL);
		add(js, "start_ts", json_object_new_uint64(s->start_ts));
		add(js, "start_cpu", json_object_new_int(s->start_cpu));
		add(js, "end_ts", json_object_new_uint64(s->end_ts));
		add(js, "end_cpu", json_object_new_int(s->end_cpu));
		add(js, "gap_ns", json_object_new_uint64(s->end_ts - s->start_ts));
		json_object_array_add(a, js);
	}
	add(o, "stalls", a);
	/* all stalls; "stalls" lists the longest 4096 of them in time order */
	add(o, "stalls_total", json_object_new_uint64(gpulat_stats_stalls_total(r->stats)));
	/* submit gaps of processes without a steady pace: idleness, not stalls */
	add(o, "idle_gaps_total", json_object_new_uint64(gpulat_stats_idle_gaps(r->stats)));

	a = json_object_new_array();
	for (i = 0; i < gpulat_session_nkept(r->session); i++)
		json_object_array_add(a, gl_json_job(&gpulat_session_kept(r->session, i)->job));
	add(o, "incomplete", a);
	return o;
}

/*
 * Print @o; with --jobs, splice the streamed job rows in as the last member,
 * "jobs", without ever holding them in memory.
 */
int gl_json_print(const struct gl_run *r, struct json_object *o, FILE *out)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	const char *end;
	int ret;

	if (!s)
		return -ENOMEM;
	if (!r || !r->jobs_tmp) {
		fprintf(out, "%s\n", s);
		return 0;
	}
	end = strrchr(s, '}');
	if (!end)
		return -EINVAL;
	/* drop the closing brace and the newline before it */
	while (end > s && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	fwrite(s, 1, (size_t)(end - s), out);
	fprintf(out, ",\n  \"jobs\": [");
	ret = gl_jobs_copy(r, out);
	fprintf(out, "\n  ]\n}\n");
	return ret;
}

int gl_json_report(const struct gl_run *r, FILE *out)
{
	struct json_object *o = gl_json_run(r);
	int ret;

	if (!o)
		return -ENOMEM;
	gl_diag_json(r, o);
	gl_frames_json(r, o);
	ret = gl_json_print(r, o, out);
	json_object_put(o);
	return ret;
}
