// SPDX-License-Identifier: LGPL-2.1
/*
 * truth_check: run reader + tracker + stats over a trace and compare with its
 * ground truth EXACTLY (docs/truth-format.md), or with the facts file of a
 * real capture (sample-traces/real/NAME.facts.json).
 *
 *   truth_check TRACE.dat [TRUTH.json|FACTS.json]
 *   truth_check --dir DIR        every DIR/NAME.truth.json (+ DIR/real/NAME.facts.json);
 *                                exit 77 (skip) when there is none yet, 1 when a
 *                                DIR/NAME.dat has no truth file
 *
 * With --text LOG [--tol NS] the jobs come from the text reader over LOG (the
 * same recording as `trace-cmd report` or tracefs text): every timestamp and
 * duration within NS of the truth (the text's resolution), counts exact.
 *
 * Things a reader of the trace alone cannot know are not compared, and each
 * such case is named: the timestamps of stages whose events were lost, and
 * the start (hence hw_queue, exec, busy) of jobs that follow a job whose done
 * event was lost on the same ring.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "gpulat.h"
#include "gpulat-read.h"
#include "gpulat-text.h"

#define NONE		GPULAT_NONE
#define MAX_REPORT	25
#define SKIP		77

/* --text LOG: the jobs from the text reader; --tol NS: times within NS */
static const char *text_log;
static uint64_t tol;
static bool text_plugin;
static bool text_bad;			/* lines the text reader could not use */
static struct gpulat_text *text_reader;	/* owns the strings of the text jobs */

struct ojob {
	struct gpulat_job	j;
	struct gpulat_dep	*deps;
	char			key[160];
	int			truth_idx;	/* matched truth job, -1 */
};

struct run {
	struct ojob		*jobs;
	size_t			n, cap;
	struct gpulat_stats	*stats;
	struct gpulat_reader_counts c;
	uint64_t		first, last;
	enum gpulat_era		era;
	int			cpus;
	int			warns;
};

struct check {
	const char	*name;
	unsigned long	mismatches;
	unsigned long	compared;
	unsigned long	skipped;
};

static void bad(struct check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void bad(struct check *c, const char *fmt, ...)
{
	va_list ap;

	c->mismatches++;
	if (c->mismatches > MAX_REPORT)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "%s: MISMATCH ", c->name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static const char *nstr(uint64_t v, char *buf, size_t len)
{
	if (v == NONE)
		snprintf(buf, len, "null");
	else
		snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static void cmp_u64(struct check *c, const char *what, const char *job, uint64_t truth,
		    uint64_t ours)
{
	char a[32], b[32];

	c->compared++;
	if (truth != ours)
		bad(c, "%s %s: truth %s, ours %s", job, what, nstr(truth, a, sizeof(a)),
		    nstr(ours, b, sizeof(b)));
}

/* a timestamp or duration: within tol of the truth (exact without --tol) */
static void cmp_time(struct check *c, const char *what, const char *job, uint64_t truth,
		     uint64_t ours, uint64_t slack)
{
	char a[32], b[32];

	c->compared++;
	if (truth == NONE || ours == NONE || !slack) {
		if (truth != ours)
			bad(c, "%s %s: truth %s, ours %s", job, what, nstr(truth, a, sizeof(a)),
			    nstr(ours, b, sizeof(b)));
		return;
	}
	if ((truth > ours ? truth - ours : ours - truth) > slack)
		bad(c, "%s %s: truth %s, ours %s (more than %" PRIu64 " ns apart)", job, what,
		    nstr(truth, a, sizeof(a)), nstr(ours, b, sizeof(b)), slack);
}

/* ---- json helpers ----------------------------------------------------------- */

static json_object *jget(json_object *o, const char *k)
{
	json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, k, &v))
		return NULL;
	return v;
}

static uint64_t ju64(json_object *o, const char *k)
{
	json_object *v = jget(o, k);

	if (!v || json_object_is_type(v, json_type_null))
		return NONE;
	return json_object_get_uint64(v);
}

static int jint(json_object *o, const char *k, int def)
{
	json_object *v = jget(o, k);

	if (!v || json_object_is_type(v, json_type_null))
		return def;
	return json_object_get_int(v);
}

static const char *jstr(json_object *o, const char *k)
{
	json_object *v = jget(o, k);

	if (!v || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool jbool(json_object *o, const char *k)
{
	json_object *v = jget(o, k);

	return v && json_object_get_boolean(v);
}

/* ---- running the library ----------------------------------------------------- */

static void on_job(const struct gpulat_job *job, void *data)
{
	struct run *r = data;
	struct ojob *o;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		struct ojob *nj = realloc(r->jobs, cap * sizeof(*nj));

		if (!nj)
			abort();
		r->jobs = nj;
		r->cap = cap;
	}
	o = &r->jobs[r->n++];
	memset(o, 0, sizeof(*o));
	o->j = *job;
	o->truth_idx = -1;
	/* strings: the tracker outlives the comparison, keep its pointers */
	if (job->n_deps) {
		o->deps = malloc(job->n_deps * sizeof(*o->deps));
		if (!o->deps)
			abort();
		memcpy(o->deps, job->deps, job->n_deps * sizeof(*o->deps));
	}
	o->j.deps = o->deps;
	if (gpulat_stats_add(r->stats, job))
		abort();
}

static void on_warn(const char *msg, void *data)
{
	struct run *r = data;

	r->warns++;
	fprintf(stderr, "warning: %s\n", msg);
}

/* the same through the text reader (its strings live until exit: leaked) */
static int run_text(struct run *r, struct gpulat_tracker **tp, struct gpulat_reader **rp)
{
	struct gpulat_tracker_ops ops = { .job = on_job, .warn = on_warn };
	struct gpulat_text_info info;
	struct gpulat_text *x;
	struct gpulat_tracker *t;
	char err[1024];

	x = gpulat_text_open(text_log, err, sizeof(err));
	if (!x) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	gpulat_text_set_warn(x, on_warn, r);
	r->stats = gpulat_stats_new(NULL);
	t = gpulat_tracker_new(&ops, r);
	if (!r->stats || !t)
		abort();
	if (gpulat_text_run(x, t, NULL, NULL, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	gpulat_text_info(x, &info);
	memset(&r->c, 0, sizeof(r->c));
	r->c.events = info.events;
	r->c.gpu_events = info.gpu_events;
	r->c.lost_events = info.lost_events;
	memcpy(r->c.kind, info.kind, sizeof(r->c.kind));
	r->first = info.first_ts;
	r->last = info.last_ts;
	r->era = info.era;
	r->cpus = info.cpus;
	text_plugin = info.plugin;
	printf("%s: text (%s%s), resolution %" PRIu64 " ns, %" PRIu64 " lines, %" PRIu64
	       " not parsed\n", text_log, gpulat_text_layout_name(info.layout),
	       info.plugin ? ", plugin" : "", info.resolution_ns, info.lines, info.unparsed);
	if (info.unparsed || info.bad_args)
		text_bad = true;
	text_reader = x;
	gpulat_stats_set_span(r->stats, r->first, r->last);
	gpulat_stats_finish(r->stats);
	*tp = t;
	*rp = NULL;
	return 0;
}

static int run_lib(const char *path, struct run *r, struct gpulat_tracker **tp,
		   struct gpulat_reader **rp)
{
	struct gpulat_tracker_ops ops = { .job = on_job, .warn = on_warn };
	char err[1024];
	struct gpulat_reader *rd;
	struct gpulat_tracker *t;

	if (text_log)
		return run_text(r, tp, rp);
	rd = gpulat_reader_open(&path, 1, err, sizeof(err));
	if (!rd) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	gpulat_reader_set_warn(rd, on_warn, r);
	r->stats = gpulat_stats_new(NULL);
	t = gpulat_tracker_new(&ops, r);
	if (!r->stats || !t)
		abort();
	if (gpulat_reader_run(rd, t, NULL, NULL, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		gpulat_tracker_free(t);
		gpulat_reader_close(rd);
		return -1;
	}
	gpulat_reader_counts(rd, &r->c);
	gpulat_reader_span(rd, &r->first, &r->last);
	r->era = gpulat_reader_era(rd);
	r->cpus = gpulat_reader_cpus(rd, -1);
	gpulat_stats_set_span(r->stats, r->first, r->last);
	gpulat_stats_finish(r->stats);
	*tp = t;
	*rp = rd;
	return 0;
}

static void free_run(struct run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->jobs[i].deps);
	free(r->jobs);
	gpulat_stats_free(r->stats);
}

static int cmp_ojob_key(const void *a, const void *b)
{
	return strcmp(((const struct ojob *)a)->key, ((const struct ojob *)b)->key);
}

static struct ojob *find_ojob(struct run *r, const char *key)
{
	struct ojob k;

	snprintf(k.key, sizeof(k.key), "%s", key);
	return bsearch(&k, r->jobs, r->n, sizeof(*r->jobs), cmp_ojob_key);
}

/* ---- truth ---------------------------------------------------------------------- */

static const char *status_str(enum gpulat_job_status s)
{
	return gpulat_status_name(s);
}

static unsigned int lost_mask(json_object *tj)
{
	json_object *a = jget(tj, "lost_stages");
	unsigned int m = 0;
	size_t i;

	for (i = 0; a && i < json_object_array_length(a); i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(a, i));
		int st;

		for (st = 0; st < GPULAT_ST__COUNT; st++)
			if (!strcmp(s, gpulat_stage_name(st)))
				m |= 1u << st;
	}
	return m;
}

static void truth_key(json_object *tj, bool e617, char *buf, size_t len)
{
	if (e617)
		snprintf(buf, len, "%s|%" PRIu64 ":%" PRIu64, jstr(tj, "dev"),
			 ju64(tj, "fence_ctx"), ju64(tj, "fence_seqno"));
	else
		snprintf(buf, len, "%s|%" PRIu64, jstr(tj, "ring_label"), ju64(tj, "id"));
}

/* index of the truth jobs whose ring predecessor (in done order) lost its done */
static bool *after_lost_done(json_object *jobs)
{
	size_t n = json_object_array_length(jobs), i, k;
	bool *aff = calloc(n + 1, sizeof(*aff));

	if (!aff)
		abort();
	for (i = 0; i < n; i++) {
		json_object *a = json_object_array_get_idx(jobs, i);
		uint64_t ad = ju64(a, "done_ts");

		if (!(lost_mask(a) & (1u << GPULAT_ST_DONE)) || ad == NONE)
			continue;
		/* the next job done on the same ring after a's done */
		for (k = 0; k < n; k++) {
			json_object *b = json_object_array_get_idx(jobs, k);
			uint64_t bd = ju64(b, "done_ts");

			if (k == i || bd == NONE || bd < ad)
				continue;
			if (strcmp(jstr(a, "dev"), jstr(b, "dev")) ||
			    strcmp(jstr(a, "ring"), jstr(b, "ring")))
				continue;
			/* affected when its start came from a's done */
			if (ju64(b, "start_ts") == ad)
				aff[k] = true;
		}
	}
	return aff;
}

static void check_job(struct check *c, json_object *tj, struct ojob *o, bool affected,
		      bool dma_fence, struct run *r, json_object *tjobs)
{
	static const char *const stk[GPULAT_ST__COUNT][2] = {
		{ "queue_ts", "queue_cpu" }, { "run_ts", "run_cpu" },
		{ "done_ts", "done_cpu" }, { "signal_ts", "signal_cpu" },
	};
	static const struct { const char *k; size_t off; } mk[] = {
		{ "start_ts", offsetof(struct gpulat_job, start_ts) },
		{ "wait", offsetof(struct gpulat_job, wait) },
		{ "hw_queue", offsetof(struct gpulat_job, hw_queue) },
		{ "exec", offsetof(struct gpulat_job, exec) },
		{ "total", offsetof(struct gpulat_job, total) },
		{ "dep_wait", offsetof(struct gpulat_job, dep_wait) },
	};
	const struct gpulat_job *j = &o->j;
	unsigned int lost = lost_mask(tj);
	const char *status = jstr(tj, "status"), *tring;
	json_object *deps;
	char name[200];
	size_t i, k;
	int st;

	snprintf(name, sizeof(name), "job %d (%s)", jint(tj, "index", -1), o->key);
	c->compared++;
	if (strcmp(status, status_str(j->status)))
		bad(c, "%s status: truth %s, ours %s", name, status, status_str(j->status));
	if (lost != j->lost_stages)
		bad(c, "%s lost_stages: truth 0x%x, ours 0x%x", name, lost, j->lost_stages);
	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		if (lost & (1u << st)) {
			c->skipped++;
			continue;
		}
		cmp_time(c, stk[st][0], name, ju64(tj, stk[st][0]), j->ts[st], tol);
		if (ju64(tj, stk[st][0]) != NONE && j->ts[st] != NONE &&
		    jint(tj, stk[st][1], -1) != j->cpu[st])
			bad(c, "%s %s: truth %d, ours %d", name, stk[st][1],
			    jint(tj, stk[st][1], -1), j->cpu[st]);
	}
	if (!lost && !affected) {
		for (i = 0; i < sizeof(mk) / sizeof(mk[0]); i++)
			/* durations: both ends are rounded */
			cmp_time(c, mk[i].k, name, ju64(tj, mk[i].k),
				 *(const uint64_t *)((const char *)j + mk[i].off),
				 i ? 2 * tol : tol);
	} else {
		c->skipped++;
	}
	if (!lost || !(lost & (1u << GPULAT_ST_QUEUE))) {
		if (jint(tj, "pid", -2) != j->pid)
			bad(c, "%s pid: truth %d, ours %d", name, jint(tj, "pid", -2), j->pid);
		if (strcmp(jstr(tj, "comm"), j->comm ? j->comm : ""))
			bad(c, "%s comm: truth %s, ours %s", name, jstr(tj, "comm"), j->comm);
		cmp_u64(c, "client_id", name, ju64(tj, "client_id"), j->client_id);
	}
	/* our plugin prints a 16-bit handle of the pointer */
	if (jstr(tj, "fence_ptr") && !text_plugin) {
		char p[32];

		snprintf(p, sizeof(p), "0x%" PRIx64, j->fence_ptr);
		if (strcmp(p, jstr(tj, "fence_ptr")))
			bad(c, "%s fence_ptr: truth %s, ours %s", name, jstr(tj, "fence_ptr"), p);
	}
	if (j->ctx != NONE || dma_fence) {
		cmp_u64(c, "fence_ctx", name, ju64(tj, "fence_ctx"), j->ctx);
		cmp_u64(c, "fence_seqno", name, ju64(tj, "fence_seqno"), j->seqno);
	}
	if (strcmp(jstr(tj, "dev"), j->dev))
		bad(c, "%s dev: truth '%s', ours '%s'", name, jstr(tj, "dev"), j->dev);
	/* what the trace holds: the address label before 5.19 (ring_ptr) */
	if (strcmp(jstr(tj, "ring_label"), j->ring_ptr ? j->ring_ptr : j->ring))
		bad(c, "%s ring: truth '%s', ours '%s'", name, jstr(tj, "ring_label"),
		    j->ring_ptr ? j->ring_ptr : j->ring);
	/* measured or inferred stage times (absent from older truth files) */
	if (jstr(tj, "start_timing") && j->ts[GPULAT_ST_DONE] != NONE) {
		c->compared++;
		if (strcmp(jstr(tj, "start_timing"), gpulat_timing_start(j)))
			bad(c, "%s start timing: truth %s, ours %s", name,
			    jstr(tj, "start_timing"), gpulat_timing_start(j));
		if (strcmp(jstr(tj, "done_timing"), gpulat_timing_done(j)))
			bad(c, "%s done timing: truth %s, ours %s", name,
			    jstr(tj, "done_timing"), gpulat_timing_done(j));
	}
	/* driver hang reports (xe; absent from other truth files) */
	if (jget(tj, "hang")) {
		json_object *h = jget(tj, "hang");
		unsigned int want = 0, k;
		size_t i;

		for (i = 0; i < json_object_array_length(h); i++) {
			const char *nm = json_object_get_string(json_object_array_get_idx(h, i));

			for (k = 0; gpulat_hang_name(k); k++)
				if (!strcmp(nm, gpulat_hang_name(k)))
					want |= 1u << k;
		}
		c->compared++;
		if (want != j->hang)
			bad(c, "%s hang: truth 0x%x, ours 0x%x", name, want, j->hang);
	}
	/* pointer labels get their name from the fence timelines */
	c->compared++;
	tring = jstr(tj, "ring") ? jstr(tj, "ring") : "";
	if (dma_fence && strcmp(tring, j->ring))
		bad(c, "%s ring name: truth '%s', ours '%s'", name, tring, j->ring);
	if (dma_fence && strcmp(j->ring, j->ring_name))
		bad(c, "%s ring_name '%s' is not ring '%s'", name, j->ring_name, j->ring);

	/* dependencies: the producing job, matched through our own job list */
	deps = jget(tj, "deps");
	c->compared++;
	if (json_object_array_length(deps) != j->n_deps) {
		bad(c, "%s deps: truth %zu, ours %u", name, json_object_array_length(deps), j->n_deps);
		return;
	}
	for (i = 0; i < j->n_deps; i++) {
		const struct gpulat_dep *d = &j->deps[i];
		int want = jint(json_object_array_get_idx(deps, i), "job_index", -1);
		int got = -1;

		for (k = 0; d->job_seq != NONE && k < r->n; k++) {
			if (r->jobs[k].j.seq == d->job_seq) {
				got = r->jobs[k].truth_idx;
				break;
			}
		}
		if (want != got)
			bad(c, "%s dep %zu: truth producer job %d, ours %d", name, i, want, got);
		(void)tjobs;
	}
}

static void check_summary(struct check *c, const char *ring, const char *m, json_object *ts,
			  const struct gpulat_summary *s)
{
	static const struct { const char *k; size_t off; } f[] = {
		{ "n", offsetof(struct gpulat_summary, n) },
		{ "min", offsetof(struct gpulat_summary, min) },
		{ "max", offsetof(struct gpulat_summary, max) },
		{ "mean", offsetof(struct gpulat_summary, mean) },
		{ "p50", offsetof(struct gpulat_summary, p50) },
		{ "p90", offsetof(struct gpulat_summary, p90) },
		{ "p99", offsetof(struct gpulat_summary, p99) },
		{ "p999", offsetof(struct gpulat_summary, p999) },
	};
	char what[96];
	double sd;
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		uint64_t ours = *(const uint64_t *)((const char *)s + f[i].off);

		if (!strcmp(f[i].k, "n") && ours == 0)
			ours = 0;
		snprintf(what, sizeof(what), "%s.%s", m, f[i].k);
		if (i)
			cmp_time(c, what, ring, ju64(ts, f[i].k), ours, 2 * tol);
		else
			cmp_u64(c, what, ring, ju64(ts, f[i].k), ours);
	}
	if (tol) {
		c->skipped++;	/* stddev of rounded values: not compared */
	} else if (jget(ts, "stddev") && !json_object_is_type(jget(ts, "stddev"), json_type_null)) {
		sd = json_object_get_double(jget(ts, "stddev"));
		c->compared++;
		if (fabs(sd - s->stddev) > 1e-6 * (sd > 1 ? sd : 1))
			bad(c, "%s %s.stddev: truth %.9g, ours %.9g", ring, m, sd, s->stddev);
	}
}

static void check_rings(struct check *c, json_object *rings, json_object *tjobs, struct run *r)
{
	size_t i, g, n = gpulat_stats_ngroups(r->stats, GPULAT_G_RING), njobs;
	int m;

	njobs = json_object_array_length(tjobs);
	for (i = 0; i < json_object_array_length(rings); i++) {
		json_object *tr = json_object_array_get_idx(rings, i);
		const char *dev = jstr(tr, "dev"), *label = jstr(tr, "ring_label");
		const struct gpulat_group *gr = NULL;
		bool lost_done = false, any_lost = false;
		char name[128];
		size_t k;
		double pct;

		for (k = 0; k < njobs; k++) {
			json_object *tj = json_object_array_get_idx(tjobs, k);

			if (strcmp(jstr(tj, "dev"), dev) || strcmp(jstr(tj, "ring_label"), label))
				continue;
			if (lost_mask(tj))
				any_lost = true;
			if (lost_mask(tj) & (1u << GPULAT_ST_DONE))
				lost_done = true;
		}
		snprintf(name, sizeof(name), "ring %s%s%s", dev, *dev ? "/" : "", label);
		for (g = 0; g < n; g++) {
			const struct gpulat_group *x = gpulat_stats_group(r->stats, GPULAT_G_RING, g);

			if (!strcmp(x->dev, dev) &&
			    !strcmp(x->ring_ptr ? x->ring_ptr : x->ring, label)) {
				/* the group is named like its jobs (truth "ring") */
				if (strcmp(x->ring, jstr(tr, "ring")))
					bad(c, "%s: name '%s', truth '%s'", name, x->ring,
					    jstr(tr, "ring"));
				gr = x;
				break;
			}
		}
		if (!gr) {
			if (ju64(tr, "jobs"))
				bad(c, "%s: missing in our statistics", name);
			continue;
		}
		cmp_u64(c, "jobs", name, ju64(tr, "jobs"), gr->jobs);
		cmp_u64(c, "complete", name, ju64(tr, "complete"), gr->complete);
		cmp_u64(c, "incomplete", name, ju64(tr, "incomplete"), gr->incomplete);
		cmp_u64(c, "lost", name, ju64(tr, "lost"), gr->lost);
		if (jget(tr, "hangs"))
			cmp_u64(c, "hangs", name, ju64(tr, "hangs"), gr->hangs);
		if (any_lost) {
			c->skipped++;	/* true queue/done times of lost events are unknowable */
		} else {
			cmp_u64(c, "max_depth", name, ju64(tr, "max_depth"), gr->max_depth);
		}
		for (m = 0; m < GPULAT_M__COUNT; m++) {
			const char *mn = gpulat_metric_name(m);

			if (lost_done && (m == GPULAT_M_HW_QUEUE || m == GPULAT_M_EXEC)) {
				c->skipped++;
				continue;
			}
			check_summary(c, name, mn, jget(tr, mn), &gr->m[m]);
		}
		if (lost_done) {
			c->skipped++;
			continue;
		}
		/* each busy interval has two rounded ends */
		cmp_time(c, "busy_ns", name, ju64(tr, "busy_ns"), gr->busy_ns,
			 2 * tol * (gr->jobs + 1));
		pct = json_object_get_double(jget(tr, "busy_pct"));
		c->compared++;
		if (tol)
			c->skipped++;
		else if (fabs(pct - gr->busy_pct) > 1e-9 * (pct > 1 ? pct : 1))
			bad(c, "%s busy_pct: truth %.12g, ours %.12g", name, pct, gr->busy_pct);
	}
}

static int check_truth(const char *dat, const char *truth_path)
{
	struct check c = { .name = dat };
	struct gpulat_tracker *t = NULL;
	struct gpulat_reader *rd = NULL;
	struct run r = { 0 };
	json_object *tr, *tjobs, *counts;
	bool e617, dma_fence, *aff;
	const char *era;
	size_t i, n;

	tr = json_object_from_file(truth_path);
	if (!tr) {
		fprintf(stderr, "%s: cannot parse %s\n", dat, truth_path);
		return 1;
	}
	if (run_lib(dat, &r, &t, &rd)) {
		json_object_put(tr);
		return 1;
	}
	era = jstr(tr, "era");
	/* i915 requests are keyed like 6.17+ jobs: (dev, fence ctx:seqno) */
	e617 = era && (!strcmp(era, "6.17+") || !strcmp(era, "i915"));
	dma_fence = jbool(jget(tr, "options"), "dma_fence");
	if (!era || strcmp(era, gpulat_era_name(r.era)))
		bad(&c, "era: truth %s, ours %s", era, gpulat_era_name(r.era));
	cmp_time(&c, "first_ts", "trace", ju64(tr, "first_ts"), r.first, tol);
	cmp_time(&c, "last_ts", "trace", ju64(tr, "last_ts"), r.last, tol);
	cmp_u64(&c, "cpus", "trace", ju64(tr, "cpus"), (uint64_t)r.cpus);
	counts = jget(tr, "counts");
	cmp_u64(&c, "events", "trace", ju64(counts, "events"), r.c.events);
	cmp_u64(&c, "gpu_events", "trace", ju64(counts, "gpu_events"), r.c.gpu_events);
	cmp_u64(&c, "lost_events", "trace", ju64(counts, "lost_events"), r.c.lost_events);

	for (i = 0; i < r.n; i++) {
		struct ojob *o = &r.jobs[i];

		if (e617)
			snprintf(o->key, sizeof(o->key), "%s|%" PRIu64 ":%" PRIu64, o->j.dev,
				 o->j.ctx, o->j.seqno);
		else
			snprintf(o->key, sizeof(o->key), "%s|%" PRIu64,
				 o->j.ring_ptr ? o->j.ring_ptr : o->j.ring, o->j.id);
	}
	qsort(r.jobs, r.n, sizeof(*r.jobs), cmp_ojob_key);
	for (i = 1; i < r.n; i++)
		if (!strcmp(r.jobs[i].key, r.jobs[i - 1].key))
			bad(&c, "two of our jobs have the key %s", r.jobs[i].key);

	tjobs = jget(tr, "jobs");
	n = json_object_array_length(tjobs);
	aff = after_lost_done(tjobs);
	/* match first (deps refer to producers by truth index) */
	for (i = 0; i < n; i++) {
		json_object *tj = json_object_array_get_idx(tjobs, i);
		char key[160];
		struct ojob *o;

		truth_key(tj, e617, key, sizeof(key));
		o = find_ojob(&r, key);
		if (o)
			o->truth_idx = jint(tj, "index", (int)i);
	}
	for (i = 0; i < n; i++) {
		json_object *tj = json_object_array_get_idx(tjobs, i);
		char key[160];
		struct ojob *o;

		truth_key(tj, e617, key, sizeof(key));
		o = find_ojob(&r, key);
		if (!o) {
			bad(&c, "job %d (%s, status %s): not found", jint(tj, "index", -1), key,
			    jstr(tj, "status"));
			continue;
		}
		check_job(&c, tj, o, aff[i], dma_fence, &r, tjobs);
	}
	for (i = 0; i < r.n; i++)
		if (r.jobs[i].truth_idx < 0)
			bad(&c, "our job %s (status %s) is not in the truth", r.jobs[i].key,
			    status_str(r.jobs[i].j.status));
	check_rings(&c, jget(tr, "rings"), tjobs, &r);

	printf("%s: %zu truth jobs, %zu ours, %lu values compared, %lu not comparable "
	       "(lost events), %lu mismatches\n", dat, n, r.n, c.compared, c.skipped,
	       c.mismatches);
	free(aff);
	free_run(&r);
	gpulat_tracker_free(t);
	gpulat_reader_close(rd);
	json_object_put(tr);
	if (text_bad)
		fprintf(stderr, "%s: lines the text reader could not parse\n", text_log);
	return c.mismatches || text_bad ? 1 : 0;
}

/* ---- facts of real captures ---------------------------------------------------- */

static int check_facts(const char *dat, const char *facts_path)
{
	struct check c = { .name = dat };
	struct gpulat_tracker *t = NULL;
	struct gpulat_reader *rd = NULL;
	struct run r = { 0 };
	json_object *f, *rings, *jobs;
	uint64_t incomplete = 0;
	size_t i;

	f = json_object_from_file(facts_path);
	if (!f) {
		fprintf(stderr, "%s: cannot parse %s\n", dat, facts_path);
		return 1;
	}
	if (run_lib(dat, &r, &t, &rd)) {
		json_object_put(f);
		return 1;
	}
	for (i = 0; i < r.n; i++) {
		snprintf(r.jobs[i].key, sizeof(r.jobs[i].key), "%s|%" PRIu64, r.jobs[i].j.ring,
			 r.jobs[i].j.id);
		if (r.jobs[i].j.status == GPULAT_JOB_INCOMPLETE)
			incomplete++;
	}
	qsort(r.jobs, r.n, sizeof(*r.jobs), cmp_ojob_key);

	rings = jget(f, "rings");
	json_object_object_foreach(rings, ring, counts) {
		uint64_t q = 0, rn = 0, d = 0;
		char name[128];

		for (i = 0; i < r.n; i++) {
			if (strcmp(r.jobs[i].j.ring, ring))
				continue;
			q += r.jobs[i].j.ts[GPULAT_ST_QUEUE] != NONE;
			rn += r.jobs[i].j.ts[GPULAT_ST_RUN] != NONE;
			d += r.jobs[i].j.ts[GPULAT_ST_DONE] != NONE;
		}
		snprintf(name, sizeof(name), "ring %s", ring);
		cmp_u64(&c, "queued", name, ju64(counts, "queued"), q);
		cmp_u64(&c, "run", name, ju64(counts, "run"), rn);
		cmp_u64(&c, "done", name, ju64(counts, "done"), d);
	}
	if (jget(f, "wait_dep_events"))
		cmp_u64(&c, "wait_dep_events", "trace", ju64(f, "wait_dep_events"),
			r.c.kind[GPULAT_EV_DEP]);
	if (jget(f, "incomplete_jobs"))
		cmp_u64(&c, "incomplete_jobs", "trace", ju64(f, "incomplete_jobs"), incomplete);

	jobs = jget(f, "jobs");
	for (i = 0; jobs && i < json_object_array_length(jobs); i++) {
		json_object *fj = json_object_array_get_idx(jobs, i);
		static const char *const st[3][2] = {
			{ "queue_ts", "queue_cpu" }, { "run_ts", "run_cpu" }, { "done_ts", "done_cpu" },
		};
		char key[160], name[200];
		struct ojob *o;
		int s;

		snprintf(key, sizeof(key), "%s|%" PRIu64, jstr(fj, "ring"), ju64(fj, "id"));
		snprintf(name, sizeof(name), "job %s", key);
		o = find_ojob(&r, key);
		if (!o) {
			bad(&c, "%s: not found", name);
			continue;
		}
		for (s = 0; s < 3; s++) {
			cmp_u64(&c, st[s][0], name, ju64(fj, st[s][0]), o->j.ts[s]);
			if (jget(fj, st[s][1]) && jint(fj, st[s][1], -1) != o->j.cpu[s])
				bad(&c, "%s %s: facts %d, ours %d", name, st[s][1],
				    jint(fj, st[s][1], -1), o->j.cpu[s]);
		}
		if (jstr(fj, "pid_comm") && strcmp(jstr(fj, "pid_comm"), o->j.comm))
			bad(&c, "%s comm: facts %s, ours %s", name, jstr(fj, "pid_comm"), o->j.comm);
	}
	printf("%s: facts: %zu jobs ours, %lu values compared, %lu mismatches\n", dat, r.n,
	       c.compared, c.mismatches);
	free_run(&r);
	gpulat_tracker_free(t);
	gpulat_reader_close(rd);
	json_object_put(f);
	return c.mismatches ? 1 : 0;
}

/* ---- driver ---------------------------------------------------------------------- */

static int check_one(const char *dat, const char *ref)
{
	char buf[4096];
	size_t len = strlen(dat);

	if (!ref) {
		if (len < 4 || strcmp(dat + len - 4, ".dat")) {
			fprintf(stderr, "%s: not a .dat name\n", dat);
			return 1;
		}
		snprintf(buf, sizeof(buf), "%.*s.truth.json", (int)(len - 4), dat);
		if (access(buf, R_OK)) {
			snprintf(buf, sizeof(buf), "%.*s.facts.json", (int)(len - 4), dat);
			if (access(buf, R_OK)) {
				fprintf(stderr, "%s: no .truth.json or .facts.json next to it\n", dat);
				return 1;
			}
		}
		ref = buf;
	}
	len = strlen(ref);
	if (len > 11 && !strcmp(ref + len - 11, ".facts.json"))
		return check_facts(dat, ref);
	return check_truth(dat, ref);
}

static int check_dir(const char *dir)
{
	char pat[4096], dat[4096];
	glob_t g;
	size_t i, checked = 0;
	int ret = 0;

	/* every .dat needs a truth file */
	snprintf(pat, sizeof(pat), "%s/*.dat", dir);
	if (glob(pat, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++) {
			size_t len = strlen(g.gl_pathv[i]);

			snprintf(dat, sizeof(dat), "%.*s.truth.json", (int)(len - 4), g.gl_pathv[i]);
			if (access(dat, R_OK)) {
				fprintf(stderr, "%s: trace without ground truth (%s missing)\n",
					g.gl_pathv[i], dat);
				ret = 1;
			}
		}
		globfree(&g);
	}
	snprintf(pat, sizeof(pat), "%s/*.truth.json", dir);
	if (glob(pat, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++) {
			size_t len = strlen(g.gl_pathv[i]);

			snprintf(dat, sizeof(dat), "%.*s.dat", (int)(len - 11), g.gl_pathv[i]);
			ret |= check_truth(dat, g.gl_pathv[i]);
			checked++;
		}
		globfree(&g);
	}
	snprintf(pat, sizeof(pat), "%s/real/*.facts.json", dir);
	if (glob(pat, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++) {
			size_t len = strlen(g.gl_pathv[i]);

			snprintf(dat, sizeof(dat), "%.*s.dat", (int)(len - 11), g.gl_pathv[i]);
			ret |= check_facts(dat, g.gl_pathv[i]);
			checked++;
		}
		globfree(&g);
	}
	if (!checked && !ret) {
		printf("SKIP: no %s/*.truth.json or %s/real/*.facts.json yet "
		       "(the generator writes them)\n", dir, dir);
		return SKIP;
	}
	return ret;
}

int main(int argc, char **argv)
{
	while (argc >= 3 && (!strcmp(argv[1], "--text") || !strcmp(argv[1], "--tol"))) {
		if (!strcmp(argv[1], "--text"))
			text_log = argv[2];
		else
			tol = strtoull(argv[2], NULL, 10);
		argv += 2;
		argc -= 2;
	}
	if (argc == 3 && !strcmp(argv[1], "--dir"))
		return check_dir(argv[2]);
	if (argc == 2 || argc == 3) {
		int ret = check_one(argv[1], argc == 3 ? argv[2] : NULL);

		gpulat_text_close(text_reader);
		return ret;
	}
	fprintf(stderr, "usage: truth_check [--text LOG [--tol NS]] TRACE.dat "
			"[TRUTH.json|FACTS.json]\n"
			"       truth_check --dir SAMPLES_DIR\n");
	return 2;
}
