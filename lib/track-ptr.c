// SPDX-License-Identifier: LGPL-2.1
/*
 * Job tracker: rules of the pointer eras (<= 6.16), whose events name a job by
 * its finished-fence pointer and (ring, id) and, before 5.19, the ring by a
 * "0x..." address.
 */
#include <stdlib.h>
#include <string.h>

#include "gpulat-report.h"
#include "tracker-int.h"

#define INIT_MAX_AGE_NS 10000000ULL /* fence init -> queue event, same cpu */

/*
 * A drm_sched fence timeline is the ring's name (the scheduler creates its
 * fences with sched->name as timeline): it names "0x..." labels (<= 5.18).
 * Two rings of one file may share a name (two GPUs, no device field before
 * 6.17): gpulat__ring_alias() keeps them apart.
 */
void gpulat__tk_learn_alias(struct gpulat_tracker *t, struct job *j, const char *timeline)
{
	const struct ring *o;
	char buf[256];
	bool taken = false;

	if (!j->ring || j->ring->alias || !j->ring->is_ptr || !timeline || !*timeline)
		return;
	for (o = t->all_rings; o && !taken; o = o->next_all)
		taken = o != j->ring && o->file == j->ring->file && o->alias &&
			!strcmp(o->alias, timeline);
	j->ring->alias = gpulat__tk_tstr(t, gpulat__ring_alias(buf, sizeof(buf), j->ring->name,
							       timeline, taken));
}

int gpulat__tk_on_init(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct initslot *is;

	if (!sched_driver(t, ev->driver) || gpulat__tk_ensure_cpu(t, ev->cpu))
		return 0;
	is = &t->init_slot[ev->cpu];
	if (is->have_prev && U32(is->pctx + 1) == U32(ev->ctx) &&
	    U32(is->pseqno) == U32(ev->seqno)) {
		is->ts = ev->ts;
		is->ctx = ev->ctx;
		is->seqno = ev->seqno;
		is->timeline = ev->timeline;
		is->pair = true;
		is->have_prev = false;
		return 0;
	}
	is->have_prev = true;
	is->pctx = ev->ctx;
	is->pseqno = ev->seqno;
	return 0;
}

/* the job a queue event starts (a job of amdgpu_cs_ioctl's, if it opened it); NULL: ENOMEM */
struct job *gpulat__tk_ptr_queue(struct gpulat_tracker *t, const struct gpulat_event *ev,
				 struct ring *r)
{
	struct job *j = NULL;

	/*
	 * <= 6.16: a queue always starts a job, unless amdgpu_cs_ioctl did
	 * (none did: no lookup, 3.8 M instructions on KernelShark's dense-1M)
	 */
	if ((ev->flags & GPULAT_EVF_ID) && t->any_amd) {
		j = gpulat__tk_find_id(t, r, ev->id);
		if (j && (!j->from_amd || j->ts_qr[GPULAT_ST_QUEUE] != GPULAT_NONE))
			j = NULL;
	}
	if (!j)
		j = gpulat__tk_new_job(t, ev, r);
	if (!j)
		return NULL;
	gpulat__tk_set_ptr(t, j, ev->fence_ptr);
	if (ev->flags & GPULAT_EVF_ID)
		gpulat__tk_set_id(t, j, ev->id);
	if (gpulat__tk_ensure_cpu(t, ev->cpu) == 0 && t->init_slot[ev->cpu].pair) {
		struct initslot *is = &t->init_slot[ev->cpu];

		/* arm and push happen back to back: a stale pair is another job's */
		if (!j->in_fence && ev->ts - is->ts <= INIT_MAX_AGE_NS &&
		    (!is->timeline || !ev->ring || (ev->flags & GPULAT_EVF_RING_PTR) ||
		     is->timeline == ev->ring || !strcmp(is->timeline, ev->ring))) {
			gpulat__tk_set_fence(t, j, is->ctx, is->seqno, true);
			gpulat__tk_learn_alias(t, j, is->timeline);
		}
		is->pair = false;
	}
	return j;
}

/* the job of a run event: by (ring, id), else by pointer, else a new one; NULL: ENOMEM */
struct job *gpulat__tk_ptr_run(struct gpulat_tracker *t, const struct gpulat_event *ev,
			       struct ring *r)
{
	struct job *j = NULL;

	if (ev->flags & GPULAT_EVF_ID)
		j = gpulat__tk_find_id(t, r, ev->id);
	if (j && j->ts_qr[GPULAT_ST_RUN] != GPULAT_NONE)
		j = NULL;
	if (!j) {
		j = gpulat__tk_find_ptr(t, ev->fence_ptr);
		if (j && j->ts_qr[GPULAT_ST_RUN] != GPULAT_NONE)
			j = NULL;
	}
	if (!j) {
		t->c.orphan_run++;
		j = gpulat__tk_new_job(t, ev, r);
		if (!j)
			return NULL;
		gpulat__tk_set_ptr(t, j, ev->fence_ptr);
		if (ev->flags & GPULAT_EVF_ID)
			gpulat__tk_set_id(t, j, ev->id);
	}
	return j;
}

/* the job of a done event: the open job holding the pointer, else a new one; NULL: ENOMEM */
struct job *gpulat__tk_ptr_done(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct jptr *p;
	struct job *j;

	j = gpulat__tk_find_ptr(t, ev->fence_ptr);
	if (!j) {
		j = gpulat__tk_new_job(t, ev, NULL);
		if (!j)
			return NULL;
		p = gpulat__tk_ptrx(t, j);
		if (!p)
			return NULL;
		p->fence_ptr = ev->fence_ptr;
		gpulat__tk_ptr_gen(t, j);
	}
	return j;
}

/*
 * The generation of a job's fence handle. A job gets it when it first holds
 * its pointer: at its queue event, else at its run or done (a trace read
 * whole or `-F drm_sched_process_job` alone number a pointer's jobs alike,
 * because one pointer's jobs follow one another: the slab reuses a fence's
 * memory only after it was freed). Counted per file, as each trace is a
 * report of its own.
 */
void gpulat__tk_ptr_gen(struct gpulat_tracker *t, struct job *j)
{
	struct jptr *x = job_ptrx(t, j);
	uint64_t p = x ? x->fence_ptr : 0;
	uint32_t *g;
	int f = t->cur_file;

	if (!x || x->ptr_gen || !p || p == GPULAT_NONE || f < 0)
		return;
	if (f >= t->nptr_gens) {
		uint32_t **n = realloc(t->ptr_gens, (size_t)(f + 1) * sizeof(*n));

		if (!n)
			return;
		memset(n + t->nptr_gens, 0, (size_t)(f + 1 - t->nptr_gens) * sizeof(*n));
		t->ptr_gens = n;
		t->nptr_gens = f + 1;
	}
	if (!t->ptr_gens[f]) {
		t->ptr_gens[f] = calloc(0x10000, sizeof(uint32_t));
		if (!t->ptr_gens[f])
			return;
	}
	g = &t->ptr_gens[f][gpulat_ptr_handle(p)];
	/* saturates: 4 G jobs of one handle (0 would mean "not counted") */
	if (*g != UINT32_MAX)
		(*g)++;
	x->ptr_gen = *g;
}

void gpulat__tk_ptr_gens_free(struct gpulat_tracker *t)
{
	int i;

	for (i = 0; i < t->nptr_gens; i++)
		free(t->ptr_gens[i]);
	free(t->ptr_gens);
	t->ptr_gens = NULL;
	t->nptr_gens = 0;
}

/* a drm_sched fence signal that matched no job by its fence */
void gpulat__tk_ptr_signal(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct job *j;

	if (gpulat__tk_ensure_cpu(t, ev->cpu))
		return;
	/*
	 * <= 6.16: the scheduled fence (context = finished - 1, same seqno) is
	 * signalled right after the run on the same cpu: it names the job's
	 * finished fence, whose signal may then come on any cpu.
	 */
	j = t->run_slot[ev->cpu];
	t->run_slot[ev->cpu] = NULL;
	if (j && !j->in_fence && job_ts(t, j, GPULAT_ST_DONE) == GPULAT_NONE &&
	    (!ev->timeline || !j->ring || !strncmp(j->ring->name, "0x", 2) ||
	     !strcmp(j->ring->name, ev->timeline))) {
		gpulat__tk_set_fence(t, j, U32(ev->ctx + 1), ev->seqno, true);
		gpulat__tk_learn_alias(t, j, ev->timeline);
		return;
	}
	/* <= 6.16: the finished fence signal follows the done on the same cpu */
	j = t->cpu_slot[ev->cpu];
	if (j && !j->in_fence && job_ts(t, j, GPULAT_ST_SIGNAL) == GPULAT_NONE &&
	    (!ev->timeline || !j->ring || j->ring->name == t->unknown ||
	     !strncmp(j->ring->name, "0x", 2) || !strcmp(j->ring->name, ev->timeline)))
		gpulat__tk_attach_signal(t, j, ev);
}
