// SPDX-License-Identifier: LGPL-2.1
/*
 * Job tracker: normalized events -> GPU jobs (DESIGN.md "Linking rules").
 *
 * Open jobs live in hash tables keyed the way each era names a job:
 *   6.17+      (fence_context, fence_seqno) of the finished fence, compared on
 *              the low 32 bits so u32 dma_fence events match too;
 *   <= 6.16    (ring, id) for queue/run and the finished-fence pointer for
 *              done (the pointer is reused: a done pairs with the most recent
 *              open job holding it, and the pointer leaves the table at done);
 *   pre-5.7    queue -> done by pointer, no run stage.
 * A done job waits a bounded time (trace time) for its finished fence's
 * dma_fence_signaled when those events are in the trace. Completed jobs stay
 * in a bounded cache so dependencies name their producer and its done time.
 * Memory is O(jobs in flight + cache), never O(events).
 *
 * This file is the API; tracker-int.h lists the files of the rules.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracker-int.h"

#define DEFAULT_LINGER_NS	10000000ULL /* 10 ms */

/* drivers without drm_sched (track-*.c) talk to the tracker through this sink */
static uint64_t sink_opened(void *data)
{
	struct gpulat_tracker *t = data;

	t->c.open++;
	if (t->c.open > t->c.open_peak)
		t->c.open_peak = t->c.open;
	return t->next_seq++;
}

static void sink_emit(void *data, struct gpulat_job *j)
{
	struct gpulat_tracker *t = data;

	t->c.open--;
	if (j->ts[GPULAT_ST_DONE] != GPULAT_NONE && j->ts[GPULAT_ST_QUEUE] == GPULAT_NONE)
		t->c.orphan_done++;
	t->c.jobs++;
	t->last = *j;
	t->last.deps = NULL;
	t->last_state = LAST_BUILT;
	t->last_seq = j->seq;
	t->has_last = true;
	if (t->ops.job)
		t->ops.job(j, t->data);
}

static void sink_last(void *data, const struct gpulat_job *j)
{
	struct gpulat_tracker *t = data;

	t->last = *j;
	t->last.deps = NULL;
	t->last_state = LAST_BUILT;
	t->last_seq = j->seq;
	t->has_last = true;
}

static bool sink_lost(void *data, uint64_t from, uint64_t to)
{
	return gpulat__tk_lost_between(data, -1, from, to);
}

static int on_i915(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	if (!t->i915) {
		struct gpulat__sink sk = {
			.data = t, .opened = sink_opened, .emit = sink_emit,
			.last = sink_last, .lost = sink_lost, .strs = t->strs,
		};

		t->i915 = gpulat__i915_new(&sk);
		if (!t->i915)
			return -ENOMEM;
	}
	return gpulat__i915_feed(t->i915, ev);
}

static int on_xe(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	if (!t->xe) {
		t->xe = gpulat__xe_new();
		if (!t->xe)
			return -ENOMEM;
	}
	return gpulat__xe_feed(t->xe, ev);
}

/* msm, v3d: hardware times of the drm_sched job run just before (track-hw.c) */
static int on_hw(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	uint64_t seq;
	struct job *j;
	int ret;

	if (!t->hw) {
		t->hw = gpulat__hw_new();
		if (!t->hw)
			return -ENOMEM;
		/* the run this first driver event follows was fed before the linker */
		if (t->last_run_seq != GPULAT_NONE &&
		    gpulat__hw_ran(t->hw, &t->last_run, t->last_run_seq))
			return -ENOMEM;
	}
	ret = gpulat__hw_feed(t->hw, ev, &seq);
	if (ret || seq == GPULAT_NONE)
		return ret;
	/* msm retired: the held job it completes may go, unless its signal is due */
	for (j = t->held.head; j; j = gpulat__tk_list_next(t, j)) {
		if (j->seq != seq)
			continue;
		if (!t->signal_expected || job_ts(t, j, GPULAT_ST_SIGNAL) != GPULAT_NONE)
			gpulat__tk_emit(t, j);
		break;
	}
	return 0;
}

/* a queue or run event was fed: xe and hardware times link to it (track-xe.c, -hw.c) */
static int xe_after(struct gpulat_tracker *t, const struct gpulat_event *ev, int ret)
{
	if (ret || !t->has_last)
		return ret;
	if (ev->kind == GPULAT_EV_RUN) {
		t->last_run.ts = ev->ts;
		t->last_run.pid = ev->pid;
		t->last_run.file = ev->file;
		t->last_run_seq = t->last_seq;
		if (t->hw && (ret = gpulat__hw_ran(t->hw, ev, t->last_seq)))
			return ret;
	}
	if (!t->xe)
		return 0;
	if (ev->kind == GPULAT_EV_QUEUE)
		return gpulat__xe_queued(t->xe, ev, t->last_seq);
	return gpulat__xe_ran(t->xe, ev, t->last_seq);
}

/**
 * gpulat_tracker_new - a job tracker
 * @ops: callbacks (copied); ops->job receives every final job
 * @data: their argument
 *
 * Return: the tracker, or NULL with errno set.
 */
struct gpulat_tracker *gpulat_tracker_new(const struct gpulat_tracker_ops *ops, void *data)
{
	struct gpulat_tracker *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (ops)
		t->ops = *ops;
	t->data = data;
	t->max_open = gpulat__cap(GPULAT_CAP_OPEN);
	t->linger = DEFAULT_LINGER_NS;
	t->hw_linger = DEFAULT_LINGER_NS;
	t->last_run_seq = GPULAT_NONE;
	t->strs = gpulat__strtab_new();
	if (!t->strs)
		goto fail;
	t->empty = gpulat__strtab_intern(t->strs, "");
	t->unknown = gpulat__strtab_intern(t->strs, "?");
	if (!t->empty || !t->unknown)
		goto fail;
	t->empty_id = gpulat__strtab_id(t->empty);
	if (gpulat__htab_init(&t->rings, 16) || gpulat__omap_init(&t->ctxs, 64) ||
	    gpulat__tk_fence_init(t) || gpulat__htab_init(&t->by_ptr, 1024) ||
	    gpulat__htab_init(&t->by_id, 1024) || gpulat__htab_init(&t->dc_seq, 1024) ||
	    gpulat__htab_init(&t->watches, 64) || gpulat__omap_init(&t->fmax, 64) ||
	    gpulat__htab_init(&t->dc_fence, 1024) || gpulat__htab_init(&t->dc_ptr, 1024))
		goto fail;
	return t;
fail:
	gpulat_tracker_free(t);
	errno = ENOMEM;
	return NULL;
}

/**
 * gpulat_tracker_free - free the tracker; open jobs are dropped without callback
 * @t: tracker, may be NULL
 *
 * Call gpulat_tracker_flush() first to receive them.
 */
void gpulat_tracker_free(struct gpulat_tracker *t)
{
	struct ring *r, *rn;

	if (!t)
		return;
	gpulat__i915_free(t->i915);
	gpulat__xe_free(t->xe);
	gpulat__hw_free(t->hw);
	while (t->open.head) {
		struct job *j = t->open.head;

		gpulat__tk_list_del(t, &t->open, j);
		gpulat__tk_free_job(t, j);
	}
	while (t->held.head) {
		struct job *j = t->held.head;

		gpulat__tk_list_del(t, &t->held, j);
		gpulat__tk_free_job(t, j);
	}
	gpulat__tk_jobs_free(t);
	for (r = t->all_rings; r; r = rn) {
		rn = r->next_all;
		free(r);
	}
	gpulat__omap_fini(&t->fmax);
	gpulat__htab_fini(&t->rings);
	gpulat__omap_fini(&t->ctxs);
	gpulat__tk_fence_fini(t);
	gpulat__htab_fini(&t->by_ptr);
	gpulat__htab_fini(&t->by_id);
	gpulat__htab_fini(&t->watches);
	gpulat__htab_fini(&t->dc_seq);
	gpulat__htab_fini(&t->dc_fence);
	gpulat__htab_fini(&t->dc_ptr);
	gpulat__tk_ptr_gens_free(t);
	free(t->dc);
	free(t->cpu_slot);
	free(t->run_slot);
	free(t->init_slot);
	free(t->cpu_last);
	free(t->lost);
	gpulat__strtab_free(t->strs);
	free(t);
}

/**
 * gpulat_tracker_set_max_open - cap on jobs in flight
 * @t: tracker
 * @max_open: the cap (0 = 1); beyond it the oldest open job is emitted as
 *	incomplete, counted in dropped_open and warned about once
 */
void gpulat_tracker_set_max_open(struct gpulat_tracker *t, size_t max_open)
{
	t->max_open = max_open ? max_open : 1;
}

/**
 * gpulat_tracker_set_signal_expected - finished-fence signals are in the trace
 * @t: tracker
 * @expected: if true, a done job waits (see gpulat_tracker_set_linger()) for
 *	its dma_fence_signaled before it is emitted
 */
void gpulat_tracker_set_signal_expected(struct gpulat_tracker *t, bool expected)
{
	t->signal_expected = expected;
}

/**
 * gpulat_tracker_set_era - the era of the events to come
 * @t: tracker
 * @era: gpulat_binding_era() of the trace
 */
void gpulat_tracker_set_era(struct gpulat_tracker *t, enum gpulat_era era)
{
	t->era = era;
}

/**
 * gpulat_tracker_set_linger - how long a done job waits for its signal
 * @t: tracker
 * @linger_ns: trace time; 0 emits at done
 */
void gpulat_tracker_set_linger(struct gpulat_tracker *t, uint64_t linger_ns)
{
	t->linger = linger_ns;
}

/*
 * Every job's queue event, when the tracker took it: the statistics look for
 * submission gaps in time order (internal: the session)
 */
void gpulat__tracker_on_queued(struct gpulat_tracker *t,
			       void (*fn)(const struct gpulat_event *ev, void *data), void *data)
{
	t->queued = fn;
	t->queued_data = data;
}

static uint64_t list_horizon(const struct gpulat_tracker *t, const struct joblist *l, uint64_t h)
{
	const struct job *j;
	int i;

	for (j = l->head; j; j = gpulat__tk_list_next(t, j)) {
		const struct jdone *d = job_donex(t, j);

		for (i = 0; i < GPULAT_ST_DONE; i++)
			if (j->ts_qr[i] < h)
				h = j->ts_qr[i];
		if (!d)
			continue;
		for (i = 0; i < 2; i++)
			if (d->ts[i] < h)
				h = d->ts[i];
		if (d->start_ts < h)
			h = d->start_ts;
	}
	return h;
}

/*
 * The earliest timestamp a job not handed out yet carries or may still get
 * (internal: the statistics sweep their reorder queues up to it, minus a
 * slack for per-cpu clocks that go back): the earliest of any open or held
 * job's times and of the newest event time, since a stage still to come is
 * stamped by an event still to come. Its lists are walked again only after
 * half as many jobs were handed out as are open (at most 2 job visits per
 * job handed out); in between the last value stays a valid, older bound.
 * Unknown (0) where times of a job come from elsewhere: i915's records,
 * msm/v3d hardware times (track-hw.c).
 */
uint64_t gpulat__tracker_horizon(struct gpulat_tracker *t)
{
	if (t->i915 || t->hw)
		return 0;
	if (t->hz_valid && t->c.jobs - t->hz_jobs < (t->open.n + t->held.n) / 2 + 64)
		return t->hz;
	t->hz = list_horizon(t, &t->held, list_horizon(t, &t->open, t->last_ts));
	t->hz_jobs = t->c.jobs;
	t->hz_valid = true;
	return t->hz;
}

/**
 * gpulat_tracker_feed - feed one event, in time order across all CPUs
 * @t: tracker
 * @ev: the event (from gpulat_binding_decode() or built by hand)
 *
 * Return: 0, or a negative errno on allocation failure.
 */
int gpulat_tracker_feed(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	if (!ev)
		return -EINVAL;
	t->has_last = false;
	t->cur_file = ev->file;
	if (gpulat__tk_ensure_cpu(t, ev->cpu) == 0 && ev->ts > t->cpu_last[ev->cpu])
		t->cpu_last[ev->cpu] = ev->ts;
	if (ev->ts > t->last_ts)
		t->last_ts = ev->ts;
	if (t->held.head)
		gpulat__tk_expire_held(t, ev->ts);

	switch (ev->kind) {
	case GPULAT_EV_QUEUE:
		return xe_after(t, ev, gpulat__tk_on_queue(t, ev));
	case GPULAT_EV_RUN:
		return xe_after(t, ev, gpulat__tk_on_run(t, ev));
	case GPULAT_EV_DONE:
		return gpulat__tk_on_done(t, ev);
	case GPULAT_EV_DEP:
		return gpulat__tk_on_dep(t, ev, false);
	case GPULAT_EV_UNSCHED:
		return gpulat__tk_on_dep(t, ev, true);
	case GPULAT_EV_FENCE_SIGNALED:
		/* an i915 request fence, or a drm_sched one */
		if (t->i915 && gpulat__i915_feed(t->i915, ev))
			return -ENOMEM;
		return gpulat__tk_on_signal(t, ev);
	case GPULAT_EV_FENCE_INIT:
		return gpulat__tk_on_init(t, ev);
	case GPULAT_EV_AMD_CS:
	case GPULAT_EV_AMD_RUN:
		return gpulat__tk_on_amd(t, ev);
	case GPULAT_EV_I915_ADD:
	case GPULAT_EV_I915_SUBMIT:
	case GPULAT_EV_I915_IN:
	case GPULAT_EV_I915_OUT:
	case GPULAT_EV_I915_RETIRE:
		return on_i915(t, ev);
	case GPULAT_EV_XE_JOB_EXEC:
	case GPULAT_EV_XE_JOB_RUN:
	case GPULAT_EV_XE_JOB_TIMEDOUT:
	case GPULAT_EV_XE_JOB_SET_ERROR:
	case GPULAT_EV_XE_JOB_BAN:
	case GPULAT_EV_XE_JOB_FREE:
		return on_xe(t, ev);
	case GPULAT_EV_MSM_FLUSH:
	case GPULAT_EV_MSM_RETIRED:
	case GPULAT_EV_V3D_SUBMIT:
		return on_hw(t, ev);
	default:
		return 0;
	}
}

/**
 * gpulat_tracker_lost - events were lost on @cpu just before @ts
 * @t: tracker
 * @cpu: the cpu whose ring buffer overran
 * @ts: first timestamp after the gap
 * @count: events lost, 0 = unknown
 *
 * The gap starts at the last event fed for @cpu.
 */
void gpulat_tracker_lost(struct gpulat_tracker *t, int cpu, uint64_t ts, uint64_t count)
{
	uint64_t from = 0;

	if (gpulat__tk_ensure_cpu(t, cpu) == 0)
		from = t->cpu_last[cpu];
	gpulat_tracker_lost_range(t, cpu, from, ts, count);
}

/**
 * gpulat_tracker_lost_range - events were lost on @cpu between two timestamps
 * @t: tracker
 * @cpu: the cpu
 * @from_ts: last record seen on @cpu before the gap (0 if none)
 * @to_ts: first record after the gap
 * @count: events lost, 0 = unknown
 *
 * Jobs with a stage missing whose possible time overlaps the gap become LOST.
 */
void gpulat_tracker_lost_range(struct gpulat_tracker *t, int cpu, uint64_t from_ts,
			       uint64_t to_ts, uint64_t count)
{
	t->c.lost_events += count;
	gpulat__tk_add_lost(t, cpu, from_ts, to_ts);
}

/**
 * gpulat_tracker_flush - end of trace: emit every job still held or open
 * @t: tracker
 * @end_ts: last timestamp of the trace (informational)
 */
void gpulat_tracker_flush(struct gpulat_tracker *t, uint64_t end_ts)
{
	(void)end_ts;
	while (t->held.head)
		gpulat__tk_emit(t, t->held.head);
	while (t->open.head)
		gpulat__tk_emit(t, t->open.head);
	if (t->i915)
		gpulat__i915_flush(t->i915);
}

/**
 * gpulat_tracker_last_job - the job the last gpulat_tracker_feed() belonged to
 * @t: tracker
 *
 * For front ends that print event by event (the libtraceevent plugin): after a
 * queue or run event, the open job with the stages seen so far; after a done
 * event, the job as it was emitted, or, while it waits for its finished-fence
 * signal (linger), the job with its done stage and start_ts set. A copy, valid
 * until the next call into the tracker; @deps is NULL (but inside the ops->job
 * callback of that very job: the record handed out is this one).
 *
 * Return: the job, or NULL when the last event belonged to no job.
 */
const struct gpulat_job *gpulat_tracker_last_job(const struct gpulat_tracker *t)
{
	/* the copy is built on the first ask after the event (gpulat__tk_last()) */
	return gpulat__tk_last((struct gpulat_tracker *)t);
}

/**
 * gpulat_tracker_ring_name - the name of a ring of the current file, so far
 * @t: tracker
 * @dev: the event's device ("" / NULL before 6.17)
 * @ring: the event's ring as traced
 *
 * Return: the real name of a "0x..." label once learned (see gpulat__tk_learn_alias()),
 * else @ring. Strings live until gpulat_tracker_free().
 */
const char *gpulat_tracker_ring_name(struct gpulat_tracker *t, const char *dev,
				     const char *ring)
{
	struct gpulat__hnode *n;
	uint64_t k1;

	if (!ring || !gpulat_ring_is_ptr(ring))
		return ring;
	/* the key of gpulat__tk_get_ring(), without creating the ring */
	k1 = (uintptr_t)gpulat__tk_tstr(t, dev) ^ ((uint64_t)t->cur_file << 56);
	n = gpulat__htab_find(&t->rings, k1, (uintptr_t)gpulat__tk_tstr(t, ring));
	if (n && gpulat_container_of(n, struct ring, node)->alias)
		return gpulat_container_of(n, struct ring, node)->alias;
	return ring;
}

/**
 * gpulat_tracker_counters - read the counters
 * @t: tracker
 * @c: filled
 */
void gpulat_tracker_counters(const struct gpulat_tracker *t,
			     struct gpulat_tracker_counters *c)
{
	*c = t->c;
}
