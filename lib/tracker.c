// SPDX-License-Identifier: LGPL-2.1
/*
 * Job tracker: normalized events -> GPU jobs (DESIGN.md "Linking rules").
 *
 * Open jobs live in hash tables keyed the way each era names a job:
 *   6.17+      (fence_context, fence_seqno) of the finished fence, compared on
 *              the low 32 bits so u32 dma_fence events match too;
 *   <= 6.16    (ring, id) for queue/run and the finished-fence pointer for
 *              done (the pointer is reused: a done pairs with the most recent
 *              open job holding it, and the pointer leaves the table at done);
 *   pre-5.7    queue -> done by pointer, no run stage.
 * A done job waits a bounded time (trace time) for its finished fence's
 * dma_fence_signaled when those events are in the trace. Completed jobs stay
 * in a bounded cache so dependencies name their producer and its done time.
 * Memory is O(jobs in flight + cache), never O(events).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-int.h"
#include "track-int.h"

#define DEFAULT_MAX_OPEN	(1u << 20)
#define DEFAULT_LINGER_NS	10000000ULL	/* 10 ms */
#define DCACHE_SIZE		(1u << 14)	/* completed jobs remembered for deps */
#define MAX_LOST_WINDOWS	4096
#define MAX_CTX_MAP		65536
#define INIT_MAX_AGE_NS		10000000ULL	/* fence init -> queue event, same cpu */
#define FREE_JOBS_MAX		4096		/* freed jobs kept for reuse */
#define U32(x)			((x) & 0xffffffffULL)
/* fence key: low 32 bits of the context, and the file it came from */
#define FK(t, ctx)		(U32(ctx) | ((uint64_t)(t)->cur_file << 32))

struct ring {
	struct gpulat__hnode	node;
	struct ring		*next_all;
	const char		*dev;
	const char		*name;
	const char		*alias;		/* real name of a "0x..." label, from dma_fence */
	uint64_t		last_done;	/* done_ts of the last job done on it */
	int			file;
};

struct ctxmap {
	struct gpulat__hnode	node;
	struct ring		*ring;
};

/* a dependency on a fence of no traced job, waiting for its dma_fence_signaled */
struct watch {
	struct gpulat__hnode	node;
	struct watch		*next;		/* the job's other watches */
	struct job		*job;
	unsigned int		dep;		/* index in job->deps */
};

struct job {
	struct watch		*watches;
	struct gpulat__hnode	by_fence;
	struct gpulat__hnode	by_ptr;
	struct gpulat__hnode	by_id;
	bool			in_fence, in_ptr, in_id;
	bool			fence32;	/* ctx/seqno known only on 32 bits */
	bool			held;		/* done, waiting for its signal */
	bool			from_amd;	/* created by an amdgpu event */
	struct job		*prev, *next;	/* open list (first sight order) or held list */
	struct ring		*ring;
	struct gpulat_dep	*deps;
	unsigned int		ndeps, capdeps;
	int			slot_cpu;	/* per-cpu "last done" slot it occupies, -1 */
	struct gpulat_job	j;
};

/* a completed job, remembered for dependency resolution */
struct dent {
	struct gpulat__hnode	by_seq;
	struct gpulat__hnode	by_fence;
	struct gpulat__hnode	by_ptr;
	bool			used, in_fence, in_ptr;
	uint64_t		seq;
	uint64_t		ctx, seqno, ptr;
	const char		*dev, *ring;
	uint64_t		done_ts;
};

struct lostwin {
	int		cpu;
	uint64_t	from, to;
};

/*
 * drm_sched_job_arm() initializes the scheduled (ctx N) then the finished
 * (ctx N + 1) fence, same seqno, just before the queue event on that cpu.
 */
struct initslot {
	uint64_t	ts;
	uint64_t	ctx, seqno;
	const char	*timeline;
	bool		have_prev;
	uint64_t	pctx, pseqno;
	bool		pair;
};

struct joblist {
	struct job	*head, *tail;
	size_t		n;
};

struct gpulat_tracker {
	struct gpulat_tracker_ops ops;
	void			*data;
	struct gpulat__strtab	*strs;
	const char		*empty;
	const char		*unknown;
	size_t			max_open;
	uint64_t		linger;
	bool			signal_expected;
	enum gpulat_era		era;
	bool			seen_run;
	bool			warned_cap;
	bool			warned_disorder;
	uint64_t		next_seq;
	uint64_t		last_ts;
	int			cur_file;	/* file of the event being fed (several traces) */

	struct gpulat__htab	rings;
	struct ring		*all_rings;
	struct gpulat__htab	ctxs;		/* fence context -> ring (6.17 orphans) */
	size_t			nctx;

	struct gpulat__htab	by_fence, by_ptr, by_id;
	struct gpulat__htab	watches;	/* foreign dependency fences */
	struct joblist		open;		/* no done yet */
	struct joblist		held;		/* done, waiting for the signal */
	struct job		*free_jobs;	/* emitted jobs for reuse, by ->next */
	size_t			nfree_jobs;

	struct dent		*dc;		/* DCACHE_SIZE ring of completed jobs */
	size_t			dc_next;
	struct gpulat__htab	dc_seq, dc_fence, dc_ptr;

	struct job		**cpu_slot;	/* last done job per cpu, awaiting signal */
	struct job		**run_slot;	/* job just run per cpu (<= 6.16, no fence yet) */
	struct initslot		*init_slot;	/* drm_sched fence inits per cpu */
	uint64_t		*cpu_last;	/* last ts fed per cpu */
	int			ncpus;

	struct lostwin		*lost;
	size_t			nlost;

	struct gpulat_tracker_counters c;

	/* the job of the last event fed, for gpulat_tracker_last_job() */
	struct gpulat_job	last;
	bool			has_last;

	/* drivers without drm_sched, created at their first event */
	struct gpulat__i915	*i915;
	/* xe facts of drm_sched jobs (track-xe.c), created at the first xe event */
	struct gpulat__xe *xe;
};

static void twarn(struct gpulat_tracker *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void twarn(struct gpulat_tracker *t, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (!t->ops.warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->ops.warn(msg, t->data);
}

/* ---- lists ---------------------------------------------------------------- */

static void list_add_tail(struct joblist *l, struct job *j)
{
	j->next = NULL;
	j->prev = l->tail;
	if (l->tail)
		l->tail->next = j;
	else
		l->head = j;
	l->tail = j;
	l->n++;
}

static void list_del(struct joblist *l, struct job *j)
{
	if (j->prev)
		j->prev->next = j->next;
	else
		l->head = j->next;
	if (j->next)
		j->next->prev = j->prev;
	else
		l->tail = j->prev;
	j->prev = j->next = NULL;
	l->n--;
}

/* ---- rings and strings ---------------------------------------------------- */

static const char *tstr(struct gpulat_tracker *t, const char *s)
{
	const char *r = s ? gpulat__strtab_intern(t->strs, s) : NULL;

	return r ? r : t->empty;
}

/* the ring's name as every front end shows it: the real name once known */
static const char *shown_ring(const struct job *j)
{
	return j->ring && j->ring->alias ? j->ring->alias : j->j.ring;
}

static struct ring *get_ring(struct gpulat_tracker *t, const char *dev, const char *name)
{
	struct gpulat__hnode *n;
	struct ring *r;
	uint64_t k1, k2;

	if (!name)
		return NULL;
	dev = tstr(t, dev);
	name = tstr(t, name);
	k1 = (uintptr_t)dev ^ ((uint64_t)t->cur_file << 56);
	k2 = (uintptr_t)name;
	n = gpulat__htab_find(&t->rings, k1, k2);
	if (n)
		return gpulat_container_of(n, struct ring, node);
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->dev = dev;
	r->name = name;
	r->last_done = GPULAT_NONE;
	r->file = t->cur_file;
	if (gpulat__htab_insert(&t->rings, &r->node, k1, k2)) {
		free(r);
		return NULL;
	}
	r->next_all = t->all_rings;
	t->all_rings = r;
	return r;
}

static void ctx_learn(struct gpulat_tracker *t, uint64_t ctx, struct ring *r)
{
	struct gpulat__hnode *n;
	struct ctxmap *m;

	if (!r)
		return;
	n = gpulat__htab_find(&t->ctxs, U32(ctx), t->cur_file);
	if (n) {
		gpulat_container_of(n, struct ctxmap, node)->ring = r;
		return;
	}
	if (t->nctx >= MAX_CTX_MAP)
		return;
	m = calloc(1, sizeof(*m));
	if (!m)
		return;
	m->ring = r;
	if (gpulat__htab_insert(&t->ctxs, &m->node, U32(ctx), t->cur_file)) {
		free(m);
		return;
	}
	t->nctx++;
}

static struct ring *ctx_ring(struct gpulat_tracker *t, uint64_t ctx)
{
	struct gpulat__hnode *n = gpulat__htab_find(&t->ctxs, U32(ctx), t->cur_file);

	return n ? gpulat_container_of(n, struct ctxmap, node)->ring : NULL;
}

/* ---- per-cpu state -------------------------------------------------------- */

static int ensure_cpu(struct gpulat_tracker *t, int cpu)
{
	struct job **s, **rs;
	struct initslot *is;
	uint64_t *l;
	int n, i;

	if (cpu < 0)
		return -EINVAL;
	if (cpu < t->ncpus)
		return 0;
	n = cpu + 1 < 8 ? 8 : cpu + 1;
	if (n < t->ncpus * 2)
		n = t->ncpus * 2;
	s = realloc(t->cpu_slot, n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	t->cpu_slot = s;
	rs = realloc(t->run_slot, n * sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	t->run_slot = rs;
	is = realloc(t->init_slot, n * sizeof(*is));
	if (!is)
		return -ENOMEM;
	t->init_slot = is;
	l = realloc(t->cpu_last, n * sizeof(*l));
	if (!l)
		return -ENOMEM;
	t->cpu_last = l;
	for (i = t->ncpus; i < n; i++) {
		t->cpu_slot[i] = NULL;
		t->run_slot[i] = NULL;
		memset(&t->init_slot[i], 0, sizeof(t->init_slot[i]));
		t->cpu_last[i] = 0;
	}
	t->ncpus = n;
	return 0;
}

/* ---- lost windows --------------------------------------------------------- */

static void add_lost(struct gpulat_tracker *t, int cpu, uint64_t from, uint64_t to)
{
	struct lostwin *w;

	if (!t->lost) {
		t->lost = calloc(MAX_LOST_WINDOWS, sizeof(*t->lost));
		if (!t->lost)
			return;
	}
	if (t->nlost == MAX_LOST_WINDOWS) {
		/* merge the two oldest: the bound is coarser, never lost */
		w = &t->lost[0];
		w->from = w->from < t->lost[1].from ? w->from : t->lost[1].from;
		w->to = w->to > t->lost[1].to ? w->to : t->lost[1].to;
		w->cpu = -1;
		memmove(&t->lost[1], &t->lost[2], (MAX_LOST_WINDOWS - 2) * sizeof(*w));
		t->nlost--;
	}
	w = &t->lost[t->nlost++];
	w->cpu = cpu;
	w->from = from;
	w->to = to;
}

/* did events get lost (on @cpu, or any cpu if @cpu < 0) strictly between @from and @to? */
static bool lost_between(const struct gpulat_tracker *t, int cpu, uint64_t from, uint64_t to)
{
	size_t i;

	for (i = 0; i < t->nlost; i++) {
		const struct lostwin *w = &t->lost[i];

		if (cpu >= 0 && w->cpu >= 0 && w->cpu != cpu)
			continue;
		if (w->from < to && w->to > from)
			return true;
	}
	return false;
}

/* ---- fence / pointer / id indexes ----------------------------------------- */

static struct job *find_fence(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno, bool full)
{
	struct gpulat__hnode *n;
	struct job *j;

	for (n = gpulat__htab_find(&t->by_fence, FK(t, ctx), U32(seqno)); n;
	     n = gpulat__htab_next(n)) {
		j = gpulat_container_of(n, struct job, by_fence);
		if (!full || j->fence32 || (j->j.ctx == ctx && j->j.seqno == seqno))
			return j;
	}
	return NULL;
}

/*
 * A u32 dma_fence signal may match several jobs whose seqno differs above bit
 * 31 (wrap): prefer one that is done and still waits for its signal.
 */
static struct job *find_fence_signal(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno,
				     bool full)
{
	struct gpulat__hnode *n;
	struct job *j, *best = NULL;

	for (n = gpulat__htab_find(&t->by_fence, FK(t, ctx), U32(seqno)); n;
	     n = gpulat__htab_next(n)) {
		j = gpulat_container_of(n, struct job, by_fence);
		if (full && !j->fence32 && (j->j.ctx != ctx || j->j.seqno != seqno))
			continue;
		if (j->j.ts[GPULAT_ST_SIGNAL] != GPULAT_NONE)
			continue;
		if (j->held)
			return j;
		if (!best)
			best = j;
	}
	return best;
}

static void set_fence(struct gpulat_tracker *t, struct job *j, uint64_t ctx, uint64_t seqno,
		      bool fence32)
{
	if (j->in_fence)
		return;
	j->j.ctx = ctx;
	j->j.seqno = seqno;
	j->fence32 = fence32;
	if (!gpulat__htab_insert(&t->by_fence, &j->by_fence, FK(t, ctx), U32(seqno)))
		j->in_fence = true;
}

static struct job *find_ptr(struct gpulat_tracker *t, uint64_t ptr)
{
	struct gpulat__hnode *n = gpulat__htab_find(&t->by_ptr, ptr, t->cur_file);

	return n ? gpulat_container_of(n, struct job, by_ptr) : NULL;
}

static void set_ptr(struct gpulat_tracker *t, struct job *j, uint64_t ptr)
{
	if (j->in_ptr)
		return;
	j->j.fence_ptr = ptr;
	if (!gpulat__htab_insert(&t->by_ptr, &j->by_ptr, ptr, t->cur_file))
		j->in_ptr = true;
}

static struct job *find_id(struct gpulat_tracker *t, struct ring *r, uint64_t id)
{
	struct gpulat__hnode *n;

	if (!r)
		return NULL;
	n = gpulat__htab_find(&t->by_id, (uintptr_t)r, id);
	return n ? gpulat_container_of(n, struct job, by_id) : NULL;
}

static void set_id(struct gpulat_tracker *t, struct job *j, uint64_t id)
{
	if (j->in_id || !j->ring)
		return;
	j->j.id = id;
	if (!gpulat__htab_insert(&t->by_id, &j->by_id, (uintptr_t)j->ring, id))
		j->in_id = true;
}

static void unindex(struct gpulat_tracker *t, struct job *j, bool fence_too)
{
	if (j->in_ptr) {
		gpulat__htab_remove(&t->by_ptr, &j->by_ptr);
		j->in_ptr = false;
	}
	if (j->in_id) {
		gpulat__htab_remove(&t->by_id, &j->by_id);
		j->in_id = false;
	}
	if (fence_too && j->in_fence) {
		gpulat__htab_remove(&t->by_fence, &j->by_fence);
		j->in_fence = false;
	}
}

/* ---- completed-job cache (dependency producers) --------------------------- */

static struct dent *dc_find_seq(struct gpulat_tracker *t, uint64_t seq)
{
	struct gpulat__hnode *n = gpulat__htab_find(&t->dc_seq, seq, 0);

	return n ? gpulat_container_of(n, struct dent, by_seq) : NULL;
}

static struct dent *dc_find_fence(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno)
{
	struct gpulat__hnode *n = gpulat__htab_find(&t->dc_fence, FK(t, ctx), U32(seqno));

	return n ? gpulat_container_of(n, struct dent, by_fence) : NULL;
}

static struct dent *dc_find_ptr(struct gpulat_tracker *t, uint64_t ptr)
{
	struct gpulat__hnode *n = gpulat__htab_find(&t->dc_ptr, ptr, t->cur_file);

	return n ? gpulat_container_of(n, struct dent, by_ptr) : NULL;
}

static void dc_set_fence(struct gpulat_tracker *t, struct dent *d, uint64_t ctx, uint64_t seqno)
{
	if (d->in_fence)
		return;
	d->ctx = ctx;
	d->seqno = seqno;
	if (!gpulat__htab_insert(&t->dc_fence, &d->by_fence, FK(t, ctx), U32(seqno)))
		d->in_fence = true;
}

static void prefetch_dent(const struct dent *d)
{
	const char *p = (const char *)d;
	size_t off;

	for (off = 0; off < sizeof(*d); off += 64)
		__builtin_prefetch(p + off, 1);
}

/* start loading the buckets of @d's keys (cache hint) */
static void dc_prefetch_slots(struct gpulat_tracker *t, const struct dent *d)
{
	if (!d->used)
		return;
	gpulat__htab_prefetch_slot(&t->dc_seq, d->by_seq.k1, d->by_seq.k2);
	if (d->in_fence)
		gpulat__htab_prefetch_slot(&t->dc_fence, d->by_fence.k1, d->by_fence.k2);
	if (d->in_ptr)
		gpulat__htab_prefetch_slot(&t->dc_ptr, d->by_ptr.k1, d->by_ptr.k2);
}

/* start loading node @skip of the chains of @d's keys (cache hint) */
static void dc_prefetch_chains(struct gpulat_tracker *t, const struct dent *d, unsigned int skip)
{
	if (!d->used)
		return;
	gpulat__htab_prefetch_chain(&t->dc_seq, d->by_seq.k1, d->by_seq.k2, skip);
	if (d->in_fence)
		gpulat__htab_prefetch_chain(&t->dc_fence, d->by_fence.k1, d->by_fence.k2, skip);
	if (d->in_ptr)
		gpulat__htab_prefetch_chain(&t->dc_ptr, d->by_ptr.k1, d->by_ptr.k2, skip);
}

/*
 * The entry the next dc_add() evicts is DCACHE_SIZE completions old: it and
 * its hash chains are out of the cpu caches, and being the oldest it sits
 * behind the newer entries of its chains (about two nodes deep at the table's
 * load). One stage per call, each reading only what the previous call asked
 * for: the entry three calls ahead, its buckets two ahead, the first node of
 * its chains one ahead, the second now. Cache hints only: nothing changes.
 */
static void dc_prefetch(struct gpulat_tracker *t)
{
	size_t k = t->dc_next;

	prefetch_dent(&t->dc[(k + 3) % DCACHE_SIZE]);
	dc_prefetch_slots(t, &t->dc[(k + 2) % DCACHE_SIZE]);
	dc_prefetch_chains(t, &t->dc[(k + 1) % DCACHE_SIZE], 0);
	dc_prefetch_chains(t, &t->dc[k], 1);
}

static void dc_add(struct gpulat_tracker *t, const struct job *j)
{
	struct dent *d;

	if (!t->dc) {
		t->dc = calloc(DCACHE_SIZE, sizeof(*t->dc));
		if (!t->dc)
			return;
	}
	d = &t->dc[t->dc_next];
	t->dc_next = (t->dc_next + 1) % DCACHE_SIZE;
	if (d->used) {
		gpulat__htab_remove(&t->dc_seq, &d->by_seq);
		if (d->in_fence)
			gpulat__htab_remove(&t->dc_fence, &d->by_fence);
		if (d->in_ptr)
			gpulat__htab_remove(&t->dc_ptr, &d->by_ptr);
	}
	memset(d, 0, sizeof(*d));
	d->seq = j->j.seq;
	d->dev = j->j.dev;
	d->ring = shown_ring(j);
	d->done_ts = j->j.ts[GPULAT_ST_DONE];
	d->ptr = j->j.fence_ptr;
	d->ctx = d->seqno = GPULAT_NONE;
	if (gpulat__htab_insert(&t->dc_seq, &d->by_seq, d->seq, 0))
		return;
	d->used = true;
	if (j->j.fence_ptr) {
		struct dent *old = dc_find_ptr(t, d->ptr);

		/*
		 * A dependency on pointer P can only mean the newest job that
		 * used P (pointers are reused after free, <= 6.16): keep one
		 * entry per pointer so chains never grow with reuse.
		 */
		if (old) {
			gpulat__htab_remove(&t->dc_ptr, &old->by_ptr);
			old->in_ptr = false;
		}
		if (!gpulat__htab_insert(&t->dc_ptr, &d->by_ptr, d->ptr, t->cur_file))
			d->in_ptr = true;
	}
	if (j->in_fence)
		dc_set_fence(t, d, j->j.ctx, j->j.seqno);
	dc_prefetch(t);
}

/* ---- jobs ----------------------------------------------------------------- */

static bool run_expected(const struct gpulat_tracker *t)
{
	switch (t->era) {
	case GPULAT_ERA_PRE57:
		return false;
	case GPULAT_ERA_NONE:
		return t->seen_run;
	default:
		return true;
	}
}

static struct job *new_job(struct gpulat_tracker *t, const struct gpulat_event *ev,
			   struct ring *r)
{
	struct job *j;
	int i;

	j = t->free_jobs;
	if (j) {
		/* a recycled job keeps its dependency array */
		struct gpulat_dep *deps = j->deps;
		unsigned int capdeps = j->capdeps;

		t->free_jobs = j->next;
		t->nfree_jobs--;
		memset(j, 0, sizeof(*j));
		j->deps = deps;
		j->capdeps = capdeps;
	} else {
		j = calloc(1, sizeof(*j));
		if (!j)
			return NULL;
	}
	j->slot_cpu = -1;
	j->ring = r;
	j->j.seq = t->next_seq++;
	j->j.file = t->cur_file;
	j->j.dev = r ? r->dev : tstr(t, ev->dev);
	j->j.ring = r ? r->name : t->unknown;
	j->j.comm = t->empty;
	j->j.pid = -1;
	j->j.id = GPULAT_NONE;
	j->j.ctx = GPULAT_NONE;
	j->j.seqno = GPULAT_NONE;
	j->j.client_id = GPULAT_NONE;
	for (i = 0; i < GPULAT_ST__COUNT; i++) {
		j->j.ts[i] = GPULAT_NONE;
		j->j.cpu[i] = -1;
	}
	j->j.start_ts = j->j.wait = j->j.hw_queue = j->j.exec = j->j.total = GPULAT_NONE;
	j->j.dep_wait = GPULAT_NONE;
	list_add_tail(&t->open, j);
	t->c.open++;
	if (t->c.open > t->c.open_peak)
		t->c.open_peak = t->c.open;
	return j;
}

static void set_ring(struct gpulat_tracker *t, struct job *j, struct ring *r)
{
	if (!r || j->ring)
		return;
	j->ring = r;
	j->j.ring = r->name;
	j->j.dev = r->dev;
	(void)t;
}

/*
 * A drm_sched fence timeline is the ring's name (the scheduler creates its
 * fences with sched->name as timeline): it names "0x..." labels (<= 5.18).
 * Two rings of one file may share a name (two GPUs, no device field before
 * 6.17): gpulat__ring_alias() keeps them apart.
 */
static void learn_alias(struct gpulat_tracker *t, struct job *j, const char *timeline)
{
	const struct ring *o;
	char buf[256];
	bool taken = false;

	if (!j->ring || j->ring->alias || !timeline || !*timeline ||
	    !gpulat_ring_is_ptr(j->ring->name))
		return;
	for (o = t->all_rings; o && !taken; o = o->next_all)
		taken = o != j->ring && o->file == j->ring->file && o->alias &&
			!strcmp(o->alias, timeline);
	j->ring->alias = tstr(t, gpulat__ring_alias(buf, sizeof(buf), j->ring->name,
						     timeline, taken));
}

/* the job's ring strings as handed out: name, and the address label (<= 5.18) */
static void name_ring(struct job *j)
{
	j->j.ring_ptr = j->ring && gpulat_ring_is_ptr(j->ring->name) ? j->ring->name : NULL;
	j->j.ring = shown_ring(j);
	j->j.ring_name = j->j.ring;
}

static void stage(struct job *j, enum gpulat_stage st, const struct gpulat_event *ev)
{
	j->j.ts[st] = ev->ts;
	j->j.cpu[st] = ev->cpu;
	j->j.ref[st] = ev->ref;
}

static uint64_t first_ts(const struct job *j)
{
	uint64_t m = GPULAT_NONE;
	int i;

	for (i = 0; i < GPULAT_ST__COUNT; i++)
		if (j->j.ts[i] < m)
			m = j->j.ts[i];
	return m;
}

static uint64_t last_ts(const struct job *j)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < GPULAT_ST__COUNT; i++)
		if (j->j.ts[i] != GPULAT_NONE && j->j.ts[i] > m)
			m = j->j.ts[i];
	return m;
}

static void resolve_deps(struct gpulat_tracker *t, struct job *j)
{
	unsigned int i;

	for (i = 0; i < j->ndeps; i++) {
		struct gpulat_dep *d = &j->deps[i];
		struct dent *e;

		if (d->job_seq == GPULAT_NONE || d->signal_ts != GPULAT_NONE)
			continue;
		e = dc_find_seq(t, d->job_seq);
		if (e) {
			d->signal_ts = e->done_ts;
			d->dev = e->dev;
			d->ring = e->ring;
		}
	}
}

static void derive(struct gpulat_tracker *t, struct job *j)
{
	struct gpulat_job *g = &j->j;
	uint64_t q = g->ts[GPULAT_ST_QUEUE], r = g->ts[GPULAT_ST_RUN], d = g->ts[GPULAT_ST_DONE];
	uint64_t m = GPULAT_NONE, x;
	unsigned int i;

	g->wait = (q != GPULAT_NONE && r != GPULAT_NONE && r >= q) ? r - q : GPULAT_NONE;
	g->hw_queue = (g->start_ts != GPULAT_NONE && r != GPULAT_NONE && g->start_ts >= r) ?
		      g->start_ts - r : GPULAT_NONE;
	g->exec = (g->start_ts != GPULAT_NONE && d != GPULAT_NONE && d >= g->start_ts) ?
		  d - g->start_ts : GPULAT_NONE;
	g->total = (q != GPULAT_NONE && d != GPULAT_NONE && d >= q) ? d - q : GPULAT_NONE;

	resolve_deps(t, j);
	if (q == GPULAT_NONE) {
		g->dep_wait = GPULAT_NONE;
		return;
	}
	/*
	 * Dependencies on fences of no traced job count when their
	 * dma_fence_signaled was seen; a traced producer that never completed
	 * makes the wait unknown.
	 */
	for (i = 0; i < j->ndeps; i++) {
		if (j->deps[i].job_seq == GPULAT_NONE && j->deps[i].signal_ts == GPULAT_NONE)
			continue;
		x = j->deps[i].signal_ts;
		if (x == GPULAT_NONE) {
			g->dep_wait = GPULAT_NONE;
			return;
		}
		if (m == GPULAT_NONE || x > m)
			m = x;
	}
	if (m == GPULAT_NONE || m <= q)
		g->dep_wait = 0;
	else
		g->dep_wait = m - q;
	x = run_expected(t) ? g->wait : g->total;
	if (x != GPULAT_NONE && g->dep_wait > x)
		g->dep_wait = x;
}

/* true when seen stages are not in queue <= run <= done order */
static bool disordered(const struct gpulat_job *g)
{
	uint64_t q = g->ts[GPULAT_ST_QUEUE], r = g->ts[GPULAT_ST_RUN], d = g->ts[GPULAT_ST_DONE];

	if (q != GPULAT_NONE && r != GPULAT_NONE && r < q)
		return true;
	if (r != GPULAT_NONE && d != GPULAT_NONE && d < r)
		return true;
	return q != GPULAT_NONE && d != GPULAT_NONE && d < q;
}

static void classify(struct gpulat_tracker *t, struct job *j)
{
	struct gpulat_job *g = &j->j;
	uint64_t first = first_ts(j), last = last_ts(j);
	bool missing = false;

	g->lost_stages = 0;
	if (g->ts[GPULAT_ST_QUEUE] == GPULAT_NONE) {
		missing = true;
		if (lost_between(t, -1, 0, first == GPULAT_NONE ? GPULAT_NONE : first + 1))
			g->lost_stages |= 1u << GPULAT_ST_QUEUE;
	}
	if (run_expected(t) && g->ts[GPULAT_ST_RUN] == GPULAT_NONE) {
		uint64_t from = g->ts[GPULAT_ST_QUEUE] == GPULAT_NONE ? 0 : g->ts[GPULAT_ST_QUEUE];
		uint64_t to = g->ts[GPULAT_ST_DONE] == GPULAT_NONE ? GPULAT_NONE
								   : g->ts[GPULAT_ST_DONE] + 1;

		missing = true;
		if (lost_between(t, -1, from, to))
			g->lost_stages |= 1u << GPULAT_ST_RUN;
	}
	if (g->ts[GPULAT_ST_DONE] == GPULAT_NONE) {
		if (lost_between(t, -1, last, GPULAT_NONE)) {
			g->lost_stages |= 1u << GPULAT_ST_DONE;
			/* its signal follows the done at once: gone with it */
			if (t->signal_expected && g->ts[GPULAT_ST_SIGNAL] == GPULAT_NONE)
				g->lost_stages |= 1u << GPULAT_ST_SIGNAL;
		}
	} else if (t->signal_expected && g->ts[GPULAT_ST_SIGNAL] == GPULAT_NONE) {
		uint64_t d = g->ts[GPULAT_ST_DONE];

		if (lost_between(t, -1, d, d + t->linger + 1))
			g->lost_stages |= 1u << GPULAT_ST_SIGNAL;
	}

	if (g->lost_stages)
		g->status = GPULAT_JOB_LOST;
	else if (disordered(g)) {
		/*
		 * Stages out of time order (done before run, run before queue)
		 * only happen when a CPU's timestamps went backwards (a damaged
		 * trace, clock trouble): no duration of this job can be trusted,
		 * so it is not "complete" and stays out of the statistics.
		 */
		g->status = GPULAT_JOB_ORPHAN;
		t->c.disordered++;
		if (!t->warned_disorder) {
			t->warned_disorder = true;
			twarn(t, "GPU job stages out of time order (first on %s at %llu.%06llu): "
			      "timestamps went backwards on a CPU; such jobs are left out of "
			      "the statistics",
			      g->ring ? g->ring : "?",
			      (unsigned long long)(first / 1000000000ULL),
			      (unsigned long long)(first % 1000000000ULL / 1000));
		}
	}
	else if (g->ts[GPULAT_ST_DONE] == GPULAT_NONE)
		g->status = GPULAT_JOB_INCOMPLETE;
	else if (missing)
		g->status = GPULAT_JOB_ORPHAN;
	else
		g->status = GPULAT_JOB_COMPLETE;
}

static void unwatch(struct gpulat_tracker *t, struct job *j);
static void signal_watches(struct gpulat_tracker *t, const struct gpulat_event *ev);

static void free_job(struct gpulat_tracker *t, struct job *j)
{
	int i;

	unindex(t, j, true);
	unwatch(t, j);
	if (j->slot_cpu >= 0 && j->slot_cpu < t->ncpus && t->cpu_slot[j->slot_cpu] == j)
		t->cpu_slot[j->slot_cpu] = NULL;
	for (i = 0; i < t->ncpus; i++)
		if (t->run_slot[i] == j)
			t->run_slot[i] = NULL;
	/* kept for the next job: memory stays bounded by the jobs in flight */
	if (t->nfree_jobs < FREE_JOBS_MAX) {
		j->next = t->free_jobs;
		t->free_jobs = j;
		t->nfree_jobs++;
		return;
	}
	free(j->deps);
	free(j);
}

/* remember @j as the job of the event being fed (gpulat_tracker_last_job()) */
static void keep_last(struct gpulat_tracker *t, struct job *j)
{
	name_ring(j);
	t->last = j->j;
	t->last.deps = NULL;
	t->last.n_deps = j->ndeps;
	t->has_last = true;
}

/* the job is final: hand it out and forget it */
static void emit(struct gpulat_tracker *t, struct job *j)
{
	if (j->held) {
		list_del(&t->held, j);
		j->held = false;
	} else {
		list_del(&t->open, j);
	}
	t->c.open--;
	classify(t, j);
	derive(t, j);
	name_ring(j);
	j->j.n_deps = j->ndeps;
	/* NULL without deps, also for a recycled job that keeps its array */
	j->j.deps = j->ndeps ? j->deps : NULL;
	if (j->j.ts[GPULAT_ST_DONE] != GPULAT_NONE && j->j.ts[GPULAT_ST_QUEUE] == GPULAT_NONE)
		t->c.orphan_done++;
	t->c.jobs++;
	if (t->xe)
		j->j.hang |= gpulat__xe_take(t->xe, j->j.seq);
	keep_last(t, j);
	if (t->ops.job)
		t->ops.job(&j->j, t->data);
	free_job(t, j);
}

static void evict_if_needed(struct gpulat_tracker *t)
{
	while (t->open.n > t->max_open && t->open.head) {
		if (!t->warned_cap) {
			t->warned_cap = true;
			twarn(t, "more than %zu GPU jobs in flight; the oldest are reported as incomplete",
			      t->max_open);
		}
		t->c.dropped_open++;
		emit(t, t->open.head);
	}
}

/* emit held jobs whose signal did not come within the linger time */
static void expire_held(struct gpulat_tracker *t, uint64_t now)
{
	while (t->held.head) {
		struct job *j = t->held.head;

		if (j->j.ts[GPULAT_ST_DONE] + t->linger >= now)
			break;
		emit(t, j);
	}
}

/* the done stage: compute start_ts from the ring FIFO, then emit or hold */
static void complete(struct gpulat_tracker *t, struct job *j, const struct gpulat_event *ev)
{
	struct gpulat_job *g = &j->j;
	uint64_t prev = j->ring ? j->ring->last_done : GPULAT_NONE;
	uint64_t base;

	stage(j, GPULAT_ST_DONE, ev);
	if (run_expected(t))
		base = g->ts[GPULAT_ST_RUN];
	else
		base = g->ts[GPULAT_ST_QUEUE];
	if (base != GPULAT_NONE)
		g->start_ts = (prev != GPULAT_NONE && prev > base) ? prev : base;
	if (g->start_ts != GPULAT_NONE && g->start_ts > ev->ts)
		g->start_ts = ev->ts;
	if (j->ring)
		j->ring->last_done = ev->ts;

	/* the fence pointer is free for reuse from now on; (ring, id) is done too */
	unindex(t, j, false);
	dc_add(t, j);

	if (!t->signal_expected || t->linger == 0 || g->ts[GPULAT_ST_SIGNAL] != GPULAT_NONE) {
		emit(t, j);
		return;
	}
	list_del(&t->open, j);
	list_add_tail(&t->held, j);
	j->held = true;
	if (ensure_cpu(t, ev->cpu) == 0) {
		/* a later done on this cpu means the previous one's signal is not coming */
		struct job *old = t->cpu_slot[ev->cpu];

		t->cpu_slot[ev->cpu] = j;
		j->slot_cpu = ev->cpu;
		if (old && old != j) {
			old->slot_cpu = -1;
			if (!old->in_fence)
				emit(t, old);
		}
	}
	/* the done's job, also while it waits for its signal (not the old one) */
	keep_last(t, j);
}

static void job_queue_fields(struct gpulat_tracker *t, struct job *j, const struct gpulat_event *ev)
{
	stage(j, GPULAT_ST_QUEUE, ev);
	j->j.pid = ev->pid;
	j->j.comm = tstr(t, ev->comm);
	if (ev->flags & GPULAT_EVF_COUNTS)
		j->j.job_count = ev->job_count;
	if (ev->flags & GPULAT_EVF_CLIENT)
		j->j.client_id = ev->client_id;
}

static int on_queue(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct ring *r = get_ring(t, ev->dev, ev->ring);
	struct job *j = NULL;

	if (ev->flags & GPULAT_EVF_FENCE_PTR) {
		/* <= 6.16: a queue always starts a job, unless amdgpu_cs_ioctl did */
		if (ev->flags & GPULAT_EVF_ID) {
			j = find_id(t, r, ev->id);
			if (j && (!j->from_amd || j->j.ts[GPULAT_ST_QUEUE] != GPULAT_NONE))
				j = NULL;
		}
		if (!j)
			j = new_job(t, ev, r);
		if (!j)
			return -ENOMEM;
		set_ptr(t, j, ev->fence_ptr);
		if (ev->flags & GPULAT_EVF_ID)
			set_id(t, j, ev->id);
		if (ensure_cpu(t, ev->cpu) == 0 && t->init_slot[ev->cpu].pair) {
			struct initslot *is = &t->init_slot[ev->cpu];

			/* arm and push happen back to back: a stale pair is another job's */
			if (!j->in_fence && ev->ts - is->ts <= INIT_MAX_AGE_NS &&
			    (!is->timeline || !ev->ring || (ev->flags & GPULAT_EVF_RING_PTR) ||
			     !strcmp(is->timeline, ev->ring))) {
				set_fence(t, j, is->ctx, is->seqno, true);
				learn_alias(t, j, is->timeline);
			}
			is->pair = false;
		}
	} else if (ev->flags & GPULAT_EVF_FENCE) {
		j = find_fence(t, ev->ctx, ev->seqno, true);
		if (j && j->j.ts[GPULAT_ST_QUEUE] != GPULAT_NONE && !j->from_amd)
			j = NULL;	/* a second queue of one fence: a new job */
		if (!j)
			j = new_job(t, ev, r);
		if (!j)
			return -ENOMEM;
		set_ring(t, j, r);
		if (j->in_fence && j->fence32) {
			/* created by a 32-bit event: take the full values */
			j->j.ctx = ev->ctx;
			j->j.seqno = ev->seqno;
			j->fence32 = false;
		}
		set_fence(t, j, ev->ctx, ev->seqno, false);
		ctx_learn(t, ev->ctx, r);
	} else {
		return 0;
	}
	if (r && j->from_amd) {
		/* the scheduler's queue event names the ring with its device */
		j->ring = NULL;
	}
	set_ring(t, j, r);
	job_queue_fields(t, j, ev);
	keep_last(t, j);
	evict_if_needed(t);
	return 0;
}

static int on_run(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct ring *r = get_ring(t, ev->dev, ev->ring);
	struct job *j = NULL;

	t->seen_run = true;
	if (ev->flags & GPULAT_EVF_FENCE_PTR) {
		if (ev->flags & GPULAT_EVF_ID)
			j = find_id(t, r, ev->id);
		if (j && j->j.ts[GPULAT_ST_RUN] != GPULAT_NONE)
			j = NULL;
		if (!j) {
			j = find_ptr(t, ev->fence_ptr);
			if (j && j->j.ts[GPULAT_ST_RUN] != GPULAT_NONE)
				j = NULL;
		}
		if (!j) {
			t->c.orphan_run++;
			j = new_job(t, ev, r);
			if (!j)
				return -ENOMEM;
			set_ptr(t, j, ev->fence_ptr);
			if (ev->flags & GPULAT_EVF_ID)
				set_id(t, j, ev->id);
		}
	} else if (ev->flags & GPULAT_EVF_FENCE) {
		j = find_fence(t, ev->ctx, ev->seqno, true);
		if (j && j->j.ts[GPULAT_ST_DONE] != GPULAT_NONE)
			j = NULL;
		if (!j) {
			t->c.orphan_run++;
			j = new_job(t, ev, r);
			if (!j)
				return -ENOMEM;
			set_fence(t, j, ev->ctx, ev->seqno, false);
		}
		ctx_learn(t, ev->ctx, r);
		if (ev->flags & GPULAT_EVF_CLIENT && j->j.client_id == GPULAT_NONE)
			j->j.client_id = ev->client_id;
	} else {
		return 0;
	}
	set_ring(t, j, r);
	if (!j->in_fence && ensure_cpu(t, ev->cpu) == 0)
		t->run_slot[ev->cpu] = j;
	if (j->j.ts[GPULAT_ST_RUN] == GPULAT_NONE) {
		stage(j, GPULAT_ST_RUN, ev);
		if (ev->flags & GPULAT_EVF_COUNTS)
			j->j.hw_job_count = ev->hw_job_count;
	}
	/* its done inserts it into the dependency cache: load those buckets now */
	gpulat__htab_prefetch_slot(&t->dc_seq, j->j.seq, 0);
	if (j->in_fence)
		gpulat__htab_prefetch_slot(&t->dc_fence, FK(t, j->j.ctx), U32(j->j.seqno));
	keep_last(t, j);
	evict_if_needed(t);
	return 0;
}

static int on_done(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct job *j = NULL;

	if (ev->cpu >= 0 && ev->cpu < t->ncpus)
		t->run_slot[ev->cpu] = NULL;

	if (ev->flags & GPULAT_EVF_FENCE_PTR) {
		j = find_ptr(t, ev->fence_ptr);
		if (!j) {
			j = new_job(t, ev, NULL);
			if (!j)
				return -ENOMEM;
			j->j.fence_ptr = ev->fence_ptr;
		}
	} else if (ev->flags & GPULAT_EVF_FENCE) {
		j = find_fence(t, ev->ctx, ev->seqno, true);
		if (j && j->j.ts[GPULAT_ST_DONE] != GPULAT_NONE)
			j = NULL;
		if (!j) {
			j = new_job(t, ev, ctx_ring(t, ev->ctx));
			if (!j)
				return -ENOMEM;
			set_fence(t, j, ev->ctx, ev->seqno, false);
		}
	} else {
		return 0;
	}
	complete(t, j, ev);
	return 0;
}

static bool sched_driver(const char *drv)
{
	return drv && (!strcmp(drv, "drm_sched") || !strcmp(drv, "amd_sched"));
}

static void attach_signal(struct gpulat_tracker *t, struct job *j, const struct gpulat_event *ev)
{
	struct dent *d;

	if (j->j.ts[GPULAT_ST_SIGNAL] == GPULAT_NONE)
		stage(j, GPULAT_ST_SIGNAL, ev);
	if (!j->in_fence) {
		set_fence(t, j, ev->ctx, ev->seqno, (ev->flags & GPULAT_EVF_FENCE32) != 0);
		d = dc_find_seq(t, j->j.seq);
		if (d)
			dc_set_fence(t, d, ev->ctx, ev->seqno);
	}
	if (j->ring == NULL && ev->timeline)
		set_ring(t, j, get_ring(t, t->empty, ev->timeline));
	else if (sched_driver(ev->driver))
		learn_alias(t, j, ev->timeline);
	if (j->slot_cpu >= 0 && j->slot_cpu < t->ncpus && t->cpu_slot[j->slot_cpu] == j)
		t->cpu_slot[j->slot_cpu] = NULL;
	j->slot_cpu = -1;
	if (j->held)
		emit(t, j);
}

static int on_signal(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	bool full = !(ev->flags & GPULAT_EVF_FENCE32);
	struct job *j;

	if (t->watches.n)
		signal_watches(t, ev);
	if (!sched_driver(ev->driver) && t->era != GPULAT_ERA_AMDGPU)
		return 0;
	j = find_fence_signal(t, ev->ctx, ev->seqno, full);
	if (j) {
		if (t->era == GPULAT_ERA_AMDGPU && j->j.ts[GPULAT_ST_DONE] == GPULAT_NONE) {
			/* amdgpu-only traces: the finished fence signal is the done */
			stage(j, GPULAT_ST_SIGNAL, ev);
			complete(t, j, ev);
			return 0;
		}
		attach_signal(t, j, ev);
		return 0;
	}
	if (!sched_driver(ev->driver) || ensure_cpu(t, ev->cpu))
		return 0;
	/*
	 * <= 6.16: the scheduled fence (context = finished - 1, same seqno) is
	 * signalled right after the run on the same cpu: it names the job's
	 * finished fence, whose signal may then come on any cpu.
	 */
	j = t->run_slot[ev->cpu];
	t->run_slot[ev->cpu] = NULL;
	if (j && !j->in_fence && j->j.ts[GPULAT_ST_DONE] == GPULAT_NONE &&
	    (!ev->timeline || !j->ring || !strncmp(j->ring->name, "0x", 2) ||
	     !strcmp(j->ring->name, ev->timeline))) {
		set_fence(t, j, U32(ev->ctx + 1), ev->seqno, true);
		learn_alias(t, j, ev->timeline);
		return 0;
	}
	/* <= 6.16: the finished fence signal follows the done on the same cpu */
	j = t->cpu_slot[ev->cpu];
	if (j && !j->in_fence && j->j.ts[GPULAT_ST_SIGNAL] == GPULAT_NONE &&
	    (!ev->timeline || !j->ring || j->ring->name == t->unknown ||
	     !strncmp(j->ring->name, "0x", 2) || !strcmp(j->ring->name, ev->timeline)))
		attach_signal(t, j, ev);
	return 0;
}

static int watch(struct gpulat_tracker *t, struct job *j, unsigned int dep, uint64_t ctx,
		 uint64_t seqno)
{
	struct watch *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->job = j;
	w->dep = dep;
	if (gpulat__htab_insert(&t->watches, &w->node, FK(t, ctx), U32(seqno))) {
		free(w);
		return -ENOMEM;
	}
	w->next = j->watches;
	j->watches = w;
	return 0;
}

static void unwatch(struct gpulat_tracker *t, struct job *j)
{
	struct watch *w, *next;

	for (w = j->watches; w; w = next) {
		next = w->next;
		gpulat__htab_remove(&t->watches, &w->node);
		free(w);
	}
	j->watches = NULL;
}

/* a watched foreign fence signalled: the waiting jobs learn when */
static void signal_watches(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct gpulat__hnode *n, *next;

	for (n = gpulat__htab_find(&t->watches, FK(t, ev->ctx), U32(ev->seqno)); n; n = next) {
		struct watch *w = gpulat_container_of(n, struct watch, node);
		struct gpulat_dep *d = &w->job->deps[w->dep];

		next = gpulat__htab_next(n);
		if (d->signal_ts == GPULAT_NONE)
			d->signal_ts = ev->ts;
	}
}

static int on_init(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct initslot *is;

	if (!sched_driver(ev->driver) || ensure_cpu(t, ev->cpu))
		return 0;
	is = &t->init_slot[ev->cpu];
	if (is->have_prev && U32(is->pctx + 1) == U32(ev->ctx) && U32(is->pseqno) == U32(ev->seqno)) {
		is->ts = ev->ts;
		is->ctx = ev->ctx;
		is->seqno = ev->seqno;
		is->timeline = ev->timeline;
		is->pair = true;
		is->have_prev = false;
		return 0;
	}
	is->have_prev = true;
	is->pctx = ev->ctx;
	is->pseqno = ev->seqno;
	return 0;
}

static struct job *waiting_job(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	if (ev->flags & GPULAT_EVF_FENCE)
		return find_fence(t, ev->ctx, ev->seqno, true);
	if (ev->flags & GPULAT_EVF_ID)
		return find_id(t, get_ring(t, ev->dev, ev->ring), ev->id);
	return NULL;
}

static int on_dep(struct gpulat_tracker *t, const struct gpulat_event *ev, bool unsched)
{
	struct gpulat_dep dep, *nd;
	struct job *j, *p = NULL;
	struct dent *d = NULL;
	unsigned int i;

	j = waiting_job(t, ev);
	if (!j)
		return 0;
	memset(&dep, 0, sizeof(dep));
	dep.ctx = (ev->flags & GPULAT_EVF_DEP) ? ev->dep_ctx : GPULAT_NONE;
	dep.seqno = (ev->flags & GPULAT_EVF_DEP) ? ev->dep_seqno : GPULAT_NONE;
	dep.ptr = (ev->flags & GPULAT_EVF_DEP_PTR) ? ev->dep_ptr : 0;
	dep.job_seq = GPULAT_NONE;
	dep.signal_ts = GPULAT_NONE;
	dep.unschedulable = unsched;

	/*
	 * The producer: by the fence's ctx:seqno first (open job, then recently
	 * completed), then by pointer; a pointer match whose fence is known to
	 * differ is a reused pointer and is rejected.
	 */
	if (dep.ctx != GPULAT_NONE) {
		bool full = !(ev->flags & GPULAT_EVF_DEP_PTR);

		p = find_fence(t, dep.ctx, dep.seqno, full);
		if (p == j)
			p = NULL;
		if (!p)
			d = dc_find_fence(t, dep.ctx, dep.seqno);
		if (!p && !d && unsched) {
			/* the scheduled fence (context - 1) of a same-ring job */
			p = find_fence(t, dep.ctx + 1, dep.seqno, full);
			if (p == j)
				p = NULL;
			if (!p)
				d = dc_find_fence(t, dep.ctx + 1, dep.seqno);
		}
	}
	if (!p && !d && dep.ptr) {
		p = find_ptr(t, dep.ptr);
		if (p == j || (p && p->in_fence && dep.ctx != GPULAT_NONE &&
			       (U32(p->j.ctx) != U32(dep.ctx) || U32(p->j.seqno) != U32(dep.seqno))))
			p = NULL;
		if (!p) {
			d = dc_find_ptr(t, dep.ptr);
			if (d && d->in_fence && dep.ctx != GPULAT_NONE &&
			    (U32(d->ctx) != U32(dep.ctx) || U32(d->seqno) != U32(dep.seqno)))
				d = NULL;
		}
	}
	if (p) {
		dep.job_seq = p->j.seq;
		dep.dev = p->j.dev;
		dep.ring = p->ring ? shown_ring(p) : NULL;
	} else if (d) {
		dep.job_seq = d->seq;
		dep.dev = d->dev;
		dep.ring = d->ring;
		dep.signal_ts = d->done_ts;
	}

	for (i = 0; i < j->ndeps; i++) {
		struct gpulat_dep *o = &j->deps[i];

		if ((dep.job_seq != GPULAT_NONE && o->job_seq == dep.job_seq) ||
		    (dep.job_seq == GPULAT_NONE && o->job_seq == GPULAT_NONE &&
		     U32(o->ctx) == U32(dep.ctx) && U32(o->seqno) == U32(dep.seqno) &&
		     o->ptr == dep.ptr)) {
			o->unschedulable |= unsched;
			return 0;
		}
	}
	if (j->ndeps == j->capdeps) {
		unsigned int cap = j->capdeps ? j->capdeps * 2 : 4;

		nd = realloc(j->deps, cap * sizeof(*nd));
		if (!nd)
			return -ENOMEM;
		j->deps = nd;
		j->capdeps = cap;
	}
	j->deps[j->ndeps++] = dep;
	if (dep.job_seq == GPULAT_NONE && dep.ctx != GPULAT_NONE)
		return watch(t, j, j->ndeps - 1, dep.ctx, dep.seqno);
	return 0;
}

static int on_amd(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	struct ring *r = get_ring(t, t->era == GPULAT_ERA_V617 ? ev->dev : t->empty,
				  ev->ring ? ev->ring : ev->timeline);
	bool fence32 = (ev->flags & GPULAT_EVF_FENCE32) != 0;
	struct job *j = NULL;

	if (ev->flags & GPULAT_EVF_FENCE)
		j = find_fence(t, ev->ctx, ev->seqno, !fence32);
	if (!j && (ev->flags & GPULAT_EVF_ID))
		j = find_id(t, r, ev->id);
	if (j && j->j.ts[GPULAT_ST_DONE] != GPULAT_NONE)
		j = NULL;

	if (t->era == GPULAT_ERA_AMDGPU) {
		/* the only job events: cs = queue, run = run, signal = done */
		if (!j) {
			j = new_job(t, ev, r);
			if (!j)
				return -ENOMEM;
			j->from_amd = true;
			set_fence(t, j, ev->ctx, ev->seqno, fence32);
			if (ev->flags & GPULAT_EVF_ID)
				set_id(t, j, ev->id);
		}
		if (ev->kind == GPULAT_EV_AMD_CS) {
			if (j->j.ts[GPULAT_ST_QUEUE] == GPULAT_NONE)
				job_queue_fields(t, j, ev);
		} else if (j->j.ts[GPULAT_ST_RUN] == GPULAT_NONE) {
			t->seen_run = true;
			stage(j, GPULAT_ST_RUN, ev);
		}
		evict_if_needed(t);
		return 0;
	}
	/*
	 * With scheduler events the amdgpu ones only name the job's fence and
	 * submitter. amdgpu_cs_ioctl comes before the scheduler's queue event:
	 * it opens the job, which the queue event then fills in.
	 */
	if (!j && ev->kind == GPULAT_EV_AMD_CS &&
	    (t->era == GPULAT_ERA_V519 || t->era == GPULAT_ERA_V617)) {
		j = new_job(t, ev, r);
		if (!j)
			return -ENOMEM;
		j->from_amd = true;
		j->j.pid = ev->pid;
		j->j.comm = tstr(t, ev->comm);
		if (ev->flags & GPULAT_EVF_ID)
			set_id(t, j, ev->id);
	}
	if (j)
		set_fence(t, j, ev->ctx, ev->seqno, fence32);
	evict_if_needed(t);
	return 0;
}

/* ---- drivers without drm_sched (track-*.c) -------------------------------- */

static uint64_t sink_opened(void *data)
{
	struct gpulat_tracker *t = data;

	t->c.open++;
	if (t->c.open > t->c.open_peak)
		t->c.open_peak = t->c.open;
	return t->next_seq++;
}

static void sink_emit(void *data, struct gpulat_job *j)
{
	struct gpulat_tracker *t = data;

	t->c.open--;
	if (j->ts[GPULAT_ST_DONE] != GPULAT_NONE && j->ts[GPULAT_ST_QUEUE] == GPULAT_NONE)
		t->c.orphan_done++;
	t->c.jobs++;
	t->last = *j;
	t->last.deps = NULL;
	t->has_last = true;
	if (t->ops.job)
		t->ops.job(j, t->data);
}

static void sink_last(void *data, const struct gpulat_job *j)
{
	struct gpulat_tracker *t = data;

	t->last = *j;
	t->last.deps = NULL;
	t->has_last = true;
}

static bool sink_lost(void *data, uint64_t from, uint64_t to)
{
	return lost_between(data, -1, from, to);
}

static int on_i915(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	if (!t->i915) {
		struct gpulat__sink sk = {
			.data = t, .opened = sink_opened, .emit = sink_emit,
			.last = sink_last, .lost = sink_lost, .strs = t->strs,
		};

		t->i915 = gpulat__i915_new(&sk);
		if (!t->i915)
			return -ENOMEM;
	}
	return gpulat__i915_feed(t->i915, ev);
}

static int on_xe(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	if (!t->xe) {
		t->xe = gpulat__xe_new();
		if (!t->xe)
			return -ENOMEM;
	}
	return gpulat__xe_feed(t->xe, ev);
}

/* a queue or run event was fed: xe links its jobs to it (track-xe.c) */
static int xe_after(struct gpulat_tracker *t, const struct gpulat_event *ev, int ret)
{
	if (ret || !t->xe || !t->has_last)
		return ret;
	if (ev->kind == GPULAT_EV_QUEUE)
		return gpulat__xe_queued(t->xe, ev, t->last.seq);
	return gpulat__xe_ran(t->xe, ev, t->last.seq);
}

/* ---- API ------------------------------------------------------------------ */

/**
 * gpulat_tracker_new - a job tracker
 * @ops: callbacks (copied); ops->job receives every final job
 * @data: their argument
 *
 * Return: the tracker, or NULL with errno set.
 */
struct gpulat_tracker *gpulat_tracker_new(const struct gpulat_tracker_ops *ops, void *data)
{
	struct gpulat_tracker *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (ops)
		t->ops = *ops;
	t->data = data;
	t->max_open = DEFAULT_MAX_OPEN;
	t->linger = DEFAULT_LINGER_NS;
	t->strs = gpulat__strtab_new();
	if (!t->strs)
		goto fail;
	t->empty = gpulat__strtab_intern(t->strs, "");
	t->unknown = gpulat__strtab_intern(t->strs, "?");
	if (!t->empty || !t->unknown)
		goto fail;
	if (gpulat__htab_init(&t->rings, 16) || gpulat__htab_init(&t->ctxs, 64) ||
	    gpulat__htab_init(&t->by_fence, 1024) || gpulat__htab_init(&t->by_ptr, 1024) ||
	    gpulat__htab_init(&t->by_id, 1024) || gpulat__htab_init(&t->dc_seq, 1024) ||
	    gpulat__htab_init(&t->watches, 64) ||
	    gpulat__htab_init(&t->dc_fence, 1024) || gpulat__htab_init(&t->dc_ptr, 1024))
		goto fail;
	return t;
fail:
	gpulat_tracker_free(t);
	errno = ENOMEM;
	return NULL;
}

/**
 * gpulat_tracker_free - free the tracker; open jobs are dropped without callback
 * @t: tracker, may be NULL
 *
 * Call gpulat_tracker_flush() first to receive them.
 */
void gpulat_tracker_free(struct gpulat_tracker *t)
{
	struct gpulat__hnode *n, *next;
	struct ring *r, *rn;
	size_t i;

	if (!t)
		return;
	gpulat__i915_free(t->i915);
	gpulat__xe_free(t->xe);
	while (t->open.head) {
		struct job *j = t->open.head;

		list_del(&t->open, j);
		free_job(t, j);
	}
	while (t->held.head) {
		struct job *j = t->held.head;

		list_del(&t->held, j);
		free_job(t, j);
	}
	while (t->free_jobs) {
		struct job *j = t->free_jobs;

		t->free_jobs = j->next;
		free(j->deps);
		free(j);
	}
	for (r = t->all_rings; r; r = rn) {
		rn = r->next_all;
		free(r);
	}
	for (i = 0; i < t->ctxs.nb; i++) {
		for (n = t->ctxs.b[i]; n; n = next) {
			next = n->next;
			free(gpulat_container_of(n, struct ctxmap, node));
		}
	}
	gpulat__htab_fini(&t->rings);
	gpulat__htab_fini(&t->ctxs);
	gpulat__htab_fini(&t->by_fence);
	gpulat__htab_fini(&t->by_ptr);
	gpulat__htab_fini(&t->by_id);
	gpulat__htab_fini(&t->watches);
	gpulat__htab_fini(&t->dc_seq);
	gpulat__htab_fini(&t->dc_fence);
	gpulat__htab_fini(&t->dc_ptr);
	free(t->dc);
	free(t->cpu_slot);
	free(t->run_slot);
	free(t->init_slot);
	free(t->cpu_last);
	free(t->lost);
	gpulat__strtab_free(t->strs);
	free(t);
}

/**
 * gpulat_tracker_set_max_open - cap on jobs in flight
 * @t: tracker
 * @max_open: the cap (0 = 1); beyond it the oldest open job is emitted as
 *	incomplete, counted in dropped_open and warned about once
 */
void gpulat_tracker_set_max_open(struct gpulat_tracker *t, size_t max_open)
{
	t->max_open = max_open ? max_open : 1;
}

/**
 * gpulat_tracker_set_signal_expected - finished-fence signals are in the trace
 * @t: tracker
 * @expected: if true, a done job waits (see gpulat_tracker_set_linger()) for
 *	its dma_fence_signaled before it is emitted
 */
void gpulat_tracker_set_signal_expected(struct gpulat_tracker *t, bool expected)
{
	t->signal_expected = expected;
}

/**
 * gpulat_tracker_set_era - the era of the events to come
 * @t: tracker
 * @era: gpulat_binding_era() of the trace
 */
void gpulat_tracker_set_era(struct gpulat_tracker *t, enum gpulat_era era)
{
	t->era = era;
}

/**
 * gpulat_tracker_set_linger - how long a done job waits for its signal
 * @t: tracker
 * @linger_ns: trace time; 0 emits at done
 */
void gpulat_tracker_set_linger(struct gpulat_tracker *t, uint64_t linger_ns)
{
	t->linger = linger_ns;
}

/**
 * gpulat_tracker_feed - feed one event, in time order across all CPUs
 * @t: tracker
 * @ev: the event (from gpulat_binding_decode() or built by hand)
 *
 * Return: 0, or a negative errno on allocation failure.
 */
int gpulat_tracker_feed(struct gpulat_tracker *t, const struct gpulat_event *ev)
{
	if (!ev)
		return -EINVAL;
	t->has_last = false;
	t->cur_file = ev->file;
	if (ensure_cpu(t, ev->cpu) == 0 && ev->ts > t->cpu_last[ev->cpu])
		t->cpu_last[ev->cpu] = ev->ts;
	if (ev->ts > t->last_ts)
		t->last_ts = ev->ts;
	if (t->held.head)
		expire_held(t, ev->ts);

	switch (ev->kind) {
	case GPULAT_EV_QUEUE:
		return xe_after(t, ev, on_queue(t, ev));
	case GPULAT_EV_RUN:
		return xe_after(t, ev, on_run(t, ev));
	case GPULAT_EV_DONE:
		return on_done(t, ev);
	case GPULAT_EV_DEP:
		return on_dep(t, ev, false);
	case GPULAT_EV_UNSCHED:
		return on_dep(t, ev, true);
	case GPULAT_EV_FENCE_SIGNALED:
		/* an i915 request fence, or a drm_sched one */
		if (t->i915 && gpulat__i915_feed(t->i915, ev))
			return -ENOMEM;
		return on_signal(t, ev);
	case GPULAT_EV_FENCE_INIT:
		return on_init(t, ev);
	case GPULAT_EV_AMD_CS:
	case GPULAT_EV_AMD_RUN:
		return on_amd(t, ev);
	case GPULAT_EV_I915_ADD:
	case GPULAT_EV_I915_SUBMIT:
	case GPULAT_EV_I915_IN:
	case GPULAT_EV_I915_OUT:
	case GPULAT_EV_I915_RETIRE:
		return on_i915(t, ev);
	case GPULAT_EV_XE_JOB_EXEC:
	case GPULAT_EV_XE_JOB_RUN:
	case GPULAT_EV_XE_JOB_TIMEDOUT:
	case GPULAT_EV_XE_JOB_SET_ERROR:
	case GPULAT_EV_XE_JOB_BAN:
	case GPULAT_EV_XE_JOB_FREE:
		return on_xe(t, ev);
	default:
		return 0;
	}
}

/**
 * gpulat_tracker_lost - events were lost on @cpu just before @ts
 * @t: tracker
 * @cpu: the cpu whose ring buffer overran
 * @ts: first timestamp after the gap
 * @count: events lost, 0 = unknown
 *
 * The gap starts at the last event fed for @cpu.
 */
void gpulat_tracker_lost(struct gpulat_tracker *t, int cpu, uint64_t ts, uint64_t count)
{
	uint64_t from = 0;

	if (ensure_cpu(t, cpu) == 0)
		from = t->cpu_last[cpu];
	gpulat_tracker_lost_range(t, cpu, from, ts, count);
}

/**
 * gpulat_tracker_lost_range - events were lost on @cpu between two timestamps
 * @t: tracker
 * @cpu: the cpu
 * @from_ts: last record seen on @cpu before the gap (0 if none)
 * @to_ts: first record after the gap
 * @count: events lost, 0 = unknown
 *
 * Jobs with a stage missing whose possible time overlaps the gap become LOST.
 */
void gpulat_tracker_lost_range(struct gpulat_tracker *t, int cpu, uint64_t from_ts,
			       uint64_t to_ts, uint64_t count)
{
	t->c.lost_events += count;
	add_lost(t, cpu, from_ts, to_ts);
}

/**
 * gpulat_tracker_flush - end of trace: emit every job still held or open
 * @t: tracker
 * @end_ts: last timestamp of the trace (informational)
 */
void gpulat_tracker_flush(struct gpulat_tracker *t, uint64_t end_ts)
{
	(void)end_ts;
	while (t->held.head)
		emit(t, t->held.head);
	while (t->open.head)
		emit(t, t->open.head);
	if (t->i915)
		gpulat__i915_flush(t->i915);
}

/**
 * gpulat_tracker_last_job - the job the last gpulat_tracker_feed() belonged to
 * @t: tracker
 *
 * For front ends that print event by event (the libtraceevent plugin): after a
 * queue or run event, the open job with the stages seen so far; after a done
 * event, the job as it was emitted, or, while it waits for its finished-fence
 * signal (linger), the job with its done stage and start_ts set. A copy, valid
 * until the next call into the tracker; @deps is NULL.
 *
 * Return: the job, or NULL when the last event belonged to no job.
 */
const struct gpulat_job *gpulat_tracker_last_job(const struct gpulat_tracker *t)
{
	return t->has_last ? &t->last : NULL;
}

/**
 * gpulat_tracker_ring_name - the name of a ring of the current file, so far
 * @t: tracker
 * @dev: the event's device ("" / NULL before 6.17)
 * @ring: the event's ring as traced
 *
 * Return: the real name of a "0x..." label once learned (see learn_alias()),
 * else @ring. Strings live until gpulat_tracker_free().
 */
const char *gpulat_tracker_ring_name(struct gpulat_tracker *t, const char *dev,
				     const char *ring)
{
	struct gpulat__hnode *n;
	uint64_t k1;

	if (!ring || !gpulat_ring_is_ptr(ring))
		return ring;
	/* the key of get_ring(), without creating the ring */
	k1 = (uintptr_t)tstr(t, dev) ^ ((uint64_t)t->cur_file << 56);
	n = gpulat__htab_find(&t->rings, k1, (uintptr_t)tstr(t, ring));
	if (n && gpulat_container_of(n, struct ring, node)->alias)
		return gpulat_container_of(n, struct ring, node)->alias;
	return ring;
}

/**
 * gpulat_tracker_counters - read the counters
 * @t: tracker
 * @c: filled
 */
void gpulat_tracker_counters(const struct gpulat_tracker *t,
			     struct gpulat_tracker_counters *c)
{
	*c = t->c;
}
