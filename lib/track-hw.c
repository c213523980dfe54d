// SPDX-License-Identifier: LGPL-2.1
/*
 * True hardware times of drm_sched jobs, where the driver traces them.
 * Without them a job's start is inferred from the ring FIFO (max(run,
 * previous done)); with them it is measured:
 *
 *   msm (drivers/gpu/drm/msm/msm_gpu_trace.h): msm_gpu_submit_flush(ticks)
 *       is traced in the scheduler's run_job (msm_job_run -> msm_gpu_submit)
 *       with the GPU's always-on counter; msm_gpu_submit_retired(start_ticks,
 *       end_ticks) by the retire worker after the job completed, with the
 *       counter's values the CP wrote when it started and ended the submit.
 *       The counter runs at 19.2 MHz (the kernel's own elapsed = ticks *
 *       10000 / 192 ns); the flush pairs one counter value with one trace
 *       time, so start = flush_ts + (start_ticks - flush_ticks) ticks and
 *       exec = end_ticks - start_ticks: both measured (GPULAT_TIMING_START_HW,
 *       GPULAT_TIMING_EXEC_HW). Both events name the submit ringid:seqno.
 *   v3d (drivers/gpu/drm/v3d/v3d_trace.h): v3d_submit_cl / _tfu / _csd are
 *       traced in run_job right before the registers that start the job are
 *       written, and v3d runs one job per queue at a time (hw_submission 1):
 *       the event's time is the start (measured); the *_irq events come with
 *       the scheduler's done and add nothing.
 *
 * Both driver events come from the scheduler's run_job, right after the
 * scheduler's run event in the same task: that adjacency links them to the
 * job (as for xe, track-xe.c). The tracker holds a done msm job until its
 * retired event (up to the signal linger time) and asks for the times when
 * it emits the job (gpulat__hw_apply()).
 */
#include <errno.h>
#include <stdlib.h>

#include "track-int.h"

/* run -> driver event in one run_job call */
#define HW_ADJACENT_NS 1000000ULL

struct hsub {
	struct gpulat__hnode by_key; /* msm (ringid, seqno) */
	struct gpulat__hnode by_seq;
	bool in_key;
	uint64_t seq;
	uint64_t flush_ts, flush_ticks;
	uint64_t start, end; /* trace ns, GPULAT_NONE until known */
	bool waits; /* msm: retired not seen yet */
};

struct hpend {
	struct gpulat__hnode node; /* (pid, file) */
	struct hpend *next_all;
	uint64_t seq, ts; /* the run event; seq GPULAT_NONE: used */
};

struct gpulat__hw {
	struct gpulat__htab by_key, by_seq, pends;
	struct hpend *all;
};

static uint64_t fkey(int file)
{
	return (uint64_t)(unsigned int)file;
}

static uint64_t mkey(const struct gpulat_event *ev)
{
	/* ringid and seqno are u32 */
	return (ev->id & 0xffffffffULL) << 32 | (ev->seqno & 0xffffffffULL);
}

static struct hsub *find_seq(struct gpulat__hw *h, uint64_t seq)
{
	struct gpulat__hnode *n = gpulat__htab_find(&h->by_seq, seq, 0);

	return n ? gpulat_container_of(n, struct hsub, by_seq) : NULL;
}

static struct hsub *find_key(struct gpulat__hw *h, const struct gpulat_event *ev)
{
	struct gpulat__hnode *n = gpulat__htab_find(&h->by_key, mkey(ev), fkey(ev->file));

	return n ? gpulat_container_of(n, struct hsub, by_key) : NULL;
}

static void drop(struct gpulat__hw *h, struct hsub *x)
{
	if (x->in_key)
		gpulat__htab_remove(&h->by_key, &x->by_key);
	gpulat__htab_remove(&h->by_seq, &x->by_seq);
	free(x);
}

static struct hpend *get_pend(struct gpulat__hw *h, const struct gpulat_event *ev, bool create)
{
	uint64_t k1 = (uint64_t)(unsigned int)ev->pid, k2 = fkey(ev->file);
	struct gpulat__hnode *n = gpulat__htab_find(&h->pends, k1, k2);
	struct hpend *p;

	if (n || !create)
		return n ? gpulat_container_of(n, struct hpend, node) : NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->seq = GPULAT_NONE;
	if (gpulat__htab_insert(&h->pends, &p->node, k1, k2)) {
		free(p);
		return NULL;
	}
	p->next_all = h->all;
	h->all = p;
	return p;
}

/* the job whose run this task traced just before @ev, GPULAT_NONE if none */
static uint64_t run_before(struct gpulat__hw *h, const struct gpulat_event *ev)
{
	struct hpend *p = get_pend(h, ev, false);
	uint64_t seq;

	if (!p || p->seq == GPULAT_NONE || ev->ts < p->ts || ev->ts - p->ts > HW_ADJACENT_NS)
		return GPULAT_NONE;
	seq = p->seq;
	p->seq = GPULAT_NONE;
	return seq;
}

static struct hsub *new_sub(struct gpulat__hw *h, uint64_t seq)
{
	struct hsub *x = find_seq(h, seq);

	if (x)
		return x;
	x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->seq = seq;
	x->start = x->end = GPULAT_NONE;
	if (gpulat__htab_insert(&h->by_seq, &x->by_seq, seq, 0)) {
		free(x);
		return NULL;
	}
	return x;
}

/* @ticks - @ref of the 19.2 MHz counter as ns added to @ts (kernel: * 10000 / 192) */
static uint64_t ticks_at(uint64_t ts, uint64_t ref, uint64_t ticks)
{
	uint64_t d = ticks >= ref ? ticks - ref : ref - ticks;

	if (d > UINT64_MAX / 10000)
		return GPULAT_NONE; /* a damaged counter value */
	d = d * 10000 / 192;
	if (ticks >= ref)
		return d <= UINT64_MAX - 1 - ts ? ts + d : GPULAT_NONE;
	return d <= ts ? ts - d : GPULAT_NONE;
}

/**
 * gpulat__hw_feed - one msm or v3d event
 * @h: the linker
 * @ev: the event
 * @released: set to the job's seq when @ev completed what a held job waited
 *	for (msm retired), else GPULAT_NONE
 *
 * Return: 0, or -ENOMEM.
 */
int gpulat__hw_feed(struct gpulat__hw *h, const struct gpulat_event *ev, uint64_t *released)
{
	struct hsub *x;
	uint64_t seq;

	*released = GPULAT_NONE;
	switch (ev->kind) {
	case GPULAT_EV_MSM_FLUSH:
		seq = run_before(h, ev);
		if (seq == GPULAT_NONE)
			return 0; /* run before the trace: start stays inferred */
		x = new_sub(h, seq);
		if (!x)
			return -ENOMEM;
		if (!x->in_key) {
			struct hsub *old = find_key(h, ev);

			/* a ringid:seqno seen again (seqno wrap, a new GPU): the new one */
			if (old) {
				gpulat__htab_remove(&h->by_key, &old->by_key);
				old->in_key = false;
				old->waits = false;
			}
			if (gpulat__htab_insert(&h->by_key, &x->by_key, mkey(ev), fkey(ev->file)))
				return -ENOMEM;
			x->in_key = true;
		}
		x->flush_ts = ev->ts;
		x->flush_ticks = ev->ticks;
		x->waits = true;
		return 0;
	case GPULAT_EV_MSM_RETIRED:
		x = find_key(h, ev);
		if (!x)
			return 0;
		x->start = ticks_at(x->flush_ts, x->flush_ticks, ev->ticks);
		x->end = ticks_at(x->flush_ts, x->flush_ticks, ev->ticks_end);
		if (x->end != GPULAT_NONE && x->start != GPULAT_NONE && x->end < x->start)
			x->end = GPULAT_NONE;
		x->waits = false;
		gpulat__htab_remove(&h->by_key, &x->by_key);
		x->in_key = false;
		*released = x->seq;
		return 0;
	case GPULAT_EV_V3D_SUBMIT:
		seq = run_before(h, ev);
		if (seq == GPULAT_NONE)
			return 0;
		x = new_sub(h, seq);
		if (!x)
			return -ENOMEM;
		x->start = ev->ts;
		return 0;
	default:
		return 0;
	}
}

/**
 * gpulat__hw_ran - the scheduler traced the run event of job @seq
 * @h: the linker
 * @ev: the run event
 * @seq: its gpulat_job.seq
 *
 * Return: 0, or -ENOMEM.
 */
int gpulat__hw_ran(struct gpulat__hw *h, const struct gpulat_event *ev, uint64_t seq)
{
	struct hpend *p = get_pend(h, ev, true);

	if (!p)
		return -ENOMEM;
	p->seq = seq;
	p->ts = ev->ts;
	return 0;
}

/* job @seq is done but its hardware times are still to come (msm retired) */
bool gpulat__hw_waits(struct gpulat__hw *h, uint64_t seq)
{
	struct hsub *x = find_seq(h, seq);

	return x && x->waits;
}

/**
 * gpulat__hw_apply - put the measured times of job @g in it, which is emitted
 * @h: the linker
 * @g: the job, its metrics derived; start_ts, hw_queue, exec and timing are
 *	rewritten where a time was measured. The linker forgets the job.
 */
void gpulat__hw_apply(struct gpulat__hw *h, struct gpulat_job *g)
{
	struct hsub *x = find_seq(h, g->seq);
	uint64_t run = g->ts[GPULAT_ST_RUN], done = g->ts[GPULAT_ST_DONE];

	if (!x)
		return;
	/* a start after the done the CPU saw is not a start of this job */
	if (x->start != GPULAT_NONE && done != GPULAT_NONE && x->start <= done) {
		g->start_ts = x->start;
		g->timing |= GPULAT_TIMING_START_HW;
		g->hw_queue = run != GPULAT_NONE && x->start >= run ? x->start - run : GPULAT_NONE;
		g->exec = done - x->start;
		if (x->end != GPULAT_NONE && x->end <= done) {
			g->exec = x->end - x->start;
			g->timing |= GPULAT_TIMING_EXEC_HW;
		}
	}
	drop(h, x);
}

/**
 * gpulat__hw_new - a hardware-time linker
 *
 * Return: the linker, NULL on ENOMEM.
 */
struct gpulat__hw *gpulat__hw_new(void)
{
	struct gpulat__hw *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	if (gpulat__htab_init(&h->by_key, 256) || gpulat__htab_init(&h->by_seq, 256) ||
	    gpulat__htab_init(&h->pends, 64)) {
		gpulat__hw_free(h);
		return NULL;
	}
	return h;
}

/**
 * gpulat__hw_free - free the linker
 * @h: may be NULL
 */
void gpulat__hw_free(struct gpulat__hw *h)
{
	struct gpulat__hiter it = { 0 };
	struct gpulat__hnode *n;
	struct hpend *p, *pn;

	if (!h)
		return;
	while ((n = gpulat__htab_iter(&h->by_seq, &it)))
		free(gpulat_container_of(n, struct hsub, by_seq));
	for (p = h->all; p; p = pn) {
		pn = p->next_all;
		free(p);
	}
	gpulat__htab_fini(&h->by_key);
	gpulat__htab_fini(&h->by_seq);
	gpulat__htab_fini(&h->pends);
	free(h);
}
