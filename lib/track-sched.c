// SPDX-License-Identifier: LGPL-2.1
/*
 * Job tracker: drm_sched events (queue, run, done) and the finished fence's
 * dma_fence_signaled, every era; what the pointer eras (<= 6.16) do differently
 * is in track-ptr.c.
 */
#include <errno.h>

#include "tracker-int.h"

int gpulat__tk_on_queue(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct ring *r = gpulat__tk_get_ring(t, ev->dev, ev->ring);
	struct job *j = NULL;

	if (ev->flags & GPULAT_EVF_FENCE_PTR) {
		j = gpulat__tk_ptr_queue(t, ev, r);
		if (!j)
			return -ENOMEM;
	} else if (ev->flags & GPULAT_EVF_FENCE) {
		j = gpulat__tk_find_fence(t, ev->ctx, ev->seqno, true);
		if (j && j->ts_qr[GPULAT_ST_QUEUE] != GPULAT_NONE && !j->from_amd)
			j = NULL; /* a second queue of one fence: a new job */
		if (!j)
			j = gpulat__tk_new_job(t, ev, r);
		if (!j)
			return -ENOMEM;
		gpulat__tk_set_ring(t, j, r);
		if (j->in_fence && j->fence32) {
			/* created by a 32-bit event: take the full values */
			j->ctx = ev->ctx;
			j->seqno = ev->seqno;
			j->fence32 = false;
		}
		gpulat__tk_set_fence(t, j, ev->ctx, ev->seqno, false);
		gpulat__tk_ctx_learn(t, ev->ctx, r);
	} else {
		return 0;
	}
	if (r && j->from_amd) {
		/* the scheduler's queue event names the ring with its device */
		j->ring = NULL;
	}
	gpulat__tk_set_ring(t, j, r);
	gpulat__tk_job_queue_fields(t, j, ev);
	if (t->queued)
		t->queued(ev, t->queued_data);
	gpulat__tk_keep_last(t, j);
	gpulat__tk_evict_if_needed(t);
	return 0;
}

int gpulat__tk_on_run(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct ring *r = gpulat__tk_get_ring(t, ev->dev, ev->ring);
	struct job *j = NULL;

	t->seen_run = true;
	if (ev->flags & GPULAT_EVF_FENCE_PTR) {
		j = gpulat__tk_ptr_run(t, ev, r);
		if (!j)
			return -ENOMEM;
	} else if (ev->flags & GPULAT_EVF_FENCE) {
		j = gpulat__tk_find_fence(t, ev->ctx, ev->seqno, true);
		if (j && job_ts(t, j, GPULAT_ST_DONE) != GPULAT_NONE)
			j = NULL;
		if (!j) {
			t->c.orphan_run++;
			j = gpulat__tk_new_job(t, ev, r);
			if (!j)
				return -ENOMEM;
			gpulat__tk_set_fence(t, j, ev->ctx, ev->seqno, false);
		}
		gpulat__tk_ctx_learn(t, ev->ctx, r);
		if (ev->flags & GPULAT_EVF_CLIENT && j->client_id == GPULAT_NONE)
			j->client_id = ev->client_id;
	} else {
		return 0;
	}
	gpulat__tk_set_ring(t, j, r);
	if (!j->in_fence && gpulat__tk_ensure_cpu(t, ev->cpu) == 0)
		t->run_slot[ev->cpu] = j;
	if (j->ts_qr[GPULAT_ST_RUN] == GPULAT_NONE) {
		gpulat__tk_stage(t, j, GPULAT_ST_RUN, ev);
		if (ev->flags & GPULAT_EVF_COUNTS)
			j->hw_job_count = ev->hw_job_count;
	}
	/* 6.17+: the run signals its scheduled fence (context - 1), which jobs may wait for */
	if (t->watches.n && (ev->flags & GPULAT_EVF_FENCE) && ev->ctx) {
		struct gpulat_event sev = *ev;

		sev.ctx = ev->ctx - 1;
		gpulat__tk_signal_watches(t, &sev);
	}
	/* its done inserts it into the dependency cache: load those buckets now */
	if (t->dc_indexed) {
		gpulat__htab_prefetch_slot(&t->dc_seq, j->seq, 0);
		if (j->in_fence)
			gpulat__htab_prefetch_slot(&t->dc_fence, FK(t, j->ctx), U32(j->seqno));
	}
	gpulat__tk_keep_last(t, j);
	gpulat__tk_evict_if_needed(t);
	return 0;
}

int gpulat__tk_on_done(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct job *j = NULL;

	if (ev->cpu >= 0 && ev->cpu < t->ncpus)
		t->run_slot[ev->cpu] = NULL;

	if (ev->flags & GPULAT_EVF_FENCE_PTR) {
		j = gpulat__tk_ptr_done(t, ev);
		if (!j)
			return -ENOMEM;
	} else if (ev->flags & GPULAT_EVF_FENCE) {
		j = gpulat__tk_find_fence(t, ev->ctx, ev->seqno, true);
		if (j && job_ts(t, j, GPULAT_ST_DONE) != GPULAT_NONE)
			j = NULL;
		if (!j) {
			j = gpulat__tk_new_job(t, ev, gpulat__tk_ctx_ring(t, ev->ctx));
			if (!j)
				return -ENOMEM;
			gpulat__tk_set_fence(t, j, ev->ctx, ev->seqno, false);
		}
	} else {
		return 0;
	}
	gpulat__tk_complete(t, j, ev);
	return 0;
}

void gpulat__tk_attach_signal(struct gpulat_tracker *t, struct job *j,
			      const struct gpulat_event *ev)
{
	struct dent *d;

	if (job_ts(t, j, GPULAT_ST_SIGNAL) == GPULAT_NONE)
		gpulat__tk_stage(t, j, GPULAT_ST_SIGNAL, ev);
	if (!j->in_fence) {
		gpulat__tk_set_fence(t, j, ev->ctx, ev->seqno,
				     (ev->flags & GPULAT_EVF_FENCE32) != 0);
		d = gpulat__tk_dc_of(t, j);
		if (d)
			gpulat__tk_dc_set_fence(t, d, ev->ctx, ev->seqno);
	}
	if (j->ring == NULL && ev->timeline)
		gpulat__tk_set_ring(t, j, gpulat__tk_get_ring(t, t->empty, ev->timeline));
	else if (sched_driver(t, ev->driver))
		gpulat__tk_learn_alias(t, j, ev->timeline);
	if (j->dn) {
		struct jdone *jd = job_donex(t, j);

		if (jd->slot_cpu >= 0 && jd->slot_cpu < t->ncpus && t->cpu_slot[jd->slot_cpu] == j)
			t->cpu_slot[jd->slot_cpu] = NULL;
		jd->slot_cpu = -1;
	}
	if (j->held && !gpulat__tk_hw_waits(t, j))
		gpulat__tk_emit(t, j);
}

int gpulat__tk_on_signal(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	bool full = !(ev->flags & GPULAT_EVF_FENCE32);
	struct job *j;

	if (t->watches.n)
		gpulat__tk_signal_watches(t, ev);
	if (!sched_driver(t, ev->driver) && t->era != GPULAT_ERA_AMDGPU)
		return 0;
	j = gpulat__tk_find_fence_signal(t, ev->ctx, ev->seqno, full);
	if (j) {
		if (t->era == GPULAT_ERA_AMDGPU && job_ts(t, j, GPULAT_ST_DONE) == GPULAT_NONE) {
			/*
			 * amdgpu-only traces: the finished fence signal is the
			 * done, every stage is a driver event (front ends that
			 * annotate done events look for this flag)
			 */
			j->timing |= GPULAT_TIMING_DRIVER;
			gpulat__tk_stage(t, j, GPULAT_ST_SIGNAL, ev);
			gpulat__tk_complete(t, j, ev);
			return 0;
		}
		gpulat__tk_attach_signal(t, j, ev);
		return 0;
	}
	if (sched_driver(t, ev->driver))
		gpulat__tk_ptr_signal(t, ev);
	return 0;
}
