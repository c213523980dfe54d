// SPDX-License-Identifier: LGPL-2.1
/*
 * Display model and frames truth (issue 18).
 *
 * A CRTC's hardware vblanks come every `period` (VRR: uniform in
 * [vrr_min, period]); the interrupt handler runs irq_min..irq_max later and,
 * like drm_handle_vblank() -> drm_handle_vblank_events(), first sends the
 * pending events whose count has passed (drm_vblank_event_delivered, pid of
 * the interrupted task) and then traces drm_vblank_event with `time` = the
 * hardware instant (high_prec, as drivers with a vblank timestamp).
 *
 * A frame-loop process wakes at its event, works cpu_work (late_work every
 * late_every-th frame), submits one job per ring (the first one long_dur
 * long every long_every-th frame) and asks for count + 1; a page-flip
 * client (flip) commits a flip instead, completed (delivered) at the first
 * vblank after its jobs' done.
 *
 * The truth ("frames" in the truth file) is computed here from the
 * simulation's own times with the definitions of docs/frames.md: the
 * vblank instant is the hardware time with trace_clock=mono, else the
 * record timestamp of drm_vblank_event.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "gen.h"

/* not the analysed clock domain: `time` of a trace_clock=local trace */
#define LOCAL_OFFSET	4000000000ULL

static void *grow(void *p, int *cap, int n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 256;
	p = realloc(p, (size_t)*cap * size);
	if (!p)
		abort();
	return p;
}

static uint64_t next_interval(struct gen_sim *s, const struct gen_crtc_cfg *cc)
{
	if (cc->vrr_min)
		return rng_range(&s->rng, cc->vrr_min, cc->period);
	return cc->period;
}

void frames_init(struct gen_sim *s)
{
	int c;

	for (c = 0; c < s->sc->ncrtcs; c++) {
		struct gen_crtc_state *C = &s->crtc[c];

		/* the counts of a display that has been on for a while */
		C->seq = 1000 + 7000 * c;
		C->next = s->t0 + US(500) + US(3100) * c;
		heap_push(&s->heap, C->next, ACT_VBLANK, c);
	}
}

void frames_free(struct gen_sim *s)
{
	int c;

	for (c = 0; c < GEN_MAX_CRTCS; c++) {
		free(s->crtc[c].hw);
		free(s->crtc[c].rec);
	}
	free(s->frames);
}

/* every job of page-flip frame @F completed by the hardware vblank at @now */
static bool flip_ready(const struct gen_sim *s, const struct gen_frame *F, uint64_t now)
{
	int j;

	for (j = F->first_job; j < F->first_job + F->njobs; j++)
		if (s->jobs[j].done_ts == GEN_NONE || s->jobs[j].done_ts > now)
			return false;
	return true;
}

void frames_vblank(struct gen_sim *s, int c, uint64_t now)
{
	const struct gen_crtc_cfg *cc = &s->sc->crtcs[c];
	struct gen_crtc_state *C = &s->crtc[c];
	uint64_t t = now + rng_range(&s->rng, cc->irq_min, cc->irq_max), ts;
	uint64_t vtime = s->sc->mono_clock ? now : now + LOCAL_OFFSET;
	int cpu = cc->irq_cpu, pid = bg_current_pid(s, cpu), p;

	C->seq++;
	for (p = 0; p < s->nprocs; p++) {
		const struct gen_proc_cfg *pc = &s->pcfg[p];
		struct gen_proc *P = &s->procs[p];
		struct gen_fval dv[] = {
			FV_PTR("file", pc->drm_file), FV_NUM("crtc", (uint64_t)c),
			FV_NUM("seq", C->seq),
		};

		if (pc->crtc != c + 1)
			continue;
		if (pc->flip) {
			/* the flip completes once its buffer is rendered */
			if (!P->flip_frame || !flip_ready(s, &s->frames[P->flip_frame - 1], now))
				continue;
			s->frames[P->flip_frame - 1].flip_seq = C->seq;
			P->flip_frame = 0;
		} else if (!P->wait_vbl || P->wait_vbl > C->seq) {
			continue;
		}
		gen_emit(s, EV_VBLANK_DELIVERED, cpu, t, pid, 0x09, dv, 3, &ts);
		t = ts + US(1);
		P->wait_vbl = 0;
		s->delivered[p]++;
		P->nframes++;
		/* woken: its CPU work, then the submission */
		heap_push(&s->heap, ts + US(40) + pc->cpu_work +
			  (pc->late_every && P->nframes % pc->late_every == 0 ? pc->late_work : 0),
			  ACT_SUBMIT, p);
	}
	{
		struct gen_fval v[] = {
			FV_NUM("crtc", (uint64_t)c), FV_NUM("seq", C->seq),
			FV_NUM("time", vtime), FV_NUM("high_prec", 1),
		};

		gen_emit(s, EV_VBLANK, cpu, t, pid, 0x09, v, 4, &ts);
	}
	C->hw = grow(C->hw, &C->cap, C->n, sizeof(*C->hw));
	C->rec = realloc(C->rec, (size_t)C->cap * sizeof(*C->rec));
	if (!C->rec)
		abort();
	C->hw[C->n] = now;
	C->rec[C->n] = ts;
	C->n++;
	C->next = now + next_interval(s, cc);
	heap_push(&s->heap, C->next, ACT_VBLANK, c);
}

/*
 * Called by act_submit() for a frame-loop process before its jobs: sets the
 * long duration of this frame's first job. Returns false for a timer-loop
 * process.
 */
bool frames_submit(struct gen_sim *s, int p, uint64_t *t)
{
	const struct gen_proc_cfg *pc = &s->pcfg[p];
	struct gen_proc *P = &s->procs[p];

	(void)t;
	if (!pc->crtc)
		return false;
	if (pc->long_every && P->nframes && P->nframes % pc->long_every == 0)
		s->force_dur = pc->long_dur;
	s->frames = grow(s->frames, &s->frames_cap, s->nframes, sizeof(*s->frames));
	memset(&s->frames[s->nframes], 0, sizeof(s->frames[0]));
	s->frames[s->nframes].proc = p;
	s->frames[s->nframes].first_job = s->njobs;
	s->frames[s->nframes].req_ts = GEN_NONE;
	s->nframes++;
	return true;
}

/* after the jobs: the request for the next vblank */
void frames_request(struct gen_sim *s, int p, uint64_t *t)
{
	const struct gen_proc_cfg *pc = &s->pcfg[p];
	struct gen_frame *F = &s->frames[s->nframes - 1];
	struct gen_crtc_state *C = &s->crtc[pc->crtc - 1];
	uint64_t target = C->seq + 1, ts;
	struct gen_fval v[] = {
		FV_PTR("file", pc->drm_file), FV_NUM("crtc", (uint64_t)(pc->crtc - 1)),
		FV_NUM("seq", target),
	};

	s->force_dur = 0;
	F->njobs = s->njobs - F->first_job;
	if (pc->flip) {
		/* an atomic commit with a flip event: nothing traced until it completes */
		F->req_ts = *t;
		F->target = target;
		s->procs[p].flip_frame = s->nframes;
		return;
	}
	gen_emit(s, EV_VBLANK_QUEUED, pc->cpu, *t, pc->pid, 0, v, 3, &ts);
	*t = ts + US(2);
	F->req_ts = ts;
	F->target = target;
	s->procs[p].wait_vbl = target;
}

/* ---- truth ---------------------------------------------------------------- */

/* V(c, seq): the instant the analysis must use; 0 if not traced */
static uint64_t vat(const struct gen_sim *s, int c, uint64_t seq)
{
	const struct gen_crtc_state *C = &s->crtc[c];
	uint64_t first = C->seq - (uint64_t)C->n + 1;

	if (seq < first || seq > C->seq)
		return 0;
	return s->sc->mono_clock ? C->hw[seq - first] : C->rec[seq - first];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void add(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

static json_object *crtc_json(const struct gen_sim *s, int c)
{
	const struct gen_crtc_state *C = &s->crtc[c];
	uint64_t *iv = malloc(sizeof(uint64_t) * (C->n + 1));
	json_object *o = json_object_new_object(), *vt;
	int i, n = 0;

	if (!iv)
		abort();
	for (i = 1; i < C->n; i++)
		iv[n++] = vat(s, c, C->seq - C->n + 1 + i) - vat(s, c, C->seq - C->n + i);
	qsort(iv, n, sizeof(*iv), cmp_u64);
	add(o, "crtc", json_object_new_int(c));
	add(o, "vblanks", json_object_new_int(C->n));
	add(o, "first_seq", json_object_new_uint64(C->seq - C->n + 1));
	/* nearest rank: v[ceil(n / 2) - 1] */
	add(o, "refresh_ns", json_object_new_uint64(n ? iv[(n + 1) / 2 - 1] : 0));
	add(o, "vrr", json_object_new_boolean(s->sc->crtcs[c].vrr_min != 0));
	/* every instant V(first_seq + i) the analysis must use */
	vt = json_object_new_array();
	for (i = 0; i < C->n; i++)
		json_object_array_add(vt, json_object_new_uint64(vat(s, c, C->seq - C->n + 1 + i)));
	add(o, "vblank_ts", vt);
	free(iv);
	return o;
}

static const char *cause_at(const struct gen_sim *s, const struct gen_frame *F,
			    const uint64_t *start, uint64_t dl)
{
	const struct gen_job *crit = NULL;
	uint64_t run, st;
	int i, k;

	for (i = F->first_job; i < F->first_job + F->njobs; i++) {
		const struct gen_job *J = &s->jobs[i];

		if (J->queue_ts > dl || (J->done_ts != GEN_NONE && J->done_ts <= dl))
			continue;
		if (!crit || J->done_ts == GEN_NONE ||
		    (crit->done_ts != GEN_NONE && J->done_ts > crit->done_ts))
			crit = J;
	}
	if (!crit)
		return "late_submit";
	run = crit->run_ts;
	st = start[crit->seq];
	for (k = 0; k < crit->ndeps; k++) {
		const struct gen_job *D = &s->jobs[crit->deps[k]];

		if ((D->done_ts == GEN_NONE || D->done_ts > dl) && (run == GEN_NONE || dl < run))
			return "dep_wait";
	}
	if (run == GEN_NONE || dl < run)
		return "sched_queue";
	if (st == GEN_NONE || dl < st)
		return "hw_queue";
	return "gpu_exec";
}

/*
 * A page-flip client (docs/frames.md): each flip after the first is a frame
 * meant for the vblank after the previous flip; it is late by the vblanks
 * the old image stayed. No request is traced: no cause. Its process is the
 * one the analysis must infer (pid_inferred).
 */
static json_object *flip_client_json(const struct gen_sim *s, int p)
{
	const struct gen_proc_cfg *pc = &s->pcfg[p];
	int c = pc->crtc - 1, i, j;
	json_object *o = json_object_new_object(), *lf = json_object_new_array();
	json_object *bc = json_object_new_object(), *ot = json_object_new_array();
	uint64_t prev = 0, flips = 0, frames = 0, late = 0, missed = 0;
	static const char * const names[] = {
		"late_submit", "dep_wait", "sched_queue", "hw_queue", "gpu_exec",
	};

	for (i = 0; i < s->nframes; i++) {
		const struct gen_frame *F = &s->frames[i];
		uint64_t dl;

		if (F->proc != p || !F->flip_seq)
			continue;
		if (flips++) {
			dl = prev + 1;
			frames++;
			if (F->flip_seq <= dl)
				json_object_array_add(ot, json_object_new_uint64(F->flip_seq));
			if (F->flip_seq > dl) {
				json_object *x = json_object_new_object();

				late++;
				missed += F->flip_seq - dl;
				add(x, "target", json_object_new_uint64(dl));
				add(x, "deadline", json_object_new_uint64(dl));
				add(x, "deadline_ts", json_object_new_uint64(vat(s, c, dl)));
				add(x, "presented", json_object_new_uint64(F->flip_seq));
				add(x, "missed", json_object_new_uint64(F->flip_seq - dl));
				add(x, "cause", json_object_new_string("none"));
				json_object_array_add(lf, x);
			}
		}
		prev = F->flip_seq;
	}
	add(o, "pid", json_object_new_int(pc->pid));
	add(o, "comm", json_object_new_string(pc->comm));
	add(o, "crtc", json_object_new_int(c));
	add(o, "drm_file", json_object_new_uint64(pc->drm_file));
	add(o, "requested", json_object_new_uint64(0));
	add(o, "delivered", json_object_new_uint64(s->delivered[p]));
	add(o, "flips", json_object_new_uint64(flips));
	add(o, "frames", json_object_new_uint64(frames));
	add(o, "late", json_object_new_uint64(late));
	add(o, "missed", json_object_new_uint64(missed));
	add(o, "unresolved", json_object_new_uint64(0));
	for (j = 0; j < 5; j++)
		add(bc, names[j], json_object_new_int(0));
	add(o, "by_cause", bc);
	add(o, "late_frames", lf);
	add(o, "on_time_presented", ot);
	return o;
}

static json_object *client_json(const struct gen_sim *s, int p, const uint64_t *start)
{
	const struct gen_proc_cfg *pc = &s->pcfg[p];
	int c = pc->crtc - 1, i, j;
	json_object *o = json_object_new_object(), *lf = json_object_new_array();
	json_object *bc = json_object_new_object(), *ot = json_object_new_array();
	uint64_t prev = 0, requested = 0, frames = 0, late = 0, missed = 0, unresolved = 0;
	const struct gen_crtc_state *C = &s->crtc[c];
	bool have_prev = false;
	int counts[6] = { 0 };
	static const char * const names[] = {
		"late_submit", "dep_wait", "sched_queue", "hw_queue", "gpu_exec",
	};

	for (i = 0; i < s->nframes; i++) {
		const struct gen_frame *F = &s->frames[i];
		uint64_t ready = F->req_ts, dl, dlt, pres = 0, q;
		bool incomplete = false;
		const char *cause;

		if (F->proc != p || F->req_ts == GEN_NONE)
			continue;
		requested++;
		dl = F->target;
		if (have_prev && prev + 1 < dl)
			dl = prev + 1;
		for (j = F->first_job; j < F->first_job + F->njobs; j++) {
			if (s->jobs[j].done_ts == GEN_NONE)
				incomplete = true;
			else if (s->jobs[j].done_ts > ready)
				ready = s->jobs[j].done_ts;
		}
		dlt = vat(s, c, dl);
		if (!dlt) {
			unresolved++;
			prev = F->target;
			have_prev = true;
			continue;
		}
		for (q = F->target; !incomplete && q <= C->seq; q++) {
			if (vat(s, c, q) >= ready) {
				pres = q;
				break;
			}
		}
		if (!pres && !incomplete && ready <= dlt) {
			unresolved++;
			prev = F->target;
			have_prev = true;
			continue;
		}
		frames++;
		if (pres && pres <= dl)
			json_object_array_add(ot, json_object_new_uint64(pres));
		if (!pres || pres > dl) {
			json_object *x = json_object_new_object();
			uint64_t m = pres ? pres - dl : C->seq + 1 - dl;

			cause = cause_at(s, F, start, dlt);
			late++;
			missed += m;
			for (j = 0; j < 5; j++)
				if (!strcmp(cause, names[j]))
					counts[j]++;
			add(x, "target", json_object_new_uint64(F->target));
			add(x, "deadline", json_object_new_uint64(dl));
			add(x, "deadline_ts", json_object_new_uint64(dlt));
			add(x, "presented", pres ? json_object_new_uint64(pres) : NULL);
			add(x, "missed", json_object_new_uint64(m));
			add(x, "cause", json_object_new_string(cause));
			json_object_array_add(lf, x);
		}
		prev = pres > F->target ? pres : F->target;
		have_prev = true;
	}
	add(o, "pid", json_object_new_int(pc->pid));
	add(o, "comm", json_object_new_string(pc->comm));
	add(o, "crtc", json_object_new_int(c));
	add(o, "drm_file", json_object_new_uint64(pc->drm_file));
	add(o, "requested", json_object_new_uint64(requested));
	add(o, "delivered", json_object_new_uint64(s->delivered[p]));
	add(o, "frames", json_object_new_uint64(frames));
	add(o, "late", json_object_new_uint64(late));
	add(o, "missed", json_object_new_uint64(missed));
	add(o, "unresolved", json_object_new_uint64(unresolved));
	for (j = 0; j < 5; j++)
		add(bc, names[j], json_object_new_int(counts[j]));
	add(o, "by_cause", bc);
	add(o, "late_frames", lf);
	add(o, "on_time_presented", ot);
	return o;
}

void frames_truth_write(FILE *fp, const struct gen_sim *s, const uint64_t *start)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	json_object *cl = json_object_new_array();
	int c, p;

	if (!s->sc->ncrtcs)
		return;
	for (c = 0; c < s->sc->ncrtcs; c++)
		json_object_array_add(a, crtc_json(s, c));
	for (p = 0; p < s->nprocs; p++)
		if (s->pcfg[p].crtc && s->pcfg[p].flip)
			json_object_array_add(cl, flip_client_json(s, p));
		else if (s->pcfg[p].crtc)
			json_object_array_add(cl, client_json(s, p, start));
	add(o, "clock", json_object_new_string(s->sc->mono_clock ? "mono" : "local"));
	add(o, "vblank_instant", json_object_new_string(s->sc->mono_clock ? "time" : "record"));
	add(o, "crtcs", a);
	add(o, "clients", cl);
	fprintf(fp, ",\n  \"frames\": %s",
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					       JSON_C_TO_STRING_SPACED));
	json_object_put(o);
}
