// SPDX-License-Identifier: LGPL-2.1
/*
 * The scenario simulation, a discrete-event model of the DRM GPU scheduler:
 * processes queue jobs into per-(process, ring) entities; a ring's scheduler
 * worker runs the oldest job whose dependencies are signalled while hardware
 * credits allow; the hardware executes FIFO; completion is an interrupt that
 * signals the finished fence. Actions are processed in time order, so each
 * CPU's events are written in time order and pages stream straight to disk.
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define ENTITY_BASE	0xffff88810c3a0000ULL
#define FENCE_SLAB	0xffff888107e5a000ULL
#define FENCE_OBJ	0xc0ULL		/* slab object size of drm_sched_fence */
#define FENCE_FINISHED	0x40ULL		/* offsetof(finished) */
#define RING_NAME_BASE	0xffff888103f0a2c8ULL

static const struct gen_ring_cfg *rcfg(const struct gen_sim *s, int r)
{
	return &s->sc->rings[r];
}

static const struct gen_dev_cfg *dcfg(const struct gen_sim *s, int r)
{
	return &s->sc->devs[rcfg(s, r)->dev];
}

static void *grow(void *p, int *cap, int n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 64;
	p = realloc(p, *cap * size);
	if (!p)
		abort();
	return p;
}

static void proc_task(const struct gen_sim *s, int p, struct gen_task *t)
{
	t->pid = s->pcfg[p].pid;
	t->prio = 120;
	snprintf(t->comm, sizeof(t->comm), "%.15s", s->pcfg[p].comm);
}

/* ring-named kthreads run SCHED_FIFO (sched_set_fifo_low), kworkers do not */
static void worker_task(const struct gen_sim *s, int r, struct gen_task *t)
{
	t->pid = s->rings[r].worker_pid;
	t->prio = s->sc->era == ERA_617 ? 120 : 98;
	snprintf(t->comm, sizeof(t->comm), "%.15s", s->rings[r].worker_comm);
}

/* a process or worker action starts: its task is switched in on the CPU */
static void run_proc(struct gen_sim *s, int p, uint64_t *t)
{
	struct gen_task me;

	proc_task(s, p, &me);
	if (bg_current_pid(s, s->pcfg[p].cpu) != me.pid) {
		bg_wake(s, s->pcfg[p].cpu, &me, s->pcfg[p].cpu, t);
		bg_switch(s, s->pcfg[p].cpu, &me, false, t);
	}
}

static void run_worker(struct gen_sim *s, int r, uint64_t *t)
{
	struct gen_task w;

	worker_task(s, r, &w);
	bg_switch(s, s->sc->devs[s->sc->rings[r].dev].sched_cpu, &w, false, t);
}

static void kick_sched(struct gen_sim *s, int r, uint64_t t)
{
	if (s->rings[r].sched_pending)
		return;
	s->rings[r].sched_pending = true;
	heap_push(&s->heap, t, ACT_SCHED, r);
}

/* wake the ring's worker from CPU (traced at *t) to run at WHEN */
static void kick_from(struct gen_sim *s, int r, int cpu, uint64_t *t, uint64_t when)
{
	struct gen_task w;

	if (s->rings[r].sched_pending)
		return;
	worker_task(s, r, &w);
	bg_wake(s, cpu, &w, s->sc->devs[s->sc->rings[r].dev].sched_cpu, t);
	kick_sched(s, r, when);
}

/* ---- fences: slab-like pointer pool, LIFO reuse ---- */

static uint64_t fence_alloc(struct gen_sim *s)
{
	if (s->npool)
		return s->pool[--s->npool];
	return FENCE_SLAB + FENCE_OBJ * s->pool_next++ + FENCE_FINISHED;
}

static void fence_free(struct gen_sim *s, uint64_t ptr)
{
	s->pool = grow(s->pool, &s->pool_cap, s->npool, sizeof(*s->pool));
	s->pool[s->npool++] = ptr;
}

/* ---- entities: one per (process, ring), two fence contexts each ---- */

static int entity_get(struct gen_sim *s, int p, int r)
{
	struct gen_entity *e;

	/* per process and ring (shapes: 10^4 processes, no linear search) */
	if (s->procs[p].ent[r])
		return s->procs[p].ent[r] - 1;
	s->procs[p].ent[r] = s->nents + 1;
	s->ents = grow(s->ents, &s->ents_cap, s->nents, sizeof(*s->ents));
	e = &s->ents[s->nents];
	memset(e, 0, sizeof(*e));
	e->proc = p;
	e->ring = r;
	e->ptr = ENTITY_BASE + 0x400ULL * s->nents;
	e->ctx = s->next_ctx;
	s->next_ctx += 2;
	e->next_seqno = s->sc->seqno_start ? s->sc->seqno_start : 1;
	e->head = e->tail = -1;
	return s->nents++;
}

bool gen_dep_signaled(const struct gen_sim *s, const struct gen_job *j, int i)
{
	const struct gen_job *d = &s->jobs[j->deps[i]];

	/* drm_sched signals a job's scheduled fence right after its run */
	if (j->dep_sched & (1u << i))
		return d->run_ts != GEN_NONE;
	return d->signaled;
}

uint64_t gen_dep_ctx(const struct gen_sim *s, const struct gen_job *j, int i)
{
	const struct gen_job *d = &s->jobs[j->deps[i]];

	return (j->dep_sched & (1u << i)) ? d->ctx - 1 : d->ctx;
}

static bool deps_signaled(const struct gen_sim *s, const struct gen_job *j)
{
	int i;

	for (i = 0; i < j->ndeps; i++)
		if (!gen_dep_signaled(s, j, i))
			return false;
	return true;
}

/* ---- process side ---- */

static void proc_track(struct gen_proc *P, int j)
{
	if (P->if_tail == P->if_cap) {
		int n = P->if_tail - P->if_head;

		if (P->if_head > n) {
			memmove(P->inflight, P->inflight + P->if_head, n * sizeof(int));
		} else {
			P->if_cap = P->if_cap ? P->if_cap * 2 : 64;
			P->inflight = realloc(P->inflight, P->if_cap * sizeof(int));
			if (!P->inflight)
				abort();
			memmove(P->inflight, P->inflight + P->if_head, n * sizeof(int));
		}
		P->if_head = 0;
		P->if_tail = n;
	}
	P->inflight[P->if_tail++] = j;
}

/* oldest unsignalled job of the process, and how many are in flight */
static int proc_inflight(struct gen_sim *s, int p, int *oldest)
{
	struct gen_proc *P = &s->procs[p];

	while (P->if_head < P->if_tail && s->jobs[P->inflight[P->if_head]].signaled)
		P->if_head++;
	*oldest = P->if_head < P->if_tail ? P->inflight[P->if_head] : -1;
	return P->if_tail - P->if_head;
}

static int job_create(struct gen_sim *s, int p, int r, uint64_t *t)
{
	const struct gen_proc_cfg *pc = &s->pcfg[p];
	const struct gen_ring_cfg *rc = rcfg(s, r);
	struct gen_ring *R = &s->rings[r];
	struct gen_entity *e;
	struct gen_job *j;
	uint64_t ts;
	int idx, ei;

	ei = entity_get(s, p, r);
	s->jobs = grow(s->jobs, &s->jobs_cap, s->njobs, sizeof(*s->jobs));
	idx = s->njobs++;
	j = &s->jobs[idx];
	e = &s->ents[ei];
	memset(j, 0, sizeof(*j));
	j->seq = idx;
	j->ring = r;
	j->proc = p;
	j->entity = ei;
	j->id = ++R->next_id;
	j->seqno = e->next_seqno++;
	j->ctx = e->ctx + 1;
	j->fence_ptr = s->sc->era == ERA_617 ? 0 : fence_alloc(s);
	j->dur = rng_range(&s->rng, rc->dur_min, rc->dur_max);
	if (s->force_dur) {
		/* frames: this frame's long job (the draw above keeps the sequence) */
		j->dur = s->force_dur;
		s->force_dur = 0;
	}
	j->queue_ts = j->run_ts = j->done_ts = j->signal_ts = GEN_NONE;
	j->start_ts = j->retire_ts = j->hw_end_ts = GEN_NONE;
	j->queue_cpu = j->run_cpu = j->done_cpu = j->signal_cpu = -1;
	j->next = -1;
	j->cause = s->dg.cause_now;
	if (rc->dep_ring >= 0 && s->rings[rc->dep_ring].last_job >= 0 &&
	    rng_pct(&s->rng, rc->dep_pct)) {
		if (rc->dep_sched)
			j->dep_sched |= 1u << j->ndeps;
		j->deps[j->ndeps++] = s->rings[rc->dep_ring].last_job;
		s->jobs[j->deps[0]].dep_refs++;
	}

	gpu_emit_init(s, j, pc->cpu, pc->pid, t);
	/* kernel work is pushed by amdgpu itself, not through the CS ioctl */
	if (!pc->kernel_job)
		gpu_emit_amd_job(s, EV_AMD_CS, j, pc->cpu, pc->pid, t);
	gpu_emit_queue(s, j, pc->cpu, pc->pid, t, &ts);
	j->queue_ts = ts;
	j->queue_cpu = pc->cpu;
	if (s->last_dropped)
		j->lost |= LOST_QUEUE;
	gpu_emit_add_deps(s, j, pc->cpu, pc->pid, t);

	/* spsc_queue_push after the tracepoint */
	if (e->tail >= 0)
		s->jobs[e->tail].next = idx;
	else
		e->head = idx;
	e->tail = idx;
	e->count++;
	R->last_job = idx;
	proc_track(&s->procs[p], idx);
	kick_from(s, r, pc->cpu, t, ts + rng_range(&s->rng, US(4), US(25)));
	return idx;
}

static uint64_t next_submit_time(struct gen_sim *s, int p)
{
	const struct gen_proc_cfg *pc = &s->pcfg[p];
	struct gen_proc *P = &s->procs[p];

	P->next_submit += pc->period;
	if (pc->gap_every && P->nsubmits % pc->gap_every == 0)
		P->next_submit += rng_range(&s->rng, pc->gap_min, pc->gap_max);
	return P->next_submit + rng_range(&s->rng, 0, 2 * pc->jitter);
}

static void act_submit(struct gen_sim *s, int p, uint64_t now)
{
	const struct gen_proc_cfg *pc = &s->pcfg[p];
	struct gen_proc *P = &s->procs[p];
	uint64_t t = now, next;
	int r, b, last = -1, oldest, wait = -1;
	bool frame;

	if (now >= s->t0 + s->sc->duration) {
		P->stopped = true;
		return;
	}
	if (s->sc->diag.kind && !diag_submit(s, p, now, &t))
		return;
	run_proc(s, p, &t);
	frame = s->sc->ncrtcs && frames_submit(s, p, &t);
	for (r = 0; r < s->sc->nrings; r++)
		for (b = 0; (pc->rings & (1u << r)) && b < pc->burst; b++)
			last = job_create(s, p, r, &t);
	P->nsubmits++;
	if (frame) {
		/* asks for the next vblank, sleeps until its event */
		frames_request(s, p, &t);
		bg_switch_idle(s, pc->cpu, &t);
		return;
	}
	if (pc->max_inflight &&
	    proc_inflight(s, p, &oldest) > pc->max_inflight)
		wait = oldest;
	else if (last >= 0 && rng_pct(&s->rng, pc->wait_pct))
		wait = last;
	next = next_submit_time(s, p);
	if (wait >= 0) {
		P->blocked = true;	/* proc_unblock() resubmits */
		heap_push(&s->heap, t + rng_range(&s->rng, US(3), US(30)),
			  ACT_WAIT_START, wait);
		return;
	}
	bg_switch_idle(s, pc->cpu, &t);		/* sleeps until the next frame */
	heap_push(&s->heap, next, ACT_SUBMIT, p);
}

static void proc_unblock(struct gen_sim *s, int p, uint64_t t)
{
	struct gen_proc *P = &s->procs[p];
	uint64_t at = t + rng_range(&s->rng, US(20), US(200));

	P->blocked = false;
	if (P->next_submit < at)
		P->next_submit = at;
	heap_push(&s->heap, P->next_submit, ACT_SUBMIT, p);
}

static void act_wait_start(struct gen_sim *s, int j, uint64_t now)
{
	struct gen_job *J = &s->jobs[j];
	const struct gen_proc_cfg *pc = &s->pcfg[J->proc];
	uint64_t t = now;

	run_proc(s, J->proc, &t);
	gpu_emit_fence(s, EV_FENCE_WAIT_START, J, true, pc->cpu, pc->pid, 0, &t, NULL);
	if (!J->wstart_ts)
		J->wstart_ts = s->cpu_last[pc->cpu];
	if (J->signaled) {
		gpu_emit_fence(s, EV_FENCE_WAIT_END, J, true, pc->cpu, pc->pid, 0, &t, NULL);
		if (!J->wend_ts)
			J->wend_ts = s->cpu_last[pc->cpu];
		bg_switch_idle(s, pc->cpu, &t);
		proc_unblock(s, J->proc, t);
		return;
	}
	if (!J->enabled)
		gpu_emit_fence(s, EV_FENCE_ENABLE, J, true, pc->cpu, pc->pid, 0x01, &t, NULL);
	J->enabled = true;
	J->waiter = true;
	bg_switch_idle(s, pc->cpu, &t);		/* blocks in dma_fence_wait */
}

static void act_wait_end(struct gen_sim *s, int j, uint64_t now)
{
	struct gen_job *J = &s->jobs[j];
	const struct gen_proc_cfg *pc = &s->pcfg[J->proc];
	uint64_t t = now;

	run_proc(s, J->proc, &t);
	gpu_emit_fence(s, EV_FENCE_WAIT_END, J, true, pc->cpu, pc->pid, 0, &t, NULL);
	if (!J->wend_ts)
		J->wend_ts = s->cpu_last[pc->cpu];
	J->waiter = false;
	bg_switch_idle(s, pc->cpu, &t);
	proc_unblock(s, J->proc, t);
}

/* ---- scheduler and hardware ---- */

static void hw_start(struct gen_sim *s, int j)
{
	struct gen_job *J = &s->jobs[j];
	struct gen_ring *R = &s->rings[J->ring];
	uint64_t start = J->run_ts > R->last_done ? J->run_ts : R->last_done;
	uint64_t hang = rcfg(s, J->ring)->hang_at;

	if (hang && start >= s->t0 + hang) {
		/* the ring hangs: never completes; xe's timeout handler reports it */
		if (s->sc->xe && s->sc->xe_timeout)
			heap_push(&s->heap, start + s->sc->xe_timeout, ACT_XE_TIMEOUT, j);
		return;
	}
	if (s->sc->era == ERA_I915 && s->sc->i915_ll) {
		/* the context switch in: i915_request_in, then it runs */
		start += rng_range(&s->rng, s->sc->ctxsw_min, s->sc->ctxsw_max);
		heap_push(&s->heap, start, ACT_HW_IN, j);
		return;
	}
	if (s->sc->hwdrv) {
		heap_push(&s->heap, hwdrv_start(s, J, R->last_done), ACT_DONE, j);
		return;
	}
	heap_push(&s->heap, start + J->dur, ACT_DONE, j);
}

/* i915 LOW_LEVEL: the request goes on the hardware (execlists CSB, softirq) */
static void act_hw_in(struct gen_sim *s, int j, uint64_t now)
{
	struct gen_job *J = &s->jobs[j];
	int cpu = dcfg(s, J->ring)->irq_cpu;
	uint64_t t = now, ts;

	gpu_emit_i915(s, EV_I915_IN, J, cpu, bg_current_pid(s, cpu), 0x10, &t, &ts);
	J->start_ts = ts;
	heap_push(&s->heap, ts + J->dur, ACT_DONE, j);
}

/* ready entity head with the oldest queue time, tracing deps on first look */
static int sched_pick(struct gen_sim *s, int r, int cpu, int pid, uint64_t *t)
{
	int i, best = -1;

	for (i = 0; i < s->nents; i++) {
		struct gen_job *J;

		if (s->ents[i].ring != r || s->ents[i].head < 0)
			continue;
		J = &s->jobs[s->ents[i].head];
		if (!J->deps_traced) {
			if (*t <= J->queue_ts)
				*t = J->queue_ts + rng_range(&s->rng, US(1), US(3));
			gpu_emit_wait_deps(s, J, cpu, pid, t);
			J->deps_traced = true;
		}
		if (!deps_signaled(s, J))
			continue;
		if (best < 0 || J->seq < s->jobs[best].seq)
			best = s->ents[i].head;
	}
	return best;
}

/*
 * Event times are clamped per CPU, so an event may carry a time slightly
 * after the action that emitted it. The worker acts no earlier than the
 * traced queue of the job, the traced signal of its dependencies and the
 * traced completion that freed the credit: causality holds in the trace.
 */
static void sched_causal(struct gen_sim *s, const struct gen_job *J, uint64_t *t)
{
	uint64_t after = s->rings[J->ring].last_done;
	int i;

	if (J->queue_ts > after)
		after = J->queue_ts;
	for (i = 0; i < J->ndeps; i++)
		if ((J->dep_sched & (1u << i)) && s->jobs[J->deps[i]].run_ts > after)
			after = s->jobs[J->deps[i]].run_ts;	/* its scheduled fence */
		else if (!(J->dep_sched & (1u << i)) && s->jobs[J->deps[i]].signaled_at > after)
			after = s->jobs[J->deps[i]].signaled_at;
	if (*t <= after)
		*t = after + rng_range(&s->rng, US(1), US(3));
}

static void kick_waiting_rings(struct gen_sim *s, int cpu, uint64_t *t, uint64_t ts);

static void sched_run(struct gen_sim *s, int j, int cpu, int pid, uint64_t *t)
{
	struct gen_job *J = &s->jobs[j];
	struct gen_entity *e = &s->ents[J->entity];
	struct gen_ring *R = &s->rings[J->ring];
	uint64_t ts;
	int i;

	sched_causal(s, J, t);

	e->head = J->next;
	if (e->head < 0)
		e->tail = -1;
	e->count--;
	J->next = -1;
	R->hw_count++;
	if (R->hw_count > rcfg(s, J->ring)->credits)
		abort();
	if (R->hw_tail >= 0)
		s->jobs[R->hw_tail].next = j;
	else
		R->hw_head = j;
	R->hw_tail = j;
	for (i = 0; i < J->ndeps; i++)
		s->jobs[J->deps[i]].dep_refs--;

	gpu_emit_run(s, J, cpu, pid, t, &ts);
	if (ts == GEN_NONE) {
		/* no run event in this era (i915 without LOW_LEVEL): the model's time */
		J->run_ts = *t;
	} else {
		J->run_ts = ts;
		J->run_cpu = cpu;
		if (s->last_dropped)
			J->lost |= LOST_RUN;
	}
	gpu_emit_amd_job(s, EV_AMD_RUN, J, cpu, pid, t);
	J->hw_seqno = ++R->hw_seqno;
	gpu_emit_hw_fence(s, EV_FENCE_INIT, J, cpu, pid, 0, t);
	/* drm_sched's scheduled fence (i915 has none) */
	if (s->sc->era != ERA_I915)
		gpu_emit_fence(s, EV_FENCE_SIGNALED, J, false, cpu, pid, 0, t, NULL);
	R->jobs_run++;
	if (R->hw_head == j)
		hw_start(s, j);
	/* its scheduled fence is signalled: jobs depending on it may run */
	if (s->sched_deps)
		kick_waiting_rings(s, cpu, t, J->run_ts);
}

static void act_sched(struct gen_sim *s, int r, uint64_t now)
{
	struct gen_ring *R = &s->rings[r];
	int cpu = dcfg(s, r)->sched_cpu, pid = R->worker_pid;
	uint64_t t = now;
	int j;

	R->sched_pending = false;
	run_worker(s, r, &t);
	while (R->hw_count < rcfg(s, r)->credits) {
		j = sched_pick(s, r, cpu, pid, &t);
		if (j < 0)
			break;
		sched_run(s, j, cpu, pid, &t);
		t += rng_range(&s->rng, US(1), US(4));
	}
	bg_switch_idle(s, cpu, &t);
}

/* a signalled fence may unblock jobs of any ring */
static void kick_waiting_rings(struct gen_sim *s, int cpu, uint64_t *t, uint64_t ts)
{
	int i;

	for (i = 0; i < s->nents; i++)
		if (s->ents[i].head >= 0)
			kick_from(s, s->ents[i].ring, cpu, t,
				  ts + rng_range(&s->rng, US(5), US(20)));
}

static void signal_job(struct gen_sim *s, int j, int cpu, int pid, uint8_t flags,
		       uint64_t *t)
{
	struct gen_job *J = &s->jobs[j];
	uint64_t ts;

	J->signaled = true;
	gpu_emit_fence(s, EV_FENCE_SIGNALED, J, true, cpu, pid, flags, t, &ts);
	J->signaled_at = ts;
	if (s->sc->dma_fence) {
		J->signal_ts = ts;
		J->signal_cpu = cpu;
		if (s->last_dropped)
			J->lost |= LOST_SIGNAL;
	}
	if (J->waiter) {
		struct gen_task w;

		proc_task(s, J->proc, &w);
		bg_wake(s, cpu, &w, s->pcfg[J->proc].cpu, t);
		heap_push(&s->heap, ts + rng_range(&s->rng, US(4), US(20)), ACT_WAIT_END, j);
	}
	kick_waiting_rings(s, cpu, t, ts);
}

static int ooo_cpu(const struct gen_sim *s, int r)
{
	return (dcfg(s, r)->irq_cpu + 1) % s->sc->cpus;
}

/* the name the GPU's interrupt handler registered */
static const char *irq_name(const struct gen_sim *s)
{
	if (s->sc->era == ERA_I915)
		return "i915";
	if (s->sc->hwdrv)
		return s->sc->hwdrv == HWDRV_MSM ? "gpu-irq" : "v3d_core0";
	return s->sc->xe ? "xe" : "amdgpu";
}

static void act_done(struct gen_sim *s, int j, uint64_t now)
{
	struct gen_job *J = &s->jobs[j];
	struct gen_ring *R = &s->rings[J->ring];
	const struct gen_dev_cfg *d = dcfg(s, J->ring);
	int cpu = d->irq_cpu, pid = bg_current_pid(s, cpu);
	uint64_t t = now - rng_range(&s->rng, 1000, 2500), ts;

	if (R->hw_head != j)
		abort();		/* the hardware ring is FIFO */
	if (s->sc->diag.kind && diag_done_delay(s, j, now))
		return;			/* handled late: an interrupt storm */
	/* the interrupt starts a little before the scheduler's done event */
	bg_irq_entry(s, cpu, d->irq, irq_name(s), &t);
	J->irq_ts = s->cpu_last[cpu];
	gpu_emit_iv(s, J, cpu, pid, &t);
	hwdrv_emit_irq(s, J, cpu, pid, &t);
	gpu_emit_hw_fence(s, EV_FENCE_SIGNALED, J, cpu, pid, 0x09, &t);
	if (t < now)
		t = now;
	if (s->sc->era == ERA_I915 && !s->sc->i915_ll) {
		/* no i915_request_out: the request fence's signal is the done */
		signal_job(s, j, cpu, pid, 0x09, &t);
		ts = J->signal_ts != GEN_NONE ? J->signal_ts : J->signaled_at;
		if (J->lost & LOST_SIGNAL)
			J->lost |= LOST_DONE;
	} else {
		gpu_emit_done(s, J, cpu, pid, &t, &ts);
		if (s->last_dropped)
			J->lost |= LOST_DONE;
	}
	J->done_ts = ts;
	J->done_cpu = cpu;
	R->hw_head = J->next;
	if (R->hw_head < 0)
		R->hw_tail = -1;
	J->next = -1;
	R->hw_count--;
	R->last_done = ts;
	R->jobs_done++;
	if (s->sc->era == ERA_I915 && !s->sc->i915_ll)
		;	/* signalled above */
	else if (s->sc->signal_ooo && (R->jobs_done & 1))
		heap_push(&s->heap, ts + rng_range(&s->rng, US(30), US(60)), ACT_SIGNAL, j);
	else {
		t = ts + rng_range(&s->rng, US(1), US(3));
		signal_job(s, j, cpu, pid, 0x09, &t);
	}
	kick_from(s, J->ring, cpu, &t, ts + rng_range(&s->rng, US(8), US(30)));
	bg_irq_exit(s, cpu, d->irq, &t);
	/* msm: the retire worker, after the interrupt */
	hwdrv_emit_retired(s, J, cpu, s->rings[J->ring].worker_pid, &t);
	if (R->hw_head >= 0)
		hw_start(s, R->hw_head);
	heap_push(&s->heap, ts + rng_range(&s->rng, s->sc->free_min, s->sc->free_max),
		  ACT_DESTROY, j);
}

static void act_signal(struct gen_sim *s, int j, uint64_t now)
{
	int cpu = ooo_cpu(s, s->jobs[j].ring);
	uint64_t t = now;

	signal_job(s, j, cpu, bg_current_pid(s, cpu), 0x00, &t);
}

/* the last reference goes: fences destroyed, the slab object reused */
static void act_destroy(struct gen_sim *s, int j, uint64_t now)
{
	struct gen_job *J = &s->jobs[j];
	struct gen_ring *R = &s->rings[J->ring];
	int cpu = dcfg(s, J->ring)->sched_cpu;
	uint64_t t = now;

	if (!J->signaled || J->waiter || J->dep_refs > 0) {
		heap_push(&s->heap, now + US(100), ACT_DESTROY, j);
		return;
	}
	run_worker(s, J->ring, &t);
	if (s->sc->era == ERA_I915) {
		/* i915_request_retire, then the request's fence goes */
		gpu_emit_i915(s, EV_I915_RETIRE, J, cpu, R->worker_pid, 0, &t, &J->retire_ts);
	} else {
		gpu_emit_fence(s, EV_FENCE_DESTROY, J, false, cpu, R->worker_pid, 0, &t, NULL);
	}
	gpu_emit_fence(s, EV_FENCE_DESTROY, J, true, cpu, R->worker_pid, 0, &t, NULL);
	gpu_emit_hw_fence(s, EV_FENCE_DESTROY, J, cpu, R->worker_pid, 0, &t);
	bg_switch_idle(s, cpu, &t);
	J->destroyed = true;
	if (J->fence_ptr)
		fence_free(s, J->fence_ptr);
}

/* ---- driver ---- */

/* the simulated processes: the scenario's, proc_copies times each (gen.h) */
static int procs_init(struct gen_sim *s)
{
	const struct gen_scenario *sc = s->sc;
	int copies = sc->proc_copies > 1 ? sc->proc_copies : 1;
	int n = sc->nprocs * copies, k, i;

	s->pcfg = calloc(n ? n : 1, sizeof(*s->pcfg));
	s->procs = calloc(n ? n : 1, sizeof(*s->procs));
	s->delivered = calloc(n ? n : 1, sizeof(*s->delivered));
	if (!s->pcfg || !s->procs || !s->delivered)
		return -1;
	s->nprocs = n;
	for (k = 0; k < copies; k++) {
		for (i = 0; i < sc->nprocs; i++) {
			struct gen_proc_cfg *pc = &s->pcfg[k * sc->nprocs + i];

			*pc = sc->procs[i];
			pc->pid += k;
			pc->client_id += k;
			pc->cpu = (pc->cpu + k) % sc->cpus;
			pc->start += (uint64_t)k * pc->period / copies;
		}
	}
	return 0;
}

static void sim_init(struct gen_sim *s)
{
	const struct gen_scenario *sc = s->sc;
	int i;

	s->t0 = 123456789000ULL;
	s->end = s->t0 + sc->duration + sc->tail;
	s->next_ctx = 1037;
	for (i = 0; i < sc->nrings; i++) {
		struct gen_ring *R = &s->rings[i];

		if (sc->rings[i].dep_sched)
			s->sched_deps = true;
		R->name_ptr = RING_NAME_BASE + 0x3000ULL * i;
		R->hw_ctx = 17 + i;	/* allocated at driver load */
		R->hw_seqno = 0x1c3;	/* after the ring tests */
		R->hw_head = R->hw_tail = R->last_job = -1;
		if (sc->era == ERA_617) {
			R->worker_pid = 131 + 2 * sc->rings[i].dev;
			snprintf(R->worker_comm, sizeof(R->worker_comm),
				 "kworker/u8:%d", 1 + 2 * sc->rings[i].dev);
		} else {
			R->worker_pid = 480 + i;
			snprintf(R->worker_comm, sizeof(R->worker_comm), "%.15s",
				 sc->rings[i].name);
		}
	}
	if (procs_init(s))
		abort(); /* out of memory: the generator has no partial output */
	for (i = 0; i < s->nprocs; i++) {
		s->procs[i].next_submit = s->t0 + s->pcfg[i].start;
		heap_push(&s->heap, s->procs[i].next_submit, ACT_SUBMIT, i);
	}
	bg_init(s);
	if (sc->ncrtcs)
		frames_init(s);
	if (sc->diag.kind)
		diag_init(s);
	for (i = 0; s->bg_on && i < sc->cpus; i++)
		if (!sc->bg_cpus || (i < 32 && (sc->bg_cpus & (1u << i))))
			heap_push(&s->heap, s->t0 + rng_exp(&s->rng, s->bg_mean), ACT_BG, i);
}

static void dispatch(struct gen_sim *s, const struct gen_action *a)
{
	/* one line per action */
	/* clang-format off */
	switch (a->kind) {
	case ACT_SUBMIT:	act_submit(s, a->arg, a->t); break;
	case ACT_SCHED:		act_sched(s, a->arg, a->t); break;
	case ACT_DONE:		act_done(s, a->arg, a->t); break;
	case ACT_SIGNAL:	act_signal(s, a->arg, a->t); break;
	case ACT_DESTROY:	act_destroy(s, a->arg, a->t); break;
	case ACT_WAIT_START:	act_wait_start(s, a->arg, a->t); break;
	case ACT_WAIT_END:	act_wait_end(s, a->arg, a->t); break;
	case ACT_DIAG:		diag_act(s, a->arg, a->t); break;
	case ACT_VBLANK:	frames_vblank(s, a->arg, a->t); break;
	case ACT_HW_IN:		act_hw_in(s, a->arg, a->t); break;
	case ACT_XE_TIMEOUT:	xe_timeout(s, a->arg, a->t); break;
	case ACT_BG:
		bg_step(s, a->arg, a->t);
		heap_push(&s->heap, a->t + rng_exp(&s->rng, s->bg_mean), ACT_BG, a->arg);
		break;
	}
	/* clang-format on */
}

int gen_sim_run(struct gen_sim *s)
{
	struct gen_action a;

	sim_init(s);
	while (heap_pop(&s->heap, &a)) {
		if (a.t > s->end)
			break;
		dispatch(s, &a);
	}
	return 0;
}

void gen_sim_free(struct gen_sim *s)
{
	int i;

	heap_free(&s->heap);
	free(s->jobs);
	free(s->ents);
	free(s->pool);
	frames_free(s);
	for (i = 0; s->procs && i < s->nprocs; i++)
		free(s->procs[i].inflight);
	free(s->procs);
	free(s->pcfg);
	free(s->delivered);
	s->procs = NULL;
	s->pcfg = NULL;
	s->delivered = NULL;
	s->nprocs = 0;
}

/*
 * amdgpu-only traces (no gpu_scheduler events): what the trace shows of each
 * job, for the truth file. amdgpu_cs_ioctl is the queue (same CPU, just
 * before where the queue event would be), amdgpu_sched_run_job the run, the
 * finished fence's dma_fence_signaled the done (and the signal); a job whose
 * finished fence was not signalled by the end is incomplete. Called after
 * gen_sim_check(), which checks the model's own stages.
 */
void gen_sim_amdgpu_only(struct gen_sim *s)
{
	int i;

	for (i = 0; i < s->njobs; i++) {
		struct gen_job *J = &s->jobs[i];

		J->queue_ts = J->amd_cs_ts;
		if (J->run_ts != GEN_NONE)
			J->run_ts = J->amd_run_ts;
		J->done_ts = J->signal_ts;
		J->done_cpu = J->signal_ts != GEN_NONE ? J->signal_cpu : -1;
	}
}
