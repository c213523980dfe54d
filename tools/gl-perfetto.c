// SPDX-License-Identifier: LGPL-2.1
/*
 * --perfetto, the track model. What the file shows (README "Perfetto export"):
 *
 *   GPU <dev>                        one group per (file, device)
 *     <ring label>                   one track per (file, device, ring)
 *       <ring label> (lanes)         the jobs: "comm ctx:seqno" [queue, done]
 *                                    with wait / hw_queue / exec nested in it;
 *                                    jobs overlap (many queued at once), so a
 *                                    ring has as many lanes as jobs in flight;
 *                                    the lanes share the ring's name and the UI
 *                                    merges same-named siblings into one track
 *       depth                        counter: jobs queued and not done
 *       signals                      instants at a producer's done: the flows
 *                                    to the jobs that waited for its fence
 *       idle                         ring-idle stalls (instants)
 *     <mark track>                   gl_pf_mark(), e.g. late frames, vblanks
 *   <comm> <pid>                     process track: "submit ..." instants with
 *                                    a flow to the job, submit-gap stalls
 *   CPU scheduling                   ftrace sched_switch / sched_waking bundles
 *
 * Flows: submit instant -> job slice; producer's signal instant -> the
 * waiting job's hw_queue slice (it starts at run). Flow ids are unique.
 *
 * Streaming: a job's packets are written when the job is final; what stays in
 * memory is one entry per ring (with its lanes) and per process, and at most
 * PF_SCHED_BATCH sched events per CPU.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl-pf-int.h"
#include "gpulat-frames.h"

/*
 * The job's name: "comm ctx:seqno" (the finished fence, 6.17+ and wherever
 * the dma_fence events tell it), else "comm id N" (drm_sched job id, before
 * 6.17), else "comm fence 0x..." (the finished-fence pointer).
 */
static const char *job_name(const struct gpulat_job *j, char *buf, size_t len)
{
	const char *comm = j->comm && *j->comm ? j->comm : "?";

	if (j->ctx != GPULAT_NONE)
		snprintf(buf, len, "%s %" PRIu64 ":%" PRIu64, comm, j->ctx, j->seqno);
	else if (j->id != GPULAT_NONE)
		snprintf(buf, len, "%s id %" PRIu64, comm, j->id);
	else
		snprintf(buf, len, "%s fence 0x%" PRIx64, comm, j->fence_ptr);
	return buf;
}

/*
 * The job's numbers. Stage durations are the slices' own (wait, hw_queue,
 * exec; total = the job slice), the fence is in the name: the arguments are
 * what the slices do not show.
 */
static void job_args(struct pf_args *as, const struct gpulat_job *j, char *lost, size_t len)
{
	arg_u64(as, PA_JOB, j->seq);
	if (j->pid >= 0)
		arg_int(as, PA_PID, j->pid);
	arg_u64(as, PA_CLIENT, j->client_id);
	arg_u64(as, PA_ID, j->id);
	arg_ptr(as, PA_FENCE_PTR, j->fence_ptr);
	if (j->n_deps) {
		arg_u64(as, PA_DEPS, j->n_deps);
		arg_u64(as, PA_DEP_WAIT, j->dep_wait);
	}
	if (j->ts[GPULAT_ST_QUEUE] != GPULAT_NONE)
		arg_u64(as, PA_JOB_COUNT, j->job_count);
	if (j->ts[GPULAT_ST_RUN] != GPULAT_NONE)
		arg_int(as, PA_HW_JOB_COUNT, j->hw_job_count);
	if (j->cpu[GPULAT_ST_QUEUE] >= 0)
		arg_int(as, PA_QUEUE_CPU, j->cpu[GPULAT_ST_QUEUE]);
	if (j->cpu[GPULAT_ST_RUN] >= 0)
		arg_int(as, PA_RUN_CPU, j->cpu[GPULAT_ST_RUN]);
	if (j->cpu[GPULAT_ST_DONE] >= 0)
		arg_int(as, PA_DONE_CPU, j->cpu[GPULAT_ST_DONE]);
	arg_u64(as, PA_SIGNAL_TS, j->ts[GPULAT_ST_SIGNAL]);
	if (j->status != GPULAT_JOB_COMPLETE) {
		size_t off = 0;
		int st;

		arg_str(as, PA_STATUS, gpulat_status_name(j->status));
		lost[0] = '\0';
		for (st = 0; st < GPULAT_ST__COUNT && off < len; st++) {
			if (j->lost_stages & (1u << st))
				off += (size_t)snprintf(lost + off, len - off, "%s%s",
							off ? "," : "", gpulat_stage_name(st));
		}
		if (off)
			arg_str(as, PA_LOST, lost);
	}
}

/*
 * One dependency: an instant on the producer ring's "signals" track at the
 * producer's done, with a flow that the waiting job's slice at run ends.
 * Return: the flow id, 0 when the fence is no traced job (no arrow; the
 * dependency stays in the job's arguments).
 */
static uint64_t dep_flow(struct gl_pf *pf, const struct gpulat_job *j, const struct gpulat_dep *d,
			 const char *waiter)
{
	char name[PF_NAME_LEN];
	struct pf_args as;
	struct pf_ring *pr;
	uint64_t track, flow;

	if (d->job_seq == GPULAT_NONE || d->signal_ts == GPULAT_NONE)
		return 0;
	/* a producer on a ring the filters leave out: no track to start from */
	if (pf->opts.keep_ring && !pf->opts.keep_ring(pf->opts.data, d->dev, d->ring))
		return 0;
	pr = pf_ring(pf, j->file, d->dev, d->ring, NULL);
	if (!pr)
		return 0;
	track = pf_child(pf, &pr->signals_uuid, pr->uuid, "signals",
			 "a job's done, where a dependency arrow to its waiter starts");
	if (!track)
		return 0;
	flow = ++pf->next_flow;
	as.n = 0;
	arg_u64(&as, PA_JOB, d->job_seq);
	arg_u64(&as, PA_CTX, d->ctx);
	arg_u64(&as, PA_SEQNO, d->seqno);
	arg_str(&as, PA_DEP, waiter);
	snprintf(name, sizeof(name), "signal %" PRIu64 ":%" PRIu64, d->ctx, d->seqno);
	if (pf_emit_event(pf, &(struct pf_ev){ .ts = d->signal_ts, .track = track,
					       .type = PF_EV_INSTANT, .name = name,
					       .args = &as, .flow = flow }) < 0)
		return 0;
	pf->c.flows++;
	return flow;
}

int gl_pf_job(struct gl_pf *pf, const struct gpulat_job *j)
{
	uint64_t q = j->ts[GPULAT_ST_QUEUE], r = j->ts[GPULAT_ST_RUN];
	uint64_t d = j->ts[GPULAT_ST_DONE], s = j->start_ts;
	uint64_t begin, end, lane, sub_flow = 0, run_flow = 0;
	bool has_wait, has_hwq, has_exec, run_slice;
	char name[PF_NAME_LEN], lost[64];
	struct pf_args as;
	struct pf_ring *ring;
	unsigned int i;
	int st;

	if (pf->err)
		return pf->err;
	ring = pf_ring(pf, j->file, j->dev, j->ring, j->ring_name);
	if (!ring)
		return pf->err ? pf->err : -ENOMEM;

	/* the job's extent: first stage seen to done (or the last event seen) */
	begin = GPULAT_NONE;
	end = 0;
	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		uint64_t t = j->ts[st];

		if (t == GPULAT_NONE)
			continue;
		if (st != GPULAT_ST_SIGNAL && t < begin)
			begin = t;
		if (t > end)
			end = t;
	}
	if (s != GPULAT_NONE && s < begin)
		begin = s;
	if (begin == GPULAT_NONE)
		return 0;	/* no stage at all: nothing to draw */
	if (d != GPULAT_NONE)
		end = d;
	else if (pf->now > end)
		end = pf->now;	/* still in flight at the end of the trace */

	job_name(j, name, sizeof(name));

	/* flows first: their instants reference this job */
	if (q != GPULAT_NONE && j->pid >= 0) {
		uint64_t pt = pf_proc(pf, j->file, j->pid, j->comm);

		if (pt) {
			struct pf_args sa = { .n = 0 };

			/* "submit"; the flow leads to the job, its number says which */
			sub_flow = ++pf->next_flow;
			arg_u64(&sa, PA_JOB, j->seq);
			if (pf_emit_event(pf, &(struct pf_ev){ .ts = q, .track = pt,
							       .type = PF_EV_INSTANT,
							       .iid = PN_SUBMIT + 1, .args = &sa,
							       .flow = sub_flow }) < 0)
				return pf->err;
			pf->c.flows++;
		}
	}

	lane = pf_lane(pf, ring, begin, end);
	if (!lane)
		return pf->err ? pf->err : -ENOMEM;

	as.n = 0;
	job_args(&as, j, lost, sizeof(lost));
	if (j->ring_name && j->ring_name != j->ring &&
	    strcmp(j->ring_name, j->ring ? j->ring : ""))
		arg_str(&as, PA_RING_NAME, j->ring_name);
	if (pf_emit_event(pf, &(struct pf_ev){ .ts = begin, .track = lane, .type = PF_EV_BEGIN,
					       .name = name, .args = &as,
					       .term_flow = sub_flow }) < 0)
		return pf->err;

	/*
	 * The stages, each when it lasted: a stage of 0 ns is no slice (it would
	 * draw nothing, and a GPU-dense trace has one in most jobs: hw_queue is
	 * 0 whenever the ring was idle at run; `make bench`, perfetto row).
	 */
	has_wait = q != GPULAT_NONE && r != GPULAT_NONE && r > q;
	has_hwq = r != GPULAT_NONE && s != GPULAT_NONE && s > r;
	has_exec = s != GPULAT_NONE && d != GPULAT_NONE && d > s;
	/* the slice that starts at run: hw_queue, or exec when hw_queue is 0 */
	run_slice = has_hwq || (has_exec && s == r);

	/*
	 * Dependencies end at the slice that starts at run, or at the job itself
	 * without a run stage. A job can wait for several fences: one flow each;
	 * a slice takes one terminating id per flow, so extra flows end at
	 * zero-length "dep" instants at the same place.
	 */
	for (i = 0; i < j->n_deps; i++) {
		uint64_t f = dep_flow(pf, j, &j->deps[i], name);

		if (!f)
			continue;
		if (!run_flow && run_slice) {
			run_flow = f;
			continue;
		}
		if (pf_emit_event(pf, &(struct pf_ev){ .ts = r != GPULAT_NONE ? r : begin,
						       .track = lane, .type = PF_EV_INSTANT,
						       .iid = PN_DEP + 1,
						       .term_flow = f }) < 0)
			return pf->err;
	}

	if (has_wait && pf_slice(pf, lane, q, r, PN_WAIT + 1, NULL, NULL, 0) < 0)
		return pf->err;
	if (has_hwq && pf_slice(pf, lane, r, s, PN_HW_QUEUE + 1, NULL, NULL, run_flow) < 0)
		return pf->err;
	if (has_exec &&
	    pf_slice(pf, lane, s, d, PN_EXEC + 1, NULL, NULL, has_hwq ? 0 : run_flow) < 0)
		return pf->err;
	if (pf_emit_event(pf, &(struct pf_ev){ .ts = end, .track = lane, .type = PF_EV_END }) < 0)
		return pf->err;
	pf->c.jobs++;
	return 0;
}

static bool in_window(const struct gl_pf *pf, uint64_t ts)
{
	return ts >= pf->opts.start_ns && ts <= pf->opts.end_ns;
}

static int depth_step(struct gl_pf *pf, const struct gpulat_job *j, uint64_t ts, int delta)
{
	struct pf_ring *r = pf_ring(pf, j->file, j->dev, j->ring, j->ring_name);

	if (!r)
		return pf->err ? pf->err : -ENOMEM;
	/* a done whose queue came before the trace (or the window) never counted */
	if (delta < 0 && r->depth <= 0)
		return 0;
	r->depth += delta;
	return pf_emit_event(pf, &(struct pf_ev){ .ts = ts, .track = r->depth_uuid,
					       .type = PF_EV_COUNTER, .counter = true,
					       .value = r->depth });
}

int gl_pf_event(struct gl_pf *pf, const struct gpulat_event *ev, int file,
		const struct gpulat_job *job)
{
	if (pf->err)
		return pf->err;
	if (ev->ts > pf->now && ev->ts != GPULAT_NONE)
		pf->now = ev->ts;
	if (!in_window(pf, ev->ts))
		return 0;
	switch (ev->kind) {
	case GPULAT_EV_SCHED_SWITCH:
	case GPULAT_EV_SCHED_WAKING:
		return pf->opts.sched ? pf_sched_event(pf, ev, file) : 0;
	case GPULAT_EV_QUEUE:
	case GPULAT_EV_AMD_CS:
	case GPULAT_EV_I915_ADD:
		/* the event that gave the job its queue stage */
		if (job && job->ts[GPULAT_ST_QUEUE] == ev->ts)
			return depth_step(pf, job, ev->ts, +1);
		return 0;
	case GPULAT_EV_DONE:
	case GPULAT_EV_I915_OUT:
	case GPULAT_EV_I915_RETIRE:
	case GPULAT_EV_FENCE_SIGNALED:
		/* i915: the done stage is out, the fence signal or the retire */
		if (ev->kind != GPULAT_EV_DONE && !(job && (job->timing & GPULAT_TIMING_DRIVER)))
			return 0;
		if (job && job->ts[GPULAT_ST_DONE] == ev->ts &&
		    job->ts[GPULAT_ST_QUEUE] != GPULAT_NONE)
			return depth_step(pf, job, ev->ts, -1);
		return 0;
	default:
		return 0;
	}
}

/* a stall: an instant where it starts, its length and end as arguments */
int gl_pf_stall(struct gl_pf *pf, const struct gpulat_stall *s)
{
	char name[PF_NAME_LEN], dur[32];
	struct pf_args as = { .n = 0 };
	uint64_t track = 0;

	if (pf->err)
		return pf->err;
	gpulat_fmt_duration(dur, sizeof(dur), s->end_ts - s->start_ts);
	if (s->kind == GPULAT_STALL_RING_IDLE) {
		struct pf_ring *r = ring_find(pf, s->dev, s->ring);

		if (!r)
			r = pf_ring(pf, 0, s->dev, s->ring, NULL);
		if (r)
			track = pf_child(pf, &r->idle_uuid, r->uuid, "idle",
					 "ring-idle stalls: previous done to next start");
		snprintf(name, sizeof(name), "ring idle %s", dur);
	} else {
		track = pf_proc(pf, 0, s->pid, s->comm);
		snprintf(name, sizeof(name), "submit gap %s", dur);
	}
	if (!track)
		return pf->err;
	arg_u64(&as, PA_DUR, s->end_ts - s->start_ts);
	arg_u64(&as, PA_START, s->start_ts);
	arg_u64(&as, PA_END, s->end_ts);
	return pf_emit_event(pf, &(struct pf_ev){ .ts = s->start_ts, .track = track,
					       .type = PF_EV_INSTANT, .name = name,
					       .args = &as });
}

/* the child track @name of the group @d, created on first use */
static uint64_t mark_track(struct gl_pf *pf, struct pf_dev *d, const char *name)
{
	char **n;
	uint64_t *u;
	size_t i;

	for (i = 0; i < d->nmarks; i++)
		if (!strcmp(d->mark_names[i], name))
			return d->mark_uuids[i];
	n = realloc(d->mark_names, (d->nmarks + 1) * sizeof(*n));
	if (n)
		d->mark_names = n;
	u = n ? realloc(d->mark_uuids, (d->nmarks + 1) * sizeof(*u)) : NULL;
	if (!u) {
		pf->err = -ENOMEM;
		return 0;
	}
	d->mark_uuids = u;
	n[d->nmarks] = pf_strdup(pf, name);
	if (!n[d->nmarks])
		return 0;
	u[d->nmarks] = pf_new_track(pf, d->uuid, name, NULL, false);
	return u[d->nmarks++];
}

int gl_pf_mark(struct gl_pf *pf, const struct gl_pf_mark *m)
{
	struct pf_args as = { .n = 0 };
	struct pf_dev *d;
	uint64_t track;

	if (pf->err)
		return pf->err;
	if (m->sz < sizeof(*m) || !m->track || !m->name)
		return -EINVAL;
	d = m->group ? pf_group(pf, m->group) : pf_dev(pf, m->file, m->dev);
	if (!d || !(track = mark_track(pf, d, m->track)))
		return pf->err ? pf->err : -ENOMEM;
	arg_u64(&as, PA_DUR, m->dur);
	return pf_emit_event(pf, &(struct pf_ev){ .ts = m->ts, .track = track,
					       .type = PF_EV_INSTANT, .name = m->name,
					       .args = &as });
}

/*
 * A late frame (lib/frames.c decides which are late and why): an instant at
 * the vblank it was due for, on the display's CRTC, with what made it late.
 */
int gl_pf_late_frame(struct gl_pf *pf, const struct gpulat_late_frame *lf)
{
	char track[64], name[PF_NAME_LEN];
	struct pf_args as = { .n = 0 };
	struct pf_dev *d;
	uint64_t t;

	if (pf->err)
		return pf->err;
	d = pf_group(pf, "Display");
	snprintf(track, sizeof(track), "crtc %d late frames", lf->crtc);
	if (!d || !(t = mark_track(pf, d, track)))
		return pf->err ? pf->err : -ENOMEM;
	snprintf(name, sizeof(name), "late frame %s-%d", lf->comm && *lf->comm ? lf->comm : "?",
		 lf->pid);
	arg_int(&as, PA_PID, lf->pid);
	arg_int(&as, PA_CRTC, lf->crtc);
	arg_u64(&as, PA_MISSED, lf->missed);
	arg_str(&as, PA_CAUSE, gpulat_frame_cause_name(lf->cause));
	arg_u64(&as, PA_REQUEST_TS, lf->request_ts);
	arg_u64(&as, PA_READY_TS, lf->ready_ts);
	arg_u64(&as, PA_PRESENTED_TS, lf->presented_ts);
	arg_u64(&as, PA_JOBS, lf->njobs);
	return pf_emit_event(pf, &(struct pf_ev){ .ts = lf->deadline_ts,
						  .track = t,
						  .type = PF_EV_INSTANT,
						  .name = name,
						  .args = &as });
}

/*
 * A vblank tick: an instant at the vblank instant lib/frames.c uses (the
 * hardware `time` with trace_clock=mono, else the record timestamp; the
 * record's own timestamp is an argument), so ticks and late frames agree.
 */
int gl_pf_vblank(struct gl_pf *pf, const struct gpulat_vblank *v)
{
	char track[64];
	struct pf_args as = { .n = 0 };
	struct pf_dev *d;
	uint64_t t;

	if (pf->err)
		return pf->err;
	if (!in_window(pf, v->ts))
		return 0;
	d = pf_group(pf, "Display");
	snprintf(track, sizeof(track), "crtc %d vblanks", v->crtc);
	if (!d || !(t = mark_track(pf, d, track)))
		return pf->err ? pf->err : -ENOMEM;
	arg_int(&as, PA_CRTC, v->crtc);
	arg_u64(&as, PA_VBL_SEQ, v->seq);
	arg_u64(&as, PA_RECORD_TS, v->record_ts);
	return pf_emit_event(pf, &(struct pf_ev){ .ts = v->ts,
						  .track = t,
						  .type = PF_EV_INSTANT,
						  .name = "vblank",
						  .args = &as });
}

struct gl_pf *gl_pf_open(const char *path, const struct gl_pf_opts *o, char *err, size_t errlen)
{
	struct gl_pf *pf = calloc(1, sizeof(*pf));

	if (!pf) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return NULL;
	}
	/* sized options: a caller built against an older header passes less */
	memcpy(&pf->opts, o, o->sz < sizeof(pf->opts) ? o->sz : sizeof(pf->opts));
	if (o->sz < offsetof(struct gl_pf_opts, end_ns) + sizeof(o->end_ns) || !pf->opts.end_ns)
		pf->opts.end_ns = UINT64_MAX;
	pf->next_uuid = 1;
	if (gl_pfw_open(&pf->w, path, err, errlen) < 0) {
		free(pf);
		return NULL;
	}
	if (pf_emit_interned(pf) < 0) {
		snprintf(err, errlen, "%s: write error: %s", path, strerror(-pf->err));
		gl_pfw_abort(&pf->w);
		free(pf);
		return NULL;
	}
	return pf;
}

void gl_pf_counts(const struct gl_pf *pf, struct gl_pf_counts *c)
{
	*c = pf->c;
	c->packets = pf->w.packets;
	c->bytes = pf->w.bytes + pf->w.len;
}

int gl_pf_close(struct gl_pf *pf, bool commit, char *err, size_t errlen)
{
	int ret = 0;
	size_t i;

	if (commit)
		pf_sched_flush_all(pf);
	if (commit && pf->err) {
		snprintf(err, errlen, "%s: write error: %s", pf->w.path, strerror(-pf->err));
		ret = pf->err;
		commit = false;
	}
	if (commit)
		ret = gl_pfw_commit(&pf->w, err, errlen);
	else
		gl_pfw_abort(&pf->w);

	pf_sched_free(pf);
	for (i = 0; i < pf->nrings; i++) {
		free(pf->rings[i]->dev);
		free(pf->rings[i]->ring);
		free(pf->rings[i]->label);
		free(pf->rings[i]->lanes);
		free(pf->rings[i]);
	}
	free(pf->rings);
	for (i = 0; i < pf->ndevs; i++) {
		size_t k;

		for (k = 0; k < pf->devs[i].nmarks; k++)
			free(pf->devs[i].mark_names[k]);
		free(pf->devs[i].mark_names);
		free(pf->devs[i].mark_uuids);
		free(pf->devs[i].dev);
	}
	free(pf->devs);
	free(pf->procs);
	free(pf);
	return ret;
}
