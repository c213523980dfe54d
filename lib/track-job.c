// SPDX-License-Identifier: LGPL-2.1
/*
 * Job tracker: a job's life. Creation (recycled), stages, the derived times
 * of DESIGN.md "Metrics", the status (complete, incomplete, orphan, lost),
 * the done stage (ring FIFO start time, linger for the signal) and emission.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracker-int.h"

#define FREE_JOBS_MAX 4096 /* freed jobs kept for reuse */

static void twarn(struct gpulat_tracker *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void twarn(struct gpulat_tracker *t, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (!t->ops.warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->ops.warn(msg, t->data);
}

static bool run_expected(const struct gpulat_tracker *t)
{
	switch (t->era) {
	case GPULAT_ERA_PRE57:
		return false;
	case GPULAT_ERA_NONE:
		return t->seen_run;
	default:
		return true;
	}
}

struct job *gpulat__tk_new_job(struct gpulat_tracker *t, const struct gpulat_event *ev,
			       struct ring *r)
{
	struct job *j;
	int i;

	j = t->free_jobs;
	if (j) {
		/* a recycled job keeps its dependency array */
		struct gpulat_dep *deps = j->deps;
		unsigned int capdeps = j->capdeps;

		t->free_jobs = j->next;
		t->nfree_jobs--;
		memset(j, 0, sizeof(*j));
		j->deps = deps;
		j->capdeps = capdeps;
	} else {
		j = calloc(1, sizeof(*j));
		if (!j)
			return NULL;
	}
	j->slot_cpu = -1;
	j->ring = r;
	j->j.seq = t->next_seq++;
	j->j.file = t->cur_file;
	j->j.dev = r ? r->dev : gpulat__tk_tstr(t, ev->dev);
	j->j.ring = r ? r->name : t->unknown;
	j->j.comm = t->empty;
	j->j.pid = -1;
	j->j.id = GPULAT_NONE;
	j->j.ctx = GPULAT_NONE;
	j->j.seqno = GPULAT_NONE;
	j->j.client_id = GPULAT_NONE;
	for (i = 0; i < GPULAT_ST__COUNT; i++) {
		j->j.ts[i] = GPULAT_NONE;
		j->j.cpu[i] = -1;
	}
	j->j.start_ts = j->j.wait = j->j.hw_queue = j->j.exec = j->j.total = GPULAT_NONE;
	j->j.dep_wait = GPULAT_NONE;
	gpulat__tk_list_add_tail(&t->open, j);
	t->c.open++;
	if (t->c.open > t->c.open_peak)
		t->c.open_peak = t->c.open;
	return j;
}

void gpulat__tk_set_ring(struct gpulat_tracker *t, struct job *j, struct ring *r)
{
	if (!r || j->ring)
		return;
	j->ring = r;
	j->j.ring = r->name;
	j->j.dev = r->dev;
	(void)t;
}

/* the job's ring strings as handed out: name, and the address label (<= 5.18) */
static void name_ring(struct job *j)
{
	j->j.ring_ptr = j->ring && gpulat_ring_is_ptr(j->ring->name) ? j->ring->name : NULL;
	j->j.ring = shown_ring(j);
	j->j.ring_name = j->j.ring;
}

void gpulat__tk_stage(struct job *j, enum gpulat_stage st, const struct gpulat_event *ev)
{
	j->j.ts[st] = ev->ts;
	j->j.cpu[st] = ev->cpu;
	j->j.ref[st] = ev->ref;
}

static uint64_t first_ts(const struct job *j)
{
	uint64_t m = GPULAT_NONE;
	int i;

	for (i = 0; i < GPULAT_ST__COUNT; i++)
		if (j->j.ts[i] < m)
			m = j->j.ts[i];
	return m;
}

static uint64_t last_ts(const struct job *j)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < GPULAT_ST__COUNT; i++)
		if (j->j.ts[i] != GPULAT_NONE && j->j.ts[i] > m)
			m = j->j.ts[i];
	return m;
}

static void derive(struct gpulat_tracker *t, struct job *j)
{
	struct gpulat_job *g = &j->j;
	uint64_t q = g->ts[GPULAT_ST_QUEUE], r = g->ts[GPULAT_ST_RUN], d = g->ts[GPULAT_ST_DONE];
	uint64_t m = GPULAT_NONE, x;
	unsigned int i;

	g->wait = (q != GPULAT_NONE && r != GPULAT_NONE && r >= q) ? r - q : GPULAT_NONE;
	g->hw_queue = (g->start_ts != GPULAT_NONE && r != GPULAT_NONE && g->start_ts >= r) ?
			      g->start_ts - r :
			      GPULAT_NONE;
	g->exec = (g->start_ts != GPULAT_NONE && d != GPULAT_NONE && d >= g->start_ts) ?
			  d - g->start_ts :
			  GPULAT_NONE;
	g->total = (q != GPULAT_NONE && d != GPULAT_NONE && d >= q) ? d - q : GPULAT_NONE;

	gpulat__tk_resolve_deps(t, j);
	if (q == GPULAT_NONE) {
		g->dep_wait = GPULAT_NONE;
		return;
	}
	/*
	 * Dependencies on fences of no traced job count when their
	 * dma_fence_signaled was seen; a traced producer that never completed
	 * makes the wait unknown.
	 */
	for (i = 0; i < j->ndeps; i++) {
		if (j->deps[i].job_seq == GPULAT_NONE && j->deps[i].signal_ts == GPULAT_NONE)
			continue;
		x = j->deps[i].signal_ts;
		if (x == GPULAT_NONE) {
			g->dep_wait = GPULAT_NONE;
			return;
		}
		if (m == GPULAT_NONE || x > m)
			m = x;
	}
	if (m == GPULAT_NONE || m <= q)
		g->dep_wait = 0;
	else
		g->dep_wait = m - q;
	x = run_expected(t) ? g->wait : g->total;
	if (x != GPULAT_NONE && g->dep_wait > x)
		g->dep_wait = x;
}

/* true when seen stages are not in queue <= run <= done order */
static bool disordered(const struct gpulat_job *g)
{
	uint64_t q = g->ts[GPULAT_ST_QUEUE], r = g->ts[GPULAT_ST_RUN], d = g->ts[GPULAT_ST_DONE];

	if (q != GPULAT_NONE && r != GPULAT_NONE && r < q)
		return true;
	if (r != GPULAT_NONE && d != GPULAT_NONE && d < r)
		return true;
	return q != GPULAT_NONE && d != GPULAT_NONE && d < q;
}

static void classify(struct gpulat_tracker *t, struct job *j)
{
	struct gpulat_job *g = &j->j;
	uint64_t first = first_ts(j), last = last_ts(j);
	bool missing = false;

	g->lost_stages = 0;
	if (g->ts[GPULAT_ST_QUEUE] == GPULAT_NONE) {
		missing = true;
		if (gpulat__tk_lost_between(t, -1, 0,
					    first == GPULAT_NONE ? GPULAT_NONE : first + 1))
			g->lost_stages |= 1u << GPULAT_ST_QUEUE;
	}
	if (run_expected(t) && g->ts[GPULAT_ST_RUN] == GPULAT_NONE) {
		uint64_t from = g->ts[GPULAT_ST_QUEUE] == GPULAT_NONE ? 0 : g->ts[GPULAT_ST_QUEUE];
		uint64_t to = g->ts[GPULAT_ST_DONE] == GPULAT_NONE ? GPULAT_NONE :
								     g->ts[GPULAT_ST_DONE] + 1;

		missing = true;
		if (gpulat__tk_lost_between(t, -1, from, to))
			g->lost_stages |= 1u << GPULAT_ST_RUN;
	}
	if (g->ts[GPULAT_ST_DONE] == GPULAT_NONE) {
		if (gpulat__tk_lost_between(t, -1, last, GPULAT_NONE)) {
			g->lost_stages |= 1u << GPULAT_ST_DONE;
			/* its signal follows the done at once: gone with it */
			if (t->signal_expected && g->ts[GPULAT_ST_SIGNAL] == GPULAT_NONE)
				g->lost_stages |= 1u << GPULAT_ST_SIGNAL;
		}
	} else if (t->signal_expected && g->ts[GPULAT_ST_SIGNAL] == GPULAT_NONE) {
		uint64_t d = g->ts[GPULAT_ST_DONE];

		if (gpulat__tk_lost_between(t, -1, d, d + t->linger + 1))
			g->lost_stages |= 1u << GPULAT_ST_SIGNAL;
	}

	if (g->lost_stages)
		g->status = GPULAT_JOB_LOST;
	else if (disordered(g)) {
		/*
		 * Stages out of time order (done before run, run before queue)
		 * only happen when a CPU's timestamps went backwards (a damaged
		 * trace, clock trouble): no duration of this job can be trusted,
		 * so it is not "complete" and stays out of the statistics.
		 */
		g->status = GPULAT_JOB_ORPHAN;
		t->c.disordered++;
		if (!t->warned_disorder) {
			t->warned_disorder = true;
			twarn(t,
			      "GPU job stages out of time order (first on %s at %llu.%06llu): "
			      "timestamps went backwards on a CPU; such jobs are left out of "
			      "the statistics",
			      g->ring ? g->ring : "?", (unsigned long long)(first / 1000000000ULL),
			      (unsigned long long)(first % 1000000000ULL / 1000));
		}
	} else if (g->ts[GPULAT_ST_DONE] == GPULAT_NONE)
		g->status = GPULAT_JOB_INCOMPLETE;
	else if (missing)
		g->status = GPULAT_JOB_ORPHAN;
	else
		g->status = GPULAT_JOB_COMPLETE;
}

void gpulat__tk_free_job(struct gpulat_tracker *t, struct job *j)
{
	int i;

	gpulat__tk_unindex(t, j, true);
	gpulat__tk_unwatch(t, j);
	if (j->slot_cpu >= 0 && j->slot_cpu < t->ncpus && t->cpu_slot[j->slot_cpu] == j)
		t->cpu_slot[j->slot_cpu] = NULL;
	for (i = 0; i < t->ncpus; i++)
		if (t->run_slot[i] == j)
			t->run_slot[i] = NULL;
	/* kept for the next job: memory stays bounded by the jobs in flight */
	if (t->nfree_jobs < FREE_JOBS_MAX) {
		j->next = t->free_jobs;
		t->free_jobs = j;
		t->nfree_jobs++;
		return;
	}
	free(j->deps);
	free(j);
}

/* remember @j as the job of the event being fed (gpulat_tracker_last_job()) */
void gpulat__tk_keep_last(struct gpulat_tracker *t, struct job *j)
{
	name_ring(j);
	t->last = j->j;
	t->last.deps = NULL;
	t->last.n_deps = j->ndeps;
	t->has_last = true;
}

/* the job is final: hand it out and forget it */
void gpulat__tk_emit(struct gpulat_tracker *t, struct job *j)
{
	if (j->held) {
		gpulat__tk_list_del(&t->held, j);
		j->held = false;
	} else {
		gpulat__tk_list_del(&t->open, j);
	}
	t->c.open--;
	classify(t, j);
	derive(t, j);
	if (t->hw)
		gpulat__hw_apply(t->hw, &j->j);
	name_ring(j);
	j->j.n_deps = j->ndeps;
	/* NULL without deps, also for a recycled job that keeps its array */
	j->j.deps = j->ndeps ? j->deps : NULL;
	if (j->j.ts[GPULAT_ST_DONE] != GPULAT_NONE && j->j.ts[GPULAT_ST_QUEUE] == GPULAT_NONE)
		t->c.orphan_done++;
	t->c.jobs++;
	if (t->xe)
		j->j.hang |= gpulat__xe_take(t->xe, j->j.seq);
	gpulat__tk_keep_last(t, j);
	if (t->ops.job)
		t->ops.job(&j->j, t->data);
	gpulat__tk_free_job(t, j);
}

void gpulat__tk_evict_if_needed(struct gpulat_tracker *t)
{
	while (t->open.n > t->max_open && t->open.head) {
		if (!t->warned_cap) {
			t->warned_cap = true;
			twarn(t,
			      "more than %zu GPU jobs in flight; the oldest are reported as incomplete",
			      t->max_open);
		}
		t->c.dropped_open++;
		gpulat__tk_emit(t, t->open.head);
	}
}

/* emit held jobs whose signal (msm: retired event) did not come within the linger time */
void gpulat__tk_expire_held(struct gpulat_tracker *t, uint64_t now)
{
	while (t->held.head) {
		struct job *j = t->held.head;
		uint64_t linger = gpulat__tk_hw_waits(t, j) ? t->hw_linger : t->linger;

		if (j->j.ts[GPULAT_ST_DONE] + linger >= now)
			break;
		gpulat__tk_emit(t, j);
	}
}

/* msm: a done job waits (up to the linger time) for its retired event */
bool gpulat__tk_hw_waits(struct gpulat_tracker *t, const struct job *j)
{
	return t->hw && t->hw_linger && gpulat__hw_waits(t->hw, j->j.seq);
}

/*
 * The stage metrics of a held job as its done event shows them (for the
 * plugin's done line); the emitted job gets them again, with dependencies
 * and measured hardware times (msm's come after the done)
 */
static void held_view(struct gpulat_job *g)
{
	uint64_t q = g->ts[GPULAT_ST_QUEUE], r = g->ts[GPULAT_ST_RUN], d = g->ts[GPULAT_ST_DONE];
	uint64_t s = g->start_ts;

	g->wait = q != GPULAT_NONE && r != GPULAT_NONE && r >= q ? r - q : GPULAT_NONE;
	g->hw_queue = s != GPULAT_NONE && r != GPULAT_NONE && s >= r ? s - r : GPULAT_NONE;
	g->exec = s != GPULAT_NONE && d >= s ? d - s : GPULAT_NONE;
	g->total = q != GPULAT_NONE && d >= q ? d - q : GPULAT_NONE;
}

/* the done stage: compute start_ts from the ring FIFO, then emit or hold */
void gpulat__tk_complete(struct gpulat_tracker *t, struct job *j, const struct gpulat_event *ev)
{
	struct gpulat_job *g = &j->j;
	uint64_t prev = j->ring ? j->ring->last_done : GPULAT_NONE;
	uint64_t base;

	gpulat__tk_stage(j, GPULAT_ST_DONE, ev);
	if (run_expected(t))
		base = g->ts[GPULAT_ST_RUN];
	else
		base = g->ts[GPULAT_ST_QUEUE];
	if (base != GPULAT_NONE)
		g->start_ts = (prev != GPULAT_NONE && prev > base) ? prev : base;
	if (g->start_ts != GPULAT_NONE && g->start_ts > ev->ts)
		g->start_ts = ev->ts;
	if (j->ring)
		j->ring->last_done = ev->ts;

	/* the fence pointer is free for reuse from now on; (ring, id) is done too */
	gpulat__tk_unindex(t, j, false);
	gpulat__tk_dc_add(t, j);

	if ((!t->signal_expected || t->linger == 0 || g->ts[GPULAT_ST_SIGNAL] != GPULAT_NONE) &&
	    !gpulat__tk_hw_waits(t, j)) {
		gpulat__tk_emit(t, j);
		return;
	}
	gpulat__tk_list_del(&t->open, j);
	gpulat__tk_list_add_tail(&t->held, j);
	j->held = true;
	if (gpulat__tk_ensure_cpu(t, ev->cpu) == 0) {
		/* a later done on this cpu means the previous one's signal is not coming */
		struct job *old = t->cpu_slot[ev->cpu];

		t->cpu_slot[ev->cpu] = j;
		j->slot_cpu = ev->cpu;
		if (old && old != j) {
			old->slot_cpu = -1;
			if (!old->in_fence)
				gpulat__tk_emit(t, old);
		}
	}
	/* the done's job, also while it waits for its signal (not the old one) */
	gpulat__tk_keep_last(t, j);
	held_view(&t->last);
}

void gpulat__tk_job_queue_fields(struct gpulat_tracker *t, struct job *j,
				 const struct gpulat_event *ev)
{
	gpulat__tk_stage(j, GPULAT_ST_QUEUE, ev);
	j->j.pid = ev->pid;
	j->j.comm = gpulat__tk_tstr(t, ev->comm);
	if (ev->flags & GPULAT_EVF_COUNTS)
		j->j.job_count = ev->job_count;
	if (ev->flags & GPULAT_EVF_CLIENT) {
		j->j.client_id = ev->client_id;
		/* amdgpu kernel work, not a client (VM_UPDATE's id is U64_MAX) */
		j->j.kernel_job = gpulat_kernel_job_name(ev->client_id);
	}
}
