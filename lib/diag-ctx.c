// SPDX-License-Identifier: LGPL-2.1
/*
 * Diagnosis context: bounded per-CPU windows of irq/softirq intervals,
 * frequency changes, run events and done events, and per-task windows of
 * runnable-but-not-running intervals and dma_fence waits. Fed in time order;
 * everything older than opts.window_ns (or beyond opts.max_per_cpu entries)
 * is dropped, so memory does not grow with the trace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "diag-int.h"

/* ---- bounded rings ------------------------------------------------------- */

void dg_ring_init(struct dg_ring *r, size_t esz, size_t max)
{
	memset(r, 0, sizeof(*r));
	r->esz = esz;
	r->max = max ? max : 1;
}

void dg_ring_fini(struct dg_ring *r)
{
	free(r->v);
	r->v = NULL;
	r->n = r->cap = r->head = 0;
}

void *dg_ring_at(const struct dg_ring *r, size_t i)
{
	return r->v + ((r->head + i) % r->cap) * r->esz;
}

static int ring_grow(struct dg_ring *r)
{
	size_t cap = r->cap ? r->cap * 2 : 16, i;
	unsigned char *v;

	if (cap > r->max)
		cap = r->max;
	v = malloc(cap * r->esz);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < r->n; i++)
		memcpy(v + i * r->esz, dg_ring_at(r, i), r->esz);
	free(r->v);
	r->v = v;
	r->cap = cap;
	r->head = 0;
	return 0;
}

void *dg_ring_push(struct dg_ring *r)
{
	void *slot;

	if (r->n == r->cap && r->cap < r->max && ring_grow(r) < 0)
		return NULL;
	if (r->n == r->cap) {
		/* full at the cap: the oldest goes */
		memcpy(&r->dropped_to, dg_ring_at(r, 0), sizeof(uint64_t));
		r->head = (r->head + 1) % r->cap;
		r->n--;
	}
	slot = r->v + ((r->head + r->n) % r->cap) * r->esz;
	r->n++;
	memset(slot, 0, r->esz);
	return slot;
}

void dg_ring_prune(struct dg_ring *r, uint64_t t)
{
	uint64_t ts;

	while (r->n) {
		memcpy(&ts, dg_ring_at(r, 0), sizeof(ts));
		if (ts >= t)
			break;
		r->dropped_to = ts;
		r->head = (r->head + 1) % r->cap;
		r->n--;
	}
}

/* ---- helpers -------------------------------------------------------------- */

uint64_t dg_overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/* trace-cmd report style: seconds.microseconds */
const char *dg_fmt_ts(char *buf, size_t len, uint64_t ts)
{
	if (ts == GPULAT_NONE)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%llu.%06llu", (unsigned long long)(ts / 1000000000ULL),
			 (unsigned long long)(ts % 1000000000ULL / 1000ULL));
	return buf;
}

const char *gpulat_cause_name(enum gpulat_cause c)
{
	static const char * const names[GPULAT_CAUSE__COUNT] = {
		[GPULAT_CAUSE_NONE]		= "none",
		[GPULAT_CAUSE_CPU_FREQ]		= "cpu_freq",
		[GPULAT_CAUSE_IRQ]		= "irq_storm",
		[GPULAT_CAUSE_CPU_HOG]		= "cpu_hog",
		[GPULAT_CAUSE_FENCE_WAIT]	= "fence_wait",
		[GPULAT_CAUSE_DEP_WAIT]		= "dep_wait",
	};

	return (unsigned int)c < GPULAT_CAUSE__COUNT ? names[c] : "?";
}

const char *gpulat_irq_source_name(enum gpulat_irq_source src)
{
	static const char * const names[] = {
		[GPULAT_IRQSRC_NONE]		= "none",
		[GPULAT_IRQSRC_AUTO]		= "auto",
		[GPULAT_IRQSRC_OPTION]		= "option",
		[GPULAT_IRQSRC_AMDGPU_IV]	= "amdgpu_iv",
	};

	return (unsigned int)src < sizeof(names) / sizeof(names[0]) ? names[src] : "?";
}

struct dg_cpu *dg_cpu_get(struct gpulat_diag *d, int cpu)
{
	struct dg_cpu *v;
	int i;

	if (cpu < 0 || cpu > 4095)
		return NULL;
	if (cpu >= d->ncpus) {
		v = realloc(d->cpus, (size_t)(cpu + 1) * sizeof(*v));
		if (!v)
			return NULL;
		d->cpus = v;
		for (i = d->ncpus; i <= cpu; i++) {
			struct dg_cpu *c = &v[i];

			memset(c, 0, sizeof(*c));
			dg_ring_init(&c->hard, sizeof(struct dg_iv), d->o.max_per_cpu);
			dg_ring_init(&c->soft, sizeof(struct dg_iv), d->o.max_per_cpu);
			dg_ring_init(&c->freq, sizeof(struct dg_freq), d->o.max_per_cpu);
			dg_ring_init(&c->runs, sizeof(struct dg_run), d->o.max_per_cpu);
			dg_ring_init(&c->dones, sizeof(struct dg_done), d->o.max_per_cpu);
			c->iv_ts = GPULAT_NONE;
		}
		d->ncpus = cpu + 1;
	}
	return &d->cpus[cpu];
}

struct dg_task *dg_task_find(const struct gpulat_diag *d, int file, int pid)
{
	struct gpulat__hnode *n = gpulat__htab_find(&d->tasks, (uint64_t)file, (uint64_t)pid);

	return n ? gpulat_container_of(n, struct dg_task, node) : NULL;
}

/*
 * Over gpulat__cap(GPULAT_CAP_TASKS) tasks (a hostile trace with 10^6 pids:
 * ~12 KB of intervals each) the others share d->task_sink: it is never found
 * by dg_task_find(), so their jobs get no per-task hints; counted, warned.
 */
static struct dg_task *task_get(struct gpulat_diag *d, int file, int pid)
{
	struct dg_task *t = dg_task_find(d, file, pid);

	if (t)
		return t;
	if (d->tasks.n >= d->max_tasks) {
		d->tasks_dropped++;
		return &d->task_sink;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->runnable_since = GPULAT_NONE;
	t->active_since = GPULAT_NONE;
	dg_ring_init(&t->runq, sizeof(struct dg_iv), 256);
	dg_ring_init(&t->fwait, sizeof(struct dg_iv), 256);
	if (gpulat__htab_insert(&d->tasks, &t->node, (uint64_t)file, (uint64_t)pid) < 0) {
		free(t);
		return NULL;
	}
	return t;
}

const char *dg_comm(const struct gpulat_diag *d, int file, int pid, char *buf, size_t len)
{
	const struct dg_task *t = dg_task_find(d, file, pid);

	if (pid == 0)
		snprintf(buf, len, "idle-0");
	else if (t && t->qcomm && t->qcomm[0])
		snprintf(buf, len, "%s-%d", t->qcomm, pid);
	else if (t && t->comm[0])
		snprintf(buf, len, "%s-%d", t->comm, pid);
	else
		snprintf(buf, len, "<...>-%d", pid);
	return buf;
}

struct dg_rkey {
	struct gpulat__hnode node;
	const char	*dev, *ring;	/* interned in d->names */
	int		file;
	size_t		i;
};

int dg_rmap_init(struct dg_rmap *m)
{
	m->n = 0;
	m->dropped = 0;
	return gpulat__htab_init(&m->h, 64);
}

void dg_rmap_fini(struct dg_rmap *m)
{
	struct gpulat__hiter it = { 0 };
	struct gpulat__hnode *n;

	while ((n = gpulat__htab_iter(&m->h, &it)))
		free(gpulat_container_of(n, struct dg_rkey, node));
	gpulat__htab_fini(&m->h);
}

/*
 * dg_rmap_get - the row of (file, dev, ring) in a per-ring table
 * Return: its index; m->n - 1 when it was just added (the caller appends the
 * row); -ENOSPC over the cap (counted); -ENOMEM.
 */
long dg_rmap_get(struct gpulat_diag *d, struct dg_rmap *m, int file, const char *dev,
		 const char *ring)
{
	uint64_t k1 = gpulat__hash_str(dev) ^ (uint64_t)(uint32_t)file << 48;
	uint64_t k2 = gpulat__hash_str(ring);
	struct gpulat__hnode *n;
	struct dg_rkey *r;

	for (n = gpulat__htab_find(&m->h, k1, k2); n; n = gpulat__htab_next(n)) {
		r = gpulat_container_of(n, struct dg_rkey, node);
		if (r->file == file && !strcmp(r->dev, dev) && !strcmp(r->ring, ring))
			return (long)r->i;
	}
	if (m->n >= gpulat__cap(GPULAT_CAP_GROUPS)) {
		m->dropped++;
		return -ENOSPC;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->dev = gpulat__strtab_intern(d->names, dev);
	r->ring = gpulat__strtab_intern(d->names, ring);
	r->file = file;
	r->i = m->n;
	if (!r->dev || !r->ring || gpulat__htab_insert(&m->h, &r->node, k1, k2) < 0) {
		free(r);
		return -ENOMEM;
	}
	return (long)m->n++;
}

struct dg_irqcount *dg_irq_get(struct gpulat_diag *d, int irq)
{
	struct dg_irqcount *v;
	size_t i;

	for (i = 0; i < d->nirqc; i++)
		if (d->irqc[i].irq == irq)
			return &d->irqc[i];
	/* a machine has a few hundred irq numbers; a hostile trace any int */
	if (d->nirqc >= DG_IRQS_MAX) {
		d->irqs_dropped++;
		memset(&d->irq_sink, 0, sizeof(d->irq_sink));
		d->irq_sink.irq = irq;
		return &d->irq_sink;
	}
	v = realloc(d->irqc, (d->nirqc + 1) * sizeof(*v));
	if (!v)
		return NULL;
	d->irqc = v;
	memset(&v[d->nirqc], 0, sizeof(*v));
	v[d->nirqc].irq = irq;
	return &v[d->nirqc++];
}

/*
 * a string field of @rec into @buf (arrays and __data_loc), 0 on success.
 * The string must lie inside the record: libtraceevent 1.7.1's
 * tep_get_field_raw() takes a damaged __data_loc offset as is (FINDINGS F5).
 */
static int rec_str(struct tep_handle *tep, struct tep_record *rec, const char *field,
		   char *buf, size_t len)
{
	struct tep_format_field *f;
	struct tep_event *e;
	unsigned long long v;
	unsigned int off, l;
	const char *p;

	if (!tep || !rec || rec->size <= 0)
		return -1;
	e = tep_find_event_by_record(tep, rec);
	f = e ? tep_find_field(e, field) : NULL;
	if (!f || f->offset < 0)
		return -1;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (f->offset + 4 > rec->size)
			return -1;
		v = tep_read_number(tep, (const char *)rec->data + f->offset, 4);
		off = v & 0xffff;
		l = (v >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned int)(f->offset + f->size);
	} else if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING)) &&
		   !(f->flags & TEP_FIELD_IS_POINTER)) {
		off = (unsigned int)f->offset;
		l = (unsigned int)f->size;
	} else {
		return -1;
	}
	if (!l || (uint64_t)off + l > (uint64_t)rec->size)
		return -1;
	p = (const char *)rec->data + off;
	snprintf(buf, len, "%.*s", (int)strnlen(p, l), p);
	return 0;
}

/* the latest name of the task (kernel threads are renamed after they fork) */
static void set_comm(struct dg_task *t, struct tep_handle *tep, struct tep_record *rec,
		     const char *field)
{
	char comm[sizeof(t->comm)];

	if (t && rec_str(tep, rec, field, comm, sizeof(comm)) == 0 && comm[0])
		memcpy(t->comm, comm, sizeof(comm));
}

/* ---- feeding ---------------------------------------------------------------- */

static void prune_cpu(struct gpulat_diag *d, struct dg_cpu *c)
{
	uint64_t lim = d->now > d->o.window_ns ? d->now - d->o.window_ns : 0;

	dg_ring_prune(&c->hard, lim);
	dg_ring_prune(&c->soft, lim);
	dg_ring_prune(&c->runs, lim);
	dg_ring_prune(&c->dones, lim);
	/* frequency: keep the newest change before the window (the state in it) */
	while (c->freq.n > 1) {
		const struct dg_freq *f = dg_ring_at(&c->freq, 1);

		if (f->ts >= lim)
			break;
		c->freq.dropped_to = ((const struct dg_freq *)dg_ring_at(&c->freq, 0))->ts;
		c->freq.head = (c->freq.head + 1) % c->freq.cap;
		c->freq.n--;
	}
}

static void task_prune(struct gpulat_diag *d, struct dg_task *t)
{
	uint64_t lim = d->now > d->o.window_ns ? d->now - d->o.window_ns : 0;

	dg_ring_prune(&t->runq, lim);
	dg_ring_prune(&t->fwait, lim);
}

static int push_iv(struct dg_ring *r, uint64_t start, uint64_t end, int what, int who)
{
	struct dg_iv *iv = dg_ring_push(r);

	if (!iv)
		return -ENOMEM;
	iv->start = start;
	iv->end = end;
	iv->what = what;
	iv->who = who;
	return 0;
}

static int feed_irq(struct gpulat_diag *d, const struct gpulat_event *ev, struct dg_cpu *c,
		    struct tep_handle *tep, struct tep_record *rec)
{
	struct dg_irqcount *ic;
	uint64_t len;

	switch (ev->kind) {
	case GPULAT_EV_IRQ_ENTRY:
		d->has_irq = true;
		c->in_hard = true;
		c->hard_irq = ev->irq;
		c->hard_ts = ev->ts;
		ic = dg_irq_get(d, ev->irq);
		if (!ic)
			return -ENOMEM;
		if (!ic->name[0])
			rec_str(tep, rec, "name", ic->name, sizeof(ic->name));
		return 0;
	case GPULAT_EV_IRQ_EXIT:
		if (!c->in_hard || ev->ts < c->hard_ts)
			return 0;
		c->in_hard = false;
		len = ev->ts - c->hard_ts;
		c->hard_ns += len;
		c->hard_n++;
		if (c->in_soft)
			c->soft_nested += len;
		return push_iv(&c->hard, c->hard_ts, ev->ts, c->hard_irq, 0);
	case GPULAT_EV_SOFTIRQ_ENTRY:
		d->has_irq = true;
		c->in_soft = true;
		c->soft_vec = ev->irq;
		c->soft_ts = ev->ts;
		c->soft_nested = 0;
		return 0;
	case GPULAT_EV_SOFTIRQ_EXIT:
		if (!c->in_soft || ev->ts < c->soft_ts)
			return 0;
		c->in_soft = false;
		len = ev->ts - c->soft_ts;
		c->soft_ns += len > c->soft_nested ? len - c->soft_nested : 0;
		c->soft_n++;
		return push_iv(&c->soft, c->soft_ts, ev->ts, c->soft_vec, 0);
	default:
		return 0;
	}
}

static int feed_freq(struct gpulat_diag *d, const struct gpulat_event *ev, struct tep_record *rec)
{
	int base = rec ? ev->cpu - rec->cpu : 0;
	struct dg_cpu *c = dg_cpu_get(d, base + ev->irq);
	struct dg_freq *f;

	if (!c)
		return -ENOMEM;
	c->seen = true;
	f = dg_ring_push(&c->freq);
	if (!f)
		return -ENOMEM;
	f->ts = ev->ts;
	f->khz = ev->value;
	f->prev_khz = c->khz;
	c->khz = ev->value;
	if (ev->value > c->max_khz)
		c->max_khz = ev->value;
	return 0;
}

static int feed_sched(struct gpulat_diag *d, const struct gpulat_event *ev,
		      struct tep_handle *tep, struct tep_record *rec)
{
	struct dg_task *prev, *next;
	int base = rec ? ev->cpu - rec->cpu : 0;

	if (ev->kind == GPULAT_EV_SCHED_WAKING) {
		if (ev->next_pid <= 0)
			return 0;
		next = task_get(d, ev->file, ev->next_pid);
		if (!next)
			return -ENOMEM;
		set_comm(next, tep, rec, "comm");
		if (!next->running && next->runnable_since == GPULAT_NONE) {
			next->runnable_since = ev->ts;
			next->runnable_cpu = base + ev->irq;
			next->active_since = ev->ts;
		}
		return 0;
	}
	if (ev->prev_pid > 0) {
		prev = task_get(d, ev->file, ev->prev_pid);
		if (!prev)
			return -ENOMEM;
		set_comm(prev, tep, rec, "prev_comm");
		prev->running = false;
		if ((ev->prev_state & 0xff) == 0) {
			/* preempted: still runnable */
			prev->runnable_since = ev->ts;
			prev->runnable_cpu = ev->cpu;
		} else {
			prev->runnable_since = GPULAT_NONE;
		}
	}
	if (ev->next_pid > 0) {
		next = task_get(d, ev->file, ev->next_pid);
		if (!next)
			return -ENOMEM;
		set_comm(next, tep, rec, "next_comm");
		if (next->runnable_since != GPULAT_NONE && ev->ts > next->runnable_since) {
			task_prune(d, next);
			if (push_iv(&next->runq, next->runnable_since, ev->ts, ev->cpu,
				    ev->prev_pid) < 0)
				return -ENOMEM;
		} else if (next->runnable_since == GPULAT_NONE && !next->running) {
			next->active_since = ev->ts;
		}
		next->runnable_since = GPULAT_NONE;
		next->running = true;
	}
	return 0;
}

static int feed_wait(struct gpulat_diag *d, const struct gpulat_event *ev)
{
	struct dg_task *t = task_get(d, ev->file, ev->pid);

	if (!t)
		return -ENOMEM;
	if (ev->kind == GPULAT_EV_FENCE_WAIT_START) {
		t->in_fwait = true;
		t->fwait_ts = ev->ts;
		t->fwait_ctx = ev->ctx;
		t->fwait_seqno = ev->seqno;
		return 0;
	}
	if (!t->in_fwait)
		return 0;
	t->in_fwait = false;
	task_prune(d, t);
	return push_iv(&t->fwait, t->fwait_ts, ev->ts, (int)t->fwait_seqno, (int)t->fwait_ctx);
}

/* the comm of its queue events names a submitter (its gaps: gpulat__diag_gap()) */
static int feed_queue(struct gpulat_diag *d, const struct gpulat_event *ev)
{
	struct dg_task *t = task_get(d, ev->file, ev->pid);

	if (!t)
		return -ENOMEM;
	if (ev->comm)
		t->qcomm = gpulat__strtab_intern(d->names, ev->comm);
	return 0;
}

/**
 * gpulat_diag_feed - one decoded event, in time order across all CPUs
 * @d: diagnosis state
 * @ev: the event
 * @tep: the trace's handle, for irq and task names (may be NULL)
 * @rec: the record (may be NULL)
 *
 * Return: 0, or -ENOMEM (the state is then incomplete but consistent).
 */
int gpulat_diag_feed(struct gpulat_diag *d, const struct gpulat_event *ev,
		     struct tep_handle *tep, struct tep_record *rec)
{
	struct dg_cpu *c;
	int ret = 0;

	if (!d || !ev)
		return -EINVAL;
	if (ev->ts > d->now)
		d->now = ev->ts;
	c = dg_cpu_get(d, ev->cpu);
	if (!c)
		return -ENOMEM;
	c->seen = true;
	prune_cpu(d, c);

	switch (ev->kind) {
	case GPULAT_EV_IRQ_ENTRY:
	case GPULAT_EV_IRQ_EXIT:
	case GPULAT_EV_SOFTIRQ_ENTRY:
	case GPULAT_EV_SOFTIRQ_EXIT:
		ret = feed_irq(d, ev, c, tep, rec);
		break;
	case GPULAT_EV_CPU_FREQ:
		ret = feed_freq(d, ev, rec);
		break;
	case GPULAT_EV_SCHED_SWITCH:
	case GPULAT_EV_SCHED_WAKING:
		ret = feed_sched(d, ev, tep, rec);
		break;
	case GPULAT_EV_FENCE_WAIT_START:
	case GPULAT_EV_FENCE_WAIT_END:
		ret = feed_wait(d, ev);
		break;
	case GPULAT_EV_QUEUE:
		ret = feed_queue(d, ev);
		break;
	case GPULAT_EV_RUN: {
		struct dg_run *r = dg_ring_push(&c->runs);

		if (!r)
			return -ENOMEM;
		r->ts = ev->ts;
		r->pid = ev->pid;
		break;
	}
	default:
		break;
	}
	if (ret < 0)
		return ret;
	return dg_fp_feed(d, ev);
}

/* ---- life cycle --------------------------------------------------------------- */

void gpulat_diag_opts_init(struct gpulat_diag_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->window_ns = 2000000000ULL;
	o->max_per_cpu = 65536;
	o->stall_threshold_ns = 16666667;
	o->top_n = 10;
	o->worst_by = GPULAT_M_TOTAL;
	o->gpu_irq = -1;
}

/**
 * gpulat_diag_new - diagnosis state
 * @o: options (gpulat_diag_opts_init() defaults when NULL)
 *
 * Return: the state, or NULL with errno set.
 */
struct gpulat_diag *gpulat_diag_new(const struct gpulat_diag_opts *o)
{
	struct gpulat_diag *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	if (o)
		d->o = *o;
	else
		gpulat_diag_opts_init(&d->o);
	if (!d->o.window_ns)
		d->o.window_ns = 2000000000ULL;
	if (!d->o.max_per_cpu)
		d->o.max_per_cpu = 65536;
	d->names = gpulat__strtab_new();
	dg_ring_init(&d->fence_fifo, sizeof(struct dg_fence_ref), 1u << 20);
	d->max_tasks = gpulat__cap(GPULAT_CAP_TASKS);
	d->task_sink.runnable_since = d->task_sink.active_since = GPULAT_NONE;
	dg_ring_init(&d->task_sink.runq, sizeof(struct dg_iv), 256);
	dg_ring_init(&d->task_sink.fwait, sizeof(struct dg_iv), 256);
	if (!d->names || dg_stalls_init(d) < 0 || gpulat__htab_init(&d->tasks, 256) < 0 ||
	    gpulat__htab_init(&d->fences, 1024) < 0 || dg_rmap_init(&d->fp_map) < 0) {
		gpulat_diag_free(d);
		errno = ENOMEM;
		return NULL;
	}
	return d;
}

/*
 * Kept for the ABI: the diagnosis looks for no gaps itself any more (the
 * statistics do, with their threshold: gpulat_session_set_stall_threshold()).
 */
void gpulat_diag_set_stall_threshold(struct gpulat_diag *d, uint64_t ns)
{
	d->o.stall_threshold_ns = ns;
}

void gpulat_diag_free(struct gpulat_diag *d)
{
	struct gpulat__hiter it = { 0 };
	struct gpulat__hnode *n;
	int c;

	if (!d)
		return;
	for (c = 0; c < d->ncpus; c++) {
		dg_ring_fini(&d->cpus[c].hard);
		dg_ring_fini(&d->cpus[c].soft);
		dg_ring_fini(&d->cpus[c].freq);
		dg_ring_fini(&d->cpus[c].runs);
		dg_ring_fini(&d->cpus[c].dones);
	}
	free(d->cpus);
	while ((n = gpulat__htab_iter(&d->tasks, &it))) {
		struct dg_task *t = gpulat_container_of(n, struct dg_task, node);

		dg_ring_fini(&t->runq);
		dg_ring_fini(&t->fwait);
		free(t);
	}
	gpulat__htab_fini(&d->tasks);
	dg_ring_fini(&d->task_sink.runq);
	dg_ring_fini(&d->task_sink.fwait);
	dg_fp_free(d);
	dg_rmap_fini(&d->fp_map);
	gpulat__topk_fini(&d->stalls);
	free(d->worst);
	free(d->irqc);
	if (d->names)
		gpulat__strtab_free(d->names);
	free(d);
}

/**
 * gpulat_diag_job - a finished job (after the front end's filters)
 * @d: diagnosis state
 * @job: the job
 *
 * Return: 0, or -ENOMEM.
 */
int gpulat_diag_job(struct gpulat_diag *d, const struct gpulat_job *job)
{
	int ret;

	if (!d || !job)
		return -EINVAL;
	ret = dg_fp_job(d, job);
	if (ret < 0)
		return ret;
	return d->err;
}

/**
 * gpulat_diag_finish - end of input
 * @d: diagnosis state
 * @first_ts: first timestamp of any record (IRQ load percentages)
 * @last_ts: last one
 *
 * Return: 0.
 */
int gpulat_diag_finish(struct gpulat_diag *d, uint64_t first_ts, uint64_t last_ts)
{
	d->span = last_ts > first_ts && first_ts != GPULAT_NONE ? last_ts - first_ts : 0;
	dg_fp_finish(d);
	d->finished = true;
	return 0;
}

int gpulat_diag_ncpus(const struct gpulat_diag *d)
{
	return d->ncpus;
}

bool gpulat_diag_has_irq(const struct gpulat_diag *d)
{
	return d->has_irq;
}

void gpulat_diag_irq_load(const struct gpulat_diag *d, int cpu, struct gpulat_irq_load *out)
{
	memset(out, 0, sizeof(*out));
	out->cpu = cpu;
	if (cpu < 0 || cpu >= d->ncpus)
		return;
	out->hardirq_ns = d->cpus[cpu].hard_ns;
	out->softirq_ns = d->cpus[cpu].soft_ns;
	out->hardirqs = d->cpus[cpu].hard_n;
	out->softirqs = d->cpus[cpu].soft_n;
	if (d->span) {
		out->hardirq_pct = 100.0 * (double)out->hardirq_ns / (double)d->span;
		out->softirq_pct = 100.0 * (double)out->softirq_ns / (double)d->span;
	}
}
