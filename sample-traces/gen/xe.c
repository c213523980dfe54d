// SPDX-License-Identifier: LGPL-2.1
/*
 * xe's own events beside the scheduler's (drivers/gpu/drm/xe/xe_trace.h, the
 * formats of data/formats/linux-6.12-debian/xe): every xe_sched_job_* event
 * carries the job's hardware fence (the LRC seqno fence, `fence`), which the
 * xe_hw_fence_* events print too; the scheduler's events carry the finished
 * fence. Where xe calls into the scheduler the two come back to back from one
 * task: xe_sched_job_exec right before the queue event (xe_sched_job_push),
 * xe_sched_job_run right after the run event (run_job). A job that never
 * completes is reported by the scheduler's timeout handler
 * (guc_exec_queue_timedout_job): xe_sched_job_timedout, then its exec queue
 * is banned (xe_sched_job_ban).
 */
#include "gen.h"

#define XE_HW_FENCE_BASE	0xffff88810c400000ULL	/* struct xe_hw_fence slab */
#define XE_HW_FENCE_OBJ		0xc0ULL
#define XE_LRC_CTX_BASE		0x0000000000000200ULL	/* dma_fence_context_alloc() */
#define XE_GUC_ID_BASE		2
#define XE_LRC_SEQNO_BASE	0xfffU	/* the LRC counts from its ring tests */

static uint64_t hw_fence(const struct gen_job *j)
{
	return XE_HW_FENCE_BASE + XE_HW_FENCE_OBJ * (uint64_t)j->seq;
}

static uint32_t lrc_seqno(const struct gen_job *j)
{
	return (uint32_t)(XE_LRC_SEQNO_BASE + j->seqno);
}

static const char *xe_dev(const struct gen_sim *s, const struct gen_job *j)
{
	return s->sc->devs[s->sc->rings[j->ring].dev].name;
}

static bool emit_xe(struct gen_sim *s, enum gen_ev ev, int cpu, int pid, uint8_t flags,
		    const struct gen_fval *v, int nv, uint64_t *t)
{
	uint64_t at;
	bool ok = gen_emit(s, ev, cpu, *t, pid, flags, v, nv, &at);

	*t = at + 150 + rng_range(&s->rng, 0, 250);
	return ok;
}

/* xe_sched_job class: exec, run, timedout, ban (one exec queue per entity) */
static bool emit_job(struct gen_sim *s, enum gen_ev ev, struct gen_job *j, int cpu, int pid,
		     uint8_t flags, int error, uint64_t *t)
{
	struct gen_fval v[] = {
		FV_STR("dev", xe_dev(s, j)),
		FV_NUM("seqno", lrc_seqno(j)),
		FV_NUM("lrc_seqno", lrc_seqno(j)),
		FV_NUM("guc_id", XE_GUC_ID_BASE + (uint64_t)j->entity),
		FV_NUM("guc_state", 0x3),
		FV_NUM("flags", 0),
		FV_NUM("error", (uint64_t)(int64_t)error),
		FV_PTR("fence", hw_fence(j)),
		FV_NUM("batch_addr", 0x1a0000ULL + 0x1000ULL * (uint64_t)j->seq),
	};

	return emit_xe(s, ev, cpu, pid, flags, v, 9, t);
}

void xe_emit_job(struct gen_sim *s, enum gen_ev ev, struct gen_job *j, int cpu, int pid,
		 uint8_t flags, uint64_t *t)
{
	if (s->sc->xe)
		emit_job(s, ev, j, cpu, pid, flags, 0, t);
}

/* xe_hw_fence_signal: the GuC's user interrupt signals the LRC seqno fence */
void xe_emit_hw_fence(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint8_t flags,
		      uint64_t *t)
{
	struct gen_fval v[] = {
		FV_STR("dev", xe_dev(s, j)),
		FV_NUM("ctx", XE_LRC_CTX_BASE + (uint64_t)j->entity),
		FV_NUM("seqno", lrc_seqno(j)),
		FV_PTR("fence", hw_fence(j)),
	};

	if (s->sc->xe)
		emit_xe(s, EV_XE_HW_SIGNAL, cpu, pid, flags, v, 4, t);
}

/* the scheduler's timeout work on the ring's worker: timed out, then banned */
void xe_timeout(struct gen_sim *s, int idx, uint64_t now)
{
	struct gen_job *j = &s->jobs[idx];
	const struct gen_scenario *sc = s->sc;
	int cpu = sc->devs[sc->rings[j->ring].dev].sched_cpu;
	int pid = s->rings[j->ring].worker_pid;
	uint64_t t = now;

	if (emit_job(s, EV_XE_TIMEDOUT, j, cpu, pid, 0, 0, &t))
		j->hang |= HANG_TIMEDOUT;
	/* xe_sched_job_set_error(-ETIME) is skipped for a banned queue's job */
	if (emit_job(s, EV_XE_BAN, j, cpu, pid, 0, -62, &t))
		j->hang |= HANG_BANNED;
}
