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

/* a slot of the job slab; chunks of JCHUNK jobs, never freed before the tracker */
static struct job *take_job(struct gpulat_tracker *t)
{
	struct jchunk *c;
	struct job *j;
	uint32_t i, base;

	j = t->free_jobs;
	if (j) {
		t->free_jobs = job_at(t, j->next);
		return j;
	}
	if (t->nchunks == t->capchunks) {
		uint32_t cap = t->capchunks ? t->capchunks * 2 : 16;
		struct jchunk **nc;

		/* slot indexes are 32 bits */
		if (cap > (UINT32_MAX >> JCHUNK_SHIFT))
			return NULL;
		nc = realloc(t->chunks, cap * sizeof(*nc));
		if (!nc)
			return NULL;
		t->chunks = nc;
		t->capchunks = cap;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	base = t->nchunks << JCHUNK_SHIFT;
	t->chunks[t->nchunks++] = c;
	/* the rest of the chunk onto the free list, to be taken front to back */
	for (i = JCHUNK - 1; i > 0; i--) {
		c->jobs[i].idx = base + i;
		c->jobs[i].next = job_ref(t->free_jobs);
		t->free_jobs = &c->jobs[i];
	}
	c->jobs[0].idx = base;
	return &c->jobs[0];
}

struct jptr *gpulat__tk_ptrx(struct gpulat_tracker *t, struct job *j)
{
	struct jchunk *c = job_chunk(t, j);
	uint32_t k;

	if (!c->ptr) {
		c->ptr = calloc(JCHUNK, sizeof(*c->ptr));
		if (!c->ptr)
			return NULL;
		for (k = 0; k < JCHUNK; k++) {
			c->ptr[k].job = &c->jobs[k];
			c->ptr[k].id = GPULAT_NONE;
		}
	}
	return &c->ptr[j->idx & (JCHUNK - 1)];
}

struct jdone *gpulat__tk_donex(struct gpulat_tracker *t, struct job *j)
{
	struct jdone *c, *d;
	uint32_t i, base;

	if (j->dn)
		return job_donex(t, j);
	if (!t->free_dn) {
		if (t->ndchunks == t->capdchunks) {
			uint32_t cap = t->capdchunks ? t->capdchunks * 2 : 16;
			struct jdone **nc;

			if (cap > (UINT32_MAX >> DCHUNK_SHIFT))
				return NULL;
			nc = realloc(t->dchunks, cap * sizeof(*nc));
			if (!nc)
				return NULL;
			t->dchunks = nc;
			t->capdchunks = cap;
		}
		c = malloc(DCHUNK * sizeof(*c));
		if (!c)
			return NULL;
		base = t->ndchunks << DCHUNK_SHIFT;
		t->dchunks[t->ndchunks++] = c;
		/* onto the free list, to be taken front to back */
		for (i = DCHUNK; i > 0; i--) {
			c[i - 1].dc_slot = t->free_dn;
			t->free_dn = base + i;
		}
	}
	j->dn = t->free_dn;
	d = job_donex(t, j);
	t->free_dn = d->dc_slot;
	d->ts[0] = d->ts[1] = GPULAT_NONE;
	d->start_ts = GPULAT_NONE;
	d->cpu[0] = d->cpu[1] = -1;
	d->slot_cpu = -1;
	d->dc_slot = 0;
	return d;
}

/* @j's done part back to its slab */
static void put_done(struct gpulat_tracker *t, struct job *j)
{
	struct jdone *d = job_donex(t, j);

	if (!d)
		return;
	d->dc_slot = t->free_dn;
	t->free_dn = j->dn;
	j->dn = 0;
}

struct jrare *gpulat__tk_rarex(struct gpulat_tracker *t, struct job *j)
{
	struct jchunk *c = job_chunk(t, j);

	if (!c->rare) {
		c->rare = calloc(JCHUNK, sizeof(*c->rare));
		if (!c->rare)
			return NULL;
	}
	return &c->rare[j->idx & (JCHUNK - 1)];
}

struct jdeps *gpulat__tk_depx(struct gpulat_tracker *t, struct job *j)
{
	struct jchunk *c = job_chunk(t, j);

	if (!c->deps) {
		c->deps = calloc(JCHUNK, sizeof(*c->deps));
		if (!c->deps)
			return NULL;
	}
	return &c->deps[j->idx & (JCHUNK - 1)];
}

void gpulat__tk_jobs_free(struct gpulat_tracker *t)
{
	uint32_t i, k;

	for (i = 0; i < t->nchunks; i++) {
		struct jchunk *c = t->chunks[i];

		if (c->deps)
			for (k = 0; k < JCHUNK; k++)
				free(c->deps[k].deps);
		free(c->deps);
		free(c->ptr);
		free(c->rare);
		free(c->refs);
		free(c);
	}
	free(t->chunks);
	t->chunks = NULL;
	t->nchunks = t->capchunks = 0;
	t->free_jobs = NULL;
	for (i = 0; i < t->ndchunks; i++)
		free(t->dchunks[i]);
	free(t->dchunks);
	t->dchunks = NULL;
	t->ndchunks = t->capdchunks = 0;
	t->free_dn = 0;
}

struct job *gpulat__tk_new_job(struct gpulat_tracker *t, const struct gpulat_event *ev,
			       struct ring *r)
{
	struct jchunk *c;
	struct job *j;
	uint32_t idx, k;
	int i;

	j = take_job(t);
	if (!j)
		return NULL;
	idx = j->idx;
	memset(j, 0, sizeof(*j));
	j->idx = idx;
	c = job_chunk(t, j);
	k = idx & (JCHUNK - 1);
	/* the slot's out-of-line parts: a recycled slot keeps its dependency array */
	if (c->ptr) {
		struct jptr *p = &c->ptr[k];

		memset(p, 0, sizeof(*p));
		p->job = j;
		p->id = GPULAT_NONE;
	}
	if (c->deps) {
		c->deps[k].ndeps = 0;
		c->deps[k].watches = NULL;
	}
	if (c->refs)
		memset(c->refs[k], 0, sizeof(c->refs[k]));
	if (c->rare)
		memset(&c->rare[k], 0, sizeof(c->rare[k]));
	j->ring = r;
	j->seq = t->next_seq++;
	j->file = t->cur_file;
	if (!r) {
		/* out of line (rare: a done or signal of no known ring); ENOMEM: "" */
		struct jrare *p = gpulat__tk_rarex(t, j);

		if (p)
			p->dev = gpulat__strtab_id(gpulat__tk_tstr(t, ev->dev));
	}
	j->comm = t->empty_id;
	j->pid = -1;
	j->ctx = GPULAT_NONE;
	j->seqno = GPULAT_NONE;
	j->client_id = GPULAT_NONE;
	for (i = 0; i < GPULAT_ST_DONE; i++) {
		j->ts_qr[i] = GPULAT_NONE;
		j->cpu_qr[i] = -1;
	}
	gpulat__tk_list_add_tail(t, &t->open, j);
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
	(void)t;
}

/* the public record of @j as it stands; derived times unknown, deps not set */
static void build(const struct gpulat_tracker *t, const struct job *j, struct gpulat_job *g)
{
	const struct jptr *p = job_ptrx(t, j);
	const struct jchunk *c = job_chunk(t, j);
	const struct jdone *d = job_donex(t, j);
	int i;

	memset(g, 0, sizeof(*g));
	g->seq = j->seq;
	g->dev = job_dev(t, j);
	g->ring = shown_ring(t, j);
	g->ring_name = g->ring;
	/* the job's ring strings as handed out: name, and the address label (<= 5.18) */
	g->ring_ptr = j->ring && j->ring->is_ptr ? j->ring->name : NULL;
	g->comm = gpulat__strtab_str(t->strs, j->comm);
	g->pid = j->pid;
	g->id = p ? p->id : GPULAT_NONE;
	g->fence_ptr = p ? p->fence_ptr : 0;
	g->ptr_gen = p ? p->ptr_gen : 0;
	g->ctx = j->ctx;
	g->seqno = j->seqno;
	g->client_id = j->client_id;
	for (i = 0; i < GPULAT_ST_DONE; i++) {
		g->ts[i] = j->ts_qr[i];
		g->cpu[i] = job_cpu(t, j, i);
	}
	for (i = GPULAT_ST_DONE; i < GPULAT_ST__COUNT; i++) {
		g->ts[i] = d ? d->ts[i - GPULAT_ST_DONE] : GPULAT_NONE;
		g->cpu[i] = d ? d->cpu[i - GPULAT_ST_DONE] : -1;
	}
	if (c->refs)
		for (i = 0; i < GPULAT_ST__COUNT; i++)
			g->ref[i] = c->refs[j->idx & (JCHUNK - 1)][i];
	g->job_count = j->job_count;
	g->hw_job_count = j->hw_job_count;
	g->start_ts = d ? d->start_ts : GPULAT_NONE;
	g->wait = g->hw_queue = g->exec = g->total = g->dep_wait = GPULAT_NONE;
	g->n_deps = job_ndeps(t, j);
	g->file = j->file;
	g->timing = j->timing;
	/* amdgpu kernel work, not a client (VM_UPDATE's id is U64_MAX) */
	g->kernel_job = j->kernel_job ? gpulat_kernel_job_name(j->client_id) : NULL;
}

void gpulat__tk_stage(struct gpulat_tracker *t, struct job *j, enum gpulat_stage st,
		      const struct gpulat_event *ev)
{
	struct jchunk *c = job_chunk(t, j);

	if (st < GPULAT_ST_DONE) {
		j->ts_qr[st] = ev->ts;
		if (!j->cpu_x && ev->cpu >= -1 && ev->cpu <= INT16_MAX) {
			j->cpu_qr[st] = (int16_t)ev->cpu;
		} else {
			/* a cpu number int16_t cannot hold (hosts may feed any int) */
			struct jrare *p = gpulat__tk_rarex(t, j);

			if (p) {
				if (!j->cpu_x) {
					p->cpu[0] = j->cpu_qr[0];
					p->cpu[1] = j->cpu_qr[1];
					j->cpu_x = true;
				}
				p->cpu[st] = ev->cpu;
			}
		}
	} else {
		struct jdone *d = gpulat__tk_donex(t, j);

		/* ENOMEM: the stage is not recorded (the job stays open, or incomplete) */
		if (!d)
			return;
		d->ts[st - GPULAT_ST_DONE] = ev->ts;
		d->cpu[st - GPULAT_ST_DONE] = ev->cpu;
	}
	/* host references (KernelShark entries) out of line: the CLI has none */
	if (ev->ref && !c->refs)
		c->refs = calloc(JCHUNK, sizeof(*c->refs));
	if (c->refs)
		c->refs[j->idx & (JCHUNK - 1)][st] = ev->ref;
}

static uint64_t first_ts(const struct gpulat_job *g)
{
	uint64_t m = GPULAT_NONE;
	int i;

	for (i = 0; i < GPULAT_ST__COUNT; i++)
		if (g->ts[i] < m)
			m = g->ts[i];
	return m;
}

static uint64_t last_ts(const struct gpulat_job *g)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < GPULAT_ST__COUNT; i++)
		if (g->ts[i] != GPULAT_NONE && g->ts[i] > m)
			m = g->ts[i];
	return m;
}

static void derive(struct gpulat_tracker *t, struct job *j, struct gpulat_job *g)
{
	struct jdeps *dx = job_depx(t, j);
	unsigned int ndeps = dx ? dx->ndeps : 0;
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
	for (i = 0; i < ndeps; i++) {
		if (dx->deps[i].job_seq == GPULAT_NONE && dx->deps[i].signal_ts == GPULAT_NONE)
			continue;
		x = dx->deps[i].signal_ts;
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

static void classify(struct gpulat_tracker *t, struct gpulat_job *g)
{
	uint64_t first = first_ts(g), last = last_ts(g);
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
	int i, sc = job_slot_cpu(t, j);

	gpulat__tk_unindex(t, j, true);
	gpulat__tk_unwatch(t, j);
	if (sc >= 0 && sc < t->ncpus && t->cpu_slot[sc] == j)
		t->cpu_slot[sc] = NULL;
	put_done(t, j);
	for (i = 0; i < t->ncpus; i++)
		if (t->run_slot[i] == j)
			t->run_slot[i] = NULL;
	/* back to the slab: memory stays bounded by the peak of jobs in flight */
	j->next = job_ref(t->free_jobs);
	t->free_jobs = j;
}

/* remember @j as the job of the event being fed (gpulat_tracker_last_job()) */
void gpulat__tk_keep_last(struct gpulat_tracker *t, struct job *j)
{
	t->last_job = j;
	t->last_state = LAST_OPEN;
	t->last_seq = j->seq;
	t->has_last = true;
}

/*
 * The job is final: hand it out and forget it. Built in place as the last
 * job (gpulat_tracker_last_job()): a copy of the 300-byte record a job was
 * 1.5 M of KernelShark's dense-1M load (47.5 k jobs; callgrind).
 */
void gpulat__tk_emit(struct gpulat_tracker *t, struct job *j)
{
	struct gpulat_job *g = &t->last;
	struct jdeps *dx;

	if (j->held) {
		gpulat__tk_list_del(t, &t->held, j);
		j->held = false;
	} else {
		gpulat__tk_list_del(t, &t->open, j);
	}
	t->c.open--;
	build(t, j, g);
	classify(t, g);
	derive(t, j, g);
	if (t->hw)
		gpulat__hw_apply(t->hw, g);
	if (g->ts[GPULAT_ST_DONE] != GPULAT_NONE && g->ts[GPULAT_ST_QUEUE] == GPULAT_NONE)
		t->c.orphan_done++;
	t->c.jobs++;
	if (t->xe)
		g->hang |= gpulat__xe_take(t->xe, g->seq);
	t->last_state = LAST_BUILT;
	t->last_seq = g->seq;
	t->has_last = true;
	if (t->ops.job) {
		dx = job_depx(t, j);
		/* NULL without deps, also for a recycled slot that keeps its array */
		g->deps = dx && dx->ndeps ? dx->deps : NULL;
		t->ops.job(g, t->data);
		/* the slot's array is the next job's: the last job keeps none */
		g->deps = NULL;
	}
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

		if (job_ts(t, j, GPULAT_ST_DONE) + linger >= now)
			break;
		gpulat__tk_emit(t, j);
	}
}

/* msm: a done job waits (up to the linger time) for its retired event */
bool gpulat__tk_hw_waits(struct gpulat_tracker *t, const struct job *j)
{
	return t->hw && t->hw_linger && gpulat__hw_waits(t->hw, j->seq);
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
	uint64_t prev = j->ring ? j->ring->last_done : GPULAT_NONE;
	struct jdone *d;
	uint64_t base;

	gpulat__tk_stage(t, j, GPULAT_ST_DONE, ev);
	d = job_donex(t, j);
	if (run_expected(t))
		base = j->ts_qr[GPULAT_ST_RUN];
	else
		base = j->ts_qr[GPULAT_ST_QUEUE];
	if (d && base != GPULAT_NONE)
		d->start_ts = (prev != GPULAT_NONE && prev > base) ? prev : base;
	if (d && d->start_ts != GPULAT_NONE && d->start_ts > ev->ts)
		d->start_ts = ev->ts;
	if (j->ring)
		j->ring->last_done = ev->ts;

	/* the fence pointer is free for reuse from now on; (ring, id) is done too */
	gpulat__tk_unindex(t, j, false);
	gpulat__tk_dc_add(t, j);

	/* !d: no room for its done (ENOMEM), out as it stands */
	if (!d || ((!t->signal_expected || t->linger == 0 || d->ts[1] != GPULAT_NONE) &&
		   !gpulat__tk_hw_waits(t, j))) {
		gpulat__tk_emit(t, j);
		return;
	}
	gpulat__tk_list_del(t, &t->open, j);
	gpulat__tk_list_add_tail(t, &t->held, j);
	j->held = true;
	if (gpulat__tk_ensure_cpu(t, ev->cpu) == 0) {
		/* a later done on this cpu means the previous one's signal is not coming */
		struct job *old = t->cpu_slot[ev->cpu];

		t->cpu_slot[ev->cpu] = j;
		d->slot_cpu = ev->cpu;
		if (old && old != j) {
			if (old->dn)
				job_donex(t, old)->slot_cpu = -1;
			if (!old->in_fence)
				gpulat__tk_emit(t, old);
		}
	}
	/* the done's job, also while it waits for its signal (not the old one) */
	gpulat__tk_keep_last(t, j);
	t->last_state = LAST_HELD;
}

/* gpulat_tracker_last_job(): the copy of the last event's job, built now if needed */
const struct gpulat_job *gpulat__tk_last(struct gpulat_tracker *t)
{
	if (!t->has_last)
		return NULL;
	if (t->last_state != LAST_BUILT) {
		build(t, t->last_job, &t->last);
		if (t->last_state == LAST_HELD)
			held_view(&t->last);
		t->last_state = LAST_BUILT;
	}
	return &t->last;
}

void gpulat__tk_job_queue_fields(struct gpulat_tracker *t, struct job *j,
				 const struct gpulat_event *ev)
{
	gpulat__tk_stage(t, j, GPULAT_ST_QUEUE, ev);
	j->pid = ev->pid;
	j->comm = gpulat__strtab_id(gpulat__tk_tstr(t, ev->comm));
	if (ev->flags & GPULAT_EVF_COUNTS)
		j->job_count = ev->job_count;
	if (ev->flags & GPULAT_EVF_CLIENT) {
		j->client_id = ev->client_id;
		/* gpulat_kernel_job_name() of it when built (client_id stays) */
		j->kernel_job = true;
	}
}
