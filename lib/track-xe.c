// SPDX-License-Identifier: LGPL-2.1
/*
 * xe jobs linked to the gpu_scheduler jobs of the same submission. xe uses
 * drm_sched: its jobs are the scheduler's jobs, and the xe events
 * (drivers/gpu/drm/xe/xe_trace.h, 6.8+) add what the scheduler does not
 * trace: hangs (xe_sched_job_timedout), errors and bans. Every xe_sched_job_*
 * event names the job by its hardware fence (`fence`, the struct dma_fence *
 * of the LRC seqno fence, whose struct xe_hw_fence starts with it, so
 * xe_hw_fence_* events print the same pointer); the scheduler events name it
 * by the finished fence instead. The two meet where xe calls the scheduler:
 *
 *   xe_sched_job_push():        trace_xe_sched_job_exec(), then
 *                               drm_sched_entity_push_job() traces the queue
 *                               event (drm_sched_job / drm_sched_job_queue)
 *   drm_sched_run_job_work():   traces the run event (drm_run_job /
 *                               drm_sched_job_run), then calls
 *                               guc_exec_queue_run_job(), which traces
 *                               xe_sched_job_run
 *
 * back to back in one task. So an xe job is linked to the scheduler job whose
 * queue event the same task traced right after its exec (or, for a job pushed
 * before the trace started, whose run event came right before its run). A
 * hang report then reaches the scheduler job through the fence pointer; the
 * tracker asks for it when it emits the job (gpulat__xe_take()).
 *
 * Memory: an xe job is forgotten when its scheduler job is emitted, at
 * xe_sched_job_free / xe_hw_fence_free, or beyond MAX_UNLINKED unlinked ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "track-int.h"

/* exec -> queue and run -> run happen back to back in one task */
#define XE_ADJACENT_NS 1000000ULL
/* xe jobs no scheduler job claimed (xe events recorded alone) */
#define MAX_UNLINKED   65536

struct xjob {
	struct gpulat__hnode by_fence; /* (fence pointer, file) */
	struct gpulat__hnode by_seq; /* (gpulat_job.seq) once linked */
	struct xjob *prev, *next; /* unlinked list, oldest first */
	bool in_fence, linked;
	uint64_t fence;
	uint64_t seq;
	unsigned int hang; /* GPULAT_HANG_* */
	int file;
};

/* what one task traced last: an exec waiting for its queue, a run for its xe run */
struct pend {
	struct gpulat__hnode node; /* (pid, file) */
	struct pend *next_all;
	struct xjob *exec;
	uint64_t exec_ts;
	uint64_t run_seq; /* GPULAT_NONE: none */
	uint64_t run_ts;
};

struct gpulat__xe {
	struct gpulat__htab by_fence, by_seq, pends;
	struct pend *all_pends;
	struct xjob *uhead, *utail; /* unlinked */
	size_t nunlinked;
	uint64_t unlinked_hangs; /* hang reports of no scheduler job */
};

static void u_add(struct gpulat__xe *x, struct xjob *j)
{
	j->next = NULL;
	j->prev = x->utail;
	if (x->utail)
		x->utail->next = j;
	else
		x->uhead = j;
	x->utail = j;
	x->nunlinked++;
}

static void u_del(struct gpulat__xe *x, struct xjob *j)
{
	if (j->prev)
		j->prev->next = j->next;
	else
		x->uhead = j->next;
	if (j->next)
		j->next->prev = j->prev;
	else
		x->utail = j->prev;
	j->prev = j->next = NULL;
	x->nunlinked--;
}

static uint64_t fkey(int file)
{
	return (uint64_t)(unsigned int)file;
}

static struct xjob *find_fence(struct gpulat__xe *x, uint64_t fence, int file)
{
	struct gpulat__hnode *n;

	for (n = gpulat__htab_find(&x->by_fence, fence, fkey(file)); n; n = gpulat__htab_next(n))
		return gpulat_container_of(n, struct xjob, by_fence);
	return NULL;
}

static struct xjob *find_seq(struct gpulat__xe *x, uint64_t seq)
{
	struct gpulat__hnode *n = gpulat__htab_find(&x->by_seq, seq, 0);

	return n ? gpulat_container_of(n, struct xjob, by_seq) : NULL;
}

static void unfence(struct gpulat__xe *x, struct xjob *j)
{
	if (j->in_fence) {
		gpulat__htab_remove(&x->by_fence, &j->by_fence);
		j->in_fence = false;
	}
}

static void drop(struct gpulat__xe *x, struct xjob *j)
{
	struct pend *p;

	unfence(x, j);
	if (j->linked)
		gpulat__htab_remove(&x->by_seq, &j->by_seq);
	else
		u_del(x, j);
	for (p = x->all_pends; p; p = p->next_all)
		if (p->exec == j)
			p->exec = NULL;
	free(j);
}

/* a new xe job for @fence; a pointer seen again belongs to a new job */
static struct xjob *new_xjob(struct gpulat__xe *x, uint64_t fence, int file)
{
	struct xjob *j = find_fence(x, fence, file);

	if (j) {
		if (!j->linked) {
			drop(x, j);
		} else {
			unfence(x, j); /* its scheduler job keeps it until emitted */
		}
	}
	if (x->nunlinked >= MAX_UNLINKED)
		drop(x, x->uhead);
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->fence = fence;
	j->file = file;
	j->seq = GPULAT_NONE;
	if (gpulat__htab_insert(&x->by_fence, &j->by_fence, fence, fkey(file))) {
		free(j);
		return NULL;
	}
	j->in_fence = true;
	u_add(x, j);
	return j;
}

static int link(struct gpulat__xe *x, struct xjob *j, uint64_t seq)
{
	struct xjob *old;

	if (j->linked)
		return 0;
	old = find_seq(x, seq);
	if (old) {
		/* the scheduler job is someone else's already: keep the first */
		return 0;
	}
	if (gpulat__htab_insert(&x->by_seq, &j->by_seq, seq, 0))
		return -ENOMEM;
	u_del(x, j);
	j->linked = true;
	j->seq = seq;
	return 0;
}

static struct pend *get_pend(struct gpulat__xe *x, int pid, int file, bool create)
{
	uint64_t k2 = fkey(file);
	struct gpulat__hnode *n;
	struct pend *p;

	for (n = gpulat__htab_find(&x->pends, (uint64_t)(unsigned int)pid, k2); n;
	     n = gpulat__htab_next(n))
		return gpulat_container_of(n, struct pend, node);
	if (!create)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->run_seq = GPULAT_NONE;
	if (gpulat__htab_insert(&x->pends, &p->node, (uint64_t)(unsigned int)pid, k2)) {
		free(p);
		return NULL;
	}
	p->next_all = x->all_pends;
	x->all_pends = p;
	return p;
}

static unsigned int hang_bit(enum gpulat_kind k)
{
	switch (k) {
	case GPULAT_EV_XE_JOB_TIMEDOUT:
		return GPULAT_HANG_TIMEDOUT;
	case GPULAT_EV_XE_JOB_SET_ERROR:
		return GPULAT_HANG_ERROR;
	case GPULAT_EV_XE_JOB_BAN:
		return GPULAT_HANG_BANNED;
	default:
		return 0;
	}
}

/**
 * gpulat__xe_feed - one xe_sched_job_* or xe_hw_fence_* event
 * @x: the xe linker
 * @ev: the event (GPULAT_EVF_FENCE_PTR: the job's hardware fence)
 *
 * Return: 0, or -ENOMEM.
 */
int gpulat__xe_feed(struct gpulat__xe *x, const struct gpulat_event *ev)
{
	struct xjob *j;
	struct pend *p;

	if (!(ev->flags & GPULAT_EVF_FENCE_PTR) || !ev->fence_ptr)
		return 0;
	j = find_fence(x, ev->fence_ptr, ev->file);

	switch (ev->kind) {
	case GPULAT_EV_XE_JOB_EXEC:
		/* pushed to the scheduler now: its queue event follows */
		j = new_xjob(x, ev->fence_ptr, ev->file);
		p = j ? get_pend(x, ev->pid, ev->file, true) : NULL;
		if (!p)
			return -ENOMEM;
		p->exec = j;
		p->exec_ts = ev->ts;
		return 0;
	case GPULAT_EV_XE_JOB_RUN:
		/* the scheduler's run event of this task came just before */
		if (!j && !(j = new_xjob(x, ev->fence_ptr, ev->file)))
			return -ENOMEM;
		p = get_pend(x, ev->pid, ev->file, false);
		if (p && p->run_seq != GPULAT_NONE && ev->ts - p->run_ts <= XE_ADJACENT_NS) {
			uint64_t seq = p->run_seq;

			p->run_seq = GPULAT_NONE;
			return link(x, j, seq);
		}
		return 0;
	case GPULAT_EV_XE_JOB_TIMEDOUT:
	case GPULAT_EV_XE_JOB_SET_ERROR:
	case GPULAT_EV_XE_JOB_BAN:
		if (!j && !(j = new_xjob(x, ev->fence_ptr, ev->file)))
			return -ENOMEM;
		j->hang |= hang_bit(ev->kind);
		return 0;
	case GPULAT_EV_XE_JOB_FREE:
		/* the pointer may be reused from now on */
		if (j && !j->linked) {
			if (j->hang)
				x->unlinked_hangs++;
			drop(x, j);
		} else if (j) {
			unfence(x, j);
		}
		return 0;
	default:
		/* create (no fence armed yet on 6.11+), hw fence events */
		return 0;
	}
}

/**
 * gpulat__xe_queued - the scheduler traced a queue event of job @seq
 * @x: the xe linker
 * @ev: the queue event
 * @seq: its job's gpulat_job.seq
 *
 * Return: 0, or -ENOMEM.
 */
int gpulat__xe_queued(struct gpulat__xe *x, const struct gpulat_event *ev, uint64_t seq)
{
	struct pend *p = get_pend(x, ev->pid, ev->file, false);
	struct xjob *j;

	if (!p || !p->exec)
		return 0;
	j = p->exec;
	p->exec = NULL;
	if (ev->ts < p->exec_ts || ev->ts - p->exec_ts > XE_ADJACENT_NS)
		return 0;
	return link(x, j, seq);
}

/**
 * gpulat__xe_ran - the scheduler traced a run event of job @seq
 * @x: the xe linker
 * @ev: the run event
 * @seq: its job's gpulat_job.seq
 *
 * Return: 0, or -ENOMEM.
 */
int gpulat__xe_ran(struct gpulat__xe *x, const struct gpulat_event *ev, uint64_t seq)
{
	struct pend *p;

	if (find_seq(x, seq))
		return 0; /* linked at its queue */
	p = get_pend(x, ev->pid, ev->file, true);
	if (!p)
		return -ENOMEM;
	p->run_seq = seq;
	p->run_ts = ev->ts;
	return 0;
}

/**
 * gpulat__xe_take - the xe facts of scheduler job @seq, which is emitted now
 * @x: the xe linker
 * @seq: gpulat_job.seq
 *
 * Return: its GPULAT_HANG_* bits (0 without xe job); the xe job is forgotten.
 */
unsigned int gpulat__xe_take(struct gpulat__xe *x, uint64_t seq)
{
	struct xjob *j = find_seq(x, seq);
	unsigned int hang;

	if (!j)
		return 0;
	hang = j->hang;
	drop(x, j);
	return hang;
}

/* hang reports whose xe job no scheduler job claimed */
uint64_t gpulat__xe_unlinked_hangs(const struct gpulat__xe *x)
{
	uint64_t n = x->unlinked_hangs;
	const struct xjob *j;

	for (j = x->uhead; j; j = j->next)
		if (j->hang)
			n++;
	return n;
}

/**
 * gpulat__xe_new - an xe linker
 *
 * Return: the linker, NULL on ENOMEM.
 */
struct gpulat__xe *gpulat__xe_new(void)
{
	struct gpulat__xe *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	if (gpulat__htab_init(&x->by_fence, 256) || gpulat__htab_init(&x->by_seq, 256) ||
	    gpulat__htab_init(&x->pends, 64)) {
		gpulat__xe_free(x);
		return NULL;
	}
	return x;
}

/**
 * gpulat__xe_free - free the linker
 * @x: may be NULL
 */
void gpulat__xe_free(struct gpulat__xe *x)
{
	struct gpulat__hiter it = { 0 };
	struct gpulat__hnode *n;
	struct pend *p, *pn;

	if (!x)
		return;
	while (x->uhead)
		drop(x, x->uhead);
	while ((n = gpulat__htab_iter(&x->by_seq, &it)))
		free(gpulat_container_of(n, struct xjob, by_seq));
	for (p = x->all_pends; p; p = pn) {
		pn = p->next_all;
		free(p);
	}
	gpulat__htab_fini(&x->by_fence);
	gpulat__htab_fini(&x->by_seq);
	gpulat__htab_fini(&x->pends);
	free(x);
}
