// SPDX-License-Identifier: LGPL-2.1
/*
 * gpu_jobs - KernelShark plugin, the lazy second pass: link the collected records.
 *
 * On the first draw (or accessor call) the records gpu_jobs.c collected at load time are
 * put in time order and pushed, one by one, into a gpulat session (lib/session.c), which
 * configures itself from the trace (era from the formats present, whether finished-fence
 * signals link, ring naming) and links the jobs exactly as gpu-latency does. Each record
 * goes in with its KernelShark entry as host reference, so every job comes back with
 * the entries of its stages (markers A/B). The session lives as long as the jobs: it
 * owns their strings.
 *
 * Time order: libkshark's tepdata loader reads the file CPU by CPU, so the collected
 * records are a few runs, each in time order. They are merged; sorting happens only
 * when the runs are too many for a merge (never seen in practice).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "libkshark.h"
#include "libkshark-tepdata.h"

#include "gpu_jobs.h"
#include "gpu_mem.h"
#include "gpu_rings.h"
#include "gpu_sort.h"

/* Most runs merged by scanning their heads; beyond this the records are sorted. */
#define GPUJOB_MAX_RUNS 256

/**
 * plugin_gpujob_free_results - forget the linked jobs, their indexes and the session
 * @ctx: the stream's context
 */
void plugin_gpujob_free_results(struct plugin_gpujob_ctx *ctx)
{
	plugin_gpujob_free_indexes(ctx);
	plugin_gpujob_frames_free(ctx);
	gpujob_mem_free(ctx->jobs, ctx->cap_jobs * sizeof(*ctx->jobs));
	ctx->jobs = NULL;
	ctx->n_jobs = ctx->cap_jobs = 0;
	free(ctx->deps);
	ctx->deps = NULL;
	ctx->n_deps = ctx->cap_deps = 0;
	/* last: the jobs' and rings' strings are the session's */
	gpulat_session_free(ctx->session);
	ctx->session = NULL;
	memset(&ctx->counters, 0, sizeof(ctx->counters));
	ctx->linked = false;
	ctx->link_failed = false;
}

/* ------------------------------------------------------------------------ */
/* Time order of the collected records                                        */

struct gpujob_sort {
	uint64_t ts;
	uint32_t i;
};

static int gpujob_sort_cmp(const void *a, const void *b)
{
	const struct gpujob_sort *sa = a, *sb = b;

	if (sa->ts != sb->ts)
		return sa->ts < sb->ts ? -1 : 1;
	/* ties keep collection order */
	return sa->i < sb->i ? -1 : sa->i > sb->i;
}

static int gpujob_sorted(struct plugin_gpujob_ctx *ctx, uint32_t *order)
{
	struct gpujob_sort *v;
	size_t i;

	v = malloc(ctx->n_ents * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < ctx->n_ents; i++) {
		v[i].ts = ctx->ents[i].r.ts;
		v[i].i = i;
	}
	qsort(v, ctx->n_ents, sizeof(*v), gpujob_sort_cmp);
	for (i = 0; i < ctx->n_ents; i++)
		order[i] = v[i].i;
	free(v);
	return 0;
}

/*
 * The collected records in time order, taken one by one. Ties go to the earlier run,
 * i.e. collection order, as a stable sort would do.
 *
 * The runs are merged on the fly: the cursor keeps taking records from the run with
 * the earliest head for as long as they come before the best other head, so the heads
 * are compared only when the stream switches runs (a GPU trace's records come in
 * bursts per CPU), and no order array is built or read back. More runs than
 * GPUJOB_MAX_RUNS (never seen in practice) are sorted instead.
 *
 * The runs with records left are kept ordered by (head time, run): the next stretch
 * is the first run's, up to the second one's head, and the run then moves to its new
 * place (a few steps). Scanning every head at each switch was 6.2 M of callgrind's
 * dense-1M load (77 k switches, 8 runs), the merge 17.8 M in all.
 */
struct gpujob_merge {
	const struct gpujob_raw *ents;
	/** Sorted order when the runs were too many, else NULL. */
	uint32_t *order;
	size_t n, taken;
	size_t pos[GPUJOB_MAX_RUNS], end[GPUJOB_MAX_RUNS];
	/** Runs with records left, by (head time, run index). */
	uint32_t heads[GPUJOB_MAX_RUNS];
	size_t n_heads;
};

/* run @a's head comes before run @b's (ties: the earlier run) */
static inline bool gpujob_head_before(const struct gpujob_merge *m, uint32_t a, uint32_t b)
{
	uint64_t ta = m->ents[m->pos[a]].r.ts, tb = m->ents[m->pos[b]].r.ts;

	return ta < tb || (ta == tb && a < b);
}

static int gpujob_merge_init(struct plugin_gpujob_ctx *ctx, struct gpujob_merge *m)
{
	size_t i, n = ctx->n_ents, k, n_runs, j;

	m->ents = ctx->ents;
	m->order = NULL;
	m->n = n;
	m->taken = 0;
	m->n_heads = 0;
	n_runs = 1;
	for (i = 1; i < n; i++)
		if (ctx->ents[i].r.ts < ctx->ents[i - 1].r.ts)
			n_runs++;
	if (n_runs > GPUJOB_MAX_RUNS) {
		m->order = malloc(n * sizeof(*m->order));
		if (!m->order)
			return -ENOMEM;
		return gpujob_sorted(ctx, m->order);
	}
	if (!n)
		return 0;
	m->pos[0] = 0;
	for (i = 1, k = 0; i < n; i++) {
		if (ctx->ents[i].r.ts < ctx->ents[i - 1].r.ts) {
			m->end[k++] = i;
			m->pos[k] = i;
		}
	}
	m->end[k] = n;
	/* every run has a record: insertion sort of the heads */
	for (k = 0; k < n_runs; k++) {
		for (j = m->n_heads; j > 0 && gpujob_head_before(m, k, m->heads[j - 1]); j--)
			m->heads[j] = m->heads[j - 1];
		m->heads[j] = k;
		m->n_heads++;
	}
	return 0;
}

/*
 * The next records in time order: @first and the number @n of records from there that
 * follow each other in the merged order (a stretch of one run, up to the best other
 * run's head), false after the last. The feed loop then walks the stretch without
 * looking at the heads per record (dense-1M: 333 k records in 77 k stretches).
 */
static bool gpujob_merge_next(struct gpujob_merge *m, const struct gpujob_raw **first, size_t *n)
{
	const struct gpujob_raw *e = m->ents;
	uint32_t c, o;
	size_t p, end, j;
	uint64_t lim;

	if (m->taken == m->n)
		return false;
	if (m->order) {
		*first = &e[m->order[m->taken++]];
		*n = 1;
		return true;
	}
	/* some run still has records (taken < n): the first one's head comes next */
	c = m->heads[0];
	p = m->pos[c];
	end = m->end[c];
	if (m->n_heads == 1) {
		p = end;
	} else {
		o = m->heads[1];
		lim = e[m->pos[o]].r.ts;
		/* ties go to the earlier run */
		if (c < o)
			for (p++; p < end && e[p].r.ts <= lim; p++)
				;
		else
			for (p++; p < end && e[p].r.ts < lim; p++)
				;
	}
	*first = &e[m->pos[c]];
	*n = p - m->pos[c];
	m->taken += *n;
	m->pos[c] = p;
	if (p == end) {
		/* the run is done: the others move up */
		memmove(m->heads, m->heads + 1, (m->n_heads - 1) * sizeof(m->heads[0]));
		m->n_heads--;
		return true;
	}
	/* its new head comes after the second one's: move it to its place */
	for (j = 1; j < m->n_heads && gpujob_head_before(m, m->heads[j], c); j++)
		m->heads[j - 1] = m->heads[j];
	m->heads[j - 1] = c;
	return true;
}

/* ------------------------------------------------------------------------ */
/* The session's listener                                                     */

static int gpujob_on_event(const struct gpulat_event *ev, struct tep_record *rec, int file,
			   void *data)
{
	struct plugin_gpujob_ctx *ctx = data;

	(void)rec;
	(void)file;
	/* the ring set is defined by the events, exactly as gpu-kshark-rings does */
	if (gpujob_event_names_ring(ev) &&
	    plugin_gpujob_ring_add(ctx, ev->dev ? ev->dev : "", ev->ring) < 0)
		return -ENOMEM;
	return 0;
}

static int gpujob_on_job(const struct gpulat_job *j, void *data)
{
	struct plugin_gpujob_ctx *ctx = data;
	struct plugin_gpujob_dep *dtmp;
	struct plugin_gpujob *job, *jtmp;
	size_t cap;
	unsigned int i;
	int s;

	if (ctx->n_jobs == ctx->cap_jobs) {
		/* a table past 2 MiB: huge pages (gpu_mem.c) */
		cap = ctx->cap_jobs ? ctx->cap_jobs * 2 : 1024;
		jtmp = gpujob_mem_grow(ctx->jobs, ctx->cap_jobs * sizeof(*jtmp),
				       cap * sizeof(*jtmp));
		if (!jtmp)
			return -ENOMEM;
		ctx->jobs = jtmp;
		ctx->cap_jobs = cap;
	}
	if (ctx->n_deps + j->n_deps > ctx->cap_deps) {
		cap = ctx->cap_deps ? ctx->cap_deps : 256;
		while (cap < ctx->n_deps + j->n_deps)
			cap *= 2;
		dtmp = realloc(ctx->deps, cap * sizeof(*dtmp));
		if (!dtmp)
			return -ENOMEM;
		ctx->deps = dtmp;
		ctx->cap_deps = cap;
	}

	/* every field is set below: no memset() of the 300-byte job (dense-1M: 47.5 k) */
	job = &ctx->jobs[ctx->n_jobs++];
	job->begin = GPULAT_NONE;
	job->end = 0;
	for (s = 0; s < GPUJOB_NSTAGES; s++) {
		job->ts[s] = j->ts[s];
		job->cpu[s] = j->ts[s] == GPULAT_NONE ? -1 : j->cpu[s];
		job->entry[s] = j->ts[s] == GPULAT_NONE ? NULL : j->ref[s];
		if (j->ts[s] == GPULAT_NONE)
			continue;
		if (j->ts[s] < job->begin)
			job->begin = j->ts[s];
		if (j->ts[s] > job->end)
			job->end = j->ts[s];
	}
	if (job->begin == GPULAT_NONE)
		job->begin = job->end = ctx->last_ts;
	/* never completed: the job lives until the end of the trace */
	if (j->ts[GPULAT_ST_DONE] == GPULAT_NONE && j->ts[GPULAT_ST_SIGNAL] == GPULAT_NONE &&
	    ctx->last_ts > job->end)
		job->end = ctx->last_ts;

	job->start_ts = j->start_ts;
	job->ctx = j->ctx;
	job->seqno = j->seqno;
	job->id = j->id;
	job->fence_ptr = j->fence_ptr;
	job->ptr_gen = j->ptr_gen;
	job->seq = j->seq;
	/* the session's strings live until it is freed (with the results) */
	job->dev = j->dev ? j->dev : "";
	job->ring = j->ring;
	job->ring_ptr = j->ring_ptr;
	job->comm = j->comm;
	job->pid = j->pid;
	job->ring_idx = -1;
	job->subrow = 0;
	job->color = 0;
	job->status = j->status;
	job->lost_stages = j->lost_stages;
	job->wait = j->wait;
	job->hw_queue = j->hw_queue;
	job->exec = j->exec;
	job->total = j->total;
	job->dep_wait = j->dep_wait;

	/* producers are resolved from job_seq after all jobs are known */
	job->dep_first = ctx->n_deps;
	job->n_deps = j->n_deps;
	for (i = 0; i < j->n_deps; i++) {
		struct plugin_gpujob_dep *d = &ctx->deps[ctx->n_deps++];

		d->producer = j->deps[i].job_seq == GPULAT_NONE ? -1 : (ssize_t)j->deps[i].job_seq;
		d->ctx = j->deps[i].ctx;
		d->seqno = j->deps[i].seqno;
		d->signal_ts = j->deps[i].signal_ts;
		/*
		 * Waited: the fence signaled after the job was queued (or the scheduler
		 * said the job was blocked on it, 6.17+). A fence already signaled at
		 * queue time cost the job nothing: its line would show waiting that
		 * never happened.
		 */
		d->waited = j->deps[i].unschedulable ||
			    (j->deps[i].signal_ts != GPULAT_NONE &&
			     j->ts[GPULAT_ST_QUEUE] != GPULAT_NONE &&
			     j->deps[i].signal_ts > j->ts[GPULAT_ST_QUEUE]);
	}
	return 0;
}

static void gpujob_msg(enum gpulat_msg_level level, const char *text, void *data)
{
	(void)level;
	plugin_gpujob_warn(data, text);
}

/* ------------------------------------------------------------------------ */
/* The pass                                                                   */

static int gpujob_job_cmp(const void *a, const void *b)
{
	const struct plugin_gpujob *ja = a, *jb = b;

	if (ja->begin != jb->begin)
		return ja->begin < jb->begin ? -1 : 1;
	return ja->seq < jb->seq ? -1 : ja->seq > jb->seq;
}

/* a job's sort key (gpujob_job_cmp()) and its place in the table */
struct gpujob_job_key {
	uint64_t begin;
	uint64_t seq;
	size_t idx;
};

static inline bool gpujob_key_less(const struct gpujob_job_key *a, const struct gpujob_job_key *b)
{
	if (a->begin != b->begin)
		return a->begin < b->begin;
	return a->seq < b->seq;
}

GPUJOB_DEFINE_MERGE_SORT(gpujob_keys_sort, struct gpujob_job_key, gpujob_key_less)

/*
 * Insertion sort of @k, given up after @max_moves moves (false; @k is then still a
 * permutation of the keys). Jobs come out of the session when they complete, a few
 * places after their begin order (jobs in flight on other rings): a move or two a
 * key, where the merge sort made 16 passes (dense-1M: 11 M -> 1.4 M instructions).
 */
static bool gpujob_keys_insert(struct gpujob_job_key *k, size_t n, size_t max_moves)
{
	struct gpujob_job_key x;
	size_t i, j, moves = 0;

	for (i = 1; i < n; i++) {
		if (!gpujob_key_less(&k[i], &k[i - 1]))
			continue;
		x = k[i];
		for (j = i; j > 0 && gpujob_key_less(&x, &k[j - 1]); j--) {
			k[j] = k[j - 1];
			if (++moves > max_moves) {
				/* k[j - 1] is now also at k[j]: x takes its place */
				k[j - 1] = x;
				return false;
			}
		}
		k[j] = x;
	}
	return true;
}

/*
 * Move every job to its place in one pass over the cycles of the permutation
 * (@sorted[i].idx: the job that goes to place i), through one spare job: a second
 * table was 12.5 MB of fresh pages on dense-1M, and first touches of fresh pages
 * (the kernel's clear_page) were about half of the plugin's CPU time in perf.
 */
static void gpujob_jobs_permute(struct plugin_gpujob *jobs, struct gpujob_job_key *sorted, size_t n)
{
	struct plugin_gpujob spare;
	size_t i, j, src;

	for (i = 0; i < n; i++) {
		if (sorted[i].idx == i)
			continue;
		spare = jobs[i];
		for (j = i; (src = sorted[j].idx) != i; j = src) {
			jobs[j] = jobs[src];
			sorted[j].idx = j; /* in place */
		}
		jobs[j] = spare;
		sorted[j].idx = j;
	}
}

/*
 * The jobs by begin (then seq). They come from the session in completion order, which
 * is nearly begin order: checked in one pass, else their 24-byte keys are merge sorted
 * and the table is permuted in place. qsort() of the 300-byte jobs compared them
 * through pointers into the whole table, cache misses on every comparison.
 */
static int gpujob_jobs_sort(struct plugin_gpujob_ctx *ctx)
{
	struct gpujob_job_key *keys, *sorted;
	size_t i, n = ctx->n_jobs;

	for (i = 1; i < n && gpujob_job_cmp(&ctx->jobs[i - 1], &ctx->jobs[i]) <= 0; i++)
		;
	if (i >= n)
		return 0;
	/* the merge sort's second half is touched only when the insertion sort gives up */
	keys = malloc(2 * n * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		keys[i].begin = ctx->jobs[i].begin;
		keys[i].seq = ctx->jobs[i].seq;
		keys[i].idx = i;
	}
	/* more than 8 moves a key on average: far from sorted, the merge sort bounds it */
	sorted = keys;
	if (!gpujob_keys_insert(keys, n, 8 * n))
		sorted = gpujob_keys_sort(keys, keys + n, n);
	gpujob_jobs_permute(ctx->jobs, sorted, n);
	free(keys);
	return 0;
}

struct gpujob_seq_map {
	uint64_t seq;
	size_t idx;
};

static int gpujob_seq_cmp(const void *a, const void *b)
{
	const struct gpujob_seq_map *ma = a, *mb = b;

	return ma->seq < mb->seq ? -1 : ma->seq > mb->seq;
}

/* Dependencies carry the producer's tracker seq; turn it into a job table index. */
static int gpujob_resolve_deps(struct plugin_gpujob_ctx *ctx)
{
	struct gpujob_seq_map *map, key, *hit;
	size_t i;

	if (!ctx->n_deps)
		return 0;

	map = malloc(ctx->n_jobs * sizeof(*map) + 1);
	if (!map)
		return -ENOMEM;
	for (i = 0; i < ctx->n_jobs; i++) {
		map[i].seq = ctx->jobs[i].seq;
		map[i].idx = i;
	}
	qsort(map, ctx->n_jobs, sizeof(*map), gpujob_seq_cmp);

	for (i = 0; i < ctx->n_deps; i++) {
		if (ctx->deps[i].producer < 0)
			continue;
		key.seq = ctx->deps[i].producer;
		hit = bsearch(&key, map, ctx->n_jobs, sizeof(*map), gpujob_seq_cmp);
		ctx->deps[i].producer = hit ? (ssize_t)hit->idx : -1;
	}
	free(map);
	return 0;
}

/* Push every collected record, in time order, into a new session. */
static int gpujob_feed(struct plugin_gpujob_ctx *ctx)
{
	/*
	 * Only queue and run events name a ring (gpujob_event_names_ring()): the
	 * session skips the call for the other 4 in 7 records (dense-1M: 237 k of
	 * 333 k pushes, about 10 M instructions of callgrind's 2460 M).
	 */
	struct gpulat_listener l = {
		.sz = sizeof(l),
		.event = gpujob_on_event,
		.job = gpujob_on_job,
		.kinds = GPULAT_LISTEN_KIND(GPULAT_EV_QUEUE) | GPULAT_LISTEN_KIND(GPULAT_EV_RUN),
	};
	struct gpulat_session_opts o;
	const struct gpujob_raw *r;
	const struct kshark_entry *e;
	struct gpujob_merge merge;
	size_t n;
	int ret;

	gpulat_session_opts_init(&o);
	/* the plugin draws jobs; statistics are gpu-latency's */
	o.features = GPULAT_FEAT_NO_STATS;
	o.msg = gpujob_msg;
	o.msg_data = ctx;
	ctx->session = gpulat_session_new(&o);
	if (!ctx->session)
		return -ENOMEM;
	ret = gpulat_session_add_listener(ctx->session, &l, ctx);
	/* the CRTC rows: vblanks and frames as lib/frames.c judges them */
	if (!ret)
		ret = plugin_gpujob_frames_listen(ctx);
	if (!ret)
		ret = gpulat_session_attach_tep(ctx->session, kshark_get_tep(ctx->stream));
	merge.order = NULL;
	if (!ret)
		ret = gpujob_merge_init(ctx, &merge);

	/* (last_ts, the end of a job never completed, was kept while collecting) */
	while (!ret && gpujob_merge_next(&merge, &r, &n)) {
		const struct gpujob_raw *r_end = r + n, *q;

		while (!ret && r < r_end) {
			/* the records up to the next entry without payload: one batch */
			for (q = r; q < r_end && q->r.data; q++)
				;
			if (q > r) {
				ret = gpulat_session_push_many(ctx->session, &r->r, q - r,
							       sizeof(*r));
				if (ret > 0)
					ret = 0;
				r = q;
			}
			if (ret || r == r_end)
				break;
			e = gpujob_raw_entry(r);
			/*
			 * damaged: counted at load. Lost events: from the CPU's last
			 * record the session was pushed; the number of missed events
			 * in the offset (-1 when unknown)
			 */
			if (e->event_id == KS_EVENT_OVERFLOW)
				gpulat_session_lost(ctx->session, r->r.cpu, GPULAT_NONE, r->r.ts,
						    e->offset > 0 ? (uint64_t)e->offset : 0);
			r++;
		}
	}
	if (!ret)
		ret = gpulat_session_finish(ctx->session);
	if (!ret) {
		gpulat_session_tracker_counters(ctx->session, &ctx->counters);
		plugin_gpujob_frames_done(ctx);
	}
	free(merge.order);
	return ret;
}

/**
 * plugin_gpujob_link - the lazy second pass: link the collected records into jobs
 * @ctx: the stream's context
 *
 * Context: called from the draw handler or an accessor, after the data is loaded.
 * Return: 0, or a negative errno (the plugin then draws nothing for this stream).
 */
int plugin_gpujob_link(struct plugin_gpujob_ctx *ctx)
{
	int ret;

	if (ctx->link_failed)
		return -ENOMEM;
	if (ctx->linked)
		return 0;
	if (ctx->collect_failed) {
		ret = -ENOMEM;
		goto fail;
	}

	if (ctx->n_damaged) {
		char msg[128];

		snprintf(msg, sizeof(msg),
			 "%zu damaged records skipped (longer than their "
			 "ring-buffer page)",
			 ctx->n_damaged);
		plugin_gpujob_warn(ctx, msg);
	}

	ret = gpujob_feed(ctx);
	if (ret)
		goto fail;
	ret = gpujob_jobs_sort(ctx);
	if (!ret)
		ret = gpujob_resolve_deps(ctx);
	if (!ret)
		ret = plugin_gpujob_build_rings(ctx);
	if (!ret)
		ret = plugin_gpujob_build_indexes(ctx);
	if (ret)
		goto fail;
	ctx->linked = true;
	return 0;

fail:
	if (ret == -ENOMEM) {
		char msg[64];

		snprintf(msg, sizeof(msg), "out of memory while linking jobs");
		plugin_gpujob_warn(ctx, msg);
	}
	plugin_gpujob_free_results(ctx);
	ctx->link_failed = true;
	return ret < 0 ? ret : -ENOMEM;
}
