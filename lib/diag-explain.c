// SPDX-License-Identifier: LGPL-2.1
/*
 * Hints: what the kept context shows around a stall or a slow job, each a
 * one-line sentence with timestamps and a score, the delay it can explain:
 *
 *   cpu_hog     the thread was runnable but another task held its CPU
 *               (sched_waking / preempted sched_switch -> sched_switch in)
 *   irq_storm   hardirq + softirq time on the CPU in the window
 *   cpu_freq    the CPU ran below the top frequency seen on it:
 *               sum of (time at f) * (1 - f / f_top)
 *   fence_wait  the submitter was blocked in dma_fence_wait
 *   dep_wait    the job waited for its dependencies (the tracker's dep_wait)
 *
 * Hints are sorted by score, most likely cause first. For a stall (a process
 * submitted nothing for longer than the threshold) the CPU-side hints only
 * count from the submitter's last wakeup: irq time while it slept delays
 * nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag-int.h"

#define DG_MIN_SCORE	20000ULL	/* ns */

static const char * const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
	"HRTIMER", "RCU",
};

static struct gpulat_hint *hint_new(struct gpulat_explain *x, enum gpulat_cause cause,
				    uint64_t score, uint64_t from, uint64_t to, int cpu)
{
	struct gpulat_hint *h;
	unsigned int i, min = 0;

	if (x->n < GPULAT_DIAG_MAX_HINTS) {
		h = &x->h[x->n++];
	} else {
		/* full: replace the weakest if this one is stronger */
		for (i = 1; i < x->n; i++)
			if (x->h[i].score < x->h[min].score)
				min = i;
		if (x->h[min].score >= score)
			return NULL;
		h = &x->h[min];
	}
	memset(h, 0, sizeof(*h));
	h->cause = cause;
	h->score = score;
	h->from_ts = from;
	h->to_ts = to;
	h->cpu = cpu;
	return h;
}

static int cmp_hint(const void *a, const void *b)
{
	const struct gpulat_hint *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return (int)x->cause - (int)y->cause;
}

/*
 * Sort, most likely first, and drop what cannot matter: less than 20 us or
 * less than 5% of the window.
 */
void dg_explain_sort(struct gpulat_explain *x)
{
	uint64_t span = x->to_ts > x->from_ts ? x->to_ts - x->from_ts : 0;
	uint64_t min = span / 20 > DG_MIN_SCORE ? span / 20 : DG_MIN_SCORE;
	unsigned int i, n = 0;

	for (i = 0; i < x->n; i++)
		if (x->h[i].score >= min)
			x->h[n++] = x->h[i];
	x->n = n;
	qsort(x->h, x->n, sizeof(x->h[0]), cmp_hint);
}

static void note_partial(const struct gpulat_diag *d, const struct dg_ring *r,
			 uint64_t from, struct gpulat_explain *x)
{
	if (r->dropped_to && r->dropped_to >= from)
		x->partial = true;
	(void)d;
}

/* ---- runnable but not running ---------------------------------------------- */

static void runq_hint(struct gpulat_diag *d, int file, int pid, uint64_t from, uint64_t to,
		      const char *who, struct gpulat_explain *x)
{
	const struct dg_task *t = dg_task_find(d, file, pid);
	uint64_t sum = 0, best = 0, bs = 0, be = 0;
	int bcpu = -1, bwho = -1;
	struct gpulat_hint *h;
	char a[32], b[32], c1[48], c2[48], dur[16], bdur[16];
	size_t i;

	if (!t)
		return;
	note_partial(d, &t->runq, from, x);
	for (i = 0; i < t->runq.n; i++) {
		const struct dg_iv *iv = dg_ring_at(&t->runq, i);
		uint64_t o = dg_overlap(iv->start, iv->end, from, to);

		sum += o;
		if (o > best) {
			best = o;
			bs = iv->start;
			be = iv->end;
			bcpu = iv->what;
			bwho = iv->who;
		}
	}
	if (t->runnable_since != GPULAT_NONE && t->runnable_since < to) {
		uint64_t o = dg_overlap(t->runnable_since, to, from, to);

		sum += o;
		if (o > best) {
			best = o;
			bs = t->runnable_since;
			be = to;
			bcpu = t->runnable_cpu;
			bwho = -1;
		}
	}
	if (!sum)
		return;
	h = hint_new(x, GPULAT_CAUSE_CPU_HOG, sum, bs, be, bcpu);
	if (!h)
		return;
	gpulat_fmt_duration(dur, sizeof(dur), sum);
	gpulat_fmt_duration(bdur, sizeof(bdur), best);
	dg_comm(d, file, pid, c1, sizeof(c1));
	if (bwho >= 0)
		dg_comm(d, file, bwho, c2, sizeof(c2));
	else
		snprintf(c2, sizeof(c2), "other tasks");
	snprintf(h->text, sizeof(h->text),
		 "%s %s runnable but not running for %s (longest %s, %s-%s on CPU %d, held by %s)",
		 who, c1, dur, bdur, dg_fmt_ts(a, sizeof(a), bs), dg_fmt_ts(b, sizeof(b), be),
		 bcpu, c2);
}

/* ---- irq and softirq time ------------------------------------------------- */

/* the GPU's own interrupt (its handler traced done events) is not a cause */
static bool is_gpu_irq(struct gpulat_diag *d, int irq)
{
	size_t i;

	if (d->o.gpu_irq >= 0)
		return irq == d->o.gpu_irq;
	for (i = 0; i < d->nirqc; i++)
		if (d->irqc[i].irq == irq)
			return d->irqc[i].n > 0 ||
			       (d->o.gpu_irq_name && !strcmp(d->irqc[i].name, d->o.gpu_irq_name));
	return false;
}

static void irq_hint(struct gpulat_diag *d, int cpu, uint64_t from, uint64_t to,
		     const char *what, struct gpulat_explain *x)
{
	struct dg_cpu *c;
	uint64_t hard = 0, soft = 0, top_t = 0, sv_t[10] = { 0 };
	unsigned int hard_n = 0, soft_n = 0, top_n = 0;
	int top = -1, sv = -1;
	struct gpulat_hint *h;
	struct { int irq; uint64_t t; unsigned int n; } per[16];
	size_t nper = 0, i, k;
	char a[32], b[32], dh[16], ds[16], win[16], name[64];
	struct dg_irqcount *ic;

	if (cpu < 0 || cpu >= d->ncpus || to <= from)
		return;
	c = &d->cpus[cpu];
	note_partial(d, &c->hard, from, x);
	for (i = 0; i < c->hard.n; i++) {
		const struct dg_iv *iv = dg_ring_at(&c->hard, i);
		uint64_t o = dg_overlap(iv->start, iv->end, from, to);

		if (!o || is_gpu_irq(d, iv->what))
			continue;
		hard += o;
		hard_n++;
		for (k = 0; k < nper && per[k].irq != iv->what; k++)
			;
		if (k == nper && nper < 16) {
			per[k].irq = iv->what;
			per[k].t = 0;
			per[k].n = 0;
			nper++;
		}
		if (k < nper) {
			per[k].t += o;
			per[k].n++;
		}
	}
	for (k = 0; k < nper; k++) {
		if (per[k].t > top_t) {
			top_t = per[k].t;
			top = per[k].irq;
			top_n = per[k].n;
		}
	}
	for (i = 0; i < c->soft.n; i++) {
		const struct dg_iv *iv = dg_ring_at(&c->soft, i);
		uint64_t o = dg_overlap(iv->start, iv->end, from, to);

		if (!o)
			continue;
		soft += o;
		soft_n++;
		if (iv->what >= 0 && iv->what < 10)
			sv_t[iv->what] += o;
	}
	for (k = 0; k < 10; k++)
		if (sv_t[k] && (sv < 0 || sv_t[k] > sv_t[sv]))
			sv = (int)k;
	if (!hard && !soft)
		return;
	h = hint_new(x, GPULAT_CAUSE_IRQ, hard + soft, from, to, cpu);
	if (!h)
		return;
	ic = top >= 0 ? dg_irq_get(d, top) : NULL;
	if (top >= 0)
		snprintf(name, sizeof(name), ", most irq %d%s%s x%u", top,
			 ic && ic->name[0] ? " " : "", ic ? ic->name : "", top_n);
	else
		name[0] = '\0';
	gpulat_fmt_duration(dh, sizeof(dh), hard);
	gpulat_fmt_duration(ds, sizeof(ds), soft);
	gpulat_fmt_duration(win, sizeof(win), to - from);
	snprintf(h->text, sizeof(h->text),
		 "CPU %d (%s) spent %.0f%% of %s..%s in interrupts: hardirq %s (%u%s), "
		 "softirq %s (%u%s%s)", cpu, what, 100.0 * (double)(hard + soft) / (double)(to - from),
		 dg_fmt_ts(a, sizeof(a), from), dg_fmt_ts(b, sizeof(b), to), dh, hard_n, name, ds,
		 soft_n, sv >= 0 ? ", most " : "", sv >= 0 ? softirq_names[sv] : "");
}

/* ---- CPU frequency ------------------------------------------------------------ */

static void freq_hint(struct gpulat_diag *d, int cpu, uint64_t from, uint64_t to,
		      const char *what, struct gpulat_explain *x)
{
	struct dg_cpu *c;
	uint64_t khz = 0, t = from, lost = 0, low_t = 0, min_khz = UINT64_MAX, drop_ts = GPULAT_NONE;
	double fl;
	struct gpulat_hint *h;
	size_t i;
	char a[32], b[32], dl[16], dw[16];

	if (cpu < 0 || cpu >= d->ncpus || to <= from)
		return;
	c = &d->cpus[cpu];
	if (!c->freq.n || !c->max_khz)
		return;
	/* the frequency at @from: the newest change before it */
	for (i = 0; i < c->freq.n; i++) {
		const struct dg_freq *f = dg_ring_at(&c->freq, i);

		if (f->ts > from)
			break;
		khz = f->khz;
		if (f->prev_khz > f->khz)
			drop_ts = f->ts;
	}
	if (i == 0) {
		const struct dg_freq *f = dg_ring_at(&c->freq, 0);

		khz = f->prev_khz;
	}
	for (;; i++) {
		const struct dg_freq *f = i < c->freq.n ? dg_ring_at(&c->freq, i) : NULL;
		uint64_t end = f && f->ts < to ? f->ts : to;

		if (khz && khz < c->max_khz && end > t) {
			fl = (double)(end - t) * (1.0 - (double)khz / (double)c->max_khz);
			lost += (uint64_t)fl;
			low_t += end - t;
			if (khz < min_khz)
				min_khz = khz;
		}
		if (!f || f->ts >= to)
			break;
		t = f->ts;
		if (f->prev_khz > f->khz)
			drop_ts = f->ts;
		khz = f->khz;
	}
	if (!lost)
		return;
	h = hint_new(x, GPULAT_CAUSE_CPU_FREQ, lost, drop_ts != GPULAT_NONE ? drop_ts : from, to, cpu);
	if (!h)
		return;
	gpulat_fmt_duration(dl, sizeof(dl), low_t);
	gpulat_fmt_duration(dw, sizeof(dw), to - from);
	snprintf(h->text, sizeof(h->text),
		 "CPU %d (%s) ran at %llu MHz (top seen %llu MHz) for %s of %s; "
		 "frequency dropped at %s, window ends %s",
		 cpu, what, (unsigned long long)(min_khz / 1000),
		 (unsigned long long)(c->max_khz / 1000), dl, dw,
		 drop_ts != GPULAT_NONE ? dg_fmt_ts(a, sizeof(a), drop_ts) : "(before the window)",
		 dg_fmt_ts(b, sizeof(b), to));
}

/* ---- dma_fence waits of the submitter --------------------------------------------- */

static void fwait_hint(struct gpulat_diag *d, int file, int pid, uint64_t from, uint64_t to,
		       struct gpulat_explain *x)
{
	const struct dg_task *t = dg_task_find(d, file, pid);
	uint64_t sum = 0, best = 0, bs = 0, be = 0;
	unsigned int n = 0, bseq = 0, bctx = 0;
	struct gpulat_hint *h;
	char a[32], b[32], c1[48], dur[16];
	size_t i;

	if (!t)
		return;
	note_partial(d, &t->fwait, from, x);
	for (i = 0; i < t->fwait.n; i++) {
		const struct dg_iv *iv = dg_ring_at(&t->fwait, i);
		uint64_t o = dg_overlap(iv->start, iv->end, from, to);

		if (!o)
			continue;
		sum += o;
		n++;
		if (o > best) {
			best = o;
			bs = iv->start;
			be = iv->end;
			bseq = (unsigned int)iv->what;
			bctx = (unsigned int)iv->who;
		}
	}
	if (t->in_fwait && t->fwait_ts < to) {
		uint64_t o = dg_overlap(t->fwait_ts, to, from, to);

		sum += o;
		n++;
		if (o > best) {
			best = o;
			bs = t->fwait_ts;
			be = to;
			bseq = (unsigned int)t->fwait_seqno;
			bctx = (unsigned int)t->fwait_ctx;
		}
	}
	if (!sum)
		return;
	h = hint_new(x, GPULAT_CAUSE_FENCE_WAIT, sum, bs, be, -1);
	if (!h)
		return;
	gpulat_fmt_duration(dur, sizeof(dur), sum);
	snprintf(h->text, sizeof(h->text),
		 "%s blocked in dma_fence_wait for %s (%u wait%s; longest on fence %u:%u, %s-%s)",
		 dg_comm(d, file, pid, c1, sizeof(c1)), dur, n, n == 1 ? "" : "s", bctx, bseq,
		 dg_fmt_ts(a, sizeof(a), bs), dg_fmt_ts(b, sizeof(b), be));
}

/* ---- windows ---------------------------------------------------------------------- */

/* the submitter's last wakeup inside the window, else the window start */
static uint64_t active_from(struct gpulat_diag *d, int file, int pid, uint64_t from, uint64_t to)
{
	const struct dg_task *t = dg_task_find(d, file, pid);

	if (t && t->active_since != GPULAT_NONE && t->active_since > from && t->active_since < to)
		return t->active_since;
	return from;
}

void dg_explain_window(struct gpulat_diag *d, int file, int pid, int cpu, uint64_t from,
		       uint64_t to, struct gpulat_explain *x)
{
	uint64_t act = active_from(d, file, pid, from, to);

	memset(x, 0, sizeof(*x));
	x->from_ts = from;
	x->to_ts = to;
	x->pid = pid;
	x->cpu = cpu;
	if (d->now > d->o.window_ns && from < d->now - d->o.window_ns)
		x->partial = true;
	runq_hint(d, file, pid, from, to, "submitter", x);
	irq_hint(d, cpu, act, to, "submitting CPU", x);
	freq_hint(d, cpu, act, to, "submitting CPU", x);
	fwait_hint(d, file, pid, from, to, x);
	dg_explain_sort(x);
}

/* the task that traced the run event of the job (the scheduler worker) */
static int run_pid(const struct gpulat_diag *d, int cpu, uint64_t ts)
{
	const struct dg_cpu *c;
	size_t i;

	if (cpu < 0 || cpu >= d->ncpus || ts == GPULAT_NONE)
		return -1;
	c = &d->cpus[cpu];
	for (i = c->runs.n; i-- > 0;) {
		const struct dg_run *r = dg_ring_at(&c->runs, i);

		if (r->ts == ts)
			return r->pid;
		if (r->ts < ts)
			break;
	}
	return -1;
}

static void dep_hint(struct gpulat_diag *d, const struct gpulat_job *job, struct gpulat_explain *x)
{
	struct gpulat_hint *h;
	char a[32], b[32], dur[16];
	const struct gpulat_dep *dep = job->n_deps && job->deps ? &job->deps[0] : NULL;
	uint64_t q = job->ts[GPULAT_ST_QUEUE];

	(void)d;
	if (job->dep_wait == GPULAT_NONE || !job->dep_wait)
		return;
	h = hint_new(x, GPULAT_CAUSE_DEP_WAIT, job->dep_wait, q, q + job->dep_wait, -1);
	if (!h)
		return;
	gpulat_fmt_duration(dur, sizeof(dur), job->dep_wait);
	snprintf(h->text, sizeof(h->text),
		 "waited %s for %u dependenc%s (%s%s%s fence %llu:%llu), %s-%s", dur, job->n_deps,
		 job->n_deps == 1 ? "y" : "ies",
		 dep && dep->ring ? "ring " : "", dep && dep->ring ? dep->ring : "",
		 dep && dep->ring ? "," : "",
		 dep ? (unsigned long long)dep->ctx : 0ULL,
		 dep ? (unsigned long long)dep->seqno : 0ULL,
		 dg_fmt_ts(a, sizeof(a), q), dg_fmt_ts(b, sizeof(b), q + job->dep_wait));
}

/* hints for one job: why it waited, why it finished late */
void dg_explain_job(struct gpulat_diag *d, const struct gpulat_job *job, struct gpulat_explain *x)
{
	uint64_t q = job->ts[GPULAT_ST_QUEUE], r = job->ts[GPULAT_ST_RUN];
	uint64_t done = job->ts[GPULAT_ST_DONE];
	int rcpu = job->cpu[GPULAT_ST_RUN], dcpu = job->cpu[GPULAT_ST_DONE], wpid;

	memset(x, 0, sizeof(*x));
	x->pid = job->pid;
	x->cpu = job->cpu[GPULAT_ST_QUEUE];
	if (q == GPULAT_NONE)
		q = r != GPULAT_NONE ? r : done;
	if (done == GPULAT_NONE)
		done = d->now;
	x->from_ts = q;
	x->to_ts = done;
	if (q == GPULAT_NONE)
		return;
	if (d->now > d->o.window_ns && q < d->now - d->o.window_ns)
		x->partial = true;
	dep_hint(d, job, x);
	if (r != GPULAT_NONE && r > q) {
		uint64_t act = q;

		/* the worker's CPU matters from its last wakeup on, not while it slept */
		wpid = run_pid(d, rcpu, r);
		if (wpid > 0) {
			runq_hint(d, job->file, wpid, q, r, "scheduler worker", x);
			act = active_from(d, job->file, wpid, q, r);
		}
		if (rcpu != dcpu)
			irq_hint(d, rcpu, act, r, "scheduler worker CPU", x);
		freq_hint(d, rcpu, act, r, "scheduler worker CPU", x);
	}
	irq_hint(d, dcpu, q, done, "GPU interrupt CPU", x);
	dg_explain_sort(x);
}

/* ---- kept explanations ------------------------------------------------------------ */

/* shortest gap on top; on equal gaps the later stall: lib/stats.c's order */
static bool dg_stall_less(const void *x, const void *y)
{
	const struct dg_stall *a = x, *b = y;
	uint64_t ga = a->end_ts - a->start_ts, gb = b->end_ts - b->start_ts;

	if (ga != gb)
		return ga < gb;
	return a->start_ts > b->start_ts;
}

int dg_stalls_init(struct gpulat_diag *d)
{
	return gpulat__topk_init(&d->stalls, sizeof(struct dg_stall), GPULAT_DIAG_STALLS_KEPT,
				 dg_stall_less);
}

/*
 * Keep the explanations of the GPULAT_DIAG_STALLS_KEPT longest gaps (was:
 * the first 65536, ~140 MB, and none for a long stall late in a trace with
 * more); lookups scan them.
 */
static int stall_keep(struct gpulat_diag *d, const struct dg_stall *st)
{
	if (d->stalls.n == d->stalls.max)
		d->stalls_dropped++;
	return gpulat__topk_add(&d->stalls, st) < 0 ? -ENOMEM : 0;
}

uint64_t gpulat_diag_stalls_dropped(const struct gpulat_diag *d)
{
	return d ? d->stalls_dropped : 0;
}

/*
 * A job gpulat_stats just put into its worst list: keep its explanation,
 * from the context as it is now (the job has just finished). At most
 * 2 top_n + 16 are kept, the smallest metric goes: a job of the final top_n
 * could only go for more than top_n larger ones, so every job the report
 * lists keeps its explanation.
 */
int gpulat__diag_worst(struct gpulat_diag *d, const struct gpulat_job *job)
{
	size_t cap = 2 * (size_t)d->o.top_n + 16, i, min = 0;
	uint64_t m = gpulat__job_metric(job, d->o.worst_by);
	struct dg_worst *w;

	if (!d->o.top_n || m == GPULAT_NONE)
		return 0;
	if (!d->worst) {
		d->worst = calloc(cap, sizeof(*d->worst));
		if (!d->worst)
			return -ENOMEM;
		d->capworst = cap;
	}
	if (d->nworst < d->capworst) {
		w = &d->worst[d->nworst++];
	} else {
		for (i = 1; i < d->nworst; i++)
			if (d->worst[i].metric < d->worst[min].metric)
				min = i;
		if (d->worst[min].metric >= m)
			return 0;
		w = &d->worst[min];
	}
	w->seq = job->seq;
	w->metric = m;
	dg_explain_job(d, job, &w->x);
	return 0;
}

/* a ring-idle gap ended by @job: its submitter until it queued, and its own wait */
static void explain_ring_idle(struct gpulat_diag *d, const struct gpulat__gap *g,
			      struct dg_stall *st)
{
	const struct gpulat_job *job = g->job;
	uint64_t q = job->ts[GPULAT_ST_QUEUE];
	struct gpulat_explain jx;
	unsigned int i;

	if (q != GPULAT_NONE && q > g->from)
		dg_explain_window(d, job->file, job->pid, job->cpu[GPULAT_ST_QUEUE], g->from, q,
				  &st->x);
	else
		memset(&st->x, 0, sizeof(st->x));
	st->x.from_ts = g->from;
	st->x.to_ts = g->to;
	st->x.pid = job->pid;
	/* and why the job itself waited before it started */
	dg_explain_job(d, job, &jx);
	for (i = 0; i < jx.n; i++) {
		struct gpulat_hint *h;

		if (jx.h[i].cause == GPULAT_CAUSE_IRQ && jx.h[i].cpu == job->cpu[GPULAT_ST_DONE])
			continue; /* completion side: not why the ring idled */
		h = hint_new(&st->x, jx.h[i].cause, jx.h[i].score, 0, 0, 0);
		if (h)
			*h = jx.h[i];
	}
	st->x.partial |= jx.partial;
	dg_explain_sort(&st->x);
}

/*
 * A gap over the threshold just ended (gpulat_stats says so, at its end):
 * explain it from the context as the trace shows it now, and keep the
 * explanation for the stall verdict of the statistics (gpulat_diag_stall_explain()).
 */
int gpulat__diag_gap(struct gpulat_diag *d, const struct gpulat__gap *g)
{
	struct dg_stall st = {
		.kind = g->kind,
		.pid = g->pid,
		.start_ts = g->from,
		.end_ts = g->to,
	};

	if (g->kind == GPULAT_STALL_SUBMIT_GAP) {
		dg_explain_window(d, g->file, g->pid, g->cpu, g->from, g->to, &st.x);
	} else {
		st.dev = gpulat__strtab_intern(d->names, g->job->dev ? g->job->dev : "");
		st.ring = gpulat__strtab_intern(d->names, g->job->ring);
		if (!st.dev || !st.ring)
			return -ENOMEM;
		explain_ring_idle(d, g, &st);
	}
	return stall_keep(d, &st);
}

const struct gpulat_explain *gpulat_diag_stall_explain(const struct gpulat_diag *d,
							const struct gpulat_stall *st)
{
	size_t i;

	if (!d || !st)
		return NULL;
	for (i = 0; i < d->stalls.n; i++) {
		const struct dg_stall *s = (const struct dg_stall *)d->stalls.v + i;

		if (s->kind != st->kind || s->end_ts != st->end_ts)
			continue;
		if (s->kind == GPULAT_STALL_SUBMIT_GAP && s->pid != st->pid)
			continue;
		if (s->kind == GPULAT_STALL_RING_IDLE &&
		    (!st->ring || strcmp(s->ring, st->ring) ||
		     strcmp(s->dev, st->dev ? st->dev : "")))
			continue;
		return &s->x;
	}
	return NULL;
}

void gpulat_diag_explain_now(struct gpulat_diag *d, const struct gpulat_job *job,
			     struct gpulat_explain *out)
{
	dg_explain_job(d, job, out);
}

const struct gpulat_explain *gpulat_diag_job_explain(const struct gpulat_diag *d, uint64_t seq)
{
	size_t i;

	if (!d)
		return NULL;
	for (i = 0; i < d->nworst; i++)
		if (d->worst[i].seq == seq)
			return &d->worst[i].x;
	return NULL;
}
