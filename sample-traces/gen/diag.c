// SPDX-License-Identifier: LGPL-2.1
/*
 * Diagnosis scenarios: the generator injects one CPU-side cause of GPU
 * latency and writes, in the truth file, which jobs it affected ("cause")
 * and the fence-signal path and IRQ load it produced:
 *
 *   cpu_freq   the affected process' CPU drops to a low frequency; the CPU
 *              work before each submission (sc->diag.work at the top
 *              frequency) takes top/low times longer, so submissions slip
 *   irq_storm  a storm of another device's interrupts (hardirq + NET_RX
 *              softirq) on the CPU that takes the GPU interrupt; GPU
 *              completions arriving during it are handled 2-5 ms late
 *   cpu_hog    a CPU-bound task holds the affected process' CPU; the
 *              process is woken for its frame but runs only when the hog
 *              is preempted at the end of the window
 *
 * Nothing here runs (or draws random numbers) for the other scenarios, so
 * their traces stay byte-identical.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "gen.h"

#define FREQ_TOP	3600000ULL	/* kHz */
#define FREQ_LOW	400000ULL
#define STORM_IRQ	27
#define STORM_NAME	"enp5s0-rx-0"
#define HOG_PID		6660
#define HOG_COMM	"stress-ng-cpu"

enum { OP_START, OP_END, OP_STEP };

static const struct gen_diag_cfg *cfg(const struct gen_sim *s)
{
	return &s->sc->diag;
}

static bool in_window(const struct gen_sim *s, uint64_t t, uint64_t *end)
{
	int i;

	for (i = 0; i < cfg(s)->nwin; i++) {
		uint64_t a = s->t0 + cfg(s)->win[i].start, b = a + cfg(s)->win[i].len;

		if (t >= a && t < b) {
			if (end)
				*end = b;
			return true;
		}
	}
	return false;
}

static void emit_freq(struct gen_sim *s, int cpu, uint64_t khz, uint64_t t)
{
	struct gen_fval v[] = {
		FV_NUM("state", khz),
		FV_NUM("cpu_id", (uint64_t)cpu),
	};
	uint64_t ts;

	s->bg[cpu].freq = (uint32_t)khz;
	s->dg.khz = khz;
	gen_emit(s, EV_CPU_FREQ, cpu, t, bg_current_pid(s, cpu), 0x01, v, 2, &ts);
}

static void hog_task(struct gen_task *t)
{
	t->pid = HOG_PID;
	t->prio = 120;
	snprintf(t->comm, sizeof(t->comm), "%s", HOG_COMM);
}

void diag_init(struct gen_sim *s)
{
	int i;

	s->dg.khz = FREQ_TOP;
	if (cfg(s)->kind == DIAG_CPU_FREQ)	/* the governor ramps up at start */
		emit_freq(s, cfg(s)->cpu, FREQ_TOP, s->t0 + US(100));
	for (i = 0; i < cfg(s)->nwin; i++) {
		heap_push(&s->heap, s->t0 + cfg(s)->win[i].start, ACT_DIAG, i * 4 + OP_START);
		heap_push(&s->heap, s->t0 + cfg(s)->win[i].start + cfg(s)->win[i].len + US(50),
			  ACT_DIAG, i * 4 + OP_END);
	}
}

/* one burst of the storm: hardirq, then its NET_RX softirq */
static void storm_step(struct gen_sim *s, uint64_t now)
{
	int cpu = cfg(s)->cpu;
	struct gen_fval sv[] = { FV_NUM("vec", 3) };
	uint64_t t = now, ts, end;

	bg_irq_entry(s, cpu, STORM_IRQ, STORM_NAME, &t);
	t += rng_range(&s->rng, US(15), US(35));
	bg_irq_exit(s, cpu, STORM_IRQ, &t);
	gen_emit(s, EV_SOFTIRQ_ENTRY, cpu, t, bg_current_pid(s, cpu), 0x10, sv, 1, &ts);
	t = ts + rng_range(&s->rng, US(40), US(80));
	gen_emit(s, EV_SOFTIRQ_EXIT, cpu, t, bg_current_pid(s, cpu), 0x10, sv, 1, &ts);
	t = ts + rng_range(&s->rng, US(10), US(40));
	if (in_window(s, t, &end))
		heap_push(&s->heap, t, ACT_DIAG, OP_STEP);
}

void diag_act(struct gen_sim *s, int arg, uint64_t now)
{
	int op = arg & 3, cpu = cfg(s)->cpu;
	struct gen_task hog;
	uint64_t t = now;

	switch (cfg(s)->kind) {
	case DIAG_CPU_FREQ:
		if (op == OP_START)
			emit_freq(s, cpu, FREQ_LOW, now);
		else if (op == OP_END)
			emit_freq(s, cpu, FREQ_TOP, now);
		break;
	case DIAG_IRQ_STORM:
		if (op == OP_START || op == OP_STEP)
			storm_step(s, now);
		break;
	case DIAG_CPU_HOG:
		hog_task(&hog);
		if (op == OP_START) {
			bg_wake(s, cpu, &hog, cpu, &t);
			bg_switch(s, cpu, &hog, false, &t);
		} else if (op == OP_END && bg_current_pid(s, cpu) == HOG_PID) {
			bg_switch_idle(s, cpu, &t);
		}
		break;
	default:
		break;
	}
}

/*
 * A submission of process @p is due at @now. Return false when it is
 * deferred (the hog holds the CPU); otherwise the process runs and *t is
 * when its CPU work before the submission is done.
 */
bool diag_submit(struct gen_sim *s, int p, uint64_t now, uint64_t *t)
{
	const struct gen_proc_cfg *pc = &s->pcfg[p];
	struct gen_task me;
	uint64_t end, start, work;

	s->dg.cause_now = DIAG_NONE;
	if (p != cfg(s)->proc)
		return true;
	me.pid = pc->pid;
	me.prio = 120;
	snprintf(me.comm, sizeof(me.comm), "%.15s", pc->comm);

	if (cfg(s)->kind == DIAG_CPU_HOG) {
		if (!s->dg.woken && in_window(s, now, &end) && bg_current_pid(s, pc->cpu) == HOG_PID) {
			/* woken for its frame, but the hog keeps the CPU until @end */
			bg_wake(s, pc->cpu, &me, pc->cpu, t);
			s->dg.woken = true;
			heap_push(&s->heap, end, ACT_SUBMIT, p);
			return false;
		}
		if (s->dg.woken) {
			s->dg.woken = false;
			s->dg.cause_now = DIAG_CPU_HOG;
			bg_switch(s, pc->cpu, &me, false, t);	/* preempts the hog */
			s->procs[p].next_submit = now;		/* frames restart from here */
		}
		return true;
	}
	if (cfg(s)->kind != DIAG_CPU_FREQ || !cfg(s)->work)
		return true;
	if (s->dg.working) {
		/* the frame's work is done: submit; the next frame starts now at the latest */
		s->dg.working = false;
		s->dg.cause_now = s->dg.slow ? DIAG_CPU_FREQ : DIAG_NONE;
		if (s->procs[p].next_submit + pc->period < now)
			s->procs[p].next_submit = now - pc->period;
		return true;
	}
	/* woken for the frame: its CPU work, slower at a lower frequency */
	if (bg_current_pid(s, pc->cpu) != me.pid) {
		bg_wake(s, pc->cpu, &me, pc->cpu, t);
		bg_switch(s, pc->cpu, &me, false, t);
	}
	start = *t > now ? *t : now;
	work = cfg(s)->work * FREQ_TOP / s->dg.khz;
	s->dg.slow = s->dg.khz < FREQ_TOP;
	s->dg.working = true;
	heap_push(&s->heap, start + work, ACT_SUBMIT, p);
	return false;
}

/*
 * A GPU completion at @now on a CPU in an interrupt storm: handled late.
 * Return true when the done action was postponed.
 */
bool diag_done_delay(struct gen_sim *s, int j, uint64_t now)
{
	struct gen_job *J = &s->jobs[j];
	uint64_t end, delay;

	if (cfg(s)->kind != DIAG_IRQ_STORM || J->cause || !in_window(s, now, &end) ||
	    end - now < MS(1))
		return false;
	delay = rng_range(&s->rng, MS(2), MS(5));
	if (delay > end - now)
		delay = end - now;
	J->cause = DIAG_IRQ_STORM;
	heap_push(&s->heap, now + delay, ACT_DONE, j);
	return true;
}

/* irq / softirq time per CPU, from the events written */
void diag_account(struct gen_sim *s, enum gen_ev ev, int cpu, uint64_t ts)
{
	struct gen_irq_acct *a = &s->dg.acct[cpu];

	switch (ev) {
	case EV_IRQ_ENTRY:
		a->hard_open = ts;
		break;
	case EV_IRQ_EXIT:
		if (a->hard_open) {
			a->hard_ns += ts - a->hard_open;
			a->hard_n++;
			a->hard_open = 0;
		}
		break;
	case EV_SOFTIRQ_ENTRY:
		a->soft_open = ts;
		break;
	case EV_SOFTIRQ_EXIT:
		if (a->soft_open) {
			a->soft_ns += ts - a->soft_open;
			a->soft_n++;
			a->soft_open = 0;
		}
		break;
	default:
		break;
	}
}

void diag_cmdlines(const struct gen_sim *s, FILE *fp)
{
	if (cfg(s)->kind == DIAG_CPU_HOG)
		fprintf(fp, "%d %s\n", HOG_PID, HOG_COMM);
}

/* ---- truth ---------------------------------------------------------------- */

const char *diag_cause_name(int kind)
{
	switch (kind) {
	case DIAG_CPU_FREQ:	return "cpu_freq";
	case DIAG_IRQ_STORM:	return "irq_storm";
	case DIAG_CPU_HOG:	return "cpu_hog";
	default:		return NULL;
	}
}

static bool complete(const struct gen_job *J)
{
	return !J->lost && J->done_ts != GEN_NONE;
}

static uint64_t fp_value(const struct gen_job *J, int stage)
{
	if (!complete(J))
		return GEN_NONE;
	switch (stage) {
	case 0:
		return J->irq_ts ? J->done_ts - J->irq_ts : GEN_NONE;
	case 1:
		return J->signal_ts != GEN_NONE && J->signal_ts >= J->done_ts ?
		       J->signal_ts - J->done_ts : GEN_NONE;
	default:
		/* a waiter blocked before the signal and woken after it */
		if (J->signal_ts == GEN_NONE || !J->wstart_ts || !J->wend_ts ||
		    J->wstart_ts >= J->signal_ts || J->wend_ts < J->signal_ts)
			return GEN_NONE;
		return J->wend_ts - J->signal_ts;
	}
}

static json_object *u64_or_null(uint64_t v)
{
	return v == GEN_NONE ? NULL : json_object_new_uint64(v);
}

static const char * const fp_names[3] = { "irq_to_done", "done_to_signal", "signal_to_wait_end" };

void diag_job_json(const struct gen_sim *s, const struct gen_job *J, json_object *o)
{
	const char *cause = diag_cause_name(J->cause);
	int k;

	if (!cfg(s)->kind)
		return;
	json_object_object_add(o, "cause", cause ? json_object_new_string(cause) : NULL);
	/* what the cause delayed: the submission (a stall) or the completion */
	json_object_object_add(o, "cause_delays", !cause ? NULL : json_object_new_string(
				J->cause == DIAG_IRQ_STORM ? "completion" : "submission"));
	json_object_object_add(o, "irq_ts", J->irq_ts ? json_object_new_uint64(J->irq_ts) : NULL);
	json_object_object_add(o, "wait_start_ts", J->wstart_ts ?
			       json_object_new_uint64(J->wstart_ts) : NULL);
	json_object_object_add(o, "wait_end_ts", J->wend_ts ?
			       json_object_new_uint64(J->wend_ts) : NULL);
	for (k = 0; k < 3; k++)
		json_object_object_add(o, fp_names[k], u64_or_null(fp_value(J, k)));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* n, min, max, mean (floor), nearest-rank quantiles (docs/truth-format.md) */
static json_object *agg(uint64_t *v, int n)
{
	static const struct { const char *k; int pm; } q[] = {
		{ "p50", 500 }, { "p90", 900 }, { "p99", 990 }, { "p999", 999 },
	};
	json_object *o = json_object_new_object();
	unsigned __int128 sum = 0;
	int i;

	json_object_object_add(o, "n", json_object_new_int(n));
	if (!n)
		return o;
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++)
		sum += v[i];
	json_object_object_add(o, "min", json_object_new_uint64(v[0]));
	json_object_object_add(o, "max", json_object_new_uint64(v[n - 1]));
	json_object_object_add(o, "mean", json_object_new_uint64((uint64_t)(sum / (unsigned)n)));
	for (i = 0; i < 4; i++) {
		uint64_t rank = ((uint64_t)q[i].pm * (uint64_t)n + 999) / 1000;

		json_object_object_add(o, q[i].k, json_object_new_uint64(v[rank - 1]));
	}
	return o;
}

static void put(FILE *fp, const char *key, json_object *o)
{
	fprintf(fp, ",\n  \"%s\": %s", key, json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED));
	json_object_put(o);
}

/* the top-level diagnosis keys: "diag", "fence_path", "irq_load" */
void diag_truth_write(FILE *fp, const struct gen_sim *s)
{
	static const char * const kinds[] = { "none", "cpu_freq", "irq_storm", "cpu_hog" };
	uint64_t *v = malloc(sizeof(*v) * ((size_t)s->njobs + 1));
	uint64_t span = s->pages->last_ts - s->pages->first_ts;
	json_object *o, *a;
	int i, r, k, n, c;

	if (!v)
		abort();
	o = json_object_new_object();
	json_object_object_add(o, "kind", json_object_new_string(kinds[cfg(s)->kind]));
	json_object_object_add(o, "cpu", json_object_new_int(cfg(s)->cpu));
	json_object_object_add(o, "pid", json_object_new_int(s->pcfg[cfg(s)->proc].pid));
	a = json_object_new_array();
	for (i = 0; i < cfg(s)->nwin; i++) {
		json_object *w = json_object_new_object();

		json_object_object_add(w, "start_ts",
				       json_object_new_uint64(s->t0 + cfg(s)->win[i].start));
		json_object_object_add(w, "end_ts", json_object_new_uint64(s->t0 +
					cfg(s)->win[i].start + cfg(s)->win[i].len));
		json_object_array_add(a, w);
	}
	json_object_object_add(o, "windows", a);
	put(fp, "diag", o);

	o = json_object_new_object();
	json_object_object_add(o, "gpu_irq", json_object_new_int(s->sc->devs[0].irq));
	a = json_object_new_array();
	for (r = 0; r < s->sc->nrings; r++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "dev", json_object_new_string(
			s->sc->era == ERA_617 ? s->sc->devs[s->sc->rings[r].dev].name : ""));
		json_object_object_add(e, "ring", json_object_new_string(s->sc->rings[r].name));
		for (k = 0; k < 3; k++) {
			for (i = n = 0; i < s->njobs; i++) {
				uint64_t x = s->jobs[i].ring == r ? fp_value(&s->jobs[i], k) : GEN_NONE;

				if (x != GEN_NONE)
					v[n++] = x;
			}
			json_object_object_add(e, fp_names[k], agg(v, n));
		}
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "rings", a);
	put(fp, "fence_path", o);

	a = json_object_new_array();
	for (c = 0; c < s->sc->cpus; c++) {
		const struct gen_irq_acct *ac = &s->dg.acct[c];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "cpu", json_object_new_int(c));
		json_object_object_add(e, "hardirq_ns", json_object_new_uint64(ac->hard_ns));
		json_object_object_add(e, "softirq_ns", json_object_new_uint64(ac->soft_ns));
		json_object_object_add(e, "hardirq_pct", json_object_new_double(
			span ? 100.0 * (double)ac->hard_ns / (double)span : 0.0));
		json_object_object_add(e, "softirq_pct", json_object_new_double(
			span ? 100.0 * (double)ac->soft_ns / (double)span : 0.0));
		json_object_object_add(e, "hardirqs", json_object_new_uint64(ac->hard_n));
		json_object_object_add(e, "softirqs", json_object_new_uint64(ac->soft_n));
		json_object_array_add(a, e);
	}
	put(fp, "irq_load", a);
	free(v);
}
