// SPDX-License-Identifier: LGPL-2.1
/*
 * The ground-truth file (docs/truth-format.md), computed from the simulation's
 * own job records, never from the trace. One job, ring or event per line so
 * that diffs of committed truth files stay readable.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "gen.h"

struct job_metrics {
	uint64_t	start, wait, hw_queue, exec, total, dep_wait;
	const char	*status;
};

struct truth_ctx {
	const struct gen_sim	*s;
	int			*order;		/* index -> job */
	int			*index;		/* job -> index */
	struct job_metrics	*m;
};

static const struct gen_sim *cmp_sim;

static int cmp_queue(const void *a, const void *b)
{
	const struct gen_job *x = &cmp_sim->jobs[*(const int *)a];
	const struct gen_job *y = &cmp_sim->jobs[*(const int *)b];

	if (x->queue_ts != y->queue_ts)
		return x->queue_ts < y->queue_ts ? -1 : 1;
	return x->seq - y->seq;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static json_object *ts_json(uint64_t v)
{
	return v == GEN_NONE ? NULL : json_object_new_uint64(v);
}

static json_object *cpu_json(uint64_t ts, int cpu)
{
	return ts == GEN_NONE || cpu < 0 ? NULL : json_object_new_int(cpu);
}

static uint64_t diff(uint64_t a, uint64_t b)
{
	return a == GEN_NONE || b == GEN_NONE ? GEN_NONE : a - b;
}

static bool has_run(const struct gen_sim *s)
{
	return gen_has_run(s->sc);
}

/*
 * i915 LOW_LEVEL traces i915_request_in, msm the submit's start ticks, v3d
 * the submit right before the job starts: start_ts is measured, not inferred
 */
static bool start_measured(const struct gen_sim *s)
{
	return (s->sc->era == ERA_I915 && s->sc->i915_ll) || s->sc->hwdrv;
}

/* msm: exec is end - start of the GPU's own counter (hwdrv.c) */
static bool exec_measured(const struct gen_sim *s)
{
	return s->sc->hwdrv == HWDRV_MSM;
}

/*
 * What the trace shows of a stage: its time, or none when its event fell
 * into a lost-events window (the model's times go to "sim_stages").
 */
static uint64_t vis(const struct gen_job *j, uint8_t lost_bit, uint64_t ts)
{
	return (j->lost & lost_bit) ? GEN_NONE : ts;
}

#define V_QUEUE(j)	vis(j, LOST_QUEUE, (j)->queue_ts)
#define V_RUN(j)	vis(j, LOST_RUN, (j)->run_ts)
#define V_DONE(j)	vis(j, LOST_DONE, (j)->done_ts)
#define V_SIGNAL(j)	vis(j, LOST_SIGNAL, (j)->signal_ts)

static void ring_label(const struct gen_sim *s, int r, char *buf, size_t len)
{
	if (s->sc->era >= ERA_519)
		snprintf(buf, len, "%s", s->sc->rings[r].name);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)s->rings[r].name_ptr);
}

static const char *ring_dev(const struct gen_sim *s, int r)
{
	return s->sc->era == ERA_617 || s->sc->era == ERA_I915 ?
	       s->sc->devs[s->sc->rings[r].dev].name : "";
}

/* ---- per-job metrics ---- */

static uint64_t dep_wait(const struct gen_sim *s, const struct gen_job *j,
			 uint64_t upper)
{
	uint64_t sig = 0, queue = V_QUEUE(j);
	int i;

	/* i915 traces no dependencies: unknown, not zero */
	if (s->sc->era == ERA_I915)
		return GEN_NONE;
	if (!j->ndeps)
		return 0;
	if (queue == GEN_NONE)
		return GEN_NONE;
	for (i = 0; i < j->ndeps; i++) {
		/* a scheduled fence signals at its job's run */
		uint64_t d = (j->dep_sched & (1u << i)) ? V_RUN(&s->jobs[j->deps[i]]) :
							  V_DONE(&s->jobs[j->deps[i]]);

		if (d == GEN_NONE)
			return GEN_NONE;
		if (d > sig)
			sig = d;
	}
	if (sig <= queue)
		return 0;
	sig -= queue;
	return upper != GEN_NONE && sig > upper ? upper : sig;
}

static void job_metrics(struct truth_ctx *c, int j)
{
	const struct gen_sim *s = c->s;
	const struct gen_job *J = &s->jobs[j];
	struct job_metrics *m = &c->m[j];
	uint64_t run = has_run(s) ? V_RUN(J) : GEN_NONE;

	if (V_DONE(J) == GEN_NONE)
		m->start = GEN_NONE;
	m->wait = diff(run, V_QUEUE(J));
	m->hw_queue = diff(m->start, run);
	m->exec = diff(V_DONE(J), m->start);
	if (exec_measured(s) && m->exec != GEN_NONE)
		m->exec = diff(J->hw_end_ts, m->start);
	m->total = diff(V_DONE(J), V_QUEUE(J));
	m->dep_wait = dep_wait(s, J, has_run(s) ? m->wait : m->total);
	if (J->lost)
		m->status = "lost";
	else if (J->done_ts == GEN_NONE)
		m->status = "incomplete";
	else
		m->status = "complete";
}

/*
 * Run order per ring equals queue order only with one entity; sort each
 * ring's completed jobs by done time instead (the hardware is FIFO).
 */
static int cmp_done(const void *a, const void *b)
{
	const struct gen_job *x = &cmp_sim->jobs[*(const int *)a];
	const struct gen_job *y = &cmp_sim->jobs[*(const int *)b];

	if (x->done_ts != y->done_ts)
		return x->done_ts < y->done_ts ? -1 : 1;
	return x->seq - y->seq;
}

static void compute_starts(struct truth_ctx *c)
{
	const struct gen_sim *s = c->s;
	int *done = malloc(sizeof(int) * (s->njobs + 1));
	int r, i, n;

	if (!done)
		abort();
	for (r = 0; r < s->sc->nrings; r++) {
		uint64_t prev = 0;

		for (i = n = 0; i < s->njobs; i++)
			if (s->jobs[i].ring == r && V_DONE(&s->jobs[i]) != GEN_NONE)
				done[n++] = i;
		cmp_sim = s;
		qsort(done, n, sizeof(int), cmp_done);
		for (i = 0; i < n; i++) {
			const struct gen_job *J = &s->jobs[done[i]];
			uint64_t from = has_run(s) ? V_RUN(J) : V_QUEUE(J);

			/* the previous done the trace shows; none if the run is lost */
			c->m[done[i]].start = from == GEN_NONE ? GEN_NONE :
					      from > prev ? from : prev;
			if (start_measured(s))
				c->m[done[i]].start = J->start_ts;
			prev = J->done_ts;
		}
	}
	free(done);
}

/* ---- JSON ---- */

static void add(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

/* the model's stage times of a job with lost events */
static json_object *sim_stages(const struct gen_sim *s, const struct gen_job *J)
{
	json_object *o = json_object_new_object();

	add(o, "queue_ts", ts_json(J->queue_ts));
	add(o, "queue_cpu", cpu_json(J->queue_ts, J->queue_cpu));
	add(o, "run_ts", has_run(s) ? ts_json(J->run_ts) : NULL);
	add(o, "run_cpu", has_run(s) ? cpu_json(J->run_ts, J->run_cpu) : NULL);
	add(o, "done_ts", ts_json(J->done_ts));
	add(o, "done_cpu", cpu_json(J->done_ts, J->done_cpu));
	add(o, "signal_ts", ts_json(J->signal_ts));
	add(o, "signal_cpu", cpu_json(J->signal_ts, J->signal_cpu));
	return o;
}

static json_object *job_json(const struct truth_ctx *c, int idx)
{
	const struct gen_sim *s = c->s;
	int j = c->order[idx];
	const struct gen_job *J = &s->jobs[j];
	const struct job_metrics *m = &c->m[j];
	bool e617 = s->sc->era == ERA_617 || s->sc->era == ERA_I915;
	json_object *o = json_object_new_object();
	json_object *deps = json_object_new_array();
	json_object *lost = json_object_new_array();
	char buf[40];
	int i;

	add(o, "index", json_object_new_int(idx));
	add(o, "dev", json_object_new_string(ring_dev(s, J->ring)));
	add(o, "ring", json_object_new_string(s->sc->rings[J->ring].name));
	ring_label(s, J->ring, buf, sizeof(buf));
	add(o, "ring_label", json_object_new_string(buf));
	add(o, "id", e617 ? NULL : json_object_new_uint64(J->id));
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)J->fence_ptr);
	/* pointers only the gpu_scheduler events carry (none in no_sched traces) */
	add(o, "fence_ptr", e617 || s->sc->no_sched ? NULL : json_object_new_string(buf));
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)s->ents[J->entity].ptr);
	add(o, "entity", e617 || s->sc->no_sched ? NULL : json_object_new_string(buf));
	add(o, "fence_ctx", json_object_new_uint64(J->ctx));
	add(o, "fence_seqno", json_object_new_uint64(J->seqno));
	add(o, "client_id",
	    s->sc->era == ERA_617 ? json_object_new_uint64(s->pcfg[J->proc].client_id) : NULL);
	add(o, "pid", json_object_new_int(s->pcfg[J->proc].pid));
	add(o, "comm", json_object_new_string(s->pcfg[J->proc].comm));
	add(o, "queue_ts", ts_json(V_QUEUE(J)));
	add(o, "queue_cpu", cpu_json(V_QUEUE(J), J->queue_cpu));
	add(o, "run_ts", has_run(s) ? ts_json(V_RUN(J)) : NULL);
	add(o, "run_cpu", has_run(s) ? cpu_json(V_RUN(J), J->run_cpu) : NULL);
	add(o, "done_ts", ts_json(V_DONE(J)));
	add(o, "done_cpu", cpu_json(V_DONE(J), J->done_cpu));
	add(o, "signal_ts", ts_json(V_SIGNAL(J)));
	add(o, "signal_cpu", cpu_json(V_SIGNAL(J), J->signal_cpu));
	add(o, "start_ts", ts_json(m->start));
	add(o, "wait", ts_json(m->wait));
	add(o, "hw_queue", ts_json(m->hw_queue));
	add(o, "exec", ts_json(m->exec));
	add(o, "total", ts_json(m->total));
	add(o, "dep_wait", ts_json(m->dep_wait));
	/* how the reader must have got start_ts and done_ts */
	add(o, "start_timing", json_object_new_string(start_measured(s) ? "measured" :
							"inferred"));
	if (exec_measured(s))
		add(o, "exec_timing", json_object_new_string("measured"));
	/* amdgpu kernel work: the scenario names its AMDGPU_KERNEL_JOB_ID_* */
	if (s->pcfg[J->proc].kernel_job)
		add(o, "kernel_job", json_object_new_string(s->pcfg[J->proc].kernel_job));
	add(o, "done_timing", json_object_new_string("exact"));
	if (s->sc->xe) {
		/* what xe reported about the job (lib: gpulat_hang_name()) */
		json_object *hang = json_object_new_array();

		if (J->hang & HANG_TIMEDOUT)
			json_object_array_add(hang, json_object_new_string("timedout"));
		if (J->hang & HANG_BANNED)
			json_object_array_add(hang, json_object_new_string("banned"));
		add(o, "hang", hang);
	}
	for (i = 0; i < J->ndeps; i++) {
		const struct gen_job *d = &s->jobs[J->deps[i]];
		json_object *dj = json_object_new_object();

		add(dj, "fence_ctx", json_object_new_uint64(gen_dep_ctx(s, J, i)));
		add(dj, "fence_seqno", json_object_new_uint64(d->seqno));
		add(dj, "job_index", json_object_new_int(c->index[J->deps[i]]));
		add(dj, "ring", json_object_new_string(s->sc->rings[d->ring].name));
		add(dj, "dev", json_object_new_string(ring_dev(s, d->ring)));
		if (s->sc->unsched_racy || s->sched_deps) {
			/* the scheduled fence; blocked: unschedulable while unsignalled */
			add(dj, "scheduled", json_object_new_boolean(J->dep_sched & (1u << i)));
			add(dj, "unschedulable",
			    json_object_new_boolean(J->dep_blocked & (1u << i)));
		}
		json_object_array_add(deps, dj);
	}
	add(o, "deps", deps);
	add(o, "status", json_object_new_string(m->status));
	if (J->lost & LOST_QUEUE)
		json_object_array_add(lost, json_object_new_string("queue"));
	if (J->lost & LOST_RUN)
		json_object_array_add(lost, json_object_new_string("run"));
	if (J->lost & LOST_DONE)
		json_object_array_add(lost, json_object_new_string("done"));
	if (J->lost & LOST_SIGNAL)
		json_object_array_add(lost, json_object_new_string("signal"));
	add(o, "lost_stages", lost);
	add(o, "sim_stages", J->lost ? sim_stages(s, J) : NULL);
	diag_job_json(s, J, o);
	return o;
}

/* n, min, max, mean (floor), population stddev, nearest-rank quantiles */
static json_object *stats_json(uint64_t *v, int n)
{
	static const struct { const char *k; int pm; } q[] = {
		{ "p50", 500 }, { "p90", 900 }, { "p99", 990 }, { "p999", 999 },
	};
	json_object *o = json_object_new_object();
	long double sum = 0, var = 0, mean;
	unsigned int i;

	add(o, "n", json_object_new_int(n));
	if (!n) {
		static const char *const k[] = { "min", "max", "mean", "stddev",
						 "p50", "p90", "p99", "p999" };
		for (i = 0; i < 8; i++)
			add(o, k[i], NULL);
		return o;
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < (unsigned int)n; i++)
		sum += v[i];
	mean = sum / n;
	for (i = 0; i < (unsigned int)n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	add(o, "min", json_object_new_uint64(v[0]));
	add(o, "max", json_object_new_uint64(v[n - 1]));
	add(o, "mean", json_object_new_uint64((uint64_t)floorl(mean)));
	add(o, "stddev", json_object_new_double((double)sqrtl(var / n)));
	for (i = 0; i < 4; i++) {
		uint64_t rank = ((uint64_t)q[i].pm * n + 999) / 1000;

		add(o, q[i].k, json_object_new_uint64(v[rank - 1]));
	}
	return o;
}

static uint64_t metric(const struct job_metrics *m, int k)
{
	switch (k) {
	case 0: return m->wait;
	case 1: return m->hw_queue;
	case 2: return m->exec;
	case 3: return m->total;
	default: return m->dep_wait;
	}
}

struct depth_ev {
	uint64_t	t;
	int		d;
};

static int cmp_depth(const void *a, const void *b)
{
	const struct depth_ev *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->d - y->d;		/* done (-1) before queue (+1) */
}

static int max_depth(const struct gen_sim *s, int r)
{
	struct depth_ev *ev = malloc(sizeof(*ev) * (2 * s->njobs + 1));
	int i, n = 0, cur = 0, best = 0;

	if (!ev)
		abort();
	for (i = 0; i < s->njobs; i++) {
		const struct gen_job *J = &s->jobs[i];

		if (J->ring != r)
			continue;
		ev[n++] = (struct depth_ev){ J->queue_ts, 1 };
		if (J->done_ts != GEN_NONE)
			ev[n++] = (struct depth_ev){ J->done_ts, -1 };
	}
	qsort(ev, n, sizeof(*ev), cmp_depth);
	for (i = 0; i < n; i++) {
		cur += ev[i].d;
		if (cur > best)
			best = cur;
	}
	free(ev);
	return best;
}

/* union of [start, done] of the ring's complete jobs */
static uint64_t busy_ns(const struct truth_ctx *c, int r)
{
	const struct gen_sim *s = c->s;
	uint64_t busy = 0, end = 0;
	int i;

	/* starts are non-decreasing in done order (FIFO); order is by queue */
	struct depth_ev *iv = malloc(sizeof(*iv) * (s->njobs + 1));
	int n = 0;

	if (!iv)
		abort();
	for (i = 0; i < s->njobs; i++)
		if (s->jobs[i].ring == r && !strcmp(c->m[i].status, "complete"))
			iv[n++] = (struct depth_ev){ c->m[i].start, i };
	qsort(iv, n, sizeof(*iv), cmp_depth);
	for (i = 0; i < n; i++) {
		uint64_t a = iv[i].t, b = s->jobs[iv[i].d].done_ts;

		if (a < end)
			a = end;
		if (b > a)
			busy += b - a;
		if (b > end)
			end = b;
	}
	free(iv);
	return busy;
}

static json_object *ring_json(const struct truth_ctx *c, int r)
{
	static const char *const names[] = { "wait", "hw_queue", "exec", "total", "dep_wait" };
	const struct gen_sim *s = c->s;
	json_object *o = json_object_new_object();
	uint64_t *v = malloc(sizeof(*v) * (s->njobs + 1));
	uint64_t span = s->pages->last_ts - s->pages->first_ts;
	int jobs = 0, complete = 0, incomplete = 0, lost = 0, hangs = 0, i, k, n;
	uint64_t busy = busy_ns(c, r);
	char buf[40];

	if (!v)
		abort();
	for (i = 0; i < s->njobs; i++) {
		if (s->jobs[i].ring != r)
			continue;
		jobs++;
		complete += !strcmp(c->m[i].status, "complete");
		incomplete += !strcmp(c->m[i].status, "incomplete");
		lost += !strcmp(c->m[i].status, "lost");
		hangs += s->jobs[i].hang != 0;
	}
	add(o, "dev", json_object_new_string(ring_dev(s, r)));
	add(o, "ring", json_object_new_string(s->sc->rings[r].name));
	ring_label(s, r, buf, sizeof(buf));
	add(o, "ring_label", json_object_new_string(buf));
	add(o, "credits", json_object_new_int(s->sc->rings[r].credits));
	add(o, "jobs", json_object_new_int(jobs));
	add(o, "complete", json_object_new_int(complete));
	add(o, "incomplete", json_object_new_int(incomplete));
	add(o, "lost", json_object_new_int(lost));
	if (s->sc->xe)
		add(o, "hangs", json_object_new_int(hangs));
	add(o, "busy_ns", json_object_new_uint64(busy));
	add(o, "busy_pct", json_object_new_double(span ? 100.0 * busy / span : 0.0));
	add(o, "max_depth", json_object_new_int(max_depth(s, r)));
	for (k = 0; k < 5; k++) {
		for (i = n = 0; i < s->njobs; i++)
			if (s->jobs[i].ring == r && !strcmp(c->m[i].status, "complete") &&
			    metric(&c->m[i], k) != GEN_NONE)
				v[n++] = metric(&c->m[i], k);
		add(o, names[k], stats_json(v, n));
	}
	free(v);
	return o;
}

static void put_line(FILE *fp, json_object *o, bool last)
{
	fprintf(fp, "    %s%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED),
		last ? "" : ",");
	json_object_put(o);
}

static int copy_events(FILE *fp, const char *path)
{
	FILE *in = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	bool first = true;

	if (!in)
		return -errno;
	while ((len = getline(&line, &cap, in)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = 0;
		fprintf(fp, "%s    %s", first ? "" : ",\n", line);
		first = false;
	}
	if (!first)
		fputc('\n', fp);
	free(line);
	fclose(in);
	return 0;
}

static void write_header(FILE *fp, const struct gen_sim *s, const struct gen_run_info *ri)
{
	const struct gen_scenario *sc = s->sc;

	fprintf(fp, "{\n  \"generator\": \"%s\",\n  \"scenario\": \"%s\",\n", GEN_VERSION, ri->scenario);
	fprintf(fp, "  \"description\": \"%s\",\n", sc->desc);
	fprintf(fp, "  \"seed\": %llu,\n  \"era\": \"%s\",\n  \"file_version\": %d,\n",
		(unsigned long long)ri->seed,
		/* the core library's era of a trace without gpu_scheduler events */
		sc->no_sched ? "amdgpu" : gen_era_name(sc->era), ri->file_version);
	fprintf(fp, "  \"first_ts\": %llu, \"last_ts\": %llu,\n  \"cpus\": %d,\n",
		(unsigned long long)s->pages->first_ts, (unsigned long long)s->pages->last_ts,
		sc->cpus);
	fprintf(fp, "  \"counts\": { \"events\": %llu, \"gpu_events\": %llu, \"lost_events\": %llu, \"jobs\": %d },\n",
		(unsigned long long)s->events, (unsigned long long)s->gpu_events,
		(unsigned long long)s->lost_events, s->njobs);
	fprintf(fp, "  \"options\": { \"dma_fence\": %s, \"amdgpu\": %s, \"irq\": true, \"event_truth\": %s },\n",
		sc->dma_fence ? "true" : "false", sc->amdgpu ? "true" : "false",
		ri->event_truth ? "true" : "false");
}

int gen_truth_write(const char *path, const struct gen_sim *s,
		    const struct gen_run_info *ri)
{
	struct truth_ctx c = { .s = s };
	FILE *fp;
	int i, ret = 0;

	c.order = malloc(sizeof(int) * (s->njobs + 1));
	c.index = malloc(sizeof(int) * (s->njobs + 1));
	c.m = calloc(s->njobs + 1, sizeof(*c.m));
	if (!c.order || !c.index || !c.m)
		return -ENOMEM;
	for (i = 0; i < s->njobs; i++)
		c.order[i] = i;
	cmp_sim = s;
	qsort(c.order, s->njobs, sizeof(int), cmp_queue);
	for (i = 0; i < s->njobs; i++)
		c.index[c.order[i]] = i;
	compute_starts(&c);
	for (i = 0; i < s->njobs; i++)
		job_metrics(&c, i);

	fp = fopen(path, "w");
	if (!fp) {
		ret = -errno;
		goto out;
	}
	write_header(fp, s, ri);
	fprintf(fp, "  \"jobs\": [\n");
	for (i = 0; i < s->njobs; i++)
		put_line(fp, job_json(&c, i), i == s->njobs - 1);
	fprintf(fp, "  ],\n  \"rings\": [\n");
	for (i = 0; i < s->sc->nrings; i++)
		put_line(fp, ring_json(&c, i), i == s->sc->nrings - 1);
	fprintf(fp, "  ]");
	if (ri->event_truth) {
		fprintf(fp, ",\n  \"events\": [\n");
		ret = copy_events(fp, ri->events_path);
		fprintf(fp, "  ]");
	}
	if (s->sc->diag.kind)
		diag_truth_write(fp, s);
	if (s->sc->ncrtcs) {
		uint64_t *start = malloc(sizeof(uint64_t) * (s->njobs + 1));

		if (!start)
			abort();
		for (i = 0; i < s->njobs; i++)
			start[i] = c.m[i].start;
		frames_truth_write(fp, s, start);
		free(start);
	}
	fprintf(fp, "\n}\n");
	if (fclose(fp))
		ret = -EIO;
out:
	free(c.order);
	free(c.index);
	free(c.m);
	return ret;
}
