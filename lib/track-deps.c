// SPDX-License-Identifier: LGPL-2.1
/*
 * Job tracker: dependencies (drm_sched_job_add_dep / _wait_dep /
 * _unschedulable), their producer job, and foreign fences watched until their
 * dma_fence_signaled.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracker-int.h"

void gpulat__tk_resolve_deps(struct gpulat_tracker *t, struct job *j)
{
	struct jdeps *dx = job_depx(t, j);
	unsigned int i;

	for (i = 0; dx && i < dx->ndeps; i++) {
		struct gpulat_dep *d = &dx->deps[i];
		struct dent *e;

		if (d->job_seq == GPULAT_NONE || d->signal_ts != GPULAT_NONE)
			continue;
		e = gpulat__tk_dc_find_seq(t, d->job_seq);
		if (e) {
			d->signal_ts = d->scheduled ? e->run_ts : e->done_ts;
			d->dev = e->dev;
			d->ring = e->ring;
		}
	}
}

static int watch(struct gpulat_tracker *t, struct job *j, struct jdeps *dx, unsigned int dep,
		 uint64_t ctx, uint64_t seqno)
{
	struct watch *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->job = j;
	w->dep = dep;
	if (gpulat__htab_insert(&t->watches, &w->node, FK(t, ctx), U32(seqno))) {
		free(w);
		return -ENOMEM;
	}
	w->next = dx->watches;
	dx->watches = w;
	return 0;
}

void gpulat__tk_unwatch(struct gpulat_tracker *t, struct job *j)
{
	struct jdeps *dx = job_depx(t, j);
	struct watch *w, *next;

	if (!dx)
		return;
	for (w = dx->watches; w; w = next) {
		next = w->next;
		gpulat__htab_remove(&t->watches, &w->node);
		free(w);
	}
	dx->watches = NULL;
}

/* a watched foreign fence signalled: the waiting jobs learn when */
void gpulat__tk_signal_watches(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct gpulat__hnode *n, *next;

	for (n = gpulat__htab_find(&t->watches, FK(t, ev->ctx), U32(ev->seqno)); n; n = next) {
		struct watch *w = gpulat_container_of(n, struct watch, node);
		struct gpulat_dep *d = &job_depx(t, w->job)->deps[w->dep];

		next = gpulat__htab_next(n);
		if (d->signal_ts == GPULAT_NONE)
			d->signal_ts = ev->ts;
	}
}

static struct job *waiting_job(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	if (ev->flags & GPULAT_EVF_FENCE)
		return gpulat__tk_find_fence(t, ev->ctx, ev->seqno, true);
	if (ev->flags & GPULAT_EVF_ID)
		return gpulat__tk_find_id(t, gpulat__tk_get_ring(t, ev->dev, ev->ring), ev->id);
	return NULL;
}

/* was the fence of @dep (producer @p if open) signalled by time @ts? */
static bool signalled_by(struct gpulat_tracker *t, const struct job *j,
			 const struct gpulat_dep *dep, const struct job *p, uint64_t ts)
{
	const struct jdeps *dx = job_depx(t, j);
	unsigned int i;

	if (p && !dep->scheduled) {
		uint64_t s = job_ts(t, p, GPULAT_ST_SIGNAL) != GPULAT_NONE ?
				     job_ts(t, p, GPULAT_ST_SIGNAL) :
				     job_ts(t, p, GPULAT_ST_DONE);

		return s != GPULAT_NONE && s <= ts;
	}
	if (dep->signal_ts != GPULAT_NONE)
		return dep->signal_ts <= ts;
	/* a foreign fence: the signal its add_dep entry saw (dma_fence_signaled) */
	for (i = 0; dx && i < dx->ndeps; i++) {
		const struct gpulat_dep *o = &dx->deps[i];

		if (o->job_seq == GPULAT_NONE && U32(o->ctx) == U32(dep->ctx) &&
		    U32(o->seqno) == U32(dep->seqno) && o->signal_ts != GPULAT_NONE)
			return o->signal_ts <= ts;
	}
	return false;
}

int gpulat__tk_on_dep(struct gpulat_tracker *t, const struct gpulat_event *ev, bool unsched)
{
	struct gpulat_dep dep, *nd;
	struct job *j, *p = NULL;
	struct jdeps *dx;
	struct dent *d = NULL;
	unsigned int i;

	j = waiting_job(t, ev);
	if (!j)
		return 0;
	memset(&dep, 0, sizeof(dep));
	dep.ctx = (ev->flags & GPULAT_EVF_DEP) ? ev->dep_ctx : GPULAT_NONE;
	dep.seqno = (ev->flags & GPULAT_EVF_DEP) ? ev->dep_seqno : GPULAT_NONE;
	dep.ptr = (ev->flags & GPULAT_EVF_DEP_PTR) ? ev->dep_ptr : 0;
	dep.job_seq = GPULAT_NONE;
	dep.signal_ts = GPULAT_NONE;
	dep.unschedulable = unsched;

	/*
	 * The producer: by the fence's ctx:seqno first (open job, then recently
	 * completed), then by pointer; a pointer match whose fence is known to
	 * differ is a reused pointer and is rejected.
	 */
	if (dep.ctx != GPULAT_NONE) {
		bool full = !(ev->flags & GPULAT_EVF_DEP_PTR);

		p = gpulat__tk_find_fence(t, dep.ctx, dep.seqno, full);
		if (p == j)
			p = NULL;
		if (!p)
			d = gpulat__tk_dc_find_fence(t, dep.ctx, dep.seqno);
		if (!p && !d && t->era == GPULAT_ERA_V617) {
			/*
			 * The scheduled fence (context - 1, drm_sched_fence_init())
			 * of a job: the scheduler waits for it on a same-ring
			 * dependency (unschedulable), a driver may depend on it
			 * (amdgpu's scheduled dependencies, add_dep). Signalled
			 * when that job runs.
			 */
			p = gpulat__tk_find_fence(t, dep.ctx + 1, dep.seqno, full);
			if (p == j)
				p = NULL;
			if (!p)
				d = gpulat__tk_dc_find_fence(t, dep.ctx + 1, dep.seqno);
			dep.scheduled = p || d;
		}
	}
	if (!p && !d && dep.ptr) {
		p = gpulat__tk_find_ptr(t, dep.ptr);
		if (p == j || (p && p->in_fence && dep.ctx != GPULAT_NONE &&
			       (U32(p->ctx) != U32(dep.ctx) || U32(p->seqno) != U32(dep.seqno))))
			p = NULL;
		if (!p) {
			d = gpulat__tk_dc_find_ptr(t, dep.ptr);
			if (d && d->in_fence && dep.ctx != GPULAT_NONE &&
			    (U32(d->ctx) != U32(dep.ctx) || U32(d->seqno) != U32(dep.seqno)))
				d = NULL;
		}
	}
	if (p) {
		dep.job_seq = p->seq;
		dep.dev = job_dev(t, p);
		dep.ring = p->ring ? shown_ring(t, p) : NULL;
		/* a scheduled fence of a job that ran is signalled */
		if (dep.scheduled)
			dep.signal_ts = p->ts_qr[GPULAT_ST_RUN];
	} else if (d) {
		dep.job_seq = d->seq;
		dep.dev = d->dev;
		dep.ring = d->ring;
		dep.signal_ts = dep.scheduled ? d->run_ts : d->done_ts;
	}
	/*
	 * Since 2025-09 ("drm/sched: Fix racy access to
	 * drm_sched_entity.dependency") unschedulable fires before the
	 * callback is installed, also for a fence that signals right then: a
	 * dependency whose signal the trace shows before the event did not
	 * block the job.
	 */
	if (unsched && signalled_by(t, j, &dep, p, ev->ts))
		dep.unschedulable = false;

	dx = gpulat__tk_depx(t, j);
	if (!dx)
		return -ENOMEM;
	for (i = 0; i < dx->ndeps; i++) {
		struct gpulat_dep *o = &dx->deps[i];

		if ((dep.job_seq != GPULAT_NONE && o->job_seq == dep.job_seq) ||
		    (dep.job_seq == GPULAT_NONE && o->job_seq == GPULAT_NONE &&
		     U32(o->ctx) == U32(dep.ctx) && U32(o->seqno) == U32(dep.seqno) &&
		     o->ptr == dep.ptr)) {
			o->unschedulable |= dep.unschedulable;
			return 0;
		}
	}
	if (dx->ndeps == dx->capdeps) {
		unsigned int cap = dx->capdeps ? dx->capdeps * 2 : 4;

		nd = realloc(dx->deps, cap * sizeof(*nd));
		if (!nd)
			return -ENOMEM;
		dx->deps = nd;
		dx->capdeps = cap;
	}
	dx->deps[dx->ndeps++] = dep;
	/* a foreign fence, or the scheduled fence of a job yet to run (its run
	 * signals it: gpulat__tk_on_run()) */
	if (dep.ctx != GPULAT_NONE &&
	    (dep.job_seq == GPULAT_NONE || (dep.scheduled && dep.signal_ts == GPULAT_NONE)))
		return watch(t, j, dx, dx->ndeps - 1, dep.ctx, dep.seqno);
	return 0;
}
