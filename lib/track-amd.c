// SPDX-License-Identifier: LGPL-2.1
/*
 * Job tracker: amdgpu_cs_ioctl and amdgpu_sched_run_job.
 */
#include <errno.h>

#include "tracker-int.h"

int gpulat__tk_on_amd(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct ring *r = gpulat__tk_get_ring(t, t->era == GPULAT_ERA_V617 ? ev->dev : t->empty,
					     ev->ring ? ev->ring : ev->timeline);
	bool fence32 = (ev->flags & GPULAT_EVF_FENCE32) != 0;
	struct job *j = NULL;

	if (ev->flags & GPULAT_EVF_FENCE)
		j = gpulat__tk_find_fence(t, ev->ctx, ev->seqno, !fence32);
	if (!j && (ev->flags & GPULAT_EVF_ID))
		j = gpulat__tk_find_id(t, r, ev->id);
	if (j && job_ts(t, j, GPULAT_ST_DONE) != GPULAT_NONE)
		j = NULL;

	if (t->era == GPULAT_ERA_AMDGPU) {
		/* the only job events: cs = queue, run = run, signal = done */
		if (!j) {
			j = gpulat__tk_new_job(t, ev, r);
			if (!j)
				return -ENOMEM;
			j->from_amd = true;
			t->any_amd = true;
			gpulat__tk_set_fence(t, j, ev->ctx, ev->seqno, fence32);
			if (ev->flags & GPULAT_EVF_ID)
				gpulat__tk_set_id(t, j, ev->id);
		}
		if (ev->kind == GPULAT_EV_AMD_CS) {
			if (j->ts_qr[GPULAT_ST_QUEUE] == GPULAT_NONE)
				gpulat__tk_job_queue_fields(t, j, ev);
		} else if (j->ts_qr[GPULAT_ST_RUN] == GPULAT_NONE) {
			t->seen_run = true;
			gpulat__tk_stage(t, j, GPULAT_ST_RUN, ev);
		}
		/* the event's job, for gpulat_tracker_last_job() */
		gpulat__tk_keep_last(t, j);
		gpulat__tk_evict_if_needed(t);
		return 0;
	}
	/*
	 * With scheduler events the amdgpu ones only name the job's fence and
	 * submitter. amdgpu_cs_ioctl comes before the scheduler's queue event:
	 * it opens the job, which the queue event then fills in.
	 */
	if (!j && ev->kind == GPULAT_EV_AMD_CS &&
	    (t->era == GPULAT_ERA_V519 || t->era == GPULAT_ERA_V617)) {
		j = gpulat__tk_new_job(t, ev, r);
		if (!j)
			return -ENOMEM;
		j->from_amd = true;
		t->any_amd = true;
		j->pid = ev->pid;
		j->comm = gpulat__strtab_id(gpulat__tk_tstr(t, ev->comm));
		if (ev->flags & GPULAT_EVF_ID)
			gpulat__tk_set_id(t, j, ev->id);
	}
	if (j)
		gpulat__tk_set_fence(t, j, ev->ctx, ev->seqno, fence32);
	gpulat__tk_evict_if_needed(t);
	return 0;
}
