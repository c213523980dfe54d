// SPDX-License-Identifier: LGPL-2.1
/*
 * Drivers that trace the hardware's own times beside drm_sched (formats of
 * data/formats/derived, written from the kernel headers):
 *
 *   msm (drivers/gpu/drm/msm/msm_gpu_trace.h): run_job (msm_job_run ->
 *   msm_gpu_submit) traces msm_gpu_submit_flush with the GPU's always-on
 *   counter (19.2 MHz) as it writes the submit to the ring; the CP records
 *   the counter when it starts and ends the submit, and the retire worker
 *   traces both in msm_gpu_submit_retired after the interrupt. The simulated
 *   hardware starts and ends a submit on a counter tick, so the times the
 *   truth holds are exactly what the counter says: flush time + (ticks -
 *   flush ticks) * 10000 / 192 ns, the kernel's own conversion of elapsed.
 *   The hardware ends before the interrupt that signals the done (3-8 us).
 *   Rings are "ringbuffer<id>" (the name of the ring's bo), submit seqnos
 *   count per ring, idents over the GPU.
 *
 *   v3d (drivers/gpu/drm/v3d/v3d_trace.h): run_job (v3d_bin_job_run, ...)
 *   traces v3d_submit_cl / _tfu right before it writes the registers that
 *   start the job, and a queue runs one job at a time (hw_jobs_limit 1):
 *   the event's time is the start. The interrupt traces v3d_bcl_irq /
 *   _rcl_irq / _tfu_irq before it signals the fence (the done).
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define MSM_TICK0     0x2f0000000ULL /* the always-on counter at time 0 */
#define MSM_CLOCK_MHZ 587
#define MSM_IDENT0    40

static bool emit(struct gen_sim *s, enum gen_ev ev, int cpu, int pid, uint8_t flags,
		 const struct gen_fval *v, int nv, uint64_t *t, uint64_t *ts)
{
	uint64_t at;
	bool ok = gen_emit(s, ev, cpu, *t, pid, flags, v, nv, &at);

	if (ts)
		*ts = at;
	*t = at + 150 + rng_range(&s->rng, 0, 250);
	return ok;
}

/* the counter's reading at trace time @ts */
static uint64_t ticks_of(uint64_t ts)
{
	return MSM_TICK0 + ts / 10000 * 192 + ts % 10000 * 192 / 10000;
}

/* trace time of counter value @ticks, from the flush's pairing */
static uint64_t ts_of(const struct gen_job *j, uint64_t ticks)
{
	return j->flush_ts + (ticks - j->flush_ticks) * 10000 / 192;
}

static uint64_t ticks_ceil(uint64_t ns)
{
	return (ns * 192 + 9999) / 10000;
}

/* the submit's ringid: the ring's index (one ringbuffer per priority) */
static uint32_t msm_ringid(const struct gen_job *j)
{
	return (uint32_t)j->ring;
}

static void msm_vals(const struct gen_sim *s, const struct gen_job *j, struct gen_fval *v)
{
	v[0] = (struct gen_fval)FV_NUM("pid", (uint64_t)s->pcfg[j->proc].pid);
	v[1] = (struct gen_fval)FV_NUM("id", MSM_IDENT0 + (uint64_t)j->seq);
	v[2] = (struct gen_fval)FV_NUM("ringid", msm_ringid(j));
	v[3] = (struct gen_fval)FV_NUM("seqno", j->drv_seqno);
}

/* v3d: which submit and irq events a queue traces (by its scheduler name) */
static enum gen_ev v3d_submit(const struct gen_sim *s, const struct gen_job *j, bool *render)
{
	const char *n = s->sc->rings[j->ring].name;

	*render = !strcmp(n, "v3d_render");
	return !strcmp(n, "v3d_tfu") ? EV_V3D_SUBMIT_TFU : EV_V3D_SUBMIT_CL;
}

static enum gen_ev v3d_irq(const struct gen_sim *s, const struct gen_job *j)
{
	bool render;

	if (v3d_submit(s, j, &render) == EV_V3D_SUBMIT_TFU)
		return EV_V3D_TFU_IRQ;
	return render ? EV_V3D_RCL_IRQ : EV_V3D_BCL_IRQ;
}

void hwdrv_emit_run(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint64_t *t)
{
	struct gen_fval v[6];
	uint64_t ts;
	bool render;

	switch (s->sc->hwdrv) {
	case HWDRV_MSM:
		j->drv_seqno = s->rings[j->ring].jobs_run + 1;
		msm_vals(s, j, v);
		/*
		 * The counter read for the flush, and the record's time: the
		 * pairing a reader has. The simulated GPU keeps its times on
		 * this pairing, so they are exactly what the counter gives.
		 */
		j->flush_ticks = ticks_of(*t);
		v[4] = (struct gen_fval)FV_NUM("ticks", j->flush_ticks);
		emit(s, EV_MSM_FLUSH, cpu, pid, 0, v, 5, t, &ts);
		j->flush_ts = ts;
		break;
	case HWDRV_V3D:
		v[0] = (struct gen_fval)FV_NUM("dev", 0);
		j->drv_seqno = s->rings[j->ring].jobs_run + 1;
		v[1] = (struct gen_fval)FV_NUM("seqno", j->drv_seqno);
		if (v3d_submit(s, j, &render) == EV_V3D_SUBMIT_CL) {
			v[2] = (struct gen_fval)FV_NUM("is_render", render);
			v[3] = (struct gen_fval)FV_NUM("ctnqba",
						       0x1c000000ULL + 0x1000ULL * j->seq);
			v[4] = (struct gen_fval)FV_NUM("ctnqea",
						       0x1c000800ULL + 0x1000ULL * j->seq);
			emit(s, EV_V3D_SUBMIT_CL, cpu, pid, 0, v, 5, t, &ts);
		} else {
			emit(s, EV_V3D_SUBMIT_TFU, cpu, pid, 0, v, 2, t, &ts);
		}
		/* the registers are written right after: the hardware starts */
		j->flush_ts = ts;
		break;
	default:
		break;
	}
}

/*
 * The hardware takes job @j, its ring free since @free (the previous done):
 * msm after a context switch, on a counter tick; v3d at its submit event
 * (one job per queue at a time). Return: when the done's interrupt comes.
 */
uint64_t hwdrv_start(struct gen_sim *s, struct gen_job *j, uint64_t free)
{
	const struct gen_scenario *sc = s->sc;
	uint64_t want = j->flush_ts > free ? j->flush_ts : free;

	if (sc->hwdrv == HWDRV_V3D) {
		j->start_ts = want;
		return want + j->dur;
	}
	/* the CP takes the next submit when it ended the last one, which is
	 * before the interrupt that tells the CPU (the previous done) */
	want = j->flush_ts > s->rings[j->ring].last_hw_end ? j->flush_ts :
							     s->rings[j->ring].last_hw_end;
	want += rng_range(&s->rng, sc->ctxsw_min, sc->ctxsw_max);
	j->start_ticks = j->flush_ticks + ticks_ceil(want - j->flush_ts);
	j->end_ticks = j->start_ticks + ticks_ceil(j->dur);
	j->start_ts = ts_of(j, j->start_ticks);
	j->hw_end_ts = ts_of(j, j->end_ticks);
	s->rings[j->ring].last_hw_end = j->hw_end_ts;
	/* the CP's interrupt, a few us after the end (act_done enters it
	 * up to 2.5 us before the done event) */
	return j->hw_end_ts + rng_range(&s->rng, US(3), US(8));
}

/* v3d: the interrupt handler's event, before it signals the fence */
void hwdrv_emit_irq(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint64_t *t)
{
	struct gen_fval v[] = {
		FV_NUM("dev", 0),
		FV_NUM("seqno", j->drv_seqno),
	};

	if (s->sc->hwdrv == HWDRV_V3D)
		emit(s, v3d_irq(s, j), cpu, pid, 0x09, v, 2, t, NULL);
}

/* msm: retire_submit() of the retire worker, after the interrupt */
void hwdrv_emit_retired(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint64_t *t)
{
	struct gen_fval v[8];

	if (s->sc->hwdrv != HWDRV_MSM)
		return;
	msm_vals(s, j, v);
	v[4] = (struct gen_fval)FV_NUM("elapsed", (j->end_ticks - j->start_ticks) * 10000 / 192);
	v[5] = (struct gen_fval)FV_NUM("clock", MSM_CLOCK_MHZ);
	v[6] = (struct gen_fval)FV_NUM("start_ticks", j->start_ticks);
	v[7] = (struct gen_fval)FV_NUM("end_ticks", j->end_ticks);
	*t += rng_range(&s->rng, US(2), US(10));
	emit(s, EV_MSM_RETIRED, cpu, pid, 0, v, 8, t, NULL);
}
