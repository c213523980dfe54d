// SPDX-License-Identifier: LGPL-2.1
/*
 * The GPU events of one job stage, with the field values the kernel of the
 * scenario's era would record (gpu_scheduler, dma_fence, amdgpu).
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define STEP_MIN	120
#define STEP_MAX	450

static uint64_t step(struct gen_sim *s)
{
	return rng_range(&s->rng, STEP_MIN, STEP_MAX);
}

static const struct gen_ring_cfg *ring_cfg(const struct gen_sim *s,
					   const struct gen_job *j)
{
	return &s->sc->rings[j->ring];
}

static const char *dev_name(const struct gen_sim *s, const struct gen_job *j)
{
	return s->sc->devs[ring_cfg(s, j)->dev].name;
}

/* the ring name field: a string since 5.19, a pointer before */
static struct gen_fval name_val(const struct gen_sim *s, const struct gen_job *j)
{
	struct gen_fval v = { .name = "name" };

	if (s->sc->era >= ERA_519) {
		v.kind = FK_STR;
		v.str = ring_cfg(s, j)->name;
	} else {
		v.kind = FK_PTR;
		v.num = s->rings[j->ring].name_ptr;
	}
	return v;
}

static bool emit_at(struct gen_sim *s, enum gen_ev ev, int cpu, int pid,
		    uint8_t flags, const struct gen_fval *v, int nv,
		    uint64_t *t, uint64_t *ts)
{
	uint64_t at;
	bool ok;

	ok = gen_emit(s, ev, cpu, *t, pid, flags, v, nv, &at);
	if (ts)
		*ts = at;
	*t = at + step(s);
	return ok;
}

/* drm_sched_job / drm_run_job (<= 6.16), drm_sched_job_queue / _run (6.17+) */
static bool emit_job_class(struct gen_sim *s, enum gen_ev ev, struct gen_job *j,
			   int cpu, int pid, int job_count, int hw_job_count,
			   uint64_t *t, uint64_t *ts)
{
	const struct gen_entity *e = &s->ents[j->entity];

	if (s->sc->era == ERA_617) {
		struct gen_fval v[] = {
			FV_STR("name", ring_cfg(s, j)->name),
			FV_NUM("job_count", job_count),
			FV_NUM("hw_job_count", hw_job_count),
			FV_STR("dev", dev_name(s, j)),
			FV_NUM("fence_context", j->ctx),
			FV_NUM("fence_seqno", j->seqno),
			FV_NUM("client_id", s->pcfg[j->proc].client_id),
		};
		return emit_at(s, ev, cpu, pid, 0, v, 7, t, ts);
	} else {
		struct gen_fval v[] = {
			FV_PTR("entity", e->ptr),
			FV_PTR("fence", j->fence_ptr),
			name_val(s, j),
			FV_NUM("id", j->id),
			FV_NUM("job_count", job_count),
			FV_NUM("hw_job_count", hw_job_count),
		};
		return emit_at(s, ev, cpu, pid, 0, v, 6, t, ts);
	}
}

/* i915 engine uabi class from its name (intel_engine_user.c: rcs bcs vcs vecs ccs) */
static void i915_engine(const char *name, uint64_t *cls, uint64_t *inst)
{
	static const char *const cl[] = { "rcs", "bcs", "vcs", "vecs", "ccs" };
	unsigned int i;

	*cls = 0;
	*inst = 0;
	for (i = 0; i < sizeof(cl) / sizeof(cl[0]); i++) {
		size_t n = strlen(cl[i]);

		if (!strncmp(name, cl[i], n) && name[n] >= '0' && name[n] <= '9') {
			*cls = i;
			*inst = strtoull(name + n, NULL, 10);
			return;
		}
	}
}

/* i915_request_add / _submit / _retire (class i915_request), _in, _out */
bool gpu_emit_i915(struct gen_sim *s, enum gen_ev ev, struct gen_job *j, int cpu, int pid,
		   uint8_t flags, uint64_t *t, uint64_t *ts)
{
	uint64_t cls, inst;
	/* dev: the DRM primary minor of the device ("card0") */
	uint64_t dev = strtoull(dev_name(s, j) + 4, NULL, 10);
	struct gen_fval v[] = {
		FV_NUM("dev", dev),
		FV_NUM("ctx", j->ctx),
		FV_NUM("class", 0),
		FV_NUM("instance", 0),
		FV_NUM("seqno", (uint32_t)j->seqno),
		FV_NUM("tail", (j->seqno * 64) & 0x3fff),
		FV_NUM("prio", 0),
	};
	int nv = 6;

	i915_engine(ring_cfg(s, j)->name, &cls, &inst);
	v[2].num = cls;
	v[3].num = inst;
	if (ev == EV_I915_IN) {
		v[5] = (struct gen_fval)FV_NUM("port", 0);
		nv = 7;
	} else if (ev == EV_I915_OUT) {
		v[5] = (struct gen_fval)FV_NUM("completed", 1);
	}
	if (!s->fmts->ev[ev]) {
		if (ts)
			*ts = GEN_NONE;
		return false;
	}
	return emit_at(s, ev, cpu, pid, flags, v, nv, t, ts);
}

bool gpu_emit_queue(struct gen_sim *s, struct gen_job *j, int cpu, int pid,
		    uint64_t *t, uint64_t *ts)
{
	if (s->sc->era == ERA_I915)
		return gpu_emit_i915(s, EV_I915_ADD, j, cpu, pid, 0, t, ts);
	/* xe_sched_job_push(): trace_xe_sched_job_exec(), then the push */
	xe_emit_job(s, EV_XE_EXEC, j, cpu, pid, 0, t);
	return emit_job_class(s, EV_SCHED_JOB, j, cpu, pid,
			      s->ents[j->entity].count, s->rings[j->ring].hw_count,
			      t, ts);
}

bool gpu_emit_run(struct gen_sim *s, struct gen_job *j, int cpu, int pid,
		  uint64_t *t, uint64_t *ts)
{
	/* without LOW_LEVEL i915 traces nothing when a request is submitted */
	bool ok;

	if (s->sc->era == ERA_I915)
		return gpu_emit_i915(s, EV_I915_SUBMIT, j, cpu, pid, 0x10, t, ts);
	ok = emit_job_class(s, EV_SCHED_RUN, j, cpu, pid, s->ents[j->entity].count,
			    s->rings[j->ring].hw_count, t, ts);
	/* run_job = guc_exec_queue_run_job(): trace_xe_sched_job_run() */
	xe_emit_job(s, EV_XE_RUN, j, cpu, pid, 0, t);
	/* run_job = msm_job_run() / v3d_*_job_run(): the submit to the hardware */
	hwdrv_emit_run(s, j, cpu, pid, t);
	return ok;
}

bool gpu_emit_done(struct gen_sim *s, struct gen_job *j, int cpu, int pid,
		   uint64_t *t, uint64_t *ts)
{
	/* i915 LOW_LEVEL: off the hardware, completed (execlists CSB, irq) */
	if (s->sc->era == ERA_I915)
		return gpu_emit_i915(s, EV_I915_OUT, j, cpu, pid, 0x09, t, ts);
	if (s->sc->era == ERA_617) {
		struct gen_fval v[] = {
			FV_NUM("fence_context", j->ctx),
			FV_NUM("fence_seqno", j->seqno),
		};
		return emit_at(s, EV_SCHED_DONE, cpu, pid, 0x09, v, 2, t, ts);
	} else {
		struct gen_fval v[] = { FV_PTR("fence", j->fence_ptr) };

		return emit_at(s, EV_SCHED_DONE, cpu, pid, 0x09, v, 1, t, ts);
	}
}

/* 6.17+: one drm_sched_job_add_dep per dependency, right after the queue event */
void gpu_emit_add_deps(struct gen_sim *s, struct gen_job *j, int cpu, int pid,
		       uint64_t *t)
{
	int i;

	if (s->sc->era != ERA_617)
		return;
	for (i = 0; i < j->ndeps; i++) {
		const struct gen_job *d = &s->jobs[j->deps[i]];
		struct gen_fval v[] = {
			FV_NUM("fence_context", j->ctx),
			FV_NUM("fence_seqno", j->seqno),
			FV_NUM("ctx", gen_dep_ctx(s, j, i)),
			FV_NUM("seqno", d->seqno),
		};
		emit_at(s, EV_SCHED_ADD_DEP, cpu, pid, 0, v, 4, t, NULL);
	}
}

/*
 * When the scheduler first tries to pop the job: drm_sched_job_wait_dep for
 * every dependency (<= 6.16), drm_sched_job_unschedulable for every one not
 * signalled yet (6.17+).
 */
void gpu_emit_wait_deps(struct gen_sim *s, struct gen_job *j, int cpu, int pid,
			uint64_t *t)
{
	int i;

	/* i915 traces no dependencies */
	for (i = 0; s->sc->era != ERA_I915 && i < j->ndeps; i++) {
		const struct gen_job *d = &s->jobs[j->deps[i]];

		if (s->sc->era == ERA_617) {
			struct gen_fval v[] = {
				FV_NUM("fence_context", j->ctx),
				FV_NUM("fence_seqno", j->seqno),
				FV_NUM("ctx", gen_dep_ctx(s, j, i)),
				FV_NUM("seqno", d->seqno),
			};
			bool blocked = !gen_dep_signaled(s, j, i);

			/* since 2025-09 also for a fence that signalled already */
			if (blocked || s->sc->unsched_racy)
				emit_at(s, EV_SCHED_UNSCHED, cpu, pid, 0, v, 4, t, NULL);
			if (blocked)
				j->dep_blocked |= 1u << i;
		} else {
			struct gen_fval v[] = {
				name_val(s, j),
				FV_NUM("id", j->id),
				FV_PTR("fence", d->fence_ptr),
				FV_NUM("ctx", d->ctx),
				FV_NUM("seqno", (uint32_t)d->seqno),
			};
			emit_at(s, EV_SCHED_WAIT_DEP, cpu, pid, 0, v, 5, t, NULL);
		}
	}
}

/*
 * A dma_fence_* event of the job's scheduled (ctx - 1) or finished fence.
 * Since 6.17 destroy and wait events of a signalled fence print the
 * placeholder names of dma_fence_driver_name()/dma_fence_timeline_name().
 */
bool gpu_emit_fence(struct gen_sim *s, enum gen_ev ev, struct gen_job *j,
		    bool finished, int cpu, int pid, uint8_t flags,
		    uint64_t *t, uint64_t *ts)
{
	bool detached = s->sc->era == ERA_617 && j->signaled &&
			(ev == EV_FENCE_DESTROY || ev == EV_FENCE_WAIT_START ||
			 ev == EV_FENCE_WAIT_END);
	struct gen_fval v[] = {
		FV_STR("driver", detached ? "detached-driver" :
				 s->sc->era == ERA_I915 ? "i915" : "drm_sched"),
		FV_STR("timeline", detached ? "signaled-timeline" : ring_cfg(s, j)->name),
		FV_NUM("context", (uint32_t)(finished ? j->ctx : j->ctx - 1)),
		FV_NUM("seqno", (uint32_t)j->seqno),
	};

	if (!s->sc->dma_fence) {
		if (ts)
			*ts = *t;
		return false;
	}
	return emit_at(s, ev, cpu, pid, flags, v, 4, t, ts);
}

/* dma_fence_init of both scheduler fences (drm_sched_job_arm) */
void gpu_emit_init(struct gen_sim *s, struct gen_job *j, int cpu, int pid,
		   uint64_t *t)
{
	/* i915: one fence per request (__i915_request_create) */
	if (s->sc->era == ERA_I915) {
		gpu_emit_fence(s, EV_FENCE_INIT, j, true, cpu, pid, 0, t, NULL);
		return;
	}
	gpu_emit_fence(s, EV_FENCE_INIT, j, false, cpu, pid, 0, t, NULL);
	gpu_emit_fence(s, EV_FENCE_INIT, j, true, cpu, pid, 0, t, NULL);
}

/* amdgpu_cs_ioctl (submit) or amdgpu_sched_run_job (run) */
void gpu_emit_amd_job(struct gen_sim *s, enum gen_ev ev, struct gen_job *j,
		      int cpu, int pid, uint64_t *t)
{
	uint64_t num_ibs = 1 + (j->seqno & 1);
	const char *ring = ring_cfg(s, j)->name;
	uint64_t ts = GEN_NONE;

	if (!s->sc->amdgpu)
		return;
	if (s->sc->era == ERA_617) {
		struct gen_fval v[] = {
			FV_STR("timeline", ring),
			FV_NUM("context", j->ctx),
			FV_NUM("seqno", j->seqno),
			FV_PTR("fence", 0),
			FV_STR("ring", ring),
			FV_NUM("num_ibs", num_ibs),
		};
		if (ev == EV_AMD_RUN)
			v[3] = v[4], v[4] = v[5];
		emit_at(s, ev, cpu, pid, 0, v, ev == EV_AMD_RUN ? 5 : 6, t, &ts);
	} else {
		struct gen_fval v[] = {
			FV_NUM("sched_job_id", j->id),
			FV_STR("timeline", ring),
			FV_NUM("context", (uint32_t)j->ctx),
			FV_NUM("seqno", (uint32_t)j->seqno),
			FV_PTR("fence", 0),
			FV_STR("ring", ring),
			FV_NUM("num_ibs", num_ibs),
		};
		if (ev == EV_AMD_RUN)
			v[4] = v[5], v[5] = v[6];
		emit_at(s, ev, cpu, pid, 0, v, ev == EV_AMD_RUN ? 6 : 7, t, &ts);
	}
	if (ev == EV_AMD_CS)
		j->amd_cs_ts = ts;
	else
		j->amd_run_ts = ts;
}

/*
 * amdgpu's own hardware fence of the job (driver "amdgpu", one context per
 * ring): created in run_job, signalled by the interrupt just before the
 * scheduler's finished fence. Readers must not take it for the job's fence.
 */
void gpu_emit_hw_fence(struct gen_sim *s, enum gen_ev ev, struct gen_job *j,
		       int cpu, int pid, uint8_t flags, uint64_t *t)
{
	bool detached = s->sc->era == ERA_617 && ev == EV_FENCE_DESTROY;
	struct gen_fval v[] = {
		FV_STR("driver", detached ? "detached-driver" : "amdgpu"),
		FV_STR("timeline", detached ? "signaled-timeline" : ring_cfg(s, j)->name),
		FV_NUM("context", (uint32_t)s->rings[j->ring].hw_ctx),
		FV_NUM("seqno", (uint32_t)j->hw_seqno),
	};

	if (s->sc->amdgpu && s->sc->dma_fence)
		emit_at(s, ev, cpu, pid, flags, v, 4, t, NULL);
	/* xe: the LRC seqno fence signalled by the GuC's interrupt */
	if (ev == EV_FENCE_SIGNALED)
		xe_emit_hw_fence(s, j, cpu, pid, flags, t);
}

/* amdgpu_iv: the end-of-pipe interrupt vector of the ring */
void gpu_emit_iv(struct gen_sim *s, struct gen_job *j, int cpu, int pid,
		 uint64_t *t)
{
	uint32_t src_data[4] = { 0, 0, 0, 0 };
	struct gen_fval v[] = {
		FV_NUM("ih", 0),
		FV_NUM("client_id", 0),
		FV_NUM("src_id", 181),		/* EOP */
		FV_NUM("ring_id", (uint64_t)j->ring),
		FV_NUM("vmid", 0),
		FV_NUM("vmid_src", 0),
		FV_NUM("timestamp", *t / 10),	/* 100 MHz GPU clock */
		FV_NUM("timestamp_src", 0),
		FV_NUM("pasid", 32768 + (uint64_t)j->proc),
		FV_ARR("src_data", src_data, 4),
	};

	if (s->sc->amdgpu)
		emit_at(s, EV_AMD_IV, cpu, pid, 0x09, v, 10, t, NULL);
}
