// SPDX-License-Identifier: LGPL-2.1
/*
 * i915 requests as GPU jobs. i915 does not use drm_sched: its requests are
 * traced by the i915 system (drivers/gpu/drm/i915/i915_trace.h) and their
 * fences by dma_fence (driver "i915"). Stages (lib/README.md, "i915"):
 *
 *   queue  = i915_request_add      (always)
 *   run    = i915_request_submit   (LOW_LEVEL: dependencies met, to the backend)
 *   start  = i915_request_in       (LOW_LEVEL: on the hardware; else inferred
 *                                   from the engine FIFO like drm_sched jobs)
 *   done   = i915_request_out with completed=1 (LOW_LEVEL), else the request
 *            fence's dma_fence_signaled, else i915_request_retire (late: an
 *            upper bound, GPULAT_TIMING_DONE_LATE)
 *   signal = dma_fence_signaled of the request fence
 *
 * The LOW_LEVEL events exist only with CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS
 * (off in Debian, Fedora, Ubuntu kernels). A request is keyed by (device,
 * fence context, seqno); the engine is not part of the key because a request
 * on a virtual (load-balanced) engine is added on the virtual engine and goes
 * "in" on a physical one: the physical engine of i915_request_in names the
 * ring when it is traced. A request is emitted at its retire (the last event
 * of a request), or RETIRE_WAIT after its done when no retire comes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "track-int.h"

#define U32(x)		((x) & 0xffffffffULL)
/* a done request whose retire has not come in this much trace time is final */
#define RETIRE_WAIT_NS	5000000000ULL

struct engine {
	struct gpulat__hnode	node;
	struct engine		*next_all;
	const char		*dev;
	const char		*name;
	int			file;
	uint64_t		last_done;	/* done_ts of its last completed request */
};

struct rq {
	struct gpulat__hnode	node;
	struct rq		*prev, *next;	/* open list, or done list */
	bool			done_list;
	struct engine		*eng;
	uint64_t		ctx;		/* full u64 context once an i915 event gave it */
	struct gpulat_job	j;
};

struct rqlist {
	struct rq	*head, *tail;
	size_t		n;
};

struct gpulat__i915 {
	struct gpulat__sink	sink;
	const char		*empty;
	struct gpulat__htab	engines;
	struct engine		*all;
	struct gpulat__htab	rqs;
	struct rqlist		open;		/* no done yet, first-sight order */
	struct rqlist		done;		/* done, waiting for the retire */
	bool			seen_submit;	/* LOW_LEVEL: a run stage exists */
	uint64_t		now;
};

static void l_add(struct rqlist *l, struct rq *r)
{
	r->next = NULL;
	r->prev = l->tail;
	if (l->tail)
		l->tail->next = r;
	else
		l->head = r;
	l->tail = r;
	l->n++;
}

static void l_del(struct rqlist *l, struct rq *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		l->head = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		l->tail = r->prev;
	r->prev = r->next = NULL;
	l->n--;
}

static const char *str(struct gpulat__i915 *x, const char *s)
{
	const char *r = s ? gpulat__strtab_intern(x->sink.strs, s) : NULL;

	return r ? r : x->empty;
}

static struct engine *get_engine(struct gpulat__i915 *x, const struct gpulat_event *ev)
{
	const char *dev = str(x, ev->dev), *name = str(x, ev->ring);
	uint64_t k1 = (uint64_t)(uintptr_t)dev, k2 = (uint64_t)(uintptr_t)name ^ (uint64_t)ev->file;
	struct gpulat__hnode *n;
	struct engine *e;

	for (n = gpulat__htab_find(&x->engines, k1, k2); n; n = gpulat__htab_next(n)) {
		e = gpulat_container_of(n, struct engine, node);
		if (e->dev == dev && e->name == name && e->file == ev->file)
			return e;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->dev = dev;
	e->name = name;
	e->file = ev->file;
	e->last_done = GPULAT_NONE;
	e->next_all = x->all;
	x->all = e;
	if (gpulat__htab_insert(&x->engines, &e->node, k1, k2)) {
		x->all = e->next_all;
		free(e);
		return NULL;
	}
	return e;
}

/* fence key: dma_fence events carry 32-bit context and seqno */
static uint64_t key1(uint64_t ctx, int file)
{
	return U32(ctx) | (uint64_t)(unsigned int)file << 32;
}

static struct rq *find_rq(struct gpulat__i915 *x, const struct gpulat_event *ev)
{
	bool full = !(ev->flags & GPULAT_EVF_FENCE32);
	struct gpulat__hnode *n;

	for (n = gpulat__htab_find(&x->rqs, key1(ev->ctx, ev->file), U32(ev->seqno)); n;
	     n = gpulat__htab_next(n)) {
		struct rq *r = gpulat_container_of(n, struct rq, node);

		if (full && r->ctx != GPULAT_NONE && r->ctx != ev->ctx)
			continue;
		/* the device is part of the key; a dma_fence event has none */
		if (ev->kind != GPULAT_EV_FENCE_SIGNALED && r->j.dev != str(x, ev->dev))
			continue;
		return r;
	}
	return NULL;
}

static struct rq *new_rq(struct gpulat__i915 *x, const struct gpulat_event *ev)
{
	struct engine *e = get_engine(x, ev);
	struct rq *r;
	int i;

	if (!e)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->eng = e;
	r->ctx = ev->ctx;
	r->j.seq = x->sink.opened(x->sink.data);
	r->j.file = ev->file;
	r->j.dev = e->dev;
	r->j.ring = r->j.ring_name = e->name;
	r->j.comm = x->empty;
	r->j.pid = -1;
	r->j.id = GPULAT_NONE;
	r->j.ctx = ev->ctx;
	r->j.seqno = ev->seqno;
	r->j.client_id = GPULAT_NONE;
	for (i = 0; i < GPULAT_ST__COUNT; i++) {
		r->j.ts[i] = GPULAT_NONE;
		r->j.cpu[i] = -1;
	}
	r->j.start_ts = r->j.wait = r->j.hw_queue = r->j.exec = r->j.total = GPULAT_NONE;
	r->j.dep_wait = GPULAT_NONE;
	r->j.timing = GPULAT_TIMING_DRIVER;
	if (gpulat__htab_insert(&x->rqs, &r->node, key1(ev->ctx, ev->file), U32(ev->seqno))) {
		free(r);
		return NULL;
	}
	l_add(&x->open, r);
	return r;
}

static void stage(struct rq *r, enum gpulat_stage st, const struct gpulat_event *ev)
{
	r->j.ts[st] = ev->ts;
	r->j.cpu[st] = ev->cpu;
	r->j.ref[st] = ev->ref;	/* the host's handle of the stage's event */
}

static uint64_t diff(uint64_t a, uint64_t b)
{
	return a != GPULAT_NONE && b != GPULAT_NONE && a >= b ? a - b : GPULAT_NONE;
}

static void classify(struct gpulat__i915 *x, struct rq *r)
{
	struct gpulat_job *g = &r->j;
	uint64_t q = g->ts[GPULAT_ST_QUEUE], run = g->ts[GPULAT_ST_RUN], d = g->ts[GPULAT_ST_DONE];
	bool missing = false;

	g->lost_stages = 0;
	if (q == GPULAT_NONE) {
		uint64_t first = run != GPULAT_NONE ? run : d;

		missing = true;
		if (x->sink.lost(x->sink.data, 0, first == GPULAT_NONE ? GPULAT_NONE : first + 1))
			g->lost_stages |= 1u << GPULAT_ST_QUEUE;
	}
	if (x->seen_submit && run == GPULAT_NONE) {
		missing = true;
		if (x->sink.lost(x->sink.data, q == GPULAT_NONE ? 0 : q,
				 d == GPULAT_NONE ? GPULAT_NONE : d + 1))
			g->lost_stages |= 1u << GPULAT_ST_RUN;
	}
	if (d == GPULAT_NONE) {
		uint64_t last = run != GPULAT_NONE ? run : q;

		if (x->sink.lost(x->sink.data, last == GPULAT_NONE ? 0 : last, GPULAT_NONE))
			g->lost_stages |= 1u << GPULAT_ST_DONE;
	}
	if (g->lost_stages)
		g->status = GPULAT_JOB_LOST;
	else if ((q != GPULAT_NONE && run != GPULAT_NONE && run < q) ||
		 (run != GPULAT_NONE && d != GPULAT_NONE && d < run) ||
		 (q != GPULAT_NONE && d != GPULAT_NONE && d < q))
		g->status = GPULAT_JOB_ORPHAN;	/* time went backwards */
	else if (d == GPULAT_NONE)
		g->status = GPULAT_JOB_INCOMPLETE;
	else if (missing)
		g->status = GPULAT_JOB_ORPHAN;
	else
		g->status = GPULAT_JOB_COMPLETE;
}

/* the metrics of docs/truth-format.md from the stages seen so far */
static void derive(struct gpulat__i915 *x, struct gpulat_job *g)
{
	if (!x->seen_submit)
		g->timing |= GPULAT_TIMING_NO_RUN;
	g->wait = diff(g->ts[GPULAT_ST_RUN], g->ts[GPULAT_ST_QUEUE]);
	g->hw_queue = diff(g->start_ts, g->ts[GPULAT_ST_RUN]);
	g->exec = diff(g->ts[GPULAT_ST_DONE], g->start_ts);
	g->total = diff(g->ts[GPULAT_ST_DONE], g->ts[GPULAT_ST_QUEUE]);
	/* i915 traces no dependencies: the time waited on them is unknown */
	g->dep_wait = GPULAT_NONE;
	g->n_deps = 0;
	g->deps = NULL;
}

static void emit(struct gpulat__i915 *x, struct rq *r)
{
	struct gpulat_job *g = &r->j;

	if (r->done_list)
		l_del(&x->done, r);
	else
		l_del(&x->open, r);
	gpulat__htab_remove(&x->rqs, &r->node);
	classify(x, r);
	derive(x, g);
	x->sink.emit(x->sink.data, g);
	free(r);
}

/*
 * The done stage. start_ts: i915_request_in when traced (measured), else the
 * engine FIFO: max(run, or queue without LOW_LEVEL, previous done on the
 * engine), the inference drm_sched jobs get.
 */
static void set_done(struct gpulat__i915 *x, struct rq *r, const struct gpulat_event *ev,
		     bool late)
{
	struct gpulat_job *g = &r->j;
	uint64_t prev = r->eng->last_done, base;

	stage(r, GPULAT_ST_DONE, ev);
	if (late)
		g->timing |= GPULAT_TIMING_DONE_LATE;
	if (!(g->timing & GPULAT_TIMING_START_HW)) {
		base = g->ts[GPULAT_ST_RUN] != GPULAT_NONE ? g->ts[GPULAT_ST_RUN]
							   : g->ts[GPULAT_ST_QUEUE];
		if (base != GPULAT_NONE)
			g->start_ts = prev != GPULAT_NONE && prev > base ? prev : base;
	}
	if (g->start_ts != GPULAT_NONE && g->start_ts > ev->ts)
		g->start_ts = ev->ts;
	if (prev == GPULAT_NONE || ev->ts > prev)
		r->eng->last_done = ev->ts;
	/* known now: front ends print them on the done line */
	derive(x, g);
	l_del(&x->open, r);
	l_add(&x->done, r);
	r->done_list = true;
}

static void expire(struct gpulat__i915 *x)
{
	while (x->done.head &&
	       x->done.head->j.ts[GPULAT_ST_DONE] + RETIRE_WAIT_NS < x->now)
		emit(x, x->done.head);
}

/**
 * gpulat__i915_feed - one i915 request event, or a dma_fence_signaled
 * @x: the i915 linker
 * @ev: the event
 *
 * Return: 0, or -ENOMEM.
 */
int gpulat__i915_feed(struct gpulat__i915 *x, const struct gpulat_event *ev)
{
	struct rq *r;

	if (ev->ts > x->now)
		x->now = ev->ts;
	if (x->done.head)
		expire(x);
	if (!(ev->flags & GPULAT_EVF_FENCE))
		return 0;
	r = find_rq(x, ev);

	switch (ev->kind) {
	case GPULAT_EV_FENCE_SIGNALED:
		/* not a request fence (drm_sched, another driver): not ours */
		if (!r)
			return 0;
		if (r->j.ts[GPULAT_ST_SIGNAL] == GPULAT_NONE)
			stage(r, GPULAT_ST_SIGNAL, ev);
		if (r->j.ts[GPULAT_ST_DONE] == GPULAT_NONE)
			set_done(x, r, ev, false);
		break;
	case GPULAT_EV_I915_ADD:
		if (r && r->j.ts[GPULAT_ST_QUEUE] != GPULAT_NONE)
			return 0;	/* added twice: keep the first */
		if (!r)
			r = new_rq(x, ev);
		if (!r)
			return -ENOMEM;
		stage(r, GPULAT_ST_QUEUE, ev);
		r->j.pid = ev->pid;
		r->j.comm = str(x, ev->comm);
		break;
	case GPULAT_EV_I915_SUBMIT:
		x->seen_submit = true;
		if (!r)
			r = new_rq(x, ev);
		if (!r)
			return -ENOMEM;
		if (r->j.ts[GPULAT_ST_RUN] == GPULAT_NONE)
			stage(r, GPULAT_ST_RUN, ev);
		break;
	case GPULAT_EV_I915_IN:
		if (!r)
			r = new_rq(x, ev);
		if (!r)
			return -ENOMEM;
		/* after a preemption it goes in again: the first time counts */
		if (!(r->j.timing & GPULAT_TIMING_START_HW) &&
		    r->j.ts[GPULAT_ST_DONE] == GPULAT_NONE) {
			struct engine *e = get_engine(x, ev);

			r->j.start_ts = ev->ts;
			r->j.timing |= GPULAT_TIMING_START_HW;
			/* the physical engine names the ring (virtual engines) */
			if (e) {
				r->eng = e;
				r->j.dev = e->dev;
				r->j.ring = r->j.ring_name = e->name;
			}
		}
		break;
	case GPULAT_EV_I915_OUT:
		/* completed=0: preempted, it will come back in */
		if (r && ev->value && r->j.ts[GPULAT_ST_DONE] == GPULAT_NONE)
			set_done(x, r, ev, false);
		break;
	case GPULAT_EV_I915_RETIRE:
		if (!r)
			r = new_rq(x, ev);
		if (!r)
			return -ENOMEM;
		if (r->j.ts[GPULAT_ST_DONE] == GPULAT_NONE)
			set_done(x, r, ev, true);
		x->sink.last(x->sink.data, &r->j);
		emit(x, r);
		return 0;
	default:
		/* queue, execute, wait_begin / wait_end: nothing to link */
		return 0;
	}
	if (r)
		x->sink.last(x->sink.data, &r->j);
	return 0;
}

/**
 * gpulat__i915_flush - end of the trace: emit every request still held
 * @x: the i915 linker
 */
void gpulat__i915_flush(struct gpulat__i915 *x)
{
	while (x->done.head)
		emit(x, x->done.head);
	while (x->open.head)
		emit(x, x->open.head);
}

/**
 * gpulat__i915_open - requests in flight (not yet emitted)
 * @x: the i915 linker
 *
 * Return: the count.
 */
size_t gpulat__i915_open(const struct gpulat__i915 *x)
{
	return x->open.n + x->done.n;
}

/**
 * gpulat__i915_new - an i915 request linker emitting into @sink
 * @sink: copied
 *
 * Return: the linker, NULL on ENOMEM.
 */
struct gpulat__i915 *gpulat__i915_new(const struct gpulat__sink *sink)
{
	struct gpulat__i915 *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->sink = *sink;
	x->empty = gpulat__strtab_intern(sink->strs, "");
	if (!x->empty || gpulat__htab_init(&x->engines, 16) ||
	    gpulat__htab_init(&x->rqs, 1024)) {
		gpulat__i915_free(x);
		return NULL;
	}
	return x;
}

/**
 * gpulat__i915_free - free the linker; open requests are dropped
 * @x: may be NULL
 */
void gpulat__i915_free(struct gpulat__i915 *x)
{
	struct engine *e, *en;
	struct rq *r;

	if (!x)
		return;
	while ((r = x->open.head)) {
		l_del(&x->open, r);
		free(r);
	}
	while ((r = x->done.head)) {
		l_del(&x->done, r);
		free(r);
	}
	for (e = x->all; e; e = en) {
		en = e->next_all;
		free(e);
	}
	gpulat__htab_fini(&x->engines);
	gpulat__htab_fini(&x->rqs);
	free(x);
}
