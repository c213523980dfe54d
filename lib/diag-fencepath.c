// SPDX-License-Identifier: LGPL-2.1
/*
 * The fence-signal path, per ring:
 *
 *   irq_to_done         irq_handler_entry of the GPU interrupt (the hardirq
 *                       open on the CPU when the done event is traced), or
 *                       the amdgpu_iv before it -> drm_sched_job_done /
 *                       drm_sched_process_job
 *   done_to_signal      done -> dma_fence_signaled of the finished fence
 *   signal_to_wait_end  signal -> dma_fence_wait_end of a waiter that was
 *                       blocked (its wait_start before the signal)
 *
 * The GPU irq is the one whose handler most often holds done events, unless
 * given by number or name; irq_to_done is accumulated per candidate irq so
 * the choice can be made at the end. Quantiles: the core's accumulator
 * (exact nearest rank up to GPULAT_EXACT_MAX values).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag-int.h"

#define IV_MAX_NS	1000000ULL	/* amdgpu_iv counts if at most 1 ms before done */
#define IRQ_IV		(-2)

const char *gpulat_fp_stage_name(enum gpulat_fp_stage st)
{
	switch (st) {
	case GPULAT_FP_IRQ_DONE:	return "irq_to_done";
	case GPULAT_FP_DONE_SIGNAL:	return "done_to_signal";
	case GPULAT_FP_SIGNAL_WAIT_END:	return "signal_to_wait_end";
	default:			return "?";
	}
}

static uint64_t fence_k1(int file, uint64_t ctx)
{
	return ((uint64_t)(unsigned int)file << 40) | (ctx & 0xffffffffULL);
}

static void fence_prune(struct gpulat_diag *d)
{
	uint64_t lim = d->now > d->o.window_ns ? d->now - d->o.window_ns : 0;

	while (d->fence_fifo.n) {
		struct dg_fence_ref *r = dg_ring_at(&d->fence_fifo, 0);

		if (r->ts >= lim && d->fence_fifo.n < d->fence_fifo.max)
			break;
		if (!r->f->gone)
			gpulat__htab_remove(&d->fences, &r->f->node);
		free(r->f);
		d->fence_fifo.head = (d->fence_fifo.head + 1) % d->fence_fifo.cap;
		d->fence_fifo.n--;
	}
}

static struct dg_fence *fence_find(struct gpulat_diag *d, int file, uint64_t ctx, uint64_t seqno)
{
	struct gpulat__hnode *n = gpulat__htab_find(&d->fences, fence_k1(file, ctx),
						    seqno & 0xffffffffULL);

	return n ? gpulat_container_of(n, struct dg_fence, node) : NULL;
}

static struct dg_fence *fence_get(struct gpulat_diag *d, int file, uint64_t ctx, uint64_t seqno)
{
	struct dg_fence *f = fence_find(d, file, ctx, seqno);
	struct dg_fence_ref *r;

	if (f)
		return f;
	fence_prune(d);
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->created = d->now;
	f->wait_start = f->wait_end = f->signal_ts = GPULAT_NONE;
	f->ring = -1;
	r = dg_ring_push(&d->fence_fifo);
	if (!r || gpulat__htab_insert(&d->fences, &f->node, fence_k1(file, ctx),
				      seqno & 0xffffffffULL) < 0) {
		if (r)
			d->fence_fifo.n--;
		free(f);
		return NULL;
	}
	r->ts = d->now;
	r->f = f;
	return f;
}

static int fence_try(struct gpulat_diag *d, struct dg_fence *f)
{
	if (f->sampled || f->ring < 0 || f->signal_ts == GPULAT_NONE ||
	    f->wait_start == GPULAT_NONE || f->wait_end == GPULAT_NONE)
		return 0;
	if (f->wait_start >= f->signal_ts || f->wait_end < f->signal_ts)
		return 0;
	f->sampled = true;
	return gpulat__qacc_add(&d->fp[f->ring].q[GPULAT_FP_SIGNAL_WAIT_END],
				f->wait_end - f->signal_ts, f->wait_end, -1, 0);
}

int dg_fp_feed(struct gpulat_diag *d, const struct gpulat_event *ev)
{
	struct dg_cpu *c;
	struct dg_fence *f;
	struct dg_done *dn;
	struct dg_irqcount *ic;

	switch (ev->kind) {
	case GPULAT_EV_DONE:
		c = dg_cpu_get(d, ev->cpu);
		if (!c)
			return -ENOMEM;
		d->done_events++;
		dn = dg_ring_push(&c->dones);
		if (!dn)
			return -ENOMEM;
		dn->ts = ev->ts;
		dn->irq = c->in_hard ? c->hard_irq : -1;
		dn->irq_ts = c->in_hard ? c->hard_ts : GPULAT_NONE;
		dn->iv_ts = c->iv_ts != GPULAT_NONE && ev->ts >= c->iv_ts &&
			    ev->ts - c->iv_ts <= IV_MAX_NS ? c->iv_ts : GPULAT_NONE;
		if (c->in_hard) {
			ic = dg_irq_get(d, c->hard_irq);
			if (!ic)
				return -ENOMEM;
			ic->n++;
		}
		if (dn->iv_ts != GPULAT_NONE)
			d->done_iv++;
		return 0;
	case GPULAT_EV_AMD_IV:
		c = dg_cpu_get(d, ev->cpu);
		if (!c)
			return -ENOMEM;
		c->iv_ts = ev->ts;
		d->has_iv = true;
		return 0;
	case GPULAT_EV_FENCE_WAIT_START:
		f = fence_get(d, ev->file, ev->ctx, ev->seqno);
		if (!f)
			return -ENOMEM;
		if (f->wait_start == GPULAT_NONE)
			f->wait_start = ev->ts;
		return 0;
	case GPULAT_EV_FENCE_WAIT_END:
		f = fence_find(d, ev->file, ev->ctx, ev->seqno);
		if (!f || f->wait_start == GPULAT_NONE || f->wait_end != GPULAT_NONE)
			return 0;
		f->wait_end = ev->ts;
		return fence_try(d, f);
	default:
		return 0;
	}
}

static int fp_ring(struct gpulat_diag *d, const struct gpulat_job *job)
{
	const char *dev = job->dev ? job->dev : "", *ring = job->ring ? job->ring : "?";
	struct dg_fp_ring *v;
	long i;
	int k;

	if (d->nfp == d->capfp) {
		size_t cap = d->capfp ? d->capfp * 2 : 16;

		v = realloc(d->fp, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		d->fp = v;
		d->capfp = cap;
	}
	/* -ENOSPC over the ring cap (dg_rmap_get()) */
	i = dg_rmap_get(d, &d->fp_map, job->file, dev, ring);
	if (i < 0 || (size_t)i < d->nfp)
		return (int)i;
	v = &d->fp[d->nfp];
	memset(v, 0, sizeof(*v));
	v->dev = gpulat__strtab_intern(d->names, dev);
	v->ring = gpulat__strtab_intern(d->names, ring);
	v->file = job->file;
	if (!v->dev || !v->ring)
		return -ENOMEM;
	for (k = 0; k < GPULAT_FP__COUNT; k++)
		gpulat__qacc_init(&v->q[k]);
	return (int)d->nfp++;
}

static int irq_sample(struct dg_fp_ring *r, int irq, uint64_t v, uint64_t ts, int cpu)
{
	struct dg_fp_irq *n;
	size_t i;

	for (i = 0; i < r->nirqs; i++)
		if (r->irqs[i].irq == irq)
			return gpulat__qacc_add(&r->irqs[i].q, v, ts, cpu, 0);
	if (r->nirqs >= DG_FP_IRQS_MAX)
		return 0;
	n = realloc(r->irqs, (r->nirqs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	r->irqs = n;
	n[r->nirqs].irq = irq;
	gpulat__qacc_init(&n[r->nirqs].q);
	return gpulat__qacc_add(&n[r->nirqs++].q, v, ts, cpu, 0);
}

int dg_fp_job(struct gpulat_diag *d, const struct gpulat_job *job)
{
	uint64_t done = job->ts[GPULAT_ST_DONE], sig = job->ts[GPULAT_ST_SIGNAL];
	int dcpu = job->cpu[GPULAT_ST_DONE], ri, ret;
	struct dg_fp_ring *r;
	struct dg_fence *f;
	size_t i;

	if (job->status != GPULAT_JOB_COMPLETE || done == GPULAT_NONE)
		return 0;
	ri = fp_ring(d, job);
	if (ri < 0)
		return ri == -ENOSPC ? 0 : ri;
	r = &d->fp[ri];
	if (dcpu >= 0 && dcpu < d->ncpus) {
		const struct dg_cpu *c = &d->cpus[dcpu];

		for (i = c->dones.n; i-- > 0;) {
			const struct dg_done *dn = dg_ring_at(&c->dones, i);

			if (dn->ts < done)
				break;
			if (dn->ts != done)
				continue;
			if (dn->irq >= 0 && (ret = irq_sample(r, dn->irq, done - dn->irq_ts,
							      done, dcpu)) < 0)
				return ret;
			if (dn->iv_ts != GPULAT_NONE &&
			    (ret = irq_sample(r, IRQ_IV, done - dn->iv_ts, done, dcpu)) < 0)
				return ret;
			break;
		}
	}
	if (sig == GPULAT_NONE || sig < done)
		return 0;
	ret = gpulat__qacc_add(&r->q[GPULAT_FP_DONE_SIGNAL], sig - done, sig,
			       job->cpu[GPULAT_ST_SIGNAL], job->seq);
	if (ret < 0 || job->ctx == GPULAT_NONE || job->seqno == GPULAT_NONE)
		return ret;
	f = fence_get(d, job->file, job->ctx, job->seqno);
	if (!f)
		return -ENOMEM;
	f->signal_ts = sig;
	f->ring = ri;
	return fence_try(d, f);
}

/* does the gpu_irq (number) or gpu_irq_name option name @ic */
static bool irq_named(const struct gpulat_diag *d, const struct dg_irqcount *ic)
{
	if (d->o.gpu_irq >= 0)
		return ic->irq == d->o.gpu_irq;
	return d->o.gpu_irq_name && !strcmp(ic->name, d->o.gpu_irq_name);
}

static void choose_irq(struct gpulat_diag *d)
{
	struct gpulat_gpu_irq *g = &d->gpu_irq;
	size_t i;

	memset(g, 0, sizeof(*g));
	g->irq = -1;
	g->name = "";
	g->done_events = d->done_events;
	if (d->o.gpu_irq >= 0 || d->o.gpu_irq_name) {
		for (i = 0; i < d->nirqc; i++) {
			if (irq_named(d, &d->irqc[i]))
				break;
		}
		g->source = GPULAT_IRQSRC_OPTION;
		if (i < d->nirqc) {
			g->irq = d->irqc[i].irq;
			g->name = d->irqc[i].name;
			g->done_inside = d->irqc[i].n;
		} else {
			g->irq = d->o.gpu_irq;
			g->name = d->o.gpu_irq_name ? d->o.gpu_irq_name : "";
		}
		return;
	}
	for (i = 0; i < d->nirqc; i++) {
		if (d->irqc[i].n > g->done_inside) {
			g->done_inside = d->irqc[i].n;
			g->irq = d->irqc[i].irq;
			g->name = d->irqc[i].name;
			g->source = GPULAT_IRQSRC_AUTO;
		}
	}
	if (g->source == GPULAT_IRQSRC_NONE && d->done_iv) {
		g->source = GPULAT_IRQSRC_AMDGPU_IV;
		g->done_inside = d->done_iv;
	}
}

void dg_fp_finish(struct gpulat_diag *d)
{
	size_t i, k;
	int want, s;

	choose_irq(d);
	want = d->gpu_irq.source == GPULAT_IRQSRC_AMDGPU_IV ? IRQ_IV : d->gpu_irq.irq;
	for (i = 0; i < d->nfp; i++) {
		struct dg_fp_ring *r = &d->fp[i];

		r->out.dev = r->dev;
		r->out.ring = r->ring;
		r->out.file = r->file;
		for (k = 0; k < r->nirqs; k++) {
			if (d->gpu_irq.source != GPULAT_IRQSRC_NONE && r->irqs[k].irq == want) {
				gpulat__qacc_summary(&r->irqs[k].q, &r->out.s[GPULAT_FP_IRQ_DONE]);
				break;
			}
		}
		if (k == r->nirqs)
			gpulat__qacc_summary(&r->q[GPULAT_FP_IRQ_DONE], &r->out.s[GPULAT_FP_IRQ_DONE]);
		for (s = GPULAT_FP_DONE_SIGNAL; s < GPULAT_FP__COUNT; s++)
			gpulat__qacc_summary(&r->q[s], &r->out.s[s]);
	}
}

void dg_fp_free(struct gpulat_diag *d)
{
	size_t i, k;
	int s;

	for (i = 0; i < d->nfp; i++) {
		for (k = 0; k < d->fp[i].nirqs; k++)
			gpulat__qacc_fini(&d->fp[i].irqs[k].q);
		free(d->fp[i].irqs);
		for (s = 0; s < GPULAT_FP__COUNT; s++)
			gpulat__qacc_fini(&d->fp[i].q[s]);
	}
	free(d->fp);
	while (d->fence_fifo.n) {
		struct dg_fence_ref *r = dg_ring_at(&d->fence_fifo, 0);

		free(r->f);
		d->fence_fifo.head = (d->fence_fifo.head + 1) % d->fence_fifo.cap;
		d->fence_fifo.n--;
	}
	dg_ring_fini(&d->fence_fifo);
	gpulat__htab_fini(&d->fences);
}

size_t gpulat_diag_nirqs(const struct gpulat_diag *d)
{
	return d->nirqc;
}

int gpulat_diag_irq_at(const struct gpulat_diag *d, size_t i, const char **name)
{
	if (i >= d->nirqc)
		return -1;
	if (name)
		*name = d->irqc[i].name;
	return d->irqc[i].irq;
}

/**
 * gpulat_diag_caps_hit - what the diagnosis stopped following at its caps
 * @d: diagnosis state
 * @buf: one line saying it, when true
 * @len: size of @buf
 *
 * Return: true when more tasks, rings or irq numbers than the caps
 * (lib/caps.c, DG_IRQS_MAX) were seen: their jobs get fewer hints.
 */
bool gpulat_diag_caps_hit(const struct gpulat_diag *d, char *buf, size_t len)
{
	const char *sep = "";
	size_t off = 0;
	int w;

	if (!d || !len || (!d->tasks_dropped && !d->fp_map.dropped && !d->irqs_dropped))
		return false;
	w = snprintf(buf, len, "diagnosis memory cap hit, not followed:");
	off = w > 0 && (size_t)w < len ? (size_t)w : len - 1;
	if (d->tasks_dropped) {
		w = snprintf(buf + off, len - off, " tasks beyond %zu (GPULAT_MAX_TASKS)",
			     d->max_tasks);
		off += w > 0 && (size_t)w < len - off ? (size_t)w : 0;
		sep = ",";
	}
	if (d->fp_map.dropped) {
		w = snprintf(buf + off, len - off, "%s rings beyond %zu (GPULAT_MAX_GROUPS)", sep,
			     gpulat__cap(GPULAT_CAP_GROUPS));
		off += w > 0 && (size_t)w < len - off ? (size_t)w : 0;
		sep = ",";
	}
	if (d->irqs_dropped)
		snprintf(buf + off, len - off, "%s irq numbers beyond %d", sep, DG_IRQS_MAX);
	return true;
}

/*
 * The message names the option's irq and the trace's irq names as given:
 * any byte (--gpu-irq $'a\nb', fuzz_session F11). A control character is
 * shown as '?', so the message stays one line.
 */
static void one_line(char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len && buf[i]; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
}

bool gpulat_diag_gpu_irq_missing(const struct gpulat_diag *d, char *buf, size_t len)
{
	char spec[64];
	size_t i, off;
	int w, prev;

	if (d->o.gpu_irq < 0 && !d->o.gpu_irq_name)
		return false;
	for (i = 0; i < d->nirqc; i++)
		if (irq_named(d, &d->irqc[i]))
			return false;
	if (d->o.gpu_irq >= 0)
		snprintf(spec, sizeof(spec), "%d", d->o.gpu_irq);
	else
		snprintf(spec, sizeof(spec), "%s", d->o.gpu_irq_name);
	if (!d->nirqc) {
		snprintf(buf, len,
			 "--gpu-irq %s: the trace has no irq_handler_entry events "
			 "(record irq:irq_handler_entry)",
			 spec);
		one_line(buf, len);
		return true;
	}
	w = snprintf(buf, len, "--gpu-irq %s: no such irq in the trace; irqs:", spec);
	off = w < 0 ? 0 : (size_t)w;
	/* in irq number order (a handful of irqs: a selection each time) */
	for (i = 0, prev = INT_MIN; i < d->nirqc && off < len; i++) {
		const struct dg_irqcount *ic = NULL;
		size_t k;

		for (k = 0; k < d->nirqc; k++)
			if (d->irqc[k].irq > prev && (!ic || d->irqc[k].irq < ic->irq))
				ic = &d->irqc[k];
		if (!ic)
			break;
		prev = ic->irq;
		w = snprintf(buf + off, len - off, "%s %d%s%s", i ? "," : "", ic->irq,
			     ic->name[0] ? " " : "", ic->name);
		if (w < 0)
			break;
		off += (size_t)w;
	}
	one_line(buf, len);
	return true;
}

void gpulat_diag_gpu_irq(const struct gpulat_diag *d, struct gpulat_gpu_irq *out)
{
	*out = d->gpu_irq;
}

size_t gpulat_diag_fp_nrings(const struct gpulat_diag *d)
{
	return d->nfp;
}

const struct gpulat_fp_ring *gpulat_diag_fp_ring(const struct gpulat_diag *d, size_t i)
{
	return i < d->nfp ? &d->fp[i].out : NULL;
}
